"""The engine town's state: the agent's body, the residents, conversations, and the log the metrics read."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .lines import Persona


@dataclass
class Body:
    """The agent under test, as the engine holds it (types/agent.ts)."""

    node: str
    money: int
    items: dict[str, int]
    state: str = "idle"  # idle | moving | in_action | in_conversation
    pending_conversation: str | None = None
    conversation: str | None = None
    last_action_id: str | None = None
    last_rejected_action_id: str | None = None
    excluded_info: set[str] = field(default_factory=set)
    announcement: bool = False  # a server announcement is active: the agent may act even while busy
    pending_transfer: dict[str, Any] | None = None  # a standalone offer waiting for accept/reject


@dataclass
class Resident:
    agent_id: str
    persona: Persona
    node: str
    home: str
    money: int
    items: dict[str, int]
    state: str = "idle"  # idle | moving | in_action | in_conversation
    busy_until: datetime | None = None
    last_talk: datetime | None = None
    talked_days: set[str] = field(default_factory=set)
    said: set[str] = field(default_factory=set)
    alias: str | None = None  # a name of their own when the town gives them one (a namesake of another resident)

    @property
    def name(self) -> str:
        return self.alias or self.persona.name


@dataclass
class Conversation:
    conversation_id: str
    initiator: str
    participants: list[str]
    status: str = "pending"  # pending | active | closing
    closing_reason: str | None = None
    turn: int = 1
    speaker: str = ""  # whose turn it is
    history: list[tuple[str, str]] = field(default_factory=list)  # (speaker name, message)
    last_spoken: dict[str, int] = field(default_factory=dict)
    pending_offer: dict[str, Any] | None = None  # {"from", "to", "item", "money"} addressed to the next speaker
    outcome_note: str | None = None  # the settled transfer's line, shown once to the offerer
    inactive_check: bool = False
    plan: list[str] = field(default_factory=list)  # what the residents will do on their next turns
    left: set[str] = field(default_factory=set)  # who left this conversation (they do not come back)
    settled: str | None = None  # after_accept / after_reject: the offerer's next line reacts to the answer
    max_turns: int = 12


@dataclass
class Step:
    """One notification the town issued, and what the agent sent back for it."""

    index: int
    notification_id: str
    type: str
    kind: str  # idle | info | request | reply | turn | closing | inactive | fyi | transfer
    time: datetime
    node: str
    place: str
    choices: list[dict[str, Any]]
    body: dict[str, Any]
    discord: str
    conversation: str | None = None
    participants: list[str] = field(default_factory=list)  # the conversation's, when this was issued
    pending_offer: dict[str, Any] | None = None
    nearby_untalked: list[str] = field(default_factory=list)
    variant: dict[str, Any] = field(default_factory=dict)
    posts: list[dict[str, Any]] = field(default_factory=list)
    accepted: dict[str, Any] | None = None
    refusals: list[str] = field(default_factory=list)
    world_refusal: str | None = None  # an accepted action the world then refused (money, items)
    outside_choices: int = 0
    get_faults: list[int] = field(default_factory=list)  # what the first GETs answer instead (relay.py)
    post_fault: int | None = None  # what the first POST answers instead
    expired_on_delivery: bool = False  # the relay brought it after it expired

    @property
    def commands(self) -> set[str]:
        return {c["command"] for c in self.choices}

    @property
    def needs_answer(self) -> bool:
        return self.kind in ("request", "reply", "turn", "closing", "inactive")


@dataclass
class Delivery:
    """One Discord message for the agent, and the requests the town saw while the agent handled it."""

    index: int
    discord: str
    time: datetime
    form: str  # fresh | no_id | repeat | late | expired (relay.py)
    step: Step | None
    layout: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Event:
    """Something the world logged that the metrics count (a timeout, a transfer settled, a refusal)."""

    time: datetime
    kind: str
    data: dict[str, Any] = field(default_factory=dict)


class Refusal(Exception):
    """The engine's refusal of a command: its HTTP status, error code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
