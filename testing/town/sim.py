"""The simulated town: a world clock, the agent's body, other people, the server, and its log.

The town plays the Karakuri World server for one agent. It delivers one
Discord message at a time (`next_delivery()`), answers the agent's GET and
POST the way the contract says (`handle_get()`, `handle_post()`), applies an
accepted command to the world, and logs everything it saw (`deliveries`,
`steps`, `requests`, `promises`, `conversations`). The metrics read only
that log.

Everything the contract lets vary, varies, drawn from `random.Random(seed)`:

- the world (world.py): 6-20 places, random roads and node ids, 2-6 people
  with look-alike names;
- the Discord message: several templates, the id in every markup the contract
  names, messages without an id (`notification_id: (なし)`, people chatting),
  the same message delivered twice, an older message delivered late
  (superseded: `notification_stale` with or without the latest id, or expired),
  a message delivered after its notification expired;
- the clock: any start time (often near midnight), irregular gaps between
  notifications, times at any minute;
- the notification: ISO or millisecond times (or none), `status` present or
  not, choices in both `param_schema` shapes, `description`/`label`/neither;
- the server: a GET that first answers 503 or 429, a POST that fails with 503;
- conversations: groups of 3-4, histories of several lines, questions, lines
  that try to instruct the agent, people leaving, promises in many wordings
  (relative, clock times at any minute, 午後/朝/今夜/明日, あとで, casual),
  repeated in later histories, moved or cancelled;
- transfers of items and money from people the agent knows and does not.

Determinism: a seed gives one town, and with a deterministic agent one history.
"""

from __future__ import annotations

import json
import random
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Mapping
from zoneinfo import ZoneInfo

from . import texts
from karakuri_agent.town.schema import check_params
from .world import (
    AFTER_PROMISE, CANCELLED, FAREWELL, INSTRUCT, LEAVES, MEETING_OPENERS, MOVED, OPENERS, SELF_ID, SELF_NAME, TALK,
    TRAVEL_MINUTES, WHAT, WHICH, YES_NO, YES_NO_ANSWERS, Action, Line, Person, Planted, World, generate, plant_facts,
)

TOKYO = ZoneInfo("Asia/Tokyo")
TRAVEL = timedelta(minutes=TRAVEL_MINUTES)
GAPS = (3, 5, 7, 10, 10, 12, 15, 17)  # minutes between two notifications, when nothing else happens
EXPIRES_AFTER = timedelta(minutes=10)
MEETING_PATIENCE = timedelta(minutes=30)  # how long a partner waits at the meeting place
TALK_COOLDOWN = timedelta(minutes=60)
TALKING = ("active", "closing", "closing_after_promise")
INFO_COMMANDS = frozenset({
    "get_perception", "get_available_actions", "get_map", "get_world_agents", "get_status",
    "get_nearby_agents", "get_active_conversations", "get_event",
})
# How often each delivery form happens (the rest are fresh notifications).
NO_ID, REPEAT, LATE, EXPIRED = 0.05, 0.05, 0.04, 0.03


def ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def random_start(rng: random.Random) -> datetime:
    """A start time anywhere in the day, often shortly before midnight (Tokyo time)."""
    day = datetime(2026, rng.randint(1, 12), rng.randint(1, 28), tzinfo=TOKYO)
    if rng.random() < 0.35:
        minute = rng.randint(22 * 60, 23 * 60 + 55)
    else:
        minute = rng.randint(0, 24 * 60 - 1)
    return (day + timedelta(minutes=minute)).astimezone(timezone.utc)


@dataclass
class Promise:
    """A meeting a partner proposed; judged by where the agent is at `due` (None: no time was said)."""

    id: int
    partner_id: str
    node_id: str
    text: str
    form: str
    when: tuple[Any, ...]  # how the due time follows from the moment the line is shown
    conversation_id: str
    made_at: datetime | None = None  # when the notification showing the line was created
    due: datetime | None = None
    notification_id: str = ""
    cancelled: bool = False
    moved: bool = False
    first_free_at: datetime | None = None
    node_at_first_free: str | None = None
    arrived_at: datetime | None = None
    met: bool = False
    place_word: str = ""  # how the line named the place

    def named_as_shown(self, world: World, buildings_shown: Mapping[str, datetime]) -> bool:
        """The line names the place by a word the agent was shown: in its node label, or in its
        building's name when a text had listed that building before the meeting's time.

        The contract lets an agent learn places only from those texts; a
        synonym it was never shown (丘の上 for 展望台) names no node it can know.
        """
        place = world.place_by_id[self.node_id]
        if not self.place_word:
            return False
        if self.place_word in "".join(place.name.split()):
            return True
        seen = buildings_shown.get(self.node_id)
        return self.place_word in place.building and seen is not None and self.due is not None and seen <= self.due

    def resolve(self, shown_at: datetime) -> None:
        """The due time, counted from when the line was said (the notification that shows it)."""
        self.made_at = shown_at
        kind = self.when[0]
        if kind == "after":
            self.due = shown_at + timedelta(minutes=self.when[1])
        elif kind == "clock":
            _, hour, minute, days = self.when
            local = shown_at.astimezone(TOKYO)
            due = local.replace(hour=hour, minute=minute, second=0, microsecond=0) + timedelta(days=days)
            if days == 0 and due <= local:
                due += timedelta(days=1)  # a time of day already past means its next occurrence
            self.due = due.astimezone(timezone.utc)
        else:
            self.due = None

    def reachable(self, world: World) -> bool | None:
        if self.first_free_at is None or self.node_at_first_free is None or self.due is None:
            return None
        travel = TRAVEL * world.hops(self.node_at_first_free, self.node_id)
        return self.first_free_at + travel <= self.due

    @property
    def kept(self) -> bool:
        return self.arrived_at is not None and self.due is not None and self.arrived_at <= self.due


