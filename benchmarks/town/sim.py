"""The simulated town: a world clock, the agent's body, other people, and the referee.

The town plays the Karakuri World server for one agent. It issues one
notification at a time (`next_notification()`), answers the agent's GET and
POST the way the contract says (`handle_get()`, `handle_post()`), applies an
accepted command to the world, and keeps a log (`steps`, `promises`,
`conversations`) from which the metrics are computed.

Time: a world clock that advances at least `TICK_MINUTES` per notification;
when the agent is busy (walking, doing something, waiting) it jumps to the
next thing that happens. Every notification carries the world time as
`created_at`; promise due times are computed from it, as the agent does.

Determinism: every choice the town makes comes from `random.Random(seed)`,
and the agent under test is deterministic too, so a seed gives one history.
"""

from __future__ import annotations

import json
import random
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from . import texts
from .schema import check_params
from .world import (
    MEETING_OPENERS, PEOPLE, PERSON_BY_ID, PLACE_BY_ID, PLACES, PROMISE_CLOCK, PROMISE_HOUR,
    PROMISE_RELATIVE, SELF_ID, SELF_NAME, TICK_MINUTES, Action, Line, Person, hops, neighbours, step_towards,
)

TOKYO = ZoneInfo("Asia/Tokyo")
TICK = timedelta(minutes=TICK_MINUTES)
START = datetime(2026, 4, 18, 0, 0, tzinfo=timezone.utc)  # 09:00 in Tokyo
EXPIRES_AFTER = timedelta(minutes=10)
MEETING_PATIENCE = timedelta(minutes=30)  # how long a partner waits at the meeting place
TALK_COOLDOWN = timedelta(minutes=60)
TALKING = ("active", "closing", "closing_after_promise")
INFO_COMMANDS = frozenset({
    "get_perception", "get_available_actions", "get_map", "get_world_agents", "get_status",
    "get_nearby_agents", "get_active_conversations", "get_event",
})


def ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Promise:
    """A meeting a partner proposed to the agent; judged by where the agent is at `due`."""

    id: int
    partner_id: str
    node_id: str
    text: str
    made_at: datetime
    due: datetime
    notification_id: str
    conversation_id: str
    relative: timedelta | None = None  # "30分後に…": the due time is relative to the line
    first_free_at: datetime | None = None  # first notification after the talk that offered move
    node_at_first_free: str | None = None
    arrived_at: datetime | None = None  # the agent reached the node after the promise was made
    met: bool = False

    @property
    def reachable(self) -> bool | None:
        if self.first_free_at is None or self.node_at_first_free is None:
            return None
        travel = TICK * hops(self.node_at_first_free, self.node_id)
        return self.first_free_at + travel <= self.due

    @property
    def kept(self) -> bool:
        return self.arrived_at is not None and self.arrived_at <= self.due


@dataclass
class Conversation:
    id: str
    partners: list[str]  # person ids
    initiator: str  # a person id, or SELF_ID when the agent started it
    show_id: bool  # conversation_id in the JSON (else the agent keys it by its participants)
    turns_left: int  # partner lines still to come, the last one a farewell or a promise
    known_before: bool  # the agent had exchanged lines with the initiator before
    promise_place: str | None = None
    meeting: Promise | None = None
    state: str = "requested"  # requested | active | closing | ended
    used: set[str] = field(default_factory=set)
    last_line: Line | None = None
    last_speaker: str | None = None
    agent_lines: list[dict[str, Any]] = field(default_factory=list)
    speak_offers: int = 0
    end_reason: str = ""


@dataclass
class Npc:
    person: Person
    node: str
    cooldown_until: datetime = START
    promise: Promise | None = None
    destination: str | None = None  # where they are walking to, on their own business


@dataclass
class Body:
    """The agent as the town sees it."""

    node: str = "1-1"
    moving: tuple[str, datetime, str] | None = None  # (target, arrives_at, from)
    acting: tuple[Action, datetime] | None = None
    waiting_until: datetime | None = None
    waited_minutes: int = 0
    money: int = 10_000
    items: dict[str, int] = field(default_factory=lambda: {"お茶": 1})
    conversation: Conversation | None = None
    previous_node: str | None = None


