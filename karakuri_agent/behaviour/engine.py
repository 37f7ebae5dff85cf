"""Rules and reactions against the facts of one notification: pure, over the records of spec.py.

A `Turn` is one notification's work on the agent's remembered behaviour
(`memory`, the plain JSON the state keeps): it counts the notification,
sees a new in-world day, asks whether a rule wants to fire and why it may
not (switched off, on cooldown, spent), applies a fired rule's or a
reaction's actions (variables through the clamping engine), and hands back
the memory to save. "Now" is the facts' in-world time, never the machine's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from datetime import datetime, timedelta
from typing import Any, Iterable, Mapping, Sequence, TypeGuard

from karakuri_agent.behaviour.spec import PATH_SLOTS, Action, Behaviour, Condition, Reaction, Rule, Trigger, matches_type
from karakuri_agent.behaviour.variables import Change, Variables
from karakuri_agent.domain.clock import cooling_down

# Reasons a rule that wanted to fire could not (the trace's words).
COOLDOWN, SPENT = "on cooldown", "spent"


@dataclass(frozen=True)
class Facts:
    """What a rule may look at, in plain values: read from the view by the caller."""

    notification: str
    now: datetime  # in-world, in the world's zone
    place: str | None = None
    nearby: tuple[str, ...] = ()
    partner: tuple[str, ...] = ()
    money: int | None = None
    items: tuple[str, ...] | None = None  # the names held; None: unknown (`所持品: 5 個` counts, never names)
    weather: str | None = None
    met: tuple[str, ...] = ()
    text: str = ""  # the newest line, else the notification's text: what `keyword` reads
    offered: tuple[str, ...] = ()
    previous_command: str | None = None

    @cached_property
    def clock(self) -> str:
        return self.now.strftime("%H:%M")

    @cached_property
    def day(self) -> str:
        return self.now.strftime("%Y-%m-%d")

    def value(self, fact: str) -> Any:
        return self.clock if fact == "time" else getattr(self, fact, None)


@dataclass
class Turn:
    """One notification's changes to the remembered behaviour; `memory()` is what to save."""

    behaviour: Behaviour
    facts: Facts
    state: dict[str, Any]
    variables: Variables
    day_started: bool = False
    fired: list[str] = field(default_factory=list)
    reacted: list[str] = field(default_factory=list)
    avoid: set[str] = field(default_factory=set)
    phrases: tuple[str, ...] = ()
    previous: dict[str, Any] = field(default_factory=dict)  # the variables a notification ago: for crossings
    seen: dict[str, Any] = field(default_factory=dict)  # what this turn's crossing checks saw: the next one's "before"
    ran: set[tuple[str, tuple[tuple[str, str], ...]]] = field(default_factory=set)  # reactions run, with their slots

    @classmethod
    def begin(cls, behaviour: Behaviour, facts: Facts, memory: Mapping[str, Any]) -> Turn:
        """Count this notification, note a new day (running `day_start` reactions), age directives."""
        state = _copy(dict(memory))
        clock = state.setdefault("clock", {})
        state.setdefault("rules", {})
        state.setdefault("switches", {})
        directives = [d for d in state.get("directives", []) if d.get("left") is None or d["left"] > 0]
        state["directives"] = directives
        clock["seq"] = int(clock.get("seq", 0)) + 1
        new_day = clock.get("day") != facts.day
        clock["day"] = facts.day
        turn = cls(behaviour, facts, state, Variables(behaviour.variables, state.get("variables", {})),
                   day_started=new_day)
        turn.previous = dict(state.get("previous_variables", turn.variables.start))
        if new_day:
            turn.react(["day_start"], {})
        return turn

    # -- asking -------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return int(self.state["clock"]["seq"])

    def enabled(self, rule: Rule) -> bool:
        switched = self.state["switches"].get(rule.id)
        return bool(switched) if switched is not None else rule.enabled

    def wants(self, rule: Rule) -> bool:
        """The rule is on, its trigger holds now and so do its conditions."""
        return self.enabled(rule) and self._triggered(rule.when, rule.id) and self.holds(
            rule.conditions, rule.condition_logic)

    def blocked(self, rule: Rule) -> str | None:
        """Why a rule that wants to fire may not: spent or on cooldown (None: it may)."""
        record = self.state["rules"].get(rule.id, {})
        if rule.max_fires is not None and record.get("fires", 0) >= rule.max_fires:
            return SPENT
        cooldown = rule.cooldown
        if cooldown is None or not record:
            return None
        if cooldown.notifications is not None and self.seq - int(record.get("last_seq", 0)) <= cooldown.notifications:
            return COOLDOWN
        if cooldown.minutes is not None and record.get("last_at"):
            try:
                last = datetime.fromisoformat(record["last_at"])
                # The cycle's own rule: a last firing ahead of now counts as just now, at most a window.
                held = cooling_down(last, self.facts.now, timedelta(minutes=cooldown.minutes))
            except (TypeError, ValueError):  # a stamp that cannot be read cannot hold the rule back
                held = False
            if held:
                return COOLDOWN
        return None

    def _triggered(self, when: Trigger, rule_id: str) -> bool:
        kind = when.type
        if kind == "notification":
            return matches_type(when.types, self.facts.notification)
        if kind == "time":
            return within(self.facts.clock, *(when.between or ("00:00", "00:00")))
        if kind == "keyword":
            return any(k and k in self.facts.text for k in when.keywords)
        if kind == "every":
            return bool(when.notifications) and self.seq % int(when.notifications or 1) == 0
        if kind == "day_start":
            return self.day_started
        if kind == "after_command":
            return self.facts.previous_command == when.command
        if kind == "variable_crossed":
            return self._crossed(when)
        if kind == "manual":
            return self.state["switches"].get(rule_id) is True
        return False

    def _crossed(self, when: Trigger) -> bool:
        path, threshold = when.variable or "", when.threshold
        spec = self.variables.spec_of(path)
        before = self.previous[path] if path in self.previous else (spec.initial if spec else None)
        now = self.variables.get(path)
        if not _number(before) or not _number(now) or threshold is None:
            return False
        self.seen[path] = now  # a crossing is seen once: the next notification starts from here
        if when.direction == "rises_above":
            return before <= threshold < now
        return before >= threshold > now

    def holds(self, conditions: Sequence[Condition], logic: str, slots: Mapping[str, str] | None = None) -> bool:
        if not conditions:
            return True
        results = (self._condition(c, slots or {}) for c in conditions)
        return any(results) if logic == "any" else all(results)

    def _condition(self, cond: Condition, slots: Mapping[str, str]) -> bool:
        if cond.variable is not None:
            path = fill(cond.variable, self._slots(slots))
            actual = self.variables.get(path) if path else None
        else:
            actual = self.facts.value(cond.fact or "")
        return compare(actual, cond.operator, cond.value)

    # -- doing --------------------------------------------------------------------
    def fire(self, rule: Rule, slots: Mapping[str, str] | None = None) -> None:
        """Count the firing and apply its actions other than `choose` (the caller sends that)."""
        record = self.state["rules"].setdefault(rule.id, {"fires": 0})
        record["fires"] = int(record.get("fires", 0)) + 1
        record["last_seq"] = self.seq
        record["last_at"] = self.facts.now.isoformat()
        if rule.when.type == "manual":
            self.state["switches"].pop(rule.id, None)  # a manual rule fires once per turning on
        self.fired.append(rule.id)
        self.run(rule.then, rule.id, slots or {})

    def run(self, actions: Iterable[Action], by: str, slots: Mapping[str, str]) -> None:
        filled = self._slots(slots)
        for action in actions:
            kind = action.type
            if kind in ("set", "add", "subtract", "toggle"):
                path = fill(action.path or "", filled)
                if path is None:
                    self.variables.changes.append(Change(action.path or "", by, kind, action.value, None, None,
                                                         "ignored", "nothing in this notification fills the path"))
                else:
                    self.variables.change(kind, path, action.value, by)
            elif kind == "avoid":
                self.avoid |= set(action.commands)
            elif kind == "say":
                self.phrases = action.phrases
            elif kind in ("enable_rule", "disable_rule") and action.rule:
                self.state["switches"][action.rule] = kind == "enable_rule"
            elif kind == "directive" and action.text:
                left = None if action.persistent else (action.duration or 1)
                self.state["directives"] = [d for d in self.state["directives"] if d.get("by") != by] + [
                    {"text": action.text, "left": left, "by": by}]
            elif kind == "context" and action.text:
                self.state.setdefault("context", []).append(action.text)

    def react(self, events: Sequence[str], slots: Mapping[str, str]) -> None:
        """Run every reaction whose `on` names one of these events (or notification types, globbed).

        A reaction runs at most once per notification (per person, for one with
        a `{partner}` from the event): `*` matches the day's start and the
        notification's type, `*_completed` may match two events, and it still
        runs once.
        """
        key = tuple(sorted(slots.items()))
        for reaction in self.behaviour.reactions:
            if (reaction.id, key) in self.ran:
                continue
            if any(matches_type([reaction.on], e) for e in events) and self.holds(
                    reaction.conditions, reaction.condition_logic, slots):
                self.ran.add((reaction.id, key))
                self.reacted.append(reaction.id)
                self.run(reaction.then, reaction.id, slots)

    def _slots(self, slots: Mapping[str, str]) -> dict[str, str]:
        """`{partner}`, `{place}`, `{item}`: from the event, else from the notification's facts."""
        out = {"partner": self.facts.partner[0] if self.facts.partner else "", "place": self.facts.place or ""}
        out.update({k: v for k, v in slots.items() if v})
        return out

    # -- for the model and the state ---------------------------------------------------
    def directives(self) -> list[str]:
        return [d["text"] for d in self.state.get("directives", [])]

    def contexts(self) -> list[str]:
        return list(self.state.get("context", []))

    def memory(self) -> dict[str, Any]:
        """What to save after the notification: directives aged, one-prompt context used up."""
        state = _copy(self.state)
        state["variables"] = dict(self.variables.values)
        state["previous_variables"] = {**self.variables.start, **self.seen}
        for directive in state.get("directives", []):
            if directive.get("left") is not None:
                directive["left"] -= 1
        state["directives"] = [d for d in state.get("directives", []) if d.get("left") is None or d["left"] > 0]
        state["context"] = []
        return state


