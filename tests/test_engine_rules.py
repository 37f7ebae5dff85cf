"""The agent against the real engine's rules (issue 30): people are not places, refusals are learned,
requirements are met before an action is chosen, ranged params are filled, talks are started, reports
name buildings once.

Each case runs `handle()` in process on notifications written as the engine writes them
(`testing/engine_texts.py`), with respx as the server.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Callable

import pytest
import respx

from karakuri_agent.decide.rules import propose
from karakuri_agent.domain.identity import Identity, PersonRef
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.records import Parsed, Person
from karakuri_agent.mind.view import View
from karakuri_agent.memory import lessons
from karakuri_agent.reading import offers
from karakuri_agent.state.factory import open_state
from karakuri_agent.voice.persona_pack import load_persona

from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle
from testing import engine_texts as et

from testing.samples import BASE_URL

POST_URL = f"{BASE_URL}/agents/command"
NOW = datetime(2026, 4, 18, 6, 0, tzinfo=timezone.utc)
ME = Identity("1470446478261747854", "AIニケちゃん")
ACCEPTED = (200, {"ok": True, "message": "受け付けました"})


def live(notifications: list[dict[str, Any]],
         answer: Callable[[dict[str, Any]], tuple[int, dict[str, Any]]] = lambda sent: ACCEPTED,
         ) -> list[tuple[dict[str, Any] | None, str]]:
    """Each notification handled in turn: (the command sent or None, the report line)."""
    out = []
    for notification in notifications:
        nid = notification["notification_id"]
        with respx.mock(assert_all_called=False) as mock:
            mock.get(f"{BASE_URL}/agents/notifications/{nid}").respond(200, json=notification)
            sent: list[dict[str, Any]] = []

            def reply(request: Any) -> Any:
                import httpx

                body = json.loads(request.content)
                sent.append(body)
                status, payload = answer(body)
                return httpx.Response(status, json=payload)

            mock.post(POST_URL).mock(side_effect=reply)
            result = handle(f"notification_id: {nid}", load_settings())
        out.append((sent[0] if sent else None, result.report))
    return out


IMPASSABLE = (400, {"error": "impassable_node", "message": "Target node is not passable."})


# ---------------------------------------------------------------------------------- item 1: people are not places
def test_an_npc_from_a_perception_answer_is_never_a_destination(env):
    """The regression: the perception's `npcs` were learned as places and walked to, 37 of 39 refused."""
    perceived = {"command": "get_perception", "data": {
        "current_node": {"node_id": "6-11", "label": "喫茶店 店内"},
        "nodes": [{"node_id": "12-9", "type": "npc", "label": "猫"}, {"node_id": "7-11", "type": "door"}],
        "npcs": [{"npc_id": "cat", "name": "猫", "node_id": "12-9"},
                 {"npc_id": "staff", "name": "映画館スタッフ", "node_id": "16-14"}]}}
    first = et.idle("notif-p1", nodes=(), buildings=())
    later = [et.idle(f"notif-p{i}", nodes=(), buildings=(), created_at=f"2026-04-18T06:{10 + i}:00.000Z")
             for i in range(2, 8)]
    runs = live([first, *later], lambda sent: (200, perceived) if sent["command"] == "get_perception" else ACCEPTED)
    moves = [sent["params"]["target_node_id"] for sent, _ in runs if sent and sent["command"] == "move"]
    assert not {"12-9", "16-14"} & set(moves)
    assert all("猫" not in line and "スタッフ" not in line for _, line in runs)


def test_the_npcs_listed_in_the_text_are_never_walked_to(env):
    npcs = (("おまわりさん", "8-13"), ("猫", "12-9"))
    notifications = [et.idle(f"notif-n{i}", npcs=npcs, enum_nodes=("8-13", "12-9", "7-11", "9-11"),
                             created_at=f"2026-04-18T06:{10 + i}:00.000Z") for i in range(6)]
    moves = [s["params"]["target_node_id"] for s, _ in live(notifications) if s and s["command"] == "move"]
    assert moves and not {"8-13", "12-9"} & set(moves)


