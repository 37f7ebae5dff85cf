"""The agent's own variables, changed only here: whoever proposes a change, the engine clamps it.

A change (from a rule, a reaction or a model) is applied, clamped to `min` /
`max` and to `max_delta` away from the value the notification started with,
or ignored (an unknown path, a flag asked to add, a number that is not
finite). Every change is recorded with what was asked and what came of it,
for the trace. No number leaves ±VALUE_LIMIT, with or without min/max, so
no sum can overflow.

Stored values are fitted to the pack as it is now when they are loaded: a
lowered `max` (or raised `min`) clamps them, a number turned flag is on
when it was not 0, and a value that no longer fits its kind (a flag turned
number, a NaN an older version kept) starts again at `initial`. Each fit is
recorded as a change by the pack, so `--explain` and `log` say so once. A
value stored under a name in a variable's `renamed_from` moves to that
variable (one it already holds stays); a value of a variable the pack no
longer has is kept as it is (`kept`), saved again, used by nothing, until
`state reset-behaviour` forgets it.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Mapping, TypeGuard

from karakuri_agent.behaviour.spec import VALUE_LIMIT, Variable

APPLIED, CLAMPED, IGNORED = "applied", "clamped", "ignored"


@dataclass(frozen=True)
class Change:
    path: str
    by: str  # the rule, reaction or "model" that asked
    op: str
    asked: Any
    before: Any
    after: Any
    status: str
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v != ""}

    def line(self) -> str:
        """One line for `--explain` and `log`: `energy 80 → 60 (night-rest: add -30, clamped)`."""
        what = f"{self.op} {self.asked!r}" if self.op != "toggle" else "toggle"
        if self.status == IGNORED:
            return f"{self.path}: ignored ({self.by}: {what}; {self.why})"
        note = f", {self.why}" if self.why else ""
        return f"{self.path} {_show(self.before)} → {_show(self.after)} ({self.by}: {what}, {self.status}{note})"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"{value:g}" if isinstance(value, float) else str(value)


class Variables:
    """The values during one notification: read, changed through `change`, then saved whole.

    `values` maps a path (`energy`, `affection.桜草メイ`) to its stored value;
    a path never set has its variable's `initial`.
    """

    def __init__(self, specs: Mapping[str, Variable], values: Mapping[str, Any]) -> None:
        self.specs = specs
        self.changes: list[Change] = []
        self.values: dict[str, Any] = {}
        self.kept: dict[str, Any] = {}  # values of variables the pack no longer has: kept, never used
        renamed = {old: name for name, spec in specs.items() for old in spec.renamed_from}
        for path, stored in values.items():
            old, dot, key = path.partition(".")
            if old in renamed and old not in specs:
                moved = renamed[old] + dot + key
                if self.spec_of(moved) is not None and moved not in values:
                    self.changes.append(Change(moved, "pack", "load", stored, stored, stored, APPLIED,
                                               f"renamed from {path}"))
                    path = moved
            spec = self.spec_of(path)
            if spec is not None:
                self.values[path] = self._fitted(spec, path, stored)
            else:
                self.kept[path] = stored
        self.start = dict(self.values)

    def _fitted(self, spec: Variable, path: str, stored: Any) -> Any:
        """A stored value under the pack as it is now (see the module's docstring); a fit is recorded."""
        if spec.kind == "flag":
            value: Any = stored if isinstance(stored, bool) else (stored != 0 if finite(stored) else spec.initial)
            why = "" if value is stored else "the variable is a flag now"
        elif not finite(stored):
            value, why = spec.initial, "not a number of this variable: back to its initial value"
        else:
            value, why = clamp(spec, stored, stored)
            value = _whole(value)
        if why:
            self.changes.append(Change(path, "pack", "load", stored, stored, value, CLAMPED, why))
        return value

    def spec_of(self, path: str) -> Variable | None:
        name, _, key = path.partition(".")
        spec = self.specs.get(name)
        if spec is None or bool(key) != spec.per_person:
            return None
        return spec

    def get(self, path: str) -> Any:
        """The value at `path` (its initial when never set); None for no variable."""
        spec = self.spec_of(path)
        if spec is None:
            return None
        return self.values.get(path, spec.initial)

    def change(self, op: str, path: str, value: Any, by: str) -> Change:
        """Apply one change, clamped; the record of it."""
        spec = self.spec_of(path)
        before = self.get(path)
        if spec is None:
            return self._keep(Change(path, by, op, value, None, None, IGNORED, "no such variable"))
        if spec.kind == "flag":
            if op == "toggle":
                target: Any = not before
            elif op == "set" and isinstance(value, bool):
                target = value
            else:
                return self._keep(Change(path, by, op, value, before, before, IGNORED,
                                         "a flag takes set true/false or toggle"))
            self.values[path] = target
            return self._keep(Change(path, by, op, value, before, target, APPLIED))
        if not isinstance(value, (int, float)) or isinstance(value, bool) or op == "toggle":
            return self._keep(Change(path, by, op, value, before, before, IGNORED, "expected a number"))
        if not finite(value):
            return self._keep(Change(path, by, op, value, before, before, IGNORED, "not a finite number"))
        wanted = {"set": value, "add": before + value, "subtract": before - value}.get(op)
        if wanted is None:
            return self._keep(Change(path, by, op, value, before, before, IGNORED, f"unknown change {op!r}"))
        after, why = clamp(spec, wanted, self.start.get(path, spec.initial))
        after = _whole(after)
        self.values[path] = after
        return self._keep(Change(path, by, op, value, before, after, CLAMPED if why else APPLIED, why))

    def _keep(self, change: Change) -> Change:
        self.changes.append(change)
        return change

    def shown(self) -> list[dict[str, Any]]:
        """Every variable with its value and band words, for a prompt (per person: those known)."""
        out: list[dict[str, Any]] = []
        for name, spec in self.specs.items():
            paths = sorted(p for p in self.values if p.startswith(name + ".")) if spec.per_person else [name]
            for path in paths:
                value = self.get(path)
                out.append({"path": path, "value": value, **({"band": spec.band(value)} if spec.band(value) else {})})
        return out


def clamp(spec: Variable, wanted: float, start: float) -> tuple[float, str]:
    """`wanted` within max_delta of `start` and within min/max; why it moved ("" when it did not)."""
    value, why = wanted, ""
    if spec.max_delta is not None and abs(value - start) > spec.max_delta:
        value = start + spec.max_delta if value > start else start - spec.max_delta
        why = f"at most {spec.max_delta:g} per notification"
    if spec.maximum is not None and value > spec.maximum:
        value, why = spec.maximum, f"max {spec.maximum:g}"
    if spec.minimum is not None and value < spec.minimum:
        value, why = spec.minimum, f"min {spec.minimum:g}"
    if not -VALUE_LIMIT <= value <= VALUE_LIMIT:  # no min/max: the limit of every variable still holds
        value, why = (VALUE_LIMIT if value > 0 else -VALUE_LIMIT), f"the limit of every variable, ±{VALUE_LIMIT:g}"
    return value, why


def finite(value: Any) -> TypeGuard[float]:
    """A number a variable can hold: not a bool, not NaN or infinite, and an int only as large as a float can be
    (a model's 10**400 would overflow the first sum with a float: said to be no number, and ignored)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _whole(value: float) -> float | int:
    return int(value) if isinstance(value, float) and value.is_integer() else value
