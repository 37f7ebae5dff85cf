"""Greetings returned in kind; farewells, apologies and thanks in more registers.

'おはようございます' got 'おつかれさま', 'おはー' and 'ニケちゃんおつ〜👋' got 'そっか、なるほどね', 'んだら、まだね'
and 'それでは、ごきげんよう。' got 'へえ〜、そっか', 'この前はきつい言い方してすまなかったね' got 'おつかれさま！
今日はゆっくり休んでね', and '親が入院することになって、しばらく実家帰らなきゃ' got a cheerful goodbye.
Greetings are data now (concepts.json `greetings`, by kind), returned from the pack's greeting of the same
kind.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.greetings import greeting, greets_only
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
HERE = "6-11 (喫茶店 店内)"
OWN = ("AIニケちゃん", "ニケ")


def _said(purpose: str, line: str, seed: str = "a") -> str:
    return compose(purpose, persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed,
                   memory=Memory(here=HERE), place_name=HERE, partner_known=True)


def _greets_with(reply: str, kind: str) -> bool:
    return any(line.replace("{partner}", "ユウさん") in reply for line in NIKE.greetings[kind])


@pytest.mark.parametrize("line, kind", [
    ("おはー", "morning"), ("おはよがんす", "morning"), ("おはようございます", "morning"),
    ("こんにちは、ニケさん", "day"), ("こんばんは〜", "evening"), ("ニケちゃんおつ〜👋", "tired"),
    ("お久しぶりです！", "again"), ("ニケちゃーん！", "hey"), ("やっほー", "hey"),
])
def test_a_greeting_is_read_by_kind_and_returned_in_kind(line: str, kind: str) -> None:
    assert greeting(line, OWN) == kind and greets_only(line, OWN)
    for purpose in ("reply", "accept"):
        for seed in "abc":
            assert _greets_with(_said(purpose, line, seed), kind), (purpose, _said(purpose, line, seed))


@pytest.mark.parametrize("line", ["今日はおつかれだね", "ニケちゃん、金魚が死んじゃった", "おはよう…金魚が死んじゃった"])
def test_a_line_that_tells_more_than_a_greeting_is_no_greeting_only(line: str) -> None:
    assert not greets_only(line, OWN)
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind != "greeting"


def test_trouble_after_a_morning_greeting_gets_care_not_a_good_morning() -> None:
    reply = _said("reply", "おはよう…金魚が死んじゃった")
    assert not _greets_with(reply, "morning") and "いい朝" not in reply, reply


@pytest.mark.parametrize("line, kind", [
    ("んだら、まだね", "farewell"), ("それでは、ごきげんよう。", "farewell"), ("さて、暗くなる前に帰るとするかね", "farewell"),
    ("あ、もうこんな時間！帰らなきゃ", "farewell"),
    ("本日はお時間をいただき、ありがとうございました。また改めてお伺いいたします。", "farewell"),
    ("待ち合わせ遅れてごめ〜ん🙏💦", "apology"), ("この前はきつい言い方してすまなかったね", "apology"),
    ("こないだはありがどね、おかげで助かったよ", "thanks"), ("先日は大変お世話になりました。心より御礼申し上げます。", "thanks"),
])
def test_farewells_apologies_and_thanks_in_more_registers(line: str, kind: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == kind, heard


def test_news_of_going_home_for_a_while_is_no_goodbye() -> None:
    heard = hear("親が入院することになって、しばらく実家帰らなきゃ", own_names=OWN)
    assert heard is not None and heard.kind != "farewell" and heard.troubled
    assert not any(line in _said("reply", "親が入院することになって、しばらく実家帰らなきゃ") for line in NIKE.farewells)


def test_asked_whether_it_waited_after_an_apology_it_reassures() -> None:
    reply = _said("reply", "ごめん遅れた！待った？")
    assert "待ったよ" not in reply and any(line in reply for line in NIKE.reactions["apology"]), reply


WORDS = {"morning": ("おはよう", "おはよー", "おはようございます", "おはー"), "day": ("こんにちは", "こんにちわ"),
         "evening": ("こんばんは", "こんばんわ"), "tired": ("おつかれさま", "おつかれー", "お疲れ様です")}
CALLS = ("", "ニケちゃん、", "ニケさん", "にけちゃーん、")
ENDS = ("", "！", "〜", "♪", "👋", "！！")


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(kind=st.sampled_from(sorted(WORDS)), data=st.data())
def test_fuzz_a_greeting_in_any_spelling_is_returned_in_kind(kind: str, data: st.DataObject) -> None:
    word = data.draw(st.sampled_from(WORDS[kind]))
    call, end = data.draw(st.sampled_from(CALLS)), data.draw(st.sampled_from(ENDS))
    line = f"{call}{word}{end}" if data.draw(st.booleans()) else f"{word}、{call.rstrip('、')}{end}"
    assert greeting(line, OWN + ("にけ",)) == kind, line
    reply = _said(data.draw(st.sampled_from(("reply", "accept"))), line, data.draw(st.sampled_from("abcdef")))
    assert _greets_with(reply, kind), (line, reply)


def test_a_greeting_after_something_told_is_returned_before_the_answer() -> None:
    reply = _said("reply", "きのうはありがとう。おはよう")
    assert _greets_with(reply, "morning"), reply
    assert greeting("いやあ、久しぶりやなあ", OWN) == "again" and greeting("娘が久しぶりに帰ってくるんよ", OWN) == ""
