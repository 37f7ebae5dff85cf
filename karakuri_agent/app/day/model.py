"""One in-world day of the agent's life as a typed value, built from the state's records (pure).

`build(records)` is the one place that decides what the day *says*: where
the agent stood and since when, which conversations it had and their lines,
what became of each promise, what it was given, gave or declined, which
commands it sent and what failed. The renderers (text.py, as_json.py,
page.py) only lay a `Day` out; reading the records is read.py's job.

Nothing is invented: every place, person, line, promise and gift comes from
one stored record, and what the state cannot tell (a promise not yet due, a
walk not yet over) is left as it is.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Iterable

# The day is a date on the world's clock (Asia/Tokyo), as its texts and the reports show it.
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.domain.records import Activity, JournalEntry, Meeting

# Lines further apart than CONVERSATION_GAP, without a conversation id, belong to different talks.
from karakuri_agent.ja import markup
from karakuri_agent.memory.context import CONVERSATION_GAP
from karakuri_agent.memory.journal import ARRIVAL, HERE, LINE, TRANSFER

from karakuri_agent.memory import promises

MADE, KEPT, MISSED, PENDING, CANCELLED = "made", "kept", "missed", "pending", "cancelled"

ZONE = TOKYO  # a day is a day in the world's zone (CONTRACT §9)


@dataclass(frozen=True)
class Records:
    """What read.py hands the builder: one day's rows, and what the state knows around them."""

    date: date
    start: datetime  # the day's first instant (aware)
    end: datetime  # the next day's first instant
    journal: list[JournalEntry]
    activity: list[Activity]
    promises: list[Meeting]
    withdrawn: frozenset[int]  # promise ids called off or replaced by a later plan
    place_names: dict[str, str]  # node id → label, every known place
    state_now: datetime | None  # the newest time the state has recorded: "now" as far as it knows
    learned: list[dict[str, Any]] = field(default_factory=list)  # facts people told that day (told_facts rows)


@dataclass(frozen=True)
class Visit:
    node_id: str
    label: str
    arrived_at: datetime


@dataclass(frozen=True)
class SaidLine:
    at: datetime
    speaker: str
    text: str
    own: bool


@dataclass(frozen=True)
class Conversation:
    partners: tuple[str, ...]
    started_at: datetime
    ended_at: datetime
    lines: tuple[SaidLine, ...]

    def lines_by_speaker(self) -> dict[str, int]:
        return dict(Counter(line.speaker for line in self.lines))


@dataclass(frozen=True)
class Promise:
    partner: str
    place: str
    node_id: str | None
    due_at: datetime | None
    made_at: datetime
    status: str  # made, kept, missed, pending or cancelled
    kept_at: datetime | None
    text: str


@dataclass(frozen=True)
class Transfer:
    at: datetime
    direction: str  # received, given or declined
    partner: str
    item: dict[str, Any] | None  # {"item_id", "quantity"}
    money: int | None


@dataclass(frozen=True)
class Failure:
    at: datetime
    notification_id: str
    error: str  # the contract's error code
    message: str


@dataclass(frozen=True)
class RuleFired:
    """The rule that decided a notification (built-in or the pack's, CONTRACT §10), from the run's trace."""

    at: datetime
    rule: str
    command: str | None


@dataclass(frozen=True)
class VariableValue:
    """A pack variable's value after a change the engine applied or clamped, from the run's trace."""

    at: datetime
    path: str
    value: Any


@dataclass(frozen=True)
class Learned:
    """Something a person told the agent about themselves (or news of the town), with the line it came from."""

    at: datetime
    teller: str
    about: str
    kind: str
    topic: str
    line: str
    withdrawn: bool


