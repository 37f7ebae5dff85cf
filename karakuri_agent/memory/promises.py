"""A promise's whole life in one place: made from a line, called off or moved by a later one, kept
by going there or talking there, broken once its time is long past, and the time rules of each step.

reading/promise_lines.py understands the words (who, where, when); this module decides what they do to
the agent's promises and what a promise's state is at a moment. The context (`observe`, `view_of`),
the outcome's record, the deciders' queries, the pack's reactions and `day` all ask here, so a
promise `day` calls kept is the one the `promise_kept` reaction and the deciders call kept.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, Mapping, Sequence

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.records import Line, Meeting, Parsed, here_of
from karakuri_agent.reading.place_names import known_place
from karakuri_agent.reading.promise_lines import Promise, calls_off, changes_plan, extract_promises, line_key
from karakuri_agent.state.base import Store
from karakuri_agent.state.values import utc_text

# At most this many promises are read for one question (the soonest first).
COMMITMENT_LIMIT = 8
# Open promises stay on the context's list this long after their time: being late still counts.
COMMITMENT_GRACE = timedelta(hours=1)
# A promise is still on the list this long after its time: being late still counts.
MEETING_LOOKBACK = timedelta(minutes=30)
# Meetings a decider sees: far enough ahead that a long action is not started just before one.
MEETINGS_AHEAD = timedelta(hours=3)
# How far ahead a standing promise may still be moved or called off by a later line.
STANDING_AHEAD = timedelta(days=1)
# A promise still pending this long after its time can no longer be kept: it was broken (missed).
KEEPABLE_AFTER_DUE = timedelta(hours=3)
# ...and is kept no earlier than this before its time: being at the place (or with the partner) hours
# before is not meeting then (「14時に銭湯で」 agreed at the bath at 10:48 still stands).
KEEPABLE_BEFORE_DUE = timedelta(minutes=45)
# Standing at the promised place from this long before its time keeps the promise.
PRESENT_BEFORE_DUE = timedelta(minutes=10)
# Broken promises are looked for this far back before they became past keeping: one broken while the
# agent handled nothing for longer is not counted. At most this many promises (kept ones too) are read.
BROKEN_LOOKBACK = timedelta(days=2)
BROKEN_LIMIT = 100
# Keeping reads at most this many pending promises (those that can still be kept).
KEEPABLE_LIMIT = 50


# Two meetings this near in time at different places cannot both be kept: the later proposal is declined.
CLASH_WINDOW = timedelta(minutes=60)


def clashing(promise: Promise, standing: Sequence[Meeting]) -> Meeting | None:
    """The meeting already agreed with someone else, somewhere else, too near `promise`'s time to keep
    both, or None. The earlier promise stands; the new one is declined ("その時間は先約があるんだ").

    The same person naming another place at the same time moves their plan (`latest_plans`), and two
    meetings at one place are both kept there: neither clashes.
    """
    if promise.due_at is None:
        return None
    proposer = PersonRef(promise.partner_id, promise.partner_name)
    for row in standing:
        if row.due_at is None or row.partner.same(proposer) or abs(row.due_at - promise.due_at) >= CLASH_WINDOW:
            continue
        if (row.node_id and row.node_id == promise.node_id) or _one_place(row.place_name, promise.place_name):
            continue
        return row
    return None


def _one_place(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and (str(a) in str(b) or str(b) in str(a))


def missed(due: datetime | None, now: datetime) -> bool:
    """Past keeping: `now` is more than KEEPABLE_AFTER_DUE after its time."""
    return due is not None and due + KEEPABLE_AFTER_DUE < now


# -- made, moved, called off ----------------------------------------------------------------------
def hear(store: Store, notification_id: str, parsed: Parsed, *, me_id: str, me_name: str, seen_at: datetime,
         now: datetime, said_at: Callable[[str], datetime], first_seen: dict[str, datetime],
         places: Sequence[Mapping[str, Any]]) -> None:
    """What this notification's lines do to the agent's promises: new ones made, standing ones moved or called off.

    Times are read against when each line was first seen (`said_at` records it in `first_seen`), not
    this reading; `places` are those known now, this very text's buildings included.
    """
    conversation_id = parsed.conversation_id
    standing = standing_plans(store, seen_at)
    promises = extract_promises(parsed.conversation_messages, self_id=me_id, self_name=me_name, now=seen_at,
                                known_places=places, conversation_id=conversation_id, said_at=said_at,
                                standing=[_promise_of(row) for row in standing])
    timed = [p for p in promises if p.due_at is not None]  # a meeting needs a time it understood
    # What a new one may clash with: the standing plans and the pending ones days ahead (read only when needed).
    agreed = [*standing, *store.pending_commitments(seen_at - MEETING_LOOKBACK, COMMITMENT_LIMIT)] if timed else []
    declined: list[Promise] = []
    for promise in timed:
        store.add_commitment(notification_id, _commitment_row(promise))
        if clashing(promise, agreed) is not None:
            declined.append(promise)  # kept as a row (read again, it is not made anew), never pending
    _decline(store, declined)
    new_lines = [line for line in parsed.conversation_messages
                 if first_seen.get(line_key(line, conversation_id)) == seen_at]
    withdraw(store, withdrawn_by(new_lines, standing, promises, conversation_id, now))


def _decline(store: Store, declined: Sequence[Promise]) -> None:
    """The rows just made for proposals that clash with a meeting agreed before: withdrawn at once."""
    dues = [p.due_at for p in declined if p.due_at is not None]
    if not dues:
        return
    made = {(p.partner_id, p.partner_name, p.due_at, p.source_text) for p in declined}
    withdraw(store, [row.id for row in store.meetings(min(dues), max(dues), COMMITMENT_LIMIT * 4)
                     if (row.partner_id, row.partner_name, row.due_at, row.source_text) in made])


def standing_plans(store: Store, now: datetime) -> list[Meeting]:
    """Meetings still ahead (or just past) and not withdrawn, oldest promise first: what a later line may change."""
    rows = store.meetings(now - MEETING_LOOKBACK, now + STANDING_AHEAD, COMMITMENT_LIMIT)
    return sorted(latest_plans(rows), key=lambda r: r.id)


def withdraw(store: Store, ids: Iterable[int]) -> None:
    """Promises a later line called off or replaced: their status says so, and no query offers them again."""
    store.withdraw_commitments(dict.fromkeys(ids))


def withdrawn_by(lines: Sequence[Line], standing: Sequence[Meeting], promises: Sequence[Promise],
                 conversation_id: str | None, now: datetime) -> list[int]:
    """Standing promises that lines heard for the first time call off or replace.

    Only the speaker's own promises: "また今度にしよう" from one person
    leaves a meeting with another as it was. A line that changes the plan
    ("やっぱり16時に図書館で") replaces what the speaker agreed before; a
    line heard before changed nothing new, so re-reading it withdraws no
    promise made since.
    """
    made_now = {p.line_key for p in promises}
    ids: list[int] = []
    for line in lines:
        message = line.message
        replaces = changes_plan(message) and line_key(line, conversation_id) in made_now
        if calls_off(message, now) or replaces:
            ids += [row.id for row in standing if _same_speaker(row, line)]
    return ids


def _same_speaker(row: Meeting, line: Line) -> bool:
    return row.partner.same(line.person)


def _promise_of(row: Meeting) -> Promise:
    """A stored promise as the parser's value, so a later line can move it."""
    return Promise(partner_id=row.partner_id, partner_name=row.partner_name, place_name=row.place_name,
                   node_id=row.node_id, due_at=row.due_at, source_text=row.source_text)


