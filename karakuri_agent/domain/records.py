"""The records that travel through the middle of the pipeline, each read once where it comes in.

What a notification says is a frozen `Parsed` (people as `PersonRef`,
lines as `Line`); what the store remembers comes back as frozen records
(`Person`, `Place`, `Meeting`, `Activity`, `JournalEntry`) with their times
already parsed at the row (state/sql_store.py). The shapes the readers
give inside them (`Offer`, `Npc`, `Transfer`, a location's `Node`) are
TypedDicts: JSON-like, rendered into the wrapper's context as they are.
Nothing here is `Any`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, NotRequired, TypedDict

from karakuri_agent.domain.json_value import JsonValue
from karakuri_agent.domain.identity import PersonRef


@dataclass(frozen=True)
class Line:
    """One conversation line: who said it (the id when known) and what."""

    speaker: str
    message: str
    speaker_id: str | None = None

    @property
    def person(self) -> PersonRef:
        return PersonRef(self.speaker_id, self.speaker)


class Node(TypedDict):
    """A place as a text names it: `6-11 (喫茶店 店内)` or `7-11(喫茶店 入口)`; `from_building` when the name
    is not the node's own label but a building's (the map's list, `神社 [入口: 3-3]` → `神社 入口`; a
    building entry, `銭湯「松の湯」 [11-5]`): it never replaces a label, or the name would flip between
    texts and one building would look like two places."""

    node_id: str
    name: str | None
    from_building: NotRequired[bool]


class Location(TypedDict):
    """Where and when the notification finds the agent, as its text says."""

    current_node: Node | None
    clock: str | None  # ISO text
    nearby_agent_count: int | None
    weather: NotRequired[str | None]  # the sky of `天気: くもり 18℃` (くもり), None when the text does not say


class Need(TypedDict):
    """An item an action needs: `必要: 小麦粉 x2`."""

    item: str
    quantity: int


class Offer(TypedDict):
    """An action the text's `選択肢:` block offers (reading/offers.py), with what it costs and takes."""

    action_id: str
    name: str
    source: str | None  # the building or NPC whose action it is
    cost: int | None  # yen; None: free
    reward: int | None
    needs: list[Need]
    minutes: float | None  # how long (the longest when the agent chooses)
    min_minutes: int | None  # the range of `duration_minutes`; None: a fixed length
    max_minutes: int | None


class Npc(TypedDict):
    """An NPC and the node it stands on: never a destination."""

    name: str
    node_id: str


class Given(TypedDict):
    """The item of a transfer: `tea×2`."""

    item_id: str
    quantity: int
    name: NotRequired[str]  # when the world names it


# An item or money transfer the server reports (reading/textparse.parse_transfers): `from` and `to`,
# `item` / `money` / `status` (offered, accepted, rejected, ...), `reason` when refused, and
# `response_required` / `in_conversation` when the agent must answer.
Transfer = TypedDict("Transfer", {
    "from": PersonRef, "to": PersonRef, "item": "Given | None", "money": "int | None",
    "status": str, "reason": str, "response_required": bool, "in_conversation": bool}, total=False)


# A walk the agent took and how long it lasted (memory/travel.py): how long before a meeting to set off.
Trip = TypedDict("Trip", {"from": "str | None", "to": "str | None", "minutes": float})


class Refusal(TypedDict):
    """A command the world refused (memory/lessons.py): not tried again with these params at this place."""

    command: str
    params: str  # lessons.params_key of the params
    place: str | None
    error: str
    at: str  # when, as ISO text (kept in the knowledge table's JSON)


def _nowhere() -> Location:
    return {"current_node": None, "clock": None, "nearby_agent_count": None}


@dataclass(frozen=True)
class Parsed:
    """What one notification says, read once: the JSON fields first, the text's patterns when absent.

    The readers fill it (memory/context.parse); the View and the steps read
    its fields; memory/context.render_context lays it out, with the offered
    choices and the agent's own name (which the notification and the identity
    hold, not this), as the `parsed` block of the wrapper's
    `nikechan_preprocess`. Every field has an empty default, so a test or a
    benchmark names only what it needs.
    """

    notification_id: str = ""
    notification_type: str = ""
    conversation_id: str | None = None
    participants: list[PersonRef] = field(default_factory=list)  # everyone named (what memory keys a talk by)
    # Who is in the conversation now (the next speaker is one of them); None: not read, the participants stand in.
    present: list[PersonRef] | None = None
    # The server listed them (the JSON's, or the text's `参加者` line): who is in the conversation now.
    # Else they are the people the text names, those it says left excepted.
    participants_listed: bool = False
    departed: list[PersonRef] = field(default_factory=list)  # those the text says left: never named next
    conversation_messages: list[Line] = field(default_factory=list)
    next_speakers: list[PersonRef] = field(default_factory=list)
    location: Location = field(default_factory=_nowhere)
    places: list[Node] = field(default_factory=list)
    actions: list[Offer] = field(default_factory=list)
    npcs: list[Npc] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)

    def named(self) -> list[PersonRef]:
        """Everyone the notification names: its participants, then the speakers of its lines, in order."""
        return [*self.participants, *(line.person for line in self.conversation_messages)]


