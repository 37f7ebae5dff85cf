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
from datetime import datetime
from typing import Any, Iterable, Mapping, Sequence, TypeGuard

from karakuri_agent.behaviour.spec import PATH_SLOTS, Action, Behaviour, Condition, Reaction, Rule, Trigger, matches_type
from karakuri_agent.behaviour.variables import Change, Variables

# Reasons a rule that wanted to fire could not (the trace's words).
COOLDOWN, SPENT = "on cooldown", "spent"
# Under this key the memory keeps, per `variable_crossed` rule, the value it saw when it last looked.
CROSSINGS = "crossings"


@dataclass(frozen=True)
class Checked:
    """One condition as it was checked: the fact or variable path, the value found, the result."""

    condition: Condition
    named: str
    actual: Any
    holds: bool

    def line(self) -> str:
        """`weather eq はれ 20℃ → false (weather: unknown)`."""
        c = self.condition
        return (f"{self.named} {c.operator} {value_text(c.value)} → {'true' if self.holds else 'false'}"
                f" ({self.named}: {value_text(self.actual)})")


@dataclass(frozen=True)
class Trial:
    """Why a pack rule wants to fire or not: its switch, its trigger and each condition (for --explain)."""

    rule: str
    on: bool
    trigger: str  # what the trigger looked at
    triggered: bool
    conditions: tuple[Checked, ...] = ()
    logic: str = "all"

    @property
    def wants(self) -> bool:
        held = [c.holds for c in self.conditions]
        return self.on and self.triggered and (not held or (any(held) if self.logic == "any" else all(held)))

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "on": self.on, "trigger": self.trigger, "triggered": self.triggered,
                "logic": self.logic, "conditions": [{"condition": c.line(), "holds": c.holds} for c in self.conditions]}


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
    looked: dict[str, Any] = field(default_factory=dict)  # rule id → the value its crossing check saw
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
        return self.consider(rule).wants

    def consider(self, rule: Rule) -> Trial:
        """Whether the rule wants to fire, and why: its switch, its trigger and each condition, with the values.

        The trigger is looked at even for a rule that is off, so a crossing it
        was shown is used up, as for a rule that is on (a crossing is kept only
        for a rule not reached).
        """
        triggered, trigger = self._triggered(rule.when, rule.id)
        conditions = tuple(self._condition(c, {}) for c in rule.conditions)
        return Trial(rule.id, self.enabled(rule), trigger, triggered, conditions, rule.condition_logic)

    def blocked(self, rule: Rule) -> str | None:
        """Why a rule that wants to fire may not: spent or on cooldown (None: it may); spec.py's guards."""
        record = self.state["rules"].get(rule.id, {})
        if rule.spent(record):
            return SPENT
        if rule.cooldown is not None and rule.cooldown.left(record, self.seq, self.facts.now):
            return COOLDOWN
        return None

    def _triggered(self, when: Trigger, rule_id: str) -> tuple[bool, str]:
        """Whether the trigger holds now, and what it looked at (`time 12:00 in 23:00-06:00`)."""
        kind = when.type
        if kind == "notification":
            return (matches_type(when.types, self.facts.notification),
                    f"notification {self.facts.notification or 'unknown'} in {listed(when.types)}")
        if kind == "time":
            start, end = when.between or ("00:00", "00:00")
            return within(self.facts.clock, start, end), f"time {self.facts.clock} in {start}-{end}"
        if kind == "keyword":
            return (any(k and k in self.facts.text for k in when.keywords),
                    f"keyword {listed(when.keywords)} in the newest line")
        if kind == "every":
            every = int(when.notifications or 1)
            return (bool(when.notifications) and self.seq % every == 0,
                    f"every {every} notifications (this is #{self.seq})")
        if kind == "day_start":
            return self.day_started, f"day_start ({'a new' if self.day_started else 'the same'} in-world day)"
        if kind == "after_command":
            return (self.facts.previous_command == when.command,
                    f"after_command {when.command} (previous: {self.facts.previous_command or 'none'})")
        if kind == "variable_crossed":
            return self._crossed(when, rule_id)
        if kind == "manual":
            on = self.state["switches"].get(rule_id) is True
            return on, f"manual ({'turned on' if on else 'not turned on'} by enable_rule)"
        return False, f"{kind} (unknown trigger)"

    def _crossed(self, when: Trigger, rule_id: str) -> tuple[bool, str]:
        """The variable passed the threshold since this rule last looked (a crossing waits for the rule)."""
        path, threshold = when.variable or "", when.threshold
        before = self._crossing_before(rule_id, path)
        now = self.variables.get(path)
        said = f"{path} {when.direction} {value_text(threshold)} ({value_text(before)} → {value_text(now)})"
        if not _number(before) or not _number(now) or threshold is None:
            return False, said
        self.seen[path] = now  # a crossing is seen once: the next notification starts from here
        self.looked[rule_id] = now
        if when.direction == "rises_above":
            return before <= threshold < now, said
        return before >= threshold > now, said

    def _crossing_before(self, rule_id: str, path: str) -> Any:
        """What the rule saw of `path` when it last looked; else the value a notification ago (else initial)."""
        kept = self.state.get(CROSSINGS)
        if isinstance(kept, dict) and _number(kept.get(rule_id)):
            return kept[rule_id]
        spec = self.variables.spec_of(path)
        return self.previous[path] if path in self.previous else (spec.initial if spec else None)

    def holds(self, conditions: Sequence[Condition], logic: str, slots: Mapping[str, str] | None = None) -> bool:
        if not conditions:
            return True
        results = (self._condition(c, slots or {}).holds for c in conditions)
        return any(results) if logic == "any" else all(results)

    def _condition(self, cond: Condition, slots: Mapping[str, str]) -> Checked:
        if cond.variable is not None:
            path = fill(cond.variable, self._slots(slots))
            actual = self.variables.get(path) if path else None
            named = path or cond.variable
        else:
            actual = self.facts.value(cond.fact or "")
            named = cond.fact or ""
        return Checked(cond, named, actual, compare(actual, cond.operator, cond.value))

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
        state["variables"] = {**self.variables.kept, **self.variables.values}  # a variable dropped: kept
        state["previous_variables"] = {**self.variables.start, **self.seen}
        # Per crossing rule, what it saw when it last looked: a rule not reached (a higher one decided)
        # keeps what it would have compared with, so a crossing waits for it instead of being lost.
        crossings = {}
        for rule in self.behaviour.rules:
            if rule.when.type == "variable_crossed":
                path = rule.when.variable or ""
                seen = self.looked.get(rule.id, self.variables.get(path) if rule.id in self.behaviour.disable
                                       else self._crossing_before(rule.id, path))
                if _number(seen):
                    crossings[rule.id] = seen
        state[CROSSINGS] = crossings
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


def value_text(value: Any) -> str:
    """A fact's or variable's value as the explanation shows it: `unknown`, `true`, `3`, `桜草メイ, 朝凪ソラ`."""
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (tuple, list)):
        return listed(value, empty="none")
    return str(value)


def listed(values: Sequence[Any], *, empty: str = "[]", most: int = 8) -> str:
    """Names or patterns as one short list: `[idle_reminder_fired, *_completed]`; past `most`, how many more."""
    shown = [str(v) for v in values[:most]] + ([f"… {len(values) - most} more"] if len(values) > most else [])
    if not shown:
        return empty
    return ", ".join(shown) if empty == "none" else f"[{', '.join(shown)}]"


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


__all__ = ["Checked", "Facts", "Trial", "Turn", "Reaction", "compare", "fill", "within", "COOLDOWN", "SPENT"]