@dataclass(frozen=True)
class Day:
    date: date
    places: tuple[Visit, ...]
    conversations: tuple[Conversation, ...]
    promises: tuple[Promise, ...]
    transfers: tuple[Transfer, ...]
    commands: dict[str, int]
    failures: tuple[Failure, ...]
    known_places: dict[str, str]  # node id → label: the drawing's map
    rules_fired: tuple[RuleFired, ...] = ()
    variables: tuple[VariableValue, ...] = ()
    learned: tuple[Learned, ...] = ()
    notifications: int = 0

    @property
    def empty(self) -> bool:
        return not (self.notifications or self.places or self.conversations or self.promises or self.transfers
                    or self.commands or self.failures)

    def timeline(self) -> list[tuple[datetime, str, str]]:
        """Everything that happened, in time order: (when, kind, what) with kind place, talk, promise, gift, failure."""
        events = [(v.arrived_at, "place", v.label) for v in self.places]
        events += [(c.started_at, "talk", markup.LIST_JOIN.join(c.partners)) for c in self.conversations]
        events += [(p.made_at, "promise", f"{p.partner} / {p.place}") for p in self.promises
                   if self._today(p.made_at)]
        events += [(t.at, "gift", f"{t.direction} {t.partner}") for t in self.transfers]
        events += [(f.at, "failure", f.error) for f in self.failures]
        return sorted(events, key=lambda e: e[0])

    def _today(self, moment: datetime) -> bool:
        return moment.astimezone(ZONE).date() == self.date


def build(records: Records) -> Day:
    """The day the records tell, and nothing they do not."""
    entries = records.journal
    return Day(
        date=records.date,
        places=tuple(_visits(entries, records.place_names, records.state_now)),
        conversations=tuple(_conversations([e for e in entries if e.kind == LINE])),
        promises=tuple(_promise(row, records) for row in records.promises),
        transfers=tuple(_transfer(e) for e in entries if e.kind == TRANSFER),
        commands=dict(Counter(str(a.command) for a in records.activity if a.kind == "command")),
        failures=tuple(_failures(records.activity)),
        known_places=dict(records.place_names),
        rules_fired=tuple(_rules_fired(records.activity)),
        variables=tuple(_variables(records.activity)),
        learned=tuple(_learned(row) for row in records.learned),
        notifications=sum(1 for a in records.activity if a.kind == "request"),
    )


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _traced(activity: list[Activity]) -> Iterable[tuple[Activity, dict[str, Any]]]:
    """Each run's report entry with its rule trace (what `handle --explain` showed), oldest first."""
    for entry in activity:
        trace = entry.behaviour
        if entry.kind in ("report", "dry_run") and isinstance(trace, dict):
            yield entry, trace


def _rules_fired(activity: list[Activity]) -> Iterable[RuleFired]:
    """Every firing: the rule that decided each notification, with the command it was sent as (None: nothing
    was sent), and each pack rule that fired without deciding (a `set`, a `context`: `log`'s "also fired")."""
    sent = {a.notification_id: a.command for a in activity if a.kind == "command"}
    for entry, trace in _traced(activity):
        decided = str(trace["rule"]) if trace.get("rule") else None
        if decided:
            yield RuleFired(entry.created_at, decided, sent.get(entry.notification_id))
        for rule in trace.get("fired") or ():
            if isinstance(rule, str) and rule != decided:
                yield RuleFired(entry.created_at, rule, None)


def _variables(activity: list[Activity]) -> Iterable[VariableValue]:
    """Each variable's value after every change the engine applied or clamped (ignored ones changed nothing)."""
    for entry, trace in _traced(activity):
        for change in trace.get("changes") or ():
            if isinstance(change, dict) and change.get("status") in ("applied", "clamped"):
                yield VariableValue(entry.created_at, str(change.get("path") or ""), change.get("after"))


def _learned(row: dict[str, Any]) -> Learned:
    return Learned(_time(row["said_at"]), str(row.get("speaker_name") or ""), str(row.get("about_name") or ""),
                   str(row.get("kind") or ""), str(row.get("topic") or ""), str(row.get("source") or ""),
                   bool(row.get("withdrawn_at")))


