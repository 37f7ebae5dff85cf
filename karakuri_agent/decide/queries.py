"""Questions the rules ask of the View: who the partner is, where a meeting is, what is offered.

Shared by every rule (decide/rules/), the speaking params and the report's
facts, so each question has one answer.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any, Iterable, Iterator, Sequence, TypeVar

from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.identity import NOBODY, PersonRef
from karakuri_agent.domain.limits import FRIEND_AFTER_TALKS
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.records import Meeting, Offer, Parsed, Transfer, has_talked, here_id, here_name
from karakuri_agent.mind.view import View
from karakuri_agent.ja import place_words, reasons
from karakuri_agent.memory import lessons, recall
from karakuri_agent.memory.travel import FLOOR, time_to_walk
from karakuri_agent.reading.money_and_items import needs_of
from karakuri_agent.reading.place_names import known_place

# How far ahead a meeting starts to steer the agent (time to walk there and wait).
COMMITMENT_SOON = timedelta(minutes=90)

# A partner who has not come this long after the time is not coming.
MEETING_GRACE = timedelta(minutes=10)

# An agent late for a meeting (a long talk, a notification that came late) still goes this long after its
# time, as a person would: the partner may still be there. Waiting there stops at MEETING_GRACE.
LATE_STILL_GOES = timedelta(minutes=30)

# A meeting elsewhere ends or declines a talk when only the walk there (travel.time_to_walk) and
# this much is left: the next notification may come this much later.
LEAVE_SLACK = timedelta(minutes=15)

WAIT_UNIT = timedelta(minutes=10)  # the contract's `wait` duration unit

# Fewer named places than this (besides where the agent stands) is too few for a day: the map
# is asked for once, then the agent goes (a day out should see four places or more).
FEW_PLACES = 4

# The map does not change often: asked once, it is not asked again for this long
# even if it revealed nothing new (a small town stays small).
MAP_AGAIN_AFTER = timedelta(hours=24)

NO_ACTION = Decision(None, reason=reasons.NOTHING_TO_CHOOSE)

T = TypeVar("T")


def closeness_to(view: View, agent_id: str) -> float:
    """How close the agent is to someone: the pack's `closeness` variable, else how often they talked."""
    value = recall.closeness(view, name_of_agent(view, agent_id))
    known = view.acquaintances.get(agent_id)
    return value if value is not None else float(known.interactions if known else 0)


def is_close(view: View, agent_id: str) -> bool:
    """A friend or closer: past the first band of the pack's `closeness`, else five talks or more."""
    spec = recall.closeness_spec(view)
    if spec is not None:
        return len(spec.bands) > 1 and closeness_to(view, agent_id) >= spec.bands[1].low
    return closeness_to(view, agent_id) >= FRIEND_AFTER_TALKS


def name_of_agent(view: View, agent_id: Any) -> str | None:
    """A person's name from whatever the view knows about them."""
    person = view.acquaintances.get(str(agent_id)) if agent_id else None
    if person and person.display_name:
        return person.display_name
    everyone = [*view.nearby_agents, *view.parsed.participants]
    return next((a.name for a in everyone if a.id == agent_id and a.name), None)


def others_in(view: View) -> list[PersonRef]:
    """The participants of this conversation other than the agent."""
    return [p for p in view.parsed.participants if not view.me.is_self(p.id, p.name)]


def present_others(view: View) -> list[PersonRef]:
    """The others in the conversation now (those who left excepted): whom a turn may go to."""
    present = view.parsed.present
    people = present if isinstance(present, list) else view.parsed.participants
    return [p for p in people if not view.me.is_self(p.id, p.name)]


def partner_of(view: View) -> PersonRef:
    """Who the agent answers: a participant of this conversation other than
    itself, the last of them who spoke by preference. A speaker who is not a
    participant (who left, or a line from another talk) is never addressed;
    only when the participants are unknown is the last speaker the best guess."""
    others = present_others(view)
    for line in reversed(view.parsed.conversation_messages):
        speaker = line.person
        if view.me.is_me(speaker):
            continue
        member = next((p for p in others if p.same(speaker)), None)
        if member or not others:
            return member or speaker
    return others[0] if others else NOBODY


def transfer_sender(view: View) -> PersonRef:
    for transfer in view.parsed.transfers:
        sender = transfer.get("from") or NOBODY
        if not view.me.is_self(sender.id, sender.name):
            return sender
    return partner_of(view)


def takes_gift(view: View, sender: PersonRef) -> bool:
    """The transfer policy's answer to an offer from `sender`: `accept` all, `known` from someone met, `reject` none."""
    return view.transfer_policy == "accept" or (view.transfer_policy == "known" and knows_person(view, sender.id))


def takes_help(view: View, sender: PersonRef) -> bool:
    """Help or food offered in words, nothing transferred ('荷物持とうか？', 'みかん食べる？'): taken as a person
    would, by the pack's `rules.offers` (accept: from anyone; known: from someone met; decline)."""
    policy = view.persona.rules.offers
    return policy == "accept" or (policy == "known" and knows_person(view, sender.id))


