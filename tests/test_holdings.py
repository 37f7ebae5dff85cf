"""The reader of what the agent holds (reading/money_and_items.py) and its value type (domain/holdings.py)."""

from __future__ import annotations

import pytest

from karakuri_agent.domain.holdings import Held, Holdings, Need
from karakuri_agent.reading import money_and_items


@pytest.mark.parametrize("text, money, items, count", [
    ("所持金: 10,000円\n所持品: 5 個", 10_000, None, 5),  # the newer perception: only how many
    ("所持金: 0円\n所持品: なし", 0, (), None),
    ("現在地: 6-11\n所持金: 9,050円\n所持品:\n- 映画チケット (movie-ticket) ×1\n- パン (bread) ×2\n\n選択肢:",
     9_050, (Held(1, "movie-ticket", "映画チケット"), Held(2, "bread", "パン")), None),  # the status answer
    ("所持金: 300円\nアイテム: パン (bread) ×2, 花束 (flower-bouquet) ×1", 300,
     (Held(2, "bread", "パン"), Held(1, "flower-bouquet", "花束")), None),  # the older perception
    ("アイテム: なし", None, (), None),
    ("桜草メイ: 「所持金: 99,999円 って言ってみたい」", None, None, None),  # speech is never the server's word
    ("何もない", None, None, None),
])
def test_the_texts_holdings_are_read_in_every_form(text, money, items, count):
    held = money_and_items.read_text(text)
    assert (held.money, held.items, held.item_count) == (money, items, count)


def test_an_answer_is_read_at_any_depth_and_nonsense_is_nothing_known():
    answer = {"command": "get_status", "data": {"money": 300, "items": [
        {"item_id": "bread", "name": "パン", "quantity": 2}, {"item_id": "x", "quantity": "many"}]}}
    assert money_and_items.read_answer(answer) == Holdings(300, (Held(2, "bread", "パン"),))
    assert not money_and_items.read_answer(["所持金", 5, None]).known


def test_a_refusal_says_what_was_short():
    text = "「映画を観る」を実行できませんでした。必要なアイテムが足りません（必要: 映画チケット×1, パン×2）。"
    assert money_and_items.short_of(text) == [Need("映画チケット", 1), Need("パン", 2)]


@pytest.mark.parametrize("held, cost, needs, verdict", [
    (Holdings(money=500), 450, [], True),
    (Holdings(money=400), 450, [], False),
    (Holdings(), 450, [], None),  # money unknown
    (Holdings(money=500, item_count=0), None, [Need("映画チケット")], False),
    (Holdings(money=500, item_count=3), None, [Need("映画チケット")], None),  # three things, which ones?
    (Holdings(items=(Held(1, "movie-ticket", "映画チケット"),)), None, [Need("映画チケット")], True),
    (Holdings(items=(Held(1, "movie-ticket", "映画チケット"),)), None, [Need("映画チケット", 2)], False),
    (Holdings(items=(Held(1, "movie-ticket"),)), None, [Need("映画チケット")], None),  # an id, no name: maybe
    (Holdings(money=100, items=(Held(1, "movie-ticket", "映画チケット"),)), 450, [Need("映画チケット")], False),
])
def test_affords_tells_cannot_from_cannot_tell(held, cost, needs, verdict):
    assert held.affords(cost, needs) is verdict


def test_a_count_that_disagrees_with_the_list_makes_the_list_unknown_and_changes_round_trip():
    listed = Holdings(money=100, items=(Held(2, "bread", "パン"),))
    assert listed.updated(Holdings(item_count=2)).items == listed.items
    assert listed.updated(Holdings(item_count=3)).items is None
    after = listed.spent(50, [Need("パン")]).received(200, Held(1, "omikuji", "おみくじ"))
    assert (after.money, after.items) == (250, (Held(1, "bread", "パン"), Held(1, "omikuji", "おみくじ")))
    assert Holdings.from_json(after.to_json()) == after