def test_a_refused_move_is_not_tried_again_and_the_next_choice_differs(env):
    """Whatever the reason the world gave, the same move from the same place is not sent twice."""
    notifications = [et.idle(f"notif-r{i}", enum_nodes=("4-11", "7-11", "9-11"),
                             created_at=f"2026-04-18T06:{10 + i}:00.000Z") for i in range(5)]
    runs = live(notifications, lambda sent: IMPASSABLE if sent["command"] == "move" else ACCEPTED)
    moves = [json.dumps(s["params"], sort_keys=True) for s, _ in runs if s and s["command"] == "move"]
    assert len(moves) == len(set(moves)) >= 2


def kept_refusals(at: str) -> list[dict[str, Any]]:
    now = datetime.fromisoformat(at)
    with open_state(load_settings(), lambda: now) as state:
        return lessons.refusals(state.store, now)


def test_an_action_the_world_would_not_start_is_remembered_as_refused(env):
    """Accepted by the route, refused in the world (「…」を実行できませんでした): remembered like an error."""
    movie = {"name": "映画を観る", "id": "watch-movie", "source": "映画館"}
    first = et.idle("notif-a1", actions=[movie], here="16-12 (映画館 ロビー)", items=3, kind="movement_completed")
    rejected = et.idle("notif-a2", actions=[movie], here="16-12 (映画館 ロビー)", items=3,
                       lead="「映画を観る」を実行できませんでした。必要なアイテムが足りません（必要: 映画チケット×1）。",
                       kind="action_completed", created_at="2026-04-18T06:20:00.000Z")
    (sent, _), (again, _) = live([first, rejected])
    assert sent and sent["params"]["action_id"] == "watch-movie"
    [kept] = kept_refusals("2026-04-18T06:21:00+00:00")
    assert (kept["command"], json.loads(kept["params"]), kept["place"]) == (
        "action", {"action_id": "watch-movie"}, "16-12")
    assert not kept_refusals("2026-04-18T09:30:00+00:00")  # the window passes: what changed may be tried again


def test_a_refused_command_is_not_proposed_here_but_is_elsewhere():
    movie = Choice.from_json({"command": "action", "params": {"action_id": "watch-movie"}})
    wait = Choice.from_json({"command": "wait", "required_params": ["duration"],
                             "param_schema": {"duration": {"type": "integer", "minimum": 1, "maximum": 6}}})
    refused = [{"command": "action", "params": '{"action_id": "watch-movie"}', "place": "16-12",
                "error": "action_rejected", "at": NOW.isoformat()}]

    def decided(here: str) -> str | None:
        parsed = Parsed(notification_type="movement_completed", participants=[],
                        location={"current_node": {"node_id": here, "name": "映画館 ロビー"}})
        view = View(notification_id="notif-v", choices=[movie, wait], parsed=parsed, me=ME, now=NOW,
                    persona=load_persona(), refused=refused)
        return propose(view).candidates[0].command

    assert decided("16-12") == "wait" and decided("16-13") == "action"


# ---------------------------------------------------------------------------------- item 9: report wording
def test_the_report_names_the_building_once_never_a_node_label_or_twice(env):
    bakery = et.idle("notif-w1", here="3-3 (パン屋 店内)",
                     actions=[{"name": "パン屋で働く", "id": "work-bakery", "reward": 1200, "source": "パン屋"}])
    toilet = et.idle("notif-w2", here="5-5 (トイレ)",
                     actions=[{"name": "コーラを買う", "id": "buy-cola", "seconds": 600, "cost": 150,
                               "source": "コンビニ"}], created_at="2026-04-18T07:00:00.000Z",
                     kind="movement_completed")
    (work, worked), (cola, bought) = live([bakery, toilet])
    assert work and work["command"] == "action" and "パン屋で働く行動を始めました" in worked
    assert "パン屋でパン屋" not in worked
    assert cola and cola["command"] == "action" and "コンビニでコーラを買う行動を始めました" in bought
    assert "トイレ" not in bought


