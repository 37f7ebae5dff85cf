"""The order of named rules, and which one decided: built-in and a pack's, tried by priority.

As py_trees' `Selector` ticks its prioritised children until one succeeds,
`select` tries rules highest priority first, each through the same face
(`attempt`, `unreached`, `entry`), so the selector never asks which kind a
rule is. A built-in rule (a small named unit of the package's own
decisions) answers with its candidates or passes (None). A pack rule
(`PackRule`, through the pack's turn) that wants to fire chooses its command
through the caller's `choose` (which resolves names and asks the one gate) or
gives way, and is recorded: not offered, refused by the gate, on cooldown,
spent. A pack rule without a `choose` fires (changes variables, adds
directives, avoids commands) and passes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Mapping, Sequence, TypeVar

from karakuri_agent.behaviour.engine import Turn
from karakuri_agent.behaviour.spec import Action, Behaviour, Rule

V = TypeVar("V")  # what the built-in rules read (the decider's view)
C = TypeVar("C")  # a candidate decision

BUILT_IN = "built-in"


@dataclass
class _Step(Generic[V, C]):
    """One selection in progress: what every rule is tried with, and what the trace gathers."""

    view: V
    turn: Turn | None
    choose: Callable[[Rule, Action, tuple[str, ...]], C | str]
    command_of: Callable[[C], str | None]
    gave_way: list[dict[str, str]] = field(default_factory=list)
    tried: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class BuiltinRule(Generic[V, C]):
    """One of the package's own decisions: an id that stays, a priority, a line saying what it does."""

    id: str
    priority: int
    description: str
    propose: Callable[[V], Sequence[C] | None]

    def attempt(self, step: _Step[V, C]) -> list[C] | None:
        """Its candidates (commands the pack's turn avoids left out), or None to pass to the next rule."""
        candidates = self.propose(step.view)
        if candidates is None:
            return None
        avoid = step.turn.avoid if step.turn is not None else ()
        if avoid:
            kept = [c for c in candidates if step.command_of(c) not in avoid]
            if candidates and not kept:
                step.gave_way.append({"rule": self.id, "why": f"avoided: {', '.join(sorted(avoid))}"})
                return None
            candidates = kept
        return list(candidates)

    def unreached(self) -> dict[str, Any] | None:
        return None  # the trace's `tried` is the pack's rules (a built-in rule says nothing of itself)

    def entry(self, source: str, off_by: str | None) -> Entry:
        return Entry(self.id, self.priority, BUILT_IN, self.description, off_by is None, off_by=off_by)


@dataclass(frozen=True)
class PackRule(Generic[V, C]):
    """A rule of the pack's behaviour.json, tried through the pack's turn: the same face as a built-in rule."""

    rule: Rule

    @property
    def id(self) -> str:
        return self.rule.id

    @property
    def priority(self) -> int:
        return self.rule.priority

    def attempt(self, step: _Step[V, C]) -> list[C] | None:
        """Its one candidate when it fires and chooses; None when it does not want to, may not, or gives way.

        A rule without a `choose` fires (changes variables, adds directives, avoids commands) and
        passes, so the next rule is tried. Every outcome goes into the trace's `tried`.
        """
        turn, rule = step.turn, self.rule
        if turn is None:
            return None
        trial = turn.consider(rule)
        entry = trial.to_json()
        step.tried.append(entry)
        if not trial.wants:
            entry["outcome"] = "not wanted" if trial.on else "off"
            return None
        why = turn.blocked(rule)
        if why is None and rule.choice is not None and rule.choice.command in turn.avoid:
            why = f"avoided: {rule.choice.command}"
        if why is None and rule.choice is None:
            turn.fire(rule)  # changes things, decides nothing: the next rule is tried
            entry["outcome"] = FIRED
            return None
        if why is None and rule.choice is not None:
            phrases = next((a.phrases for a in rule.then if a.type == "say"), ()) or turn.phrases
            made = step.choose(rule, rule.choice, phrases)
            if not isinstance(made, str):
                turn.fire(rule)
                entry["outcome"] = DECIDED
                return [made]
            why = made
        step.gave_way.append({"rule": rule.id, "why": str(why)})
        entry["outcome"] = f"gave way: {why}"
        return None

    def unreached(self) -> dict[str, Any] | None:
        return {"rule": self.rule.id, "outcome": NOT_REACHED}

    def entry(self, source: str, off_by: str | None) -> Entry:
        rule = self.rule
        off_by = off_by or (None if rule.enabled else "enabled: false")
        cooldown = rule.cooldown and (f"{rule.cooldown.notifications} notifications"
                                      if rule.cooldown.notifications is not None
                                      else f"{rule.cooldown.minutes:g} minutes")
        return Entry(rule.id, rule.priority, source, rule.description or _summary(rule), off_by is None,
                     rule.when.type, cooldown or None, rule.max_fires, off_by)


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
        self.behaviour = behaviour
        disabled = set(behaviour.disable)
        # Pack rules before built-in ones of the same priority, each kind in its own order.
        every: list[BuiltinRule[V, C] | PackRule[V, C]] = [*(PackRule(r) for r in behaviour.rules), *builtins]
        ranked = sorted(enumerate(every), key=lambda pair: (-pair[1].priority, isinstance(pair[1], BuiltinRule),
                                                             pair[0]))
        self.ordered = [rule for _, rule in ranked if rule.id not in disabled]
        self._switched_off = [rule for _, rule in ranked if rule.id in disabled]

    def entries(self) -> list[Entry]:
        """Every rule in the order tried, then those `disable` switched off."""
        source = self.behaviour.source or "behaviour.json"
        return [*(rule.entry(source, None) for rule in self.ordered),
                *(rule.entry(source, "disable") for rule in self._switched_off)]

    def select(self, view: V, turn: Turn | None,
               choose: Callable[[Rule, Action, tuple[str, ...]], C | str],
               command_of: Callable[[C], str | None]) -> Selection[C]:
        """The first rule that answers, with its candidates; every pack rule that could not, and why.

        `choose` makes a pack rule's command a candidate, or says why it
        cannot be one (not offered, unknown place, refused by the gate).
        """
        step = _Step(view, turn, choose, command_of)
        for index, rule in enumerate(self.ordered):
            candidates = rule.attempt(step)
            if candidates is not None:
                step.tried.extend(entry for later in self.ordered[index + 1:] if (entry := later.unreached()))
                return Selection(candidates, rule.id, step.gave_way, turn, step.tried)
        return Selection([], None, step.gave_way, turn, step.tried)


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