def _commitment_row(promise: Promise) -> dict[str, Any]:
    return {
        "line_key": promise.line_key,
        "said_at": utc_text(promise.said_at) if promise.said_at else None,
        "partner_id": promise.partner_id,
        "partner_name": promise.partner_name,
        "place_name": promise.place_name,
        "node_id": promise.node_id,
        "due_at": utc_text(promise.due_at) if promise.due_at else None,
        "source_text": promise.source_text,
    }


# -- kept -----------------------------------------------------------------------------------------
def at_promised_place(promise: Meeting, node_id: str, label: str | None) -> bool:
    """Whether the place the agent stands at (`node_id`, its label) is the promise's place."""
    return bool(((node := promise.node_id) and node == node_id)
                or ((name := promise.place_name) and label and name in label))


def kept_by_being_there(promise: Meeting, node_id: str, label: str | None, at: datetime) -> bool:
    """The one rule for keeping a promise in place: at its place, around its time (from PRESENT_BEFORE_DUE
    before it until it can no longer be kept). Used when a notification is read and by `day`."""
    due = promise.due_at
    return (due is not None and at_promised_place(promise, node_id, label)
            and due - PRESENT_BEFORE_DUE <= at <= due + KEEPABLE_AFTER_DUE)


def keep_in_place(store: Store, parsed: Parsed, now: datetime) -> None:
    """A notification that shows the agent at a promised place around the promise's time keeps the promise."""
    here = here_of(parsed)
    if not here:
        return
    pending = store.pending_commitments(now - KEEPABLE_AFTER_DUE, KEEPABLE_LIMIT)
    store.fulfil_commitments(c.id for c in pending
                             if kept_by_being_there(c, here["node_id"], here.get("name"), now))


