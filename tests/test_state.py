"""Both state backends keep the same promises (state/base.py), and the URL chooses one."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
import respx
from click.testing import CliRunner

from testing.samples import BODY, CONVERSATION_REQUEST, GET_URL
from karakuri_agent.reading import textparse as tp
from karakuri_agent.app.cli import agent
from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.errors import AlreadyAttempted
from karakuri_agent.state.base import SUCCEEDED
from karakuri_agent.state.memory import MemoryState
from karakuri_agent.state.factory import open_url

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now

    def tick(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["sqlite", "memory", "postgres"])
def state(request, tmp_path, clock):
    if request.param == "memory":
        opened = MemoryState(clock)
    else:
        url = request.getfixturevalue("postgres_url") if request.param == "postgres" else ""
        opened = open_url(url, tmp_path / "state", clock)
    yield opened
    opened.close()


def test_a_second_claim_raises_already_attempted_with_the_first(state):
    state.ledger.claim("notif-a", "move", {"target_node_id": "1-1"})
    with pytest.raises(AlreadyAttempted) as raised:
        state.ledger.claim("notif-a", "wait", {})
    assert raised.value.previous["command"] == "move"
    state.ledger.finish("notif-a", SUCCEEDED, {"ok": True})
    assert state.ledger.previous("notif-a")["outcome"] == SUCCEEDED
    assert state.ledger.previous("notif-b") is None


def test_one_request_entry_per_notification_and_commands_newest_first(state, clock):
    first = state.store.record_request("notif-a", "idle_reminder_fired")
    assert state.store.record_request("notif-a", "idle_reminder_fired") == first
    for command in ("move", "wait", "action"):
        clock.tick(minutes=1)
        state.store.record_command("notif-a", "idle_reminder_fired", command, {"n": 1}, True, "", {}, "why")
    assert [c.command for c in state.store.recent_commands(2)] == ["action", "wait"]
    [request] = [e for e in state.store.recent_activity(10) if e.kind == "request"]
    assert request.command is None and request.id == first and request.created_at == NOW
    assert state.store.recent_commands(1)[0].params == {"n": 1} and state.store.recent_commands(1)[0].success is True


def test_people_are_counted_by_contact_and_found_by_name(state, clock):
    state.store.see_people([PersonRef("1", "メイ"), PersonRef("2", "")])
    for _ in range(5):
        state.store.touch_person("1", "メイ")
    state.store.touch_person("3", "ルナ")
    assert [(p.agent_id, p.interactions) for p in state.store.people(["3", "1", "2"])] == [("3", 1), ("1", 5)]
    assert state.store.people(["1"])[0].last_contact == clock()
    assert state.store.person_id("ルナ") == "3" and state.store.person_id("誰か") is None


def test_promises_sort_undated_last_and_a_kept_one_stays_a_meeting(state, clock):
    due = (NOW + timedelta(hours=1)).isoformat(timespec="milliseconds")
    state.store.add_commitment("n1", {"partner_name": "メイ", "source_text": "いつか", "due_at": None})
    state.store.add_commitment("n1", {"partner_name": "メイ", "source_text": "1時間後に駅で", "due_at": due})
    state.store.add_commitment("n1", {"partner_name": "メイ", "source_text": "1時間後に駅で", "due_at": due})
    pending = state.store.pending_commitments(NOW)
    assert [c.source_text for c in pending] == ["1時間後に駅で", "いつか"]
    state.store.fulfil_commitments([pending[0].id])
    assert [c.source_text for c in state.store.pending_commitments(NOW)] == ["いつか"]
    [meeting] = state.store.meetings(NOW, NOW + timedelta(hours=2))
    assert meeting.status == "fulfilled"


def test_every_backend_finds_the_same_broken_promises(state, clock):
    from karakuri_agent.memory.promises import broken_promises, withdraw

    def promise(name: str, hours_ago: float) -> None:
        due = (NOW - timedelta(hours=hours_ago)).isoformat(timespec="milliseconds")
        state.store.add_commitment("n1", {"partner_name": name, "source_text": f"{name}と駅で", "due_at": due,
                                          "line_key": name})

    for name, hours_ago in [("コウ", 4), ("リン", 3.5), ("メイ", 4), ("ルナ", 4), ("ソラ", 2), ("昔", 24 * 3)]:
        promise(name, hours_ago)
    ids = {m.partner_name: m.id for m in state.store.meetings(NOW - timedelta(days=4), NOW, 50)}
    state.store.fulfil_commitments([ids["メイ"]])
    withdraw(state.store, [ids["ルナ"]])
    # Three hours past its time, unkept and not called off; one older than the lookback is forgotten.
    assert [p.partner_name for p in broken_promises(state.store, NOW)] == ["コウ", "リン"]


def test_a_withdrawn_promise_is_never_offered_again_however_many_follow(state, clock):
    from karakuri_agent.memory.promises import withdraw

    due = (NOW + timedelta(hours=1)).isoformat(timespec="milliseconds")
    for i in range(205):
        state.store.add_commitment("n1", {"partner_name": f"p{i}", "source_text": f"{i}時に駅で", "due_at": due})
    ids = [m.id for m in state.store.meetings(NOW, NOW + timedelta(hours=2), 300)]
    withdraw(state.store, ids[:204])  # more than the 200 a capped list of ids could hold
    assert [m.partner_name for m in state.store.meetings(NOW, NOW + timedelta(hours=2), 300)] == ["p204"]
    assert [c.partner_name for c in state.store.pending_commitments(NOW, 300)] == ["p204"]
    assert state.store.knowledge_times() == {}  # nothing of it is kept in the knowledge table


def test_a_name_made_from_the_map_never_replaces_the_nodes_own_label(state):
    """The map's building list names an entrance (`神社 入口`); the world's own label for the node wins,
    whichever is read first, and the map's name fills only a node nobody named."""
    label = tp.parse_places("現在地: 3-3 (神社「赤鳥居」 入口)")
    drawn = tp.parse_places("  神社 [入口: 3-3, 3-4] - 赤い鳥居が立つ")
    state.store.learn_places(drawn)
    state.store.learn_places(label)
    state.store.learn_places(drawn)
    names = {p.node_id: p.name for p in state.store.known_places()}
    assert names == {"3-3": "神社「赤鳥居」 入口", "3-4": "神社 入口"}
    both = tp.parse_places("  神社 [入口: 3-3] - 赤い鳥居が立つ\n現在地: 3-3 (神社「赤鳥居」 入口)")
    assert [p["name"] for p in both] == ["神社「赤鳥居」 入口"]


