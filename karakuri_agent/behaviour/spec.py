"""The records of a behaviour pack: frozen, checked once when the pack is read (pack.py).

Nothing here reads a file or a clock; the engine takes these and the facts of
one notification and says what the agent's own rules want.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Iterable, Mapping

from karakuri_agent.domain.clock import cooled_at

BEHAVIOUR_FILE = "behaviour.json"  # beside persona.json in a pack
TRIGGERS = ("notification", "time", "keyword", "every", "day_start", "variable_crossed", "after_command",
            "manual")
OPERATORS = ("eq", "neq", "gt", "lt", "gte", "lte", "contains")
# What each fact is (business-rules' idea: the operators belong to the value's kind, so a condition
# that can never hold, such as `money gt "100"` or `place gt 3`, is an error in `persona check`).
FACT_KINDS = {"notification": "label", "time": "clock", "place": "label", "nearby": "names",
              "partner": "names", "money": "number", "items": "names", "weather": "label", "met": "names"}
FACTS = tuple(FACT_KINDS)
# Per kind: the operators it takes, and what a condition's value must be (engine.compare's meaning).
KIND_OPERATORS = {
    "label": ("eq", "neq", "contains"),  # a notification type, a place's label, the weather: text
    "names": ("eq", "neq", "contains"),  # names: eq and contains ask "is among", neq "is not"
    "clock": ("eq", "neq", "gt", "lt", "gte", "lte"),  # HH:MM, ordered as the day goes
    "number": ("eq", "neq", "gt", "lt", "gte", "lte"),  # money, a number variable
    "flag": ("eq", "neq"),  # a flag variable
}
KIND_VALUES = {"label": "a text", "names": "a name", "clock": "a time HH:MM", "number": "a number",
               "flag": "true or false"}
ACTIONS = ("choose", "avoid", "say", "set", "add", "subtract", "toggle", "enable_rule", "disable_rule",
           "directive", "context")
CHANGES = ("set", "add", "subtract", "toggle")
EVENTS = ("conversation_ended", "conversation_started", "transfer_received", "transfer_given",
          "movement_completed", "action_completed", "command_failed", "day_start", "promise_kept",
          "promise_broken")
# What fills `{partner}`, `{place}` and `{item}` in a variable's path.
PATH_SLOTS = ("partner", "place", "item")

# The ranges of every number a pack gives (`persona check` names the field and the range): wide
# enough for any character, narrow enough that no sum, clamp or date arithmetic can overflow.
VALUE_LIMIT = 1_000_000_000  # a variable's min, max, initial, bands, thresholds, changes: ±1e9
COUNT_LIMIT = 1_000_000  # max_fires, every.notifications, cooldown.notifications, a directive's duration
COOLDOWN_MINUTES_LIMIT = 525_600  # a year of world time
PRIORITY_LIMIT = 1_000  # -1000 to 1000 (the built-in rules sit between 10 and 300)
DEFAULT_PRIORITY = 50  # a pack rule that names none


@dataclass(frozen=True)
class Band:
    low: float
    high: float
    label: str


@dataclass(frozen=True)
class Variable:
    """One of the agent's own values: a number within bounds, or a flag; one value, or one per person."""

    name: str
    kind: str = "number"  # "number" | "flag"
    per_person: bool = False
    minimum: float | None = None
    maximum: float | None = None
    initial: Any = 0
    max_delta: float | None = None
    bands: tuple[Band, ...] = ()
    renamed_from: tuple[str, ...] = ()  # older names whose stored values move to this one on load

    def band(self, value: Any) -> str | None:
        """The words for a value: the band it falls in (the last band includes its top)."""
        if self.kind == "flag" or not isinstance(value, (int, float)):
            return None
        for index, band in enumerate(self.bands):
            top = index == len(self.bands) - 1
            if band.low <= value < band.high or (top and value == band.high):
                return band.label
        return None


