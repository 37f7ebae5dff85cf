"""The View: everything a decider may look at for one notification, already read from the store.

Built once per notification (memory/context.py `view_of`) from typed records;
deciders, the gate and the pack's rules read it and never the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Sequence

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.json_value import JsonValue
from karakuri_agent.domain.holdings import Holdings
from karakuri_agent.domain.identity import Identity
from karakuri_agent.domain.notification import Choice
from karakuri_agent.mind.persona import Persona
from karakuri_agent.domain.records import Activity, Meeting, Parsed, Person, Place, Refusal, Trip

if TYPE_CHECKING:
    from karakuri_agent.behaviour.engine import Turn


@dataclass(frozen=True)
class View:
    """Everything the policy may look at, already read from the store."""

    notification_id: str
    choices: Sequence[Choice]
    parsed: Parsed
    me: Identity
    now: datetime
    persona: Persona
    people: Sequence[Person] = ()  # the people the notification names, as met before (Remembered.people)
    pending: Sequence[Meeting] = ()  # promises not kept yet, soonest first (Remembered.pending)
    recent_commands: Sequence[Activity] = ()  # newest first
    knowledge_age: dict[str, timedelta] = field(default_factory=dict)
    places: Sequence[Place] = ()  # known places with visits / last_visited
    nearby_agents: Sequence[PersonRef] = ()
    # Conversations nearby it could join (their ids): a fresh `get_active_conversations` answer's
    active_talks: Sequence[str] = ()
    own_lines: Sequence[str] = ()  # the agent's lines in this conversation, newest first
    talk: Sequence[str] = ()  # this conversation's lines so far, both sides, oldest first (the journal)
    said_before: Sequence[str] = ()  # lines said to these partners this week: never said twice
    acquaintances: dict[str, Person] = field(default_factory=dict)  # agent id → person record
    meetings: Sequence[Meeting] = ()  # promises due soon, already gone to or not
    broken_promises: Sequence[Meeting] = ()  # promises past keeping and not kept (read with a pack only)
    trips: Sequence[Trip] = ()  # trips walked (from, to, minutes), newest last: how long walks take
    transfer_policy: str = "known"
    day_places: Sequence[str] = ()  # where notifications found it today (the journal), newest first
    day_people: Sequence[str] = ()  # whom it talked with today (the journal), newest first
    day_said: Sequence[str] = ()  # its own lines today, to anyone (the journal): none is said twice in a day
    # Gifts it took today (the journal), newest first: (from whom, item id or None for money, quantity or yen).
    day_received: Sequence[tuple[str, str | None, int]] = ()
    # Where a notification first found it after being elsewhere, and when ('HH:MM' in Tokyo), newest first.
    day_arrived: Sequence[tuple[str, str]] = ()
    day_actions: Sequence[str] = ()  # the actions it did today, by name ('厚切りトーストを食べる'), newest first
    # What the pack's behaviour remembers (variables, fire counts, cooldowns): the state's, as saved.
    behaviour_memory: dict[str, JsonValue] = field(default_factory=dict)
    text: str = ""  # the notification's text, as the server wrote it (what a `keyword` rule reads)
    # What each person the agent may talk to (by id) told about themselves, and town news (told.py's rows).
    told: dict[str, list[dict[str, JsonValue]]] = field(default_factory=dict)

    # Nodes NPCs stand on (never a destination), and the commands the world refused lately
    # (memory/lessons.py: command, params, place, error, at): neither is tried again.
    npc_nodes: frozenset[str] = frozenset()
    refused: Sequence[Refusal] = ()
    holdings: Holdings = Holdings()  # money and items, as far as known (domain/holdings.py)
    met: Sequence[str] = ()  # names of everyone the agent has talked with, latest first (read with a pack only)
    # This notification's turn of the pack's behaviour (None: the pack has none), begun once by the cycle
    # (decide/behaving.begun) and shared by the rules' selection, a model's prompt and schema, and the finish.
    turn: Turn | None = field(default=None, compare=False, repr=False)

    def choice(self, *commands: str) -> Choice | None:
        return next((c for c in self.choices if c.command in commands), None)
