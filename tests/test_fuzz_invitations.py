"""Invitations, warmth and told news in the shapes unseen seeds of the conversation benchmark found missed.

The classes: an invitation put softly after what it invites to ('…に折り紙教室があるんだけど、一緒に
どうかなって思って、無理ならいいんだけどね'), read as news; a "let's" ('そのうち港で夕日見ようよ'), read as
an offer of help; the mood of the moment praised ('今日の雰囲気、すごくいいね✨'), read as news; and
what happened to a thing said with する ('自転車パンクしちゃってさ'), whose noun was taken for a person's
name, so the talk's topic became a word of the reply to it. Each is built from parts.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.help_offers import offers_help
from karakuri_agent.reading.hearing import hear

EVENTS = ["折り紙教室", "花火大会", "朝市", "映画", "盆踊り", "料理教室", "フリマ", "コンサート"]
WHEN = ["", "3時ちょうどに", "明日の夕方、", "今度の土曜に", "週末に"]
WHERE = ["", "公民館で", "駅前で", "港で", "神社で"]
SOFT_ASKS = ["一緒にどうかなって思って", "一緒にどうかな", "いっしょにどう？", "一緒にいかがですか", "一緒にどうかなーって"]
HEDGES = ["", "、あ、無理ならいいんだけどね", "、よかったらだけど", "。急だけど"]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(EVENTS), st.sampled_from(WHEN), st.sampled_from(WHERE), st.sampled_from(SOFT_ASKS),
       st.sampled_from(HEDGES), st.sampled_from(["があるんだけど、", "があってさ、", "やるらしいんだけど、"]))
def test_a_soft_invitation_after_what_it_invites_to_is_an_invitation_to_that(event, when, where, ask, hedge, link):
    line = f"{when}{where}{event}{link}{ask}{hedge}"
    heard = hear(line)
    assert heard is not None and heard.kind == "invitation" and heard.topic == event, (line, heard)


SCENES = ["夕日", "星", "花火", "海", "桜", "映画", "ご飯", "カフェ"]
LETS = ["見ようよ", "見に行こうよ", "行こうぜ", "しようよ", "食べようね"]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["", "そのうち", "今度", "明日", "週末"]), st.sampled_from(["", "港で", "丘の上で", "一緒に"]),
       st.sampled_from(SCENES), st.sampled_from(["", "を", "でも"]), st.sampled_from(LETS), st.sampled_from(["", "！", "〜", "♪"]))
def test_lets_is_an_invitation_never_an_offer_of_help(when, where, scene, particle, lets, end):
    line = f"{when}{where}{scene}{particle}{lets}{end}"
    assert not offers_help(line), line
    heard = hear(line)
    assert heard is not None and heard.kind != "offer", (line, heard)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["", "今日の", "ここの", "この店の", "みんなの"]), st.sampled_from(["、", "", "って"]),
       st.sampled_from(["すごくいいね", "いいね", "最高だね", "好きだな", "素敵ですね"]), st.sampled_from(["", "✨", "！", "〜"]))
def test_praise_of_the_moment_is_warmth(whose, pause, praise, end):
    line = f"{whose}雰囲気{pause}{praise}{end}"
    heard = hear(line)
    assert heard is not None and heard.kind == "warmth", (line, heard)


THINGS = ["自転車", "携帯", "洗濯機", "車", "腕時計", "冷蔵庫"]
HAPPENED = ["パンク", "フリーズ", "エラー", "故障", "ストップ"]  # a verbal noun said with する


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(THINGS), st.sampled_from(HAPPENED),
       st.sampled_from(["しちゃってさ", "しちゃった", "して困ってる", "したんだよね"]))
def test_what_happened_to_a_thing_is_its_topic_not_a_persons_name(thing, happened, rest):
    line = f"{thing}{happened}{rest}"
    heard = hear(line)
    assert heard is not None and heard.topic and (thing in heard.topic or happened in heard.topic), (line, heard)


ACTIVITIES = ["たこ焼きパーティー", "茶でも", "釣りでも", "花見", "散歩でも", "カラオケ"]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["", "今度、", "3時に縁側で", "明日", "週末、"]), st.sampled_from(ACTIVITIES),
       st.sampled_from(["せえへん？", "しいひん？", "行かへん？", "飲まんかね", "行かんかね？", "せんかね", "食べへん？"]))
def test_an_invitation_in_the_kansai_or_the_older_way_is_an_invitation(when, activity, ask):
    line = f"{when}{activity}{ask}"
    heard = hear(line)
    assert heard is not None and heard.kind == "invitation", (line, heard)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["", "よろしければ、", "お客様、"]), st.sampled_from(["会場まで", "駅まで", "お席まで", "お荷物を"]),
       st.sampled_from(["ご案内いたしましょうか", "お送りいたしましょうか", "お持ちいたしましょうか", "ご案内いたします"]),
       st.sampled_from(["", "？", "。"]))
def test_help_offered_in_humble_keigo_is_an_offer(opener, where, offer, end):
    line = f"{opener}{where}{offer}{end}"
    assert offers_help(line), line
    heard = hear(line)
    assert heard is not None and heard.kind == "offer", (line, heard)


SCENES_SHARED = ["今日はいい天気", "風が気持ちいい", "今日は人が多い", "寒い", "夕日がきれい", "空が青い", "桜がきれい",
                 "駅前、混んでる", "ここは静か", "さっき雨降りそうだった", "明日は雨らしい"]


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["", "あ、", "ねえ、", "ほら、"]), st.sampled_from(SCENES_SHARED),
       st.sampled_from(["だね", "ね", "ねえ", "よね", "だなあ", "ですね", "だよね"]), st.sampled_from(["", "！", "〜", "。", "✨"]))
def test_a_remark_on_the_shared_moment_is_agreed_with_not_taken_for_news(opener, scene, ending, end):
    from karakuri_agent.voice.persona_pack import load_persona
    from karakuri_agent.voice.speech import compose

    line = f"{opener}{scene}{ending}{end}"
    heard = hear(line)
    assert heard is not None and heard.kind == "remark", (line, heard)
    pack = load_persona()
    reply = compose("reply", persona=pack, partner_name="灯屋ユウ", last_line=line, seed=line)
    agreed = [p.replace("{first_person}", pack.first_person) for p in pack.reactions["remark"]]
    assert any(reply.endswith(a) for a in agreed), (line, reply)


PLAYS = ["おにごっこ", "ドッジボール", "ピクニック", "お散歩", "かくれんぼ", "カラオケ", "勉強"]  # しりとり: test_fuzz_play
VOLITIONAL = ["しよ", "しよう！", "しようよ", "しよっ", "しましょう", "しようぜ", "しよ〜"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["", "ニケちゃん、", "にけちゃん ", "ねえ、"]), st.sampled_from(["", "いっしょに ", "一緒に", "みんなで"]),
       st.sampled_from(["", "こうえんで ", "週末、", "2時から"]), st.sampled_from(PLAYS), st.sampled_from(VOLITIONAL),
       st.sampled_from(["", "！", "🍙", "🎤 楽しみ"]))
def test_lets_said_with_a_volitional_verb_is_an_invitation_in_any_spelling(call, together, when, play, verb, end):
    """'にけちゃん いっしょに おにごっこ しよ！' read as news was answered 'そうなんだ'; the verb's form says it."""
    line = f"{call}{together}{when}{play}{verb}{end}"
    heard = hear(line)
    assert heard is not None and heard.kind == "invitation", (line, heard)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["", "そろそろ", "今日も", "明日は早く", "よし、"]),
       st.sampled_from(["帰ろうかな", "がんばろう", "がんばろー！", "起きようかな", "寝ようかな", "行こうと思ってる",
                        "買おうか迷ってる", "でしょ", "やろ？", "だろうね"]))
