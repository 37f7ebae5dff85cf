"""Runs one seed: the installed agent against a loopback API, fed the day and then the talks.

A seed chooses the character pack (the bundled one or a pack under
testing/conversation/packs/), the agent's id, the partners' names, which
lines of each kind are said and in what order. The agent is the installed
`karakuri-agent` console script, either resident (`listen --stdin`, fed one
JSON line per Discord message) or one `handle` process per message. The API
is testing/loopback.py's: it serves the notifications this module writes
(testing/conversation/scenes.py) and records every command.

What comes back per judged line is plain data (the line, what a right
answer shows, the command and params the agent sent, its report line), for
judge.py, which never sees the agent.
"""

from __future__ import annotations

import json
import random
import select
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

from testing.loopback import LoopbackAPI, running_api
from testing.processes import child_env, console_script

from .scenes import CATALOGUE, NEVER_PLACES, TOKYO, Day, Person, World, transfer_note

HERE = Path(__file__).resolve().parent
LINES_FILE = HERE / "lines.json"
PACKS = {"bundled": None, "minato": HERE / "packs" / "minato"}
PACK_NAMES = {"bundled": ("AIニケちゃん", "ニケ"), "minato": ("潮見ナギ", "ナギ")}
KINDS = ("which_of", "yes_no", "wh_day", "talk_topic", "news", "retraction", "warmth", "offer",
         "invite_time", "invite_no_time", "farewell", "not_my_turn")
GREETINGS = ("やあ、ちょっといい？", "こんにちは〜", "おっす", "少しお話しできますか？", "なあなあ、今ひま？",
             "あ、いたいた！", "どうも、こんにちは。", "ねえねえ、おはなししよ！", "よっ", "お、奇遇やね")
REPLY_TIMEOUT = 30.0
# A model decider may take its whole budget (KARAKURI_LLM_TIMEOUT, twice with the repair) on top of
# loading its client: a reply that comes later than the wait would be read as the next message's.
MODEL_REPLY_TIMEOUT = 120.0


def load_lines() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(LINES_FILE.read_text(encoding="utf-8"))
    return data


@dataclass
class Judged:
    """One line said to the agent and what came back."""

    kind: str
    item: dict[str, Any]
    line: str
    notification_id: str
    partner: str
    choices: list[str]
    posts: list[dict[str, Any]] = field(default_factory=list)
    report: str = ""
    met_before: list[str] = field(default_factory=list)  # whom the agent had talked with before, this talk's partner aside

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "item": self.item, "line": self.line, "notification_id": self.notification_id,
                "partner": self.partner, "choices": self.choices, "posts": self.posts, "report": self.report,
                "met_before": self.met_before}


@dataclass
class SeedRun:
    seed: int
    pack: str
    self_name: str
    day: dict[str, Any]
    judged: list[Judged]
    seconds: float
    errors: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "pack": self.pack, "self_name": self.self_name, "day": self.day,
                "judged": [j.as_dict() for j in self.judged], "seconds": round(self.seconds, 2),
                "errors": self.errors}


class Feeder:
    """Delivers Discord messages to the agent: one resident `listen --stdin`, or a `handle` process each."""

    def __init__(self, mode: str, env: dict[str, str], cwd: Path) -> None:
        self.mode, self.env, self.cwd = mode, env, cwd
        self.timeout = MODEL_REPLY_TIMEOUT if env.get("KARAKURI_DECIDER") == "llm" else REPLY_TIMEOUT
        self.argv = console_script("karakuri-agent", "agent")
        self.proc: subprocess.Popen[str] | None = None
        self.count = 0
        if mode == "listen":
            with open(cwd / "agent.log", "w", encoding="utf-8") as log:  # the child keeps its own descriptor
                self.proc = subprocess.Popen([*self.argv, "listen", "--stdin"], env=env, cwd=cwd,
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                                             bufsize=1)

    def send(self, discord: str, at: datetime) -> str:
        """Hand one message to the agent; its report line ('' when none came)."""
        self.count += 1
        if self.proc is None:
            done = subprocess.run([*self.argv, "handle", discord, "--clock-start", at.isoformat()], env=self.env,
                                  cwd=self.cwd, capture_output=True, text=True, timeout=self.timeout)
            return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"content": discord, "id": str(self.count)}, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
        return self.proc.stdout.readline().strip() if ready else ""

    def errors(self) -> list[str]:
        """The resident process's error lines (an internal error prints no report line, only this)."""
        log = self.cwd / "agent.log"
        if not log.exists():
            return []
        return [line.strip() for line in log.read_text(encoding="utf-8", errors="replace").splitlines()
                if " ERROR " in line or "Traceback" in line]

    def close(self) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def pick(rng: random.Random, lines: dict[str, list[dict[str, Any]]], per_kind: int) -> list[tuple[str, dict[str, Any]]]:
    chosen: list[tuple[str, dict[str, Any]]] = []
    for kind in KINDS:
        pool = list(lines[kind])
        rng.shuffle(pool)
        chosen += [(kind, item) for item in pool[:per_kind]]
    rng.shuffle(chosen)
    return chosen


