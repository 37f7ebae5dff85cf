"""A pack condition that can never hold is an error in `persona check`; one that passes the check can hold.

The class: a condition whose operator or value does not fit what it looks at
(`money gt "100"`, `place gt 3`, a flag `eq 1`, a time `gt "noon"`). The
engine's `compare` would say false on every notification, so the rule would
silently never fire. The property holds the check to the engine: for every
fact and variable kind, every operator and values of every JSON kind, a
condition the check accepts holds for some value the fact can take.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.behaviour.engine import compare
from karakuri_agent.behaviour.pack import parse_behaviour
from karakuri_agent.behaviour.spec import FACT_KINDS, OPERATORS

VARIABLES = {"energy": {"min": 0, "max": 100, "initial": 50}, "met_today": {"type": "flag", "initial": False}}
# What each kind of fact or variable can be on a notification (engine.Facts, behaviour/variables.py).
ACTUALS: dict[str, list[Any]] = {
    "label": ["conversation_message", "喫茶店", "はれ", ""],
    "names": [("桜草メイ", "ルナ"), ()],
    "clock": ["00:00", "09:30", "13:05", "23:59"],
    "number": [-5, 0, 0.5, 50, 100, 12000],
    "flag": [True, False],
}
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-200, 20000), st.floats(-1e6, 1e6, allow_nan=False),
                   st.sampled_from(["", "100", "09:30", "noon", "喫茶店", "桜草メイ", "はれ", "25:00", "conversation"]),
                   st.lists(st.sampled_from(["桜草メイ", "ルナ"]), max_size=2))


def possible(subject: tuple[str, str, str], value: Any) -> list[Any]:
    """Values a fact or variable can take: the samples, and the condition's value and its neighbours
    wherever the subject can hold them (a label any text, money any number, `energy` 0 to 100, a clock
    any minute of the day)."""
    kind = subject[2]
    samples = list(ACTUALS[kind])
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "label" and isinstance(value, str):
        samples.append(value)
    elif kind == "names" and isinstance(value, str):
        samples.append((value,))
    elif kind == "number" and number:
        near = [value - 1, value, value + 1]
        samples += [v for v in near if 0 <= v <= 100] if subject[1] == "energy" else near
    elif kind == "clock" and isinstance(value, str) and len(value) == 5 and value[2] == ":" and \
            value[:2].isdigit() and value[3:].isdigit() and int(value[:2]) < 24 and int(value[3:]) < 60:
        minute = int(value[:2]) * 60 + int(value[3:])
        samples += [f"{m // 60:02d}:{m % 60:02d}" for m in (minute - 1, minute, minute + 1) if 0 <= m < 24 * 60]
    if subject[1] == "energy":
        samples = [v for v in samples if 0 <= v <= 100]
    return samples


SUBJECTS = [("fact", name, kind) for name, kind in FACT_KINDS.items()] + [
    ("variable", "energy", "number"), ("variable", "met_today", "flag")]


def _problems(subject: tuple[str, str, str], operator: str, value: Any) -> list[str]:
    side, name, _ = subject
    rule = {"id": "r", "when": {"type": "every", "notifications": 1},
            "conditions": [{side: name, "operator": operator, "value": value}],
            "then": [{"type": "avoid", "commands": ["wait"]}]}
    _, problems = parse_behaviour({"variables": VARIABLES, "rules": [rule]}, "behaviour.json")
    return [p for p in problems if ".conditions[0]" in p]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SUBJECTS), st.sampled_from(OPERATORS), VALUES)
def test_a_condition_the_check_accepts_holds_for_some_value_of_its_kind(subject, operator, value):
    problems = _problems(subject, operator, value)
    can_hold = any(compare(actual, operator, value) for actual in possible(subject, value))
    if not problems:
        assert can_hold, (subject, operator, value)
    if not can_hold:
        assert problems, (subject, operator, value)  # never true on any notification: said so


@pytest.mark.parametrize(("side", "name", "operator", "value", "says"), [
    ("fact", "money", "gt", "100", 'money is compared with a number, got 100'),
    ("fact", "place", "gt", 3, "place is a text: it takes eq, neq, contains, not gt"),
    ("fact", "place", "eq", 3, "place is compared with a text, got 3"),
    ("fact", "items", "gte", "傘", "items is a name: it takes eq, neq, contains, not gte"),
    ("fact", "time", "gt", "noon", "time is compared with a time HH:MM, got noon"),
    ("fact", "money", "contains", 5, "money is a number: it takes eq, neq, gt, lt, gte, lte, not contains"),
    ("variable", "met_today", "eq", 1, "variable met_today is compared with true or false, got 1"),
    ("variable", "energy", "lt", "50", "variable energy is compared with a number, got 50"),
    ("variable", "energy", "gt", 100, "variable energy runs from 0 to 100, so gt 100 never holds"),
    ("variable", "energy", "eq", -1, "variable energy runs from 0 to 100, so eq -1 never holds"),
    ("fact", "time", "gt", "23:59", "time runs from 00:00 to 23:59, so gt 23:59 never holds"),
    ("fact", "time", "lt", "00:00", "time runs from 00:00 to 23:59, so lt 00:00 never holds"),
])
def test_a_condition_that_can_never_hold_is_named_with_what_its_kind_takes(side, name, operator, value, says):
    [problem] = _problems((side, name, ""), operator, value)
    assert problem.startswith("behaviour.json: rules[r].conditions[0].") and problem.endswith(says), problem


@pytest.mark.parametrize(("side", "name", "operator", "value"), [
    ("fact", "money", "gte", 500), ("fact", "place", "contains", "喫茶"), ("fact", "met", "neq", "ルナ"),
    ("fact", "time", "lt", "06:00"), ("fact", "notification", "eq", "idle_reminder_fired"),
    ("variable", "energy", "gt", 30.5), ("variable", "energy", "gte", 100), ("variable", "energy", "lte", 0),
    ("variable", "met_today", "neq", True), ("fact", "time", "gte", "23:59"),
])
def test_conditions_that_fit_their_kind_pass(side, name, operator, value):
    assert _problems((side, name, ""), operator, value) == []
