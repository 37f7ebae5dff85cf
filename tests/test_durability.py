"""What waits for the disk: the ledger's claim, and only it.

The claim must be committed and synced before the command is sent; the
store's writes are grouped into batches that commit without waiting (they
can be learned again, and the claim's sync carries them along). These tests
watch the SQLite connection with `sqlite3`'s own trace callback and read the
file through a second connection, so the oracle is SQLite, not the package.
"""

from __future__ import annotations

import sqlite3

import httpx
import pytest
import respx

from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import Agent
from karakuri_agent.domain.clock import utc_now
from karakuri_agent.state.sqlite.db import DB_FILENAME, transaction
from karakuri_agent.state.factory import open_url
from karakuri_agent.state.sqlite.backend import SQLiteState
from karakuri_agent.state.sqlite.guard import GuardedConnection

from testing.samples import BASE_URL
from testing.sqltrace import FULL, NORMAL, Commits

NID = "notif-01JDX9M7QZ"
BODY = f"🔔 桜草メイ が話しかけています。\nnotification_id: {NID}"


def test_a_notification_syncs_once_for_its_claim_which_is_on_disk_before_the_command(env, notification,
                                                                                      state_dir):
    claims_seen_by_the_post: list[list[tuple]] = []

    def on_post(request: httpx.Request) -> httpx.Response:
        with sqlite3.connect(state_dir / DB_FILENAME) as other:  # another connection sees only what is committed
            claims_seen_by_the_post.append(other.execute("SELECT notification_id, outcome FROM attempts").fetchall())
        return httpx.Response(200, json={"ok": True})

    state = SQLiteState(state_dir)
    commits = Commits(state.conn)
    with respx.mock:
        respx.get(f"{BASE_URL}/agents/notifications/{NID}").respond(200, json=notification)
        respx.post(f"{BASE_URL}/agents/command").mock(side_effect=on_post)
        with Agent.open(load_settings(), state=state) as opened:
            result = opened.handle(BODY, remember=lambda: state.store.set_knowledge("listen.last_seen", {"c": "1"}))
    assert result.sent
    assert claims_seen_by_the_post == [[(NID, "claimed")]]
    assert [sql.split("(")[0].strip() for sql in commits.synced()] == ["INSERT INTO attempts"]
    # The fetch's learning, the outcome with its record, the report entry with the caller's writes.
    assert len(commits.seen) == 4
    assert state.conn.execute("PRAGMA synchronous").fetchone()[0] == FULL
    assert state.store.knowledge("listen.last_seen")["value"] == {"c": "1"}
    state.close()


def test_a_batch_commits_without_a_sync_and_sets_the_connection_back_even_when_it_fails(tmp_path):
    state = SQLiteState(tmp_path)
    levels: list[int] = []
    with state.store.batch():
        levels.append(state.conn.execute("PRAGMA synchronous").fetchone()[0])
        state.store.add_memory("n1", "action", "kept")
    with pytest.raises(RuntimeError), state.store.batch():
        raise RuntimeError("crash in the middle")
    assert levels == [NORMAL]
    assert state.conn.execute("PRAGMA synchronous").fetchone()[0] == FULL
    with sqlite3.connect(tmp_path / DB_FILENAME) as other:
        assert other.execute("SELECT content FROM memory").fetchall() == [("kept",)]
    state.close()


def test_a_nested_transaction_that_fails_undoes_only_its_own_writes(tmp_path):
    state = SQLiteState(tmp_path)
    with transaction(state.conn):
        state.store.add_memory("n1", "action", "outer")
        with pytest.raises(RuntimeError), transaction(state.conn):
            state.store.add_memory("n1", "action", "inner")
            raise RuntimeError("the inner part fails")
    assert [r[0] for r in state.conn.execute("SELECT content FROM memory")] == ["outer"]
    state.close()


class _InterruptedAfter(GuardedConnection):
    """A connection whose `after`-th statement succeeds and then a signal's exception arrives (SIGTERM's)."""

    after = 0

    def execute(self, sql: str, parameters=(), /):
        cursor = super().execute(sql, parameters)
        self.__dict__.setdefault("ran", []).append(sql)
        if len(self.ran) == self.after:
            raise SystemExit(143)
        return cursor


def _write_in(conn: sqlite3.Connection, wait_for_disk: bool, nested: bool, table: str) -> None:
    with transaction(conn, wait_for_disk=wait_for_disk):
        if nested:
            with transaction(conn, wait_for_disk=wait_for_disk):
                conn.execute(f"INSERT INTO {table} (key, value, updated_at) VALUES ('k', '1', 'now')")
        else:
            conn.execute(f"INSERT INTO {table} (key, value, updated_at) VALUES ('k', '1', 'now')")


@pytest.mark.parametrize("nested", [False, True])
@pytest.mark.parametrize("wait_for_disk", [True, False])
def test_a_signal_after_any_statement_of_a_transaction_goes_on_out_and_leaves_it_closed(tmp_path, wait_for_disk,
                                                                                         nested):
    # The town's SIGTERM once came right after BEGIN: the setting's reset in `finally` failed inside the
    # open transaction, its state error hid the exit, and the next claim found a transaction open.
    SQLiteState(tmp_path).close()  # the schema
    plain = _InterruptedAfter(":memory:", isolation_level=None)
    plain.execute("CREATE TABLE t (key, value, updated_at)")
    _write_in(plain, wait_for_disk, nested, "t")
    ran = plain.ran[1:]  # BEGIN (a SAVEPOINT), the INSERT, COMMIT (a RELEASE), the setting and its reset
    plain.close()
    for after in range(1, len(ran) + 1):
        conn = sqlite3.connect(tmp_path / DB_FILENAME, isolation_level=None, factory=_InterruptedAfter)
        conn.after = after
        with pytest.raises(SystemExit) as left:
            _write_in(conn, wait_for_disk, nested, "knowledge")
        assert left.value.code == 143  # the signal's own exit, not a state error raised while unwinding
        conn.after = 0
        assert not conn.in_transaction
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == FULL
        conn.close()
        with sqlite3.connect(tmp_path / DB_FILENAME) as other:
            kept = other.execute("DELETE FROM knowledge WHERE key = 'k' RETURNING key").fetchall()
        assert bool(kept) == (after > ran.index("COMMIT")), (after, ran)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_claim_inside_a_batch_is_refused_and_nothing_is_claimed(backend, request, tmp_path):
    url = request.getfixturevalue("postgres_url") if backend == "postgres" else ""
    state = open_url(url, tmp_path, utc_now)
    with pytest.raises(RuntimeError, match="not inside a batch"), state.store.batch():
        state.ledger.claim(NID, "wait", {})
    assert state.ledger.previous(NID) is None
    state.close()


def test_a_postgres_batch_does_not_wait_for_the_flush_but_the_claim_does(postgres_url, tmp_path):
    state = open_url(postgres_url, tmp_path, utc_now)
    inside: list[str] = []
    with state.store.batch():
        inside.append(state.conn.execute("SHOW synchronous_commit").fetchone()[0])
    after = state.conn.execute("SHOW synchronous_commit").fetchone()[0]
    assert inside == ["off"] and after != "off"
    state.close()
