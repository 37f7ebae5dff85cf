"""When to leave for a meeting: walks learned from the server's `arrives_at`.

The symptom: the agent kept talking until 30 minutes before a meeting
several roads away and arrived late. How long a walk takes is learned from
the moves the server accepted, not assumed.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.domain.identity import Identity
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.decide.rules import propose
from karakuri_agent.domain.records import Meeting, Parsed
from karakuri_agent.mind.view import View
from karakuri_agent.state.memory import MemoryState
from karakuri_agent.memory.travel import CEILING, FLOOR, learn_trip, time_to_walk, trips
from testing.store_rows import as_lines, as_places, as_refs

NOW = datetime(2026, 5, 2, 10, 0, tzinfo=TOKYO)
ME = Identity("1470446478261747854", "AIニケちゃん")


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


@pytest.fixture
def store():
    state = MemoryState(lambda: NOW)
    yield state.store
    state.close()


def _at(node: str) -> dict:
    return Parsed(location={"current_node": {"node_id": node, "name": "どこか"}})


@pytest.mark.parametrize("minutes, arrives", [(40, lambda m: _ms(NOW + timedelta(minutes=m))),
                                              (55, lambda m: (NOW + timedelta(minutes=m)).isoformat())])
def test_an_accepted_move_teaches_its_walk_from_here_to_there(store, minutes, arrives):
    learn_trip(store, "move", {"target_node_id": "9-4"}, {"ok": True, "arrives_at": arrives(minutes)}, _at("1-1"), NOW)
    assert trips(store) == [{"from": "1-1", "to": "9-4", "minutes": minutes}]
    assert time_to_walk(trips(store), "9-4", "1-1") == timedelta(minutes=minutes)  # the same road back


def test_a_move_from_an_unstated_place_starts_where_the_last_walk_ended(store):
    learn_trip(store, "move", {"target_node_id": "2-2"}, {"arrives_at": _ms(NOW + timedelta(minutes=20))}, _at("1-1"), NOW)
    later = NOW + timedelta(hours=1)
    learn_trip(store, "move", {"target_node_id": "3-3"}, {"arrives_at": _ms(later + timedelta(minutes=35))}, Parsed(), later)
    assert [(t["from"], t["to"]) for t in trips(store)] == [("1-1", "2-2"), ("2-2", "3-3")]


@pytest.mark.parametrize("command, result", [
    ("action", {"completes_at": _ms(NOW + timedelta(minutes=30))}),
    ("move", {"ok": True}),
    ("move", {"arrives_at": _ms(NOW - timedelta(minutes=5))}),
    ("move", {"arrives_at": _ms(NOW + timedelta(days=2))}),
    ("move", {"arrives_at": "いつか"}),
])
def test_anything_but_a_plausible_walk_teaches_nothing(store, command, result):
    learn_trip(store, command, {"target_node_id": "2-2"}, result, _at("1-1"), NOW)
    assert trips(store) == []


def test_an_unwalked_place_is_as_far_as_the_longest_recent_walk_within_floor_and_ceiling():
    walked = [{"from": "1-1", "to": "2-2", "minutes": 10}, {"from": "2-2", "to": "5-5", "minutes": 70}]
    assert time_to_walk(walked, "1-1", "8-8") == timedelta(minutes=70)
    assert time_to_walk(walked[:1], "1-1", "8-8") == FLOOR
    assert time_to_walk([], None, "8-8") == FLOOR
    assert time_to_walk([{"from": "1-1", "to": "8-8", "minutes": 300}], "1-1", "8-8") == CEILING


def _talk(minutes_to_meeting: int, walked: list[dict]) -> View:
    speak = Choice.from_json({"command": "conversation_speak", "required_params": ["message", "next_speaker_agent_id"]})
    end = Choice.from_json({"command": "conversation_end", "required_params": ["message", "next_speaker_agent_id"]})
    places = [{"node_id": "4-1", "name": "商店街 入口"}, {"node_id": "12-7", "name": "展望台 デッキ"}]
    meeting = Meeting(partner_id="2", partner_name="黒瀬コウ", place_name="展望台 デッキ", node_id="12-7",
                      due_at=NOW + timedelta(minutes=minutes_to_meeting), source_text="展望台で会おう")
    return View(notification_id="n", choices=[speak, end],
                parsed=Parsed(notification_type="conversation_message",
                              participants=as_refs([{"id": "1", "name": "桜草メイ"}]),
                              conversation_messages=as_lines([
                                  {"speaker": "桜草メイ", "speaker_id": "1", "message": "それでね"}]),
                              location={"current_node": {"node_id": "4-1", "name": "商店街 入口"}}),
                pending=[meeting], people=[], me=ME, now=NOW,
                persona=load_persona(), places=as_places(places), meetings=[meeting], trips=walked)


@pytest.mark.parametrize("walk, due_in", [(50, 60), (70, 80), (40, 50)])
def test_a_talk_ends_in_time_for_a_long_walk_learned_before(walk, due_in):
    walked = [{"from": "12-7", "to": "4-1", "minutes": walk}]
    assert propose(_talk(due_in, walked)).candidates[0].command == "conversation_end"


@pytest.mark.parametrize("walk, due_in", [(10, 45), (50, 80)])
def test_a_talk_goes_on_while_the_walk_leaves_time(walk, due_in):
    walked = [{"from": "4-1", "to": "12-7", "minutes": walk}]
    assert propose(_talk(due_in, walked)).candidates[0].command == "conversation_speak"


def _idle(minutes_to_meeting: int, actions: list[tuple[str, float | None]], walked: list[dict]) -> View:
    """Free time at 4-1, actions of the given lengths offered, a meeting at 12-7 ahead."""
    action = Choice.from_json({"command": "action", "required_params": ["action_id"],
                               "param_schema": {"action_id": {"type": "string", "enum": [a for a, _ in actions]}}})
    meeting = Meeting(partner_id="2", partner_name="黒瀬コウ", place_name="展望台 デッキ", node_id="12-7",
                      due_at=NOW + timedelta(minutes=minutes_to_meeting), source_text="展望台で会おう")
    return View(notification_id="n", choices=[action],
                parsed=Parsed(notification_type="idle_reminder_fired", participants=[], conversation_messages=[],
                              actions=[{"action_id": a, "name": f"{a}をする", "minutes": m} for a, m in actions],
                              location={"current_node": {"node_id": "4-1", "name": "商店街 入口"}}),
                pending=[meeting], people=[], me=ME, now=NOW,
                persona=load_persona(), places=as_places([{"node_id": "4-1", "name": "商店街 入口"},
                                                           {"node_id": "12-7", "name": "展望台 デッキ"}]),
                meetings=[meeting], trips=walked)


@pytest.mark.parametrize("due_in, walk, long, short", [(150, 50, 120, 30), (120, 40, 75, 20), (100, 10, 80, 45)])
def test_an_action_that_would_end_after_it_must_set_off_is_not_started(due_in, walk, long, short):
    walked = [{"from": "4-1", "to": "12-7", "minutes": walk}]
    chosen = {d.params.get("action_id") for d in propose(_idle(due_in, [("long", long), ("short", short)], walked)).candidates
              if d.command == "action"}
    assert chosen == {"short"}


def test_an_action_that_ends_in_time_may_be_started():
    walked = [{"from": "4-1", "to": "12-7", "minutes": 20}]
    chosen = {d.params.get("action_id") for d in propose(_idle(170, [("long", 120)], walked)).candidates if d.command == "action"}
    assert chosen == {"long"}
