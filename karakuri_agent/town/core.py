"""The engine town's state and clock: the agent's body, residents, conversations, timers, the log, issuing.

`TownCore` is what the referee (rules.py), the residents (life.py, talk.py),
the timers (events.py) and the offers (gifts.py) read and change; town.py's
`EngineTown` adds the endpoints and the dispatch of timers over it, so none
of them imports the town whole. Every notification and answer is logged
(`steps`, `events`); the tests' metrics read only that log.

Timers as the engine has them: a move arrives after `path length x
move_ms`; an action or wait completes after its duration; an idle agent hears
an idle reminder after `idle_interval`; a conversation turn left unanswered
past `turn_timeout` ends the conversation (`turn_timeout`); a request left
unanswered past `accept_timeout` is dropped.

Seeded variation: the map and catalogue, the residents (2-5) and their
scripts, the engine text generation (`new` / `old`), the share of choices
with id enums, the schema shape, whether `participants` /
`conversation_messages` come with the text, times as ISO or milliseconds,
and a world clock months away from the machine's.
"""

from __future__ import annotations

import heapq
import random
import threading
from datetime import datetime, timedelta, timezone
from typing import Any

from . import newer, texts
from .choices import Choices
from .lines import PERSONAS
from .relay import Relay
from .entities import Body, Conversation, Delivery, Event, Resident, Step
from .world import ITEMS, SELF_ID, SELF_NAME, SELF_SHORT_NAME, distance, generate

API_KEY = "engine-town-key"
TICK = timedelta(minutes=10)


def ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def start_time(rng: random.Random) -> datetime:
    """Months away from the machine's clock (the world's time is the server's, not the machine's)."""
    year, month = rng.choice(((2026, 3), (2026, 5), (2026, 7), (2027, 2), (2027, 6), (2027, 9)))
    local = datetime(year, month, rng.randint(1, 27), rng.randint(6, 21), rng.randint(0, 59), tzinfo=texts.TOKYO)
    return local.astimezone(timezone.utc)


