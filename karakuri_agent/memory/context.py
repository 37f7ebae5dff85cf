"""The decision context (`nikechan_preprocess`): a notification plus what the agent remembers.

Two steps, kept apart on purpose:
- `observe()` writes what a fetch teaches (the stored copy, the one request
  entry, people's names and ids, place names, promises). It is idempotent, so
  fetching the same notification twice changes nothing the second time.
- `remember()` only reads what the store adds (every list bounded), as a
  typed `Remembered`; `render_context()` alone lays a fetched notification
  out as the `nikechan_preprocess` block the production pre-processor gives
  an LLM runtime.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from karakuri_agent.domain.commands import INFORMATION
from karakuri_agent.domain.identity import Identity, PersonRef
from karakuri_agent.domain.limits import (
    ACTIVITY_LIMIT,
    MAX_CONFIGURED_FILE_BYTES,
    MEMORY_DAYS,
    MEMORY_LIMIT,
    RECENT_COMMANDS,
)
from karakuri_agent.domain.notification import Notification, NotificationBody
from karakuri_agent.domain.records import Line, Meeting, Parsed, Transfer, has_talked
from karakuri_agent.ja.context_labels import (
    DECISION_GUIDANCE,
    SELF_HEADER,
)
from karakuri_agent.ja.phrases import relationship
from karakuri_agent.memory import journal, knowledge, promises, recall, surroundings
from karakuri_agent.memory.journal import (
    LINE_REPEAT_AFTER,  # when the same words are said anew (the day's lines use it too)
)
from karakuri_agent.memory.record import agents_in, conversation_key, conversations_in
from karakuri_agent.memory.record import partner_keys, said_to_partners
from karakuri_agent.memory.travel import trips
from karakuri_agent.outside import loads, read_regular_file
from karakuri_agent.reading import conversation_turns, offers, perception, textparse
from karakuri_agent.reading.promise_lines import line_key
from karakuri_agent.state.base import Store
from karakuri_agent.state.values import stored_row, utc_text

# Facts read per person the agent may talk to: the newest, enough to find one to bring up.
TOLD_PER_PERSON = 12

if TYPE_CHECKING:
    from karakuri_agent.domain.fetched import Fetched, Remembered
    from karakuri_agent.mind.persona import Persona
    from karakuri_agent.mind.view import View

# People walk around: who was near ten minutes ago may be gone.
NEARBY_FRESH = timedelta(minutes=10)
# Own lines further apart than this belong to different conversations.
CONVERSATION_GAP = timedelta(minutes=30)
# The partner's line a talk opened with comes at most this long before the agent's first line of it (the same run
# reads one and says the other); a talk just before with the same partner is not this one.
TALK_OPENER = timedelta(seconds=5)
# The agent's own recent lines to the same partners: none of them is said again.
SAID_BEFORE_LINES = 30
# A line is not said again to the same person within this span (a week of town life).
SAID_BEFORE_SPAN = timedelta(days=7)
# Building names (本屋「栞」 [7-6]) are kept under this knowledge key, at most this many.
MAX_BUILDINGS = 200
# Who was in each conversation the server gave an id to (the newest this many talks).
MAX_TALKS_REMEMBERED = 200
WORLD_CONTEXT_KEYS = ("status", "summary", "recent_events", "relationships", "updated_at")


def identity_for(notification: Notification, agent_id: str, name: str) -> Identity:
    """Configured identity, with the name read from the text's header when not configured."""
    if not name:
        match = SELF_HEADER.search(notification.notification.text)
        name = match.group("name") if match else ""
    return Identity(agent_id=agent_id, name=name)


