"""Word play as a person plays it back: classic riddles answered, puns laughed at, shiritori by its rule.

'なぞなぞ！パンは パンでも たべられない パンは なーんだ？' got 'わかんないや。答え教えて！',
'しりとりしよ！じゃあ、りんご' got 'そうなんだ', '布団が吹っ飛んだ！' got 'へえ、そうなんだね'. The
whole class: every riddle and pun of ja/lexicon/play.json in kana, katakana and spaced spellings,
and shiritori with any kana word.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.morphemes import katakana
from karakuri_agent.shipped import shipped
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import compose

pytestmark = pytest.mark.fuzz

PLAY = json.loads(shipped("ja", "lexicon", "play.json").read_text(encoding="utf-8"))
GAME = PLAY["shiritori"]


def _spelled(text: str, how: str) -> str:
    return {"as is": text, "katakana": katakana(text), "spaced": " ".join(text)}[how]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PLAY["riddles"]), st.sampled_from(["", "なぞなぞ！", "ねえ、"]),
       st.sampled_from(["as is", "katakana"]), st.sampled_from(["ものはなーんだ？", "のは何？", "、これなーんじゃ", "？"]))
def test_a_classic_riddle_is_answered_with_its_answer(riddle, opener, how, end):
    line = f"{opener}{_spelled(riddle['asks'][-1], how)}{end}"
    heard = hear(line)
    assert heard is not None and heard.kind == "play" and heard.topic == riddle["answer"], (line, heard)
    assert not heard.troubled  # '上は洪水、下は大火事' is no bad news
    reply = compose("reply", persona=load_persona(), partner_name="小林ソウタ", last_line=line, seed=line)
    assert riddle["answer"] in reply, (line, reply)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PLAY["puns"]), st.sampled_from(["", "！", "！…なんか言うてや", "w"]))
def test_a_classic_pun_is_laughed_at_never_taken_for_news(pun, end):
    line = f"{pun}{end}"
    heard = hear(line)
    assert heard is not None and heard.kind == "play" and heard.game == "pun", (line, heard)
    pack = load_persona()
    reply = compose("reply", persona=pack, partner_name="浪花トオル", last_line=line, seed=line)
    assert any(reply.endswith(p) for p in pack.reactions["pun"]), (line, reply)


KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわがぎぐげござじずぜぞだでどばびぶべぼぱぴぷぺぽ"


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=KANA, min_size=2, max_size=5), st.sampled_from(["しりとりしよ！じゃあ、", "しりとり！", "しりとりね、"]),
       st.booleans(), st.sampled_from(["", "！", "。"]))
def test_shiritori_is_played_by_its_rule_whatever_the_word(word, opener, in_katakana, end):
    """The word said next starts with the sound the partner's word ended on and never ends in ん;
    a word of the partner's ending in ん loses."""
    said = katakana(word) if in_katakana else word
    line = f"{opener}{said}{end}"
    heard = hear(line)
    assert heard is not None, line
    if heard.kind != "play":  # the analyzer cut the kana into words of its own: no word of the partner's known
        return
    if heard.game == "shiritori_lost":
        assert word.endswith(GAME["lost"]), (line, heard)
        return
    assert heard.game == "shiritori", (line, heard)
    last = heard.topic
    assert not last.endswith(GAME["lost"]), (line, heard)
    reply = compose("reply", persona=load_persona(), partner_name="水野カナデ", last_line=line, seed=line)
    assert last in reply, (line, reply)


def test_shiritori_follows_the_partners_last_sound():
    for word, starts in (("りんご", "ご"), ("キャンプ", "ぷ"), ("ろうそく", "く"), ("でんしゃ", "や"), ("コーヒー", "ひ")):
        heard = hear(f"しりとりしよ！じゃあ、{word}")
        assert heard is not None and heard.game == "shiritori", (word, heard)
        assert GAME["words"][starts] == heard.topic, (word, heard)
    started = hear("しりとりしよ")
    assert started is not None and started.topic == GAME["words"]["り"]
    lost = hear("しりとり！みかん")
    assert lost is not None and lost.game == "shiritori_lost"


def test_every_shiritori_word_is_a_word_that_does_not_lose():
    for sound, word in GAME["words"].items():
        kana = "".join(chr(ord(ch) - 0x60) if "ァ" <= ch <= "ヶ" else ch for ch in word)
        assert kana.startswith(sound) and not kana.endswith(GAME["lost"]), (sound, word)


def test_a_pack_without_play_phrases_answers_as_it_would_any_line():
    pack = load_persona()
    bare = replace(pack, reactions={k: v for k, v in pack.reactions.items()
                                    if k not in ("riddle", "pun", "shiritori", "shiritori_lost")})
    reply = compose("reply", persona=bare, partner_name="浪花トオル", last_line="布団が吹っ飛んだ！", seed="x")
    assert reply and "ダジャレ" not in reply
