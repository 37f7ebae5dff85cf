"""Brought back what was told: partners tell things on day 1; do they hear them back on the next days?

Day 1: after the agent's morning, five partners talk with it; each tells one
or two things in their own words (testing/conversation/memory.json: a
fact about themselves, or news about someone else the agent knows), and a
few take one back later that day (「あ、パン屋で働く話な、なくなってしもたわ」).
Days 2 and 3: every teller, everyone news was about, and two people who were
told nothing talk with the agent again, in plain small talk.

Counted from the agent's lines alone (the words of the told thing, whole):

- brought back: a told thing (not taken back) said in the agent's first two
  lines of a later talk with the right person (not merely taken up from the
  line it answers) (the teller, or the one the
  news was about); the share of what was told is the aim (70 %);
- late: said only after those first two lines;
- twice: brought back in more than one later talk;
- wrong person: said in a later talk with someone else;
- retracted: a thing taken back, said again on a later day.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from .runner import Session, agent_session
from .scenes import TOKYO, Person

MEMORY_FILE = Path(__file__).resolve().parent / "memory.json"
EARLY_LINES = 2


@dataclass
class Told:
    teller: Person
    line: str
    thing: list[str]
    about: Person | None = None
    retracted: bool = False
    talks: list[dict[str, Any]] = field(default_factory=list)  # later talks where it was said

    @property
    def right_people(self) -> set[str]:
        return {self.teller.agent_id} | ({self.about.agent_id} if self.about else set())

    def as_dict(self) -> dict[str, Any]:
        return {"teller": self.teller.name, "about": self.about.name if self.about else None, "line": self.line,
                "thing": self.thing, "retracted": self.retracted, "talks": self.talks}


class MemoryTalks:
    """The three days of one seed, delivered through a Session, with the agent's lines kept per talk."""

    def __init__(self, session: Session, data: dict[str, Any], rng: random.Random) -> None:
        self.session, self.data, self.rng = session, data, rng
        self.world = session.world
        self.talks: list[dict[str, Any]] = []

    def said(self, notification_id: str) -> str:
        posts = self.session.api.posts_for(notification_id)
        return str((posts[0].get("params") or {}).get("message") or "") if posts else ""

    def talk(self, partner: Person, lines: list[str], day: int) -> list[str]:
        """A talk the partner starts: a greeting, then `lines`; the agent's lines, in order."""
        replies = []
        greeting = self.rng.choice(self.data["greetings"])
        nid, _ = self.session.deliver(self.world.request(partner, greeting))
        replies.append(self.said(nid))
        for line in lines:
            nid, _ = self.session.deliver(self.world.turn(partner, line, [partner]))
            replies.append(self.said(nid))
        self.talks.append({"day": day, "partner": partner.name, "partner_id": partner.agent_id,
                           "lines": [greeting, *lines], "replies": replies})
        self.world.advance(self.rng.randint(5, 20))
        return replies

    def new_day(self, day: int) -> None:
        start = self.world.now.astimezone(TOKYO).replace(hour=9, minute=self.rng.randint(0, 30)) + timedelta(days=1)
        self.world.now = start
        self.session.step = 3
        self.session.morning()
        self.session.step = 1


def _fill(line: str, about: Person | None) -> str:
    return line.replace("{about}", about.short) if about else line


def run_memory(seed: int, *, mode: str = "listen", pack: str | None = None, tellers: int = 5,
               settings: dict[str, str] | None = None) -> dict[str, Any]:
    data = json.loads(MEMORY_FILE.read_text(encoding="utf-8"))
    rng = random.Random(seed * 104729)
    with agent_session(seed + 10_000, mode=mode, pack=pack, settings=settings) as session:
        days = MemoryTalks(session, data, rng)
        people = list(session.world.people)
        rng.shuffle(people)
        tellers_, others = people[:tellers], people[tellers:tellers + 2]
        about_pool = tellers_ + others
        self_items = [t for t in data["told"] if not t.get("about")]
        news_items = [t for t in data["told"] if t.get("about")]
        rng.shuffle(self_items)
        rng.shuffle(news_items)
        told: list[Told] = []
        session.morning()
        session.world.now = session.world.now.astimezone(TOKYO).replace(hour=12, minute=0)
        session.step = 1
        retractions: list[tuple[Told, str]] = []
        for teller in tellers_:
            items: list[Told] = []
            spec = self_items.pop()
            items.append(Told(teller, spec["line"], spec["thing"]))
            if spec.get("retract") and rng.random() < 0.7:
                retractions.append((items[-1], spec["retract"]))
            if rng.random() < 0.6 and news_items:
                news = news_items.pop()
                about = rng.choice([p for p in about_pool if p is not teller])
                items.append(Told(teller, _fill(news["line"], about), news["thing"], about))
                if news.get("retract") and rng.random() < 0.7:
                    retractions.append((items[-1], _fill(news["retract"], about)))
            told += items
            days.talk(teller, [item.line for item in items] + [rng.choice(data["small"])], 1)
        for item, line in retractions:  # later the same day: 「あ、さっきの話だけど…」
            item.retracted = True
            days.talk(item.teller, [line], 1)
        by_id = {p.agent_id: p for p in [*tellers_, *(t.about for t in told if t.about), *others] if p is not None}
        later = list(by_id.values())
        for day in (2, 3):
            days.new_day(day)
            rng.shuffle(later)
            for person in later:
                days.talk(person, rng.sample(data["small"], 2) + [rng.choice(data["byes"])], day)
        return count(told, days.talks)


# A place named as where the agent itself went ('今日は駅とパン屋で過ごしていました', asked '最近どう？'):
# its own day, not the thing someone told about the same place (once counted as a retracted plan brought back).
WENT = ("で過ごし", "に行って", "に行った", "に行きました", "にいた", "にいました", "に寄っ", "に寄り")


def _where_it_went(reply: str, word: str) -> bool:
    return all(reply[i + len(word):].startswith(WENT) for i in range(len(reply)) if reply.startswith(word, i))


def count(told: list[Told], talks: list[dict[str, Any]]) -> dict[str, Any]:
    """The memory share and its faults, from the told things and the agent's later lines."""
    result = {"told": 0, "brought_back": 0, "late": 0, "twice": 0, "wrong_person": 0, "retracted": 0}
    for item in told:
        if not item.retracted:
            result["told"] += 1
        early_right = 0
        late = False
        for talk in talks:
            if talk["day"] == 1:
                continue
            heard = talk.get("lines") or [""] * len(talk["replies"])
            hit = [i for i, reply in enumerate(talk["replies"])  # a word of the line it answers is taken up, not recalled
                   if any(w in reply and w not in (heard[i] if i < len(heard) else "")
                          and not _where_it_went(reply, w) for w in item.thing)]
            if not hit:
                continue
            item.talks.append({"day": talk["day"], "partner": talk["partner"], "line_index": hit[0]})
            if item.retracted:
                result["retracted"] += 1
            elif talk["partner_id"] not in item.right_people:
                result["wrong_person"] += 1
            elif hit[0] < EARLY_LINES:
                early_right += 1
            else:
                late = True
        if item.retracted:
            continue
        if early_right:
            result["brought_back"] += 1
            if early_right > 1:
                result["twice"] += 1
        elif late:
            result["late"] += 1
    result["share"] = result["brought_back"] / result["told"] if result["told"] else None
    result["details"] = [item.as_dict() for item in told]
    result["talks"] = talks
    return result