class StoredNames:
    """Name → id from the store, looked up only for the names a text mentions."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._seen: dict[str, str | None] = {}

    def get(self, name: str, /) -> str | None:
        if name not in self._seen:
            self._seen[name] = self._store.person_id(name)
        return self._seen[name]


class _KnowingSelf:
    """A roster that also knows the agent: its configured id for its own name, which no store holds."""

    def __init__(self, roster: textparse.NameLookup, me: Identity) -> None:
        self._roster = roster
        self._me = me

    def get(self, name: str, /) -> str | None:
        if self._me.agent_id and name == self._me.name:
            return self._me.agent_id
        return self._roster.get(name)


def parse(notification: Notification, *, roster: textparse.NameLookup, me: Identity) -> Parsed:
    """What the notification says (domain/records.Parsed): JSON fields first, the text's patterns when absent."""
    roster = _KnowingSelf(roster, me)
    body = notification.notification
    text = body.text
    listed = body.participants
    participants = listed if listed is not None else textparse.parse_participants(text, roster)
    if body.conversation_messages is not None:
        ids = {p.name: p.id for p in participants if p.id}
        messages = [replace(m, speaker_id=m.speaker_id or ids.get(m.speaker) or roster.get(m.speaker))
                    for m in body.conversation_messages]
    else:
        messages = textparse.parse_lines(text, roster)
    seen = body.perception  # the newer API's surroundings: read first, the text where it says nothing
    npcs = perception.npcs(seen)
    in_sight = perception.people_in_sight(seen)
    return Parsed(
        notification_id=notification.notification_id,
        notification_type=body.type,
        conversation_id=body.conversation_id,
        participants=participants,
        present=listed if listed is not None else conversation_turns.parse_present(text, roster),  # who may speak next
        participants_listed=body.participants is not None or conversation_turns.parse_roster_line(text) is not None,
        departed=conversation_turns.parse_departed(text, roster),  # never named next
        conversation_messages=messages,
        next_speakers=textparse.parse_next_speakers(text, roster),
        location={
            "current_node": perception.current_node(seen) or textparse.parse_current_node(text),
            "clock": _iso(textparse.parse_clock(text)),
            "weather": perception.weather(seen) or textparse.parse_weather(text),
            "nearby_agent_count": in_sight if in_sight is not None else textparse.parse_nearby_agent_count(text),
        },
        places=[*perception.places(seen), *textparse.parse_places(text)],
        actions=offers.parse_action_options(text) or offers.action_options_of_choices(body.choices),
        npcs=npcs if npcs is not None else offers.parse_npcs(text),
        transfers=textparse.parse_transfers(text, me.agent_id, me.name, roster) or _pending(body, messages),
    )


def _pending(body: NotificationBody, messages: list[Line]) -> list[Transfer]:
    """The newer payload's `has_pending_transfer`: an offer from the last speaker, answered by this turn
    (what it holds is not said)."""
    if not body.pending_transfer:
        return []
    last = messages[-1].person if messages else PersonRef(None, "")
    return [{"from": last, "item": None, "money": None, "status": "offered", "response_required": True,
             "in_conversation": True}]


def observe(store: Store, notification: Notification, *, me: Identity, now: datetime) -> tuple[int, Parsed]:
    """Record the fetch and learn from it; returns (request activity id, parsed block)."""
    parsed = parse(notification, roster=StoredNames(store), me=me)
    others = [p for p in parsed.participants if not me.is_self(p.id, p.name)]
    with store.batch():
        store.save_notification(notification.notification_id, notification.raw)
        activity_id = store.record_request(notification.notification_id, parsed.notification_type)
        store.see_people(others)
        remember_met(store, parsed, me)
        store.learn_places(parsed.places)
        here = parsed.location.get("current_node")
        if here:
            store.note_presence(here["node_id"], here.get("name"))
        remember_partners(store, parsed, me)
        surroundings.learn(store, parsed, notification.notification.text, seen_at=notification.created_at or now, now=now,
                           parsed_perception=notification.notification.perception)
        buildings = remember_buildings(store, textparse.parse_buildings(notification.notification.text))
        # After learning: a promise may name a place this very text introduced.
        # Times are read against when each line was first seen, not this reading.
        seen_at = notification.created_at or now
        first_seen: dict[str, datetime] = {}

        def said_at(key: str) -> datetime:
            first_seen[key] = store.hear_line(key, seen_at, LINE_REPEAT_AFTER)
            return first_seen[key]

        promises.hear(store, notification.notification_id, parsed, me_id=me.agent_id, me_name=me.name,
                      seen_at=seen_at, now=now, said_at=said_at, first_seen=first_seen,
                      places=[*(p.node for p in store.known_places()), *buildings])
        promises.keep_in_place(store, parsed, now)
        new_lines = [line for line in parsed.conversation_messages
                     if first_seen.get(line_key(line, parsed.conversation_id)) == seen_at]
        journal.observed(store, parsed, me, conversation=conversation_key(parsed, me), at=now, heard_at=seen_at)
        remember_told(store, new_lines, lambda line: first_seen[line_key(line, parsed.conversation_id)],
                      me, parsed.conversation_id)
    return activity_id, parsed


def remember_told(store: Store, lines: Sequence[Line], said_at: Any, me: Identity,
                  conversation_id: str | None) -> None:
    """What people told about themselves in lines heard for the first time; a plan taken back, withdrawn."""
    if not lines:
        return
    from karakuri_agent.reading import (
        told_facts,  # its patterns cost start-up time: imported only when there are lines to read
    )

    facts, retractions = told_facts.read_lines(lines, said_at, is_self=me.is_self, conversation_id=conversation_id)
    store.learn_facts(fact.to_row() for fact in facts)
    for retraction in retractions:
        rows = store.told_facts([retraction.speaker_id or retraction.speaker_name, retraction.about_name], limit=50)
        store.withdraw_facts(told_facts.retracted(rows, retraction), retraction.said_at)