@pytest.mark.parametrize("first", ["label", "building"])
def test_a_buildings_entry_never_replaces_the_label_of_its_door(state, first):
    """`銭湯「松の湯」 [11-5]` beside `11-5(銭湯 入口)` in another text: one name for the node whichever
    comes first, so the door does not flip names and look like a second bathhouse."""
    label = tp.parse_places("近くのノード: 11-5(銭湯 入口), 10-5(銭湯 店内)")
    entry = tp.parse_places("近くの建物: 銭湯「松の湯」 [11-5] / 神社 [5-4]")
    order = [label, entry, label, entry] if first == "label" else [entry, label, entry, label]
    for places in order:
        state.store.learn_places(places)
    names = {p.node_id: p.name for p in state.store.known_places()}
    assert names == {"11-5": "銭湯 入口", "10-5": "銭湯 店内", "5-4": "神社"}


def test_places_lines_and_knowledge(state, clock):
    state.store.learn_places([{"node_id": "2-1", "name": "駅"}, {"node_id": "1-1", "name": "公園"}])
    state.store.visit_place("9-9")  # visited, never named: not a known place
    state.store.visit_place("2-1")
    assert [(p.node_id, p.visits) for p in state.store.known_places()] == [("1-1", 0), ("2-1", 1)]
    assert [p.last_visited for p in state.store.known_places()] == [None, clock()]
    state.store.add_utterance("with:1", "こんにちは", opens=True)
    clock.tick(seconds=1)
    state.store.add_utterance("with:1", "またね")
    state.store.add_utterance("with:2", "ほかの人へ")
    assert [(u["message"], u["opens"]) for u in state.store.utterances("with:1", 5)] == [("またね", 0), ("こんにちは", 1)]
    state.store.set_knowledge("get_map", {"nodes": [1]})
    assert state.store.knowledge("get_map")["value"] == {"nodes": [1]}
    assert set(state.store.knowledge_times()) == {"get_map"}