def fill(text: str, me_short: str, other: Person) -> str:
    return text.replace("{self}", me_short).replace("{other}", other.short)


class Session:
    """One seed's life: the morning's moves, then conversations, each line delivered and its answer kept."""

    def __init__(self, seed: int, api: LoopbackAPI, feeder: Feeder, world: World, pack: str) -> None:
        self.seed, self.api, self.feeder, self.world, self.pack = seed, api, feeder, world, pack
        self.rng = random.Random(seed * 7919)
        self.day = Day()
        self.judged: list[Judged] = []
        self.me_short = PACK_NAMES[pack][1]
        self.step = 3  # minutes between messages; a minute in the afternoon, so every talk is before 14:00

    def deliver(self, notification: tuple[str, dict[str, Any], str]) -> tuple[str, str]:
        nid, body, discord = notification
        self.api.notifications[nid] = body
        report = self.feeder.send(discord, self.world.now)
        # an action the agent chose itself is part of its day as much as one the server reported done
        # (the judges check what it says it ate against `actions`)
        here = self.world.here
        for post in self.api.posts_for(nid):
            chosen = (post.get("params") or {}).get("action_id") if post.get("command") == "action" else None
            self.day.actions.extend((here, name) for action_id, name, *_ in here.actions if action_id == chosen)
        self.world.advance(self.step)
        return nid, report

    def morning(self) -> None:
        """Arrivals and actions: the agent's true day, as the server told it."""
        places = self.rng.sample(list(CATALOGUE), self.rng.randint(2, 4))
        for place in places:
            self.deliver(self.world.arrival(place, self.day))
            self.world.advance(self.rng.randint(5, 25))
            if self.rng.random() < 0.7:
                self.world.advance(10)
                self.deliver(self.world.action_done(self.day))
                self.world.advance(self.rng.randint(5, 20))

    def judge_turn(self, kind: str, item: dict[str, Any], line: str, partner: Person,
                   notification: tuple[str, dict[str, Any], str]) -> None:
        nid, report = self.deliver(notification)
        choices = [c["command"] for c in notification[1]["notification"].get("choices") or []]
        met_before = sorted({name for name in self.day.met if name != partner.name})
        self.judged.append(Judged(kind, item, line, nid, partner.name, choices, self.api.posts_for(nid), report,
                                  met_before))

    def talk(self, items: list[tuple[str, dict[str, Any]]], partners: list[Person]) -> None:
        """One conversation with partners[0] (others join for group lines); each item judged on its turn."""
        partner = partners[0]
        self.day.met.append(partner.name)
        self.deliver(self.world.request(partner, self.rng.choice(GREETINGS)))
        end_command = self.rng.choice(["end_conversation", "conversation_end"])
        for kind, item in items:
            other = partners[1] if len(partners) > 1 else partner
            line = fill(item["line"], self.me_short, other)
            if kind == "talk_topic":
                a, b, newcomer = partners[1], partners[2], partners[3]
                group = [a, b]
                self.day.met.extend(p.name for p in (a, b, newcomer))  # the agent is in this group talk too
                for i, said in enumerate(item["history"]):
                    speaker, listener = (a, b) if i % 2 == 0 else (b, a)
                    self.deliver(self.world.fyi(speaker, said, listener, [speaker, self.world.me, listener],
                                                with_json=self.rng.random() < 0.5))
                history = [(p.name, s) for p, s in zip([a, b] * 3, item["history"])]
                note = self.world.turn(newcomer, line, [newcomer, *group], history, end_command=end_command)
                self.judge_turn(kind, item, line, newcomer, note)
            elif kind == "not_my_turn":
                note = self.world.fyi(partner, line, other, [partner, self.world.me, other],
                                      with_json=self.rng.random() < 0.5)
                self.judge_turn(kind, item, line, partner, note)
            elif kind == "offer" and item.get("gift"):
                turn = self.world.turn(partner, line, [partner], transfer_note=transfer_note(partner, item["gift"]),
                                       end_command=end_command)
                self.judge_turn(kind, item, line, partner, turn)
            else:
                if item.get("setup"):  # what is taken back was said first, in the same talk
                    self.deliver(self.world.turn(partner, item["setup"], [partner], end_command=end_command))
                self.judge_turn(kind, item, line, partner, self.world.turn(partner, line, [partner],
                                                                          end_command=end_command))

    def afternoon(self, chosen: list[tuple[str, dict[str, Any]]]) -> None:
        """The chosen lines in talks of one to three lines, a farewell always last in its talk."""
        noon = self.world.now.astimezone(TOKYO).replace(hour=12, minute=self.rng.randint(0, 20))
        self.world.now = max(self.world.now, noon)
        self.step = 1
        people = list(self.world.people)
        queue = list(chosen)
        while queue:
            size = self.rng.randint(1, 3)
            items, queue = queue[:size], queue[size:]
            items.sort(key=lambda pair: pair[0] == "farewell")
            self.rng.shuffle(people)
            self.talk(items, people[:4])
            self.world.advance(self.rng.randint(1, 3))