def told_to(store: Store, people: Iterable[PersonRef]) -> dict[str, list[dict[str, Any]]]:
    """For each person the agent may talk to (by id): what they and others told of them, town news, when each last came up."""
    out: dict[str, list[dict[str, Any]]] = {}
    for person in people:
        if person.id and person.id not in out:
            out[person.id] = store.told_facts(recall.kept_under(person),
                                              listener=person.id, news=True, limit=TOLD_PER_PERSON)
    return out


def remember_met(store: Store, parsed: Parsed, me: Identity) -> None:
    """Everyone in a conversation whose history shows the agent's own line has talked with it.

    The agent may have spoken before it knew their ids (a request that named
    the speaker only, a group whose members the text listed later, someone
    who left the group), or its next line may have failed; the history is the
    proof it talked with them (participants, and speakers whose name resolves
    to an id), so they are met, by id, once: re-reading adds nothing.
    """
    if not any(me.is_me(line.person) for line in parsed.conversation_messages):
        return
    people = {p.id: p.name for p in parsed.named() if p.id and not me.is_me(p)}
    met = {p.agent_id for p in store.people(list(people)) if has_talked(p)}
    for agent_id, name in people.items():
        if agent_id not in met:
            store.touch_person(agent_id, name)


def remember_buildings(store: Store, seen: list[dict[str, str]]) -> list[dict[str, str]]:
    """Every building name seen so far (本屋「栞」 at 7-6), with the ones this text shows.

    A node keeps one name (its label, 本屋 店内); people meet at 栞, so the
    building names are kept as other names of their nodes, newest last.
    """
    entry = store.knowledge(knowledge.BUILDINGS)
    known = [b for b in (entry or {}).get("value") or [] if isinstance(b, dict) and b.get("node_id") and b.get("name")]
    merged = [b for b in known if b not in seen] + seen
    merged = merged[-MAX_BUILDINGS:]
    if merged != known:
        store.set_knowledge(knowledge.BUILDINGS, merged)
    return merged


def remember(store: Store, parsed: Parsed, *, me: Identity, now: datetime,
             world_context_file: Path | None) -> Remembered:
    """What the store adds to this notification for deciding, read once (every list bounded)."""
    from karakuri_agent.domain.fetched import Remembered

    people_ids = [p.id for p in parsed.named() if p.id and not me.is_me(p)]
    return Remembered(
        people=tuple(store.people(people_ids)),
        pending=tuple(store.pending_commitments(now - promises.COMMITMENT_GRACE, promises.COMMITMENT_LIMIT)),
        memory=tuple(store.recent_memory(now - timedelta(days=MEMORY_DAYS), MEMORY_LIMIT)),
        # A model's trace (what it was asked, tokens) is for the operator's log, not for deciding.
        activity=tuple(replace(entry, model=None) for entry in store.recent_activity(ACTIVITY_LIMIT)),
        world=load_world_context(world_context_file),
        places=tuple(store.known_places()),  # visits / last_visited let a decider prefer places not visited lately
    )


def render_context(fetched: Fetched) -> dict[str, Any]:
    """The whole `nikechan_preprocess` block, as the production pre-processor gives an LLM runtime: the one
    place it is made (and each person's relationship label with it)."""
    remembered = fetched.remembered
    return {
        "turn_key": f"karakuri:{fetched.notification.notification_id}",
        "activity_log_id": fetched.activity_id,
        "parsed": _parsed_block(fetched),
        "context": {
            "people": [{"agent_id": p.agent_id, "display_name": p.display_name, "nickname": p.nickname,
                        "relationship": relationship(p.interactions), "interactions": p.interactions,
                        "last_contact": _stored(p.last_contact)} for p in remembered.people],
            "pending_commitments": [_promise_wire(m) for m in remembered.pending],
            "recent_memory_entries": list(remembered.memory),
            "recent_activity_logs": [stored_row(entry) for entry in remembered.activity],
            "unified_world_context": remembered.world,
            "known_places": [{"node_id": p.node_id, "name": p.name, "visits": p.visits,
                              "last_visited": _stored(p.last_visited)} for p in remembered.places],
        },
        "decision_guidance": list(DECISION_GUIDANCE),
    }