@dataclass
class Conversation:
    id: str
    partners: list[str]  # person ids still in it
    initiator: str  # a person id, or SELF_ID when the agent started it
    show_id: bool
    turns_left: int
    known_before: bool
    promise_place: str | None = None
    meeting: Promise | None = None
    promise: Promise | None = None
    after_promise: int = 0  # lines still to come after a promise
    state: str = "requested"  # requested | active | closing | closing_after_promise | ended
    used: set[str] = field(default_factory=set)
    history: list[tuple[str | None, str]] = field(default_factory=list)  # (speaker name or None, line)
    last_line: Line | None = None
    last_speaker: str | None = None
    agent_lines: list[dict[str, Any]] = field(default_factory=list)
    speak_offers: int = 0
    end_reason: str = ""
    everyone: list[str] = field(default_factory=list)  # every partner who took part


@dataclass
class Npc:
    person: Person
    node: str
    cooldown_until: datetime
    promise: Promise | None = None
    destination: str | None = None


@dataclass
class Body:
    """The agent as the town sees it."""

    node: str
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
    """One notification the server issued, and everything that came back for it."""

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
    participants: list[str] = field(default_factory=list)
    speak_offer_index: int | None = None
    justified_wait: bool = False
    previous_node: str | None = None
    transfer: dict[str, Any] | None = None  # {"from", "known", "what"}
    get_faults: list[int] = field(default_factory=list)  # statuses the first GETs answer with
    post_fault: int | None = None
    nearby: list[str] = field(default_factory=list)  # people at the agent's place (free notifications)
    expired_on_delivery: bool = False
    expires: datetime | None = None  # as the body states it (None when it states none)
    posts: list[dict[str, Any]] = field(default_factory=list)
    accepted: dict[str, Any] | None = None
    gets: int = 0

    @property
    def commands(self) -> set[str]:
        return {c["command"] for c in self.choices}


@dataclass
class Delivery:
    """One Discord message handed to the agent, and the requests the town saw while it was handled."""

    index: int
    discord: str
    time: datetime  # the agent's clock when it reads the message
    form: str  # fresh | repeat | late | expired | no_id
    step: Step | None
    layout: str = ""  # the template and id markup used
    requests: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class AgentRun:
    """What one invocation of the agent ended with, as a person running it would see it."""

    delivery: Delivery
    record: dict[str, Any] | None
    exit_code: int = 0
    stderr: str = ""
    seconds: float = 0.0


def live(town: "Town", agent: Callable[[Delivery], AgentRun], deliveries: int,
         progress: Callable[[AgentRun], None] | None = None) -> list[AgentRun]:
    """Deliver `deliveries` Discord messages one after another, each handled by the agent before the next."""
    runs = []
    for _ in range(deliveries):
        run = agent(town.next_delivery())
        runs.append(run)
        if progress:
            progress(run)
    return runs


