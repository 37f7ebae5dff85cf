"""What a line does, read whatever it is wrapped in (set-6, read by a reader: 11 speech acts misread).

'選ばれへんかったらどうしよ' was an invitation ('いいね、そうしよう！'), 'やっぱやめたほうがいいかな' a plan
taken back, '沖縄と北海道で迷ってる〜 ニケちゃんならどっち？' a worry, 'ニケちゃんのおらんかったら、この町
つまらんばい' plain news, '傘、まだ返さねでわりいな' a misfortune, 'まｔあな' no goodbye, '午後まで電車が止ま
ってる' a plan looked forward to. Each class drawn whole.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.normalised import normalised

OWN = ("ニケ", "ニケちゃん")


@pytest.mark.fuzz
@settings(max_examples=80, deadline=None)
@given(fear=st.sampled_from(("選ばれへんかったら", "落ちたら", "せりふ忘れたら", "雨降ったら", "間に合わなかったら")),
       wonder=st.sampled_from(("どうしよ", "どうしよう", "どうしよ…", "どないしよ", "どげんしよ")))
def test_fuzz_what_to_do_wondered_invites_to_nothing(fear: str, wonder: str) -> None:
    line = f"来週の試合、{fear}{wonder}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind != "invitation", (line, heard)


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(plan=st.sampled_from(("明日、好きな人に告白しようと思ってる…", "転職しようかと思ってて。", "髪切ろうかなって")),
       ask=st.sampled_from(("やっぱやめたほうがいいかな", "やめたほうがいいかなあ", "やっぱりやめた方がええかな",
                            "やめたほうがいいと思う？")))
def test_fuzz_advice_asked_takes_nothing_back(plan: str, ask: str) -> None:
    line = plan + ask
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "question", (line, heard)


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(a=st.sampled_from(("沖縄", "海", "和食", "映画")), b=st.sampled_from(("北海道", "山", "中華", "カラオケ")),
       weigh=st.sampled_from(("で迷ってる〜", "で悩んでて", "、どうしよっかな。")),
       ask=st.sampled_from(("ニケちゃんならどっち？", "どっちがいいと思う？", "どっちにする？")))
def test_fuzz_which_takes_the_options_weighed_before_it(a: str, b: str, weigh: str, ask: str) -> None:
    line = f"週末、{a}と{b}{weigh} {ask}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.question is not None and heard.question.kind == "choice", (line, heard)
    assert set(heard.question.options) == {a, b}, (line, heard)


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(word=st.sampled_from(("また", "ごめん", "ありがとう", "なかった", "行こう")), data=st.data())
def test_fuzz_a_syllable_half_typed_in_romaji_is_that_syllable(word: str, data: st.DataObject) -> None:
    """'まｔあな' is またな, 'ごめｎね' ごめんね: the consonant the IME left, then the kana it made of the rest."""
    romaji = {"ま": "ma", "た": "ta", "ご": "go", "め": "me", "ん": "n", "あ": "a", "り": "ri", "が": "ga", "と": "to",
              "う": "u", "な": "na", "か": "ka", "っ": "", "行": "", "こ": "ko"}
    at = data.draw(st.sampled_from([i for i, ch in enumerate(word) if len(romaji.get(ch, "")) == 2]))
    spelled = romaji[word[at]]
    wide = data.draw(st.booleans())
    consonant = spelled[:-1] if len(spelled) > 1 else spelled
    rest = {"a": "あ", "i": "い", "u": "う", "e": "え", "o": "お"}.get(spelled[-1], "") if len(spelled) > 1 else ""
    typed_letter = "".join(chr(ord(c) + 0xFEE0) for c in consonant) if wide else consonant
    typed = word[:at] + typed_letter + rest + word[at + 1:]
    if at == 0:
        typed = "ねえ、" + typed
        word = "ねえ、" + word
    assert normalised(typed) == normalised(word), (typed, normalised(typed))


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(("ニケちゃんの", "ニケちゃんが")),
       gone=st.sampled_from(("おらんかったら", "いなかったら", "いなくなったら")),
       then=st.sampled_from(("、この町つまらんばい", "、さみしくなるよ", "、つまんないよ", "、困っちゃう")))
def test_fuzz_the_town_without_it_is_warmth(name: str, gone: str, then: str) -> None:
    line = name + gone + then
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "warmth", (line, heard)


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(what=st.sampled_from(("借りた傘、まだ返さねで", "呼び止めで", "待たせて", "遅くなって", "急に呼び出して")),
       sorry=st.sampled_from(("わりいな", "わりぃね", "悪いな", "悪いね", "わるいね")))
def test_fuzz_sorry_for_what_one_did_is_an_apology(what: str, sorry: str) -> None:
    line = what + sorry
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "apology", (line, heard)


@pytest.mark.fuzz
@settings(max_examples=40, deadline=None)
@given(when=st.sampled_from(("午後まで", "夕方まで", "明日まで", "来週まで")),
       state=st.sampled_from(("電車が止まってるんですよ", "道路が通れなくなってる", "お店閉まってるって")))
def test_fuzz_a_state_until_a_time_ahead_is_no_plan(when: str, state: str) -> None:
    line = "大雨で" + when + state
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind != "plan", (line, heard)


@pytest.mark.parametrize("line", ["にけちゃんて おこること あんの？ そうぞう できないんだけど",
                                  "ニケちゃんってさ、サウナ行ったりする？最近ハマってて、人生変わったんだけど"])
def test_a_remark_trailing_off_after_a_question_of_the_agent_leaves_the_question(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "question", (line, heard)
