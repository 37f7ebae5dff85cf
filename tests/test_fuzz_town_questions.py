"""A question of a place or thing of the town is the town's, and is answered naming it (issue 40, q_world).

Development lines (set-3) found 'じんじゃの きつねって ほんもの？' answered 「うん！」, '銭湯って月曜休み
やったっけ？' with a line about baths, 'この町ってお花見スポットどこがおすすめ？' with how long the agent has
lived in town, and every town question the agent could not answer with the same line naming nothing. The
reading is by lemma and as written (concepts.json `town_questions`); the fuzz draws things, frames and
endings, and checks the reading and that the reply names the thing asked of.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.understanding import WORLD
from karakuri_agent.reading.hearing import hear
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
OWN = ("ニケちゃん", "ニケ")
THINGS = ["郵便局", "銭湯", "図書館", "神社", "お祭り", "朝市", "パン屋", "バス停", "美術館", "祠", "言い伝え", "かっぱ",
          "じんじゃ", "としょかん"]
FRAMES = ["{t}ってどこだっけ", "{t}って何時まで開いてるか知ってる", "{t}っていつだっけ", "{t}ってほんと",
          "{t}って何時からやったっけ", "{t}、どこにあるか知らん", "{t}のこと、何か知っとるかね", "{t}はどちらにございますか"]
ENDS = ["？", "?", "〜？", "？🏮", ""]


def _reply(line: str, seed: str) -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed,
                   memory=Memory(here="6-11 (喫茶店 店内)"), place_name="6-11 (喫茶店 店内)")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(THINGS), st.sampled_from(FRAMES), st.sampled_from(["", "ねえ、", "すみません、", "ニケちゃん、"]),
       st.sampled_from(ENDS), st.sampled_from("abc"))
def test_fuzz_a_question_of_the_towns_thing_is_the_towns_and_names_it(thing, frame, call, end, seed):
    line = call + frame.format(t=thing) + end
    heard = hear(line, own_names=OWN)
    if end == "" and (heard is None or heard.kind != "question"):
        return  # a line that does not mark itself a question ('…知ってる' with no mark) may be told: not this class
    assert heard is not None and heard.asks == WORLD, (line, heard)
    reply = _reply(line, seed)
    assert thing.removeprefix("お") in reply, (line, reply)


@pytest.mark.parametrize("line", ["図書館って好き？", "駅まで一緒に行かない？", "お祭り楽しかった？", "公園でなにしてたの？",
                                  "図書館で何読んだの？", "神社にはいつ行ったの？",
                                  "ニケちゃんの好きな場所ってどこ？", "神社でお参りしてきたよ"])
def test_a_line_of_the_towns_places_that_asks_nothing_of_the_town_is_left_to_the_other_readers(line):
    heard = hear(line, own_names=OWN)
    assert heard is None or heard.asks != WORLD, (line, heard)


@pytest.mark.parametrize("line", ["次はいつ神社行くの？", "今度いつ図書館来る？", "朝市には何時ごろ行くの？"])
def test_when_someone_goes_to_a_place_is_their_plan_not_the_towns(line):
    """A reader of sealed set-4 found 'when are you going next?' answered with the town's "I don't know"."""
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.asks != WORLD, (line, heard)


def test_the_way_to_a_place_is_still_the_towns():
    heard = hear("郵便局ってどこから行くの？", own_names=OWN)
    assert heard is not None and heard.asks == WORLD, heard


PLACES = ["歯医者さん", "コンビニ", "百均", "美容院", "古本屋", "駐車場", "薬局", "銭湯", "民宿", "ATM", "レンタサイクル"]
WHETHER = ["{t}ってこの辺にある", "この近くに{t}はありますか", "{t}ってこの町にあったっけ", "安くていい感じの{t}ない",
           "{t}とかこの辺あると", "このあたりに{t}、どっかない", "{t}ってあんの"]
REASONS = ["", "奥歯が痛くて。", "せんたっき壊れてまじさいあく", "引っ越してきたばかりで分からなくて…", "体冷えでしょうがねぇんだ。"]


@pytest.mark.fuzz
@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PLACES), st.sampled_from(WHETHER), st.sampled_from(REASONS), st.booleans(),
       st.sampled_from(["？", "?", "？🙏", "か？"]))
def test_fuzz_whether_the_town_has_a_place_is_the_towns_whatever_reason_is_told(place, frame, reason, reason_first, end):
    """Fresh dev lines (written by a helper who never read the code): '歯医者さんはありますか？奥歯が痛くて' was
    met as a feeling ('そっか、心配だよね'), '百均ってこの町にあったっけ？' with how long it has lived in town, '古本屋
    とかこの辺あると？' with 'うわ、痛そう'. A place asked whether there is near here, however it is marked, is the
    town's question and names the place; a trouble told as the reason does not turn it into news."""
    asked = frame.format(t=place) + end
    line = reason + asked if reason_first else asked + reason
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "question" and heard.asks == WORLD, (line, heard)
    plain = place.removesuffix("さん")
    reply = _reply(line, "a")
    assert plain in reply, (line, reply)
