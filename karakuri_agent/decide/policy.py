"""Choosing what to do: a pure, deterministic, explainable function of the context.

`propose(view)` returns candidate decisions, best first, each with a short
reason (Japanese, since people read it in the log). The cycle sends the first
one whose params pass validation; an empty list means "do nothing". Nothing
here does I/O, so the whole behaviour can be tested in bulk, and a different
decider (a language model) can replace it: it may only propose.

The rules follow `skill/SKILL.md`:
1. answer what the notification asks (a turn, a request, a check, an offer);
2. a commitment due soon takes precedence when a choice advances it;
3. an idle reminder is not a request to wait: look around only when the
   context lacks it, engage with what is here, otherwise move somewhere not
   visited recently; wait only with a reason;
4. variety: not the same action or place twice in a row.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Iterable, Iterator, Sequence

from karakuri_agent.memory import recall
from karakuri_agent.behaviour.selector import BuiltinRule
from karakuri_agent.domain.commands import ACCEPT_TRANSFER, END, REJECT_TRANSFER, SPEAK
from karakuri_agent.domain.commands import INFORMATION as INFORMATION_COMMANDS
from karakuri_agent.decide.deciders import Decision
from karakuri_agent.domain.notification import TOKYO, Choice, Identity
from karakuri_agent.reading.promises import known_place
from karakuri_agent.memory.travel import FLOOR, time_to_walk
from karakuri_agent.domain.records import Activity, Meeting, Parsed, Participant, Person, Place
from karakuri_agent.report.line import ReportFacts
from karakuri_agent.voice.speech import Memory, Persona, compose

# How far ahead a meeting starts to steer the agent (time to walk there and wait).
COMMITMENT_SOON = timedelta(minutes=90)
# A partner who has not come this long after the time is not coming.
MEETING_GRACE = timedelta(minutes=10)
# A meeting elsewhere ends or declines a talk when only the walk there (travel.time_to_walk) and
# this much is left: the next notification may come this much later.
LEAVE_SLACK = timedelta(minutes=15)
WAIT_UNIT = timedelta(minutes=10)  # the contract's `wait` duration unit
INFO_FRESH = timedelta(minutes=30)
# Fewer destinations than this (besides where the agent stands) is too few to live on:
# the map is asked for once, then the agent goes.
FEW_PLACES = 3
# The map does not change often: asked once, it is not asked again for this long
# even if it revealed nothing new (a small town stays small).
MAP_AGAIN_AFTER = timedelta(hours=24)
# Commands without a move after which, once something was done here, going elsewhere comes before
# looking for someone to talk to on the same spot.
STAY_COMMANDS = 6
# Waits in a row after which anything else offered is preferred to a third one.
MAX_WAITS_IN_A_ROW = 2


NO_ACTION = Decision(None, reason="選べる行動がない")


@dataclass(frozen=True)
class View:
    """Everything the policy may look at, already read from the store."""

    notification_id: str
    choices: Sequence[Choice]
    parsed: Parsed
    context: dict[str, Any]
    me: Identity
    now: datetime
    persona: Persona
    recent_commands: Sequence[Activity] = ()  # newest first
    knowledge_age: dict[str, timedelta] = field(default_factory=dict)
    places: Sequence[Place] = ()  # known places with visits / last_visited
    nearby_agents: Sequence[Participant] = ()
    own_lines: Sequence[str] = ()  # the agent's lines in this conversation, newest first
    said_before: Sequence[str] = ()  # lines said to these partners this week: never said twice
    acquaintances: dict[str, Person] = field(default_factory=dict)  # agent id → person record
    meetings: Sequence[Meeting] = ()  # promises due soon, already gone to or not
    broken_promises: Sequence[Meeting] = ()  # promises past keeping and not kept (read with a pack only)
    trips: Sequence[dict[str, Any]] = ()  # trips walked (from, to, minutes), newest last: how long walks take
    transfer_policy: str = "known"
    # What the pack's behaviour remembers (variables, fire counts, cooldowns): the state's, as saved.
    behaviour_memory: dict[str, Any] = field(default_factory=dict)
    text: str = ""  # the notification's text, as the server wrote it (what a `keyword` rule reads)
    # What each person the agent may talk to (by id) told about themselves, and town news (told.py's rows).
    told: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def choice(self, *commands: str) -> Choice | None:
        return next((c for c in self.choices if c.command in commands), None)


class RulePolicy:
    """The built-in decider: rules, no tokens."""

    def propose(self, view: View) -> list[Decision]:
        return propose(view)


def propose(view: View) -> list[Decision]:
    """Candidates, best first; the cycle sends the first whose params validate.

    The first rule (by priority, the pack's among them) that answers gives
    them; each carries the rule's id and the selection (`Decision.trace`).
    """
    from karakuri_agent.decide.behaving import select

    return select(view, BUILTIN_RULES, _node_for_place)


# -- answering what the notification asks ---------------------------------------
def _conversation_turn(view: View) -> list[Decision] | None:
    speak = view.choice(*SPEAK)
    end = view.choice(*END)
    if speak is None and end is None:
        return None
    partner = _partner(view)
    closing = speak is not None and end is None and "別れ" in speak.description
    meeting = _meeting_elsewhere(view, partner.get("id"))
    long_enough = len(view.own_lines) >= view.persona.rules.conversation_turns or meeting is not None
    speak_decision = speak and Decision(
        speak.command,
        _speech_params(view, speak, "farewell" if closing else "reply", partner),
        "会話の締めくくりに挨拶する" if closing else f"{partner.get('name') or '相手'}の発言に応える",
    )
    end_decision = end and Decision(
        end.command,
        _speech_params(view, end, "farewell", partner),
        f"{meeting.get('place_name') or '約束の場所'}での約束が近いので会話を切り上げる" if meeting
        else "十分に話したので挨拶して会話を終える",
    )
    if speak_decision and not closing:
        speak_decision = _recalling(view, speak_decision, speak, partner)
    ordered = [end_decision, speak_decision] if long_enough else [speak_decision, end_decision]
    return [d for d in ordered if d]


def _conversation_request(view: View) -> list[Decision] | None:
    accept = view.choice("conversation_accept")
    reject = view.choice("conversation_reject")
    if accept is None:
        return None
    partner = _partner(view)
    urgent = _meeting_elsewhere(view, partner.get("id"))
    if urgent is not None and reject is not None:
        place = urgent.get("place_name") or "約束の場所"
        return [Decision(reject.command, {}, f"{place}での約束が迫っているので断る")]
    accepted = _recalling(view, Decision(accept.command, _speech_params(view, accept, "accept", partner),
                                         f"{partner.get('name') or '相手'}の誘いを受ける"), accept, partner)
    return [accepted] + ([Decision(reject.command, {}, "返事の内容が用意できないので断る")] if reject else [])


def _inactive_check(view: View) -> list[Decision] | None:
    stay = view.choice("conversation_stay")
    leave = view.choice("conversation_leave")
    if stay is None and leave is None:
        return None
    alive = bool(view.parsed.get("conversation_messages")) and len(view.own_lines) < view.persona.rules.conversation_turns
    stay_decision = stay and Decision(stay.command, {}, "会話がまだ続いているので残る")
    leave_decision = leave and Decision(
        leave.command, _speech_params(view, leave, "farewell", _partner(view)), "会話が止まっているので挨拶して抜ける"
    )
    ordered = [stay_decision, leave_decision] if alive else [leave_decision, stay_decision]
    return [d for d in ordered if d]


def _transfer_offer(view: View) -> list[Decision] | None:
    accept = view.choice(*ACCEPT_TRANSFER)
    reject = view.choice(*REJECT_TRANSFER)
    if accept is None and reject is None:
        return None
    sender = _transfer_sender(view)
    take = view.transfer_policy == "accept" or (view.transfer_policy == "known" and _knows(view, sender.get("id")))
    name = sender.get("name") or "相手"
    if take and accept is not None:
        return [Decision(accept.command, {}, f"顔なじみの{name}からの贈り物を受け取る")]
    if reject is not None:
        why = "譲渡は受け取らない設定" if view.transfer_policy == "reject" else f"{name}とはまだ面識がない"
        return [Decision(reject.command, {}, f"{why}ので断る")]
    return [NO_ACTION]


# -- idle: the agent lives its own day ----------------------------------------------
def _commitment_first(view: View) -> list[Decision] | None:
    """A promise steers the agent now: the day's candidates, which start with keeping it.

    A promise due soon at a place not found yet counts too: the day's candidates
    are how the agent finds it (a rule such as night rest must not hold it back).
    """
    steered = _keep_commitment(view) or _next_meeting(view, placed=False) is not None
    return _idle(view) if steered else None


def _idle(view: View) -> list[Decision]:
    commitment = _keep_commitment(view)
    candidates: list[Decision] = []
    candidates += commitment
    candidates += _look_around(view, essential=True)
    candidates += _act_here(view)
    social = _look_around(view, essential=False) + _talk_to_someone(view)
    candidates += (_move_on(view) + social) if _stayed_long(view) else (social + _move_on(view))
    candidates += _wait(view)
    if _waited_enough(view):
        waiting_for_someone = any(d.command == "wait" for d in commitment)
        candidates = _instead_of_waiting(candidates, _anything_but_wait(view), stay=waiting_for_someone) or candidates
    return [d for d in candidates if not _repeats_last(view, d)] or candidates[-1:]


def _stayed_long(view: View) -> bool:
    """Done something here and moved in none of the recent commands: time to see another place.

    Talk fills many commands; without this the agent who is often spoken to
    would talk, act, talk again on the same spot all day.
    """
    return (len(view.recent_commands) >= STAY_COMMANDS and _acted_since_arrival(view)
            and not any(c.get("command") == "move" for c in view.recent_commands[:STAY_COMMANDS]))


def _waited_enough(view: View) -> bool:
    recent = view.recent_commands[:MAX_WAITS_IN_A_ROW]
    return len(recent) == MAX_WAITS_IN_A_ROW and all(c.get("command") == "wait" for c in recent)


def _instead_of_waiting(candidates: list[Decision], extra: list[Decision], *, stay: bool) -> list[Decision]:
    """The candidates without a wait; staying near a meeting place comes before leaving it."""
    others = [d for d in candidates + extra if d.command != "wait"]
    if stay:
        others = [d for d in others if d.command != "move"] + [d for d in others if d.command == "move"]
    return others


def _anything_but_wait(view: View) -> list[Decision]:
    """After two waits: something offered that the usual rules held back (a repeat is better than a third wait)."""
    found: list[Decision] = []
    choice = view.choice("action")
    options = [a for a in _action_options(view) if _ends_in_time(view, a)]
    if choice is not None and options:
        action_id = _pick(options, view.notification_id)
        found.append(Decision(choice.command, {"action_id": action_id},
                              f"待ってばかりなので{_action_label(view, action_id) or 'ここで何かする'}ことにする"))
    recent = {c.get("command") for c in view.recent_commands[:3]}
    for command in INFORMATION_COMMANDS:
        if view.choice(command) is not None and command not in recent:
            found.append(Decision(command, {}, "待ってばかりなので周りのことを確かめる"))
            break
    return found


def _keep_commitment(view: View) -> list[Decision]:
    """Go to the promised place in time, and stay there until the partner is due."""
    meeting = _next_meeting(view)
    if meeting is None:
        unplaced = _next_meeting(view, placed=False)
        if unplaced is not None and unplaced.get("place_name") and view.choice("get_map") and not _map_asked(view):
            return [Decision("get_map", {}, f"約束の{unplaced['place_name']}がどこか地図で確かめる")]
        return []
    place = meeting.get("place_name") or "約束の場所"
    node = _meeting_node(view, meeting)
    assert node is not None  # _next_meeting only gives placed meetings
    if node == _current_node(view) or _place_group(view, node) == _place_group(view, _current_node(view)):
        wait = view.choice("wait")
        units = _wait_units_left(view, meeting)
        if wait is None or units < 1 or _duration(wait, units) > units:
            return []  # no wait that ends by the grace: the meeting stops holding the agent here
        return [Decision(wait.command, {"duration": _duration(wait, units)},
                         f"{place}で{meeting.get('partner_name') or '相手'}を待つ")]
    move = view.choice("move")
    if move is None or node not in (_enum(move, "target_node_id") or [node]):
        return []
    return [Decision(move.command, {"target_node_id": node}, f"{place}での約束に向かう")]


def _look_around(view: View, *, essential: bool) -> list[Decision]:
    """Information only when it is missing: never repeated, never while fresh.

    Essential: where am I, where can I go. Otherwise: who is here to talk to,
    asked only when the text says someone is near.
    """
    if essential:
        wanted = []
        if _few_destinations(view) and not _map_asked(view):
            wanted.append(("get_map", "行き先が少ないので地図で場所を確かめる"))
        if _current_node(view) is None:
            wanted.append(("get_perception", "周りの様子がわからないので確かめる"))
    else:
        nearby = (view.parsed.get("location") or {}).get("nearby_agent_count")
        wanted = [("get_nearby_agents", "近くにいる人を確かめて話しかけたい")] if (
            nearby and view.choice("conversation_start") and view.persona.rules.start_conversations
            and not view.nearby_agents) else []
    recent = {c.get("command") for c in view.recent_commands[:3]}
    for command, reason in wanted:
        age = view.knowledge_age.get(command)
        if view.choice(command) and command not in recent and (age is None or age > INFO_FRESH):
            return [Decision(command, {}, reason)]
    return []


def _act_here(view: View) -> list[Decision]:
    """An action offered here, unless one was already done since arriving."""
    choice = view.choice("action")
    if choice is None or _acted_since_arrival(view):
        return []
    done = {c.get("params", {}).get("action_id") for c in view.recent_commands[:6]}
    fresh = [a for a in _action_options(view) if a not in done and _ends_in_time(view, a)]
    if not fresh:
        return []
    action_id = _pick(fresh, view.notification_id)
    label = _action_label(view, action_id)
    return [Decision(choice.command, {"action_id": action_id},
                     f"ここで{label}ことにする" if label else "ここでできることをしてみる")]


def _talk_to_someone(view: View) -> list[Decision]:
    choice = view.choice("conversation_start")
    if choice is None or not view.persona.rules.start_conversations:
        return []
    recent = view.recent_commands[:view.persona.rules.talk_again_after]
    recent_targets = {c.get("params", {}).get("target_agent_id") for c in recent}
    options = _enum(choice, "target_agent_id") or [a["id"] for a in view.nearby_agents if a.get("id")]
    options = [a for a in options if a not in recent_targets and not view.me.is_self(a, None)]
    if not options:
        return []
    target = _closest_first(view, options)
    name = _name_of_agent(view, target)
    known = view.acquaintances.get(target, {}).get("interactions", 0) > 0
    message = compose("start", persona=view.persona, partner_name=name, partner_known=known,
                      partner_close=_is_close(view, target),
                      place_name=_place_name(view), seed=view.notification_id,
                      previous_lines=view.said_before, max_length=_max_length(choice, "message"))
    return [_recalling(view, Decision(choice.command, {"target_agent_id": target, "message": message},
                                      f"近くにいる{name or '人'}に話しかける"), choice, {"id": target, "name": name})]


# How often the closest of several people nearby is the one sought out (the rest: any of them).
CLOSEST_FIRST = 0.7
# Without a pack's closeness: this many talks make someone close.
CLOSE_AFTER_TALKS = 5


def _closeness(view: View, agent_id: str) -> float:
    """How close the agent is to someone: the pack's `closeness` variable, else how often they talked."""
    value = recall.closeness(view, _name_of_agent(view, agent_id))
    return value if value is not None else float(view.acquaintances.get(agent_id, {}).get("interactions", 0) or 0)


def _is_close(view: View, agent_id: str) -> bool:
    """A friend or closer: past the first band of the pack's `closeness`, else five talks or more."""
    spec = recall.closeness_spec(view)
    if spec is not None:
        return len(spec.bands) > 1 and _closeness(view, agent_id) >= spec.bands[1].low
    return _closeness(view, agent_id) >= CLOSE_AFTER_TALKS


def _closest_first(view: View, options: list[str]) -> str:
    """Usually the closest of the people one could talk to, not always: variety stays."""
    scores = {option: _closeness(view, option) for option in options}
    top = [o for o in options if scores[o] == max(scores.values())]
    share = int(_stable(view.notification_id, "closest")[:8], 16) / 0xFFFFFFFF
    return _pick(top if len(top) < len(options) and share < CLOSEST_FIRST else options, view.notification_id)


def _move_on(view: View) -> list[Decision]:
    choice = view.choice("move")
    if choice is None:
        return []
    here = _current_node(view)
    recent_nodes = [c.get("params", {}).get("target_node_id") for c in view.recent_commands if c.get("command") == "move"]
    options = _enum(choice, "target_node_id") or [p["node_id"] for p in view.places if p.get("name")]
    options = [n for n in options if n and n != here]
    if not options:
        return []
    visits = {p["node_id"]: (p.get("visits") or 0, p.get("last_visited") or "") for p in view.places}
    recent_set = set(recent_nodes[:5])
    groups = _recent_groups(view, recent_nodes)

    def rank(node: str) -> tuple[Any, ...]:
        count, last = visits.get(node, (0, ""))
        name = _name_of(view, node) or ""
        doorway = any(word in name for word in ("入口", "玄関"))
        return (node in recent_set, _place_group(view, node) in groups, last, count, doorway,
                _stable(view.notification_id, node))

    ranked = sorted(options, key=rank)
    target = ranked[0]
    name = _name_of(view, target)
    return [Decision(choice.command, {"target_node_id": target},
                     f"しばらく行っていない{name}へ行ってみる" if name else "別の場所へ行ってみる")]


def _wait(view: View) -> list[Decision]:
    choice = view.choice("wait")
    if choice is None:
        return []
    return [Decision(choice.command, {"duration": _duration(choice, 1)}, "ほかにできることがないので少し待つ")]


# -- what a decision is about, for the report -----------------------------------------
def facts_of(view: View, decision: Decision) -> ReportFacts:
    """The names a report can use for this decision: place, action, partner, item, promise.

    Read from the same view the decision came from, so the report says what the
    agent chose and why it matters to a person (`約束の公民館へ向かいます`).
    """
    command, params = decision.command, decision.params
    if command == "move":
        target = str(params.get("target_node_id") or "")
        meeting = next((m for m in view.meetings if target and _meeting_node(view, m) == target), None)
        if meeting is not None:
            return ReportFacts(place=meeting.get("place_name") or _name_of(view, target), promise=True)
        return ReportFacts(place=_name_of(view, target))
    here = _current_node(view)
    place = _place_name(view) or (_name_of(view, here) if here else None)
    if command == "action":
        return ReportFacts(place=place, action=_action_label(view, str(params.get("action_id") or "")))
    if command == "wait":
        meeting = _next_meeting(view)
        node = _meeting_node(view, meeting) if meeting is not None else None
        if meeting is not None and node is not None and _place_group(view, node) == _place_group(view, here):
            return ReportFacts(place=meeting.get("place_name"), partner=meeting.get("partner_name"), promise=True)
        return ReportFacts(place=place)
    if command in ACCEPT_TRANSFER + REJECT_TRANSFER:
        return ReportFacts(partner=_transfer_sender(view).get("name"), item=_transfer_item(view))
    if command == "transfer":
        return ReportFacts(partner=_name_of_agent(view, params.get("target_agent_id")),
                           item=_amount(params.get("money")))
    if command == "conversation_start":
        return ReportFacts(partner=_name_of_agent(view, params.get("target_agent_id")), place=place)
    if command is not None and (command.startswith("conversation_") or command in END):
        return ReportFacts(partner=_partner(view).get("name"), place=place)
    return ReportFacts(place=place)


def _transfer_item(view: View) -> str | None:
    """What is offered: an amount of money, or the item's name when it has one (ids are dropped later)."""
    for transfer in view.parsed.get("transfers") or []:
        if _amount(transfer.get("money")):
            return _amount(transfer.get("money"))
        item = transfer.get("item") or {}
        if item.get("name") or item.get("item_id"):
            return str(item.get("name") or item.get("item_id"))
    return None


def _amount(money: Any) -> str | None:
    return f"{money:,}円" if isinstance(money, int) and not isinstance(money, bool) and money > 0 else None


def _name_of_agent(view: View, agent_id: Any) -> str | None:
    """A person's name from whatever the view knows about them."""
    person = view.acquaintances.get(str(agent_id), {}) if agent_id else {}
    if person.get("display_name"):
        return str(person["display_name"])
    everyone = [*view.nearby_agents, *(view.parsed.get("participants") or [])]
    return next((str(a["name"]) for a in everyone if a.get("id") == agent_id and a.get("name")), None)


# -- helpers -------------------------------------------------------------------------
def _recalling(view: View, decision: Decision, choice: Choice, partner: dict[str, Any]) -> Decision:
    """A spoken decision that also brings up something `partner` told on an earlier day, if there is one."""
    if "message" not in decision.params:
        return decision
    memory = recall.for_partner(view, partner, opening=choice.command in ("conversation_start", "conversation_accept"))
    if memory is None:
        return decision
    message = recall.with_recall(decision.params["message"], memory, _max_length(choice, "message"))
    return replace(decision, params={**decision.params, "message": message},
                   reason=f"{decision.reason}（{memory.explained()}）", recalled=memory)


def _speech_params(view: View, choice: Choice, purpose: str, partner: dict[str, Any]) -> dict[str, Any]:
    """Params for a speaking command: the line, and the next speaker when asked for."""
    params: dict[str, Any] = {}
    wants = set(choice.param_schema) | set(choice.required_params)
    if not choice.param_schema and choice.command in SPEAK + END:
        wants |= {"message", "next_speaker_agent_id"}  # the contract's params, when the server omits a schema
    if "message" in wants or not choice.param_schema:
        last = _last_line(view, partner)
        promise = _promise_in(view, last) if purpose == "reply" else None
        params["message"] = compose(
            "promise_accept" if promise else purpose,
            persona=view.persona,
            partner_name=partner.get("name"),
            partner_known=_knows(view, partner.get("id")),
            partner_close=bool(partner.get("id")) and _is_close(view, str(partner.get("id"))),
            last_line=last,
            place_name=(promise or {}).get("place_name") or _place_name(view),
            previous_lines=[*view.own_lines, *view.said_before],
            max_length=_max_length(choice, "message"),
            seed=view.notification_id,
            time_text=_clock_text(promise),
            others=[p.get("name") or "" for p in _others(view) if not _same_person(p, partner)],
            memory=_memory(view),
        )
    if "next_speaker_agent_id" in wants:
        speaker = _next_speaker(view, choice, partner)
        if speaker:
            params["next_speaker_agent_id"] = speaker
    return params


def _next_speaker(view: View, choice: Choice, partner: dict[str, Any]) -> str | None:
    """The partner, else another participant of this conversation; never the
    agent itself, and never someone outside the conversation when it is known."""
    options = _enum(choice, "next_speaker_agent_id")
    members = [p.get("id") for p in _others(view) if p.get("id")]
    preferred = [i for i in (partner.get("id"), *members) if i and not view.me.is_self(i, None)]
    fitting = [i for i in preferred if not options or i in options]
    if fitting:
        return fitting[0]
    offered = [o for o in options if not view.me.is_self(str(o), None)]
    return next((o for o in offered if not members or o in members), None)


def _memory(view: View) -> Memory:
    """Places the agent can talk about: where it is, where it went lately."""
    here = _current_node(view)
    visited = sorted((p for p in view.places if p.get("last_visited") and p.get("node_id") != here),
                     key=lambda p: p["last_visited"], reverse=True)
    return Memory(here=_place_name(view) or "",
                  recent_places=tuple(p["name"] for p in visited if p.get("name")),
                  known_places=tuple(p["name"] for p in view.places if p.get("name")))


def _promise_in(view: View, line: str | None) -> dict[str, Any] | None:
    """The pending commitment made by this very line, if it made one."""
    if not line:
        return None
    return next((c for c in view.context.get("pending_commitments", []) if c.get("source_text") in line
                 or line in (c.get("source_text") or "")), None)


def _clock_text(commitment: Meeting | None) -> str | None:
    due = _due(commitment) if commitment else None
    return due.astimezone(TOKYO).strftime("%H:%M") if due else None


def _others(view: View) -> list[dict[str, Any]]:
    """The participants of this conversation other than the agent."""
    return [p for p in view.parsed.get("participants") or [] if not view.me.is_self(p.get("id"), p.get("name"))]


def _same_person(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Ids decide when both have one; otherwise the exact name ('灯屋ユウ' is not '灯屋ユウキ')."""
    if a.get("id") and b.get("id"):
        return a["id"] == b["id"]
    return bool(a.get("name")) and a.get("name") == b.get("name")


def _partner(view: View) -> dict[str, Any]:
    """Who the agent answers: a participant of this conversation other than
    itself, the last of them who spoke by preference. A speaker who is not a
    participant (who left, or a line from another talk) is never addressed;
    only when the participants are unknown is the last speaker the best guess."""
    others = _others(view)
    for line in reversed(view.parsed.get("conversation_messages") or []):
        speaker = {"id": line.get("speaker_id"), "name": line.get("speaker")}
        if view.me.is_self(speaker["id"], speaker["name"]):
            continue
        member = next((p for p in others if _same_person(p, speaker)), None)
        if member or not others:
            return member or speaker
    return others[0] if others else {}


def _transfer_sender(view: View) -> dict[str, Any]:
    for transfer in view.parsed.get("transfers") or []:
        sender = transfer.get("from") or {}
        if not view.me.is_self(sender.get("id"), sender.get("name")):
            return sender
    return _partner(view)


def _last_line(view: View, partner: dict[str, Any]) -> str | None:
    """The partner's latest line: what the agent answers when it speaks to them."""
    for line in reversed(view.parsed.get("conversation_messages") or []):
        if _same_person({"id": line.get("speaker_id"), "name": line.get("speaker")}, partner):
            return line.get("message")
    return None


def _knows(view: View, agent_id: str | None) -> bool:
    return any(p.get("agent_id") == agent_id and p.get("interactions", 0) > 0 for p in view.context.get("people", []))


def _due(commitment: Meeting) -> datetime | None:
    try:
        return datetime.fromisoformat(commitment["due_at"]) if commitment.get("due_at") else None
    except ValueError:
        return None


def _next_meeting(view: View, *, placed: bool = True) -> Meeting | None:
    """The soonest promise still ahead (or only just past), whether or not the agent set off.

    `placed`: only one whose place is a known node (one the agent can go to);
    a promise at a place not on its map must not hold it back from the next
    one it can keep. Else: only one whose place is not known yet.
    """
    for meeting in view.meetings:
        due = _due(meeting)
        if (due is not None and -MEETING_GRACE <= due - view.now <= COMMITMENT_SOON
                and (_meeting_node(view, meeting) is not None) is placed):
            return meeting
    return None


def _wait_units_left(view: View, meeting: Meeting) -> int:
    """Whole wait units (10 minutes) to wait for a partner: until the time, else within the grace.

    Early, the agent waits until the meeting's time, no longer; at the time,
    only what fits before time + grace. Zero means waiting would hold the
    agent past the grace.
    """
    due = _due(meeting)
    if due is None:
        return 0
    until_due = int((due - view.now) // WAIT_UNIT)
    return until_due if until_due >= 1 else int((due + MEETING_GRACE - view.now) // WAIT_UNIT)


def _meeting_node(view: View, meeting: Meeting) -> str | None:
    return meeting.get("node_id") or _node_for_place(view, meeting.get("place_name"))


def _meeting_elsewhere(view: View, partner_id: str | None) -> Meeting | None:
    """A promise with someone else, somewhere else, due so soon that the agent must set off now."""
    return next((meeting for meeting, set_off in _meetings_elsewhere(view)
                 if meeting.get("partner_id") != partner_id and set_off <= view.now), None)


def _ends_in_time(view: View, action_id: str) -> bool:
    """The action (of known length) is over before the agent must set off for a meeting elsewhere."""
    minutes = next((a.get("minutes") for a in view.parsed.get("actions") or [] if a.get("action_id") == action_id), None)
    if not isinstance(minutes, (int, float)):
        return True
    ends = view.now + timedelta(minutes=minutes)
    return all(ends <= set_off for _, set_off in _meetings_elsewhere(view))


def _meetings_elsewhere(view: View) -> Iterator[tuple[Meeting, datetime]]:
    """Meetings still ahead somewhere else the agent can go to, with when it must set off for each.

    A promise at a place on no map is no reason to leave: the agent could not go there.
    """
    here = _current_node(view)
    for meeting in view.meetings:
        due, node = _due(meeting), _meeting_node(view, meeting)
        if (due is not None and node is not None and due >= view.now
                and (here is None or _place_group(view, node) != _place_group(view, here))):
            yield meeting, due - _leave_before(view, here, node)


def _leave_before(view: View, here: str | None, there: str) -> timedelta:
    """How long before a meeting at `there` the agent must set off: the walk, and slack for the next notification."""
    walk = time_to_walk(list(view.trips), here, there)
    return walk + LEAVE_SLACK if walk > FLOOR else FLOOR


def _current_node(view: View) -> str | None:
    """Where the agent stands: the text's `現在地`, else where its last accepted move took it."""
    node = (view.parsed.get("location") or {}).get("current_node") or {}
    if node.get("node_id"):
        return node["node_id"]
    for command in view.recent_commands:
        if command.get("command") == "move" and command.get("success"):
            return (command.get("params") or {}).get("target_node_id")
    return None


def _few_destinations(view: View) -> bool:
    """Too few places to go to besides this one: the move's own list if it has one, else what is known."""
    move = view.choice("move")
    if move is None:
        return False
    here = _current_node(view)
    known = _enum(move, "target_node_id") or [p["node_id"] for p in view.places if p.get("name")]
    return len({str(n) for n in known} - {here}) < FEW_PLACES


def _map_asked(view: View) -> bool:
    """The map was asked for recently (sent, or learned from), whatever it revealed."""
    if any(c.get("command") == "get_map" for c in view.recent_commands):
        return True
    age = view.knowledge_age.get("get_map")
    return age is not None and age < MAP_AGAIN_AFTER


def _place_name(view: View) -> str | None:
    node = (view.parsed.get("location") or {}).get("current_node") or {}
    return node.get("name")


def _name_of(view: View, node_id: str) -> str | None:
    return next((p.get("name") for p in view.places if p.get("node_id") == node_id), None)


def _place_group(view: View, node_id: str | None) -> str:
    """The building a node belongs to ("喫茶店 店内" and "喫茶店 入口" are one place)."""
    name = _name_of(view, node_id) if node_id else None
    return name.split()[0] if name else (node_id or "")


def _recent_groups(view: View, recent_nodes: list[str | None]) -> set[str]:
    groups = {_place_group(view, n) for n in recent_nodes[:3]}
    here = _current_node(view)
    return groups | ({_place_group(view, here)} if here else set())


def _node_for_place(view: View, place_name: str | None) -> str | None:
    """The known node a promised place names, read as promises read places (喫茶店「さくら」 → 喫茶店 店内)."""
    if not place_name:
        return None
    matches = [p for p in view.places if p.get("name") and place_name in p["name"]]
    if not matches:
        found = known_place(place_name, [p for p in view.places if p.get("name") and p.get("node_id")])
        matches = [p for p in view.places if found and p.get("node_id") == found[1]]
    inside = [p for p in matches if "店内" in p["name"] or "入口" not in p["name"]]
    chosen = (inside or matches)[:1]
    return chosen[0]["node_id"] if chosen else None


def _acted_since_arrival(view: View) -> bool:
    if view.parsed.get("notification_type") == "movement_completed":
        return False  # just arrived
    for command in view.recent_commands:
        if command.get("command") == "move":
            return False
        if command.get("command") == "action":
            return True
    return False


def _action_options(view: View) -> list[str]:
    """Every action id offered here: the choices' own, their enum, and the text's list."""
    choice = view.choice("action")
    own = [c.params.get("action_id") for c in view.choices if c.command == "action"]
    from_text = [a.get("action_id") for a in view.parsed.get("actions") or []]
    ids = own + _enum(choice, "action_id") + from_text
    return list(dict.fromkeys(str(a) for a in ids if isinstance(a, (str, int)) and a != ""))


def action_label(choices: Sequence[Choice], parsed: Parsed, action_id: str | None) -> str | None:
    """What an action is called for people (`コーヒーを飲む`), never its id; None when unknown."""
    for option in parsed.get("actions") or []:
        if option.get("action_id") == action_id and option.get("name"):
            return str(option["name"])
    for choice in choices:
        if choice.command == "action" and choice.params.get("action_id") == action_id and choice.description:
            return choice.description
    return None


def _action_label(view: View, action_id: str) -> str | None:
    return action_label(view.choices, view.parsed, action_id)


def _repeats_last(view: View, decision: Decision) -> bool:
    """Same command with the same target as the previous command: skip for variety."""
    if not view.recent_commands or decision.command in ("wait",):
        return False
    last = view.recent_commands[0]
    if last.get("command") != decision.command:
        return False
    keys = ("target_node_id", "action_id", "target_agent_id")
    return all(last.get("params", {}).get(k) == decision.params.get(k) for k in keys)


def _enum(choice: Choice | None, name: str) -> list[Any]:
    return choice.enum(name) if choice is not None else []


def _max_length(choice: Choice, name: str) -> int | None:
    value = choice.param_schema.get(name, {}).get("maxLength")
    return value if isinstance(value, int) and value > 0 else None


def _duration(choice: Choice, preferred: int) -> int:
    spec = choice.param_schema.get("duration", {})
    low = spec.get("minimum") if isinstance(spec.get("minimum"), int) else 1
    high = spec.get("maximum") if isinstance(spec.get("maximum"), int) else 6
    return max(low, min(high, preferred))


def _stable(seed: str, value: str) -> str:
    return hashlib.sha256(f"{seed}:{value}".encode()).hexdigest()


def _pick(options: Iterable[Any], seed: str) -> Any:
    """A deterministic choice that still varies from notification to notification."""
    return min(options, key=lambda o: _stable(seed, str(o)))


# The built-in behaviour as named rules, tried highest priority first (behaviour/selector.py):
# ids and priorities are documented (docs/behaviour.md) and stay, since packs name them.
BUILTIN_RULES: tuple[BuiltinRule[View, Decision], ...] = (
    BuiltinRule("conversation-turn", 300, "answer a conversation turn; say goodbye when it has gone on long enough",
                _conversation_turn),
    BuiltinRule("conversation-request", 290, "accept an invitation to talk, unless a promise elsewhere is due",
                _conversation_request),
    BuiltinRule("inactive-check", 280, "stay in a conversation that is still going, leave one that has stopped",
                _inactive_check),
    BuiltinRule("transfer-offer", 270, "take a gift from someone known (the transfer policy), else decline it",
                _transfer_offer),
    BuiltinRule("keep-commitment", 150, "a promise due soon: find its place, go there in time, wait for the partner",
                _commitment_first),
    BuiltinRule("daily-life", 10, "look around when lost, act here, talk to someone, move on; wait last",
                _idle),
)
BUILTIN_RULE_IDS = tuple(rule.id for rule in BUILTIN_RULES)
