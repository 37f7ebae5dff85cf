"""What the agent holds: its money and its items, as far as it knows them.

The texts tell it in pieces: the perception's `所持金: 10,000円` (always),
`所持品: 5 個` (only how many, in the engine's newer texts) or the older
`アイテム: パン (bread) ×2`, the status answer's list
(`- 映画チケット (movie-ticket) ×1`); what it spent and received follows
from its own commands. `Holdings` keeps what is known and says "unknown"
(None) for the rest, so a decider can tell "cannot afford" from "cannot
tell". Read by reading/money_and_items.py, kept by memory/kept_holdings.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping


@dataclass(frozen=True)
class Held:
    """One kind of item held: its id and name where known, and how many."""

    quantity: int
    item_id: str | None = None
    name: str | None = None

    def is_(self, item: str) -> bool:
        """This is the item called `item` (by id or by name)."""
        return item in (self.item_id, self.name)


@dataclass(frozen=True)
class Need:
    """What an action asks for: an item (by name or id) and how many."""

    item: str
    quantity: int = 1


@dataclass(frozen=True)
class Holdings:
    """Money and items; None where unknown. `items` None with `item_count` set: only the total is known."""

    money: int | None = None
    items: tuple[Held, ...] | None = None
    item_count: int | None = None
    at: str | None = field(default=None, compare=False)  # when it was last read (ISO text), for ordering

    @property
    def known(self) -> bool:
        return self.money is not None or self.items is not None or self.item_count is not None

    def quantity_of(self, item: str) -> int | None:
        """How many of `item` (id or name) the agent holds; None when it cannot tell."""
        if self.item_count == 0 or self.items == ():
            return 0
        if self.items is None:
            return None
        found = [h.quantity for h in self.items if h.is_(item)]
        if found:
            return sum(found)
        # Every item known by name: one not among them is not held. An item known by id only might be it.
        return 0 if all(h.name for h in self.items) else None

    def can_pay(self, yen: int | None) -> bool | None:
        if not yen or yen <= 0:
            return True
        return None if self.money is None else self.money >= yen

    def has(self, needs: Iterable[Need]) -> bool | None:
        """All the needs are met (True), one is surely not (False), or it cannot tell (None)."""
        verdict: bool | None = True
        for need in needs:
            held = self.quantity_of(need.item)
            if held is None:
                verdict = None
            elif held < need.quantity:
                return False
        return verdict

    def affords(self, cost: int | None, needs: Iterable[Need] = ()) -> bool | None:
        """The agent can pay and holds what is needed: True, False (surely short) or None (cannot tell)."""
        pay, hold = self.can_pay(cost), self.has(needs)
        if pay is False or hold is False:
            return False
        return None if pay is None or hold is None else True

    def updated(self, newer: Holdings) -> Holdings:
        """These holdings with what a newer reading says put over them (what it does not say stays)."""
        items, count = self.items, self.item_count
        if newer.items is not None:
            items, count = newer.items, None
        elif newer.item_count is not None:
            known_total = sum(h.quantity for h in items) if items is not None else None
            if known_total != newer.item_count:
                items = None  # the count says the list is out of date
            count = newer.item_count
        return Holdings(money=newer.money if newer.money is not None else self.money, items=items,
                        item_count=count, at=newer.at or self.at)

    def spent(self, yen: int | None = None, needs: Iterable[Need] = ()) -> Holdings:
        """After paying `yen` and giving up `needs` (an action started, a gift given)."""
        money = self.money - yen if self.money is not None and yen else self.money
        items, count = self.items, self.item_count
        for need in needs:
            if items is not None:
                items = _less(items, need)
            if count is not None:
                count = max(0, count - need.quantity)
        return replace(self, money=max(0, money) if money is not None else None, items=items, item_count=count)

    def received(self, yen: int | None = None, item: Held | None = None) -> Holdings:
        """After money or an item came in (a gift accepted, a reward)."""
        money = self.money + yen if self.money is not None and yen else self.money
        items, count = self.items, self.item_count
        if item is not None and item.quantity > 0:
            if items is not None:
                same = [h for h in items if (item.item_id and h.item_id == item.item_id) or (item.name and h.name == item.name)]
                rest = tuple(h for h in items if h not in same)
                total = sum(h.quantity for h in same) + item.quantity
                first = same[0] if same else item
                items = rest + (Held(total, first.item_id or item.item_id, first.name or item.name),)
            if count is not None:
                count += item.quantity
        return replace(self, money=money, items=items, item_count=count)

    def to_json(self) -> dict[str, Any]:
        return {"money": self.money, "item_count": self.item_count, "at": self.at,
                "items": None if self.items is None else
                [{"item_id": h.item_id, "name": h.name, "quantity": h.quantity} for h in self.items]}

    @classmethod
    def from_json(cls, data: Any) -> Holdings:
        """Holdings from `to_json`'s shape; anything else is "nothing known"."""
        if not isinstance(data, Mapping):
            return cls()
        money, count = data.get("money"), data.get("item_count")
        raw = data.get("items")
        items = None if not isinstance(raw, list) else tuple(
            Held(int(i["quantity"]), _text(i.get("item_id")), _text(i.get("name")))
            for i in raw if isinstance(i, Mapping) and _count(i.get("quantity")) is not None)
        return cls(money=_count(money), items=items, item_count=_count(count), at=_text(data.get("at")))


def _less(items: tuple[Held, ...], need: Need) -> tuple[Held, ...]:
    out, left = [], need.quantity
    for held in items:
        if left and held.is_(need.item):
            taken = min(left, held.quantity)
            left -= taken
            held = replace(held, quantity=held.quantity - taken)
        if held.quantity > 0:
            out.append(held)
    return tuple(out)


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _text(value: Any) -> str | None:
    return str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value) else None
