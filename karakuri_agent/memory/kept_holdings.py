"""What the agent holds, kept between notifications: the newest reading, and what its own commands changed.

The texts state the money every time and the items in pieces
(reading/money_and_items.py); a command the world accepted changes them before the
next text says so: an action started pays its cost and gives up the items
it needs, a gift accepted comes in, a gift offered goes out. One knowledge
note holds the result; a reading older than the one kept changes nothing
(a stale notification fetched late), and reading the same text again
changes nothing either.
"""

from __future__ import annotations

from typing import Any, Mapping

from karakuri_agent.domain.holdings import Held, Holdings, Need
from karakuri_agent.domain.records import Parsed
from karakuri_agent.memory import knowledge
from karakuri_agent.reading import money_and_items
from karakuri_agent.state.base import Store

ACCEPTING = ("accept_transfer", "transfer_accept")
SPEAKING = ("conversation_speak", "end_conversation", "conversation_end")


def held(store: Store) -> Holdings:
    """What the agent holds, as far as it knows."""
    entry = store.knowledge(knowledge.HOLDINGS)
    return Holdings.from_json((entry or {}).get("value"))


def learn_from_text(store: Store, text: str, seen_at: str) -> None:
    """The money and items a notification's text states, unless what is kept was read later."""
    _learn(store, money_and_items.read_text(text, at=seen_at))


def learn_from_answer(store: Store, data: Any, at: str) -> None:
    newer = money_and_items.read_answer(data)
    if newer.known:
        _learn(store, Holdings(newer.money, newer.items, newer.item_count, at=at))


def after_command(store: Store, command: str, params: Mapping[str, Any], parsed: Parsed) -> None:
    """What an accepted command took or brought: an action's cost and items, a gift in or out."""
    now = held(store)
    changed = now
    if command == "action":
        option = next((a for a in parsed.actions if a.get("action_id") == params.get("action_id")), None)
        if option is not None:
            changed = now.spent(option.get("cost"), money_and_items.needs_of(option))
    elif command in ACCEPTING or (command in SPEAKING and params.get("transfer_response") == "accept"):
        offer = next((t for t in parsed.transfers if t.get("response_required")), None)
        if offer is not None:
            changed = now.received(_yen(offer.get("money")), _item(offer.get("item")))
    elif command == "transfer":
        item = params.get("item") if isinstance(params.get("item"), Mapping) else None
        given = _item(item)
        changed = now.spent(_yen(params.get("money")),
                            [Need(given.item_id or "", given.quantity)] if given and given.item_id else [])
    if changed != now:
        store.set_knowledge(knowledge.HOLDINGS, changed.to_json())


def _learn(store: Store, newer: Holdings) -> None:
    if not newer.known:
        return
    kept = held(store)
    if kept.at and newer.at and newer.at <= kept.at:
        return  # read before (the same text again), or older than what is kept
    updated = kept.updated(newer)
    if updated != kept or updated.at != kept.at:
        store.set_knowledge(knowledge.HOLDINGS, updated.to_json())


def _yen(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _item(value: Any) -> Held | None:
    if not isinstance(value, Mapping):
        return None
    quantity = value.get("quantity")
    count = quantity if isinstance(quantity, int) and not isinstance(quantity, bool) and quantity > 0 else 1
    item_id = value.get("item_id")
    return Held(count, str(item_id) if item_id else None, str(value["name"]) if value.get("name") else None)