def _promise_wire(meeting: Meeting) -> dict[str, Any]:
    """A pending promise in the state's columns, its time as stored (UTC text)."""
    return {"id": meeting.id, "notification_id": meeting.notification_id, "partner_id": meeting.partner_id,
            "partner_name": meeting.partner_name, "place_name": meeting.place_name, "node_id": meeting.node_id,
            "due_at": _stored(meeting.due_at), "source_text": meeting.source_text}


def _stored(moment: datetime | None) -> str | None:
    """A time as the state stores it (UTC text): the wire context shows the rows as they are."""
    return utc_text(moment) if moment else None


def _parsed_block(fetched: Fetched) -> dict[str, Any]:
    """The `parsed` block, in the production pre-processor's keys and order."""
    parsed, choices, me = fetched.parsed, fetched.notification.notification.choices, fetched.me
    return {
        "notification_id": parsed.notification_id, "has_choices": bool(choices),
        "notification_type": parsed.notification_type, "conversation_id": parsed.conversation_id,
        "participants": _people(parsed.participants),
        "present": None if parsed.present is None else _people(parsed.present),
        "participants_listed": parsed.participants_listed, "departed": _people(parsed.departed),
        "conversation_messages": [{"speaker": line.speaker, "speaker_id": line.speaker_id, "message": line.message}
                                  for line in parsed.conversation_messages],
        "next_speakers": _people(parsed.next_speakers),
        "choices": [choice.summary() for choice in choices], "self": {"id": me.agent_id or None, "name": me.name or None},
        "location": parsed.location, "places": parsed.places, "actions": parsed.actions, "npcs": parsed.npcs,
        "transfers": [{**t, **{side: _person(t[side]) for side in ("from", "to") if side in t}}
                      for t in parsed.transfers],
    }


def _people(people: Iterable[PersonRef]) -> list[dict[str, str | None]]:
    return [_person(p) for p in people]


def _person(person: PersonRef) -> dict[str, str | None]:
    """A person in the wire's `{id, name}`."""
    return {"id": person.id, "name": person.name}


def wrapper_output(fetched: Fetched) -> dict[str, Any]:
    """What `karakuri get_notification` prints: the server's JSON plus `nikechan_preprocess`."""
    return {**fetched.notification.raw, "nikechan_preprocess": render_context(fetched)}


def view_of(store: Store, fetched: Fetched, now: datetime, *, persona: Persona, transfer_policy: str) -> View:
    """What a decider may look at: the fetched context plus what the store adds, read once."""
    from karakuri_agent.mind.view import View  # the decide step's input type; imported when deciding only

    learned = {knowledge.command_of(key): now - datetime.fromisoformat(at) for key, at in store.knowledge_times().items()
               if knowledge.command_of(key)}
    nearby_entry = store.knowledge(knowledge.result_key("get_nearby_agents"))
    nearby = agents_in(nearby_entry["value"]) if nearby_entry and learned["get_nearby_agents"] < NEARBY_FRESH else []
    talks_entry = store.knowledge(knowledge.result_key("get_active_conversations"))
    talks = conversations_in(talks_entry["value"]) \
        if talks_entry and learned["get_active_conversations"] < NEARBY_FRESH else []
    key = conversation_key(fetched.parsed, fetched.me)
    lines = store.utterances(key, SAID_BEFORE_LINES)
    current = _current(lines, now)  # the agent's lines of the talk going on now, newest first
    pack = persona.behaviour is not None  # what only a pack's behaviour reads
    broken = promises.broken_promises(store, now) if pack else []
    candidates = [a.id for a in nearby if a.id] + [
        str(v) for c in fetched.notification.choices if c.command == "conversation_start"
        for v in c.enum("target_agent_id")
    ]
    return View(
        notification_id=fetched.notification.notification_id,
        choices=fetched.notification.choices,
        parsed=fetched.parsed,
        people=fetched.remembered.people,
        pending=fetched.remembered.pending,
        me=fetched.me,
        now=now,
        persona=persona,
        recent_commands=store.recent_commands(RECENT_COMMANDS),
        knowledge_age={k: v for k, v in learned.items() if k in INFORMATION},
        places=fetched.remembered.places,
        nearby_agents=[a for a in nearby if not fetched.me.is_self(a.id, a.name)],
        active_talks=talks,
        own_lines=[line["message"] for line in current],
        talk=talk_so_far(store, key, current, now),
        said_before=[line["message"] for line in lines] + _said_this_week(store, fetched, now, also_to=candidates),
        acquaintances={p.agent_id: p for p in store.people(candidates)},
        meetings=promises.meetings_ahead(store, now, now + promises.MEETINGS_AHEAD,
                                         [*(p.node for p in fetched.remembered.places), *remember_buildings(store, [])]),
        trips=trips(store),
        **surroundings.seen(store, now),
        transfer_policy=transfer_policy, **journal.today(store, now),
        behaviour_memory=store.behaviour_state() if pack else {},
        broken_promises=broken, met=store.met_names() if pack else (),
        text=fetched.notification.notification.text or "",
        told=told_to(store, [*[p for p in fetched.parsed.participants
                               if not fetched.me.is_self(p.id, p.name)],
                             *nearby, *(PersonRef(c, "") for c in candidates)]),
    )


