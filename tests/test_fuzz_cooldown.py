"""Fuzz: one cooldown rule (domain.clock.cooling_down) for the pack's rules and the cycle's own (issue 28, also)."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings, strategies as st

from karakuri_agent.domain.clock import cooling_down
from testing.packs import TOKYO_NIGHT, pack_turn

OFFSET = st.timedeltas(min_value=timedelta(days=-60), max_value=timedelta(days=60))


@settings(max_examples=200, deadline=None)
@given(offset=OFFSET, minutes=st.integers(1, 60 * 24 * 7))
def test_a_pack_rules_cooldown_holds_exactly_when_the_cycles_rule_says_and_never_past_a_window(offset, minutes):
    rule = {"id": "r", "when": {"type": "day_start"}, "then": [], "cooldown": {"minutes": minutes}}
    turn = pack_turn([rule])
    spec = turn.behaviour.rules[0]
    turn.fire(spec)  # fired at TOKYO_NIGHT
    now = TOKYO_NIGHT + offset  # offset < 0: the last firing lies ahead of now
    held = pack_turn([rule], turn.memory(), now=now).blocked(spec) == "on cooldown"
    window = timedelta(minutes=minutes)
    assert held == cooling_down(TOKYO_NIGHT, now, window)
    assert held == (abs(offset) < window)  # a firing 48 h ahead never blocks a rule of a 1 h cooldown


@settings(max_examples=200, deadline=None)
@given(offset=OFFSET, minutes=st.one_of(st.none(), st.integers(1, 60 * 24 * 7)),
       notifications=st.one_of(st.none(), st.integers(1, 5)), later=st.integers(0, 6),
       max_fires=st.one_of(st.none(), st.integers(1, 3)), fires=st.integers(1, 3))
def test_state_show_says_a_rule_is_held_back_exactly_when_the_next_notification_finds_it_so(
        offset, minutes, notifications, later, max_fires, fires):
    """`state show` tells from the engine's own guards: a cooldown left (or spent) is what the next
    notification finds, never one notification off and never by another clock rule."""
    from karakuri_agent.app.behaviour_state import shown

    if (minutes is None) == (notifications is None):
        notifications, minutes = (notifications, None) if notifications is not None else (2, None)
    cooldown = {"minutes": minutes} if minutes is not None else {"notifications": notifications}
    rule = {"id": "r", "when": {"type": "day_start"}, "then": [], "cooldown": cooldown, "max_fires": max_fires}
    turn = pack_turn([rule])
    spec = turn.behaviour.rules[0]
    for _ in range(fires):
        turn.fire(spec)  # fired at TOKYO_NIGHT, as the notification numbered 1
    memory = turn.memory()
    for _ in range(later):  # notifications that came and went since
        memory = pack_turn([rule], memory).memory()
    now = TOKYO_NIGHT + offset
    told = shown(turn.behaviour, memory, now)["rules"][0]
    next_one = pack_turn([rule], memory, now=now).blocked(spec)
    assert told["spent"] == (next_one == "spent")
    if not told["spent"]:
        assert (told["cooldown_left"] is not None) == (next_one == "on cooldown"), (told, next_one)
