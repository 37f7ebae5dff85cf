"""Reading one in-world day out of the state: the records `model.build` turns into a `Day`.

Only reads, each bounded by the day's window and served by an index
(journal, activity and promises by time), so a year of history costs what a
day costs. The day is a date in the world's zone (Asia/Tokyo); by default
the latest one with any activity.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from karakuri_agent.app.day.model import ZONE, Records
from karakuri_agent.domain.records import Meeting
from karakuri_agent.domain.clock import PLAUSIBLE_YEARS
from karakuri_agent.errors import UsageError
from karakuri_agent.memory.promises import latest_plans
from karakuri_agent.state.base import Store

DATE_FORMAT = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ALL_PLACES = 10_000


def parse_date(text: str) -> date:
    """`YYYY-MM-DD`, a real date of a plausible year; anything else is a usage error (exit 2).

    The state holds no time outside the plausible years (the world's clock
    believes none), and a day at the calendar's edge (0001-01-01,
    9999-12-31) has no next day or UTC window to compute.
    """
    try:
        if DATE_FORMAT.match(text):
            day = date.fromisoformat(text)
            if day.year in PLAUSIBLE_YEARS:
                return day
            first, last = PLAUSIBLE_YEARS[0], PLAUSIBLE_YEARS[-1]
            raise UsageError(f"--date must be from {first:04d}-01-01 to {last:04d}-12-31 (no record is"
                             f" outside those years), got {text!r}")
    except ValueError:
        pass
    raise UsageError(f"--date must be a date as YYYY-MM-DD (the world's calendar, Asia/Tokyo), got {text!r}")


def window(day: date) -> tuple[datetime, datetime]:
    """The day's first instant and the next day's, in the world's zone."""
    start = datetime.combine(day, time(0), ZONE)
    return start, datetime.combine(day + timedelta(days=1), time(0), ZONE)


def latest_activity(store: Store) -> datetime | None:
    """When the state last recorded anything: "now" as far as the state knows."""
    newest = store.recent_activity(1)
    return newest[0].created_at if newest else None


def records_for(store: Store, day: date | None) -> Records:
    """The day's records (`day` None: the latest day with activity, else today in the world's zone)."""
    state_now = latest_activity(store)
    if day is None:
        day = (state_now or datetime.now(ZONE)).astimezone(ZONE).date()
    start, end = window(day)
    promises = store.commitments_between(start, end)
    withdrawn = {p.id for p in promises if p.status == "withdrawn"}
    return Records(
        date=day, start=start, end=end,
        journal=store.journal_between(start, end),
        activity=store.activity_between(start, end),
        promises=promises,
        withdrawn=frozenset(withdrawn | _replaced(promises)),
        place_names={p.node_id: p.name for p in store.known_places(ALL_PLACES)},
        state_now=state_now,
        learned=store.facts_learned(start, end),
    )


def _replaced(promises: list[Meeting]) -> set[int]:
    """Promises a later line moved (same person, same time, a newer promise): only the newest plan stands."""
    dated = [p for p in promises if p.due_at and p.status in ("pending", "withdrawn")]
    standing = {p.id for p in latest_plans(dated)}
    return {p.id for p in dated if p.id not in standing}
