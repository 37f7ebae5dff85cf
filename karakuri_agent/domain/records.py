"""The records that travel through the middle of the pipeline, typed.

The store hands the context and the deciders plain dicts (rows); these
TypedDicts name their fields, so a reader of `policy.View` or of the
`Store` protocol sees what a person, a place or a meeting carries, and a
type checker catches a misspelt key. They cost nothing at run time: a row
is still a dict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

from karakuri_agent.domain.identity import PersonRef


class Participant(TypedDict):
    """Someone named in a notification: `名前 (id: 123)` or the JSON `participants` (the id when known)."""

    id: str | None
    name: str


class Line(TypedDict, total=False):
    """One conversation line: who said it (id when known) and what."""

    speaker: str
    speaker_id: str | None
    message: str


class Node(TypedDict):
    """A place as a text names it: `6-11 (喫茶店 店内)` or `7-11(喫茶店 入口)`."""

    node_id: str
    name: str | None


class Location(TypedDict):
    """Where and when the notification finds the agent, as its text says."""

    current_node: Node | None
    clock: str | None  # ISO text
    nearby_agent_count: int | None
    weather: NotRequired[str | None]  # the sky of `天気: くもり 18℃` (くもり), None when the text does not say


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
    participants: list[Participant] = field(default_factory=list)  # everyone named (what memory keys a talk by)
    # Who is in the conversation now (the next speaker is one of them); None: not read, the participants stand in.
    present: list[Participant] | None = None
    # The server listed them (the JSON's, or the text's `参加者` line): who is in the conversation now.
    # Else they are the people the text names, those it says left excepted.
    participants_listed: bool = False
    departed: list[Participant] = field(default_factory=list)  # those the text says left: never named next
    conversation_messages: list[Line] = field(default_factory=list)
    next_speakers: list[dict[str, Any]] = field(default_factory=list)
    location: Location = field(default_factory=_nowhere)
    places: list[Node] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)  # reading/offers.py: id, name, source, cost, reward, needs, minutes
    npcs: list[dict[str, str]] = field(default_factory=list)  # NPCs and the nodes they stand on: never a destination
    transfers: list[dict[str, Any]] = field(default_factory=list)

    def named(self) -> list[PersonRef]:
        """Everyone the notification names: its participants, then the speakers of its lines, in order."""
        return [*map(PersonRef.of, self.participants), *map(PersonRef.of, self.conversation_messages)]


class Person(TypedDict):
    """Someone the agent has met, as the store remembers them."""

    agent_id: str
    display_name: str
    nickname: str | None
    interactions: int  # conversations had (the wire context's relationship label is said from it)
    last_contact: str | None  # ISO text in UTC


class Place(TypedDict):
    """A node the agent knows by name, and how often it has been there."""

    node_id: str
    name: str
    visits: int
    last_visited: str | None


class Meeting(TypedDict, total=False):
    """A promise to be somewhere at a time (a row of `commitments`)."""

    id: int
    notification_id: str
    partner_id: str | None
    partner_name: str
    place_name: str | None
    node_id: str | None
    due_at: str | None  # ISO text in UTC; None: no time was said
    source_text: str
    status: str  # pending / fulfilled (meetings() and commitments_between() only)
    created_at: str  # commitments_between() only: when the promise was heard (UTC ISO text)
    fulfilled_at: str | None  # commitments_between() only: when it was kept


class JournalEntry(TypedDict):
    """One fact of the agent's day (the `journal` table): where it stood, a line said, a gift.

    `kind` says what `data` holds (day/read.py and journal.py name the kinds);
    `at` is UTC ISO text, as every stored time.
    """

    at: str
    notification_id: str
    kind: str
    data: dict[str, Any]


class Activity(TypedDict, total=False):
    """One entry of the activity log; commands carry command, params and success."""

    id: int
    created_at: str
    notification_id: str
    kind: str  # request / command / report / dry_run
    notification_type: str
    command: str
    params: dict[str, Any]
    success: bool
    message: str
    reason: str
    model: dict[str, Any]


def has_talked(person: Person | None) -> bool:
    """Whether the agent has talked with this remembered person (the one "have we met")."""
    return person is not None and int(person.get("interactions") or 0) > 0


def here_of(parsed: Parsed) -> Node | None:
    """Where the notification finds the agent (None when its text does not say): one spelling for every reader."""
    return parsed.location.get("current_node")


def here_id(parsed: Parsed) -> str | None:
    node = here_of(parsed)
    return str(node["node_id"]) if node and node.get("node_id") else None


def here_name(parsed: Parsed) -> str | None:
    node = here_of(parsed)
    return node.get("name") if node else None