def test_a_failed_batch_leaves_nothing_behind(state):
    with pytest.raises(RuntimeError), state.store.batch():
        state.store.add_memory("n1", "action", "half")
        raise RuntimeError("crash in the middle")
    assert state.store.recent_memory(NOW - timedelta(days=1)) == []


def test_forgetting_keeps_the_ledger_and_the_newest_entries(state, clock):
    for i in range(10):
        state.ledger.claim(f"n{i}", "wait", {})
        state.store.record_command(f"n{i}", "idle", "wait", {}, True, "", {})
        state.store.add_memory(f"n{i}", "action", f"line {i}")
    clock.tick(days=40)
    deleted = state.forget_before(30, clock())
    assert deleted["activity"] == 4 and deleted["memory"] == 0  # the newest 6 commands and 12 lines stay
    assert all(state.ledger.previous(f"n{i}") for i in range(10))


def test_a_dry_run_of_forgetting_counts_the_same_rows_and_deletes_none(state, clock):
    for i in range(10):
        state.store.record_command(f"n{i}", "idle", "wait", {}, True, "", {})
    clock.tick(days=40)
    planned = state.forget_before(30, clock(), dry_run=True)
    assert planned["activity"] == 4
    assert len(state.store.recent_activity(100)) == 10
    assert state.forget_before(30, clock()) == planned
    assert len(state.store.recent_activity(100)) == 6