@dataclass(frozen=True)
class Trigger:
    type: str
    types: tuple[str, ...] = ()
    between: tuple[str, str] | None = None
    keywords: tuple[str, ...] = ()
    notifications: int | None = None
    variable: str | None = None
    direction: str | None = None
    threshold: float | None = None
    command: str | None = None


@dataclass(frozen=True)
class Condition:
    operator: str
    value: Any
    fact: str | None = None
    variable: str | None = None


@dataclass(frozen=True)
class Action:
    type: str
    command: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    commands: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    path: str | None = None
    value: Any = None
    rule: str | None = None
    text: str | None = None
    persistent: bool = False
    duration: int | None = None


@dataclass(frozen=True)
class Cooldown:
    """A rule's rest after it fires: some notifications, or minutes of world time."""

    notifications: int | None = None
    minutes: float | None = None

    def left(self, record: Mapping[str, Any], seq: int, now: datetime | None) -> dict[str, Any]:
        """What holds the rule back at notification number `seq`, at `now` (empty: nothing).

        `record` is what the engine keeps of the rule (`last_seq`, `last_at`). The
        one guard the engine blocks by and `state show` tells from; minutes follow
        the cycle's own clock rule (domain/clock.cooling_down). `now` None (a state
        that knows no time) counts from the firing itself.
        """
        out: dict[str, Any] = {}
        if not record:
            return out
        if self.notifications is not None:
            left = self.notifications - (seq - _whole(record.get("last_seq"))) + 1
            if left > 0:
                out["notifications"] = left
        if self.minutes is not None and record.get("last_at"):
            try:  # a stamp that cannot be read cannot hold the rule back
                last = datetime.fromisoformat(str(record["last_at"]))
                until = cooled_at(last, last if now is None else now, timedelta(minutes=self.minutes))
            except (TypeError, ValueError, OverflowError):
                until = None
            if until is not None:
                out["until"] = until
        return out


def _whole(value: Any) -> int:
    """A count the engine saved (a whole number, 0 when missing or unreadable)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


@dataclass(frozen=True)
class Rule:
    id: str
    when: Trigger
    then: tuple[Action, ...] = ()
    conditions: tuple[Condition, ...] = ()
    condition_logic: str = "all"
    priority: int = DEFAULT_PRIORITY
    cooldown: Cooldown | None = None
    max_fires: int | None = None
    enabled: bool = True
    description: str = ""

    def spent(self, record: Mapping[str, Any]) -> bool:
        """Whether the rule has fired `max_fires` times (`record`: what the engine keeps of it)."""
        return self.max_fires is not None and _whole(record.get("fires")) >= self.max_fires

    @property
    def choice(self) -> Action | None:
        """The rule's `choose`, if it chooses a command (a rule without one only changes things)."""
        return next((a for a in self.then if a.type == "choose"), None)


@dataclass(frozen=True)
class Reaction:
    id: str
    on: str
    then: tuple[Action, ...] = ()
    conditions: tuple[Condition, ...] = ()
    condition_logic: str = "all"


@dataclass(frozen=True)
class Behaviour:
    """A pack's behaviour.json, read and checked. Empty (the default) changes nothing."""

    variables: Mapping[str, Variable] = field(default_factory=dict)
    rules: tuple[Rule, ...] = ()
    reactions: tuple[Reaction, ...] = ()
    disable: tuple[str, ...] = ()
    source: str = ""  # the file it was read from, for `rules` and the trace

    @property
    def empty(self) -> bool:
        return not (self.variables or self.rules or self.reactions or self.disable)

    def rule(self, rule_id: str) -> Rule | None:
        return next((r for r in self.rules if r.id == rule_id), None)


EMPTY = Behaviour()


def matches_type(patterns: Iterable[str], notification_type: str) -> bool:
    """A notification type (or an event) against `types` (`*` globs such as `*_completed`)."""
    return any(fnmatch.fnmatchcase(notification_type, p) for p in patterns)
