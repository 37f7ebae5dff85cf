"""The records of a behaviour pack, and the pack format, defined once: frozen, checked once when read.

Each field says how behaviour.json writes it (`written(form, key=...)` in the
field's metadata): pack.py checks a file against exactly these forms (it
builds its pydantic models from them, only when a pack is checked) and
build.py reads a checked file into these records by them. Nothing here reads
a file or a clock; the engine takes these and the facts of one notification
and says what the agent's own rules want.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Iterable, Mapping

from karakuri_agent.domain.clock import cooled_at

BEHAVIOUR_FILE = "behaviour.json"  # beside persona.json in a pack

# The forms a field of behaviour.json takes (pack.py's FORMS says what each accepts, with its range).
TEXT, ID, TEXTS, PAIR, FLAG, ANY, OBJECT, CHOICE, RECORD, RECORDS = (
    "text", "id", "texts", "pair", "flag", "any", "object", "choice", "record", "records")
VALUE, DELTA, MINUTES, COUNT, PRIORITY, BANDS, NAMES = (
    "value", "delta", "minutes", "count", "priority", "bands", "names")
WRITTEN = "written"  # the metadata key a record's field keeps its form under


def written(form: str, *, key: str | None = None, of: Any = None) -> dict[str, Any]:
    """A field's form in behaviour.json: `key` when the file names it otherwise, `of` the choices or the record."""
    return {WRITTEN: (form, key, of)}


def form_of(spec: Any) -> tuple[str, str | None, Any] | None:
    """A dataclass field's form in behaviour.json (None: the file has no such field)."""
    found: tuple[str, str | None, Any] | None = spec.metadata.get(WRITTEN)
    return found
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
    """One of the agent's own values: a number within bounds, or a flag; one value, or one per person.

    Its name is the key it is written under; build.variable derives the record from the file's
    words (`"type": "flag"`, `"per": "person"`, an initial value clamped to the bounds)."""

    name: str
    kind: str = field(default="number", metadata=written(CHOICE, key="type", of=("number", "flag")))
    per_person: bool = field(default=False, metadata=written(CHOICE, key="per", of=("person",)))
    minimum: float | None = field(default=None, metadata=written(VALUE, key="min"))
    maximum: float | None = field(default=None, metadata=written(VALUE, key="max"))
    initial: Any = field(default=0, metadata=written(ANY))  # a number in range or a flag's bool: pack.py says
    max_delta: float | None = field(default=None, metadata=written(DELTA))
    bands: tuple[Band, ...] = field(default=(), metadata=written(BANDS))
    # Older names whose stored values move to this one on load.
    renamed_from: tuple[str, ...] = field(default=(), metadata=written(NAMES))

    def band(self, value: Any) -> str | None:
        """The words for a value: the band it falls in (the last band includes its top)."""
        if self.kind == "flag" or not isinstance(value, (int, float)):
            return None
        for index, band in enumerate(self.bands):
            top = index == len(self.bands) - 1
            if band.low <= value < band.high or (top and value == band.high):
                return band.label
        return None


@dataclass(frozen=True, kw_only=True)
class Trigger:
    type: str = field(metadata=written(CHOICE, of=TRIGGERS))
    types: tuple[str, ...] = field(default=(), metadata=written(TEXTS))
    between: tuple[str, str] | None = field(default=None, metadata=written(PAIR))
    keywords: tuple[str, ...] = field(default=(), metadata=written(TEXTS))
    notifications: int | None = field(default=None, metadata=written(COUNT))
    variable: str | None = field(default=None, metadata=written(TEXT))
    direction: str | None = field(default=None, metadata=written(CHOICE, of=("rises_above", "drops_below")))
    threshold: float | None = field(default=None, metadata=written(VALUE))
    command: str | None = field(default=None, metadata=written(TEXT))


@dataclass(frozen=True, kw_only=True)
class Condition:
    fact: str | None = field(default=None, metadata=written(CHOICE, of=FACTS))
    variable: str | None = field(default=None, metadata=written(TEXT))
    operator: str = field(metadata=written(CHOICE, of=OPERATORS))
    value: Any = field(default=None, metadata=written(ANY))


@dataclass(frozen=True, kw_only=True)
class Action:
    type: str = field(metadata=written(CHOICE, of=ACTIONS))
    command: str | None = field(default=None, metadata=written(TEXT))
    params: Mapping[str, Any] = field(default_factory=dict, metadata=written(OBJECT))
    commands: tuple[str, ...] = field(default=(), metadata=written(TEXTS))
    phrases: tuple[str, ...] = field(default=(), metadata=written(TEXTS))
    path: str | None = field(default=None, metadata=written(TEXT))
    value: Any = field(default=None, metadata=written(ANY))
    rule: str | None = field(default=None, metadata=written(TEXT))
    text: str | None = field(default=None, metadata=written(TEXT))
    persistent: bool = field(default=False, metadata=written(FLAG))
    duration: int | None = field(default=None, metadata=written(COUNT))


@dataclass(frozen=True, kw_only=True)
class Cooldown:
    """A rule's rest after it fires: some notifications, or minutes of world time."""

    notifications: int | None = field(default=None, metadata=written(COUNT))
    minutes: float | None = field(default=None, metadata=written(MINUTES))

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


@dataclass(frozen=True, kw_only=True)
class Rule:
    id: str = field(metadata=written(ID))
    description: str = field(default="", metadata=written(TEXT))
    when: Trigger = field(metadata=written(RECORD, of=Trigger))
    conditions: tuple[Condition, ...] = field(default=(), metadata=written(RECORDS, of=Condition))
    condition_logic: str = field(default="all", metadata=written(CHOICE, of=("all", "any")))
    then: tuple[Action, ...] = field(default=(), metadata=written(RECORDS, of=Action))
    priority: int = field(default=DEFAULT_PRIORITY, metadata=written(PRIORITY))
    cooldown: Cooldown | None = field(default=None, metadata=written(RECORD, of=Cooldown))
    max_fires: int | None = field(default=None, metadata=written(COUNT))
    enabled: bool = field(default=True, metadata=written(FLAG))

    def spent(self, record: Mapping[str, Any]) -> bool:
        """Whether the rule has fired `max_fires` times (`record`: what the engine keeps of it)."""
        return self.max_fires is not None and _whole(record.get("fires")) >= self.max_fires

    @property
    def choice(self) -> Action | None:
        """The rule's `choose`, if it chooses a command (a rule without one only changes things)."""
        return next((a for a in self.then if a.type == "choose"), None)


@dataclass(frozen=True, kw_only=True)
class Reaction:
    id: str = field(metadata=written(ID))
    on: str = field(metadata=written(ID))
    conditions: tuple[Condition, ...] = field(default=(), metadata=written(RECORDS, of=Condition))
    condition_logic: str = field(default="all", metadata=written(CHOICE, of=("all", "any")))
    then: tuple[Action, ...] = field(default=(), metadata=written(RECORDS, of=Action))


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
