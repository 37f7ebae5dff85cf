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
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Iterable, Protocol, Sequence

from .context import Identity
from .models import TOKYO, Choice
from .speech import Persona, compose

SPEAK = ("conversation_speak",)
END = ("conversation_end", "end_conversation")
ACCEPT_TRANSFER = ("transfer_accept", "accept_transfer")
REJECT_TRANSFER = ("transfer_reject", "reject_transfer")
# Own lines in one conversation before the agent says goodbye.
CONVERSATION_TURNS = 8
# How far ahead a meeting starts to steer the agent (time to walk there and wait).
COMMITMENT_SOON = timedelta(minutes=90)
# A partner who has not come this long after the time is not coming.
MEETING_GRACE = timedelta(minutes=10)
COMMITMENT_URGENT = timedelta(minutes=15)
INFO_FRESH = timedelta(minutes=30)
TALK_AGAIN_AFTER = 6  # commands before starting a conversation with the same person again


@dataclass(frozen=True)
class Decision:
    """One command to send (or none), with params and the reason for it."""

    command: str | None
    params: dict[str, Any] = field(default_factory=dict)
    reason: str = ""

    @property
    def acts(self) -> bool:
        return self.command is not None


NO_ACTION = Decision(None, reason="選べる行動がない")


@dataclass(frozen=True)
class View:
    """Everything the policy may look at, already read from the store."""

    notification_id: str
    choices: Sequence[Choice]
    parsed: dict[str, Any]
    context: dict[str, Any]
    me: Identity
    now: datetime
    persona: Persona
    recent_commands: Sequence[dict[str, Any]] = ()  # newest first
    knowledge_age: dict[str, timedelta] = field(default_factory=dict)
    places: Sequence[dict[str, Any]] = ()  # known places with visits / last_visited
    nearby_agents: Sequence[dict[str, Any]] = ()
    own_lines: Sequence[str] = ()  # the agent's lines in this conversation, newest first
    said_before: Sequence[str] = ()  # every recent line to these partners: never said twice
    acquaintances: dict[str, dict[str, Any]] = field(default_factory=dict)  # agent id → person record
    meetings: Sequence[dict[str, Any]] = ()  # promises due soon, already gone to or not
    transfer_policy: str = "known"

    def choice(self, *commands: str) -> Choice | None:
        return next((c for c in self.choices if c.command in commands), None)


class Decider(Protocol):
    def propose(self, view: View) -> list[Decision]: ...


class RulePolicy:
    """The built-in decider: rules, no tokens."""

    def propose(self, view: View) -> list[Decision]:
        return propose(view)


def propose(view: View) -> list[Decision]:
    """Candidates, best first; the cycle sends the first whose params validate."""
    for rule in (_conversation_turn, _conversation_request, _inactive_check, _transfer_offer):
        answer = rule(view)
        if answer is not None:
            return answer
    return _idle(view)


# -- answering what the notification asks ---------------------------------------
def _conversation_turn(view: View) -> list[Decision] | None:
    speak = view.choice(*SPEAK)
    end = view.choice(*END)
    if speak is None and end is None:
        return None
    partner = _partner(view)
    closing = speak is not None and end is None and "別れ" in speak.description
    meeting = _meeting_elsewhere(view, partner.get("id"), within=COMMITMENT_URGENT)
    long_enough = len(view.own_lines) >= CONVERSATION_TURNS or meeting is not None
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
    ordered = [end_decision, speak_decision] if long_enough else [speak_decision, end_decision]
    return [d for d in ordered if d]


def _conversation_request(view: View) -> list[Decision] | None:
    accept = view.choice("conversation_accept")
    reject = view.choice("conversation_reject")
    if accept is None:
        return None
    partner = _partner(view)
    urgent = _meeting_elsewhere(view, partner.get("id"), within=COMMITMENT_URGENT)
    if urgent is not None and reject is not None:
        place = urgent.get("place_name") or "約束の場所"
        return [Decision(reject.command, {}, f"{place}での約束が迫っているので断る")]
    accepted = Decision(accept.command, _speech_params(view, accept, "accept", partner),
                        f"{partner.get('name') or '相手'}の誘いを受ける")
    return [accepted] + ([Decision(reject.command, {}, "返事の内容が用意できないので断る")] if reject else [])


