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
