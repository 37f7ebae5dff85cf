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


# the glad phrases turned by a negation after them are bad news too ('うまくいってない', not a recovery)
BAD = ("財布なくした", "試験に落ちた", "骨折した", "犬が死んじゃった", "バイトクビになった", "仕事がうまくいってない",
       "まだ足がようなってない", "熱が下がらない", "まだ歩けるようになってない", "彼氏とうまくいってなくて")


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(who=st.sampled_from(WHO), bad=st.sampled_from(BAD), aside=st.sampled_from(ASIDES),
       seed=st.sampled_from("abcdef"))
def test_fuzz_bad_news_with_a_trailing_aside_is_never_met_with_cheer(who: str, bad: str, aside: str, seed: str) -> None:
    line = who + bad + aside
    reply = _reply(line, seed)
    assert not any(w in reply for w in cheer_words()), (line, reply)


@pytest.mark.parametrize("line", [
    "ごめん、明日のやつキャンセルさせてもらってもいい？",
    "今日の3時のやつ、やっぱやめとくわ。ごめんな",
    "やっぱ図書館いくのあしたにしよ",
    "先ほど申し上げた会の日時ですが、いったん白紙に戻させてください。",
])
def test_a_plan_taken_back_or_moved_is_a_retraction_never_an_offer_or_a_meeting(line: str) -> None:
    heard = hear(line)
    assert heard is not None and heard.kind == "retraction", heard
    reply = _reply(line)
    assert "ごめん" not in reply.split("、", 1)[-1][:6] and "ありがとう！助かる" not in reply, reply


def test_a_goodbye_for_feeling_unwell_gets_care_before_it() -> None:
    reply = _reply("少々体調が優れませんので、本日は早めに失礼いたします。")
    assert any(line in reply for line in NIKE.reactions["unwell"]) and any(
        bye.replace("{partner}", "ユウさん") in reply for bye in NIKE.farewells), reply


APOLOGIES = ("ごめん、", "ごめんね、", "すまん、", "申し訳ないんですが、", "")
PLANS = ("明日のやつ", "3時の約束", "土曜の映画", "今夜のごはん")
TAKEN_BACK = ("キャンセルさせて", "やっぱやめとくわ", "なしにしてもらってもいい？", "白紙に戻させてください")


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(sorry=st.sampled_from(APOLOGIES), plan=st.sampled_from(PLANS), back=st.sampled_from(TAKEN_BACK),
       seed=st.sampled_from("abcdef"))
def test_fuzz_a_plan_taken_back_is_never_thanked_for_nor_agreed_to_as_a_meeting(sorry: str, plan: str, back: str,
                                                                                seed: str) -> None:
    line = f"{sorry}{plan}、{back}"
    heard = hear(line)
    assert heard is not None and heard.kind == "retraction", (line, heard)
    reply = _reply(line, seed)
    assert not any(w in reply for w in ("助かる", "楽しそう", "そうしよう")), (line, reply)
    assert heard.topic not in ("ごめん", "すまん"), (line, heard)


def test_rain_that_stopped_is_no_bad_news_and_a_plan_is_named_without_its_change() -> None:
    assert hear("雨やんだね").mood != "bad"  # type: ignore[union-attr]
    heard = hear("雨で遠足中止になった")
    assert heard is not None and heard.topic == "遠足", heard


# -- Kansai's copula や is not 嫌 ('屋台の件、いよいよ来週からやで' was met with 「え、それは残念だったね…」) --------
@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(before=st.sampled_from(["来週から", "明日から", "屋台の件、いよいよ来週から", "うちの店", "今日は休み", "三時から",
                               "もう春", "新しい店"]),
       tail=st.sampled_from(["やで", "やねん", "や！", "やけど、楽しみ", "やな"]))
def test_fuzz_the_kansai_copula_after_a_word_carries_no_dislike(before, tail):
    heard = hear(before + tail)
    assert heard is None or heard.mood != "bad", (before + tail, heard)


