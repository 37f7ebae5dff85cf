"""When a line means: a clock time, a day word or "30分後", read against the moment the line was said (the world's)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.ja.promise_words import AM, CLOCK_JI, DAY_AFTER, LATER_WORD, NIGHT, PM, RELATIVE, TODAY, TOMORROW

LATER = timedelta(minutes=30)  # what あとで / 後で means
PAST_GRACE = timedelta(minutes=15)  # "15時に" said at 15:10 still means today 15:00
FURTHEST_RELATIVE = timedelta(days=1)  # "100時間後" is talk, not a time to be somewhere
SMALL_HOURS = range(1, 7)  # a bare 1時-6時 on another day is in the afternoon: nobody meets at 3 in the night

_CLOCK_HHMM = re.compile(r"(?<![\d:])(?P<h>\d{1,2}):(?P<m>\d{2})(?![\d:])")


def as_tokyo(now: datetime) -> datetime:
    """`now` in Asia/Tokyo; a naive value is taken to be Tokyo time already."""
    if now.tzinfo is None:
        return now.replace(tzinfo=TOKYO)
    return now.astimezone(TOKYO)


def _relative_due(text: str, now: datetime) -> datetime | None:
    """now + the span of `N分後` / `N時間後` / `N時間M分後` (up to a day ahead), now + 30 min for あとで."""
    match = next((m for m in RELATIVE.finditer(text) if m.group("h") or m.group("m")), None)
    if match:
        hours, minutes = int(match.group("h") or 0), int(match.group("m") or 0)
        ahead = timedelta(hours=hours, minutes=minutes + (30 if match.group("half") else 0))
        return now + ahead if ahead <= FURTHEST_RELATIVE else None
    if LATER_WORD.search(text):
        return now + LATER
    return None


def clock_parts(text: str) -> tuple[int, int] | None:
    """(hour, minute) of the first `HH:MM` or `N時[半|M分]`, if valid."""
    found = []
    for match in (_CLOCK_HHMM.search(text), CLOCK_JI.search(text)):
        if match:
            found.append(match)
    if not found:
        return None
    match = min(found, key=lambda m: m.start())
    hour = int(match.group("h"))
    if "half" in match.re.groupindex and match.group("half"):
        minute = 30
    else:
        minute = int(match.group("m") or 0)
    if hour > 23 or minute > 59:
        return None
    return hour, minute


def _at(day: datetime, hour: int, minute: int) -> datetime:
    """`day`'s date at hour:minute, Tokyo time."""
    return day.replace(hour=hour, minute=minute, second=0, microsecond=0)


def _clock_due(text: str, now: datetime) -> datetime | None:
    """Due time of a clock expression, following the module's day rules."""
    parts = clock_parts(text)
    if parts is None:
        return None
    hour, minute = parts
    midnight = hour in (0, 12) and NIGHT.search(text) is not None
    if midnight:
        hour, now = 0, now + timedelta(days=1)  # the midnight ending the day meant
    elif PM.search(text) and hour < 12:
        hour += 12
    twelve_hour = hour < 12 and not midnight and not AM.search(text)
    if twelve_hour and hour in SMALL_HOURS and (DAY_AFTER.search(text) or TOMORROW.search(text)):
        hour += 12  # "明日の3時" is a meeting in the afternoon, not at 3 in the night
    if DAY_AFTER.search(text):
        return _at(now + timedelta(days=2), hour, minute)
    if TOMORROW.search(text):
        return _at(now + timedelta(days=1), hour, minute)
    today = _at(now, hour, minute)
    if midnight:
        return today
    if TODAY.search(text):
        evening = _at(now, hour + 12, minute) if twelve_hour else today
        return evening if today < now - PAST_GRACE and evening >= now - PAST_GRACE else today
    if today >= now - PAST_GRACE:
        return today
    if twelve_hour and _at(now, hour + 12, minute) >= now - PAST_GRACE:
        return _at(now, hour + 12, minute)
    return _at(now + timedelta(days=1), hour, minute)


def due_in_text(text: str, now: datetime) -> datetime | None:
    """First time expression in `text`: relative forms, then clock times."""
    return _relative_due(text, now) or _clock_due(text, now)
