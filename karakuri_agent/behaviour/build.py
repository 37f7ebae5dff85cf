"""Raw `behaviour.json` data, already checked (pack.py), as the frozen records of spec.py.

Kept apart from the checking so that loading a known-good pack (the bundled
one) costs no pydantic import at start-up.
"""

from __future__ import annotations

from typing import Any, Mapping

from karakuri_agent.behaviour.spec import DEFAULT_PRIORITY, Action, Band, Behaviour, Condition, Cooldown, Reaction, Rule, Trigger, Variable


def build_behaviour(data: Mapping[str, Any], source: str = "") -> Behaviour:
    return Behaviour(
        variables={name: variable(name, spec) for name, spec in (data.get("variables") or {}).items()},
        rules=tuple(rule(r) for r in data.get("rules") or ()),
        reactions=tuple(reaction(r) for r in data.get("reactions") or ()),
        disable=tuple(data.get("disable") or ()),
        source=source,
    )


def variable(name: str, spec: Mapping[str, Any]) -> Variable:
    flag = spec.get("type") == "flag"
    low, high = spec.get("min"), spec.get("max")
    initial: Any = bool(spec.get("initial")) if flag else spec.get("initial") or 0
    if not flag:
        initial = max(low, initial) if low is not None else initial
        initial = min(high, initial) if high is not None else initial
    return Variable(name=name, kind="flag" if flag else "number", per_person=spec.get("per") == "person",
                    minimum=low, maximum=high, initial=initial, max_delta=spec.get("max_delta"),
                    bands=tuple(Band(lo, hi, str(label)) for lo, hi, label in spec.get("bands") or ()),
                    renamed_from=_names(spec.get("renamed_from")))


def _names(raw: Any) -> tuple[str, ...]:
    """`renamed_from`: one older name, or a list of them."""
    if isinstance(raw, str):
        return (raw,)
    return tuple(str(name) for name in raw or ())


def trigger(raw: Mapping[str, Any]) -> Trigger:
    between = raw.get("between")
    return Trigger(type=raw["type"], types=tuple(raw.get("types") or ()),
                   between=(str(between[0]), str(between[1])) if between else None,
                   keywords=tuple(raw.get("keywords") or ()), notifications=raw.get("notifications"),
                   variable=raw.get("variable"), direction=raw.get("direction"), threshold=raw.get("threshold"),
                   command=raw.get("command"))


def condition(raw: Mapping[str, Any]) -> Condition:
    return Condition(operator=raw["operator"], value=raw.get("value"), fact=raw.get("fact"),
                     variable=raw.get("variable"))


def action(raw: Mapping[str, Any]) -> Action:
    return Action(type=raw["type"], command=raw.get("command"), params=dict(raw.get("params") or {}),
                  commands=tuple(raw.get("commands") or ()), phrases=tuple(raw.get("phrases") or ()),
                  path=raw.get("path"), value=raw.get("value"), rule=raw.get("rule"), text=raw.get("text"),
                  persistent=bool(raw.get("persistent")), duration=raw.get("duration"))


def rule(raw: Mapping[str, Any]) -> Rule:
    cooldown = raw.get("cooldown")
    return Rule(id=raw["id"], description=raw.get("description", ""), when=trigger(raw["when"]),
                conditions=tuple(condition(c) for c in raw.get("conditions") or ()),
                condition_logic=raw.get("condition_logic", "all"), then=tuple(action(a) for a in raw.get("then") or ()),
                priority=int(raw.get("priority", DEFAULT_PRIORITY)),
                cooldown=Cooldown(cooldown.get("notifications"), cooldown.get("minutes")) if cooldown else None,
                max_fires=raw.get("max_fires"), enabled=raw.get("enabled", True) is not False)


def reaction(raw: Mapping[str, Any]) -> Reaction:
    return Reaction(id=raw["id"], on=raw["on"], conditions=tuple(condition(c) for c in raw.get("conditions") or ()),
                    condition_logic=raw.get("condition_logic", "all"),
                    then=tuple(action(a) for a in raw.get("then") or ()))
