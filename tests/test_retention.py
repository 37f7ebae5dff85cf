"""`retention.gc`: old history goes, the ledger and the decision context stay."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
import respx
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.report import line as report
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle
from karakuri_agent.state.sqlite.db import connect
from karakuri_agent.state.sqlite.ledger import Ledger
from karakuri_agent.state.retention import KEEP_ACTIVITY, KEEP_MEMORY, forget
from karakuri_agent.app.maintenance import collect
from karakuri_agent.state.base import SUCCEEDED
from karakuri_agent.state.sqlite.store import SQLiteStore
from testing.store_rows import ref

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
MEI = {"id": "1474403124906295517", "name": "桜草メイ"}


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def conn(tmp_path: Path):
    connection = connect(tmp_path / "state")
    yield connection
    connection.close()


def table(conn: sqlite3.Connection, name: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in conn.execute(f"SELECT * FROM {name} ORDER BY 1")]


def live(store: SQLiteStore, clock: Clock, *, days_ago: float, notification_id: str, command: str = "move",
         node: str = "6-11", conversation: str | None = None) -> None:
    """One handled notification, as the cycle writes it, `days_ago` before NOW."""
    clock.now = NOW - timedelta(days=days_ago)
    Ledger(store._conn, clock).claim(notification_id, command, {"target_node_id": node})  # on its own, as the cycle
    with store.batch():
        _live(store, clock, notification_id, command, node, conversation)
    clock.now = NOW


def _live(store: SQLiteStore, clock: Clock, notification_id: str, command: str, node: str,
          conversation: str | None) -> None:
    ledger = Ledger(store._conn, clock)
    store.save_notification(notification_id, {"notification_id": notification_id, "notification": {"text": "x"}})
    store.record_request(notification_id, "idle_reminder_fired")
    ledger.finish(notification_id, SUCCEEDED, {"ok": True})
    store.record_command(notification_id, "idle_reminder_fired", command, {"target_node_id": node}, True,
                         "ok", {"ok": True}, "理由")
    store.add_memory(notification_id, "action", f"{node}へ移動した")
    store.see_people([ref(MEI)])
    store.touch_person(MEI["id"], MEI["name"])
    store.learn_places([{"node_id": node, "name": f"場所{node}"}])
    store.set_knowledge("get_map", {"nodes": [node]})
    if conversation:
        store.add_utterance(conversation, f"{notification_id}のひとこと")


def context_of(store: SQLiteStore) -> dict[str, Any]:
    """Everything a run reads from the store to build its context and view."""
    return {
        "activity": store.recent_activity(6),
        "commands": store.recent_commands(6),
        "last_command": store.recent_commands(1),
        "memory": store.recent_memory(NOW - timedelta(days=3), 12),
        "memory_all": store.recent_memory(NOW - timedelta(days=10_000), 12),
        "due": store.pending_commitments(NOW - timedelta(hours=1), 8),
        "pending": store.pending_commitments(None, 50),
        "places": store.known_places(),
        "roster": store.person_id("桜草メイ"),
        "people": store.people([MEI["id"]]),
        "knowledge": store.knowledge_times(),
        "talk": store.utterances("with:1474403124906295517", 20),
    }


@pytest.fixture
def history(conn):
    """200 notifications over 100 days, a quiet week, then today's conversation."""
    clock = Clock()
    store = SQLiteStore(conn, clock)
    for i in range(200):
        live(store, clock, days_ago=100 - i / 2, notification_id=f"notif-old{i:03d}", node=f"{i % 9}-1",
             conversation="with:old-friend" if i % 10 == 0 and i < 100 else None)
    live(store, clock, days_ago=0.1, notification_id="notif-today", conversation="with:1474403124906295517")
    # The conversation going on today began 40 days ago: all its lines stay.
    clock.now = NOW - timedelta(days=40)
    store.add_utterance("with:1474403124906295517", "ずっと前のひとこと")
    # Promises: an old kept one, an old pending undated one, a pending one due soon, a recent kept one.
    for n, (days, due, fulfilled) in enumerate([(90, None, True), (90, None, False), (0.2, NOW + timedelta(minutes=30),
                                                                                       False), (1, None, True)]):
        clock.now = NOW - timedelta(days=days)
        store.add_commitment(f"notif-promise{n}", {"partner_id": MEI["id"], "partner_name": MEI["name"],
                                                    "due_at": due.isoformat() if due else None,
                                                    "source_text": f"約束{n}"})
        if fulfilled:
            row = conn.execute("SELECT id FROM commitments WHERE source_text = ?", (f"約束{n}",)).fetchone()
            store.fulfil_commitments([row[0]])
    clock.now = NOW
    return store