class Town:
    """A town for one agent, generated from `seed`; thread-safe (the HTTP server calls in from threads)."""

    def __init__(self, seed: int = 0, *, api_key: str = "town-key", promise_chance: float = 0.45,
                 faults: bool = True, plain_ids: float = 0.2, days: int = 1, per_day: int = 0) -> None:
        self.seed = seed
        self.plain_ids = plain_ids  # the share of messages with no markup around the id
        self.promise_chance = promise_chance
        self.faults = faults  # irregular deliveries and server errors
        self.rng = random.Random(seed)
        self.world = generate(self.rng)
        self.api_key = api_key
        self.now = self.start = random_start(self.rng)
        self.lock = threading.RLock()
        start_node = self.rng.choice(self.world.places).node_id
        self.body = Body(node=start_node)
        self.npcs = {p.agent_id: Npc(p, p.home, self.start) for p in self.world.people}
        self.steps: list[Step] = []
        self.by_id: dict[str, Step] = {}
        self.deliveries: list[Delivery] = []
        self.requests: list[dict[str, Any]] = []
        self.promises: list[Promise] = []
        self.conversations: list[Conversation] = []
        self.talked_with: set[str] = set()
        self.pending_event: tuple[str, str] | None = ("agent_logged_in", "世界にログインしました。")
        self.arrivals: list[tuple[datetime, str, int]] = [(self.start, start_node, 0)]
        self.departures: list[tuple[datetime, str]] = []
        self.named_in_text: dict[str, int] = {}
        self.named_in_info: dict[str, int] = {}
        self.buildings_shown: dict[str, datetime] = {}  # node id → when a text first listed its building
        self.violations = {"not_in_choices": 0, "schema": 0, "second_command": 0, "unknown_notification": 0,
                           "unauthorized": 0, "on_dead_notification": 0, "request_without_id": 0}
        self.world_rejections: list[dict[str, Any]] = []
        self._conversation_seq = 0
        self._promise_seq = 0
        # Several days (bench_memory.py): after `per_day` notifications the clock jumps to the next morning;
        # on day 1 people tell about themselves (`planted`), on the later days they meet the agent again.
        self.days, self.per_day, self.day = days, per_day, 0
        self.day_starts: list[datetime] = [self.start]
        self.planted: dict[str, list[Planted]] = plant_facts(self.rng, self.world.people) if days > 1 else {}

    # ------------------------------------------------------------------ delivering
    def next_delivery(self) -> Delivery:
        """The next Discord message: usually a new notification, sometimes one of the irregular forms."""
        with self.lock:
            rng = self.rng
            roll = rng.random() if self.faults and self.deliveries else 1.0
            if roll < NO_ID:
                return self._deliver(texts.chatter_body(rng), "no_id", None)
            last = self.deliveries[-1] if self.deliveries else None
            if roll < NO_ID + REPEAT and last is not None and last.step is not None:
                return self._deliver(last.discord, "repeat", last.step, last.layout)
            older = self.steps[-5:-1]
            if roll < NO_ID + REPEAT + LATE and older:
                late = rng.choice(older)
                return self._deliver(late.discord, "late", late, late.variant.get("layout", ""))
            step = self.next_notification()
            if roll < NO_ID + REPEAT + LATE + EXPIRED and step.kind == "free":
                self._expire_on_delivery(step)
                return self._deliver(step.discord, "expired", step, step.variant.get("layout", ""))
            return self._deliver(step.discord, "fresh", step, step.variant.get("layout", ""))

    def _deliver(self, discord: str, form: str, step: Step | None, layout: str = "") -> Delivery:
        delivery = Delivery(len(self.deliveries), discord, self.now, form, step, layout)
        self.deliveries.append(delivery)
        return delivery

    def _expire_on_delivery(self, step: Step) -> None:
        """The message reached the agent after its notification expired (a slow relay)."""
        step.expired_on_delivery = True
        if "created_at" not in step.body:
            step.body["created_at"] = iso(self.now)  # an expiry the agent cannot see would judge nothing
        created, expires = self.now - EXPIRES_AFTER - timedelta(minutes=5), self.now - timedelta(minutes=5)
        as_ms = isinstance(step.body.get("created_at"), int)
        step.body["created_at"] = ms(created) if as_ms else iso(created)
        step.body["expires_at"] = ms(expires) if as_ms else iso(expires)
        step.expires = expires
        if "status" in step.body and self.rng.random() < 0.5:
            step.body["status"] = "expired"

    # ------------------------------------------------------------------ issuing
    def next_notification(self) -> Step:
        """Advance the world to the next thing the agent hears about, and issue it."""
        with self.lock:
            self._settle_unanswered()
            self._next_day_when_due()
            for _ in range(500):
                self._advance(timedelta(minutes=self.rng.choice(GAPS)))
                step = self._pick_event()
                if step is not None:
                    return step
            raise RuntimeError("the town found nothing to tell the agent for 500 ticks")

    def _next_day_when_due(self) -> None:
        """With several days: after a day's notifications, the next morning (10:00 in Tokyo), the body at rest."""
        if self.day >= self.days - 1 or not self.per_day or len(self.steps) < self.per_day * (self.day + 1):
            return
        if self.body.conversation is not None:
            self._close(self.body.conversation, "day_ended")
            self.body.conversation = None
        local = self.now.astimezone(TOKYO)
        morning = datetime(local.year, local.month, local.day, 10, 0, tzinfo=TOKYO) + timedelta(days=1)
        self.body.moving = self.body.acting = None
        self.body.waiting_until = None
        self.now = morning.astimezone(timezone.utc)
        self.day += 1
        self.day_starts.append(self.now)
        for npc in self.npcs.values():
            npc.cooldown_until = self.now

    def _told_line(self, speaker: Person) -> Line | None:
        """On day 1, now and then, something the speaker tells about themselves, or takes back."""
        if self.day != 0 or not self.planted or self.rng.random() > 0.45:
            return None
        facts = self.planted.get(speaker.agent_id, [])
        for fact in facts:
            if fact.said_at is not None and fact.retraction and fact.retracted_at is None and self.rng.random() < 0.5:
                fact.retracted_at = self.now
                return Line(fact.retraction, "told")
        for fact in facts:
            if fact.said_at is None:
                fact.said_at = self.now
                return Line(fact.text, "told")
        return None

    def _advance(self, delta: timedelta) -> None:
        self.now += delta
        self._walk_people()
        body = self.body
        if body.moving is None:
            self._note_arrival(self.now)

    def _settle_unanswered(self) -> None:
        """What happens when nothing was accepted for the last notification."""
        if not self.steps:
            return
        last = self.steps[-1]
        if "status" in last.body and last.accepted is None and self.rng.random() < 0.5:
            last.body["status"] = "expired"  # the server let it lapse
        if last.accepted is not None:
            return
        conv = self.body.conversation
        if last.kind == "request" and conv is not None:
            self._close(conv, "ignored")
        elif last.kind in ("turn", "closing", "inactive") and conv is not None:
            self._close(conv, "timeout")
            self.pending_event = ("conversation_ended", "会話が終了しました。（応答タイムアウトで終了しました）")

    def _pick_event(self) -> Step | None:
        body = self.body
        conv = body.conversation
        world = self.world
        if conv is not None and conv.state in TALKING and conv.last_line is not None:
            return self._issue_turn(conv)
        if body.moving and body.moving[1] <= self.now:
            target, arrived, origin = body.moving
            body.previous_node, body.node, body.moving = origin, target, None
            self.arrivals.append((arrived, target, len(self.steps)))
            self._note_arrival(arrived)
            return self._issue_free("movement_completed", f"{world.place_by_id[target].label} に到着しました。")
        if body.acting and body.acting[1] <= self.now:
            action, _ = body.acting
            body.acting = None
            lines = [f"「{action.name}」が完了しました。"]
            if action.cost:
                lines.append(f"💰 -{action.cost:,}円 → 残高: {body.money:,}円")
            if action.item:
                lines.append(f"📦 {action.item} ×1 を入手")
            return self._issue_free("action_completed", "\n".join(lines))
        if self.pending_event is not None:
            kind, line = self.pending_event
            self.pending_event = None
            return self._issue_free(kind, line)
        free = body.moving is None and body.acting is None and body.conversation is None
        if free:
            meeting = self._meeting_ready()
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
            if self.rng.random() < 0.05:
                return self._issue_transfer(self.rng.choice(list(self.npcs.values())))
        if free and body.waiting_until is None:
            return self._issue_free("idle_reminder_fired", "前回の行動から一定時間が経過しました。")
        return None

    def _note_arrival(self, arrived: datetime) -> None:
        for promise in self.promises:
            if (promise.arrived_at is None and promise.made_at is not None and promise.node_id == self.body.node
                    and not promise.cancelled and promise.made_at < arrived):
                promise.arrived_at = arrived

    # ------------------------------------------------------------------ people
    def _walk_people(self) -> None:
        body, world, rng = self.body, self.world, self.rng
        busy = set(body.conversation.partners) if body.conversation else set()
        for npc in self.npcs.values():
            if npc.person.agent_id in busy:
                continue
            promise = npc.promise
            if promise is not None:
                if promise.cancelled or promise.met or promise.due is None or self.now > promise.due + MEETING_PATIENCE:
                    npc.promise = None
                elif npc.node != promise.node_id and \
                        self.now >= promise.due - TRAVEL * (world.hops(npc.node, promise.node_id) + 1):
                    npc.node = world.step_towards(npc.node, promise.node_id)
                continue
            roll = rng.random()
            if npc.destination and npc.node != npc.destination:
                if roll < 0.7:
                    npc.node = world.step_towards(npc.node, npc.destination)
                continue
            npc.destination = None
            if roll < 0.08:
                npc.node = world.step_towards(npc.node, body.node)
            elif roll < 0.16:
                npc.node = rng.choice(world.neighbours(npc.node))
            elif roll < 0.26:
                npc.destination = rng.choice(npc.person.favourite_places)

    def _nearby(self) -> list[Npc]:
        busy = set(self.body.conversation.partners) if self.body.conversation else set()
        return [n for n in self.npcs.values() if n.node == self.body.node and n.person.agent_id not in busy]

    def _meeting_ready(self) -> Promise | None:
        for promise in self.promises:
            npc = self.npcs[promise.partner_id]
            if (not promise.met and not promise.cancelled and promise.due is not None and npc.promise is promise
                    and npc.node == promise.node_id and self.body.node == promise.node_id
                    and promise.due - TRAVEL <= self.now <= promise.due + MEETING_PATIENCE):
                return promise
        return None

    def _someone_calls(self) -> Npc | None:
        """Someone nearby talks to the agent; now and then someone walks up from elsewhere to do so."""
        candidates = [n for n in self._nearby() if n.cooldown_until <= self.now and n.promise is None]
        if candidates and self.rng.random() < 0.45:
            return self.rng.choice(candidates)
        walkers = [n for n in self.npcs.values() if n.cooldown_until <= self.now and n.promise is None]
        if walkers and self.rng.random() < 0.1:
            caller = self.rng.choice(walkers)
            caller.node = self.body.node
            return caller
        return None

    # ------------------------------------------------------------------ building notifications
    def _new_step(self, kind: str, ntype: str, text: str, choices: list[dict[str, Any]], *,
                  event: str, extra: dict[str, Any] | None = None, variant: dict[str, Any] | None = None) -> Step:
        rng = self.rng
        index = len(self.steps)
        nid = f"notif-{rng.choice(['', 'T', '01J'])}{self.seed}x{index:04d}{rng.choice(['', '_a', '-b'])}"
        variant = dict(variant or {})
        created, expires = self.now, self.now + EXPIRES_AFTER
        time_format = rng.choices(["unix_ms", "iso", "missing"], [0.4, 0.55, 0.05])[0]
        variant["time_format"] = time_format
        body: dict[str, Any] = {"notification_id": nid}
        if time_format != "missing":
            body["created_at"] = ms(created) if time_format == "unix_ms" else iso(created)
            body["expires_at"] = ms(expires) if time_format == "unix_ms" else iso(expires)
        if rng.random() < 0.8:
            body["status"] = "pending"
        note: dict[str, Any] = {"type": ntype, "text": text, "choices": choices}
        note.update(extra or {})
        body["notification"] = note
        discord, template, markup = texts.discord_body(rng, nid, event, self.plain_ids)
        variant["layout"] = f"{template}, {markup}"
        step = Step(index, nid, ntype, self.now, self.body.node, kind, choices, body, discord, variant,
                    previous_node=self.body.previous_node)
        if time_format != "missing":
            step.expires = expires
        if self.faults:
            roll = rng.random()
            step.get_faults = [503] if roll < 0.05 else [429] if roll < 0.09 else []
            step.post_fault = 503 if rng.random() < 0.03 else None
            variant["server_fault"] = f"GET {step.get_faults[0]}" if step.get_faults else \
                "POST 503" if step.post_fault else "none"
        self.steps.append(step)
        self.by_id[nid] = step
        self._note_text(step, text, choices)
        return step

    def _note_text(self, step: Step, text: str, choices: list[dict[str, Any]]) -> None:
        for node_id in texts.named_nodes(text):
            if node_id in self.world.place_by_id:
                self.named_in_text.setdefault(node_id, step.index)
        for place in self.world.places:
            if place.building and f"{place.building} [{place.node_id}]" in text:
                self.buildings_shown.setdefault(place.node_id, step.time)

    def _issue_free(self, ntype: str, event: str) -> Step:
        body, rng, world = self.body, self.rng, self.world
        here = world.place_by_id[body.node]
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
        others = [p.node_id for p in world.places if p.node_id != body.node]
        choices.append(builder.move(others if move_enum else None))
        choices.append(builder.wait())
        if nearby:
            start_enum = rng.random() < 0.5
            variant["start_target"] = "enum" if start_enum else "free_string"
            choices.append(builder.transfer())
            choices.append(builder.conversation_start([n.person.agent_id for n in nearby] if start_enum else None))
        for command in ("get_available_actions", "get_perception", "get_map", "get_world_agents", "get_status",
                        "get_nearby_agents"):
            choices.append(builder.info(command))
        rng.shuffle(choices)
        named = rng.random() < 0.6
        location = ntype != "agent_logged_in" and rng.random() < 0.9
        variant["nearby_nodes"] = "named" if named else "ids_only"
        variant["location_block"] = location
        variant.update(builder.variant)
        text = texts.free_text(world, event, now=self.now, here=here, neighbours=world.neighbours(body.node),
                               named=named, nearby_count=len(nearby), money=body.money,
                               items=sum(body.items.values()), weather=rng.choice(texts.WEATHERS),
                               choices=choices, actions=affordable, location=location)
        step = self._new_step("free", ntype, text, choices, variant=variant, event=event.split("\n")[0])
        step.nearby = [n.person.agent_id for n in nearby]
        step.justified_wait = any(
            p.node_id == body.node and not p.met and not p.cancelled and p.due is not None
            and p.made_at is not None and p.made_at < self.now <= p.due + MEETING_PATIENCE
            for p in self.promises
        )
        for promise in self.promises:
            if promise.first_free_at is None and promise.made_at is not None and promise.made_at < self.now:
                promise.first_free_at, promise.node_at_first_free = self.now, body.node
        return step

    def _issue_request(self, npc: Npc, *, meeting: Promise | None = None) -> Step:
        rng, world = self.rng, self.world
        person = npc.person
        partners = [person.agent_id]
        if meeting is None and rng.random() < 0.4:  # a group: others walk up and join
            others = [n for n in self.npcs.values() if n is not npc and n.promise is None]
            for joiner in rng.sample(others, min(len(others), rng.randint(1, 2))):
                joiner.node = self.body.node
                partners.append(joiner.person.agent_id)
        conv = self._new_conversation(partners, person.agent_id, meeting=meeting)
        if meeting is not None:
            meeting.met = True
            line = Line(rng.choice(MEETING_OPENERS).format(place=rng.choice(world.place_by_id[meeting.node_id].words)),
                        "meeting")
        else:
            line = Line(rng.choice(OPENERS), "opener")
        self._hear(conv, person.agent_id, line)
        self.body.conversation = conv
        self.body.waiting_until = None
        builder = texts.ChoiceBuilder(rng)
        choices = [builder.accept(), builder.reject()]
        extra, variant = self._conversation_json(conv, builder)
        with_ids = rng.random() < 0.5
        variant["request_participants_line"] = with_ids
        text = texts.request_text(world, person.name, line.text, self._participants(conv) if with_ids else None,
                                  choices)
        event = f"{person.name} が話しかけています。" + (f"「{line.text}」" if rng.random() < 0.5 else "")
        step = self._new_step("request", "conversation_requested", text, choices, extra=extra, event=event,
                              variant=variant)
        self._tag(step, conv)
        return step

    def _issue_turn(self, conv: Conversation) -> Step:
        rng = self.rng
        builder = texts.ChoiceBuilder(rng)
        others = list(conv.partners)
        if conv.state == "closing":
            kind, ntype = "closing", "conversation_closing"
            choices = [builder.speak(others, closing=True)]
        elif conv.state == "active" and conv.turns_left > 1 and conv.agent_lines and rng.random() < 0.07:
            kind, ntype = "inactive", "conversation_inactive_check"
            choices = [builder.stay(), builder.leave()]
        else:
            kind, ntype = "turn", "conversation_message"
            choices = [builder.speak(others), builder.end(others)]
        extra, variant = self._conversation_json(conv, builder)
        shown = conv.history[-rng.randint(1, 6):]
        variant["history_lines"] = len(shown)
        text = texts.turn_text(self.world, self._participants(conv), shown, choices, inactive=kind == "inactive")
        speaker = self.world.person_by_id[conv.last_speaker]
        event = f"{speaker.name}: 「{conv.last_line.text}」" if rng.random() < 0.5 else f"{speaker.name} が発言しました。"
        step = self._new_step(kind, ntype, text, choices, extra=extra, event=event, variant=variant)
        self._tag(step, conv)
        promise = conv.promise
        if promise is not None and not promise.notification_id:
            promise.resolve(self.now)  # the line is said when the notification showing it is created
            promise.notification_id = step.notification_id
        if kind == "turn":
            step.speak_offer_index = conv.speak_offers
            conv.speak_offers += 1
        return step

    def _issue_transfer(self, npc: Npc) -> Step:
        rng = self.rng
        person = npc.person
        if rng.random() < 0.5:
            what: dict[str, Any] = {"item": rng.choice(person.gifts), "quantity": rng.choice([1, 1, 2])}
            summary = f"{what['item']}×{what['quantity']}"
        else:
            what = {"money": rng.choice([100, 300, 500, 1000])}
            summary = f"{what['money']:,}円"
        builder = texts.ChoiceBuilder(rng)
        names = ("accept_transfer", "reject_transfer") if rng.random() < 0.5 else ("transfer_accept", "transfer_reject")
        choices = [builder.plain(names[0], "譲渡を受け入れる"), builder.plain(names[1], "譲渡を拒否する")]
        text = texts.transfer_text(self.world, person.name, summary, choices)
        extra: dict[str, Any] = {}
        if rng.random() < 0.5:
            extra["participants"] = [{"id": person.agent_id, "name": person.name}]
        step = self._new_step("transfer", "transfer_requested", text, choices, extra=extra,
                              event=f"{person.name} から {summary} の譲渡提案が届きました。",
                              variant={"transfer_names": names[0], "transfer_of": next(iter(what))})
        step.partner_id = person.agent_id
        step.transfer = {"from": person.agent_id, "known": person.agent_id in self.talked_with, "what": what}
        return step

    def _tag(self, step: Step, conv: Conversation) -> None:
        step.conversation = conv.id
        step.partner_id = conv.last_speaker
        step.partner_line = conv.last_line
        step.participants = list(conv.partners)

    def _participants(self, conv: Conversation) -> list[tuple[str, str]]:
        people = [(self.world.person_by_id[p].name, p) for p in conv.partners]
        people.insert(1 if conv.initiator != SELF_ID else 0, (SELF_NAME, SELF_ID))
        return people

    def _conversation_json(self, conv: Conversation, builder: texts.ChoiceBuilder) -> tuple[dict[str, Any], dict[str, Any]]:
        rng = self.rng
        extra: dict[str, Any] = {}
        in_json = rng.random() < 0.6
        variant = {"participants": "json" if in_json else "text_only", "group": len(conv.partners) > 1,
                   **builder.variant}
        if in_json:
            extra["participants"] = [{"id": pid, "name": name} for name, pid in self._participants(conv)]
            ids = {self.world.person_by_id[p].name: p for p in conv.everyone} | {SELF_NAME: SELF_ID}
            messages = []
            for speaker, line in conv.history[-rng.randint(1, 8):]:
                if speaker is None:
                    continue
                message: dict[str, Any] = {"speaker": speaker, "message": line}
                if rng.random() < 0.5:
                    message["speaker_id"] = ids.get(speaker, "")
                messages.append(message)
            extra["conversation_messages"] = messages
        if conv.show_id:
            extra["conversation_id"] = conv.id
        variant["conversation_id"] = conv.show_id
        return extra, variant

    def _new_conversation(self, partners: list[str], initiator: str, *, meeting: Promise | None = None) -> Conversation:
        self._conversation_seq += 1
        rng = self.rng
        promise_place = None
        if meeting is None and rng.random() < self.promise_chance:
            promise_place = rng.choice([p.node_id for p in self.world.places if p.node_id != self.body.node])
        conv = Conversation(
            id=f"conv-{self.seed}-{self._conversation_seq}", partners=list(partners), initiator=initiator,
            show_id=rng.random() < 0.5, turns_left=rng.randint(3, 7), known_before=partners[0] in self.talked_with,
            promise_place=promise_place, meeting=meeting, everyone=list(partners),
        )
        self.conversations.append(conv)
        return conv

    # ------------------------------------------------------------------ what people say
    def _hear(self, conv: Conversation, speaker_id: str, line: Line) -> None:
        name = self.world.person_by_id[speaker_id].name
        conv.used.add(line.text)
        conv.history.append((name, line.text))
        conv.last_line, conv.last_speaker = line, speaker_id

    def _talk_line(self, conv: Conversation, speaker: Person) -> Line:
        """Something to say: news, a question (yes/no, which, what), or a line that tries to instruct."""
        rng, world = self.rng, self.world
        told = self._told_line(speaker)
        if told is not None:
            return told
        first, second = rng.sample(world.places, 2) if len(world.places) > 1 else (world.places[0],) * 2
        words = {"place": rng.choice(first.words), "place2": rng.choice(second.words),
                 "other": rng.choice([p.name for p in world.people if p is not speaker] or [speaker.name])}
        for _ in range(6):
            roll = rng.random()
            if roll < 0.4:
                line = Line(rng.choice(TALK).format(**words))
            elif roll < 0.6:
                line = Line(rng.choice(YES_NO).format(**words), "yesno", YES_NO_ANSWERS)
            elif roll < 0.72:
                text, options = rng.choice(WHICH)
                line = Line(text.format(**words), "which", tuple(o.format(**words) for o in options))
            elif roll < 0.9:
                line = Line(rng.choice(WHAT), "what")
            else:
                line = Line(rng.choice(INSTRUCT).format(**words), "instruct")
            if line.text not in conv.used:
                return line
        return line

    def _partner_answers(self, conv: Conversation, next_speaker: Any) -> None:
        """The partners' lines until it is the agent's turn again (in a group, one or two speak)."""
        rng = self.rng
        speaker_id = next_speaker if next_speaker in conv.partners else rng.choice(conv.partners)
        for _ in range(rng.randint(1, 2) if len(conv.partners) > 1 else 1):
            line = self._next_line(conv, self.world.person_by_id[speaker_id])
            conv.turns_left -= 1
            self._hear(conv, speaker_id, line)
            if conv.state != "active" or len(conv.partners) == 1:
                break
            if rng.random() < 0.15:  # someone leaves the group after speaking
                conv.partners.remove(speaker_id)
                conv.history.append((None, LEAVES.format(name=self.world.person_by_id[speaker_id].name)))
                self._cool_down(speaker_id)
            speaker_id = rng.choice(conv.partners)
            if speaker_id == conv.last_speaker and len(conv.partners) > 1:
                break

    def _next_line(self, conv: Conversation, speaker: Person) -> Line:
        rng = self.rng
        if conv.state == "closing_after_promise":
            promise = conv.promise
            if conv.after_promise <= 0:
                conv.state = "closing"
                return Line(rng.choice(FAREWELL), "farewell")
            conv.after_promise -= 1
            roll = rng.random()
            if promise is not None and not promise.cancelled and roll < 0.15:
                moved = rng.choice([p for p in self.world.places if p.node_id != promise.node_id])
                promise.node_id, promise.moved = moved.node_id, True
                promise.arrived_at = None
                promise.place_word = rng.choice(moved.words)
                return Line(MOVED.format(place=promise.place_word), "promise")
            if promise is not None and not promise.cancelled and roll < 0.27:
                promise.cancelled = True
                return Line(rng.choice(CANCELLED), "promise")
            return Line(rng.choice(AFTER_PROMISE), "farewell")
        if conv.promise_place is not None and conv.promise is None and (conv.turns_left <= 1 or rng.random() < 0.3):
            return self._promise_line(conv, speaker)  # a proposal to meet may come at any turn
        if conv.turns_left <= 1:
            conv.state = "closing"
            return Line(rng.choice(FAREWELL), "farewell")
        return self._talk_line(conv, speaker)

    def _promise_line(self, conv: Conversation, speaker: Person) -> Line:
        """A proposal to meet, in one of many wordings; the due time resolves when the line is shown."""
        rng = self.rng
        node = conv.promise_place or ""
        place = rng.choice(self.world.place_by_id[node].words)
        distance = self.world.hops(self.body.node, node)
        soon = self.now + timedelta(minutes=20)  # about when the line will be shown
        style = rng.random()
        if style < 0.3:
            minutes = rng.choice([20, 30, 45, 50, 90]) + 10 * distance
            minutes -= minutes % 5
            text = rng.choice(["{n}後に{p}で待ち合わせしよう！", "行く行く。{n}後に{p}な。", "じゃあ{n}後、{p}で会おうね。"])
            form, when = "N分後", ("after", minutes)
        elif style < 0.4:
            text, form, when = "1時間後に{p}で！", "1時間後", ("after", 60)
        elif style < 0.75:
            local = (soon + timedelta(minutes=rng.randint(30, 120) + 10 * distance)).astimezone(TOKYO)
            hour, minute = local.hour, local.minute
            clock = _clock_words(hour, minute, rng)
            text = rng.choice(["{c}に{p}で待ち合わせしよう。", "{c}、{p}で。遅れんなよ", "{c}に{p}集合ね！"]).replace("{c}", clock)
            form, when = "時刻", ("clock", hour, minute, 0)
        elif style < 0.88:
            hour = rng.randint(9, 20)
            minute = rng.choice([0, 0, 15, 30, 40])
            text = f"じゃあ明日{_clock_words(hour, minute, rng, plain=True)}、{{p}}で。"
            form, when = "明日", ("clock", hour, minute, 1)
        else:
            text, form, when = rng.choice(["あとで{p}で会おう！", "またあとで{p}に寄ってね。"]), "あとで", ("later",)
        text = text.replace("{n}", _duration_words(when[1]) if when[0] == "after" else "").replace("{p}", place)
        self._promise_seq += 1
        promise = Promise(self._promise_seq, speaker.agent_id, node, text, form, when, conv.id, place_word=place)
        self.promises.append(promise)
        self.npcs[speaker.agent_id].promise = promise
        conv.promise = promise
        conv.after_promise = rng.randint(0, 2)
        conv.state = "closing_after_promise"
        return Line(text, "promise")

    def _close(self, conv: Conversation, reason: str) -> None:
        conv.state, conv.end_reason = "ended", reason
        for pid in conv.partners:
            self._cool_down(pid)
        if self.body.conversation is conv:
            self.body.conversation = None

    def _cool_down(self, person_id: str) -> None:
        npc = self.npcs[person_id]
        npc.cooldown_until = self.now + TALK_COOLDOWN
        elsewhere = [p for p in npc.person.favourite_places if p != self.body.node]
        if npc.promise is None and elsewhere:
            npc.destination = self.rng.choice(elsewhere)

    # ------------------------------------------------------------------ HTTP side
    def authorised(self, header: str | None) -> bool:
        return header == f"Bearer {self.api_key}"

    def _log(self, method: str, notification_id: str, status: int, command: str | None = None) -> None:
        delivery = self.deliveries[-1] if self.deliveries else None
        entry = {"method": method, "notification_id": notification_id, "status": status, "command": command,
                 "delivery": delivery.index if delivery else None}
        self.requests.append(entry)
        if delivery is not None:
            delivery.requests.append(entry)
            if delivery.form == "no_id":
                self.violations["request_without_id"] += 1

    def handle_get(self, notification_id: str, auth: str | None) -> tuple[int, dict[str, Any], dict[str, str]]:
        with self.lock:
            if not self.authorised(auth):
                self.violations["unauthorized"] += 1
                return 401, {"error": "unauthorized", "message": "Invalid API key."}, {}
            step = self.by_id.get(notification_id)
            if step is None:
                self._log("GET", notification_id, 404)
                return 404, {"error": "not_found", "message": "Unknown notification."}, {}
            step.gets += 1
            if step.get_faults:
                status = step.get_faults.pop(0)
                self._log("GET", notification_id, status)
                if status == 429:
                    return 429, {"error": "rate_limited", "message": "Too many requests."}, {"Retry-After": "0"}
                return status, {"error": "service_unavailable", "message": "Try again shortly."}, {}
            self._log("GET", notification_id, 200)
            return 200, step.body, {}

    def dead(self, step: Step) -> str | None:
        """Why the notification may get no command now (processed or expired), or None."""
        status = step.body.get("status")
        if status in ("processed", "expired"):
            return str(status)
        if step.expires is not None and step.expires <= self.now:
            return "expired"
        return None

    def handle_post(self, payload: Any, auth: str | None) -> tuple[int, dict[str, Any]]:
        with self.lock:
            if not self.authorised(auth):
                self.violations["unauthorized"] += 1
                return 401, {"error": "unauthorized", "message": "Invalid API key."}
            if not isinstance(payload, dict):
                return 400, _invalid("body", "The request body must be a JSON object.")
            step = self.by_id.get(str(payload.get("notification_id")))
            command, params = payload.get("command"), payload.get("params", {})
            self._log("POST", str(payload.get("notification_id")), 0, command if isinstance(command, str) else None)
            entry_log = self.requests[-1]
            if step is None:
                self.violations["unknown_notification"] += 1
                entry_log["status"] = 404
                return 404, {"error": "not_found", "message": "Unknown notification."}
            status, answer = self._post(step, command, params)
            entry_log["status"] = status
            return status, answer

    def _post(self, step: Step, command: Any, params: Any) -> tuple[int, dict[str, Any]]:
        entry = {"command": command, "params": params, "at": iso(self.now)}
        step.posts.append(entry)
        if len(step.posts) > 1:
            self.violations["second_command"] += 1
            entry.update(status=409, error="state_conflict")
            return 409, {"error": "state_conflict", "message": "This notification was already acted on.",
                         "hint": "Wait for the next notification."}
        dead = self.dead(step)
        if dead is not None:
            self.violations["on_dead_notification"] += 1
            error = "notification_expired" if dead == "expired" else "state_conflict"
            entry.update(status=409, error=error)
            return 409, {"error": error, "message": f"The notification is {dead}."}
        if step is not self.steps[-1]:
            entry.update(status=409, error="notification_stale")
            answer: dict[str, Any] = {"error": "notification_stale", "message": "A newer notification supersedes this one."}
            if self.rng.random() < 0.5:
                answer["details"] = {"latest_notification_id": self.steps[-1].notification_id}
            return 409, answer
        offered = [c for c in step.choices if c["command"] == command]
        if not offered:
            self.violations["not_in_choices"] += 1
            entry.update(status=400, error="invalid_request", field="command")
            return 400, _invalid("command", f"{command!r} is not one of this notification's choices.")
        matching = [c for c in offered if all((params or {}).get(k) == v for k, v in (c.get("params") or {}).items())]
        choice = (matching or offered)[0]
        problems = check_params(choice, params)
        if problems:
            self.violations["schema"] += 1
            field_name, problem = problems[0]
            entry.update(status=400, error="invalid_request", field=field_name,
                         problems=[f"{f} {p}" for f, p in problems])
            return 400, _invalid(field_name, f"{field_name} {problem}")
        if step.post_fault:
            entry.update(status=step.post_fault, error="service_unavailable")
            return step.post_fault, {"error": "service_unavailable", "message": "Try again later."}
        status, answer = self._apply(step, command, params or {})
        entry.update(status=status, answer=answer)
        if status == 200:
            step.accepted = entry
            if "status" in step.body:
                step.body["status"] = "processed"
        else:
            entry["error"] = answer.get("error")
            self.world_rejections.append({"step": step.index, "command": command, "params": params,
                                          "error": answer.get("error"), "message": answer.get("message")})
        return status, answer

    # ------------------------------------------------------------------ applying commands
    def _apply(self, step: Step, command: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        body, world = self.body, self.world
        conv = body.conversation
        if command in INFO_COMMANDS:
            data = self._information(command)
            for node_id in _node_ids_in(data, world):
                self.named_in_info.setdefault(node_id, step.index)
            return 200, {"command": command, "data": data}
        if command == "move":
            target = str(params.get("target_node_id"))
            if target not in world.place_by_id:
                return 400, _invalid("target_node_id", f"Unknown node {target}.")
            if target == body.node:
                return 409, {"error": "state_conflict", "message": "You are already there."}
            arrives = self.now + TRAVEL * world.hops(body.node, target)
            body.moving, body.waiting_until = (target, arrives, body.node), None
            self.departures.append((self.now, body.node))
            return 200, {"ok": True, "message": "移動を開始しました", "arrives_at": ms(arrives)}
        if command == "action":
            here = world.place_by_id[body.node]
            action = next((a for a in here.actions if a.action_id == params.get("action_id")), None)
            if action is None:
                return 400, {"error": "action_not_available", "message": "That action is not available here."}
            if action.cost > body.money:
                return 400, {"error": "action_not_available", "message": "Not enough money."}
            body.money -= action.cost
            if action.item:
                body.items[action.item] = body.items.get(action.item, 0) + 1
            done = self.now + timedelta(minutes=action.minutes)
            body.acting, body.waiting_until = (action, done), None
            return 200, {"ok": True, "message": "アクションを開始しました", "completes_at": ms(done)}
        if command == "wait":
            minutes = int(params["duration"]) * 10
            body.waiting_until = self.now + timedelta(minutes=minutes)
            body.waited_minutes = minutes
            return 200, {"ok": True, "message": "待機を開始しました", "completes_at": ms(body.waiting_until)}
        if command in ("use-item", "use_item"):
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
            self._partner_answers(conv, None)
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
            else:
                self._partner_answers(conv, params.get("next_speaker_agent_id"))
            return 200, {"ok": True, "message": "発言しました"}
        return 400, _invalid("command", f"The town does not know {command}.")

    def _say(self, step: Step, conv: Conversation, command: str, message: str) -> None:
        conv.agent_lines.append({"step": step.index, "command": command, "message": message,
                                 "partner_id": step.partner_id, "partner_line": step.partner_line,
                                 "participants": list(step.participants or conv.partners)})
        conv.history.append((SELF_NAME, message))
        self.talked_with.update(conv.partners)

    def _start_conversation(self, step: Step, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        npc = self.npcs.get(str(params.get("target_agent_id")))
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
        self._hear(conv, npc.person.agent_id, self._talk_line(conv, npc.person))
        return 200, {"ok": True, "message": "話しかけました"}

    def _information(self, command: str) -> dict[str, Any]:
        body, world = self.body, self.world
        here = world.place_by_id[body.node]
        nearby = [{"agent_id": n.person.agent_id, "name": n.person.name} for n in self._nearby()]
        if command == "get_map":
            return {"town": world.name, "nodes": [
                {"node_id": p.node_id, "name": p.name, "adjacent": world.neighbours(p.node_id)} for p in world.places]}
        if command == "get_perception":
            return {"current_node": {"node_id": here.node_id, "name": here.name},
                    "nearby_nodes": [{"node_id": n, "name": world.place_by_id[n].name}
                                     for n in world.neighbours(here.node_id)],
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


def _duration_words(minutes: int) -> str:
    """30分, 1時間, 1時間20分: how long from now, as people say it."""
    hours, rest = divmod(minutes, 60)
    if not hours:
        return f"{rest}分"
    return f"{hours}時間" + (f"{rest}分" if rest else "")


def _clock_words(hour: int, minute: int, rng: random.Random, *, plain: bool = False) -> str:
    """A time of day as people say it: 14時, 午後2時15分, 朝8時半, 今夜9時, 0時40分, 21:05."""
    tail = "" if minute == 0 else "半" if minute == 30 and rng.random() < 0.6 else f"{minute}分"
    if not plain and rng.random() < 0.2:
        return f"{hour}:{minute:02d}"
    if plain or rng.random() < 0.4:
        return f"{hour}時{tail}"
    if 5 <= hour <= 10:
        return f"朝{hour}時{tail}"
    if 19 <= hour <= 23:
        return f"今夜{hour - 12}時{tail}"
    if 13 <= hour <= 18:
        return f"午後{hour - 12}時{tail}"
    return f"{hour}時{tail}"


def _invalid(field_name: str, message: str) -> dict[str, Any]:
    return {"error": "invalid_request", "message": message, "field": field_name, "details": {"field": field_name}}


def _node_ids_in(data: Any, world: World) -> list[str]:
    text = json.dumps(data, ensure_ascii=False)
    return [node_id for node_id in world.place_by_id if f'"{node_id}"' in text]