def test_wondering_resolving_and_guessing_are_no_invitation(when, own):
    """A volitional the speaker says of themself ('帰ろうかな', 'がんばろう'), or the copula's guess
    ('でしょ'), invites nobody."""
    line = f"{when}{own}"
    heard = hear(line)
    assert heard is None or heard.kind != "invitation", (line, heard)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["会社、", "うちの店、", "先月", "実は", ""]),
       st.sampled_from(["倒産", "骨折", "失恋", "落選", "解雇", "遅刻", "故障"]),
       st.sampled_from(["しちゃった", "してしもた", "したんだ", "しました", "してもうた"]))
def test_what_a_verbal_noun_says_happened_is_the_news_said_with_suru(before, noun, suru):
    """'骨折してしもた' was plain news: する itself says nothing, its noun says what happened."""
    line = f"{before}{noun}{suru}"
    heard = hear(line)
    assert heard is not None and heard.mood == "bad", (line, heard)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["会社、", "実は", ""]), st.sampled_from(["リストラ", "無視", "降格", "除名"]),
       st.sampled_from(["されちゃいました", "された", "されてしもた"]), st.sampled_from(["", "…", "。"]))
def test_a_misfortune_done_to_one_is_bad_news_and_one_asked_for_is_none(before, noun, passive, end):
    """'リストラされちゃいました': done to the speaker, bad news; '無視して送金して' asks, it tells nothing."""
    heard = hear(f"{before}{noun}{passive}{end}")
    assert heard is not None and heard.mood == "bad", (before, noun, passive, heard)
    asked = hear(f"{noun}して送金して")
    assert asked is not None and asked.mood != "bad", (noun, asked)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["", "実は、", "最近、", "うーん、"]),
       st.sampled_from(["転職しよう", "告白しよう", "引っ越そう", "買おう", "辞めよう", "行こう", "行くか行かない"]),
       st.sampled_from(["か", "かな", "かなって", "かどうか"]),
       st.sampled_from(["迷ってて", "迷ってる", "悩んでる", "考えてる", "迷うんだよね"]),
       st.sampled_from(["", "。", "…", "。今のままでも悪くはないんだけどさ"]))