@dataclass
class Step:
    """One notification and everything that came back for it."""

    index: int
    notification_id: str
    type: str
    time: datetime
    node: str
    kind: str  # free | request | turn | closing | inactive | transfer
    choices: list[dict[str, Any]]
    body: dict[str, Any]
    discord: str
    variant: dict[str, Any] = field(default_factory=dict)
    conversation: str | None = None
    partner_id: str | None = None
    partner_line: Line | None = None
    speak_offer_index: int | None = None
    justified_wait: bool = False
    previous_node: str | None = None
    posts: list[dict[str, Any]] = field(default_factory=list)
    accepted: dict[str, Any] | None = None
    gets: int = 0

    @property
    def commands(self) -> set[str]:
        return {c["command"] for c in self.choices}


class Town:
    """A deterministic town for one agent; thread-safe (the HTTP server calls in from threads)."""

    def __init__(self, seed: int = 0, *, api_key: str = "town-key", start: datetime = START,
                 promise_chance: float = 0.45) -> None:
        self.seed = seed
        self.promise_chance = promise_chance  # how often a talk ends with a proposal to meet
        self.rng = random.Random(seed)
        self.api_key = api_key
        self.now = start
        self.lock = threading.RLock()
        self.body = Body(node="1-1")
        self.npcs = {p.agent_id: Npc(p, p.home) for p in PEOPLE}
        self.steps: list[Step] = []
        self.by_id: dict[str, Step] = {}
        self.promises: list[Promise] = []
        self.conversations: list[Conversation] = []
        self.talked_with: set[str] = set()
        self.pending_event: tuple[str, str] | None = ("agent_logged_in", "世界にログインしました。")
        self.arrivals: list[tuple[datetime, str, int]] = [(start, "1-1", 0)]  # (time, node, step index)
        self.departures: list[tuple[datetime, str]] = []  # (time, node left)
        self.named_in_text: dict[str, int] = {}  # node id -> first step whose text named it
        self.named_in_info: dict[str, int] = {}  # node id -> first step whose info answer named it
        self.ids_seen: dict[str, int] = {}  # node id -> first step it appeared in at all (text, enum, info)
        self.violations = {"not_in_choices": 0, "schema": 0, "second_command": 0, "unknown_notification": 0,
                           "unauthorized": 0}
        self.world_rejections: list[dict[str, Any]] = []
        self._conversation_seq = 0
        self._promise_seq = 0

    # ------------------------------------------------------------------ issuing
    def next_notification(self) -> Step:
        """Advance the world to the next thing the agent hears about, and issue it."""
        with self.lock:
            self._settle_unanswered()
            self._advance(TICK)
            for _ in range(500):
                step = self._pick_event()
                if step is not None:
                    return step
                self._advance(TICK)
            raise RuntimeError("the town found nothing to tell the agent for 500 ticks")

    def _advance(self, delta: timedelta) -> None:
        self.now += delta
        self._walk_people()
        body = self.body
        for promise in self.promises:
            if promise.arrived_at is None and body.moving is None and body.node == promise.node_id \
                    and promise.made_at < self.now:
                promise.arrived_at = self.now

    def _settle_unanswered(self) -> None:
        """What happens when the agent sent nothing (or nothing accepted) for the last notification."""
        if not self.steps or self.steps[-1].accepted is not None:
            return
        last = self.steps[-1]
        conv = self.body.conversation
        if last.kind == "request" and conv is not None:
            self._close(conv, "ignored")
        elif last.kind in ("turn", "closing", "inactive") and conv is not None:
            self._close(conv, "timeout")
            self.pending_event = ("conversation_ended", "会話が終了しました。（応答タイムアウトで終了しました）")

    def _pick_event(self) -> Step | None:
        body = self.body
        conv = body.conversation
        if conv is not None and conv.state in TALKING and conv.last_line is not None:
            return self._issue_turn(conv)
        if body.moving and body.moving[1] <= self.now:
            target, arrived, origin = body.moving
            body.previous_node, body.node, body.moving = origin, target, None
            self.arrivals.append((arrived, target, len(self.steps)))
            self._note_arrival(arrived)
            return self._issue_free("movement_completed", f"{PLACE_BY_ID[target].label} に到着しました。")
        if body.acting and body.acting[1] <= self.now:
            action, _ = body.acting
            body.acting = None
            lines = [f"「{action.name}」が完了しました。"]
            if action.cost or action.item:
                extra = []
                if action.cost:
                    extra.append(f"💰 -{action.cost:,}円 → 残高: {body.money:,}円")
                if action.item:
                    extra.append(f"📦 {action.item} ×1 を入手")
                lines.append("\n".join(extra))
            return self._issue_free("action_completed", "\n\n".join(lines))
        if self.pending_event is not None:
            kind, line = self.pending_event
            self.pending_event = None
            return self._issue_free(kind, line)
        free = body.moving is None and body.acting is None and body.conversation is None
        if free:
            meeting = self._meeting_ready()  # the partner arriving ends a wait
            if meeting is not None:
                return self._issue_request(self.npcs[meeting.partner_id], meeting=meeting)
        if body.waiting_until and body.waiting_until <= self.now:
            minutes = body.waited_minutes
            body.waiting_until = None
            return self._issue_free("idle_reminder_fired", f"前回の行動から{minutes}分間が経過しました。")
        if free:
            caller = self._someone_calls()
            if caller is not None:
                return self._issue_request(caller)
            giver = self._someone_gives()
            if giver is not None:
                return self._issue_transfer(giver)
        if free and body.waiting_until is None:
            return self._issue_free("idle_reminder_fired", "前回の行動から10分間が経過しました。")
        return None

    def _note_arrival(self, arrived: datetime) -> None:
        for promise in self.promises:
            if promise.arrived_at is None and promise.node_id == self.body.node and promise.made_at < arrived:
                promise.arrived_at = arrived

    # ------------------------------------------------------------------ people
    def _walk_people(self) -> None:
        body = self.body
        busy = set(body.conversation.partners) if body.conversation else set()
        for npc in self.npcs.values():
            if npc.person.agent_id in busy:
                continue
            if npc.promise is not None:
                promise = npc.promise
                if self.now > promise.due + MEETING_PATIENCE or promise.met:
                    npc.promise = None
                elif npc.node != promise.node_id and self.now >= promise.due - TICK * (hops(npc.node, promise.node_id) + 1):
                    npc.node = step_towards(npc.node, promise.node_id)
                continue
            roll = self.rng.random()
            if npc.destination and npc.node != npc.destination:
                if roll < 0.7:
                    npc.node = step_towards(npc.node, npc.destination)
                continue
            npc.destination = None
            if roll < 0.06:
                npc.node = step_towards(npc.node, body.node)
            elif roll < 0.14:
                npc.node = self.rng.choice(neighbours(npc.node))
            elif roll < 0.24:
                npc.destination = self.rng.choice(npc.person.favourite_places)

    def _nearby(self) -> list[Npc]:
        """People at the agent's node (the only ones it can talk to)."""
        busy = set(self.body.conversation.partners) if self.body.conversation else set()
        return [n for n in self.npcs.values() if n.node == self.body.node and n.person.agent_id not in busy]

    def _meeting_ready(self) -> Promise | None:
        for promise in self.promises:
            npc = self.npcs[promise.partner_id]
            if (not promise.met and npc.promise is promise and npc.node == promise.node_id
                    and self.body.node == promise.node_id and promise.due - TICK <= self.now
                    and self.now <= promise.due + MEETING_PATIENCE):
                return promise
        return None

    def _someone_calls(self) -> Npc | None:
        candidates = [n for n in self._nearby() if n.cooldown_until <= self.now and n.promise is None]
        if candidates and self.rng.random() < 0.4:
            return self.rng.choice(candidates)
        return None

    def _someone_gives(self) -> Npc | None:
        candidates = [n for n in self._nearby() if n.promise is None]
        if candidates and self.rng.random() < 0.06:
            return self.rng.choice(candidates)
        return None

    # ------------------------------------------------------------------ building notifications
    def _new_step(self, kind: str, ntype: str, text: str, choices: list[dict[str, Any]], *,
                  extra: dict[str, Any] | None = None, discord: str | None = None,
                  variant: dict[str, Any] | None = None) -> Step:
        index = len(self.steps)
        nid = f"notif-town{self.seed}-{index:04d}"
        variant = dict(variant or {})
        created, expires = self.now, self.now + EXPIRES_AFTER
        as_ms = self.rng.random() < 0.4
        variant["time_format"] = "unix_ms" if as_ms else "iso"
        body: dict[str, Any] = {
            "notification_id": nid,
            "created_at": ms(created) if as_ms else iso(created),
            "expires_at": ms(expires) if as_ms else iso(expires),
        }
        if self.rng.random() < 0.8:
            body["status"] = "pending"
        note: dict[str, Any] = {"type": ntype, "text": text, "choices": choices}
        note.update(extra or {})
        body["notification"] = note
        discord = discord or f"{SELF_NAME} への通知があります。notification_id: {nid}"
        if "notification_id:" not in discord:
            discord = f"{discord}\nnotification_id: {nid}"
        step = Step(index, nid, ntype, self.now, self.body.node, kind, choices, body, discord, variant,
                    previous_node=self.body.previous_node)
        self.steps.append(step)
        self.by_id[nid] = step
        self._note_text(step, text, choices)
        return step

    def _note_text(self, step: Step, text: str, choices: list[dict[str, Any]]) -> None:
        for node_id in texts.named_nodes(text):
            self.named_in_text.setdefault(node_id, step.index)
            self.ids_seen.setdefault(node_id, step.index)
        for node_id in texts.node_ids(text) + texts.enum_values(choices, "target_node_id"):
            self.ids_seen.setdefault(node_id, step.index)

    def _issue_free(self, ntype: str, event: str) -> Step:
        body = self.body
        here = PLACE_BY_ID[body.node]
        rng = self.rng
        nearby = self._nearby()
        builder = texts.ChoiceBuilder(rng)
        variant: dict[str, Any] = {}
        choices: list[dict[str, Any]] = []
        action_style = rng.choice(["per_action", "enum", "free"])
        variant["action_style"] = action_style
        affordable = [a for a in here.actions if a.cost <= body.money]
        if affordable:
            choices += builder.actions(affordable, action_style, here)
        if body.items:
            choices.append(builder.use_item())
        move_enum = rng.random() < 0.4
        variant["move_target"] = "enum" if move_enum else "free_string"
        choices.append(builder.move([p.node_id for p in PLACES if p.node_id != body.node] if move_enum else None))
        choices.append(builder.wait())
        if nearby:
            start_enum = rng.random() < 0.5
            variant["start_target"] = "enum" if start_enum else "free_string"
            choices.append(builder.transfer())
            choices.append(builder.conversation_start([n.person.agent_id for n in nearby] if start_enum else None))
        for command in ("get_available_actions", "get_perception", "get_map", "get_world_agents", "get_status",
                        "get_nearby_agents"):
            choices.append(builder.info(command))
        named = rng.random() < 0.7
        variant["nearby_nodes"] = "named" if named else "ids_only"
        variant.update(builder.variant)
        text = texts.free_text(event, now=self.now, here=here, neighbours=neighbours(body.node), named=named,
                               nearby_count=len(nearby), money=body.money,
                               items=sum(body.items.values()), weather=rng.choice(texts.WEATHERS),
                               choices=choices, actions=affordable, location=ntype != "agent_logged_in")
        if ntype == "agent_logged_in":
            variant["location_block"] = False  # a fresh login tells nothing of the map: the agent must ask
        step = self._new_step("free", ntype, text, choices, variant=variant)
        step.justified_wait = any(
            p.node_id == body.node and not p.met and p.made_at < self.now <= p.due + MEETING_PATIENCE
            for p in self.promises
        )
        for promise in self.promises:
            if promise.first_free_at is None and promise.made_at < self.now:
                promise.first_free_at, promise.node_at_first_free = self.now, body.node
        return step

    def _issue_request(self, npc: Npc, *, meeting: Promise | None = None) -> Step:
        rng = self.rng
        person = npc.person
        partners = [person.agent_id]
        others = [n for n in self._nearby() if n is not npc and n.promise is None and n.cooldown_until <= self.now]
        if meeting is None and others and rng.random() < 0.2:
            partners.append(rng.choice(others).person.agent_id)
        conv = self._new_conversation(partners, person.agent_id, meeting=meeting)
        if meeting is not None:
            meeting.met = True
            opener = rng.choice(MEETING_OPENERS)
            line = Line(opener.text.format(place=PLACE_BY_ID[meeting.node_id].word), opener.tags)
        else:
            line = rng.choice(person.openers)
        conv.used.add(line.text)
        conv.last_line, conv.last_speaker = line, person.agent_id
        self.body.conversation = conv
        self.body.waiting_until = None
        builder = texts.ChoiceBuilder(rng)
        choices = [builder.accept(), builder.reject()]
        extra, variant = self._conversation_json(conv, line, person, builder)
        with_ids = rng.random() < 0.5
        variant["request_participants_line"] = with_ids
        text = texts.request_text(person.name, line.text, self._participants(conv) if with_ids else None, choices)
        quote = line.text if rng.random() < 0.5 else None
        discord = f"🔔 {person.name} が話しかけています。" + (f"「{quote}」" if quote else "")
        step = self._new_step("request", "conversation_requested", text, choices, extra=extra, discord=discord,
                              variant=variant)
        self._tag(step, conv, person.agent_id, line)
        return step

    def _issue_turn(self, conv: Conversation) -> Step:
        rng = self.rng
        speaker = PERSON_BY_ID[conv.last_speaker]
        builder = texts.ChoiceBuilder(rng)
        participants = self._participants(conv)
        others = [p for p in conv.partners]
        if conv.state == "closing":
            kind, ntype = "closing", "conversation_closing"
            choices = [builder.speak(others, closing=True)]
        elif conv.state == "active" and conv.turns_left > 1 and conv.agent_lines and rng.random() < 0.07:
            kind, ntype = "inactive", "conversation_inactive_check"
            choices = [builder.stay(), builder.leave()]
        else:
            kind, ntype = "turn", "conversation_message"
            choices = [builder.speak(others), builder.end(others)]
        extra, variant = self._conversation_json(conv, conv.last_line, speaker, builder)
        text = texts.turn_text(participants, speaker.name, conv.last_line.text, choices,
                               inactive=kind == "inactive")
        step = self._new_step(kind, ntype, text, choices, extra=extra, variant=variant)
        self._tag(step, conv, speaker.agent_id, conv.last_line)
        for promise in self.promises:
            if promise.conversation_id == conv.id and not promise.notification_id:
                # The due time counts from the notification that shows the line, as the agent reads it.
                if promise.relative is not None:
                    promise.due = self.now + promise.relative
                promise.made_at, promise.notification_id = self.now, step.notification_id
        if kind == "turn":
            step.speak_offer_index = conv.speak_offers
            conv.speak_offers += 1
        return step

    def _issue_transfer(self, npc: Npc) -> Step:
        rng = self.rng
        item = rng.choice(npc.person.gifts)
        quantity = rng.choice([1, 1, 2])
        builder = texts.ChoiceBuilder(rng)
        names = ("accept_transfer", "reject_transfer") if rng.random() < 0.5 else ("transfer_accept", "transfer_reject")
        choices = [builder.plain(names[0], "譲渡を受け入れる"), builder.plain(names[1], "譲渡を拒否する")]
        text = texts.transfer_text(npc.person.name, f"{item}×{quantity}", choices)
        extra: dict[str, Any] = {}
        if rng.random() < 0.5:
            extra["participants"] = [{"id": npc.person.agent_id, "name": npc.person.name}]
        step = self._new_step("transfer", "transfer_requested", text, choices, extra=extra,
                              variant={"transfer_names": names[0]})
        step.partner_id = npc.person.agent_id
        return step

    def _tag(self, step: Step, conv: Conversation, speaker_id: str, line: Line) -> None:
        step.conversation = conv.id
        step.partner_id = speaker_id
        step.partner_line = line

    def _participants(self, conv: Conversation) -> list[tuple[str, str]]:
        people = [(PERSON_BY_ID[p].name, p) for p in conv.partners]
        people.insert(1 if conv.initiator != SELF_ID else 0, (SELF_NAME, SELF_ID))
        return people

    def _conversation_json(self, conv: Conversation, line: Line, speaker: Person,
                           builder: texts.ChoiceBuilder) -> tuple[dict[str, Any], dict[str, Any]]:
        rng = self.rng
        extra: dict[str, Any] = {}
        in_json = rng.random() < 0.6
        variant = {"participants": "json" if in_json else "text_only", **builder.variant}
        if in_json:
            extra["participants"] = [{"id": pid, "name": name} for name, pid in self._participants(conv)]
            message = {"speaker": speaker.name, "message": line.text}
            if rng.random() < 0.5:
                message["speaker_id"] = speaker.agent_id
            extra["conversation_messages"] = [message]
        if conv.show_id:
            extra["conversation_id"] = conv.id
        variant["conversation_id"] = conv.show_id
        return extra, variant

    def _new_conversation(self, partners: list[str], initiator: str, *, meeting: Promise | None = None) -> Conversation:
        self._conversation_seq += 1
        rng = self.rng
        first = partners[0]
        promise_place = None
        if meeting is None and rng.random() < self.promise_chance:
            options = [p.node_id for p in PLACES if p.node_id != self.body.node]
            promise_place = rng.choice(options)
        conv = Conversation(
            id=f"conv-{self.seed}-{self._conversation_seq}",
            partners=partners,
            initiator=initiator,
            show_id=rng.random() < 0.5,
            turns_left=rng.randint(3, 6),
            known_before=first in self.talked_with,
            promise_place=promise_place,
            meeting=meeting,
        )
        self.conversations.append(conv)
        return conv

    def _next_line(self, conv: Conversation, speaker: Person) -> Line:
        """The partner's next line: the plan's promise or farewell at the end, else something unused."""
        if conv.turns_left <= 1:
            if conv.promise_place is not None:
                return self._promise_line(conv, speaker)
            conv.state = "closing"
            options = [l for l in speaker.farewells if l.text not in conv.used] or list(speaker.farewells)
        else:
            options = [l for l in speaker.lines if l.text not in conv.used] or list(speaker.lines)
        line = self.rng.choice(options)
        if "{place}" in line.text:
            line = Line(line.text.format(place=PLACE_BY_ID[self.body.node].word), line.tags)
        return line

    def _promise_line(self, conv: Conversation, speaker: Person) -> Line:
        """'30分後に図書館で待ち合わせしましょう！': the due time counts from this notification."""
        rng = self.rng
        node = conv.promise_place
        place = PLACE_BY_ID[node].word
        distance = hops(self.body.node, node)
        said_at = self.now + TICK  # the next notification, which shows this line, is created then
        style = rng.random()
        if style < 0.3:
            due_local = (said_at + timedelta(minutes=40 + 10 * distance)).astimezone(TOKYO)
            due_local = due_local.replace(second=0, microsecond=0)
            bump = (30 - due_local.minute % 30) % 30
            due_local += timedelta(minutes=bump)
            clock = f"{due_local.hour}時" + ("半" if due_local.minute == 30 else "")
            text = rng.choice(PROMISE_CLOCK).format(clock=clock, place=place)
            due = due_local.astimezone(timezone.utc)
            relative = None
        elif distance >= 3 or style < 0.45:
            text = rng.choice(PROMISE_HOUR).format(place=place)
            relative = timedelta(hours=1)
        else:
            minutes = 30 if distance <= 1 else 40
            text = rng.choice(PROMISE_RELATIVE).format(minutes=minutes, place=place)
            relative = timedelta(minutes=minutes)
        if relative is not None:
            due = said_at + relative
        self._promise_seq += 1
        promise = Promise(self._promise_seq, speaker.agent_id, node, text, said_at, due, "", conv.id,
                          relative=relative)
        self.promises.append(promise)
        self.npcs[speaker.agent_id].promise = promise
        conv.state = "closing_after_promise"
        return Line(text, ("待ち合わせ",))

    def _close(self, conv: Conversation, reason: str) -> None:
        conv.state, conv.end_reason = "ended", reason
        for pid in conv.partners:
            npc = self.npcs[pid]
            npc.cooldown_until = self.now + TALK_COOLDOWN
            elsewhere = [p for p in npc.person.favourite_places if p != self.body.node]
            if npc.promise is None and elsewhere:
                npc.destination = self.rng.choice(elsewhere)  # after a talk, people go about their day
        if self.body.conversation is conv:
            self.body.conversation = None

    # ------------------------------------------------------------------ HTTP side
    def authorised(self, header: str | None) -> bool:
        return header == f"Bearer {self.api_key}"

    def handle_get(self, notification_id: str, auth: str | None) -> tuple[int, dict[str, Any]]:
        with self.lock:
            if not self.authorised(auth):
                self.violations["unauthorized"] += 1
                return 401, {"error": "unauthorized", "message": "Invalid API key."}
            step = self.by_id.get(notification_id)
            if step is None:
                return 404, {"error": "not_found", "message": "Unknown notification."}
            step.gets += 1
            return 200, step.body

    def handle_post(self, payload: Any, auth: str | None) -> tuple[int, dict[str, Any]]:
        with self.lock:
            if not self.authorised(auth):
                self.violations["unauthorized"] += 1
                return 401, {"error": "unauthorized", "message": "Invalid API key."}
            if not isinstance(payload, dict):
                return 400, _invalid("body", "The request body must be a JSON object.")
            step = self.by_id.get(str(payload.get("notification_id")))
            if step is None:
                self.violations["unknown_notification"] += 1
                return 404, {"error": "not_found", "message": "Unknown notification."}
            command, params = payload.get("command"), payload.get("params", {})
            entry = {"command": command, "params": params, "at": iso(self.now)}
            step.posts.append(entry)
            if len(step.posts) > 1:
                self.violations["second_command"] += 1
                entry.update(status=409, error="state_conflict")
                return 409, {"error": "state_conflict", "message": "This notification was already acted on.",
                             "hint": "Wait for the next notification."}
            if step is not self.steps[-1]:
                entry.update(status=409, error="notification_stale")
                latest = self.steps[-1].notification_id
                return 409, {"error": "notification_stale", "message": "A newer notification supersedes this one.",
                             "details": {"latest_notification_id": latest}}
            offered = [c for c in step.choices if c["command"] == command]
            if not offered:
                self.violations["not_in_choices"] += 1
                entry.update(status=400, error="invalid_request", field="command")
                return 400, _invalid("command", f"{command!r} is not one of this notification's choices.")
            matching = [c for c in offered if all((params or {}).get(k) == v
                                                  for k, v in (c.get("params") or {}).items())]
            choice = (matching or offered)[0]
            problems = check_params(choice, params)
            if problems:
                self.violations["schema"] += 1
                field_name, problem = problems[0]
                entry.update(status=400, error="invalid_request", field=field_name,
                             problems=[f"{f} {p}" for f, p in problems])
                return 400, _invalid(field_name, f"{field_name} {problem}")
            status, answer = self._apply(step, command, params or {})
            entry.update(status=status, answer=answer)
            if status == 200:
                step.accepted = entry
            else:
                entry["error"] = answer.get("error")
                self.world_rejections.append({"step": step.index, "command": command, "params": params,
                                              "error": answer.get("error"), "message": answer.get("message")})
            return status, answer

    # ------------------------------------------------------------------ applying commands
    def _apply(self, step: Step, command: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        body = self.body
        conv = body.conversation
        if command in INFO_COMMANDS:
            data = self._information(command)
            for node_id in _node_ids_in(data):
                self.named_in_info.setdefault(node_id, step.index)
                self.ids_seen.setdefault(node_id, step.index)
            return 200, {"command": command, "data": data}
        if command == "move":
            target = str(params.get("target_node_id"))
            if target not in PLACE_BY_ID:
                return 400, _invalid("target_node_id", f"Unknown node {target}.")
            if target == body.node:
                return 400, _invalid("target_node_id", "You are already there.")
            arrives = self.now + TICK * hops(body.node, target)
            body.moving, body.waiting_until = (target, arrives, body.node), None
            self.departures.append((self.now, body.node))
            return 200, {"ok": True, "message": "移動を開始しました", "arrives_at": ms(arrives)}
        if command == "action":
            here = PLACE_BY_ID[body.node]
            action = next((a for a in here.actions if a.action_id == params.get("action_id")), None)
            if action is None:
                return 400, {"error": "action_not_available", "message": "That action is not available here."}
            if action.cost > body.money:
                return 400, {"error": "action_not_available", "message": "Not enough money."}
            body.money -= action.cost
            if action.item:
                body.items[action.item] = body.items.get(action.item, 0) + 1
            done = self.now + TICK * action.ticks
            body.acting, body.waiting_until = (action, done), None
            return 200, {"ok": True, "message": "アクションを開始しました", "completes_at": ms(done)}
        if command == "wait":
            minutes = int(params["duration"]) * TICK_MINUTES
            body.waiting_until = self.now + timedelta(minutes=minutes)
            body.waited_minutes = minutes
            return 200, {"ok": True, "message": "待機を開始しました", "completes_at": ms(body.waiting_until)}
        if command == "use-item" or command == "use_item":
            item = params.get("item_id")
            if not body.items.get(item):
                return 400, {"error": "action_not_available", "message": "You do not have that item."}
            body.items[item] -= 1
            return 200, {"ok": True, "message": f"{item}を使いました"}
        if command == "transfer":
            return 200, {"ok": True, "message": "譲渡を提案しました"}
        if command == "conversation_start":
            return self._start_conversation(step, params)
        if command in ("accept_transfer", "transfer_accept"):
            return 200, {"ok": True, "message": "譲渡を受け取りました"}
        if command in ("reject_transfer", "transfer_reject"):
            return 200, {"ok": True, "message": "譲渡を断りました"}
        if conv is None:
            return 409, {"error": "state_conflict", "message": "No conversation."}
        if command == "conversation_reject":
            self._close(conv, "rejected_by_agent")
            return 200, {"ok": True, "message": "会話を断りました"}
        if command == "conversation_stay":
            self._partner_answers(conv, None)  # the partner speaks again
            return 200, {"ok": True, "message": "会話に残りました"}
        message = params.get("message")
        if isinstance(message, str):
            self._say(step, conv, command, message)
        if command in ("conversation_end", "end_conversation", "conversation_leave"):
            self._close(conv, "ended_by_agent")
            self.pending_event = ("conversation_ended", "会話が終了しました。（エージェントにより終了しました）")
            return 200, {"ok": True, "message": "会話を終了しました"}
        if command == "conversation_accept":
            conv.state = "active"
            self._partner_answers(conv, None)
            return 200, {"ok": True, "message": "会話を受諾しました"}
        if command == "conversation_speak":
            if conv.state == "closing":
                self._close(conv, "farewell")
                self.pending_event = ("conversation_ended", "会話が終了しました。（最大ターン数に到達しました）")
            elif conv.state == "closing_after_promise":
                self._close(conv, "promise_made")
                self.pending_event = ("conversation_ended", "会話が終了しました。（相手により終了しました）")
            else:
                self._partner_answers(conv, params.get("next_speaker_agent_id"))
            return 200, {"ok": True, "message": "発言しました"}
        return 400, _invalid("command", f"The town does not know {command}.")

    def _say(self, step: Step, conv: Conversation, command: str, message: str) -> None:
        conv.agent_lines.append({"step": step.index, "command": command, "message": message,
                                 "partner_id": step.partner_id, "partner_line": step.partner_line})
        self.talked_with.update(conv.partners)

    def _partner_answers(self, conv: Conversation, next_speaker: Any) -> None:
        speaker_id = next_speaker if next_speaker in conv.partners else conv.last_speaker
        if len(conv.partners) > 1 and next_speaker not in conv.partners:
            speaker_id = self.rng.choice(conv.partners)
        speaker = PERSON_BY_ID[speaker_id]
        line = self._next_line(conv, speaker)
        conv.turns_left -= 1
        conv.used.add(line.text)
        conv.last_line, conv.last_speaker = line, speaker_id

    def _start_conversation(self, step: Step, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        target = params.get("target_agent_id")
        npc = self.npcs.get(str(target))
        if npc is None or npc.node != self.body.node:
            return 400, _invalid("target_agent_id", "That agent is not nearby.")
        conv = self._new_conversation([npc.person.agent_id], SELF_ID)
        self.body.conversation, self.body.waiting_until = conv, None
        self._say(step, conv, "conversation_start", str(params.get("message", "")))
        if npc.promise is not None or self.rng.random() < 0.15:
            self._close(conv, "rejected_by_partner")
            self.pending_event = ("conversation_rejected", f"{npc.person.name} が会話を拒否しました。")
            return 200, {"ok": True, "message": "話しかけました"}
        conv.state = "active"
        line = self.rng.choice(npc.person.answers_to_start)
        conv.used.add(line.text)
        conv.last_line, conv.last_speaker = line, npc.person.agent_id
        return 200, {"ok": True, "message": "話しかけました"}

    def _information(self, command: str) -> dict[str, Any]:
        body = self.body
        here = PLACE_BY_ID[body.node]
        nearby = [{"agent_id": n.person.agent_id, "name": n.person.name} for n in self._nearby()]
        if command == "get_map":
            return {"town": "からくり町", "nodes": [
                {"node_id": p.node_id, "name": p.name, "adjacent": neighbours(p.node_id)} for p in PLACES]}
        if command == "get_perception":
            return {"current_node": {"node_id": here.node_id, "name": here.name},
                    "nearby_nodes": [{"node_id": n, "name": PLACE_BY_ID[n].name} for n in neighbours(here.node_id)],
                    "nearby_agents": nearby, "time": iso(self.now)}
        if command == "get_nearby_agents":
            return {"agents": nearby}
        if command == "get_available_actions":
            return {"actions": [{"action_id": a.action_id, "name": a.name, "duration_seconds": a.seconds,
                                 "cost": a.cost} for a in here.actions]}
        if command == "get_world_agents":
            return {"agents": [{"agent_id": n.person.agent_id, "name": n.person.name, "node_id": n.node}
                               for n in self.npcs.values()]}
        if command == "get_status":
            return {"money": body.money, "items": [{"item_id": k, "quantity": v} for k, v in body.items.items() if v],
                    "current_node": {"node_id": here.node_id, "name": here.name}}
        return {"events": []}

    # ------------------------------------------------------------------ reading the log
    def place_at(self, moment: datetime) -> str | None:
        """Where the agent stood at `moment` (None while walking)."""
        node, since = self.arrivals[0][1], self.arrivals[0][0]
        for at, arrived, _ in self.arrivals:
            if at <= moment:
                node, since = arrived, at
        if any(since <= left < moment and where == node for left, where in self.departures):
            return None
        return node


def _invalid(field_name: str, message: str) -> dict[str, Any]:
    return {"error": "invalid_request", "message": message, "field": field_name,
            "details": {"field": field_name}}


def _node_ids_in(data: Any) -> list[str]:
    found: list[str] = []
    text = json.dumps(data, ensure_ascii=False)
    for node_id in PLACE_BY_ID:
        if f'"{node_id}"' in text:
            found.append(node_id)
    return found