def _visits(entries: Iterable[JournalEntry], names: dict[str, str], now: datetime | None) -> Iterable[Visit]:
    """Places in the order stood at, each with when the agent got there; a walk not over yet is left out."""
    last: str | None = None
    for entry in entries:
        if entry.kind not in (HERE, ARRIVAL):
            continue
        at = entry.at
        if entry.kind == ARRIVAL and now is not None and at > now:
            continue
        node = str(entry.data.get("node_id") or "")
        if not node or node == last:
            continue
        last = node
        yield Visit(node, str(entry.data.get("label") or names.get(node) or node), at)


def _conversations(lines: list[JournalEntry]) -> Iterable[Conversation]:
    """Lines grouped by conversation (its key), a long silence starting a new one; in order of their start."""
    talks: list[list[JournalEntry]] = []
    for entry in lines:
        talk = next((t for t in reversed(talks) if _same_talk(t, entry)), None)
        if talk is None:
            talk = []
            talks.append(talk)
        talk.append(entry)
    for talk in talks:
        partners: list[str] = []
        for entry in talk:
            partners += entry.texts("partners")
            if not entry.data.get("own"):
                partners.append(entry.text("speaker"))
        said = tuple(SaidLine(e.at, e.text("speaker"), e.text("text"), bool(e.data.get("own"))) for e in talk)
        yield Conversation(tuple(dict.fromkeys(p for p in partners if p)), said[0].at, said[-1].at, said)


def _same_talk(talk: list[JournalEntry], entry: JournalEntry) -> bool:
    """The line goes on this talk: not after a long silence, and in the same conversation.

    The same conversation is the same key, or, where one of the two is keyed
    by who is in it (a text that showed no conversation id), the same people.
    """
    last = talk[-1]
    if entry.at - last.at > CONVERSATION_GAP:
        return False
    key, other = entry.text("conversation"), last.text("conversation")
    if key == other:
        return True
    return (key.startswith("with:") or other.startswith("with:")) and bool(
        set(entry.texts("partners")) & set(last.texts("partners")))


def _promise(row: Meeting, records: Records) -> Promise:
    node = row.node_id
    place = row.place_name or (records.place_names.get(node) if node else None) or node or ""
    assert row.created_at is not None  # commitments_between reads when each promise was made
    return Promise(partner=row.partner_name, place=place, node_id=node, due_at=row.due_at, made_at=row.created_at,
                   status=_status(row, row.due_at, records), kept_at=row.fulfilled_at, text=row.source_text)


def _status(row: Meeting, due: datetime | None, records: Records) -> str:
    """What became of a promise as far as the state knows: kept, called off, missed, still open, or made for later."""
    if row.status == "fulfilled":
        return KEPT
    if row.id in records.withdrawn:
        return CANCELLED
    if any(entry.kind == HERE and promises.kept_by_being_there(row, entry.text("node_id"),
                                                         entry.text("label") or None, entry.at)
           for entry in records.journal):  # stood there through the time (a state from before this was kept)
        return KEPT
    if records.state_now is not None and promises.missed(due, records.state_now):
        return MISSED
    if due is not None and due >= records.end:
        return MADE
    return PENDING


def _transfer(entry: JournalEntry) -> Transfer:
    item, money = entry.data.get("item"), entry.data.get("money")
    return Transfer(entry.at, entry.text("direction"), entry.text("partner"), item if isinstance(item, dict) else None,
                    money if isinstance(money, int) else None)


def _failures(activity: Iterable[Activity]) -> Iterable[Failure]:
    """Runs that failed, from their report entries: the error code and the message (`code: message`)."""
    for entry in activity:
        if entry.kind == "report" and entry.success is False:
            code, _, message = str(entry.reason or "failed").partition(": ")
            yield Failure(entry.created_at, entry.notification_id, code, message)
