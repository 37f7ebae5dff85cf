"""A day out: every named place the world told of is a destination, the walk keeps one goal, the
map is asked for when too few places are known, and a night woken by a talk is not for walking.

Pure: a View in, the rules' first candidate out.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Sequence

from karakuri_agent.decide.rules import propose
from karakuri_agent.domain import nodes
from karakuri_agent.domain.identity import Identity
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.records import Activity, Parsed, Place
from karakuri_agent.mind.view import View
from karakuri_agent.voice.persona_pack import load_persona

ME = Identity("1470446478261747854", "AIニケちゃん")
NOON = datetime(2026, 4, 18, 3, 0, tzinfo=timezone.utc)  # 12:00 in Tokyo
LATE = datetime(2026, 4, 18, 13, 30, tzinfo=timezone.utc)  # 22:30 in Tokyo, before the pack rests the agent itself
WAIT = Choice.from_json({"command": "wait", "required_params": ["duration"],
                         "param_schema": {"duration": {"type": "integer", "minimum": 1, "maximum": 6}}})
GET_MAP = Choice.from_json({"command": "get_map"})
TOWN = [Place("4-4", "神社 境内"), Place("5-4", "神社 入口"), Place("10-5", "銭湯 店内"), Place("11-5", "銭湯 入口"),
        Place("4-11", "商店街アーケード"), Place("9-13", "中央広場"), Place("12-3", "川沿いの遊歩道")]


def move(enum: Sequence[str] = ()) -> Choice:
    spec = {"type": "string", **({"enum": list(enum)} if enum else {})}
    return Choice.from_json({"command": "move", "required_params": ["target_node_id"],
                             "param_schema": {"target_node_id": spec}})


def sight(here: str) -> list[str]:
    """The street nodes a move lists: everything within three steps of `here` on a 14×14 grid."""
    row, col = (int(p) for p in here.split("-"))
    return [f"{r}-{c}" for r in range(1, 15) for c in range(1, 15)
            if 0 < abs(r - row) + abs(c - col) <= 3]


def view(nid: str, here: str, *, places: Sequence[Place] = TOWN, enum: Sequence[str] = (), now: datetime = NOON,
         recent: Sequence[Activity] = (), choices: Sequence[Choice] = ()) -> View:
    name = next((p.name for p in places if p.node_id == here), None)
    parsed = Parsed(notification_type="movement_completed", participants=[],
                    location={"current_node": {"node_id": here, "name": name}})
    return View(notification_id=nid, choices=[move(enum), WAIT, *choices], parsed=parsed, me=ME, now=now,
                persona=load_persona(), places=list(places), recent_commands=list(recent))


def moved(to: str, minutes: int) -> Activity:
    return Activity(minutes, NOON - timedelta(minutes=minutes), f"notif-m{minutes}", "command", command="move",
                    params={"target_node_id": to}, success=True)


def test_a_named_place_beyond_sight_is_walked_toward_through_the_node_nearest_it():
    """Known from the map, never visited, not in the move's list: the step taken brings it nearer."""
    far = [Place("2-2", "神社 入口")]
    chosen = propose(view("notif-far", "12-12", places=far, enum=sight("12-12"))).candidates[0]
    assert chosen.command == "move"
    step = str(chosen.params["target_node_id"])
    assert step in sight("12-12")
    assert nodes.distance(step, "2-2") == min(nodes.distance(n, "2-2") for n in sight("12-12"))  # type: ignore[type-var]


def test_the_walk_to_a_far_place_keeps_one_goal_whatever_the_notification():
    """Two far places alike: the nearer is the goal from every step, not a coin tossed per notification
    (a fresh tie at each step sent the agent back and forth between two nodes for hours)."""
    for nid in range(40):
        here, trail = "7-7", []
        for step in range(8):
            if here == "2-2":
                break
            enum = sight(here)
            chosen = propose(view(f"notif-{nid}-{step}", here, places=[Place("2-2", "神社 入口"), Place("14-14", "駅 入口")],
                                  enum=enum)).candidates[0]
            assert chosen.command == "move"
            here = str(chosen.params["target_node_id"])
            trail.append(here)
        assert len(set(trail)) == len(trail), trail  # never back to a node it stood on
        assert nodes.distance(here, "2-2") == 0 or nodes.distance(here, "2-2") < nodes.distance("7-7", "2-2")


def test_with_fewer_than_four_places_known_the_map_is_asked_for_once():
    few = [Place("10-5", "銭湯 店内"), Place("4-4", "神社 境内")]
    asked = propose(view("notif-few", "7-7", places=few, choices=[GET_MAP])).candidates
    assert [d.command for d in asked][:1] == ["get_map"]
    plenty = propose(view("notif-plenty", "7-7", choices=[GET_MAP])).candidates
    assert "get_map" not in [d.command for d in plenty]
    again = view("notif-again", "7-7", places=few, choices=[GET_MAP])
    again = View(**{**again.__dict__, "knowledge_age": {"get_map": timedelta(hours=2)}})
    assert "get_map" not in [d.command for d in propose(again).candidates]


def test_woken_by_a_talk_at_night_it_stays_where_it_slept():
    """A sleep, then a talk that woke it, at 22:30: waited out an hour at a time, no walk."""
    slept = Activity(1, LATE - timedelta(minutes=40), "notif-s", "command", command="action",
                     params={"action_id": "sleep", "duration_minutes": 450}, success=True, reason="ここで寝る")
    talked = Activity(2, LATE - timedelta(minutes=5), "notif-t", "command", command="conversation_speak",
                      params={"message": "おやすみ"}, success=True)
    chosen = propose(view("notif-woken", "6-12", now=LATE, recent=[talked, slept],
                          places=[*TOWN, Place("6-12", "自宅")])).candidates
    assert chosen[0].command == "wait" and chosen[0].params["duration"] == 6
    assert all(d.command != "move" for d in chosen)
    morning = propose(view("notif-morning", "6-12", now=LATE + timedelta(hours=9), recent=[talked, slept],
                           places=[*TOWN, Place("6-12", "自宅")])).candidates
    assert any(d.command == "move" for d in morning)


def test_by_day_a_place_it_just_left_is_not_the_next_goal():
    left = propose(view("notif-left", "7-5", recent=[moved("7-5", 5), moved("10-5", 20)],
                        enum=sight("7-5"))).candidates[0]
    assert left.command == "move" and left.params["target_node_id"] not in ("10-5", "11-5")