def _inactive_check(view: View) -> list[Decision] | None:
    stay = view.choice("conversation_stay")
    leave = view.choice("conversation_leave")
    if stay is None and leave is None:
        return None
    alive = bool(view.parsed.get("conversation_messages")) and len(view.own_lines) < CONVERSATION_TURNS
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
def _idle(view: View) -> list[Decision]:
    candidates: list[Decision] = []
    candidates += _keep_commitment(view)
    candidates += _look_around(view, essential=True)
    candidates += _act_here(view)
    candidates += _look_around(view, essential=False)
    candidates += _talk_to_someone(view)
    candidates += _move_on(view)
    candidates += _wait(view)
    return [d for d in candidates if not _repeats_last(view, d)] or candidates[-1:]


def _keep_commitment(view: View) -> list[Decision]:
    """Go to the promised place in time, and stay there until the partner is due."""
    meeting = _next_meeting(view)
    if meeting is None:
        return []
    place = meeting.get("place_name") or "約束の場所"
    node = _meeting_node(view, meeting)
    if node is None:
        recent = {c.get("command") for c in view.recent_commands[:3]}
        if view.choice("get_map") and "get_map" not in recent:
            return [Decision("get_map", {}, f"約束の{place}がどこか地図で確かめる")]
        return []
    if node == _current_node(view) or _place_group(view, node) == _place_group(view, _current_node(view)):
        wait = view.choice("wait")
        if wait is None:
            return []
        minutes = max(10, int((_due(meeting) - view.now).total_seconds() // 60))
        return [Decision(wait.command, {"duration": _duration(wait, minutes // 10)},
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
        if not view.places and not _enum(view.choice("move"), "target_node_id"):
            wanted.append(("get_map", "行き先を知るために地図を確認する"))
        if _current_node(view) is None:
            wanted.append(("get_perception", "周りの様子がわからないので確かめる"))
    else:
        nearby = (view.parsed.get("location") or {}).get("nearby_agent_count")
        wanted = [("get_nearby_agents", "近くにいる人を確かめて話しかけたい")] if (
            nearby and view.choice("conversation_start") and not view.nearby_agents) else []
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
    own = [c.params["action_id"] for c in view.choices
           if c.command == "action" and isinstance(c.params.get("action_id"), str)]
    options = list(dict.fromkeys(own + _enum(choice, "action_id") + _actions_from_text(view)))
    done = {c.get("params", {}).get("action_id") for c in view.recent_commands[:6]}
    fresh = [a for a in options if a not in done]
    if not fresh:
        return []
    action_id = _pick(fresh, view.notification_id)
    return [Decision(choice.command, {"action_id": action_id}, f"ここでできること（{action_id}）をしてみる")]


def _talk_to_someone(view: View) -> list[Decision]:
    choice = view.choice("conversation_start")
    if choice is None:
        return []
    recent_targets = {c.get("params", {}).get("target_agent_id") for c in view.recent_commands[:TALK_AGAIN_AFTER]}
    options = _enum(choice, "target_agent_id") or [a["id"] for a in view.nearby_agents if a.get("id")]
    options = [a for a in options if a not in recent_targets and not view.me.is_self(a, None)]
    if not options:
        return []
    target = _pick(options, view.notification_id)
    person = view.acquaintances.get(target, {})
    name = person.get("display_name") or next((a.get("name") for a in view.nearby_agents if a.get("id") == target), None)
    known = person.get("interactions", 0) > 0
    message = compose("start", persona=view.persona, partner_name=name, partner_known=known,
                      place_name=_place_name(view), seed=view.notification_id,
                      max_length=_max_length(choice, "message"))
    return [Decision(choice.command, {"target_agent_id": target, "message": message},
                     f"近くにいる{name or '人'}に話しかける")]


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
    name = _name_of(view, target) or target
    return [Decision(choice.command, {"target_node_id": target}, f"しばらく行っていない{name}へ行ってみる")]


def _wait(view: View) -> list[Decision]:
    choice = view.choice("wait")
    if choice is None:
        return []
    return [Decision(choice.command, {"duration": _duration(choice, 1)}, "ほかにできることがないので少し待つ")]


# -- helpers -------------------------------------------------------------------------
def _speech_params(view: View, choice: Choice, purpose: str, partner: dict[str, Any]) -> dict[str, Any]:
    """Params for a speaking command: the line, and the next speaker when asked for."""
    params: dict[str, Any] = {}
    wants = set(choice.param_schema) | set(choice.required_params)
    if not choice.param_schema and choice.command in SPEAK + END:
        wants |= {"message", "next_speaker_agent_id"}  # the contract's params, when the server omits a schema
    if "message" in wants or not choice.param_schema:
        last = _last_line(view)
        promise = _promise_in(view, last) if purpose == "reply" else None
        params["message"] = compose(
            "promise_accept" if promise else purpose,
            persona=view.persona,
            partner_name=partner.get("name"),
            partner_known=_knows(view, partner.get("id")),
            last_line=last,
            place_name=(promise or {}).get("place_name") or _place_name(view),
            previous_lines=view.said_before or view.own_lines,
            max_length=_max_length(choice, "message"),
            seed=view.notification_id,
            time_text=_clock_text(promise),
        )
    if "next_speaker_agent_id" in wants:
        options = _enum(choice, "next_speaker_agent_id")
        speaker = partner.get("id")
        if options and speaker not in options:
            speaker = next((o for o in options if not view.me.is_self(o, None)), options[0])
        if speaker:
            params["next_speaker_agent_id"] = speaker
    return params


def _promise_in(view: View, line: str | None) -> dict[str, Any] | None:
    """The pending commitment made by this very line, if it made one."""
    if not line:
        return None
    return next((c for c in view.context.get("pending_commitments", []) if c.get("source_text") in line
                 or line in (c.get("source_text") or "")), None)


def _clock_text(commitment: dict[str, Any] | None) -> str | None:
    due = _due(commitment) if commitment else None
    return due.astimezone(TOKYO).strftime("%H:%M") if due else None


def _partner(view: View) -> dict[str, Any]:
    """Who the agent is answering: the last other speaker, else another participant."""
    for line in reversed(view.parsed.get("conversation_messages") or []):
        if not view.me.is_self(line.get("speaker_id"), line.get("speaker")):
            return {"id": line.get("speaker_id"), "name": line.get("speaker")}
    for person in view.parsed.get("participants") or []:
        if not view.me.is_self(person.get("id"), person.get("name")):
            return person
    return {}


def _transfer_sender(view: View) -> dict[str, Any]:
    for transfer in view.parsed.get("transfers") or []:
        sender = transfer.get("from") or {}
        if not view.me.is_self(sender.get("id"), sender.get("name")):
            return sender
    return _partner(view)


def _last_line(view: View) -> str | None:
    for line in reversed(view.parsed.get("conversation_messages") or []):
        if not view.me.is_self(line.get("speaker_id"), line.get("speaker")):
            return line.get("message")
    return None


def _knows(view: View, agent_id: str | None) -> bool:
    return any(p.get("agent_id") == agent_id and p.get("interactions", 0) > 0 for p in view.context.get("people", []))


def _due(commitment: dict[str, Any]) -> datetime | None:
    try:
        return datetime.fromisoformat(commitment["due_at"]) if commitment.get("due_at") else None
    except ValueError:
        return None


def _next_meeting(view: View) -> dict[str, Any] | None:
    """The soonest promise still ahead (or only just past), whether or not the agent set off."""
    for meeting in view.meetings:
        due = _due(meeting)
        if due is not None and -MEETING_GRACE <= due - view.now <= COMMITMENT_SOON:
            return meeting
    return None


def _meeting_node(view: View, meeting: dict[str, Any]) -> str | None:
    return meeting.get("node_id") or _node_for_place(view, meeting.get("place_name"))


def _meeting_elsewhere(view: View, partner_id: str | None, *, within: timedelta) -> dict[str, Any] | None:
    """A promise with someone else, somewhere else, due within `within`: time to go."""
    here = _place_group(view, _current_node(view)) if _current_node(view) else None
    for meeting in view.meetings:
        due = _due(meeting)
        node = _meeting_node(view, meeting)
        if (due is not None and timedelta(0) <= due - view.now <= within
                and meeting.get("partner_id") != partner_id
                and (node is None or _place_group(view, node) != here)):
            return meeting
    return None


def _current_node(view: View) -> str | None:
    node = (view.parsed.get("location") or {}).get("current_node") or {}
    return node.get("node_id")


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
    if not place_name:
        return None
    matches = [p for p in view.places if p.get("name") and place_name in p["name"]]
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


def _actions_from_text(view: View) -> list[str]:
    return [a["action_id"] for a in view.parsed.get("actions") or [] if a.get("action_id")]


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
    if choice is None:
        return []
    enum = choice.param_schema.get(name, {}).get("enum")
    return [v for v in enum if isinstance(v, (str, int))] if isinstance(enum, list) else []


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
