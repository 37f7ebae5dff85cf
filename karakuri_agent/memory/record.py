"""Recording the outcome of a command: what the next turns should remember.

Runs after the answer, success or failure, in one transaction. Failures are
recorded too (the activity log is the history a person reads with `log`), but
only a success teaches memory, fulfils promises or counts as contact.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Iterable

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.commands import CONTACT as CONTACT_COMMANDS
from karakuri_agent.domain.commands import CONVERSATION as CONVERSATION_COMMANDS
from karakuri_agent.domain.commands import OPENING as OPENING_COMMANDS
from karakuri_agent.domain.identity import Identity
from karakuri_agent.domain.records import Node, Npc, Parsed, here_id
from karakuri_agent.ja import phrases
from karakuri_agent.ja.notification_text import ACTIVE_TALK, ENTRANCE, JOIN_CHOICE, PLACEHOLDER_ID
from karakuri_agent.memory import kept_holdings, journal, knowledge, lessons, promises
from karakuri_agent.memory.travel import learn_trip
from karakuri_agent.reading import offers, textparse
from karakuri_agent.state.base import Store
from karakuri_agent.state.values import utc_text

NODE_ID = re.compile(r"^\d+-\d+$")
# Node types (the map's) nobody walks onto.
NOT_A_PLACE = frozenset({"wall", "npc"})
MAX_KNOWLEDGE_ITEMS = 200


def conversation_key(parsed: Parsed, me: Identity) -> str:
    """Stable key for "this conversation": its id, or who is in it."""
    if parsed.conversation_id:
        return f"id:{parsed.conversation_id}"
    return "with:" + ",".join(sorted(partner_keys(parsed, me)))


def partner_keys(parsed: Parsed, me: Identity) -> set[str]:
    """How the conversation's other participants appear in conversation keys."""
    return {
        p.id or p.name
        for p in parsed.participants
        if not me.is_self(p.id, p.name)
    }


def said_to_partners(store: Store, partners: Iterable[str], since: datetime) -> list[str]:
    """The agent's lines since ``since`` in any talk keyed by who was in it
    that had one of ``partners`` (ids, else names) in it (a group talk counts
    for each of its members), newest first. A talk keyed by a server
    conversation id names no partners, so only its own lines (read by the
    caller) cover it."""
    partners = set(partners) - {""}
    return [
        line["message"]
        for line in store.utterances_since(since)
        if line["conversation_key"].startswith("with:")
        and partners & set(line["conversation_key"][len("with:"):].split(","))
    ]


def partners(parsed: Parsed, params: dict[str, Any], me: Identity) -> list[PersonRef]:
    """The other agents a command touched: a named target, else the conversation's others."""
    people = {p.id: p for p in parsed.participants if p.id}
    target = params.get("target_agent_id")
    if isinstance(target, (str, int)) and not isinstance(target, bool) and str(target):
        # A schema without a type allows any value; only a plain id names a person.
        return [people.get(str(target), PersonRef(str(target), ""))]
    if target:
        return []
    return [p for p in people.values() if not me.is_self(p.id, p.name)]


def record_outcome(
    store: Store,
    *,
    notification_id: str,
    parsed: Parsed,
    me: Identity,
    command: str,
    description: str,
    params: dict[str, Any],
    success: bool,
    result: dict[str, Any],
    reason: str,
    now: datetime,
) -> int:
    """Write everything the outcome teaches; returns the activity entry id."""
    message = str(result.get("message") or result.get("error") or "")
    with store.batch():
        activity_id = store.record_command(
            notification_id, parsed.notification_type, command, params, success, message, result, reason
        )
        if not success:
            code = lessons.refusal_code(result)
            if code is not None:
                lessons.learn_refusal(store, command=command, params=params, place=here_id(parsed),
                                      code=code, now=now)
            return activity_id
        store.add_memory(notification_id, "action", _thought(command, description, params, reason))
        touched = partners(parsed, params, me) if command in CONTACT_COMMANDS else []
        for person in touched:
            if agent_id := person.id:
                store.touch_person(agent_id, person.name)
        if isinstance(params.get("message"), str) and command in CONVERSATION_COMMANDS:
            store.add_utterance(conversation_key(parsed, me), params["message"], opens=command in OPENING_COMMANDS)
        _fulfil(store, command, params, parsed, touched, now)
        learn_trip(store, command, params, result, parsed, now)
        kept_holdings.after_command(store, command, params, parsed)
        journal.acted(store, notification_id=notification_id, parsed=parsed, me=me,
                      conversation=conversation_key(parsed, me), command=command, params=params, result=result,
                      now=now)
        if isinstance(result.get("data"), (dict, list)):
            _learn(store, command, result["data"], now)
    return activity_id


def _thought(command: str, description: str, params: dict[str, Any], reason: str) -> str:
    what = description or command
    said = params.get("message")
    line = phrases.did(what)
    if isinstance(said, str) and said:
        line += phrases.said(said[:60])
    return line + (phrases.because(reason) if reason else "")


