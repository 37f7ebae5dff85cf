"""The conversation judge's cut-word check, fuzzed: a noun before the topic particle って is a whole
word ('今日って', '話って'), a verb's stem cut from its okurigana ('手伝' of 手伝った) is always a cut."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from testing.conversation.judge import cut_words

NOUNS = ["今日", "話", "明日", "週末", "映画", "公園", "先生", "昨日", "宿題", "天気", "夕方", "仕事"]
VERB_STEMS = [("手伝", "った"), ("落", "とした"), ("盗", "まれた"), ("寝込", "んだ"), ("言", "ってた"), ("会", "ってきた"),
              ("知", "ってる"), ("持", "ってきた")]
USED = ["の話、聞かせて！", "は楽しかった？", "かあ、なるほどね。", "が気になるな。", "を？"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(NOUNS), st.sampled_from(["どうだった？", "誰かに会った？", "なに？", "本当？"]),
       st.sampled_from(USED))
def test_a_noun_before_the_topic_particle_tte_is_whole(noun: str, rest: str, used: str) -> None:
    assert cut_words(f"{noun}って{rest}", f"{noun}{used}") == []


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(VERB_STEMS), st.sampled_from(["昨日", "さっき", ""]), st.sampled_from(USED))
def test_a_verb_stem_used_as_a_noun_is_a_cut(verb: tuple[str, str], before: str, used: str) -> None:
    stem, okurigana = verb
    assert cut_words(f"{before}{stem}{okurigana}よ", f"{stem}{used}") == [stem]