@dataclass(frozen=True)
class Person:
    """Someone the agent has seen, as the store remembers them (an acquaintance once they have talked)."""

    agent_id: str
    display_name: str
    nickname: str | None = None
    interactions: int = 0  # conversations had (the wire context's relationship label is said from it)
    last_contact: datetime | None = None

    @property
    def ref(self) -> PersonRef:
        return PersonRef(self.agent_id, self.display_name)


@dataclass(frozen=True)
class Place:
    """A node the agent knows by name, and how often it has been there."""

    node_id: str
    name: str
    visits: int = 0
    last_visited: datetime | None = None

    @property
    def node(self) -> Node:
        """The place as a text names one, for the readers that match names to nodes."""
        return {"node_id": self.node_id, "name": self.name}


MeetingStatus = Literal["pending", "fulfilled", "withdrawn"]


@dataclass(frozen=True)
class Meeting:
    """A promise to be somewhere at a time (a row of `commitments`), its times read once from the row.

    Who it is with is `partner`; `due_at` is None when no time was said.
    `created_at` and `fulfilled_at` are read by `day` only (the store fills
    them on `commitments_between` and `kept_since`).
    """

    partner_name: str
    partner_id: str | None = None
    place_name: str | None = None
    node_id: str | None = None
    due_at: datetime | None = None
    source_text: str = ""
    status: MeetingStatus = "pending"
    id: int = 0
    notification_id: str = ""
    created_at: datetime | None = None
    fulfilled_at: datetime | None = None

    @property
    def partner(self) -> PersonRef:
        return PersonRef(self.partner_id or None, self.partner_name)


@dataclass(frozen=True)
class JournalEntry:
    """One fact of the agent's day (the `journal` table): where it stood, a line said, a gift.

    `kind` says what `data` holds (day/read.py and journal.py name the kinds).
    """

    at: datetime
    notification_id: str
    kind: str
    data: dict[str, JsonValue]

    def text(self, key: str) -> str:
        """A text field of `data` ("" when absent)."""
        value = self.data.get(key)
        return "" if value is None else str(value)

    def texts(self, key: str) -> list[str]:
        """A list field of `data` (a line's `partners`), as texts; [] when absent."""
        value = self.data.get(key)
        return [str(v) for v in value] if isinstance(value, list) else []


@dataclass(frozen=True)
class Recall:
    """A fact to bring up to `listener` (an agent id), the line that does, and where it came from
    (memory/recall.py chooses it; a decision carries it, to mark it mentioned once said)."""

    fact_key: str
    listener: str
    line: str
    source: str
    speaker: str
    said_at: str


@dataclass(frozen=True)
class Activity:
    """One entry of the activity log, its JSON read and its time parsed once by the store.

    `kind` is request / command / report / dry_run; commands carry command,
    params and success. A report entry (`recent_activity`, `activity_between`)
    may carry the model's trace and the rules' trace (`behaviour`: which rule
    fired, each variable change).
    """

    id: int
    created_at: datetime
    notification_id: str
    kind: str
    notification_type: str | None = None
    command: str | None = None
    params: dict[str, JsonValue] | None = None
    success: bool | None = None
    message: str | None = None
    reason: str | None = None
    model: dict[str, JsonValue] | None = None
    behaviour: dict[str, JsonValue] | None = None

    def param(self, name: str) -> str | None:
        """One of the command's id params (`target_node_id`, `action_id`) as text (None: not given)."""
        value = (self.params or {}).get(name)
        return None if value is None else str(value)


def has_talked(person: Person | None) -> bool:
    """Whether the agent has talked with this remembered person (the one "have we met")."""
    return person is not None and person.interactions > 0


def here_of(parsed: Parsed) -> Node | None:
    """Where the notification finds the agent (None when its text does not say): one spelling for every reader."""
    return parsed.location.get("current_node")


def here_id(parsed: Parsed) -> str | None:
    node = here_of(parsed)
    return str(node["node_id"]) if node and node.get("node_id") else None


def here_name(parsed: Parsed) -> str | None:
    node = here_of(parsed)
    return node.get("name") if node else None
