"""What the pack's behaviour remembers, shown and set back (`state show`, `state reset-behaviour`).

`shown(behaviour, memory, now)` lays the saved memory (the plain JSON the
engine keeps, engine.Turn.memory) out against the pack as it is now: every
variable (per person, each person known) with its value and band, each
rule's fire count, cooldown left and whether it is on, the active
directives. `reset(behaviour, memory, ...)` is the memory with a rule's
record, a variable or everything back to the pack's initial values: a
value the memory does not hold is the variable's `initial`, so forgetting
it is resetting it. Both are pure; the command opens and saves the state.
"""

from __future__ import annotations

import copy
import difflib
from datetime import datetime
from typing import Any, Mapping

from karakuri_agent.behaviour.engine import CROSSINGS
from karakuri_agent.behaviour.spec import Behaviour, Rule
from karakuri_agent.behaviour.variables import Variables
from karakuri_agent.errors import UsageError


def shown(behaviour: Behaviour, memory: Mapping[str, Any], now: datetime | None) -> dict[str, Any]:
    """The variables, rules and directives as `state show --json` prints them (`now`: the state's newest time)."""
    variables = Variables(behaviour.variables, _table(memory, "variables"))
    out_vars: list[dict[str, Any]] = []
    for name, spec in behaviour.variables.items():
        paths = sorted(p for p in variables.values if p.startswith(name + ".")) if spec.per_person else [name]
        for path in paths:
            value = variables.get(path)
            out_vars.append({"path": path, "value": value, "band": spec.band(value), "initial": spec.initial,
                             "per_person": spec.per_person})
        if not paths:  # per person, nobody known yet: each person starts at the initial value
            out_vars.append({"path": f"{name}.*", "value": spec.initial, "band": spec.band(spec.initial),
                             "initial": spec.initial, "per_person": True})
    records, switches, clock = (_table(memory, key) for key in ("rules", "switches", "clock"))
    seq = _count(clock.get("seq"))
    rules = [_rule(rule, _table(records, rule.id), switches.get(rule.id), seq, now) for rule in behaviour.rules]
    directives = [{"text": d.get("text"), "left": d.get("left"), "by": d.get("by")}
                  for d in _list(memory.get("directives")) if isinstance(d, dict)]
    return {"variables": out_vars, "rules": rules, "directives": directives}


def left_behind(behaviour: Behaviour, memory: Mapping[str, Any]) -> list[str]:
    """What the state remembers of variables and rules the pack no longer has, one line each.

    Kept as they are (a renamed variable's values are not lost): `state
    reset-behaviour` forgets them, and a variable's `renamed_from` moves a
    variable's values to its new name on the next load.
    """
    variables = Variables(behaviour.variables, _table(memory, "variables"))
    names: dict[str, int] = {}
    for path in variables.kept:
        names[path.partition(".")[0]] = names.get(path.partition(".")[0], 0) + 1
    out = [f"the state holds variable {name!r} ({count} value{'s' if count != 1 else ''}), which the pack no"
           f" longer has{' in that form (one value / per person)' if name in behaviour.variables else ''}: kept;"
           f" name it in a variable's renamed_from to move it, or `state reset-behaviour` forgets it"
           for name, count in sorted(names.items())]
    known = {r.id for r in behaviour.rules}
    for rule_id, record in sorted(_table(memory, "rules").items()):
        if rule_id not in known:
            fires = _count(record.get("fires")) if isinstance(record, dict) else 0
            out.append(f"the state holds rule {rule_id!r} (fired {fires}), which the pack no longer has: kept;"
                       f" `state reset-behaviour --rule {rule_id}` forgets it")
    return out


def _rule(rule: Rule, record: Mapping[str, Any], switched: Any, seq: int, now: datetime | None) -> dict[str, Any]:
    """One rule's record as shown: the next notification (`seq` + 1) is held back by the engine's own guards."""
    enabled = bool(switched) if switched is not None else rule.enabled
    left = rule.cooldown.left(record, seq + 1, now) if rule.cooldown is not None else {}
    if "until" in left:
        left["until"] = left["until"].isoformat(timespec="minutes")
    return {"id": rule.id, "enabled": enabled, "switched": switched is not None, "fires": _count(record.get("fires")),
            "max_fires": rule.max_fires, "spent": rule.spent(record), "cooldown_left": left or None}


