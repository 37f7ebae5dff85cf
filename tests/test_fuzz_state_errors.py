"""Fuzz: whatever a statement does on the SQLite state, no driver exception leaves the backend (issue 28, 10)."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from karakuri_agent.errors import StateUnavailable
from karakuri_agent.state.sqlite import db

WORDS = st.sampled_from(["SELECT", "INSERT", "INTO", "attempts", "VALUES", "(", ")", "?", ",", "1", "'x'", ";",
                         "FROM", "knowledge", "WHERE", "key", "=", "DROP", "TABLE", "nope", "PRAGMA",
                         "\x00", "BEGIN", "COMMIT", "notification_id", "*"])
STATEMENT = st.one_of(st.lists(WORDS, max_size=10).map(" ".join),
                      st.text(st.characters(blacklist_categories=("Cs",)), max_size=30))


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = db.connect(tmp_path_factory.mktemp("state"))
    yield connection
    connection.close()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql=STATEMENT, params=st.lists(st.one_of(st.integers(), st.text(max_size=5), st.none()), max_size=3))
def test_any_statement_either_runs_or_is_a_state_error(conn, sql, params):
    try:
        cursor = conn.execute(sql, params)
        cursor.fetchall()
    except StateUnavailable as exc:
        assert exc.code in ("state_unavailable", "state_busy") and "\n" not in exc.message
    except sqlite3.Error as exc:  # pragma: no cover - the failure this test exists to catch
        pytest.fail(f"a driver error left the backend: {type(exc).__name__}: {exc}")
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