def offer_in_turn(view: View, choice: Choice) -> Transfer | None:
    """The offer a conversation turn answers (its `transfer_response`), or None when there is none.

    One is pending when the text says an offer awaits the next turn
    (`… の譲渡提案が届いています`), or when the turn requires the answer. A
    turn without one never carries `transfer_response` (the world refuses it).
    Gives the offer (`from`, `item`, `money`) as the text read it, else one from the partner.
    """
    pending = [t for t in view.parsed.transfers
               if t.get("status") == "offered" and t.get("response_required") and t.get("in_conversation")]
    if pending:
        return pending[-1]
    if "transfer_response" in choice.required_params:
        return {"from": partner_of(view), "item": None, "money": None}
    return None


def knows_person(view: View, agent_id: str | None) -> bool:
    return any(p.agent_id == agent_id and has_talked(p) for p in view.people)


def next_meeting(view: View, *, placed: bool = True) -> Meeting | None:
    """The soonest promise still ahead (or only just past: late, the agent still goes), whether or not it set off.

    `placed`: only one whose place is a known node (one the agent can go to);
    a promise at a place not on its map must not hold it back from the next
    one it can keep. Else: only one whose place is not known yet.
    """
    for meeting in view.meetings:
        due = meeting.due_at
        if (due is None or not -LATE_STILL_GOES <= due - view.now <= COMMITMENT_SOON
                or (meeting_node(view, meeting) is not None) is not placed):
            continue
        if due - view.now < -MEETING_GRACE and placed and at_meeting_place(view, meeting):
            continue  # waited there past the grace: the partner is not coming
        return meeting
    return None


def at_meeting_place(view: View, meeting: Meeting) -> bool:
    """The agent stands at the meeting's node or in its building."""
    node, here = meeting_node(view, meeting), current_node_of(view)
    return node == here or place_group(view, node) == place_group(view, here)