def said_before(store: Store, fetched: Fetched, now: datetime) -> list[str]:
    """The lines the gate never lets the agent say again: this conversation's, and the week's to these people."""
    lines = store.utterances(conversation_key(fetched.parsed, fetched.me), SAID_BEFORE_LINES)
    return [line["message"] for line in lines] + _said_this_week(store, fetched, now)


def _said_this_week(store: Store, fetched: Fetched, now: datetime, *, also_to: Iterable[str] = ()) -> list[str]:
    """Lines said in the last week to this conversation's others (or to `also_to`, whom it may start talking to).

    Talks keyed by the server's conversation id name no partners; who was in
    them is remembered apart (`remember_partners`), so their lines count too.
    """
    partners = partner_keys(fetched.parsed, fetched.me) | set(also_to)
    since = now - SAID_BEFORE_SPAN
    talks = (store.knowledge(knowledge.PARTNERS) or {}).get("value") or {}
    with_them = {key for key, people in talks.items() if isinstance(people, list) and partners & set(people)}
    in_id_talks = [line["message"] for line in store.utterances_since(since) if line["conversation_key"] in with_them]
    return said_to_partners(store, partners, since) + in_id_talks


def remember_partners(store: Store, parsed: Parsed, me: Identity) -> None:
    """Who is in a conversation the server gave an id to, so lines said there are not said to them again."""
    key = conversation_key(parsed, me)
    people = sorted(partner_keys(parsed, me) - {""})
    if not key.startswith("id:") or not people:
        return
    talks = (store.knowledge(knowledge.PARTNERS) or {}).get("value") or {}
    merged = sorted(set(talks.get(key) or []) | set(people))
    if merged != talks.get(key):
        kept = {k: v for k, v in list(talks.items())[-MAX_TALKS_REMEMBERED:] if k != key}
        store.set_knowledge(knowledge.PARTNERS, {**kept, key: merged})


def this_conversation(lines: list[dict[str, Any]], now: datetime) -> list[str]:
    """The agent's lines of the conversation going on now (newest first).

    Without a conversation id, lines are keyed by partners only, so earlier
    talks with the same people are cut off at the line that opened this one
    (an accept or a start) or at the first long silence.
    """
    return [line["message"] for line in _current(lines, now)]


def _current(lines: list[dict[str, Any]], now: datetime) -> list[dict[str, Any]]:
    current, later = [], now
    for line in lines:
        said = datetime.fromisoformat(line["created_at"])
        if later - said > CONVERSATION_GAP:
            break
        current.append(line)
        if line.get("opens"):
            break
        later = said
    return current


def talk_so_far(store: Store, conversation: str, current: list[dict[str, Any]], now: datetime) -> tuple[str, ...]:
    """This talk's lines, both sides, oldest first, from the journal: from the line the partner opened
    it with (just before the agent's first line of it, `current`'s oldest) on; () before the agent has
    said anything in it.

    A server that sends only the line being answered still gets it answered with what came before
    ('ピンクか、アッシュか…' → 'どっちが似合うと思う？').
    """
    if not current:
        return ()
    opened = datetime.fromisoformat(current[-1]["created_at"]) - TALK_OPENER
    return journal.talk(store, conversation, opened, now)


def load_world_context(path: Path | None) -> dict[str, Any]:
    """The shared 'life background', or a placeholder with the same keys."""
    placeholder: dict[str, Any] = {key: None for key in WORLD_CONTEXT_KEYS}
    if path is None:
        return {**placeholder, "status": "missing"}
    try:  # a regular file of bounded size only: not /dev/zero, not a FIFO that never ends
        data = loads(read_regular_file(path, MAX_CONFIGURED_FILE_BYTES))
    except FileNotFoundError:
        return {**placeholder, "status": "missing"}
    except (OSError, ValueError, RecursionError):
        return {**placeholder, "status": "invalid"}
    if not isinstance(data, dict):
        return {**placeholder, "status": "invalid"}
    return {**placeholder, "status": "ok", **data}


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None
