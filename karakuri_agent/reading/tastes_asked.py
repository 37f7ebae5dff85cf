"""A question of what the agent likes of a kind, read by lemma: 'すきな どうぶつ なに？', 'なにいろが すき？'.

The analyzer gives every spelling one lemma (すき and 好き, どうぶつ and
動物, ところ and 所), so one word of liking (concepts.json `taste_words`),
one word that asks which, and the noun of the kind asked of make the
question, in any register or script. The kind is looked up in
`taste_categories`: a self topic (the pack's `about_me` answers) or a kind
of the pack's favourites. A noun the table does not name ('パンやったら何が
一番好きなん？') is still a taste asked, of a kind the character never
thought about: it answers as a person would ('うーん、考えたことなかったな'),
never with a line about something else.
"""

from __future__ import annotations

import functools
import re

from karakuri_agent.domain.understanding import FAVOURITE, SELF, Question, Understanding
from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.word_classes import CONCESSIVE
from karakuri_agent.reading import lexicon, morphemes

__all__ = ["UNNAMED", "asked_taste", "taste_asked"]

UNNAMED = ""  # a kind the table does not name
# 'あの子、電車好きやねんけど、どこがええと思う？' asks no taste of its own: what is asked comes after a concession
CONCEDING = re.compile("|".join(sorted(CONCESSIVE, key=len, reverse=True)))
PLACE = "place"  # the kind of favourite a where asks ('この町でどこが一番好き？'; persona.json tastes.favourites.place)
_WRITTEN_AT_LEAST = 3  # a kind's word this long is found as written too ('のみもの', which the analyzer cuts)


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[frozenset[str], frozenset[str], tuple[str, ...], frozenset[str], frozenset[str], dict[str, str]]:
    words = lexicon.section("taste_words")
    lemmas = morphemes.lemma_set
    kinds = {lemma: kind for kind, written in _categories() for lemma in lemmas(written)}
    return (lemmas(words["liking"]), lemmas(words["asking"]), words["pleased"], frozenset(words["modifying"]),
            lemmas(words["not_a_kind"]), kinds)


def taste_asked(asking: str, own_names: tuple[str, ...] = ()) -> str | None:
    """The kind of thing a question asks the agent's favourite of ('animal', 'place', ...), UNNAMED for
    a kind the lexicon does not name, None when the question asks no taste of a kind (or names no kind:
    '何が好き？' is left to the other readers)."""
    liking, asking_words, pleased_words, modifying, _, kinds = _tables()
    found = morphemes.words(asking)
    lemmas = [w.lemma for w in found]
    span = len(pleased_words)
    pleased = [i + span - 1 for i in range(len(lemmas) - span + 1) if tuple(lemmas[i:i + span]) == pleased_words]
    liked = [i for i, lemma in enumerate(lemmas) if lemma in liking] + pleased
    if not liked and listening_cues.WOULD_BE.search(asking):
        liked = [len(found) - 1]  # 'どうぶつだったらなにになりたい？': which of a kind it would be, its pick
    if not liked:
        return None
    # 'どんな本が好き？', '何色が好き？', '好きな作家だれ？', '好きなどうぶつは？': which is asked
    naming = any(i + 2 < len(found) and found[i + 1].surface in modifying and found[i + 2].pos in ("noun", "prefix")
                 for i in liked)
    if not naming and not any(lemma in asking_words for lemma in lemmas):
        return None
    nouns = _kind_nouns(found, own_names)
    # '本' before 'なに' is a prefix to the analyzer ('すきな本なに？'): the kind all the same; a verb may name
    # it too ('なに食うのが一番好きだ？': food)
    for word in found:
        if word.lemma in kinds and word.pos in ("noun", "prefix", "verb"):
            return kinds[word.lemma]
    return _as_written(found, liked, modifying) or (UNNAMED if nouns else None)


def _kind_nouns(found: tuple[morphemes.Word, ...], own_names: tuple[str, ...]) -> list[morphemes.Word]:
    """The nouns that may name the kind asked of: no name, no word that never names a kind, not the agent."""
    not_a_kind = _tables()[4]
    own = tuple(morphemes.katakana(name) for name in own_names if name)
    return [w for w in found if w.pos == "noun" and not w.proper and w.lemma not in not_a_kind
            and not any(morphemes.katakana(w.surface) in name or name in w.surface for name in own)]


def _kind_noun(asking: str, own_names: tuple[str, ...]) -> str:
    """The noun a question of an unnamed kind asks of ('漬物' of 'どんな漬物が好き？'), '' when none."""
    return next((w.lemma for w in _kind_nouns(morphemes.words(asking), own_names)), "")


@functools.lru_cache(maxsize=1)
def _categories() -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(lexicon.section("taste_categories").items())


def _as_written(found: tuple[morphemes.Word, ...], liked: list[int], modifying: frozenset[str]) -> str | None:
    """The kind by its word as written, where the analyzer cut a kana word elsewhere: right after
    '好きな' ('好きないろは？', read as ない・ろ), or anywhere when three letters or more ('のみもの')."""
    text = "".join(w.surface for w in found)
    named_at = {len("".join(w.surface for w in found[:i + 2])) for i in liked
                if i + 1 < len(found) and found[i + 1].surface in modifying}
    for kind, words in _categories():
        if any(text.startswith(w, at) for w in words for at in named_at) \
                or any(len(w) >= _WRITTEN_AT_LEAST and w in text for w in words):
            return kind
    return None


def asked_taste(asking: str, line: str, question: Question, own_names: tuple[str, ...]) -> Understanding | None:
    """The question read as a taste asked: of a self topic (answered from the pack's `about_me`) or of a kind
    of its favourites (UNNAMED: a kind it never thought about). A line written in phrases with spaces
    between them (a child's kana) is read with its spaces too: run together, 'なにいろがすき' loses its 色."""
    kind = taste_asked(asking, own_names)
    if kind in (None, UNNAMED) and " " in line.strip():
        spaced = taste_asked(line, own_names)
        if kind is None or spaced not in (None, UNNAMED):
            kind = spaced
    if kind is None:
        return None
    if kind == UNNAMED:  # '何の科目が好き？', '一番好きな言葉って？': a kind no favourite names, a topic of its own may
        named = lexicon.self_topic("".join(asking.split()))  # (not where it lives: 'この町の昔話で一番好きなん')
        kind = named if named and named not in lexicon.self_topics_of("where_it_lives") else kind
        if kind == UNNAMED and question.kind == "where" and any(  # what is asked, after what was conceded
                w.lemma in _tables()[0] for w in morphemes.words(CONCEDING.split(question.text)[-1])):
            kind = PLACE  # 'この町でどこが一番好き？': where it likes is a favourite place (not 'どこがええと思う？')
    if kind in lexicon.self_topics():
        return Understanding("question", asks=SELF, self_topic=kind, question=question)
    topic = _kind_noun(asking, own_names) if kind == UNNAMED else ""  # 'どんな漬物が好ぎだ？': of 漬物
    return Understanding("question", asks=FAVOURITE, favourite=kind, topic=topic, question=question)
