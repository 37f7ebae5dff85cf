"""The agent living in the simulated town (benchmarks/town): a short run, measured.

About 30 notifications through `handle()` in this process, with the town's
clock, against the town's loopback API (a second or two). The full
benchmark is `benchmarks/bench_behaviour.py` (real processes, 120+
notifications).

The two zero rows are asserted as they are. The other rows get floors the
current agent meets with margin, about half of each aim (the aims are in
benchmarks/README.md); they catch a collapse, not a small regression. The
referee tests below show that the zero rows and the floors can fail.
"""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.town import AgentRun, InProcessAgent, Town, live, serving  # noqa: E402
from benchmarks.town.metrics import measure  # noqa: E402
from benchmarks.town.sim import INFO_COMMANDS  # noqa: E402

SEED = 1
NOTIFICATIONS = 30
PROMISE_CHANCE = 0.9  # most talks end with a proposal to meet, so 30 notifications include a promise


@pytest.fixture(scope="module")
def lived(tmp_path_factory: pytest.TempPathFactory):
    """One short life in the town: (town, runs, measured rows by key)."""
    town = Town(seed=SEED, promise_chance=PROMISE_CHANCE)
    state_dir = tmp_path_factory.mktemp("town") / "state"
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("KARAKURI_PERSONA_FILE", raising=False)  # the bundled persona, as the judge uses
        with serving(town) as server:
            runs = live(town, InProcessAgent(server.base_url, town.api_key, state_dir), NOTIFICATIONS)
        result = measure(town, runs)
    rows = {r["key"]: r for r in result["rows"] + result["extras"]}
    return town, runs, rows, result["details"]


def test_the_short_life_is_a_real_one(lived):
    town, runs, rows, _ = lived
    assert len(runs) == NOTIFICATIONS
    assert rows["agent_failures"]["value"] == 0, [r.stderr for r in runs if r.exit_code]
    sent = sum(len(s.posts) for s in town.steps)
    assert sent >= NOTIFICATIONS * 0.8  # the agent acted on most notifications
    kinds = {s.kind for s in town.steps}
    assert {"free", "turn"} <= kinds and kinds & {"request", "closing"}  # it moved about and talked


def test_no_command_outside_the_choices_and_no_params_breaking_the_schema(lived):
    _, _, rows, details = lived
    assert rows["violations"]["value"] == 0, details["violating_posts"]


def test_never_a_second_command_for_one_notification(lived):
    _, _, rows, details = lived
    assert rows["second_commands"]["value"] == 0, details["violating_posts"]


# Floors: about half of each aim, met by the current agent with margin.
def test_idle_notifications_are_not_answered_with_wait(lived):
    _, _, rows, _ = lived
    assert rows["idle_wait"]["value"] <= 0.10  # aim ≤ 5 %


def test_information_is_not_asked_again_and_again(lived):
    _, _, rows, details = lived
    assert rows["info_repeat"]["value"] <= 1, details["information"]  # aim 0


def test_the_agent_gets_around_town(lived):
    _, _, rows, details = lived
    # Aim ≥ 80 % of the 9 places over 50 idle notifications; 30 notifications hold about 15 of them.
    assert rows["places"]["num"] >= 3, details["places"]


def test_the_agent_keeps_talking_when_it_is_its_turn(lived):
    _, _, rows, details = lived
    assert rows["speak"]["den"] >= 3
    assert rows["speak"]["value"] >= 0.5, details["speak_not_chosen"]  # aim ≥ 95 %


def test_lines_are_not_repeated_within_a_conversation(lived):
    _, _, rows, details = lived
    assert rows["unique_lines"]["value"] >= 0.9, details["repeated_lines"]  # aim 100 %


def test_lines_pick_up_what_the_partner_said(lived):
    _, _, rows, _ = lived
    assert rows["pickup"]["den"] >= 5
    assert rows["pickup"]["value"] >= 0.3  # aim ≥ 60 %


