"""Warmth and compliments in the forms people say them: dialect, a question asking to agree, a first friend.

'ニケちゃん今日なんかいつもよりかわいくない？✨' got 'うんうん！それ、ちょっと気になるな' (a negation read as turning
the compliment), 'ニケちゃんの笑った顔、好いとうよ' and '…最初のお友達がニケさんで本当によかったです' an
acknowledgement, 'ニケちゃんと話すと楽しかけん、つい長居…' 'よかったね！'.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.sentiment import feel

OWN = ("AIニケちゃん", "ニケ")


@pytest.mark.parametrize("line, kinds", [
    ("ニケちゃん今日なんかいつもよりかわいくない？✨", ("compliment",)),
    ("ニケちゃんの笑った顔、好いとうよ", ("warmth", "compliment")),
    ("ニケちゃんと話すと楽しかけん、つい長居してしまうっちゃんね", ("warmth",)),
    ("この町に越してきてから心細かったんですけど、最初のお友達がニケさんで本当によかったです。", ("warmth",)),
    ("まじ神すぎん？ありがと〜", ("thanks", "compliment")),  # thanks after the question is no aside
])
def test_warmth_and_compliments_in_their_forms(line: str, kinds: tuple[str, ...]) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind in kinds, heard


def test_an_adjectives_negation_asking_to_agree_says_the_thing_a_verbs_still_turns_it() -> None:
    assert feel("かわいくない？").polarity > 0 and feel("楽しくなかった？").polarity > 0
    assert feel("楽しくなかった").polarity < 0
    assert "worried" in feel("眠れない？").emotions


ADJECTIVES = ("かわいく", "きれいじゃ", "すてきじゃ", "優しく")
CALLS = ("ニケちゃん", "ニケさんって", "ニケちゃん今日")


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(call=st.sampled_from(CALLS), adjective=st.sampled_from(ADJECTIVES), end=st.sampled_from(("ない？", "ない？✨", "ないか？")))
def test_fuzz_a_compliment_asked_as_a_negative_question_is_a_compliment(call: str, adjective: str, end: str) -> None:
    line = f"{call}、{adjective}{end}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "compliment", (line, heard)
