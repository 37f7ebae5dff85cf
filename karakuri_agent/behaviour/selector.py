"""The order of named rules, and which one decided: built-in and a pack's, tried by priority.

As py_trees' `Selector` ticks its prioritised children until one succeeds,
`select` tries rules highest priority first. A built-in rule (a small named
unit of the package's own decisions) answers with its candidates or passes
(None). A pack rule that wants to fire chooses its command through the
caller's `choose` (which resolves names and asks the one gate) or gives way,
and is recorded: not offered, refused by the gate, on cooldown, spent. A pack
rule without a `choose` fires (changes variables, adds directives, avoids
commands) and the selection goes on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Mapping, Sequence, TypeVar

from karakuri_agent.behaviour.engine import Turn
from karakuri_agent.behaviour.spec import Action, Behaviour, Rule

V = TypeVar("V")  # what the built-in rules read (the decider's view)
C = TypeVar("C")  # a candidate decision

BUILT_IN = "built-in"


@dataclass(frozen=True)
class BuiltinRule(Generic[V, C]):
    """One of the package's own decisions: an id that stays, a priority, a line saying what it does."""

    id: str
    priority: int
    description: str
    propose: Callable[[V], Sequence[C] | None]


@dataclass(frozen=True)
class Entry:
    """A rule as `karakuri-agent rules` lists it, in the order tried."""

    id: str
    priority: int
    source: str
    description: str
    enabled: bool
    trigger: str = ""
    cooldown: str | None = None  # "3 notifications" or "30 minutes" (pack rules)
    max_fires: int | None = None
    off_by: str | None = None  # why it is off: "disable" (the pack's list) or "enabled: false" (the rule)


@dataclass
class Selection(Generic[C]):
    candidates: list[C]
    rule: str | None  # the rule whose candidates these are (None: none answered)
    gave_way: list[dict[str, str]] = field(default_factory=list)  # rules that wanted to fire and could not
    turn: Turn | None = None
    tried: list[dict[str, Any]] = field(default_factory=list)  # every pack rule, in order: why it did what it did

    def trace(self) -> dict[str, object]:
        out: dict[str, object] = {"rule": self.rule, "gave_way": self.gave_way}
        if self.tried:
            out["tried"] = self.tried
        if self.turn is not None:
            out["fired"] = list(self.turn.fired)
            out["reactions"] = list(self.turn.reacted)
            out["changes"] = [c.to_json() for c in self.turn.variables.changes]
        return out