def _copy(value: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of the remembered behaviour, which is JSON (the state keeps it as JSON)."""
    copied: dict[str, Any] = json.loads(json.dumps(value, ensure_ascii=False))
    return copied


def within(clock: str, start: str, end: str) -> bool:
    """`clock` (HH:MM) in [start, end); a window may cross midnight; start == end is the whole day."""
    if start == end:
        return True
    return start <= clock < end if start < end else clock >= start or clock < end


def fill(path: str, slots: Mapping[str, str]) -> str | None:
    """A path with its `{partner}` / `{place}` / `{item}` filled; None when one is missing."""
    out = path
    for slot in PATH_SLOTS:
        token = "{" + slot + "}"
        if token in out:
            if not slots.get(slot):
                return None
            out = out.replace(token, slots[slot])
    return out


def compare(actual: Any, operator: str, expected: Any) -> bool:
    """One condition: lists ask membership, numbers order, texts equality or `contains`.

    A fact or variable nobody knows (None) makes every condition on it false,
    `neq` too: `weather neq はれ` must not hold on a text that never said the weather.
    """
    if actual is None:
        return False
    if isinstance(actual, (tuple, list)):
        inside = expected in actual
        return {"eq": inside, "contains": inside, "neq": not inside}.get(operator, False)
    if operator == "eq":
        return bool(actual == expected)
    if operator == "neq":
        return bool(actual != expected)
    if operator == "contains":
        return isinstance(actual, str) and isinstance(expected, str) and expected in actual
    if actual is None or expected is None:
        return False
    if _number(actual) and _number(expected):
        return _ordered(operator, actual, expected)
    if isinstance(actual, str) and isinstance(expected, str):
        return _ordered(operator, actual, expected)
    return False


def _ordered(operator: str, actual: Any, expected: Any) -> bool:
    """gt/lt/gte/lte on two values of one ordered kind (numbers, or texts)."""
    return bool({"gt": actual > expected, "lt": actual < expected, "gte": actual >= expected,
                 "lte": actual <= expected}.get(operator, False))


def _number(value: Any) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


__all__ = ["Facts", "Turn", "Reaction", "compare", "fill", "within", "COOLDOWN", "SPENT"]