# ---------------------------------------------------------------------------------- item 5: ranged params filled
SLEEP = {"name": "寝る", "id": "sleep", "minutes": (30, 480), "source": "住宅A"}


@pytest.mark.parametrize("clock, created_at, minutes", [
    ("2026-04-18 22:00", "2026-04-18T13:00:00.000Z", 480),  # at night: until the morning, within the 480 allowed
    ("2026-04-19 06:10", "2026-04-18T21:10:00.000Z", 50),  # before the morning: until 07:00
    ("2026-04-19 13:00", "2026-04-19T04:00:00.000Z", 30),  # by day: the shortest nap
])
def test_a_ranged_sleep_is_sent_with_a_length_in_bounds_long_at_night_short_by_day(env, clock, created_at, minutes):
    """The regression: 寝る with duration_minutes 30–480 was skipped 32 times of 32 (`… is required`)."""
    notification = et.idle("notif-s1", actions=[SLEEP], here="3-9 (住宅A 室内)", kind="movement_completed",
                           clock=clock, created_at=created_at)
    [(sent, said)] = live([notification])
    assert sent and sent["command"] == "action" and set(sent["params"]) == {"action_id", "duration_minutes"}
    assert minutes - 1 <= sent["params"]["duration_minutes"] <= minutes  # the world's clock ran on a moment
    assert "寝る" in said


def test_a_generic_choices_wider_bound_does_not_widen_the_actions_own_range():
    """The engine town's generic `action` choice: duration_minutes minimum 1, the line says 30〜480分."""
    text = "選択肢:\n" + et.action_line("寝る", "sleep", minutes=(30, 480), source="住宅A") + "\n"
    generic = Choice.from_json({"command": "action", "required_params": ["action_id"], "param_schema": {
        "action_id": {"type": "string", "enum": ["sleep"]}, "duration_minutes": {"type": "integer", "minimum": 1}}})
    parsed = Parsed(notification_type="movement_completed", participants=[],
                    actions=offers.parse_action_options(text),
                    location={"current_node": {"node_id": "3-9", "name": "住宅A 室内"}})
    view = View(notification_id="notif-g", choices=[generic], parsed=parsed, me=ME, now=NOW,
                persona=load_persona())
    action = next(d for d in propose(view).candidates if d.command == "action")
    assert action.params["duration_minutes"] == 30  # a nap by day: the shortest the action allows, not the schema's 1


def test_a_range_only_the_text_gives_is_filled_too():
    """Older notifications: the choice's schema is silent, the action line says `30〜480分, duration_minutes`."""
    text = "選択肢:\n" + et.action_line("読書する", "read", minutes=(30, 120), source="本屋「栞」") + "\n"
    action = Choice.from_json({"command": "action", "params": {"action_id": "read"}})
    parsed = Parsed(notification_type="movement_completed", participants=[],
                    actions=offers.parse_action_options(text),
                    location={"current_node": {"node_id": "7-6", "name": "本屋 店内"}})
    view = View(notification_id="notif-t", choices=[action], parsed=parsed, me=ME, now=NOW,
                persona=load_persona())
    [decision] = propose(view).candidates[:1]
    assert decision.params == {"action_id": "read", "duration_minutes": 60}


# ---------------------------------------------------------------------------------- item 4: requirements met first
MOVIE = {"name": "映画を観る", "id": "watch-movie", "needs": [("映画チケット", 1)], "source": "映画館"}
POPCORN = {"name": "ポップコーンを買う", "id": "buy-popcorn", "seconds": 300, "cost": 450, "source": "映画館"}


def at_the_cinema(nid: str, **seen: Any) -> dict[str, Any]:
    return et.idle(nid, actions=[MOVIE, POPCORN], here="16-12 (映画館 ロビー)", kind="movement_completed", **seen)


