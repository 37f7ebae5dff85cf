"""What the agent holds, read from the server's texts and answers: money and items (domain/holdings.py).

One reader for every place the world says it:

- `read_text(text)`: the perception's `所持金: 10,000円` and `所持品: 5 個` /
  `所持品: なし`, the status answer's `所持品:` list (`- 映画チケット
  (movie-ticket) ×1`), the older perception's `アイテム: パン (bread) ×2, …`,
  and a refusal's `必要なアイテムが足りません（必要: 映画チケット×1）` (then
  fewer than that is held);
- `read_answer(data)`: an information answer's `money` and `items`
  (`[{item_id, name, quantity}]`), anywhere in it;
- `needs_of(option)`: what an offered action (reading/offers.py) asks for.

Pure and total: text or data it does not understand reads as "nothing
known" (`Holdings()`), never an error. Only the server's own lines count,
never quoted speech.
"""

from __future__ import annotations

from typing import Any, Mapping

from karakuri_agent.domain.holdings import Held, Holdings, Need
from karakuri_agent.ja.notification_text import (
    HELD_ITEM,
    HELD_LINE,
    ITEM_COUNT,
    ITEMS_LINE,
    ITEMS_SHORT,
    MONEY_LINE,
    NOTHING_HELD,
    REQUIRED_ITEM,
)
from karakuri_agent.reading.textparse import server_lines

__all__ = ["Held", "Holdings", "Need", "needs_of", "read_answer", "read_text", "short_of"]


def read_text(text: object, *, at: str | None = None) -> Holdings:
    """The money and items a text states (None where it states nothing)."""
    money: int | None = None
    items: list[Held] | None = None
    count: int | None = None
    listing = False
    for line in server_lines(text):
        stripped = line.strip()
        if listing and (entry := HELD_LINE.match(stripped)) and (held := _held(entry.group("entry"))):
            assert items is not None
            items.append(held)
            continue
        listing = False
        if (found := MONEY_LINE.match(stripped)) is not None:
            money = int(found.group("yen").replace(",", ""))
        elif (found := ITEMS_LINE.match(stripped)) is not None:
            rest = found.group("rest").strip()
            if rest == NOTHING_HELD:
                items, count = [], None
            elif (counted := ITEM_COUNT.match(rest)) is not None:
                count = int(counted.group("n"))
            elif not rest:
                items, listing = [], True  # the status answer's list follows, one item a line
            else:
                items = [h for m in HELD_ITEM.finditer(rest) if (h := _held(m.group(0)))]
    return Holdings(money=money, items=None if items is None else tuple(items), item_count=count, at=at)


def short_of(text: object) -> list[Need]:
    """What a refusal says the agent lacked (`必要なアイテムが足りません（必要: 映画チケット×1）`)."""
    needs: list[Need] = []
    for line in server_lines(text):
        for found in ITEMS_SHORT.finditer(line):
            needs += [need for part in found.group("needs").split(",") if (need := _need(part))]
    return needs


def read_answer(data: Any) -> Holdings:
    """`money` and `items` of an information answer (the status, the perception), at any depth."""
    for item in _dicts(data):
        money, items = item.get("money"), item.get("items")
        if isinstance(money, int) and not isinstance(money, bool) or isinstance(items, list):
            held = None if not isinstance(items, list) else tuple(
                Held(int(i["quantity"]), _str(i.get("item_id")), _str(i.get("name")))
                for i in items if isinstance(i, Mapping) and isinstance(i.get("quantity"), int)
                and not isinstance(i.get("quantity"), bool) and i["quantity"] > 0)
            return Holdings(money=money if isinstance(money, int) and not isinstance(money, bool) else None,
                            items=held)
    return Holdings()


def needs_of(option: Mapping[str, Any] | None) -> list[Need]:
    """What an offered action (reading/offers.py's `needs`) takes from the agent's items."""
    if not option:
        return []
    return [Need(str(n["item"]), int(n.get("quantity") or 1)) for n in option.get("needs") or []
            if isinstance(n, Mapping) and n.get("item")]


def _held(entry: str) -> Held | None:
    found = HELD_ITEM.search(entry)
    if found is None:
        return None
    return Held(int(found.group("qty")), found.group("id"), found.group("name").strip())


def _need(part: str) -> Need | None:
    found = REQUIRED_ITEM.match(part.strip())
    return Need(found.group("item").strip(), int(found.group("qty"))) if found else None


def _str(value: Any) -> str | None:
    return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value) else None


def _dicts(data: Any, depth: int = 0) -> list[dict[str, Any]]:
    """The answer itself and the dicts inside it, outermost first, bounded."""
    if depth > 4:
        return []
    if isinstance(data, dict):
        found = [data]
        for value in data.values():
            found += _dicts(value, depth + 1)
        return found[:200]
    if isinstance(data, list):
        return [d for value in data[:200] for d in _dicts(value, depth + 1)][:200]
    return []