@pytest.mark.parametrize("line", ["やだ、もう最悪", "や、やめてよ"])
def test_ya_at_the_start_of_a_line_is_still_dislike(line):
    heard = hear(line)
    assert heard is not None and heard.mood == "bad", heard


# -- managed, at last: read from the verb's form, not a list of lines ---------------------------------------
@pytest.mark.fuzz
@settings(max_examples=80, deadline=None)
@given(thing=st.sampled_from(["カメラ", "チケット", "古本", "限定のケーキ", "新しい靴", "始発"]),
       # (a one-row verb's られ is also the passive: '手に入れられた' reads as done to one, '弟に食べられた' does)
       verb=st.sampled_from([("買え", "買えなかった"), ("見つけられ", "見つけられなかった"), ("乗れ", "乗れなかった"),
                             ("予約でき", "予約できなかった")]),
       lead=st.sampled_from(["やっと", "ずっと欲しかった", "ついに", ""]),
       end=st.sampled_from(["たんだ", "た！", "たよ〜", "ました！"]))
def test_fuzz_something_managed_is_good_news_and_not_managing_it_is_not(thing, verb, lead, end):
    done, not_done = verb
    good = hear(f"{lead}{thing}、{done}{end}")
    assert good is not None and good.mood == "good", (lead, thing, done, end, good)
    bad = hear(f"{lead}{thing}、{not_done}")
    assert bad is None or bad.mood != "good", (lead, thing, not_done, bad)


@pytest.mark.parametrize("line", ["マラソン、最後まで走りきったばい！", "分厚い本、最後まで読み切った！", "熱下がったよ〜、もうすっかり元気！",
                                  "膝の手術うまいこといってな、また歩けるようになったんよ", "例の朝顔、ようやく咲いたよ"])
def test_done_through_recovered_or_at_last_is_good_news(line):
    heard = hear(line)
    assert heard is not None and heard.mood == "good", heard


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(event=st.sampled_from(["ミスし", "失敗し", "遅刻し", "風邪ひか", "事故に遭わ", "試合に負け", "熱は出"]),
       end=st.sampled_from(["なかった！", "なかったよ", "ませんでした"]))
def test_fuzz_a_bad_thing_that_did_not_happen_is_no_bad_news(event, end):
    heard = hear(f"今日は{event}{end}")
    assert heard is None or heard.mood != "bad", (event, end, heard)


# -- a milestone is congratulated (concepts.json `milestone`, reactions.celebrate) ----------------------------
@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(event=st.sampled_from(["試験に合格した", "大会で優勝した", "昇進が決まった", "結婚することになった", "弟が生まれた",
                              "テストで満点とった", "自分の店を開店した"]),
       end=st.sampled_from(["よ！", "んだ！", "の〜✨", "ばい！", "んです。"]), seed=st.integers(0, 50))
def test_fuzz_a_milestone_is_congratulated_and_one_not_reached_is_not(event, end, seed):
    persona = load_persona()
    said = compose("reply", persona=persona, partner_name="メイ", last_line=event + end, seed=f"s{seed}",
                   memory=Memory())
    assert "おめでとう" in said, (event, end, said)
    missed = compose("reply", persona=persona, partner_name="メイ", last_line="試験、受からなかった…", seed=f"s{seed}",
                     memory=Memory())
    assert "おめでとう" not in missed, missed


@pytest.mark.parametrize("line", ["壊れてたオルゴール、直ったよ！", "自転車、やっと直った！", "なくした鍵、見つかった！"])
def test_a_thing_broken_or_lost_and_now_fixed_or_found_is_good_news(line):
    heard = hear(line)
    assert heard is not None and heard.mood == "good", heard


@pytest.mark.parametrize("line", ["あ、いたいた！少し話そうよ。", "いたいた！探したよ〜"])
def test_there_you_are_is_no_pain(line):
    heard = hear(line)
    assert heard is None or not heard.troubled, heard