@pytest.mark.parametrize("seen, expected", [
    ({"items": 0, "money": 10_000}, "buy-popcorn"),  # no items at all: no ticket; the popcorn is paid for
    ({"items": 0, "money": 300}, None),  # nothing it can afford: no action
    ({"items": "映画チケット (movie-ticket) ×1", "money": 300}, "watch-movie"),  # the older listing shows the ticket
    ({"items": "パン (bread) ×2", "money": 10_000}, "buy-popcorn"),  # every item named, no ticket among them
])
def test_an_action_whose_requirement_the_agent_does_not_meet_is_not_chosen(env, seen, expected):
    """The regression: 映画を観る (必要: 映画チケット×1) chosen with no ticket, refused in the world."""
    [(sent, _)] = live([at_the_cinema("notif-h1", **seen)])
    chosen = sent["params"].get("action_id") if sent and sent["command"] == "action" else None
    assert chosen == expected


def test_items_it_cannot_tell_it_holds_are_asked_for_then_the_answer_decides(env):
    """`所持品: 3 個` says how many, not which: the status is asked, and its list is what counts."""
    unsure = at_the_cinema("notif-h2", items=3, money=300)
    status = et.idle("notif-h3", kind="idle_reminder_fired", actions=[MOVIE, POPCORN], here="16-12 (映画館 ロビー)",
                     lead="現在地: 16-12\n所持金: 300円\n所持品:\n- 映画チケット (movie-ticket) ×1\n- パン (bread) ×2",
                     items=3, money=300, created_at="2026-04-18T06:05:00.000Z")
    (asked, _), (then, _) = live([unsure, status])
    assert asked and asked["command"] == "get_status"
    assert then and (then["command"], then["params"].get("action_id")) == ("action", "watch-movie")


def test_what_an_action_cost_is_taken_from_the_money_before_the_next_text_says_so(tmp_path):
    from karakuri_agent.memory import kept_holdings
    from karakuri_agent.state.memory import MemoryState

    store = MemoryState().store
    kept_holdings.learn_from_text(store, "所持金: 500円\n所持品: なし", "2026-04-18T06:00:00.000+00:00")
    parsed = Parsed(actions=offers.parse_action_options("選択肢:\n" + et.action_line(
        "コーヒーを飲む", "drink-coffee", cost=450) + "\n"), transfers=[])
    kept_holdings.after_command(store, "action", {"action_id": "drink-coffee"}, parsed)
    assert kept_holdings.held(store).money == 50
    kept_holdings.learn_from_text(store, "所持金: 500円", "2026-04-18T06:00:00.000+00:00")  # the same text read again
    assert kept_holdings.held(store).money == 50
    kept_holdings.learn_from_text(store, "所持金: 1,250円", "2026-04-18T07:00:00.000+00:00")  # a newer one: the truth
    assert kept_holdings.held(store).money == 1250


# ---------------------------------------------------------------------------------- item 6: starting conversations
MEI_ID, MEI_NAME = "1474403124906295517", "桜草メイ"
CANDIDATES = f"conversation_candidates:\n- {MEI_NAME} ({MEI_ID}) - idle\ntransfer_candidates:\n- {MEI_NAME} ({MEI_ID}) - idle"


def test_with_someone_new_beside_it_the_agent_finds_their_id_and_starts_a_talk(env):
    """The regression: 5 of 100 offers taken. The single-line choice names nobody: the nearby list does."""
    coffee = {"name": "コーヒーを飲む", "id": "drink-coffee", "cost": 450}
    seen = et.idle("notif-c1", actions=[coffee], start=True, agents=1, kind="movement_completed")
    listed = et.idle("notif-c2", actions=[coffee], start=True, agents=1, lead=CANDIDATES,
                     created_at="2026-04-18T06:03:00.000Z", kind="idle_reminder_fired")
    (asked, _), (started, said) = live([seen, listed])
    assert asked and asked["command"] == "get_nearby_agents"
    assert started and started["command"] == "conversation_start" and started["params"]["target_agent_id"] == MEI_ID
    assert started["params"]["message"] and "メイ" in said