def test_promises_are_kept(lived):
    _, _, rows, details = lived
    assert rows["promises"]["den"] >= 1, details["promises"]  # a promise falls due within the 30 notifications
    assert rows["promises"]["value"] >= 0.5, details["promises"]  # aim ≥ 90 %


# The referee: the zero rows above can fail.
def _free_step(town: Town):
    step = town.next_notification()
    assert step.kind == "free"
    return step


def _post(town: Town, step, command, params, key=None):
    payload = {"notification_id": step.notification_id, "command": command, "params": params}
    return town.handle_post(payload, f"Bearer {key or town.api_key}")


def test_the_town_refuses_a_command_that_was_not_offered():
    town = Town(seed=3)
    step = _free_step(town)
    status, body = _post(town, step, "conversation_accept", {"message": "やあ"})
    assert (status, body["error"], body["field"]) == (400, "invalid_request", "command")
    assert town.violations["not_in_choices"] == 1


@pytest.mark.parametrize("params, field", [
    ({"duration": 9}, "duration"),
    ({"duration": "2"}, "duration"),
    ({}, "duration"),
    ({"duration": 2, "minutes": 20}, "minutes"),
])
def test_the_town_refuses_params_that_break_the_schema(params, field):
    town = Town(seed=3)
    step = _free_step(town)
    status, body = _post(town, step, "wait", params)
    assert (status, body["error"], body["field"]) == (400, "invalid_request", field)
    assert town.violations["schema"] == 1


def test_the_town_refuses_a_second_command_for_the_same_notification():
    town = Town(seed=3)
    step = _free_step(town)
    assert _post(town, step, "wait", {"duration": 1})[0] == 200
    status, body = _post(town, step, "get_map", {})
    assert (status, body["error"]) == (409, "state_conflict")
    assert town.violations["second_command"] == 1


def test_the_town_answers_a_wrong_key_with_401_json():
    town = Town(seed=3)
    step = _free_step(town)
    with serving(town) as server:
        answer = httpx.get(f"{server.base_url}/agents/notifications/{step.notification_id}",
                           headers={"Authorization": "Bearer wrong"})
        good = httpx.get(f"{server.base_url}/agents/notifications/{step.notification_id}",
                         headers={"Authorization": f"Bearer {town.api_key}"})
    assert answer.status_code == 401 and answer.json()["error"] == "unauthorized"
    assert good.status_code == 200 and good.json()["notification_id"] == step.notification_id


def test_the_same_seed_gives_the_same_town():
    first, second = Town(seed=5), Town(seed=5)
    for _ in range(3):
        a, b = first.next_notification(), second.next_notification()
        assert a.body == b.body
        _post(first, a, "wait", {"duration": 1}) if "wait" in a.commands else None
        _post(second, b, "wait", {"duration": 1}) if "wait" in b.commands else None


def test_the_floors_catch_an_agent_that_only_waits_and_asks():
    """A lazy agent: wait whenever it may, else ask for the map, else say no."""
    town = Town(seed=SEED)

    def lazy(step) -> AgentRun:
        if "wait" in step.commands:
            command, params = ("get_map", {}) if step.index % 2 else ("wait", {"duration": 1})
        elif "conversation_reject" in step.commands:
            command, params = "conversation_reject", {}
        else:
            return AgentRun(step, {"decision": None})
        status, _ = _post(town, step, command, params)
        return AgentRun(step, {"decision": {"command": command, "params": params}}, 0 if status == 200 else 1)

    runs = live(town, lazy, NOTIFICATIONS)
    rows = {r["key"]: r for r in measure(town, runs)["rows"]}
    assert rows["idle_wait"]["value"] > 0.10
    assert rows["info_repeat"]["value"] > 1
    assert rows["places"]["num"] < 3
    assert all(c in INFO_COMMANDS or c in ("wait", "conversation_reject")
               for s in town.steps for c in (p["command"] for p in s.posts))
