"""The state file: numbered migrations, applied once, in order, recorded."""

import sqlite3

import pytest

from karakuri_agent.state.sqlite import db
from karakuri_agent.errors import ConfigError


def versions(conn):
    return [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]


def test_a_new_state_file_gets_every_migration_recorded(tmp_path):
    conn = db.connect(tmp_path)
    assert versions(conn) == [version for version, _, _ in db.MIGRATIONS]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_older_file_is_brought_up_to_date_keeping_its_data(tmp_path):
    path = db.prepare_state_dir(tmp_path)
    old = sqlite3.connect(path, isolation_level=None)
    first = db.MIGRATIONS[:1]
    old.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
    first[0][2](old)
    old.execute("INSERT INTO schema_migrations VALUES (1, 'initial', '2026-01-01')")
    old.execute("INSERT INTO utterances (conversation_key, message, created_at) VALUES ('k', 'やあ', '2026-01-01')")
    old.close()

    conn = db.connect(tmp_path)
    assert versions(conn) == [1, 2, 3, 4, 5, 7, 8, 9]
    assert [tuple(row) for row in conn.execute("SELECT message, opens FROM utterances")] == [("やあ", 0)]


def test_a_migration_numbered_below_the_newest_applied_one_is_still_applied(tmp_path, monkeypatch):
    """Numbers are not contiguous: a file that has 8 and not a 6 added since still gets the 6."""
    db.connect(tmp_path).close()
    added = []
    monkeypatch.setattr(db, "MIGRATIONS", sorted(db.MIGRATIONS + [(6, "added_since", lambda c: added.append(6))]))
    conn = db.connect(tmp_path)
    assert added == [6] and 6 in versions(conn)
    assert db.migrate(conn) == []


def test_migrating_again_applies_nothing(tmp_path):
    conn = db.connect(tmp_path)
    assert db.migrate(conn) == []


def test_a_failed_migration_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    def broken(conn):
        conn.execute("CREATE TABLE half_done (x)")
        raise sqlite3.OperationalError("boom")

    db.connect(tmp_path).close()
    monkeypatch.setattr(db, "MIGRATIONS", db.MIGRATIONS + [(99, "broken", broken)])
    with pytest.raises(ConfigError, match="boom"):
        db.connect(tmp_path)
    conn = sqlite3.connect(tmp_path / db.DB_FILENAME)
    assert 99 not in versions(conn)
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'").fetchone() is None
