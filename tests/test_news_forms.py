"""Good news in the forms people tell it, met as good news; a trouble over is good news; remembering.

'宝くじ当たってん！三千円やけどな笑' was read as a burn (やけど → 火傷), '膝の手術うまいこといってな、また
歩けるようになったんよ' as an illness ('無理しないで、ゆっくり休んでね'), 'マラソン完走したとよ！足ガクガクやけど'
as bad news, 'ぼくね、きょう はじめて およげたんだよ！' and '保護猫ちゃんがうちの子になった' as plain news.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.lexicon import cheer_words
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
HERE = "6-11 (喫茶店 店内)"
CARE = {line for kind in ("unwell", "hurt", "grief", "worry", "bad_news_plain") for line in NIKE.reactions[kind]}


def _reply(line: str, seed: str = "a", known: bool = False) -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed,
                   memory=Memory(here=HERE), place_name=HERE, partner_known=known)


@pytest.mark.parametrize("line", [
    "マラソン完走したとよ！足ガクガクやけど",
    "膝の手術うまいこといってな、また歩けるようになったんよ",
    "足、だいぶようなったよ",
    "ぼくね、きょう はじめて およげたんだよ！",
    "保護猫ちゃんがうちの子になった〜🐈✨",
    "先日の書道展で、拙作が賞をいただきました。",
    "ぽぽ きょうから おねえちゃん に なったの",
])
def test_good_news_in_its_many_forms_is_good_news(line: str) -> None:
    heard = hear(line)
    assert heard is not None and heard.mood == "good" and not heard.troubled, heard
    reply = _reply(line)
    assert not any(care in reply for care in CARE), reply


def test_a_kansai_yakedo_concedes_and_a_burn_is_still_a_burn() -> None:
    assert "hurt" not in hear("宝くじ当たってん！三千円やけどな笑").emotions  # type: ignore[union-attr]
    burn = hear("手をやけどしちゃった")
    assert burn is not None and burn.troubled


def test_a_trouble_over_is_met_as_good_news_not_said_back_wrong() -> None:
    reply = _reply("膝の手術うまいこといってな、また歩けるようになったんよ")
    assert "手術うまい" not in reply, reply


def test_asked_whether_it_remembers_it_says_so_only_of_someone_it_knows() -> None:
    assert any(line in _reply("前にお話しした猫のこと、覚えてますか？", known=True) for line in NIKE.answers["remember"])
    assert any(line in _reply("前にお話しした猫のこと、覚えてますか？", known=False) for line in NIKE.answers["forgot"])
    for line in ("ニケちゃん、ココが ひっこしても わすれない？", "忘れないでね"):
        assert any(said in _reply(line) for said in NIKE.answers["wont_forget"]), _reply(line)


@pytest.mark.parametrize("line", ["カラオケってよく行く？", "いつも何時に寝る？", "普段お酒飲む？"])
def test_a_habit_asked_of_is_no_invitation(line: str) -> None:
    heard = hear(line, own_names=("ニケ",))
    assert heard is not None and heard.kind != "invitation", heard


GOOD = ("完走した", "合格した", "優勝した", "賞をもらった", "退院できた", "歩けるようになった", "泳げるようになった")
WHO = ("", "うちの子が", "ぼく、", "母がね、", "わし、")
ASIDES = ("", "！", "！足ガクガクやけど", "！疲れたけど", "。ちょっと照れるけど")


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(who=st.sampled_from(WHO), good=st.sampled_from(GOOD), aside=st.sampled_from(ASIDES),
       seed=st.sampled_from("abcdef"))
def test_fuzz_good_news_with_a_trailing_aside_is_never_met_with_care(who: str, good: str, aside: str, seed: str) -> None:
    line = who + good + aside
    heard = hear(line)
    assert heard is not None and heard.mood == "good", (line, heard)
    reply = _reply(line, seed)
    assert not any(care in reply for care in CARE), (line, reply)


BAD = ("財布なくした", "試験に落ちた", "骨折した", "犬が死んじゃった", "バイトクビになった")


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(who=st.sampled_from(WHO), bad=st.sampled_from(BAD), aside=st.sampled_from(ASIDES),
       seed=st.sampled_from("abcdef"))
def test_fuzz_bad_news_with_a_trailing_aside_is_never_met_with_cheer(who: str, bad: str, aside: str, seed: str) -> None:
    line = who + bad + aside
    reply = _reply(line, seed)
    assert not any(w in reply for w in cheer_words()), (line, reply)
