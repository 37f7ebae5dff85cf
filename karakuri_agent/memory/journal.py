"""What the day view needs that no other table keeps: the journal's facts, written as the agent lives.

`karakuri-agent day` (day/) reads one in-world day back. Three kinds of
fact are written here, each keyed so that reading a notification again, or
seeing a line again in a later notification's history, adds nothing:

- `here`: where a notification found the agent (its text's location), one
  per notification; `arrival`: where an accepted move takes it and when
  (the server's `arrives_at`);
- `line`: one line of a conversation, the agent's own or someone else's,
  stamped when it was first seen, with who else was in the conversation
  (a saying is told apart by the sighting `hear_line` keeps for promises);
- `transfer`: a gift received, given or declined, with whom and what;
- `action`: an action the world accepted ('厚切りトーストを食べる'), by its name as the text offered it.

Which rule decided and how the variables changed are not written here: each
run's report entry keeps its rule trace already, and the day reads it there.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Iterable, TypedDict

from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.domain.commands import ACCEPT_TRANSFER, CONVERSATION, REJECT_TRANSFER
from karakuri_agent.domain.notification import parse_timestamp
from karakuri_agent.domain.identity import Identity, PersonRef
from karakuri_agent.domain.records import JournalEntry, Line, Parsed
from karakuri_agent.reading.promise_lines import line_key
from karakuri_agent.state.base import Store
from karakuri_agent.state.values import utc_text

# What an own line's key is made with beside its text: the notification it was said for.
OWN_LINE_CONTEXT = "for:"

HERE, ARRIVAL, LINE, TRANSFER, ACTION = "here", "arrival", "line", "transfer", "action"
RECEIVED, GIVEN, DECLINED = "received", "given", "declined"
# The same words from the same speaker, unseen this long, are said anew when they come back
# (for promises, context.py, and for the day's lines alike).
LINE_REPEAT_AFTER = timedelta(hours=12)


def observed(store: Store, parsed: Parsed, me: Identity, *, conversation: str, at: datetime,
             heard_at: datetime) -> None:
    """What a fetched notification shows: where the agent is, and the conversation's lines.

    `heard_at` is the notification's own time (its `created_at`, else the
    run's clock): where its text says the agent stands is true as of then,
    even when the message arrives late, and a line is told from an earlier
    sighting by it (`hear_line`, as promises do). Lines are stamped `at`, the
    run's clock, as the agent's own lines and every activity entry are, so a
    conversation's lines stay in the order they were said.
    """
    notification_id = parsed.notification_id
    here = parsed.location.get("current_node")
    if here:
        store.add_to_journal(notification_id, HERE, notification_id, heard_at,
                             {"node_id": here["node_id"], "label": here.get("name")})
    partners = _partner_names(parsed, me)
    for line in parsed.conversation_messages:
        text = line.message
        if not text:
            continue
        own = me.is_self(line.speaker_id, line.speaker)
        if own:
            continue  # journaled when said (acted)
        _line(store, notification_id, parsed.conversation_id, conversation, partners, at, heard_at,
              speaker=str(line.speaker or line.speaker_id or ""), speaker_id=line.speaker_id,
              text=text, own=own)


def acted(store: Store, *, notification_id: str, parsed: Parsed, me: Identity, conversation: str, command: str,
          params: dict[str, Any], result: dict[str, Any], now: datetime) -> None:
    """What an accepted command adds to the day: the walk's arrival, the agent's own line, a gift, an action."""
    if command == "action" and isinstance(params.get("action_id"), str):
        name = next((o["name"] for o in parsed.actions if o.get("action_id") == params["action_id"] and o.get("name")), "")
        if name:  # 'お昼なに食べた？' is answered from these
            store.add_to_journal(notification_id, ACTION, notification_id, now, {"name": name})
    if command == "move" and isinstance(params.get("target_node_id"), str):
        arrives = parse_timestamp(result.get("arrives_at")) or now
        store.add_to_journal(notification_id, ARRIVAL, notification_id, arrives,
                             {"node_id": params["target_node_id"]})
    message = params.get("message")
    if command in CONVERSATION and isinstance(message, str) and message:
        _line(store, notification_id, parsed.conversation_id, conversation, _partner_names(parsed, me), now,
              now, speaker=me.name or me.agent_id, speaker_id=me.agent_id or None, text=message, own=True)
    for index, gift in enumerate(_transfers(command, params, parsed, me)):
        store.add_to_journal(notification_id, TRANSFER, f"{notification_id}:{index}", now, gift)


def _line(store: Store, notification_id: str, conversation_id: str | None, conversation: str, partners: list[str],
          at: datetime, heard_at: datetime, *, speaker: str, speaker_id: str | None, text: str, own: bool) -> None:
    """One line, once per saying: seen again in a later history, it keeps its key and adds nothing.

    The agent's own lines are journaled once, when the command that said
    them is accepted (`acted`), keyed by that notification: the same words
    said to someone else later are a saying of their own. A history shows
    them again; `observed` leaves them to `acted`.
    """
    key = line_key(Line(speaker, text, speaker_id), OWN_LINE_CONTEXT + notification_id if own else conversation_id)
    first = store.hear_line(key, heard_at, LINE_REPEAT_AFTER)
    store.add_to_journal(notification_id, LINE, f"{key}@{utc_text(first)}", at, {
        "conversation": conversation, "partners": partners, "speaker": speaker, "speaker_id": speaker_id,
        "text": text, "own": own})


def _partner_names(parsed: Parsed, me: Identity) -> list[str]:
    """The conversation's others by name: its participants, else the speakers of its lines."""
    return list(dict.fromkeys(p.name for p in parsed.named() if p.name and not me.is_me(p)))