class Selector(Generic[V, C]):
    """Built-in rules and a pack's behaviour, in the order they are tried."""

    def __init__(self, builtins: Sequence[BuiltinRule[V, C]], behaviour: Behaviour) -> None:
        self.builtins = list(builtins)
        self.behaviour = behaviour
        disabled = set(behaviour.disable)
        ordered: list[tuple[tuple[int, int, int], BuiltinRule[V, C] | Rule]] = []
        ordered += [((-r.priority, 0, i), r) for i, r in enumerate(behaviour.rules) if r.id not in disabled]
        ordered += [((-r.priority, 1, i), r) for i, r in enumerate(self.builtins) if r.id not in disabled]
        self.ordered = [rule for _, rule in sorted(ordered, key=lambda pair: pair[0])]

    def entries(self) -> list[Entry]:
        out = []
        disabled = set(self.behaviour.disable)
        source = self.behaviour.source or "behaviour.json"
        everything: list[BuiltinRule[V, C] | Rule] = [*self.builtins, *self.behaviour.rules]
        switched_off = [r for r in everything if r.id in disabled]
        for rule in sorted([*self.ordered, *switched_off],
                           key=lambda r: (r.id in disabled, -r.priority)):
            off_by = "disable" if rule.id in disabled else None
            if isinstance(rule, BuiltinRule):
                out.append(Entry(rule.id, rule.priority, BUILT_IN, rule.description, off_by is None, off_by=off_by))
            else:
                off_by = off_by or (None if rule.enabled else "enabled: false")
                cooldown = rule.cooldown and (f"{rule.cooldown.notifications} notifications"
                                              if rule.cooldown.notifications is not None
                                              else f"{rule.cooldown.minutes:g} minutes")
                out.append(Entry(rule.id, rule.priority, source, rule.description or _summary(rule), off_by is None,
                                 rule.when.type, cooldown or None, rule.max_fires, off_by))
        return out

    def select(self, view: V, turn: Turn | None,
               choose: Callable[[Rule, Action, tuple[str, ...]], C | str],
               command_of: Callable[[C], str | None]) -> Selection[C]:
        """The first rule that answers, with its candidates; every pack rule that could not, and why.

        `choose` makes a pack rule's command a candidate, or says why it
        cannot be one (not offered, unknown place, refused by the gate).
        """
        gave_way: list[dict[str, str]] = []
        tried: list[dict[str, Any]] = []

        def answered(candidates: list[C], by: str, index: int) -> Selection[C]:
            tried.extend({"rule": r.id, "outcome": NOT_REACHED} for r in self.ordered[index + 1:]
                         if isinstance(r, Rule))
            return Selection(candidates, by, gave_way, turn, tried)

        for index, rule in enumerate(self.ordered):
            if isinstance(rule, BuiltinRule):
                candidates = rule.propose(view)
                if candidates is None:
                    continue
                if turn is not None and turn.avoid:
                    kept = [c for c in candidates if command_of(c) not in turn.avoid]
                    if candidates and not kept:
                        gave_way.append({"rule": rule.id, "why": f"avoided: {', '.join(sorted(turn.avoid))}"})
                        continue
                    candidates = kept
                return answered(list(candidates), rule.id, index)
            if turn is None:
                continue
            trial = turn.consider(rule)
            entry = trial.to_json()
            tried.append(entry)
            if not trial.wants:
                entry["outcome"] = "not wanted" if trial.on else "off"
                continue
            why = turn.blocked(rule)
            if why is None and rule.choice is not None and rule.choice.command in turn.avoid:
                why = f"avoided: {rule.choice.command}"
            if why is not None:
                gave_way.append({"rule": rule.id, "why": why})
                entry["outcome"] = f"gave way: {why}"
                continue
            action = rule.choice
            if action is None:
                turn.fire(rule)  # changes things, decides nothing: the next rule is tried
                entry["outcome"] = FIRED
                continue
            phrases = next((a.phrases for a in rule.then if a.type == "say"), ()) or turn.phrases
            made = choose(rule, action, phrases)
            if isinstance(made, str):
                gave_way.append({"rule": rule.id, "why": made})
                entry["outcome"] = f"gave way: {made}"
                continue
            turn.fire(rule)
            entry["outcome"] = DECIDED
            return answered([made], rule.id, index)
        return Selection([], None, gave_way, turn, tried)


# What became of a pack rule tried (the trace's `tried[].outcome`, besides `gave way: …`).
DECIDED, FIRED, NOT_REACHED = "decided", "fired (decides nothing: the next rule was tried)", "not reached"


def tried_line(entry: Mapping[str, Any]) -> str:
    """One pack rule tried, as one line: its trigger, each condition with the value it found, what came of it.

    `night-rest: time 12:00 in 23:00-06:00 → false — not wanted`;
    `rainy: notification idle_reminder_fired in [*] → true; weather eq はれ 20℃ → false (weather: unknown) —
    not wanted`; a rule below the one that decided: `low: not reached`.
    """
    rule, outcome = entry.get("rule"), entry.get("outcome")
    if outcome == NOT_REACHED or "trigger" not in entry:
        return f"{rule}: {outcome}"
    parts = [f"{entry.get('trigger')} → {'true' if entry.get('triggered') else 'false'}"]
    conditions = [str(c.get("condition")) for c in entry.get("conditions") or () if isinstance(c, Mapping)]
    if conditions:
        joined = ", ".join(conditions) if entry.get("logic") == "any" and len(conditions) > 1 else "; ".join(conditions)
        parts.append(f"any of: {joined}" if entry.get("logic") == "any" and len(conditions) > 1 else joined)
    switch = "" if entry.get("on", True) else " (switched off)"
    return f"{rule}{switch}: {'; '.join(parts)} — {outcome}"


def _summary(rule: Rule) -> str:
    """What a pack rule without a description does, in a few words: `time 23:00-06:00 → wait`."""
    when = rule.when
    detail = {
        "notification": ",".join(when.types), "time": "-".join(when.between or ()), "keyword": ",".join(when.keywords),
        "every": f"{when.notifications} notifications", "variable_crossed": f"{when.variable} {when.direction} "
        f"{when.threshold:g}" if when.threshold is not None else "", "after_command": when.command or "",
    }.get(when.type, "")
    does = [a.command if a.type == "choose" else a.type for a in rule.then]
    return f"{when.type} {detail}".strip() + (f" → {', '.join(str(d) for d in does)}" if does else "")
