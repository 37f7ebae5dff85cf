"""When a sentence asks (ja/sentences.is_asking): a question word inside a clause it says it does not know tells."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from karakuri_agent.ja.sentences import is_asking

pytestmark = pytest.mark.unit

CLAUSES = ["どう謝ったらええか", "なに着ていけばいいか", "どこ行ったらいいか", "いつ終わるか", "誰に聞けばいいか",
           "なんで怒ってるのか", "どっちがいいか"]
NOT_KNOWING = ["わからん", "わからない", "分からない", "分からへん", "わからんけど", "知らない", "知らん", "わかんないよ"]


@given(clause=st.sampled_from(CLAUSES), end=st.sampled_from(NOT_KNOWING), subject=st.sampled_from(["", "もう", "全然"]))
def test_a_question_word_in_a_clause_not_known_tells_unless_a_mark_asks(clause, end, subject):
    told = f"{clause}{subject}{end}"
    assert not is_asking(told)
    assert is_asking(told + "？")  # a question mark asks whatever the words are


@pytest.mark.parametrize("line", ["今日どこ行ったの", "なんで知らんの", "何時に来るん", "どっちが好きなん"])
def test_a_question_word_with_an_asking_end_still_asks(line):
    assert is_asking(line)


# -- a yes/no question's own predicate, said back (reading/question_kinds.predicate) ---------------------
from karakuri_agent.reading.question_kinds import predicate  # noqa: E402

OWN = ("AIニケちゃん", "ニケ")


@pytest.mark.parametrize("question, said_back", [
    ("それ、自分で作ったりもする？", "作ったりもする"),
    ("楽しめた？", "楽しめた"),
    ("こわくなかった？", "こわかった"),  # the negation of the question is not the answer's
    ("寒くない？", "寒い"),
    ("明日って空いてる？", "空いてる"),
    ("病院連れてったほうがいいかな？", "連れてったほうがいい"),
    ("ニケちゃんって泳げる？", "泳げる"),
    ("ピアノ弾けるん？", "弾ける"),  # the explanatory ん after a plain form
    ("昨日の夜の雷、起きちゃった？", "起きちゃった"),
])
def test_a_yes_no_question_says_back_its_own_predicate(question, said_back):
    assert predicate(question, OWN) == said_back


@pytest.mark.parametrize("question", [
    "一緒に来てくれる？",  # a favour asked
    "甘いもの食べられますか？",  # polite: not the agent's register
    "行かなかった？",  # a negated verb: no plain answer to say back
    "送っていこか？",  # an offer (volitional)
    "わしの入れ歯知らんかの",  # knowing is not claimed; 知らん negates
    "喫茶店の新メニューってなにか知ってる？",
    "今日は朝からずっと外出とったん？",  # a dialect's ておる
    "商店街のたい焼き屋、まだやってるん？",  # the shop's to say, not the agent's
    "あの店って、まだやってる？",
    "元気？",  # no predicate
    "どや？甘すぎひん？",  # a Kansai negation the analyzer reads as a verb (干る): 「うん！ひんよ。」 was said
    "これ、辛ない？",  # a negation alone
    "パン、かたすぎへん？",
])
def test_nothing_is_said_back_that_would_not_be_the_agents(question):
    assert predicate(question, OWN) == ""
