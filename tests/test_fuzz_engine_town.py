"""Fuzz the engine town's referee: whatever an agent sends, the town answers as the engine would and stays sound.

Other engineers turn the town's metrics green by changing the agent; the
town must never be the thing that breaks. So, for any payload:
- the answer is a status and a JSON object; a refusal carries one of the
  engine's error codes (types/api.ts) and changes nothing;
- a move is accepted exactly when the engine would accept it (a passable
  node on the map, not the current one, reachable);
- after any sequence of answers the town still delivers its next message,
  and the agent's money and items never go negative.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.engine_town import API_KEY, EngineTown  # noqa: E402
import pytest

pytestmark = pytest.mark.life

AUTH = f"Bearer {API_KEY}"
ENGINE_CODES = {
    "unauthorized", "not_found", "invalid_request", "state_conflict", "info_already_consumed", "out_of_bounds",
    "impassable_node", "same_node", "no_path", "action_not_found", "action_not_available", "target_not_found",
    "target_unavailable", "out_of_range", "conversation_not_found", "not_target", "not_your_turn",
    "invalid_next_speaker", "next_speaker_required", "cannot_nominate_self",
}
COMMANDS = ["move", "action", "wait", "use-item", "transfer", "conversation_start", "conversation_accept",
            "conversation_reject", "conversation_speak", "end_conversation", "conversation_stay",
            "conversation_leave", "accept_transfer", "reject_transfer", "get_perception", "get_status",
            "get_nearby_agents", "get_map", "fly", ""]
values = st.recursive(st.none() | st.booleans() | st.integers(-10, 600) | st.text(max_size=12)
                      | st.sampled_from(["3-4", "1-1", "99-99", "accept", "reject", "sleep", "watch-movie"]),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                      max_leaves=6)
params = st.dictionaries(st.sampled_from(["target_node_id", "action_id", "duration_minutes", "duration", "message",
                                          "next_speaker_agent_id", "transfer_response", "transfer", "item", "money",
                                          "target_agent_id", "item_id", "x"]), values, max_size=4)


def _ids(town: EngineTown) -> list[str]:
    return list(town.residents)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 40), moves=st.lists(st.tuples(st.sampled_from(COMMANDS), params, st.booleans()),
                                               min_size=1, max_size=12))
def test_any_commands_get_engine_answers_and_leave_the_town_sound(seed: int, moves: list[tuple[str, dict[str, Any], bool]]):
    town = EngineTown(seed)
    for command, payload_params, use_resident in moves:
        step = town.next_delivery().step
        assert step is not None
        if use_resident and town.residents:
            payload_params = {**payload_params, "target_agent_id": _ids(town)[0], "next_speaker_agent_id": _ids(town)[0]}
        before = (town.body.money, dict(town.body.items), town.body.node)
        status, answer = town.handle_post({"notification_id": step.notification_id, "command": command,
                                           "params": payload_params}, AUTH)
        assert isinstance(status, int) and isinstance(answer, dict)
        if status >= 400:
            assert answer["error"] in ENGINE_CODES, answer
            assert (town.body.money, town.body.items, town.body.node) == before
        assert town.body.money >= 0 and all(q >= 0 for q in town.body.items.values())
    assert town.next_delivery().step is not None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(1, 60), row=st.integers(0, 16), col=st.integers(0, 20))
def test_a_move_is_accepted_exactly_when_the_engine_would(seed: int, row: int, col: int):
    town = EngineTown(seed, enums=0.0)
    step = town.next_delivery().step
    assert step is not None and step.kind == "idle"
    target = f"{row}-{col}"
    world_map = town.world.map
    expected = (world_map.within(target) and world_map.passable(target) and target != town.body.node
                and world_map.path(town.body.node, target) is not None)
    status, answer = town.handle_post({"notification_id": step.notification_id, "command": "move",
                                       "params": {"target_node_id": target}}, AUTH)
    assert (status == 200) == expected, (target, answer)
    if not world_map.within(target):
        assert answer["error"] == "out_of_bounds"
    elif not world_map.passable(target):
        assert answer["error"] == "impassable_node"