@contextmanager
def agent_session(seed: int, *, mode: str = "listen", pack: str | None = None, state_root: Path | None = None,
                  settings: dict[str, str] | None = None) -> Iterator[Session]:
    """A seed's world, a loopback API and the agent under test (a fresh state), as one Session."""
    rng = random.Random(seed)
    pack = pack or ("bundled" if seed % 2 else "minato")
    self_name = PACK_NAMES[pack][0]
    self_id = str(1_470_000_000_000_000_000 + rng.randrange(10**15))
    start = datetime(2027, rng.randint(4, 10), rng.randint(1, 25), 9, rng.randint(0, 40), tzinfo=TOKYO)
    world = World(seed, self_name, self_id, start)
    with tempfile.TemporaryDirectory(prefix=f"convbench-{seed}-", dir=state_root) as tmp, running_api() as api:
        work = Path(tmp)
        env = child_env(api.base_url, work, work / "state")
        env.update(KARAKURI_SELF_AGENT_ID=self_id, KARAKURI_SELF_NAME=self_name, KARAKURI_GET_RETRY_BUDGET="2")
        if PACKS[pack] is not None:
            env["KARAKURI_PERSONA_DIR"] = str(PACKS[pack])
        env.update(settings or {})  # e.g. KARAKURI_DECIDER=llm and its model's settings
        api.world_clock = lambda: world.now  # the answers' Date is the world's time, as a real server's is
        feeder = Feeder(mode, env, work)
        try:
            yield Session(seed, api, feeder, world, pack)
        finally:
            feeder.close()


def day_facts(session: Session) -> dict[str, Any]:
    """The agent's day as the server saw it, for the judge."""
    day = session.day
    return {"visited": day.visited_words, "labels": day.label_words, "places": [p.word for p in day.places],
            "actions": [name for _, name in day.actions], "met": sorted(set(day.met)),
            "all_place_words": sorted({w for p in CATALOGUE for w in (p.word, p.building, *p.aliases)}
                                      | set(NEVER_PLACES))}


def run_seed(seed: int, *, per_kind: int, mode: str = "listen", pack: str | None = None,
             state_root: Path | None = None, settings: dict[str, str] | None = None) -> SeedRun:
    """One seed of the per-kind benchmark: the morning, then the chosen lines in talks."""
    chosen = pick(random.Random(seed), load_lines(), per_kind)
    started = time.perf_counter()
    with agent_session(seed, mode=mode, pack=pack, state_root=state_root, settings=settings) as session:
        session.morning()
        session.afternoon(chosen)
        logged = session.feeder.errors()
    errors = [f"{j.notification_id}: no report line" for j in session.judged if not j.report] + logged[:5]
    return SeedRun(seed, session.pack, session.world.self_name, day_facts(session), session.judged,
                   time.perf_counter() - started, errors)