def _transfers(command: str, params: dict[str, Any], parsed: Parsed, me: Identity) -> Iterable[dict[str, Any]]:
    """The gifts an accepted command settles: an offer accepted or refused, or one the agent made."""
    response = str(params.get("transfer_response") or "")
    if command in ACCEPT_TRANSFER or "accept" in response:
        yield from _answered(parsed, RECEIVED)
    elif command in REJECT_TRANSFER or "reject" in response:
        yield from _answered(parsed, DECLINED)
    offer = params if command == "transfer" else params.get("transfer")
    if isinstance(offer, dict) and (offer.get("item") or offer.get("money")):
        target = str(offer.get("target_agent_id") or params.get("target_agent_id")
                     or params.get("next_speaker_agent_id") or "")
        names = {str(p.id): p.name for p in parsed.participants}
        yield _gift(GIVEN, names.get(target) or target, target or None, offer.get("item"), offer.get("money"))


def _answered(parsed: Parsed, direction: str) -> Iterable[dict[str, Any]]:
    for offer in parsed.transfers:
        if offer.get("status") == "offered" and offer.get("response_required"):
            sender: PersonRef = offer.get("from") or PersonRef(None, "")
            yield _gift(direction, sender.name, sender.id, offer.get("item"),
                        offer.get("money"))


def _gift(direction: str, partner: str, partner_id: str | None, item: Any, money: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        item = {"item_id": str(item.get("item_id") or ""), "quantity": item.get("quantity") or 1}
    else:
        item = None
    return {"direction": direction, "partner": partner, "partner_id": partner_id, "item": item,
            "money": money if isinstance(money, int) and not isinstance(money, bool) else None}


class Today(TypedDict):
    """The View's fields for the agent's day so far (`today`)."""

    day_places: tuple[str, ...]
    day_people: tuple[str, ...]
    day_said: tuple[str, ...]
    day_received: tuple[tuple[str, str | None, int], ...]
    day_arrived: tuple[tuple[str, str], ...]
    day_actions: tuple[str, ...]


def today(store: Store, now: datetime) -> Today:
    """The agent's day so far (``now``'s world day, Asia/Tokyo), newest first, each once: where
    notifications found it (a move set off is not an arrival) and whom it talked with: what it can
    truly say of its day (View.day_places, View.day_people), and what it did (View.day_actions, the
    actions the world accepted); its own lines today (View.day_said),
    none of which it says again that day, to anyone; and the gifts it took today (View.day_received),
    newest first."""
    start = now.astimezone(TOKYO).replace(hour=0, minute=0, second=0, microsecond=0)
    entries = list(reversed(store.journal_between(start, now + timedelta(seconds=1))))
    places = [e.text("label") for e in entries if e.kind == HERE]
    people = [name for e in entries if e.kind == LINE for name in e.texts("partners")]
    said = [e.text("text") for e in entries if e.kind == LINE and e.data.get("own")]
    return {"day_places": tuple(dict.fromkeys(p for p in places if p)),
            "day_people": tuple(dict.fromkeys(p for p in people if p)),
            "day_said": tuple(dict.fromkeys(line for line in said if line)),
            "day_received": tuple(_received(e.data) for e in entries
                                  if e.kind == TRANSFER and e.data.get("direction") == RECEIVED),
            "day_arrived": _arrivals(entries),
            "day_actions": tuple(e.text("name") for e in entries if e.kind == ACTION and e.text("name"))}


def talk(store: Store, conversation: str, since: datetime, now: datetime) -> tuple[str, ...]:
    """The lines of one conversation (its key) journaled since ``since``, both sides, oldest first."""
    entries = store.journal_between(since, now + timedelta(seconds=1))
    return tuple(e.text("text") for e in entries
                 if e.kind == LINE and e.data.get("conversation") == conversation and e.text("text"))


def _arrivals(newest_first: list[JournalEntry]) -> tuple[tuple[str, str], ...]:
    """(place, 'HH:MM' in Tokyo) of each place a notification first found the agent at, after being
    elsewhere (the arrival of that stay), newest first: 'いつ来たの？' is answered from these."""

    out: list[tuple[str, str]] = []
    last = ""
    for entry in reversed(newest_first):
        if entry.kind != HERE:
            continue
        label = str(entry.data.get("label") or "")
        at = entry.at
        if label and label != last and at is not None:
            out.append((label, at.astimezone(TOKYO).strftime("%H:%M")))
        last = label or last
    return tuple(reversed(out))


def _received(gift: dict[str, Any]) -> tuple[str, str | None, int]:
    """A gift taken today as (from whom, the item's id or None for money, how many or how much)."""
    item = gift.get("item") if isinstance(gift.get("item"), dict) else None
    if item is not None:
        quantity = item.get("quantity")
        return str(gift.get("partner") or ""), str(item.get("item_id") or ""), quantity if isinstance(quantity, int) else 1
    money = gift.get("money")
    return str(gift.get("partner") or ""), None, money if isinstance(money, int) else 0