START = Choice.from_json({"command": "conversation_start", "required_params": ["target_agent_id", "message"],
                          "param_schema": {"target_agent_id": {"type": "string"},
                                           "message": {"type": "string", "maxLength": 200}}})
COFFEE = Choice.from_json({"command": "action", "params": {"action_id": "drink-coffee"}})
WAIT_ = Choice.from_json({"command": "wait", "required_params": ["duration"],
                          "param_schema": {"duration": {"type": "integer", "minimum": 1, "maximum": 6}}})


def beside(nid: str, *, people=((MEI_ID, MEI_NAME),), last_contact: str | None = None, now: datetime = NOW,
           persona=None, npcs=()) -> View:
    parsed = Parsed(notification_type="movement_completed", participants=[], npcs=list(npcs),
                    location={"current_node": {"node_id": "6-11", "name": "喫茶店 店内"}, "nearby_agent_count": 1})
    known = {pid: Person(pid, name, interactions=1, last_contact=datetime.fromisoformat(last_contact))
             for pid, name in people} if last_contact else {}
    return View(notification_id=nid, choices=[COFFEE, START, WAIT_], parsed=parsed, me=ME, now=now,
                persona=persona or load_persona(), nearby_agents=[PersonRef(p, n) for p, n in people],
                acquaintances=known)


def test_the_same_person_is_not_spoken_to_first_again_the_same_in_world_day():
    earlier = "2026-04-18T01:00:00+00:00"  # 10:00 in Tokyo, the same day as NOW (15:00)
    commands = {propose(beside(f"notif-d{i}", last_contact=earlier)).candidates[0].command for i in range(30)}
    assert "conversation_start" not in commands
    yesterday = "2026-04-17T01:00:00+00:00"
    assert any(propose(beside(f"notif-d{i}", last_contact=yesterday)).candidates[0].command == "conversation_start"
               for i in range(30))


def test_an_npc_is_never_spoken_to_even_when_listed_beside_the_agent():
    npc = ("npc-1", "おまわりさん")
    views = [beside(f"notif-x{i}", people=(npc,), npcs=[{"name": "おまわりさん", "node_id": "8-13"}]) for i in range(30)]
    assert all(d.command != "conversation_start" for v in views for d in propose(v).candidates)


@pytest.mark.life  # lives in the town: seconds, not a unit's milliseconds
def test_how_often_it_speaks_first_is_the_characters():
    from dataclasses import replace

    sociable = load_persona()
    shy = replace(sociable, rules=replace(sociable.rules, sociability=0.1))
    first_talks = {name: sum(propose(beside(f"notif-s{i}", persona=p)).candidates[0].command == "conversation_start"
                             for i in range(200)) for name, p in (("sociable", sociable), ("shy", shy))}
    assert first_talks["sociable"] >= 140 and first_talks["shy"] <= 40, first_talks


@pytest.mark.life  # lives in the town: seconds, not a unit's milliseconds
def test_a_packs_sociability_variable_makes_a_shy_one(tmp_path):
    from karakuri_agent.voice.persona_pack import bundled_pack_dir

    pack = tmp_path / "shy"
    pack.mkdir()
    (pack / "persona.json").write_bytes((bundled_pack_dir() / "persona.json").read_bytes())
    data = json.loads((bundled_pack_dir() / "behaviour.json").read_text(encoding="utf-8"))
    data["variables"]["sociability"] = {"min": 0, "max": 100, "initial": 5}
    (pack / "behaviour.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    shy = load_persona(pack)
    first_talks = sum(propose(beside(f"notif-s{i}", persona=shy)).candidates[0].command == "conversation_start"
                      for i in range(200))
    assert first_talks <= 30