def _fulfil(store: Store, command: str, params: dict[str, Any], parsed: Parsed,
            touched: Iterable[PersonRef], now: datetime) -> None:
    """A move to the promised place, or talking with the partner at that place, keeps a promise."""
    if command == "move":
        node = params.get("target_node_id")
        if not isinstance(node, str):  # a schema without a type allows a list or an object: no place to keep
            return
        store.visit_place(node)
        promises.keep_by_going(store, node, now)
    elif command in CONVERSATION_COMMANDS:
        promises.keep_by_talking(store, parsed, {str(p.id) for p in touched if p.id}, now)


def _learn(store: Store, command: str, data: Any, now: datetime) -> None:
    """Keep what an information command taught: places, agents, the raw answer."""
    store.learn_places(places_in(data)[:MAX_KNOWLEDGE_ITEMS])
    lessons.learn_npcs(store, npcs_in(data)[:MAX_KNOWLEDGE_ITEMS])
    store.see_people(agents_in(data)[:MAX_KNOWLEDGE_ITEMS])
    store.set_knowledge(knowledge.result_key(command), data)
    kept_holdings.learn_from_answer(store, data, utc_text(now))


def places_in(data: Any) -> list[Node]:
    """Node ids with names anywhere in an answer: `{node_id, name}` objects or place texts."""
    places: list[Node] = []
    for item in _walk(data):
        if isinstance(item, str):
            places.extend(textparse.parse_places(item))
            continue
        if "agent_id" in item or "npc_id" in item or str(item.get("type") or "") in NOT_A_PLACE:
            continue  # an agent's or an NPC's position names someone, not a place; a wall is no place either
        node = item.get("node_id") or item.get("id")
        name = item.get("name") or item.get("label")
        doors = item.get("door_nodes")
        if isinstance(doors, list) and isinstance(name, str):  # a building of the map (newer API): its entrances
            places.extend({"node_id": str(d), "name": f"{name} {ENTRANCE}", "from_building": True}
                          for d in doors if NODE_ID.match(str(d)))
            continue
        if node is not None and NODE_ID.match(str(node)) and isinstance(name, str):
            places.append({"node_id": str(node), "name": name})
    return places


def npcs_in(data: Any) -> list[Npc]:
    """NPCs in an information answer: `{npc_id, name, node_id}` objects, NPC nodes, or the lists of a text."""
    found: list[Npc] = []
    for item in _walk(data):
        if isinstance(item, str):
            found += offers.parse_npcs(item)
        elif item.get("npc_id") is not None and item.get("node_id") is not None:
            found.append({"name": str(item.get("name") or ""), "node_id": str(item["node_id"])})
        elif str(item.get("type") or "") == "npc" and item.get("node_id") is not None:
            found.append({"name": str(item.get("label") or ""), "node_id": str(item["node_id"])})
    return found


def conversations_in(data: Any) -> list[str]:
    """The ids of conversations one could join, anywhere in an answer: `conversation_id` fields, a
    `conversations` list of ids, or the engine's text (`- conv-1: 名前 (id)、…`)."""
    found: list[str] = []
    for item in _walk(data):
        if isinstance(item, str):
            found.extend(parse_active_conversations(item))
            continue
        talks = item.get("conversations")
        if isinstance(talks, list):
            found.extend(str(t) for t in talks if isinstance(t, (str, int)))
        if isinstance(item.get("conversation_id"), str):
            found.append(item["conversation_id"])
    return list(dict.fromkeys(found))


def parse_active_conversations(text: str) -> list[str]:
    """Ids of conversations the text offers to join: `get_active_conversations`' lines, and join
    choices that name theirs (not the placeholder `ID`)."""
    found: list[str] = []
    for line in text.splitlines():
        for pattern in (ACTIVE_TALK, JOIN_CHOICE):
            match = pattern.search(line)
            if match and match.group("id") != PLACEHOLDER_ID:
                found.append(match.group("id"))
    return list(dict.fromkeys(found))


def agents_in(data: Any) -> list[PersonRef]:
    """Agents (numeric ids with names) anywhere in an answer."""
    agents: list[PersonRef] = []
    for item in _walk(data):
        if not isinstance(item, dict):
            continue
        agent = item.get("agent_id") or item.get("id")
        name = item.get("name") or item.get("display_name")
        if agent is not None and str(agent).isdigit() and isinstance(name, str):
            agents.append(PersonRef(str(agent), name))
    return agents


def _walk(data: Any, depth: int = 0) -> Iterable[Any]:
    """Every dict and string inside an answer, bounded in depth and count."""
    stack, seen = [(data, 0)], 0
    while stack and seen < 5000:
        item, level = stack.pop()
        seen += 1
        if isinstance(item, dict):
            yield item
            if level < 6:
                stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list) and level < 6:
            stack.extend((v, level + 1) for v in item)
        elif isinstance(item, str) and len(item) < 20_000:
            yield item