class TownCore:
    """The town's state and clock: what the rules, the residents and the timers read and change
    (EngineTown adds the endpoints and the event dispatch over it)."""

    def __init__(self, seed: int, *, style: str | None = None, api_key: str = API_KEY, enums: float | None = None,
                 per_action: float = 0.75, self_name: str = SELF_NAME, you: str = SELF_SHORT_NAME,
                 relay: Relay = Relay(), start_hour: int | None = None, login: str = "spawn",
                 generation: str = "older", namesakes: bool = False) -> None:
        """`self_name`: the agent's name in every text, `you` what residents call it; `relay`: how a notification
        reaches it as a Discord message (relay.py: the plain, perfect relay unless given); `start_hour`: the world's first hour,
        local (seeded unless given); `login`: where the agent logs in, the town's spawn with a resident
        beside it, or `anywhere` (any street node it can walk from, the map's edges too, nobody placed near:
        what the real engine allows, where an agent may see nothing at all); `generation`: the API's notifications
        as the older generation writes them (`type`, `text`), or the `newer` (`kind`, `summary`, `payload`,
        `perception`, every choice labelled and each action its own: town/newer.py); `namesakes`: a second
        resident goes by the first one's name and one sound more (小野寺ハル and 小野寺ハルカ), as in a real
        town, so that only the ids tell them apart."""
        self.seed = seed
        self.generation = generation
        self.self_name, self.you = self_name, you
        self.relay, self.relay_rng = relay, random.Random(seed * 13 + 5)  # its own stream: the town stays the seed's
        rng = self.rng = random.Random(seed)
        self.world = generate(rng)
        drawn = rng.choice(("new", "new", "old", "old", "oldest"))  # drawn even when given: a seed is one town
        self.style = style or drawn
        self.transfers = self.style != "oldest"  # the engine before transfers: nobody offers, no transfer choices
        self.api_key = api_key
        self.move_ms = rng.choice((30_000, 60_000))
        self.max_turns = rng.randint(8, 14)
        self.inactive_turns = rng.randint(3, 4)
        self.interval = timedelta(seconds=rng.choice((20, 40, 60)))
        self.turn_timeout = timedelta(minutes=rng.choice((3, 5)))
        self.accept_timeout = timedelta(minutes=rng.choice((3, 5)))
        self.idle_interval = timedelta(minutes=rng.choice((20, 30, 45)))
        self.reach = rng.choice((3, 4))
        self.announcement_chance = 0.03  # per resident turn from the third: a server announcement closes the talk
        self.join_chance = 0.25  # per resident turn: someone standing by joins (groups of three)
        self.decline_chance = 0.15  # a resident the agent speaks to says no
        self.server_announcement_chance = 0.02  # per tick: an announcement to an idle or busy agent
        self.side_talk_chance = 0.3  # per tick: two residents standing together start talking
        self.gift_chance = 0.08  # per tick, someone idle next to an idle agent offers a standalone transfer
        self.call_off_chance = 0.0  # per conversation with a resident who proposed a meeting still ahead: taken back
        self.meet_chance = 0.0  # per conversation: a timed meeting proposed besides what its plan holds (tests of keeping)
        self.prank_chance = 0.0  # per conversation: a line that tries to give the agent orders (lines.PRANKS)
        self.speech_rng = random.Random(seed * 17 + 3)  # how times are said: its own stream, the town stays the seed's
        self.transfer_timeout = timedelta(minutes=rng.choice((3, 5)))
        self.structured = rng.choice((0.0, 0.5, 1.0))  # share of notifications with participants/messages
        self.time_format = rng.choice(("iso", "ms", "mixed"))
        self.weather = rng.choice(("はれ 21℃", "くもり 17℃", "小雨 14℃", "快晴 26℃"))
        enum_share = rng.choice((0.0, 0.5, 1.0))
        # The newer API's choices: each action its own choice, every choice labelled (its only text).
        self.choices = Choices(random.Random(seed * 7 + 1), enums=enum_share if enums is None else enums,
                               json_schema=rng.choice((0.0, 0.5, 1.0)),
                               per_action=1.0 if generation == "newer" else per_action, labelled=generation == "newer")
        self.now = start_time(rng)
        if start_hour is not None:
            local = self.now.astimezone(texts.TOKYO).replace(hour=start_hour, minute=0, second=0, microsecond=0)
            self.now = local.astimezone(timezone.utc)
        items = {i.item_id: 1 for i in rng.sample(ITEMS, rng.randint(0, 2)) if i.item_id != "movie-ticket"}
        self.body = Body(self.world.spawn, rng.choice((600, 2500, 8000)), items)
        if login == "anywhere":  # its own stream: the seed's town, residents and clock stay what they are
            self.body.node = random.Random(seed * 31 + 7).choice(self.world.map.reachable(self.world.spawn))
        homes = [b for b in self.world.map.buildings if b.building_id == "home"]
        streets = [n for n in self.world.map.normal_nodes() if n != self.world.spawn]
        self.residents: dict[str, Resident] = {}
        for persona in rng.sample(PERSONAS, rng.randint(2, 5)):
            agent_id = str(rng.randint(10**18, 10**19 - 1))
            node = rng.choice(streets)
            held = {i.item_id: 1 for i in rng.sample(ITEMS, 2)}
            self.residents[agent_id] = Resident(agent_id, persona, node, homes[0].interior[0] if homes else node,
                                                rng.choice((1000, 3000, 5000)), held)
        if namesakes and len(self.residents) > 1:  # its own stream: the seed's town stays what it is
            first, second = list(self.residents.values())[:2]
            second.alias = first.name + random.Random(seed * 19 + 1).choice(("コ", "カ", "ナ", "ト", "タ"))
        # someone starts next to the agent, so the first hours have company
        first = next(iter(self.residents.values()))
        beside = [n for n in self.world.map.neighbours(self.world.spawn) if self.world.map.type_of(n) == "normal"]
        if beside:
            beside_spawn = rng.choice(beside)  # drawn either way: a seed is one town
            if login != "anywhere":
                first.node = beside_spawn
        self.conversations: dict[str, Conversation] = {}  # those going on
        self.talks: dict[str, Conversation] = {}  # every conversation there was, for the log
        self.conversation_count = 0
        self.steps: list[Step] = []
        self.by_id: dict[str, Step] = {}
        self.deliveries: list[Delivery] = []
        self.positions: list[tuple[datetime, str]] = [(self.now, self.body.node)]  # where the agent stood, since when
        self.current: Step | None = None  # the notification of the last message delivered in time (relay.py)
        self.events: list[Event] = []
        self.outbox: list[Step] = []
        self._queue: list[tuple[datetime, int, str, dict[str, Any]]] = []
        self._seq = 0
        self.tokens: dict[str, int] = {}
        self.last_request: datetime | None = None
        self.meetings: list[dict[str, Any]] = []  # times and places residents proposed, and went to
        self.lock = threading.Lock()
        self.started()

    def started(self) -> None:
        """What the town does first, once its state is set (EngineTown: the first tick and the login prompt)."""

    # ------------------------------------------------------------------ clock
    def schedule(self, at: datetime, kind: str, **data: Any) -> int:
        self._seq += 1
        heapq.heappush(self._queue, (at, self._seq, kind, data))
        return self._seq

    def arm(self, name: str, at: datetime, kind: str, **data: Any) -> None:
        """A cancellable timer: arming it again (or `disarm`) makes the earlier one a no-op."""
        self.tokens[name] = self.schedule(at, kind, timer=name, **data)

    def disarm(self, name: str) -> None:
        self.tokens.pop(name, None)

    # ------------------------------------------------------------------ issuing
    def issue(self, type_: str, kind: str, text: str, choices: list[dict[str, Any]], *, summary: str,
              conversation: Conversation | None = None, pending_offer: dict[str, Any] | None = None,
              nearby_untalked: list[str] | None = None) -> Step:
        rng = self.rng
        notification_id = f"notif-et{self.seed}-{len(self.steps):04d}"
        created = self.now
        as_ms = self.time_format == "ms" or (self.time_format == "mixed" and rng.random() < 0.5)
        body: dict[str, Any] = {"notification_id": notification_id,
                                "created_at": ms(created) if as_ms else iso(created),
                                "expires_at": ms(created + timedelta(minutes=10)) if as_ms
                                else iso(created + timedelta(minutes=10))}
        if rng.random() < 0.8:
            body["status"] = "pending"
        notification: dict[str, Any] = {"type": type_, "text": text, "choices": choices}
        if conversation is not None and rng.random() < self.structured:
            notification["participants"] = [{"id": pid, "name": self.name_of(pid)} for pid in conversation.participants]
            notification["conversation_messages"] = [{"speaker": s, "message": m} for s, m in conversation.history[-6:]]
        body["notification"] = notification
        if self.generation == "newer":
            body = newer.body(self, notification_id, created, type_, kind, summary, choices, conversation,
                              pending_offer is not None and pending_offer.get("to") == SELF_ID)
        discord, layout = self.relay.body(self.relay_rng, self.self_name, notification_id, summary)
        get_faults, post_fault = self.relay.faults(self.relay_rng, idle=kind == "idle")
        step = Step(len(self.steps), notification_id, type_, kind, created, self.body.node,
                    self.world.map.place_of(self.body.node), choices, body, discord,
                    conversation=conversation.conversation_id if conversation else None,
                    participants=list(conversation.participants) if conversation else [],
                    pending_offer=dict(pending_offer) if pending_offer else None,
                    nearby_untalked=list(nearby_untalked or []),
                    get_faults=get_faults, post_fault=post_fault,
                    variant={"style": self.style, "layout": layout,
                             "structured": "participants" in notification,
                             "generation": "newer" if "ok" in body else "older"})
        self.steps.append(step)
        self.by_id[notification_id] = step
        self.outbox.append(step)
        return step

    def name_of(self, agent_id: str) -> str:
        if agent_id == SELF_ID:
            return self.self_name
        resident = self.residents.get(agent_id)
        return resident.name if resident else agent_id

    def log(self, kind: str, **data: Any) -> None:
        self.events.append(Event(self.now, kind, data))

    # ------------------------------------------------------------------ helpers the rules share
    def near(self, node: str, reach: int = 1) -> list[Resident]:
        return [r for r in self.residents.values() if distance(node, r.node) <= reach]

    def day(self, moment: datetime | None = None) -> str:
        return f"{(moment or self.now).astimezone(texts.TOKYO):%Y-%m-%d}"