def text_lines(view: Mapping[str, Any]) -> list[str]:
    """`state show` without --json: one line per variable, rule and directive."""
    lines = ["Variables"] + [
        f"  {v['path']} = {_value(v['value'])}" + (f" ({v['band']})" if v["band"] else "")
        for v in view["variables"]] if view["variables"] else ["Variables: none in this pack"]
    lines.append("Rules")
    for r in view["rules"]:
        fires = f"fired {r['fires']}" + (f"/{r['max_fires']}" if r["max_fires"] is not None else "")
        left = r["cooldown_left"] or {}
        cooling = ", ".join(([f"{left['notifications']} notifications"] if "notifications" in left else [])
                            + ([f"until {left['until']}"] if "until" in left else []))
        state = "on" if r["enabled"] else "off"
        lines.append(f"  {r['id']}: {state}{' (switched)' if r['switched'] else ''}, {fires}"
                     + (", spent" if r["spent"] else "") + (f", cooldown left: {cooling}" if cooling else ""))
    if not view["rules"]:
        lines.append("  none in this pack")
    lines.append("Directives" if view["directives"] else "Directives: none active")
    lines += [f"  {d['text']} (by {d['by']}, " + ("persistent)" if d["left"] is None else f"{d['left']} left)")
              for d in view["directives"]]
    return lines


def _table(memory: Mapping[str, Any], key: str) -> dict[str, Any]:
    """One part of the saved memory as a mapping: an older or hand-edited state's other shapes read as empty."""
    found = memory.get(key)
    return found if isinstance(found, dict) else {}


def _list(found: Any) -> list[Any]:
    return found if isinstance(found, list) else []


def _count(found: Any) -> int:
    return found if isinstance(found, int) and not isinstance(found, bool) else 0


def _value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def reset(behaviour: Behaviour, memory: Mapping[str, Any], *, rule: str | None = None,
          variable: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """The memory with `rule`'s record, `variable` (a name: every person's; a path: one), or all set back.

    What was reset, as lines; an id or path the pack does not have is a usage error with a close match.
    """
    state = copy.deepcopy(dict(memory))
    if rule is None and variable is None:
        for key, empty in (("variables", {}), ("previous_variables", {}), ("rules", {}), ("switches", {}),
                           ("directives", []), ("context", []), (CROSSINGS, {})):
            state[key] = empty
        return state, ["every variable, rule record, switch and directive back to the pack's initial values"]
    done: list[str] = []
    if rule is not None:
        if behaviour.rule(rule) is None and rule not in _table(state, "rules"):
            raise UsageError(f"--rule {rule!r}: the pack has no such rule{_hint(rule, [r.id for r in behaviour.rules])}")
        for key in ("rules", "switches", CROSSINGS):
            _table(state, key).pop(rule, None)
        state["directives"] = [d for d in _list(state.get("directives"))
                               if isinstance(d, dict) and d.get("by") != rule]
        done.append(f"rule {rule}: fire count, cooldown, switch and its directives reset")
    if variable is not None:
        name, dot, key = variable.partition(".")
        if not name.strip() or (dot and not key.strip()):  # "affection." must not mean every person's
            raise UsageError(f"--variable {variable!r}: a path is NAME (every person's value) or NAME.PERSON"
                             f" (one person's); {'the name' if not name.strip() else 'the person'} is missing")
        spec = behaviour.variables.get(name)
        stored = _table(state, "variables")
        if spec is None and any(p == variable or p.startswith(name + ".") for p in stored) and (
                not key or variable in stored):  # left behind by the pack: forgotten
            for path in [p for p in stored if p == variable or (not key and p.startswith(name + "."))]:
                stored.pop(path, None)
            return state, [*done, f"variable {variable}: the pack no longer has it; its kept values forgotten"]
        if spec is None or (key and not spec.per_person):
            raise UsageError(f"--variable {variable!r}: the pack has no such variable"
                             f"{_hint(name, list(behaviour.variables))}")
        paths = [variable] if key else [name] + [p for p in _table(state, "variables") if p.startswith(name + ".")]
        for table in ("variables", "previous_variables"):
            for path in paths:
                _table(state, table).pop(path, None)
        for watching in behaviour.rules:  # a crossing rule starts again from the reset value
            if watching.when.variable in paths:
                _table(state, CROSSINGS).pop(watching.id, None)
        done.append(f"variable {variable}: back to its initial value {_value(spec.initial)}")
    return state, done


def _hint(wrong: str, known: list[str]) -> str:
    close = difflib.get_close_matches(wrong, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else f" (it has: {', '.join(known) or 'none'})"
