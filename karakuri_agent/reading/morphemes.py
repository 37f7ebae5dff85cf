"""Words of a Japanese line, from a real morphological analyzer: the one place that knows which.

A line's topic is a whole word ('市民マラソン', '引っ越し'), never a guess at
where a word ends by character class (which cut '手伝' out of '手伝った').
The analyzer is fugashi with the unidic-lite dictionary: of the two wheels
measured (SudachiPy with sudachidict-core being the other), it loads in
~15 ms and ~32 MB against ~120-200 ms and ~105 MB, with the same words on
the agent's kind of lines (compounds are joined here from UniDic's short
units). It is imported the first time a line is read, never at start-up:
`handle` on a notification with no conversation pays nothing for it.

Swapping the analyzer means rewriting `_analyse` alone: everything else
reads `Word`s.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from karakuri_agent.ja.listening_cues import DISCOURSE, JOINING
from karakuri_agent.ja.word_classes import (
    AMOUNT_COUNTERS,
    QUOTING,
    SAYING,
    SUBJECT_MARK,
    LAUGH_LETTERS,
    ADJECTIVE_ENDING,
    ADVERBIAL,
    AUX_STEM,
    COUNTER,
    ASKING_KANA,
    BOUND,
    CASE_PARTICLES,
    COPULA,
    COPULA_AFTER,
    FORMAL_NOUNS,
    FREQUENCY_COUNTERS,
    HEARSAY_WORDS,
    HIRAGANA_ONLY,
    KATAKANA_LETTER,
    KATAKANA_ONLY,
    KANA,
    KANSAI_COPULA_MISREAD,
    NOT_TOPICS,
    NOUN_SUFFIX,
    NUMBER,
    NUMERALS,
    PHRASE_PARTICLES,
    PLAIN_FORMS,
    POS,
    PROPER,
    TO_KATAKANA,
)

__all__ = ["Word", "content_words", "hiragana", "kana_nouns", "katakana", "nouns", "shortened", "words"]

# A line longer than this is read only so far (a conversation message is at most 200 characters).
_MAX_CHARS = 400


@dataclass(frozen=True)
class Word:
    """One word as the analyzer cut it: its text, its dictionary form and its part of speech.

    ``pos`` is coarse and English ('noun', 'verb', 'particle', ... see
    ja/words.POS); ``detail`` is the analyzer's second and third levels
    ('固有名詞', '副詞可能'), for the few places that care.
    """

    surface: str
    lemma: str
    pos: str
    detail: tuple[str, ...] = ()
    spaced: bool = False  # whitespace came before it: it starts a new run of words
    form: str = ""  # the conjugated form ('意志推量形' of 持とう, '終止形-一般'), '' for words that do not conjugate
    conjugation: str = ""  # how it conjugates ('五段-カ行', '下一段-ア行': 買え of 買う is its potential)

    @property
    def proper(self) -> bool:
        return PROPER in self.detail

    @property
    def bound(self) -> bool:
        return BOUND in self.detail


_ANALYZER_IN_USE = threading.Lock()


@functools.lru_cache(maxsize=1)
def _tagger() -> Callable[[str], Any]:
    import fugashi  # type: ignore[import-not-found,unused-ignore]  # the analyzer: only when a line is read

    tagger: Callable[[str], Any] = fugashi.Tagger()
    return tagger


def _field(feature: Any, name: str) -> str:
    value = getattr(feature, name, None)
    return value if isinstance(value, str) and value != "*" else ""


def _analyse(text: str) -> tuple[Word, ...]:
    with _ANALYZER_IN_USE:  # one analyzer per process; a fleet's workers read lines one at a time through it
        return _read(text)


def _read(text: str) -> tuple[Word, ...]:
    out: list[Word] = []
    for node in _tagger()(text):
        feature = node.feature
        pos = POS.get(_field(feature, "pos1"), "other")
        lemma = _field(feature, "lemma").split("-", 1)[0] or node.surface
        detail = tuple(d for d in (_field(feature, "pos2"), _field(feature, "pos3")) if d)
        word = Word(str(node.surface), lemma, pos, detail, bool(getattr(node, "white_space", "")),
                    _field(feature, "cForm"), _field(feature, "cType"))
        if (word.surface, word.lemma) == KANSAI_COPULA_MISREAD and out and out[-1].pos in COPULA_AFTER:
            word = Word(word.surface, COPULA, "auxiliary", (), word.spaced)  # '来週からやで': Kansai's だ, not 嫌
        out.append(word)
    return tuple(out)


def lemma_set(written: Iterable[str]) -> frozenset[str]:
    """Words as a lexicon's author writes them, and as the analyzer's lemmas (おやつ is 御八つ to it, 帰る
    返る): a data file lists words, a reader compares lemmas."""
    written = tuple(written)
    found = [_analyse(w) for w in written]  # not through `words`' cache: a table would push the lines out of it
    return frozenset(written) | {one[0].lemma for one in found if len(one) == 1}


def lemmas_of(lines: Iterable[str]) -> frozenset[str]:
    """The lemmas of every word of some lines ('ゆったりした歌なら歌えるんだ' holds 歌う): what they speak of."""
    return frozenset(w.lemma for line in lines for w in words(line))


@functools.lru_cache(maxsize=256)
def words(text: str) -> tuple[Word, ...]:
    """The words of ``text`` in order (cached: a line is read by several readers in one turn)."""
    if not text:
        return ()
    return _analyse(text[:_MAX_CHARS])


def name_forms(names: Iterable[str]) -> tuple[str, ...]:
    """Names as written and in hiragana, as a child writes them ('ニケ' and 'にけ'), each once, in order."""
    return tuple(dict.fromkeys(form for name in names if name for form in (name, hiragana(name))))


def word_spans(found: Sequence[Word], text: str) -> tuple[tuple[int, int], ...]:
    """Where in ``text`` each of ``found`` (its words) begins and ends, in order; an empty span where the
    text does not hold a word as the analyzer wrote it."""
    spans, cursor = [], 0
    for word in found:
        at = text.find(word.surface, cursor)
        spans.append((at, at + len(word.surface)) if at >= 0 else (cursor, cursor))
        cursor = spans[-1][1]
    return tuple(spans)


def _one_kana_noun(found: tuple[Word, ...], i: int) -> bool:
    """'はがぬけた', 'めがいたい': a one-kana word the analyzer took for a particle or a mark, right
    before the case particle が or を, at the start of a phrase (the line's, after a pause or a time
    word), is a noun written in kana (歯, 目, 手): no particle comes so."""
    word = found[i]
    following = found[i + 1] if i + 1 < len(found) else None
    before = found[i - 1] if i else None
    return (len(word.surface) == 1 and KANA.fullmatch(word.surface) is not None and word.pos in ("particle", "symbol")
            and following is not None and following.pos == "particle" and following.surface in CASE_PARTICLES
            and (before is None or before.pos == "symbol" or word.spaced or ADVERBIAL in before.detail))


def _not_topic(word: Word) -> bool:
    """A time word or a formal noun, as written or in kana ('きょう' is 今日, 'こんど' is 今度), or a laugh
    typed ('よくわからんw': the analyzer's noun w)."""
    return word.surface in NOT_TOPICS or (word.lemma in NOT_TOPICS and ADVERBIAL in word.detail) \
        or set(word.surface) <= LAUGH_LETTERS


def _is_noun(word: Word) -> bool:
    return word.pos == "noun"


def _a_count(run: list[Word]) -> bool:
    """'一回', '二度', '三匹', '二十分': how many or how often (one word to the analyzer, or a number and its
    counter), not what."""
    if len(run) == 1:
        return run[0].surface[:1] in NUMERALS and run[0].surface[-1:] in FREQUENCY_COUNTERS
    return NUMBER in run[0].detail and all(COUNTER in "".join(w.detail) for w in run[1:]) \
        and run[-1].surface in FREQUENCY_COUNTERS | AMOUNT_COUNTERS


def _tail(word: Word) -> bool:
    """A word that ends a compound rather than standing on its own: one letter ('日' of 誕生日) or
    noun-like ('後' of 放課後)."""
    return len(word.surface) == 1 or NOUN_SUFFIX in word.detail


def nouns(text: str) -> list[str]:
    """The compound nouns of ``text`` that can be a topic, in order: runs of nouns joined
    with their prefixes and noun-making suffixes ('市民マラソン', 'パン屋'), time words,
    formal nouns and pronouns left out."""
    found: list[str] = []
    run: list[Word] = []
    pending_prefix = ""

    def close() -> None:
        nonlocal run
        if all(NUMBER in w.detail or _not_topic(w) for w in run) or _a_count(run) \
                or (len(run) > 1 and all(ADVERBIAL in w.detail for w in run) and len(run[-1].surface) > 1):
            # '3時', '三日', '一回': a number and its counter say when or how much, not what; nor does a
            # run of words that work as adverbs ('週末あたり', '今度みんな'; '来週末' is one word, kept whole)
            run = []
            return
        core = [w for w in run if not _not_topic(w) or len(run) > 1]
        while len(core) > 1 and _not_topic(core[0]) and ADVERBIAL in core[0].detail and NOUN_SUFFIX not in core[1].detail:
            core = core[1:]  # '来週の' is not part of the topic: '来週市民マラソン', 'こんどピアノ' → 'ピアノ'
        while core and _not_topic(core[-1]) and ADVERBIAL in core[-1].detail and not _tail(core[-1]):
            core = core[:-1]  # but '誕生日', '放課後' keep the word that ends them
        if _a_count(core):
            core = []  # 'あと一回': once the time word is off, a count
        text = "".join(w.surface for w in core)
        if text and text not in NOT_TOPICS:
            found.append(text)
        run = []

    found_words = words(text)
    for i, word in enumerate(found_words):
        if _one_kana_noun(found_words, i):
            word = Word(word.surface, word.surface, "noun", (), word.spaced)
        if word.spaced:
            if run:
                close()
            pending_prefix = ""
        if _is_noun(word) and not word.bound:
            if pending_prefix and not run:
                run.append(Word(pending_prefix, pending_prefix, "prefix"))
            run.append(word)
            pending_prefix = ""
        elif word.pos == "suffix" and run and NOUN_SUFFIX in word.detail:
            run.append(word)
        elif word.pos == "prefix":
            if run:
                close()
            pending_prefix = word.surface
        else:
            if run:
                close()
            pending_prefix = ""
    if run:
        close()
    return found


def content_words(text: str) -> list[Word]:
    """Nouns, verbs and adjectives of ``text`` (bound ones aside), in order: what a line says."""
    return [w for w in words(text)
            if w.pos in ("noun", "verb", "adjective", "adjectival") and not w.bound
            and NUMBER not in w.detail]


def shortened(noun: str, limit: int) -> str:
    """A compound noun cut to fewer than ``limit`` characters by its first words
    ('誕生日プレゼント' → 'プレゼント'); '' when its last word alone is too long."""
    parts = [w.surface for w in words(noun)]
    while parts and len("".join(parts)) >= limit:
        parts = parts[1:]
    return "".join(parts)


def katakana(text: str) -> str:
    """'かぶとむし' → 'カブトムシ': hiragana written as katakana, anything else as it is."""
    return "".join(chr(ord(ch) + TO_KATAKANA) if KANA.fullmatch(ch) else ch for ch in text)


def hiragana(text: str) -> str:
    """'ニケ' → 'にけ': katakana written as hiragana (a child writes a name so), anything else as it is."""
    return "".join(chr(ord(ch) - TO_KATAKANA) if KATAKANA_LETTER.fullmatch(ch) else ch for ch in text)


def _known_nouns(text: str) -> bool:
    """Every word the analyzer finds in ``text`` is a noun of its dictionary (none a guess at an unknown one), each
    a word of the language written so (its dictionary form in kanji: 甲虫, 天道+虫), no foreign name ('エンデ')."""
    nodes = list(_tagger()(text))
    return bool(nodes) and all(not getattr(node, "is_unk", True) and POS.get(_field(node.feature, "pos1")) == "noun"
                               and not KATAKANA_ONLY.fullmatch(_field(node.feature, "lemma") or node.surface)
                               for node in nodes)


def _kana_noun(phrase: str) -> str:
    """The noun a spaced phrase in hiragana is, when the analyzer misreads it ('' otherwise)."""
    if not HIRAGANA_ONLY.fullmatch(phrase) or phrase.startswith(ASKING_KANA):
        return ""  # 'なんいろ', 'なにが': a question word asks, it names nothing
    pieces = list(words(phrase))
    while len(pieces) > 1 and pieces[-1].pos in ("particle", "auxiliary"):
        pieces.pop()  # 'こうえんで', 'つかまえた': what ends a phrase
    if len(pieces) < 2 and len(words(phrase)) < 3 or all(w.pos in ("noun", "prefix", "suffix") for w in pieces) \
            or pieces[0].pos in ("verb", "adjective"):
        return ""  # a phrase as it should be: a noun ('ざりがに', 'おとうさん') or a predicate with its endings
    for word in (phrase[:-1] if phrase[-1:] in PHRASE_PARTICLES else "", phrase):  # 'こうえんで' is こうえん, で
        if len(word) >= 3 and _known_nouns(katakana(word)):
            return word
    return ""


def kana_nouns(line: str) -> tuple[str, ...]:
    """'きのう かぶとむし つかまえた' → ('かぶとむし',): in a line written with spaces between its phrases
    (a child's, in hiragana), a phrase the analyzer cuts into pieces that make no phrase (蕪・と・虫)
    while the same word in katakana is a noun of its dictionary (甲虫) is that noun, whole."""
    phrases = line.split()
    if len(phrases) < 2:
        return ()
    return tuple(dict.fromkeys(n for n in (_kana_noun(p) for p in phrases) if n))


def content_stems(text: str) -> tuple[str, ...]:
    """The words of ``text`` that carry its meaning, as stems a line may hold inside a longer word:
    nouns whole, an adjective without its ending ('辛いもの' → ('辛',)); formal nouns ('もの') aside."""
    stems: list[str] = []
    for w in words(text):
        if w.pos == "noun" and not w.bound and w.surface not in FORMAL_NOUNS:
            stems.append(w.surface)
        elif w.pos == "adjective":
            stems.append(w.surface[:-1] if w.surface.endswith(ADJECTIVE_ENDING) else w.surface)
    return tuple(stems)


def verb_phrase(text: str, shorter_than: int) -> str:
    """'手伝った' → '手伝った': the first verb or adjective with what follows it up to a particle of ending,
    if shorter than ``shorter_than``; '' when a kana word was cut in two ('なかなおりした' as なか・なおり
    した: half a word is not said back)."""
    out, before, said_before = "", None, ""
    for word in words(text):
        if not out:
            if word.pos in ("verb", "adjective") and not word.bound and word.surface not in DISCOURSE:
                if before is not None and before.pos == "noun" and HIRAGANA_ONLY.fullmatch(before.surface + word.surface):
                    return ""
                out = word.surface
            before = word
            continue
        if word.pos in ("auxiliary", "verb") or (word.pos == "particle" and word.surface in JOINING):
            out += word.surface
            continue
        if word.pos == "noun" and not word.spaced:
            # '聞かれたことの半分も答えられんかった': it says which thing; the next verb is told, if one comes
            # ('引っ越すことになって' has none: the phrase is the thing told)
            out, before, said_before = "", word, out
            continue
        break
    out = (out or said_before).rstrip("".join(JOINING))
    return out if 1 < len(out) < shorter_than else ""


def heard_from_others(text: str) -> bool:
    """Whether the line reports what the speaker heard ('改正されるそうでございます', '変わるそうじゃ',
    '継ぐらしいで'): そう or らしい right after a plain form (the そう of looks follows a stem: 'おいしそう')."""
    found = words(text)
    return any(w.lemma in HEARSAY_WORDS and (w.pos == "auxiliary" or AUX_STEM in w.detail) and i
               and found[i - 1].form.startswith(PLAIN_FORMS) for i, w in enumerate(found)) or _quoted(found)


def _quoted(found: Sequence[Word]) -> bool:
    """Whether the line quotes someone named saying it ('今度は長くなるって先生がいうんだよ', '来月閉まるって
    店長が言ってた'): a quote, then who said it with が, then a verb of saying."""
    return any(w.lemma in SAYING and i >= 3 and found[i - 1].surface == SUBJECT_MARK and found[i - 2].pos == "noun"
               and found[i - 3].surface in QUOTING for i, w in enumerate(found))