def test_a_database_this_version_cannot_open_is_a_configuration_error(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_DATABASE_URL", "mysql://karakuri:pw-do-not-leak@db/karakuri")
    with respx.mock(assert_all_called=False) as mock:
        result = CliRunner().invoke(agent, ["handle", "notification_id: notif-01JDX9M7QZ"])
        assert mock.calls.call_count == 0
    assert result.exit_code == 2 and "postgresql://" in result.stderr
    assert "pw-do-not-leak" not in result.output + result.stderr


def test_sqlite_url_is_the_state_directory(env, monkeypatch, state_dir):
    monkeypatch.setenv("KARAKURI_DATABASE_URL", "sqlite:")
    result = CliRunner().invoke(agent, ["log"])  # reading creates nothing: there is no state there yet
    assert result.exit_code == 0 and f"no state yet in {state_dir}" in result.stderr and not state_dir.exists()
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        assert CliRunner().invoke(agent, ["handle", "--dry-run", BODY]).exit_code == 0
    assert (state_dir / "karakuri.db").exists()


def test_the_journal_keeps_one_fact_per_kind_and_key_and_reads_a_window_in_time_order(state, clock):
    later, earlier = NOW + timedelta(minutes=5), NOW
    state.store.add_to_journal("n2", "here", "n2", later, {"node_id": "2-1"})
    state.store.add_to_journal("n1", "here", "n1", earlier, {"node_id": "1-1", "label": "公園"})
    state.store.add_to_journal("n1", "here", "n1", later, {"node_id": "9-9"})  # the same fact again: ignored
    state.store.add_to_journal("n1", "line", "n1", earlier, {"text": "やあ"})  # same key, other kind: kept
    state.store.add_to_journal("n3", "here", "n3", NOW + timedelta(days=1), {"node_id": "3-3"})
    found = state.store.journal_between(NOW, NOW + timedelta(hours=1))
    assert [(e.kind, e.data) for e in found] == [
        ("here", {"node_id": "1-1", "label": "公園"}), ("line", {"text": "やあ"}), ("here", {"node_id": "2-1"})]
    assert found[0].notification_id == "n1" and found[0].at == earlier
    assert state.store.journal_between(NOW + timedelta(minutes=5), NOW + timedelta(minutes=6))[0].data == {
        "node_id": "2-1"}  # the start is in the window, the end is not
    assert state.store.journal_between(NOW - timedelta(hours=1), NOW) == []


def test_activity_and_promises_of_a_window(state, clock):
    state.store.record_request("before", "idle")
    clock.tick(hours=1)
    state.store.record_request("n1", "idle")
    state.store.record_command("n1", "idle", "move", {"target_node_id": "1-1"}, False, "no", {"error": "x"}, "why")
    state.store.record_report("n1", "idle", "からくり: 失敗。", dry_run=False, command=None, params=None,
                              reason="invalid_request: bad", failed=True)
    start, end = NOW + timedelta(minutes=30), NOW + timedelta(hours=2)
    entries = state.store.activity_between(start, end)
    assert [(e.notification_id, e.kind) for e in entries] == [("n1", "request"), ("n1", "command"), ("n1", "report")]
    assert entries[1].success is False and entries[1].params == {"target_node_id": "1-1"}
    assert entries[2].success is False and entries[2].reason == "invalid_request: bad"
    due_in = (NOW + timedelta(hours=1, minutes=30)).isoformat(timespec="milliseconds")
    due_later = (NOW + timedelta(days=2)).isoformat(timespec="milliseconds")
    clock.now = NOW - timedelta(days=1)  # heard the day before, due in the window
    state.store.add_commitment("old", {"partner_name": "メイ", "source_text": "明日駅で", "due_at": due_in})
    clock.now = NOW - timedelta(days=1)  # heard and due outside the window
    state.store.add_commitment("older", {"partner_name": "ソラ", "source_text": "いつか", "due_at": due_later})
    clock.now = NOW + timedelta(hours=1)  # heard in the window, due later
    state.store.add_commitment("n1", {"partner_name": "ルナ", "source_text": "あさって", "due_at": due_later,
                                      "node_id": "2-1", "place_name": "駅"})
    found = state.store.commitments_between(start, end)
    assert [p.partner_name for p in found] == ["メイ", "ルナ"]
    state.store.fulfil_commitments([found[0].id])
    kept = state.store.commitments_between(start, end)[0]
    assert kept.status == "fulfilled" and kept.fulfilled_at == clock.now
    assert found[1].created_at == clock.now and found[1].node_id == "2-1"


def test_recent_claims_are_newest_first_with_their_outcome(state, clock):
    state.ledger.claim("notif-a", "move", {"target_node_id": "1-1"})
    clock.tick(seconds=1)
    state.ledger.claim("notif-b", "wait", {"duration": 1})
    state.ledger.finish("notif-a", SUCCEEDED, {"ok": True})
    claims = state.ledger.recent_claims(5)
    assert [(c["notification_id"], c["command"], c["params"], c["outcome"]) for c in claims] == [
        ("notif-b", "wait", {"duration": 1}, "claimed"), ("notif-a", "move", {"target_node_id": "1-1"}, SUCCEEDED)]
    assert [c["notification_id"] for c in state.ledger.recent_claims(1)] == ["notif-b"]


def test_behaviour_state_is_kept_by_key_and_survives_a_restart(state, tmp_path, clock, request):
    store = state.store
    assert store.behaviour_state() == {}
    store.save_behaviour_state({"variables": {"energy": 40, "affection.桜草メイ": 5},
                                "rules": {"night-rest": {"fires": 1, "last_seq": 3}}, "clock": {"seq": 3}})
    with store.batch():
        store.save_behaviour_state({"clock": {"seq": 4, "day": "2026-11-29"}})  # one key replaced whole
    expected = {"clock": {"day": "2026-11-29", "seq": 4}, "rules": {"night-rest": {"fires": 1, "last_seq": 3}},
                "variables": {"affection.桜草メイ": 5, "energy": 40}}
    assert store.behaviour_state() == expected
    store.record_report("n1", "idle_reminder_fired", "待ちます", dry_run=False, command=None, params=None, reason="",
                        failed=False, behaviour={"rule": "night-rest", "gave_way": [{"rule": "x", "why": "spent"}]})
    assert (store.recent_activity(1)[0].behaviour or {})["rule"] == "night-rest"
    if isinstance(state, MemoryState):
        return  # nothing outlives the process
    url = request.getfixturevalue("postgres_url") if "postgres" in request.node.name else ""
    state.close()
    reopened = open_url(url, tmp_path / "state", clock)
    try:
        assert reopened.store.behaviour_state() == expected
    finally:
        reopened.close()
    state.close = lambda: None  # already closed above


def _fact(key: str, **extra) -> dict:
    return {"fact_key": key, "kind": "pet", "topic": "ミケ", "detail": "猫", "speaker_id": "7", "speaker_name": "メイ",
            "about_id": "7", "about_name": "メイ", "said_at": NOW.isoformat(timespec="milliseconds"),
            "due_on": None, "source": "猫を飼ってるの、名前はミケ。", "conversation_id": "c1", **extra}


def test_what_people_told_is_kept_per_person_with_when_it_was_brought_up(state, clock):
    store = state.store
    store.learn_facts([_fact("7|pet|ミケ|"), _fact("7|pet|ミケ|", topic="タマ"),
                       _fact("town|news|駅前のパン屋|", kind="news", about_id=None, about_name="", topic="駅前のパン屋"),
                       _fact("8|like|紅茶|", about_id="8", about_name="ルナ", topic="紅茶")])
    about_mei = store.told_facts(["7"], listener="7")
    assert [(f["topic"], f["mentioned_at"], f["withdrawn_at"]) for f in about_mei] == [("ミケ", None, None)]
    assert {f["topic"] for f in store.told_facts(["メイ"], listener="7", news=True)} == {"ミケ", "駅前のパン屋"}
    clock.tick(days=1)
    store.mention_fact("7|pet|ミケ|", "7", clock())
    [mei] = store.told_facts(["7"], listener="7")
    assert mei["mentioned_at"] == clock().isoformat(timespec="milliseconds")
    assert store.told_facts(["7"], listener="8")[0]["mentioned_at"] is None  # per listener
    store.withdraw_facts([mei["id"]], clock())
    assert store.told_facts(["7"])[0]["withdrawn_at"] is not None
    learned = store.facts_learned(NOW, NOW + timedelta(days=1))
    assert [f["fact_key"] for f in learned] == ["7|pet|ミケ|", "town|news|駅前のパン屋|", "8|like|紅茶|"]
    assert store.facts_learned(NOW + timedelta(days=1), NOW + timedelta(days=2)) == []
    clock.tick(days=400)
    state.forget_before(0, clock())  # memory, not history: gc keeps it
    assert len(store.told_facts(["7", "8"], news=True)) == 3


def test_what_people_told_survives_a_restart_and_a_copy(tmp_path, clock):
    from karakuri_agent.state.copy import copy_state

    first = open_url("", tmp_path / "a", clock)
    first.store.learn_facts([_fact("7|pet|ミケ|")])
    first.store.mention_fact("7|pet|ミケ|", "7", NOW)
    first.close()
    again = open_url("", tmp_path / "a", clock)
    target = open_url("", tmp_path / "b", clock)
    copied = copy_state(again, target)
    assert copied["told_facts"] == 1 and copied["fact_mentions"] == 1
    for opened in (again, target):
        [fact] = opened.store.told_facts(["7"], listener="7")
        assert fact["topic"] == "ミケ" and fact["mentioned_at"] is not None
        opened.close()


def _schema(state) -> dict[str, set[str]]:
    """The tables and columns a migrated database holds, under tables.py's names."""
    from karakuri_agent.state.tables import TABLES

    conn, dialect = state.store.connection, state.store.dialect
    if dialect.name == "sqlite":
        names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()]
        found = {name: {row[1] for row in conn.execute(f"PRAGMA table_info({name})").fetchall()} for name in names}
    else:
        found = {}
        for table, column in conn.execute("SELECT table_name, column_name FROM information_schema.columns"
                                          " WHERE table_schema = current_schema()").fetchall():
            found.setdefault(table, set()).add(column)
    ours = {dialect.table(t.name): t.name for t in TABLES}
    return {ours.get(name, name): columns for name, columns in found.items() if name != "schema_migrations"}


def test_every_table_and_column_a_migrated_database_holds_is_declared_once_in_tables(state):
    from karakuri_agent.state.tables import TABLES

    schema = _schema(state)
    assert set(schema) == {t.name for t in TABLES}
    for table in TABLES:
        assert set(table.columns) <= schema[table.name], table.name  # everything copied is there
        assert schema[table.name] - {"id"} <= set(table.columns) | set(table.not_copied), table.name