def test_gc_deletes_old_history_and_keeps_the_ledger_people_places_and_knowledge(conn, history):
    kept_forever = {name: table(conn, name) for name in ("attempts", "people", "places", "knowledge")}
    before = {name: len(table(conn, name)) for name in ("activity", "memory", "notifications", "utterances")}

    deleted = forget(SQLiteStore(conn), keep_days=30, now=NOW)

    assert {name: table(conn, name) for name in kept_forever} == kept_forever
    assert len(kept_forever["attempts"]) == 201
    for name, count in before.items():
        assert len(table(conn, name)) == count - deleted[name]
    cutoff = deleted["cutoff"]
    assert cutoff == "2026-10-30T12:00:00.000+00:00"
    assert conn.execute("SELECT MIN(fetched_at) FROM notifications").fetchone()[0] >= cutoff
    assert conn.execute("SELECT COUNT(*) FROM activity WHERE created_at < ?", (cutoff,)).fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM memory WHERE created_at < ?", (cutoff,)).fetchone()[0] == 0
    assert deleted["activity"] == 2 * 140 and deleted["memory"] == 140 and deleted["notifications"] == 140
    assert [r[0] for r in conn.execute("SELECT source_text FROM commitments ORDER BY id")] == ["約束1", "約束2", "約束3"]
    assert deleted["commitments"] == 1
    assert conn.execute("SELECT COUNT(*) FROM utterances WHERE conversation_key = 'with:old-friend'").fetchone()[0] == 0
    assert [r[0] for r in conn.execute("SELECT message FROM utterances WHERE conversation_key ="
                                       " 'with:1474403124906295517' ORDER BY id")] == [
        "notif-todayのひとこと", "ずっと前のひとこと"]


def test_gc_keeps_the_decision_context_exactly(conn, history):
    before = context_of(history)
    forget(SQLiteStore(conn), keep_days=1, now=NOW)
    assert context_of(history) == before


def test_after_a_long_silence_the_newest_entries_survive_whatever_their_age(conn):
    clock = Clock()
    store = SQLiteStore(conn, clock)
    for i in range(30):
        live(store, clock, days_ago=400 - i, notification_id=f"notif-{i:03d}", node=f"{i}-1")
    clock.now = NOW - timedelta(days=380)
    for i in range(5):  # the last few entries are requests without a command
        store.record_request(f"notif-seen{i}", "idle_reminder_fired")
    clock.now = NOW
    before = context_of(store)

    deleted = forget(SQLiteStore(conn), keep_days=7, now=NOW)

    assert context_of(store) == before
    assert len(table(conn, "activity")) == KEEP_ACTIVITY + 5  # newest 6 overall, and newest 6 commands
    assert len(table(conn, "memory")) == KEEP_MEMORY
    assert len(table(conn, "attempts")) == 30 and deleted["notifications"] == 30


def test_gc_twice_deletes_nothing_the_second_time(conn, history):
    forget(SQLiteStore(conn), keep_days=30, now=NOW)
    again = forget(SQLiteStore(conn), keep_days=30, now=NOW)
    assert {k: v for k, v in again.items() if k != "cutoff"} == dict.fromkeys(
        ("activity", "memory", "notifications", "utterances", "heard_lines", "journal", "commitments"), 0)


@pytest.mark.parametrize("bad", [-1, 1.5, "30", True, None, 36_501, 99_999_999_999])
def test_keep_days_must_be_a_whole_number_of_days(conn, bad):
    with pytest.raises(ValueError):
        forget(SQLiteStore(conn), keep_days=bad, now=NOW)


def test_an_old_message_delivered_again_after_gc_still_finds_its_claim(conn, history, env):
    """The ledger is forever: gc never opens a door to a second command."""
    forget(SQLiteStore(conn), keep_days=1, now=NOW)
    assert conn.execute("SELECT COUNT(*) FROM notifications WHERE notification_id = 'notif-old000'").fetchone()[0] == 0
    with respx.mock(assert_all_called=False) as mock:  # the same state directory (tmp_path / "state")
        result = handle("notification_id: notif-old000", load_settings())
        assert mock.calls.call_count == 0
    assert result.report == report.ALREADY_HANDLED


def test_collect_runs_on_the_configured_state_directory(env):
    state = Path(env["KARAKURI_STATE_DIR"])
    conn = connect(state)
    clock = Clock()
    store = SQLiteStore(conn, clock)
    for i in range(20):
        live(store, clock, days_ago=60 + i, notification_id=f"notif-c{i}")
    conn.close()
    deleted = collect(load_settings(require_api=False), 30)
    assert deleted["notifications"] == 20 and deleted["activity"] > 0
    check = sqlite3.connect(state / "karakuri.db")
    assert check.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 20
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    check.close()


@given(
    ages=st.lists(st.floats(0, 200), min_size=1, max_size=25),
    keep_days=st.integers(0, 90),
    talk=st.lists(st.booleans(), min_size=25, max_size=25),
)
@settings(max_examples=25, deadline=None)
def test_any_history_keeps_its_context_and_its_ledger(tmp_path_factory, ages, keep_days, talk):
    conn = connect(tmp_path_factory.mktemp("gc") / "state")
    try:
        clock = Clock()
        store = SQLiteStore(conn, clock)
        for i, age in enumerate(sorted(ages, reverse=True)):  # ids grow with time, as in real use
            live(store, clock, days_ago=age, notification_id=f"notif-p{i}",
                 conversation="with:1474403124906295517" if talk[i] else None)
        before, attempts = context_of(store), table(conn, "attempts")
        deleted = forget(SQLiteStore(conn), keep_days=keep_days, now=NOW)
        after = context_of(store)
        talk_is_recent = conn.execute("SELECT COUNT(*) FROM utterances WHERE created_at >= ?",
                                      (deleted["cutoff"],)).fetchone()[0]
        if not talk_is_recent:  # a conversation silent for longer than keep_days is over: its lines go
            assert after.pop("talk") == [] and before.pop("talk") is not None
        assert after == before
        assert table(conn, "attempts") == attempts
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
