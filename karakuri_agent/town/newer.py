"""The newer API generation: the town's notification as `schema_version` 1 writes it (docs/contract.md).

`kind` for the event, `summary` for the headline, `payload` for what the
event carries (the conversation, the line said), `perception` for where the
agent stands and what is near, choices with a `label`; no text at all, times
in milliseconds, a 30-minute life and `stale`. Built from the same state the
older texts are, so a seed's town is one town in either generation.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Protocol

from .entities import Body, Conversation, Resident
from .world import World, distance


class Town(Protocol):
    """What of the town (core.TownCore) a notification of this generation is built from."""

    world: World
    body: Body
    reach: int
    weather: str

    def near(self, node: str, reach: int = 1) -> list[Resident]: ...

    def name_of(self, agent_id: str) -> str: ...


LIFE = timedelta(minutes=30)
# The older type → the newer kind, where the name changed; the follow-up of an info command is `info_choices`.
KINDS = {
    "conversation_requested": "conversation_request",
    "conversation_message": "conversation_reply",
    "conversation_turn_started": "conversation_turn",
    "idle_reminder_fired": "idle_reminder",
    "server_announcement_fired": "server_announcement",
    "transfer_requested": "transfer_request",
}


def kind_of(type_: str, step_kind: str) -> str:
    if type_.endswith("_requested") and type_ not in KINDS or type_ in ("perception_requested",):
        return "info_choices"
    if step_kind == "fyi":
        return "conversation_fyi"
    return KINDS.get(type_, type_)


def payload(town: Town, type_: str, conversation: Conversation | None, pending_offer: bool) -> dict[str, Any]:
    if conversation is None:
        return {}
    out: dict[str, Any] = {"conversation_id": conversation.conversation_id, "turn": conversation.turn,
                           "participants": [{"id": p, "name": town.name_of(p)} for p in conversation.participants]}
    if pending_offer:  # an offer made to the agent in the talk, answered by this turn's transfer_response
        out["has_pending_transfer"] = True
    if conversation.history:
        speaker, message = conversation.history[-1]
        if type_ == "conversation_requested":
            out.update(initiator_name=speaker, message=message)
        elif type_ == "conversation_message":
            out.update(speaker_name=speaker, message=message)
    return out


def perception(town: Town) -> dict[str, Any]:
    """Where the agent stands and what is near, as the newer API lists it (its reach, as the older text's)."""
    world, node = town.world, town.body.node
    visible = set(world.map.in_range(node, town.reach))
    groups: dict[str, list[str]] = {}
    for near in sorted(visible):
        label = world.map.labels.get(near) if world.map.passable(near) else None
        if label and near != node:
            groups.setdefault(label, []).append(near)
    buildings = sorted((b for b in world.map.buildings if any(n in visible for n in b.walls + b.interior + b.doors)),
                       key=lambda b: b.building_id)
    people = sorted(town.near(node, town.reach), key=lambda r: r.agent_id)
    here = world.map.place_of(node)
    return {
        "current_world_id": "main",
        "current_node": {"node_id": node, **({"label": here} if here else {})},
        "weather": {"condition": town.weather.split()[0]},
        "nearby_nodes": [{"label": label, "node_ids": ids, "min_distance": min(distance(node, n) for n in ids)}
                         for label, ids in groups.items()],
        "nearby_buildings": [{"building_id": b.building_id, "name": b.name, "door_nodes": list(b.doors)}
                             for b in buildings],
        "nearby_npcs": [{"npc_id": n.npc_id, "name": n.name, "node_id": n.node} for n in world.map.npcs
                        if n.node in visible],
        "nearby_agents": [{"agent_id": r.agent_id, "agent_name": r.name, "node_id": r.node} for r in people],
        "money": town.body.money,
        "item_count": sum(town.body.items.values()),
    }


def choices(offered: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The choices with a `label` where the older ones have a `description`."""
    out = []
    for choice in offered:
        choice = dict(choice)
        if "description" in choice:
            choice["label"] = choice.pop("description")
        out.append(choice)
    return out


def body(town: Town, notification_id: str, created: datetime, type_: str, step_kind: str, summary: str,
         offered: list[dict[str, Any]], conversation: Conversation | None, pending_offer: bool) -> dict[str, Any]:
    """The GET answer of the newer generation."""
    def ms(moment: datetime) -> int:
        return int(moment.timestamp() * 1000)

    notification = {"schema_version": 1, "kind": kind_of(type_, step_kind), "summary": summary,
                    "payload": payload(town, type_, conversation, pending_offer), "perception": perception(town),
                    "choices": choices(offered)}
    return {"ok": True, "notification_id": notification_id, "created_at": ms(created),
            "expires_at": ms(created + LIFE), "stale": False, "notification": notification}