def test_torn_over_what_to_do_is_listened_to_never_cheered_nor_an_offer(opener, act, ask, deliberate, rest):
    """'告白しようか迷ってる' got 'え、それは残念だったね…', '買おうかどうか迷う' was taken for an offer of help:
    a question put to oneself and a verb of deliberating is someone torn, met with the pack's `torn`."""
    from karakuri_agent.reading.lexicon import cheer_words
    from karakuri_agent.voice.persona_pack import load_persona
    from karakuri_agent.voice.speech import compose

    line = f"{opener}{act}{ask}{deliberate}{rest}"
    assert not offers_help(line), line
    heard = hear(line)
    assert heard is not None and "torn" in heard.emotions and heard.troubled, (line, heard)
    pack = load_persona()
    reply = compose("reply", persona=pack, partner_name="灯屋ユウ", last_line=line, seed=line)
    said = [p.replace("{partner}", "ユウさん") for p in pack.reactions["torn"]]
    assert any(reply.endswith(p) for p in said), (line, reply)
    assert not any(w in reply for w in cheer_words()), (line, reply)


@pytest.mark.parametrize("line", ["道に迷った", "何か考えてる？", "明日のこと考えてる", "何を考えてるの？", "迷子になった"])
def test_a_verb_of_deliberating_without_a_question_put_to_oneself_is_not_torn(line):
    heard = hear(line)
    assert heard is None or "torn" not in heard.emotions, (line, heard)


# An activity asked in the negative, in every region's negation (reading/invitations.asks_along).
ALONG = [("商店街", "ぶらつかへん"), ("海まで", "行かん"), ("釣りにでも", "行かんか"), ("お茶", "しない"), ("ご飯", "食べていかない"),
         ("映画", "見ない"), ("カラオケ", "行かへん"), ("一緒に", "やらんね"), ("ちょっと", "休まない"), ("うちに", "来ない")]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["", "今から", "週末、", "明日の朝、", "今度の日曜、", "ニケちゃん、"]), st.sampled_from(ALONG),
       st.sampled_from(["？", "?", "？😊", "〜？", "。早いがの"]))
def test_fuzz_an_activity_asked_in_the_negative_is_an_invitation_whatever_time_it_names(when, along, end):
    """'今から商店街ぶらつかへん？' was a question, '週末、海まで行かん？' a question about its weekend, '明日の朝、
    釣りにでも行かんか。' a plan told."""
    thing, verb = along
    if end.startswith("。") and not verb.endswith("か"):
        end = "？" + end[1:]  # a negation with no か asks only with its question mark
    line = f"{when}{thing}{verb}{end}"
    heard = hear(line, own_names=("ニケちゃん", "ニケ"))
    assert heard is not None and heard.kind == "invitation", (line, heard)


@pytest.mark.parametrize("line", ["あの本知らない？", "財布見てない？", "行かないの？", "今日は来ないんだ", "そう思わない？",
                                  "寒くない？", "明日は行かない。", "雨降らないかな"])
def test_a_negation_that_does_not_ask_along_is_no_invitation(line):
    heard = hear(line)
    assert heard is None or heard.kind != "invitation", (line, heard)
