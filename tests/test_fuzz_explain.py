"""Property tests for `--explain`'s account of the pack rules (issue 32 item 4), each a class of bad outcome.

- Whatever the conditions and the facts (unknown ones, lists, names with
  line breaks and escapes), each rule tried is one line, terminal-safe once
  shown, each condition's result is the one the engine used, and the line
  says "decided" exactly when the rule decided; rules after it "not reached".
- Whatever happens between two looks of a crossing rule, a crossing is
  counted once, whether or not a higher rule decided in between.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from karakuri_agent.behaviour.builtin import BUILTIN_RULE_IDS
from karakuri_agent.behaviour.engine import Facts, Turn, compare
from karakuri_agent.behaviour.pack import parse_behaviour
from karakuri_agent.behaviour.spec import FACT_KINDS, KIND_OPERATORS
from karakuri_agent.behaviour.selector import DECIDED, NOT_REACHED, Selector, tried_line
from karakuri_agent.terminal import is_control, shown

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NOW = datetime(2026, 4, 18, 14, 30, tzinfo=timezone(timedelta(hours=9)))
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=8)
NAMES = st.lists(TEXT, max_size=3).map(tuple)
FACT_VALUES = {
    "notification": st.sampled_from(["idle_reminder_fired", "conversation_message", ""]),
    "place": st.one_of(st.none(), TEXT), "nearby": NAMES, "partner": NAMES, "met": NAMES,
    "money": st.one_of(st.none(), st.integers(-10, 10**6)), "items": st.one_of(st.none(), NAMES),
    "weather": st.one_of(st.none(), st.sampled_from(["はれ", "くもり", "あめ\n", "\x1b[2J"])),
}


def _condition(fact: str) -> st.SearchStrategy[dict]:
    """A condition on `fact` that fits its kind (a condition that can never hold is refused by the check)."""
    kind = FACT_KINDS[fact]
    value = {"number": st.integers(-10, 10**6), "clock": st.integers(0, 22).map(lambda h: f"{h:02d}:30")}.get(
        kind, TEXT.filter(lambda t: t.strip()))
    return st.fixed_dictionaries({"fact": st.just(fact), "operator": st.sampled_from(KIND_OPERATORS[kind]),
                                  "value": value})


CONDITIONS = st.lists(st.sampled_from([f for f in FACT_VALUES if f != "notification"] + ["time"]).flatmap(_condition),
                      max_size=3)
TRIGGERS = st.sampled_from([
    {"type": "notification", "types": ["*"]}, {"type": "notification", "types": ["conversation_*"]},
    {"type": "time", "between": ["23:00", "06:00"]}, {"type": "time", "between": ["06:00", "12:00"]},
    {"type": "keyword", "keywords": ["猫"]}, {"type": "every", "notifications": 2}, {"type": "day_start"},
    {"type": "after_command", "command": "move"}, {"type": "manual"},
    {"type": "variable_crossed", "variable": "energy", "direction": "drops_below", "threshold": 30}])


@SETTINGS
@given(facts=st.fixed_dictionaries(FACT_VALUES), conditions=CONDITIONS, when=TRIGGERS,
       logic=st.sampled_from(["all", "any"]), enabled=st.booleans(), below=st.integers(0, 3))
def test_each_rule_tried_is_one_safe_line_that_agrees_with_what_the_engine_did(facts, conditions, when, logic,
                                                                              enabled, below):
    rules = [{"id": "r\n\x1b[31mx", "when": when, "conditions": conditions, "condition_logic": logic,
              "enabled": enabled, "priority": 100, "then": [{"type": "choose", "command": "wait"}]}]
    rules += [{"id": f"below{i}", "when": {"type": "day_start"}, "priority": 10 - i,
               "then": [{"type": "choose", "command": "wait"}]} for i in range(below)]
    behaviour, problems = parse_behaviour({"variables": {"energy": {"min": 0, "max": 100, "initial": 50}},
                                           "rules": rules}, builtin_ids=BUILTIN_RULE_IDS)
    if problems:  # an id with a line break is refused: use a plain one, the names still carry controls
        rules[0]["id"] = "r"
        behaviour, problems = parse_behaviour({"variables": {"energy": {"min": 0, "max": 100, "initial": 50}},
                                               "rules": rules}, builtin_ids=BUILTIN_RULE_IDS)
    assert problems == [], problems
    turn = Turn.begin(behaviour, Facts(now=NOW, **facts), {})
    selection = Selector([], behaviour).select(None, turn, lambda rule, action, phrases: (rule.id,),
                                               lambda c: "wait")
    first, rest = selection.tried[0], selection.tried[1:]
    line = shown(tried_line(first))
    assert "\n" not in line and not any(is_control(ch) for ch in line)
    decided = selection.rule == behaviour.rules[0].id
    assert line.endswith(f"— {DECIDED}") is decided
    expected = [compare(Facts(now=NOW, **facts).value(c["fact"]), c["operator"], c["value"]) for c in conditions]
    assert [c["holds"] for c in first.get("conditions", [])] == expected
    held = (any(expected) if logic == "any" else all(expected)) if expected else True
    assert decided is (enabled and first["triggered"] and held)
    if decided:
        assert all(t["outcome"] == NOT_REACHED for t in rest) and len(rest) == below
        assert all(shown(tried_line(t)).endswith(NOT_REACHED) for t in rest)


@SETTINGS
@given(steps=st.lists(st.tuples(st.integers(0, 100), st.booleans()), min_size=1, max_size=10))
def test_a_crossing_is_counted_once_even_when_higher_rules_decide_in_between(steps):
    """Each step: whether a higher rule decides the notification (the crossing rule not reached), then the value
    a reaction sets after the outcome. Every crossing between two looks fires once, at the next look."""
    rules = [{"id": "busy", "when": {"type": "manual"}, "priority": 400, "then": [{"type": "choose",
                                                                                   "command": "get_map"}]},
             {"id": "low", "when": {"type": "variable_crossed", "variable": "energy", "direction": "drops_below",
                                    "threshold": 30}, "priority": 20, "then": []}]
    behaviour, problems = parse_behaviour({"variables": {"energy": {"min": 0, "max": 100, "initial": 50}},
                                           "rules": rules}, builtin_ids=BUILTIN_RULE_IDS)
    assert problems == []
    memory: dict = {}
    looked, fired, crossings = 50, 0, 0
    for value, busy in steps + [(None, False)]:
        if busy:
            memory = {**memory, "switches": {"busy": True}}
        turn = Turn.begin(behaviour, Facts(notification="idle_reminder_fired", now=NOW), memory)
        selection = Selector([], behaviour).select(None, turn, lambda rule, action, phrases: (rule.id,),
                                                   lambda c: "get_map")
        if not busy:
            now = turn.variables.get("energy")
            crossings += looked >= 30 > now
            looked = now
            fired += "low" in turn.fired
        else:
            assert selection.rule == "busy" and "low" not in turn.fired
        if value is not None:
            turn.variables.change("set", "energy", value, "reaction")
        memory = turn.memory()
    assert fired == crossings
