"""The newer API's `perception` object: where the agent is and what is near, read as the text readers' records.

Every field is optional and may be anything (docs/contract.md, "Two
generations"): `current_node` `{node_id, label?, location_label?}`,
`nearby_nodes` `[{label, node_ids}]`, `nearby_buildings` `[{name,
door_nodes}]`, `nearby_npcs` `[{name, node_id}]`, `nearby_agents`
`[{agent_id, agent_name, node_id}]`, `weather` `{condition,
temperature_celsius?}` (the sky is read). What is missing or malformed is simply not there:
memory/context.parse then reads the text for it.
"""

from __future__ import annotations

from typing import Any

from karakuri_agent.domain.nodes import coords, distance
from karakuri_agent.domain.records import Node, Npc
from karakuri_agent.ja.place_words import DOORWAYS

MAX_ENTRIES = 200
TALKING_REACH = 1  # the engine starts a talk with someone on the next node at most (out_of_range beyond)  # a perception lists what is near: more is no perception of this world's


def _entries(perception: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = perception.get(key)
    return [e for e in value[:MAX_ENTRIES] if isinstance(e, dict)] if isinstance(value, list) else []


def _name(value: Any) -> str:
    return value.strip()[:80] if isinstance(value, str) else ""


def _node_id(value: Any) -> str:
    return value if isinstance(value, str) and coords(value) is not None else ""


def current_node(perception: dict[str, Any]) -> Node | None:
    """Where the agent stands: its node and the name the world gives it (location_label, else label)."""
    here = perception.get("current_node")
    if not isinstance(here, dict) or not _node_id(here.get("node_id")):
        return None
    return {"node_id": here["node_id"], "name": _name(here.get("location_label")) or _name(here.get("label")) or None}


def places(perception: dict[str, Any]) -> list[Node]:
    """Named nodes near: each labelled group's nodes, each building's doors (`神社 入口`, made from the
    building's name as the map's are, so a node's own label outranks it)."""
    found: dict[str, Node] = {}
    for group in _entries(perception, "nearby_nodes"):
        label = _name(group.get("label"))
        ids = group.get("node_ids")
        for node in ids if isinstance(ids, list) and label else []:
            if _node_id(node):
                found.setdefault(node, {"node_id": node, "name": label})
    for building in _entries(perception, "nearby_buildings"):
        name = _name(building.get("name"))
        doors = building.get("door_nodes")
        for node in doors if isinstance(doors, list) and name else []:
            if _node_id(node) and node not in found:
                found[node] = {"node_id": node, "name": f"{name} {DOORWAYS[0]}", "from_building": True}
    return list(found.values())


def npcs(perception: dict[str, Any]) -> list[Npc] | None:
    """The NPCs near and their nodes; None when the perception does not say."""
    if not isinstance(perception.get("nearby_npcs"), list):
        return None
    return [{"name": _name(n.get("name")), "node_id": n["node_id"]} for n in _entries(perception, "nearby_npcs")
            if _name(n.get("name")) and _node_id(n.get("node_id"))]


def agents(perception: dict[str, Any]) -> list[dict[str, str]] | None:
    """The agents within talking reach, `[{"id", "name"}]` as the nearby-agents answer lists them: those the
    perception places on the agent's node or next to it (a talk is started with someone beside one); an
    agent at no node is taken as near. None when the perception lists nobody or says not where it stands."""
    here = current_node(perception)
    if not isinstance(perception.get("nearby_agents"), list) or here is None:
        return None
    near = []
    for agent in _entries(perception, "nearby_agents"):
        agent_id, name = agent.get("agent_id"), _name(agent.get("agent_name"))
        steps = distance(here["node_id"], agent["node_id"]) if _node_id(agent.get("node_id")) else None
        if isinstance(agent_id, (str, int)) and not isinstance(agent_id, bool) and str(agent_id) and name \
                and (steps is None or steps <= TALKING_REACH):
            near.append({"id": str(agent_id), "name": name})
    return near


def people_in_sight(perception: dict[str, Any]) -> int | None:
    """How many agents the perception lists near (as `近くのエージェント: 2 人` counts them); None: it does not say."""
    listed = perception.get("nearby_agents")
    return len(_entries(perception, "nearby_agents")) if isinstance(listed, list) else None


def weather(perception: dict[str, Any]) -> str | None:
    """The sky (`weather.condition`, as `天気: くもり 18℃` gives `くもり`); None when it does not say."""
    sky = perception.get("weather")
    return (_name(sky.get("condition")) or None) if isinstance(sky, dict) else None