def wait_units_left(view: View, meeting: Meeting) -> int:
    """Whole wait units (10 minutes) to wait for a partner: until the time, else within the grace.

    Early, the agent waits until the meeting's time, no longer; at the time,
    only what fits before time + grace. Zero means waiting would hold the
    agent past the grace.
    """
    due = meeting.due_at
    if due is None:
        return 0
    until_due = int((due - view.now) // WAIT_UNIT)
    return until_due if until_due >= 1 else int((due + MEETING_GRACE - view.now) // WAIT_UNIT)


def meeting_node(view: View, meeting: Meeting) -> str | None:
    return meeting.node_id or node_for_place(view, meeting.place_name)


def meeting_elsewhere(view: View, partner_id: str | None) -> Meeting | None:
    """A promise with someone else, somewhere else, due so soon that the agent must set off now."""
    return next((meeting for meeting, set_off in _meetings_elsewhere(view)
                 if meeting.partner_id != partner_id and set_off <= view.now), None)


def ends_in_time(view: View, action_id: str) -> bool:
    """The action (of known length) is over before the agent must set off for a meeting elsewhere."""
    option = action_option(view, action_id)
    minutes = option and (option.get("min_minutes") or option.get("minutes"))  # a ranged one can be kept short (filling.py)
    if not isinstance(minutes, (int, float)):
        return True
    ends = view.now + timedelta(minutes=minutes)
    return all(ends <= set_off for _, set_off in _meetings_elsewhere(view))


def _meetings_elsewhere(view: View) -> Iterator[tuple[Meeting, datetime]]:
    """Meetings still ahead somewhere else the agent can go to, with when it must set off for each.

    A promise at a place on no map is no reason to leave: the agent could not go there.
    """
    here = current_node_of(view)
    for meeting in view.meetings:
        due, node = meeting.due_at, meeting_node(view, meeting)
        if (due is not None and node is not None and due >= view.now
                and (here is None or place_group(view, node) != place_group(view, here))):
            yield meeting, due - _leave_before(view, here, node)


def _leave_before(view: View, here: str | None, there: str) -> timedelta:
    """How long before a meeting at `there` the agent must set off: the walk, and slack for the next notification."""
    walk = time_to_walk(view.trips, here, there)
    return walk + LEAVE_SLACK if walk > FLOOR else FLOOR


def current_node_of(view: View) -> str | None:
    """Where the agent stands: the text's `現在地`, else where its last accepted move took it."""
    node = here_id(view.parsed)
    if node:
        return node
    for command in view.recent_commands:
        if command.command == "move" and command.success:
            return command.param("target_node_id")
    return None


def refused_here(view: View, decision: Decision) -> bool:
    """The world refused this very command (spoken words aside) here lately: it is not tried again."""
    return lessons.is_refused(view.refused, decision.command, decision.params, current_node_of(view))


def is_destination(view: View, node: str) -> bool:
    """A node the agent may walk to: not where an NPC stands, not a move the world refused lately."""
    return node not in view.npc_nodes and not refused_here(view, Decision("move", {"target_node_id": node}))


def places_known(view: View) -> int:
    """The named places (buildings, spots) the agent knows it may walk to, besides where it stands: a
    move's list of street nodes in sight is somewhere to step, not somewhere to go."""
    here = place_group(view, current_node_of(view))
    return len({place_group(view, p.node_id) for p in view.places if p.name and is_destination(view, p.node_id)} - {here})


def map_asked(view: View) -> bool:
    """The map was asked for recently (sent, or learned from), whatever it revealed."""
    if any(c.command == "get_map" for c in view.recent_commands):
        return True
    age = view.knowledge_age.get("get_map")
    return age is not None and age < MAP_AGAIN_AFTER


def place_name_here(view: View) -> str | None:
    return here_name(view.parsed)


def name_of(view: View, node_id: str) -> str | None:
    return next((p.name for p in view.places if p.node_id == node_id), None)


def place_group(view: View, node_id: str | None) -> str:
    """The building a node belongs to ("喫茶店 店内" and "喫茶店 入口" are one place)."""
    name = name_of(view, node_id) if node_id else None
    return place_words.building(name) if name else (node_id or "")


def recent_groups(view: View, recent_nodes: list[str | None]) -> set[str]:
    groups = {place_group(view, n) for n in recent_nodes[:3]}
    here = current_node_of(view)
    return groups | ({place_group(view, here)} if here else set())


def node_for_place(view: View, place_name: str | None) -> str | None:
    """The known node a promised place names, read as promises read places (喫茶店「さくら」 → 喫茶店 店内)."""
    if not place_name:
        return None
    matches = [p for p in view.places if p.name and place_name in p.name]
    if not matches:
        found = known_place(place_name, [p.node for p in view.places if p.name and p.node_id])
        matches = [p for p in view.places if found and p.node_id == found[1]]
    inside = [p for p in matches if place_words.is_inside(p.name)]
    chosen = (inside or matches)[:1]
    return chosen[0].node_id if chosen else None


def acted_since_arrival(view: View) -> bool:
    if view.parsed.notification_type == "movement_completed":
        return False  # just arrived
    for command in view.recent_commands:
        if command.command == "move":
            return False
        if command.command == "action":
            return True
    return False


def action_options(view: View) -> list[str]:
    """Every action id offered here: the choices' own, their enum, and the text's list."""
    choice = view.choice("action")
    own = [c.params.get("action_id") for c in view.choices if c.command == "action"]
    from_text = [a.get("action_id") for a in view.parsed.actions]
    ids = own + enum_of(choice, "action_id") + from_text
    return list(dict.fromkeys(str(a) for a in ids if isinstance(a, (str, int)) and a != ""))


def action_option(view: View, action_id: str) -> Offer | None:
    """The offered action's details as its line states them (reading/offers.py), None when not in the text."""
    return next((a for a in view.parsed.actions if a.get("action_id") == action_id), None)


def affords(view: View, action_id: str) -> bool | None:
    """The agent can pay for the action and holds what it needs (False: surely not; None: cannot tell)."""
    option = action_option(view, action_id)
    if option is None:
        return True
    return view.holdings.affords(option.get("cost"), needs_of(option))


def action_label(choices: Sequence[Choice], parsed: Parsed, action_id: str | None) -> str | None:
    """What an action is called for people (`コーヒーを飲む`), never its id; None when unknown."""
    for option in parsed.actions:
        if option.get("action_id") == action_id and option.get("name"):
            return str(option["name"])
    for choice in choices:
        if choice.command == "action" and choice.params.get("action_id") == action_id and choice.description:
            return choice.description
    return None


def action_label_of(view: View, action_id: str) -> str | None:
    return action_label(view.choices, view.parsed, action_id)


def repeats_last(view: View, decision: Decision) -> bool:
    """Same command with the same target as the previous command: skip for variety."""
    if not view.recent_commands or decision.command in ("wait",):
        return False
    last = view.recent_commands[0]
    if last.command != decision.command:
        return False
    keys = ("target_node_id", "action_id", "target_agent_id")
    return all((last.params or {}).get(k) == decision.params.get(k) for k in keys)


def enum_of(choice: Choice | None, name: str) -> list[Any]:
    return choice.enum(name) if choice is not None else []


def max_length_of(choice: Choice, name: str) -> int | None:
    value = choice.param_schema.get(name, {}).get("maxLength")
    return value if isinstance(value, int) and value > 0 else None


def duration_for(choice: Choice, preferred: int) -> int:
    spec = choice.param_schema.get("duration", {})
    low, high = spec.get("minimum"), spec.get("maximum")
    return max(low if isinstance(low, int) else 1, min(high if isinstance(high, int) else 6, preferred))


def stable_hash(seed: str, value: str) -> str:
    return hashlib.sha256(f"{seed}:{value}".encode()).hexdigest()


def pick_stable(options: Iterable[T], seed: str) -> T:
    """A deterministic choice that still varies from notification to notification."""
    return min(options, key=lambda o: stable_hash(seed, str(o)))
