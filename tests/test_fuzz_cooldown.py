"""Fuzz: one cooldown rule (domain.clock.cooling_down) for the pack's rules and the cycle's own (issue 28, also)."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given, settings, strategies as st

from karakuri_agent.domain.clock import cooling_down
from test_behaviour import TOKYO_NIGHT, _turn

OFFSET = st.timedeltas(min_value=timedelta(days=-60), max_value=timedelta(days=60))


@settings(max_examples=200, deadline=None)
@given(offset=OFFSET, minutes=st.integers(1, 60 * 24 * 7))
def test_a_pack_rules_cooldown_holds_exactly_when_the_cycles_rule_says_and_never_past_a_window(offset, minutes):
    rule = {"id": "r", "when": {"type": "day_start"}, "then": [], "cooldown": {"minutes": minutes}}
    turn = _turn([rule])
    spec = turn.behaviour.rules[0]
    turn.fire(spec)  # fired at TOKYO_NIGHT
    now = TOKYO_NIGHT + offset  # offset < 0: the last firing lies ahead of now
    held = _turn([rule], turn.memory(), now=now).blocked(spec) == "on cooldown"
    window = timedelta(minutes=minutes)
    assert held == cooling_down(TOKYO_NIGHT, now, window)
    assert held == (abs(offset) < window)  # a firing 48 h ahead never blocks a rule of a 1 h cooldown
