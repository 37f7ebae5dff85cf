"""What a notification's text tells about the agent's surroundings, kept, and read back for the View.

One step each way, so the context's observe and view stay short: the NPCs
and the refusals (lessons.py), the money and items (kept_holdings.py), and the
people the agent may speak to when the text lists them (the nearby-agents
answer comes as the next notification's text, `conversation_candidates:`; the
newer API's perception lists them as `nearby_agents`): they are kept as that
command's answer, where the View reads who is near.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypedDict

from karakuri_agent.domain.holdings import Holdings
from karakuri_agent.domain.records import Parsed, Refusal
from karakuri_agent.memory import kept_holdings, knowledge, lessons
from karakuri_agent.reading import offers, perception
from karakuri_agent.state.base import Store
from karakuri_agent.state.values import utc_text

NEARBY_COMMAND = "get_nearby_agents"


def learn(store: Store, parsed: Parsed, text: str, *, seen_at: datetime, now: datetime,
          parsed_perception: dict[str, Any] | None = None) -> None:
    """Everything about the surroundings this text (and the newer API's perception: whom it lists near)
    states (idempotent: the same text teaches nothing new)."""
    lessons.learn_from_text(store, parsed, text, now)
    kept_holdings.learn_from_text(store, text, utc_text(seen_at))
    if parsed_perception:  # the newer API's perception says the money held (`money`)
        kept_holdings.learn_from_answer(store, parsed_perception, utc_text(seen_at))
    near = perception.agents(parsed_perception or {})
    people = near if near is not None else offers.parse_candidates(text)
    if people is not None:
        store.set_knowledge(knowledge.result_key(NEARBY_COMMAND), people)


class Seen(TypedDict):
    """The View's fields for the surroundings (`seen`)."""

    npc_nodes: frozenset[str]
    refused: list[Refusal]
    holdings: Holdings


def seen(store: Store, now: datetime) -> Seen:
    """The View's fields for the surroundings: NPC nodes, the refusals still holding, what is held."""
    return {"npc_nodes": frozenset(lessons.npc_nodes(store)), "refused": lessons.refusals(store, now),
            "holdings": kept_holdings.held(store)}
