"""A day's records built by hand: journal entries, activity and promises at minutes past 10:00 Tokyo, for the day view's tests."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from karakuri_agent.app.day.model import Records
from karakuri_agent.app.day.read import window
from karakuri_agent.domain.records import JournalEntry
from testing.store_rows import as_commands

DAY = date(2026, 11, 29)
START, END = window(DAY)  # 2026-11-28T15:00Z .. 2026-11-29T15:00Z
T0 = datetime(2026, 11, 29, 1, 0, tzinfo=timezone.utc)  # 10:00 in Tokyo


def day_time(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def day_entry(minutes: float, kind: str, data: dict, nid: str = "n") -> JournalEntry:
    return JournalEntry(T0 + timedelta(minutes=minutes), nid, kind, data)


def day_records(journal=(), activity=(), promises=(), withdrawn=(), places=None, now_minutes: float | None = 600):
    return Records(date=DAY, start=START, end=END, journal=list(journal), activity=as_commands(activity),
                   promises=list(promises), withdrawn=frozenset(withdrawn),
                   place_names=places if places is not None else {"6-11": "喫茶店 店内", "8-3": "図書館 閲覧室"},
                   state_now=None if now_minutes is None else T0 + timedelta(minutes=now_minutes))
