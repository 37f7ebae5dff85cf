"""A taste asked of a kind, in any script, register and frame, is answered from the pack (issue 40).

Unseen lines found 'ニケちゃんの すきな どうぶつ なに？' answered 「それは知らないや」,
'どんなジャンルの本がお好きなんですか？' read as a why-question, 'この町で一番お気に入りの場所はどこですか？' as
a question about the town, and 'パンやったら何が一番好きなん？' answered with what the agent studies. The
reading is by lemma (concepts.json `taste_words`, `taste_categories`), so the fuzz draws each kind's
words in kanji and kana, a liking word, a word that asks which, and any ending; it checks the reading
against the table and the reply against the bundled pack's own answer.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.understanding import FAVOURITE, SELF
from karakuri_agent.ja.speech_words import is_kanji
from karakuri_agent.reading import morphemes
from karakuri_agent.reading.hearing import hear
from karakuri_agent.shipped import shipped
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
OWN = ("AIニケちゃん", "ニケ", "にけ")
LEXICON = json.loads(shipped("ja", "lexicon", "concepts.json").read_text(encoding="utf-8"))
# Each kind's word as people write it: kanji and kana spellings the analyzer gives one lemma.
KINDS = {"animal": ("動物", "どうぶつ"), "colour": ("色", "いろ"), "flower": ("花", "お花"),
         "book": ("本", "作家", "小説"), "music": ("歌", "曲", "音楽"), "season": ("季節",),
         "snack": ("お菓子", "おやつ"), "food": ("食べ物", "たべもの", "料理"), "drink": ("飲み物", "のみもの"),
         "place": ("場所", "ところ", "スポット")}
FRAMES = ("好きな{k}は", "好きな{k}ってなに", "すきな {k} なに", "どんな{k}が好き", "{k}は何が一番好き",
          "いちばん好きな{k}はどれ", "どんな{k}がお好きなんですか", "一番お気に入りの{k}はどこ",
          "{k}やったら何が一番好きなん", "{k}でいちばんすきなのは なに")
CALLS = ("", "ニケちゃん、", "ニケさんの", "にけちゃん ", "ねえ、", "あんた、")
ENDS = ("？", "?", "？笑", "？✨", "〜？")


def _reply(line: str, seed: str) -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed,
                   memory=Memory(here="6-11 (喫茶店 店内)"), place_name="6-11 (喫茶店 店内)")


def test_every_kind_is_a_self_topic_or_a_kind_of_the_packs_favourites() -> None:
    favourites = {"food", "drink", "place", "season", "colour", "pastime"}
    kinds = set(LEXICON["taste_categories"]) - {"about"}
    assert kinds <= (set(LEXICON["self_topics"]) | favourites), kinds - set(LEXICON["self_topics"]) - favourites


@pytest.mark.fuzz
@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(sorted(KINDS)), data=st.data())
def test_fuzz_a_taste_of_a_kind_is_read_as_that_kind_and_answered_from_the_pack(kind: str, data: st.DataObject) -> None:
    frame, word = data.draw(st.sampled_from(FRAMES)), data.draw(st.sampled_from(KINDS[kind]))
    # A hiragana word run into hiragana after it is cut elsewhere by the analyzer ('どうぶつやったら' as どう・ぶつ)
    assume(not (frame.startswith("{k}や") and morphemes.katakana(word) != word and not is_kanji(word[0])))
    line = data.draw(st.sampled_from(CALLS)) + frame.format(k=word) + data.draw(st.sampled_from(ENDS))
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "question", (line, heard)
    assert (heard.asks, heard.self_topic or heard.favourite) in ((SELF, kind), (FAVOURITE, kind)), (line, heard)
    reply = _reply(line, data.draw(st.sampled_from("abcdef")))
    if heard.asks == SELF:
        assert any(reply.endswith(said) for said in NIKE.about_me[kind]), (line, reply)
    else:
        favourite = NIKE.tastes.favourites.get(kind) or (NIKE.favourite_places[0] if kind == "place" else "")
        assert favourite and favourite in reply, (line, reply)


@pytest.mark.parametrize("line, kind", [("パンやったら何が一番好きなん？", "パン"), ("ラーメンはどんなのが好き？", "ラーメン"),
                                        ("どんなパンがお好きですか？", "パン"), ("どんな帽子が好き？", "")])
def test_a_kind_it_never_thought_about_is_picked_or_said_so_not_answered_with_something_else(line: str, kind: str) -> None:
    """A kind its pack never names is answered with what it would pick of that kind (concepts.json
    `common_choices`), the same every run, or, of a kind the lexicon has no picks for, as never thought about."""
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.asks == FAVOURITE and heard.favourite == "", heard
    replies = {_reply(line, seed) for seed in "abc"}
    if kind:
        options = LEXICON["common_choices"]["choices"][kind]
        picked = {o for o in options for r in replies if o in r}
        assert len(picked) == 1 and all(any(o in r for o in options) for r in replies), replies
    else:
        assert all(r.endswith(tuple(NIKE.answers["not_sure"])) for r in replies), replies


@pytest.mark.parametrize("line", ["お母さんの好きな花は？", "夏と冬どっちが好き？", "何が好き？", "猫好き？",
                                  "好きな本、読んでみたよ"])
def test_no_taste_of_a_kind_asked_of_it_is_left_to_the_other_readers(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is None or heard.asks not in (FAVOURITE,) and not (heard.asks == SELF and heard.self_topic in
                                                                     LEXICON["taste_categories"]), heard
