"""A sealed set of partners' lines, said to the installed agent in a day of its own, each reply kept.

A sealed set (benchmarks/sealed/) is written by someone who never reads the
agent's code, and the people who write the agent's lexicon never read it:
only its per-kind score is looked at. Each item is one partner's line of a
kind (a question about its day, bad news, an invitation...), with the lines
before it in the same talk (`before`, each answered live) and what that
partner told in an earlier talk (`earlier_talk`, the day before).

A seed's run: the agent (the bundled character, resident `listen --stdin`
against testing/loopback.py) lives a first morning and hears the earlier
talks; the next day it goes to two to four places, agrees or not to a
meeting someone proposes, then each item is said to it in a talk of its own
(half of them opening the talk, half after a greeting), in an order the seed
chooses, between noon and 21:00 (past that, the next morning is lived first:
what it says of "today" is a day the judges see). What comes back per item is plain data for the judges, who never see
the agent: the line, what was said before and answered, the reply, the day.

Nothing here reads the set's lines beyond passing them on, and nothing here
judges.
"""

from __future__ import annotations

import hashlib
import random
import time
from datetime import timedelta
from typing import Any

from .runner import GREETINGS, Session, agent_session, day_facts
from .scenes import CATALOGUE, TOKYO, Day, Person

PLAN_PARTNER = ("灯野サキ", "サキ")
SLOT_MINUTES = 2  # between two items' talks (a talk takes its own time too)
LAST_HOUR = 21  # no talk after 21:00: the next items come the next day, after its morning
MESSAGE_COMMANDS = ("conversation_accept", "conversation_speak", "conversation_end", "end_conversation",
                    "conversation_start")


def _person(name: str) -> Person:
    """The partner an item names, with an id of its own (the same name, the same person, in every seed)."""
    digest = int(hashlib.sha256(name.encode()).hexdigest()[:12], 16)
    short = name.removesuffix("さん").removesuffix("ちゃん").removesuffix("くん")
    return Person(str(1_600_000_000_000_000_000 + digest % 10**15), name, short)


def _said(session: Session, notification: tuple[str, dict[str, Any], str]) -> dict[str, Any]:
    """Deliver one notification; what the agent sent for it (command and message) and its report."""
    nid, report = session.deliver(notification)
    posts = session.api.posts_for(nid)
    command = posts[-1]["command"] if posts else None
    message = (posts[-1].get("params") or {}).get("message", "") if posts else ""
    return {"notification_id": nid, "command": command, "message": message, "report": report,
            "commands_sent": len(posts)}


def _talk(session: Session, partner: Person, lines: list[str], opens: bool) -> list[dict[str, Any]]:
    """One talk: `lines` said in turn (the first opening it, or after a greeting), each answer kept."""
    world = session.world
    exchanges: list[dict[str, Any]] = []
    rest = list(lines)
    if opens:
        first = rest.pop(0)
        exchanges.append({"said": first, **_said(session, world.request(partner, first))})
    else:
        greeting = session.rng.choice(GREETINGS)
        _said(session, world.request(partner, greeting))
    for line in rest:
        exchanges.append({"said": line, **_said(session, world.turn(partner, line, [partner]))})
    return exchanges


def run_set(items: list[dict[str, Any]], seed: int, *, mode: str = "listen") -> dict[str, Any]:
    """Every item said to the agent on one seed's day; the replies and the day, as plain data."""
    started = time.perf_counter()
    rng = random.Random(seed * 104729)
    order = list(items)
    rng.shuffle(order)
    with agent_session(seed, mode=mode, pack="bundled") as session:
        session.step = 2
        told_before: list[dict[str, Any]] = []
        for item in [i for i in order if i.get("earlier_talk")]:  # the day before: what they told
            partner = _person(item["partner"])
            told_before.append({"id": item["id"], "exchanges": _talk(session, partner, list(item["earlier_talk"]), True)})
            session.world.advance(rng.randint(3, 9))
        day_two = (session.world.now.astimezone(TOKYO) + timedelta(days=1)).replace(hour=9, minute=rng.randint(0, 40))
        session.world.now = day_two
        session.day = Day()
        session.morning()
        place = rng.choice([p for p in CATALOGUE if p not in session.day.places])
        hour = rng.choice((16, 17, 18))
        planner = Person("1600000000000000999", *PLAN_PARTNER)
        plan_talk = _talk(session, planner, [f"ねえ、今日の{hour}時に{place.word}で会わない？", "よかった、じゃあまたあとでね！"],
                          True)
        session.day.met.append(planner.name)
        noon = session.world.now.astimezone(TOKYO).replace(hour=12, minute=0)
        session.world.now = max(session.world.now, noon)
        replies = []
        slot = 0
        for item in order:
            # items spread from noon to 21:00; past that, the agent sleeps and lives the next morning first,
            # so what it says of "today" is a day the judges see (the day's facts keep every day's places)
            if session.world.now.astimezone(TOKYO).hour >= LAST_HOUR:
                session.world.now = (session.world.now.astimezone(TOKYO) + timedelta(days=1)).replace(
                    hour=9, minute=rng.randint(0, 40))
                session.morning()
                noon, slot = session.world.now.astimezone(TOKYO).replace(hour=12, minute=0), 0
            session.world.now = max(session.world.now, noon + timedelta(minutes=SLOT_MINUTES * slot))
            slot += 1
            partner = _person(item["partner"])
            lines = [*item.get("before", []), item["line"]]
            exchanges = _talk(session, partner, lines, opens=rng.random() < 0.5)
            session.day.met.append(partner.name)
            judged = exchanges[-1]
            replies.append({"id": item["id"], "kind": item["kind"], "register": item.get("register", ""),
                            "partner": partner.name, "before": exchanges[:-1], "line": item["line"],
                            "reply": judged["message"] if judged["command"] in MESSAGE_COMMANDS else "",
                            "command": judged["command"], "report": judged["report"],
                            "commands_sent": judged["commands_sent"]})
        errors = session.feeder.errors()
    day = day_facts(session)
    day["plan"] = {"proposed_by": planner.name, "place": place.word, "time": f"{hour}:00",
                   "agent_answered": plan_talk[0]["message"], "command": plan_talk[0]["command"]}
    day["earlier_talks"] = told_before
    return {"seed": seed, "day": day, "replies": replies, "errors": errors[:5],
            "seconds": round(time.perf_counter() - started, 1)}
