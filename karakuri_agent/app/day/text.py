"""The day as a summary a person reads in a minute (`karakuri-agent day`): times in the world's zone."""

from __future__ import annotations

from datetime import datetime
from typing import Iterable

from karakuri_agent.app.day.model import ZONE, Day, Transfer
from karakuri_agent.ja import day_text
from karakuri_agent.ja import markup, phrases

FIRST_LAST_CHARS = 60


def lines(day: Day) -> Iterable[str]:
    if day.empty:
        yield f"{day.date.isoformat()} ({ZONE}): no activity recorded on this day."
        return
    sent = sum(day.commands.values())
    yield f"{day.date.isoformat()} ({ZONE}): {day.notifications} notifications, {sent} commands sent"
    yield from _section("Places, in the order visited", (
        f"  {_hm(v.arrived_at)}  {v.label} [{v.node_id}]" for v in day.places))
    yield from _section("Conversations", _conversations(day))
    yield from _section("Promises", (
        "  " + day_text.promise(p.status, p.partner, p.place or day_text.NO_PLACE_SAID, _when(p.due_at),
                              _hm(p.made_at), _hm(p.kept_at) if p.kept_at else None)
        for p in day.promises))
    yield from _section("Gifts", (f"  {_hm(t.at)}  {_gift(t)}" for t in day.transfers))
    yield from _section("Commands", [
        "  " + ", ".join(f"{name} {count}" for name, count in sorted(day.commands.items(), key=lambda c: -c[1]))
    ] if day.commands else [])
    yield from _section("Failures", (
        f"  {_hm(f.at)}  {f.notification_id}  {f.error}" + (f": {f.message}" if f.message else "")
        for f in day.failures))
    yield from _section("Rules that fired", (f"  {_hm(r.at)}  {r.rule} → {r.command or 'no command'}"
                                             for r in day.rules_fired))
    yield from _section("Variables", (f"  {_hm(v.at)}  {v.path} = {v.value}" for v in day.variables))
    yield from _section("Learned", (
        f"  {_hm(f.at)}  from {f.teller or 'someone'}" + (f" about {f.about}" if f.about and f.about != f.teller
                                                         else "")
        + f": {f.kind} {f.topic}{markup.quoted(_short(f.line))}" + ("  (taken back)" if f.withdrawn else "")
        for f in day.learned))


def _conversations(day: Day) -> Iterable[str]:
    for talk in day.conversations:
        counts = ", ".join(f"{speaker} {n}" for speaker, n in talk.lines_by_speaker().items())
        yield (f"  {_hm(talk.started_at)}–{_hm(talk.ended_at)}  with {markup.LIST_JOIN.join(talk.partners) or 'someone'}:"
               f" {len(talk.lines)} lines ({counts})")
        first, last = talk.lines[0], talk.lines[-1]
        yield f"      first: {first.speaker}{markup.quoted(_short(first.text))}"
        if len(talk.lines) > 1:
            yield f"      last:  {last.speaker}{markup.quoted(_short(last.text))}"


def _section(title: str, rows: Iterable[str]) -> Iterable[str]:
    rows = list(rows)
    if rows:
        yield ""
        yield title
        yield from rows


def _gift(t: Transfer) -> str:
    what = f"{t.item['item_id']}×{t.item['quantity']}" if t.item else phrases.yen(t.money) if t.money else ""
    return day_text.gift(t.direction, what, t.partner)


def _short(text: str) -> str:
    return text if len(text) <= FIRST_LAST_CHARS else text[: FIRST_LAST_CHARS - 1] + "…"


def _hm(moment: datetime | None) -> str:
    return moment.astimezone(ZONE).strftime("%H:%M") if moment else "--:--"


def _when(moment: datetime | None) -> str:
    return moment.astimezone(ZONE).strftime("%m-%d %H:%M") if moment else day_text.NO_TIME
