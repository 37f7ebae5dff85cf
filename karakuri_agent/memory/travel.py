"""How long it takes to walk somewhere, learned from the server's own answers.

A move is answered with `arrives_at`; each accepted move teaches one trip
(from where the agent stood, to where it went, in minutes). Towns differ:
one road may take five minutes or twenty, and node ids need not be
coordinates, so nothing is assumed about either. What the agent needs is
when to leave for a meeting: the trip between the same two places when it
was walked before (either way), else the longest trip walked recently (the
meeting may be as far as anything seen), never less than a floor that
covers a few roads in a town not yet walked.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Sequence

from karakuri_agent.domain.notification import parse_timestamp
from karakuri_agent.domain.records import Parsed, Trip, here_id
from karakuri_agent.memory.knowledge import TRIPS as TRIPS_KEY
from karakuri_agent.state.base import Store

MAX_TRIPS = 30
# Before any trip is known (and never less): a few roads in an unknown town.
FLOOR = timedelta(minutes=30)
# No trip is planned for as longer than this: a meeting further ahead steers the agent anyway.
CEILING = timedelta(minutes=90)
# A trip that ends this long after it starts is not a walk (a server clock jump, a typo).
LONGEST_WALK = timedelta(hours=6)


def learn_trip(store: Store, command: str, params: dict[str, Any], result: dict[str, Any],
               parsed: Parsed, now: datetime) -> None:
    """Remember an accepted move's trip: from, to, minutes (newest last, at most MAX_TRIPS).

    It starts where the text says the agent stands, else where the last
    trip ended.
    """
    arrives = parse_timestamp(result.get("arrives_at")) if command == "move" else None
    if arrives is None or not timedelta(0) < arrives - now <= LONGEST_WALK:
        return
    walked = trips(store)
    here = here_id(parsed)
    trip: Trip = {"from": here or (walked[-1]["to"] if walked else None), "to": str(params.get("target_node_id") or ""),
            "minutes": round((arrives - now).total_seconds() / 60, 1)}
    store.set_knowledge(TRIPS_KEY, (walked + [trip])[-MAX_TRIPS:])


def trips(store: Store) -> list[Trip]:
    """The walks kept (from, to, minutes), oldest first; an entry of another shape is skipped."""
    value = (store.knowledge(TRIPS_KEY) or {}).get("value")
    return [{"from": t.get("from"), "to": t.get("to"), "minutes": t["minutes"]} for t in value
            if isinstance(t, dict) and isinstance(t.get("minutes"), (int, float))] if isinstance(value, list) else []


def time_to_walk(walked: Sequence[Trip], here: str | None, there: str) -> timedelta:
    """How long before a meeting at `there` the agent must leave `here` (between FLOOR and CEILING)."""
    same = [t["minutes"] for t in walked if here and {t.get("from"), t.get("to")} == {here, there}]
    minutes = same[-1] if same else max((t["minutes"] for t in walked), default=0)
    return min(max(timedelta(minutes=minutes), FLOOR), CEILING)
