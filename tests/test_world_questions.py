"""Questions about the town, not the agent: 'この町の言い伝えって知ってる？', '郵便局ってどの辺にありますか？'.

They were answered as questions about the agent itself ('生まれたときからずっとこの町だよ', '今日は喫茶店
に行ってたよ'): the town named in passing, or 'どの辺に', read as its own. What the agent does not
know of the town it says it does not know, in the pack's words.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.understanding import WORLD
from karakuri_agent.reading.hearing import hear
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
TODAY = Memory(here="6-11 (喫茶店 店内)", today_places=("本屋 店内", "公園 広場"), recent_places=("公園 広場",))
UNKNOWN = set(NIKE.answers["world_unknown"])  # not sure, and how to find out (a pack without it: `unknown`)
# ... naming the place or thing asked of, when the lexicon knows it for one ({topic}: a word of the line)
UNKNOWN_OF = [re.compile(re.escape(t).replace(re.escape("{topic}"), "(?P<topic>[^、。]+?)") + "$")
              for t in NIKE.answers["world_unknown_of"]]


def _not_sure(reply: str, line: str) -> bool:
    """The pack's words for a town question it cannot answer, naming nothing or a thing of the line."""
    return any(reply.endswith(words) for words in UNKNOWN) or any(
        (found := pattern.search(reply)) is not None and found["topic"] in line for pattern in UNKNOWN_OF)


def _reply(line: str, seed: str = "a") -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed, memory=TODAY,
                   place_name="6-11 (喫茶店 店内)")


@pytest.mark.parametrize("line", [
    "すみません、郵便局ってどの辺にありますか？",
    "この町の言い伝えって、なんか知ってる？",
    "この町で一番古か建物ってどれか知っとう？",
    "町内会長さんのお宅はどちらか、ご存じでしょうか。",
    "トイレってどこにある？",
    "駅前のパン屋って何時までやってるか知ってる？",
])
def test_a_question_about_the_town_asks_the_world(line: str) -> None:
    heard = hear(line)
    assert heard is not None and heard.kind == "question" and heard.asks == WORLD, heard
    reply = _reply(line)
    assert _not_sure(reply, line), reply  # the pack's words, nothing claimed


@pytest.mark.parametrize("line", [
    "いつからこの町にいるの？",
    "この町は好き？",
    "出身はどこ？",
    "お誕生日っていつ？",
    "わたしの名前、知ってる？",
    "ニケちゃんのおうちってどこにあるの？",
])
def test_a_question_about_the_agent_is_not_about_the_world(line: str) -> None:
    heard = hear(line, own_names=("ニケ", "AIニケちゃん"))
    assert heard is not None and heard.asks != WORLD, heard


PLACES = ["郵便局", "駅", "図書館", "交番", "銭湯", "本屋", "病院", "公民館", "バス停", "神社"]
ASKS = ["どこにある？", "どの辺にありますか？", "どこにあるか知ってる？", "どこですか？", "どこにあるかご存じですか？",
        "ってどこ？"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["", "すみません、", "ねえ、", "あの、"]), st.sampled_from(PLACES), st.sampled_from(["って", "は"]),
       st.sampled_from(ASKS))
def test_where_a_place_is_asks_the_world_never_the_agents_day(opening: str, place: str, topic: str, ask: str) -> None:
    line = f"{opening}{place}{ask}" if ask.startswith("って") else f"{opening}{place}{topic}{ask}"
    heard = hear(line)
    assert heard is not None and heard.asks == WORLD, (line, heard)
    reply = _reply(line, seed=line)
    assert "今日は" not in reply and "行ってた" not in reply, (line, reply)


@pytest.mark.parametrize("line", ["港の朝市って何時からやったっけ？", "図書館は何時まで開いてる？", "商店街の福引きはいつまで？"])
def test_when_a_thing_of_the_town_opens_is_asked_of_the_world_not_of_its_day(line: str) -> None:
    heard = hear(line, own_names=("AIニケちゃん", "ニケ"))
    assert heard is not None and heard.asks == WORLD, heard
    reply = _reply(line)
    assert _not_sure(reply.removeprefix("ユウさん、"), line) and reply.removeprefix("ユウさん、")[:1] not in "、", reply


def test_a_keyboard_mash_is_asked_about_kindly() -> None:
    reply = _reply("あsdfghjkl")
    assert any(line in reply for line in NIKE.reactions["puzzled"]), reply


def test_a_pack_without_world_unknown_says_its_unknown_words():
    from pathlib import Path

    minato = load_persona(Path(__file__).resolve().parents[1] / "testing" / "conversation" / "packs" / "minato")
    assert not minato.answers.get("world_unknown") and minato.answers.get("unknown")
    said = compose("reply", persona=minato, partner_name="灯屋ユウ", last_line="駅まで何分くらい？", seed="a", memory=TODAY)
    assert said.split("、", 1)[-1] in set(minato.answers["unknown"]) or said in set(minato.answers["unknown"]), said