def _keepable(store: Store, now: datetime) -> list[Meeting]:
    """Pending promises that can be kept now: due within `KEEPABLE_BEFORE_DUE`, or past it by less than
    `KEEPABLE_AFTER_DUE`; one with no time, whenever."""
    return [c for c in store.pending_commitments(now - KEEPABLE_AFTER_DUE, KEEPABLE_LIMIT)
            if c.due_at is None or c.due_at - now <= KEEPABLE_BEFORE_DUE]


def keep_by_going(store: Store, node_id: str, now: datetime) -> None:
    """A move to the promised place keeps the promise (one that can still be kept)."""
    pending = _keepable(store, now)
    label = next((p.name for p in store.known_places() if p.node_id == node_id), "")
    store.fulfil_commitments(c.id for c in pending if at_promised_place(c, node_id, label))


def keep_by_talking(store: Store, parsed: Parsed, partner_ids: set[str], now: datetime) -> None:
    """Talking with the partner at the promised place (or of a promise with no place) keeps the promise.

    Not a promise made in this very notification: agreeing to meet is not meeting.
    """
    here: Mapping[str, Any] = here_of(parsed) or {}
    pending = _keepable(store, now)
    store.fulfil_commitments(
        c.id for c in pending
        if c.partner_id in partner_ids and c.notification_id != parsed.notification_id
        and (not (name := c.place_name) or c.node_id == here.get("node_id")
             or name in (here.get("name") or "")))


# -- where to be, and what was broken ---------------------------------------------------------------
def meetings_ahead(store: Store, now: datetime, until: datetime,
                   places: Sequence[Mapping[str, Any]]) -> list[Meeting]:
    """Where to be and when until `until`: the latest plan with each person, placed, none called off."""
    return placed(latest_plans(store.meetings(now - MEETING_LOOKBACK, until)), places)


def broken_promises(store: Store, now: datetime) -> list[Meeting]:
    """Promises with someone, not kept, whose time is more than `KEEPABLE_AFTER_DUE` past: broken.

    The same allowance as keeping and the day view's "missed": a promise
    still pending that long after its time can no longer be kept. One per
    person and time (the latest plan), none called off or replaced.
    """
    cutoff = now - KEEPABLE_AFTER_DUE
    rows = latest_plans(store.meetings(cutoff - BROKEN_LOOKBACK, cutoff, BROKEN_LIMIT))
    return [r for r in rows if r.status == "pending" and (r.partner_name or r.partner_id)
            and missed(r.due_at, now)]


def placed(meetings: Sequence[Meeting], places: Sequence[Mapping[str, Any]]) -> list[Meeting]:
    """Meetings whose place had no node when promised, placed by what is known now.

    'さくらで' names no node until the agent has seen 喫茶店「さくら」 on a
    building list; once it has, the promise's own words say where to go.
    """
    out: list[Meeting] = []
    for meeting in meetings:
        found = None if meeting.node_id else known_place(meeting.source_text, places)
        out.append(replace(meeting, place_name=found[0], node_id=found[1]) if found and found[1] else meeting)
    return out


def latest_plans(meetings: Sequence[Meeting]) -> list[Meeting]:
    """One meeting per person and time: the last one agreed, since a later line moved it elsewhere.

    A partner who says "やっぱり図書館にしない？" keeps the time and changes the
    place; both lines are promises, and only the later one is where to be.
    """
    def plan(meeting: Meeting) -> tuple[str, datetime | None]:
        return meeting.partner_id or meeting.partner_name, meeting.due_at

    latest: dict[tuple[str, datetime | None], Meeting] = {}
    for meeting in meetings:
        if plan(meeting) not in latest or meeting.id > latest[plan(meeting)].id:
            latest[plan(meeting)] = meeting
    return [m for m in meetings if latest[plan(m)] is m]
