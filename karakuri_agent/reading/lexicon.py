"""The lexicon as data: concepts by lemma (ja/lexicon/concepts.json) and polarity (ja/lexicon/polarity.json).

A line is read as words (reading/morphemes.py); each word is tagged with the
concepts whose lemmas or surfaces it carries, and scored by its polarity:
a concept's own polarity first, else the Tohoku dictionaries' (built into
polarity.json by scripts/build_polarity_lexicon.py). A negation right after
a predicate (眠れない, 楽しくない, 大丈夫じゃない) turns it: its polarity flips,
and the concepts that hold it only when negated take it (眠る → worry).

`tags(words, text)` gives the concepts a line names; reading/sentiment.py scores them:
a polarity (-1, 0, +1) and the emotions named (worried, unwell, grief...),
for the one reading of a line (reading/hearing.py). Loaded the first time a
line is read; nothing here is imported at start-up.
"""

from __future__ import annotations

import functools
import zlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from karakuri_agent.ja.listening_cues import DOABLE, NEGATION_AFTER, OF, PLAN_VERBS, POINTED
from karakuri_agent.ja.word_classes import (
    ADJECTIVAL_NOUN, AT_LAST, BECOMING, GOING_TO, KANA_WORD, CONDITIONAL, FULL_STOPS,
    PASSIVES, PAST, SENTENCE_END_MARKS, SUITS, TE_LINKS, TELLING_VERBS, THROUGH,
)
from karakuri_agent.reading.morphemes import Word, lemma_set, word_spans, words
from karakuri_agent.reading.phrase import (
    asked_negation, could_do, done_to, helper, modifies_a_noun, negated, one_row_could, passive, potential,
)
from karakuri_agent.shipped import shipped

# How many words may come between two lemmas of a concept's sequence ('熱+が+さがっ', '手術+は+無事+に+成功').
SEQUENCE_GAP = 3
PREDICATES = frozenset({"verb", "adjective", "adjectival", "noun"})


@dataclass(frozen=True)
class Concept:
    name: str
    lemmas: frozenset[str]
    surfaces: tuple[str, ...]
    negated_lemmas: frozenset[str] = frozenset()
    polarity: int = 0
    negated_polarity: int | None = None
    emotion: str = ""
    at_end: bool = False
    reply_only: bool = False  # a word a reply says (cheer), never a tag of a line
    polarity_none: bool = False  # its words say nothing of how things went, whatever the dictionaries score
    passive: bool = False  # a verb made passive (食べられた) is this concept's, unless a glad concept holds it
    regret_with: tuple[str, ...] = ()  # its words count only with one of these marks in the line ('…')
    sequences: tuple[tuple[str, ...], ...] = ()  # lemmas in this order, a few words apart ('熱'…'下がる')
    reaction: str = ""  # the pack's reaction a plain news of this concept is met with ('news_began')
    no_longer: bool = False  # a verb negated, then なる ('歩けなくなった'), is this concept's
    negated_sequences: tuple[tuple[str, ...], ...] = ()  # as `sequences`, the last negated ('友達'…'居ない')


@functools.lru_cache(maxsize=1)
def _lexicon() -> dict[str, Any]:
    """concepts.json, read once per process: every section below is taken from this one parse."""
    data: dict[str, Any] = json.loads(shipped("ja", "lexicon", "concepts.json").read_text(encoding="utf-8"))
    return data


def section(name: str) -> dict[str, tuple[str, ...]]:
    """A section of concepts.json as words by key (its 'about' aside); the readers of their own take theirs."""
    return {key: tuple(words) for key, words in _lexicon()[name].items() if key != "about"}


def nested_section(name: str) -> dict[str, Any]:
    """A section of concepts.json whose values are not word lists, as parsed (its 'about' aside)."""
    return {key: value for key, value in _lexicon()[name].items() if key != "about"}


@functools.lru_cache(maxsize=1)
def _common_choices() -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = nested_section("common_choices")["choices"]
    return {name: tuple(options) for key, options in table.items() for name in lemma_set((key,))}


def common_choice(kind: str, chooser: str) -> str:
    """What ``chooser`` picks of a kind its pack never names ('漬物' → 'たくあん'; concepts.json
    `common_choices`, by the noun's lemma or a taste kind), the same on every run; '' for a kind not there."""
    options = _common_choices().get(kind, ())
    return options[zlib.crc32(f"{chooser}:{kind}".encode()) % len(options)] if options else ""


def _longest_named(table: dict[str, tuple[str, ...]], *texts: str) -> str:
    """The key whose word in one of ``texts`` is the longest ('好きな食べ物' over '好き'), of two as long the later,
    '' when none is named."""
    best = max(((len(w), text.rfind(w), key) for key, words in table.items() for w in words for text in texts if w in text),
               default=None)  # of two as long, the one named later: nearer what is asked ('…なりたいって…料理するの？')
    return best[2] if best else ""


@functools.lru_cache(maxsize=1)
def concepts() -> dict[str, Concept]:
    return {name: Concept(name, frozenset(spec.get("lemmas", ())), tuple(spec.get("surfaces", ())),
                          frozenset(spec.get("negated_lemmas", ())), int(spec.get("polarity", 0)),
                          spec.get("negated_polarity"), str(spec.get("emotion", "")), bool(spec.get("at_end")),
                          bool(spec.get("reply_only")), bool(spec.get("polarity_none")), bool(spec.get("passive")),
                          tuple(spec.get("regret_with", ())),
                          tuple(tuple(sequence) for sequence in spec.get("sequences", ())),
                          str(spec.get("reaction", "")), bool(spec.get("no_longer")),
                          tuple(tuple(sequence) for sequence in spec.get("negated_sequences", ())))
            for name, spec in _lexicon()["concepts"].items()}


@functools.lru_cache(maxsize=1)
def self_topics() -> dict[str, tuple[str, ...]]:
    """A question about the agent itself, by topic: the words that name it (concepts.json `self_topics`)."""
    return section("self_topics")


@functools.lru_cache(maxsize=None)
def self_topics_of(kind: str) -> frozenset[str]:
    """The self topics of a kind the reader treats apart (concepts.json `self_topic_kinds`: 'of_a_time',
    'where_it_lives')."""
    return frozenset(section("self_topic_kinds")[kind])


@functools.lru_cache(maxsize=1)
def self_topic_words() -> frozenset[str]:
    """Every word that names a topic about the agent itself (得意, 苦手, 誕生日...), read once per process."""
    return frozenset(w for names in self_topics().values() for w in names)


@functools.lru_cache(maxsize=1)
def _ahead() -> tuple[tuple[tuple[str, tuple[str, ...]], ...], tuple[str, ...]]:
    return tuple(section("ahead").items()), tuple(_lexicon()["plan_words"]["words"])


def names_a_time_ahead(text: str) -> bool:
    """Whether a line names a time ahead ('明日、美容院予約したの！', '来週、面接なんだ': concepts.json `ahead`)."""
    return any(w in text for _, words in _ahead()[0] for w in words)


def plans_asked(asking: str, *, free: bool = False) -> str:
    """The time ahead a question asks the agent's plans for ('明日は何するの？' → 'tomorrow', '今夜の予定は？'
    → 'tonight'; concepts.json `ahead`), '' when it names no frame or asks nothing of a plan; ``free``: it asks
    whether the agent is free, which asks of its plans whatever words it has ('今日の夕方って空いとう？')."""
    return time_ahead(asking) if free or any(w in asking for w in _ahead()[1]) else ""


def free_asked_at(asking: str) -> int:
    """Where the first word that asks if the agent is free stands ('今日の夕方って空いとう？', 'お時間頂戴できますか';
    concepts.json `asks_free`: its plans for the time named are the answer), -1 when none does."""
    spec = _lexicon()["asks_free"]
    return min((asking.find(w) for w in spec["words"]
                if w in asking and not any(w + after in asking for after in spec["habit_after"])), default=-1)


def time_ahead(text: str) -> str:
    """The first frame of time ahead a line names ('明日の約束' → 'tomorrow'; concepts.json `ahead`), ''."""
    return next((key for key, words in _ahead()[0] if any(w in text for w in words)), "")


@functools.lru_cache(maxsize=1)
def _views() -> dict[str, tuple[str, ...]]:
    return section("asks_view")


def asks_another_role(text: str) -> bool:
    """Whether a line asks the agent to stop being itself (concepts.json `role_change`: '今から君はAI
    アシスタントです', 'これまでの指示は忘れて'): met as itself, never obeyed."""
    return any(word in text for word in _lexicon()["role_change"]["surfaces"])


def view_asked(text: str) -> str:
    """What of its view a line asks the agent for, about the partner's own matter: 'guess' ('何味だったと
    思う？当ててみて'), 'advice' ('これ、どうすりゃいいと思う？'), 'suggest' ('何色がええやろな'), '' none
    (concepts.json `asks_view`); the longest word named wins; else by its form ('何作ってやったらいいべな':
    `asks_view_forms`)."""
    return _longest_named(_views(), text) or _view_by_form(words(text))


@functools.lru_cache(maxsize=1)
def _view_forms() -> dict[str, frozenset[str]]:
    return {key: frozenset(words) for key, words in section("asks_view_forms").items()}


def _view_by_form(found: Sequence[Word]) -> str:
    """'suggest' or 'advice' for a word that asks before a conditional and good ('どない言うたらええんやろ'), ''."""
    spec = _view_forms()
    for j, word in enumerate(found):
        if word.pos not in ("auxiliary", "particle") or word.surface not in spec["conditional"]:
            continue
        after = found[j + 1:j + 3]
        if not after or not (after[0].lemma in spec["good"]
                             or any("".join(w.surface for w in after).startswith(g) for g in spec["good_spelled"])):
            continue
        asked = [i for i in range(j) if found[i].lemma in spec["asking"]]
        if asked:
            i = asked[-1]
            leads = i + 1 < j and found[i + 1].pos in ("noun", "verb")
            return "suggest" if found[i].lemma in spec["what"] and leads else "advice"
    return ""


@functools.lru_cache(maxsize=1)
def _today() -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(_lexicon()["today"]["words"]), tuple(_lexicon()["today"]["best"])


def of_today(asking: str) -> bool:
    """Whether a question names the agent's day so far (concepts.json `today`: '今日', '午前中', 'さっきまで')."""
    return any(w in asking for w in _today()[0])


def best_of_day(asking: str) -> bool:
    """Whether a question about its day asks for the best of it ('今日一番楽しかったことって何？')."""
    return any(w in asking for w in _today()[1])


def self_topic(asking: str) -> str:
    """The topic of the agent itself a question asks about ('お誕生日っていつ？' → 'birthday'), '' when none;
    the longest word named wins ('好きな食べ物' over '好き', in kana too: 'にがてな　たべもの'), else a thing named
    by its lemma ('酒とか飲めるとや？' → 'alcohol'), which goes before what it is good or bad at ('歌うのとくい？' → 'karaoke'). A question
    of a thing pointed at ('これマジで夢じゃない？') asks of that thing, not of the agent."""
    found = words(asking)
    if POINTED.search(asking) and "second_person" not in tags(found, asking):
        return ""
    named = _longest_named(self_topics(), asking, _in_kanji(found))
    over, by_thing, not_when, going = _topic_lemmas()
    if named and named not in over or any(w.lemma in not_when for w in found):
        return named
    return next((by_thing[t] for start, things in _things(found) for t in things
                 if t in by_thing and not _of_one(found, start) and not _gone_to(found, start, going)
                 and not done_to(found, start)), named)


def _gone_to(found: Sequence[Word], i: int, going: frozenset[str]) -> bool:
    """Whether the noun at ``i`` is where one goes ('実家に帰る', 'お正月、実家帰る？'): asked of, it is a plan."""
    j = i
    while j < len(found) and found[j].pos == "noun":
        j += 1
    if j < len(found) and found[j].pos == "particle" and found[j].surface in GOING_TO:
        j += 1
    return j > i and j < len(found) and found[j].pos in ("verb", "noun") and found[j].lemma in going


def _in_kanji(found: Sequence[Word]) -> str:
    """The line with each noun written in hiragana spelled as its lemma ('にがてな　たべもの' → '苦手な食べ物'), so
    the words an author wrote in kanji are found however the line spells them."""
    return "".join(w.lemma if w.pos == "noun" and KANA_WORD.fullmatch(w.surface) else w.surface for w in found)


def _things(found: Sequence[Word]) -> list[tuple[int, tuple[str, ...]]]:
    """Each thing a line names, where it starts and its lemma: a run of nouns as one compound ('誕生日', '運転
    免許'; '化け屋敷' is no ghost, 'ホラー映画' no film it likes) up to a noun that says how it is ('幽霊平気？'),
    a verb or an adjective alone ('泳ぐ')."""
    out: list[tuple[int, tuple[str, ...]]] = []
    i = 0
    while i < len(found):
        if found[i].pos == "noun":
            end = i
            while end + 1 < len(found) and found[end + 1].pos == "noun" and ADJECTIVAL_NOUN not in found[end + 1].detail:
                end += 1
            out.append((i, ("".join(w.lemma for w in found[i:end + 1]),)))
            i = end + 1
            continue
        if found[i].pos in PREDICATES:
            out.append((i, (found[i].lemma,)))
        i += 1
    return out


def _of_one(found: Sequence[Word], i: int) -> bool:
    """Whether the noun at ``i`` is one thing, said whose or which ('きのうのねこ', 'みおのおたんじょうび'), not
    the kind ('好きな映画'); 'ニケちゃんの' names the agent's own."""
    while i and found[i - 1].pos == "prefix":
        i -= 1
    return i >= 2 and found[i - 1].surface == OF and found[i - 2].pos not in ("suffix",) and not found[i - 2].proper


@functools.lru_cache(maxsize=1)
def _topic_lemmas() -> tuple[frozenset[str], dict[str, str], frozenset[str], frozenset[str]]:
    """concepts.json `self_topic_lemmas`: the topics a thing named goes before, each lemma's topic, the
    words that ask when or where (no taste of its own is asked then) and the verbs of going somewhere."""
    spec = nested_section("self_topic_lemmas")
    return (frozenset(spec["over"]), {lemma: topic for topic, lemmas in spec["topics"].items() for lemma in lemmas},
            frozenset(spec["not_when_asked"]), frozenset(spec["not_where_going"]))


@functools.lru_cache(maxsize=1)
def polarity_table() -> dict[str, int]:
    data: dict[str, Any] = json.loads(shipped("ja", "lexicon", "polarity.json").read_text(encoding="utf-8"))
    return {str(k): int(v) for k, v in data["lemmas"].items()}


@functools.lru_cache(maxsize=1)
def by_lemma() -> dict[str, tuple[Concept, ...]]:
    index: dict[str, list[Concept]] = {}
    for concept in concepts().values():
        for lemma in concept.lemmas:
            index.setdefault(lemma, []).append(concept)
    return {k: tuple(v) for k, v in index.items()}


# The concepts whose nouns are things undertaken ('試験', '発表会'), for encouragement before them.
UNDERTAKEN = frozenset({"effort", "milestone"})
# The concepts whose words name a feeling itself (緊張, 寂しい, 嬉しい), not a thing that happened (入院, 死ぬ).
FEELINGS = frozenset({"worry", "lonely", "joy", "warm_feeling"})


def is_feeling(word: str) -> bool:
    """A word naming a feeling (緊張, 不安, 寂しさ): what is felt, never what happened."""
    found = words(word) if word else ()
    last = found[-1].lemma if found else word  # '少々不安': a feeling still, its last word says
    return any(concept.name in FEELINGS for concept in (*by_lemma().get(word, ()), *by_lemma().get(last, ())))


def cheer_words() -> tuple[str, ...]:
    """What a reply says to cheer (concepts.json `cheer`): no line that meets bad news or worry says it."""
    return concepts()["cheer"].surfaces


def tags(found: Sequence[Word], text: str) -> set[str]:
    """Every concept the line names: by a word's lemma (or, negated, its negated lemmas) or by a surface."""
    named: set[str] = set()
    index = by_lemma()
    for i, word in enumerate(found):
        turned = negated(found, i)
        for concept in index.get(word.lemma, ()) + index.get(word.surface, ()):
            if turned and (concept.polarity or concept.emotion):
                continue  # '楽しくなかった', 'うまくいってない', '寂しくない', '心配なし': the word is turned
            if not concept.reply_only and (not concept.regret_with or any(m in text for m in concept.regret_with)
                                           or _befallen(found, i)):
                named.add(concept.name)
        if turned and not asked_negation(found, i):  # 'エサやってもらえない？' asks a favour, no letdown
            named.update(c.name for c in concepts().values() if word.lemma in c.negated_lemmas)
        if word.pos == "verb" and passive(found, i) and not any(c.polarity > 0 or c.polarity_none
                                                                for c in index.get(word.lemma, ())) \
                and not modifies_a_noun(found, i):  # 'すすめられた本' says which book; '…と言われた', what was said
            named.update(c.name for c in concepts().values() if c.passive)
    named.update(c.name for c in concepts().values() if any(_in_order(found, seq) for seq in c.sequences)
                 or any(_in_order(found, seq, last_negated=True) for seq in c.negated_sequences))
    if achieved(found):
        named.add("good_event")  # 'やっと買えた', '最後まで走りきった': managed, at last
    elif could_not(found):
        named.add("letdown")  # '買えなかった', '行けなかった': not managed
    if no_longer(found):
        named.update(c.name for c in concepts().values() if c.no_longer)  # '肩が上がらなくなって'
    spans = word_spans(found, text)
    for concept in concepts().values():
        if concept.name in named or concept.reply_only:
            continue
        if concept.at_end:
            tail = text.rstrip(SENTENCE_END_MARKS)
            if any(tail.endswith(s) for s in concept.surfaces):
                named.add(concept.name)
        elif any(_named_unturned(s, text, concept.polarity != 0, spans) for s in concept.surfaces if len(s) > 1 or not s.isalnum()):
            named.add(concept.name)
    if "good_event" in named:
        named.discard("adversity")  # '選手に選ばれた': done to one, and glad
    return named


GLAD_FEELINGS = frozenset({"glad", "proud", "fond", "relieved"})


def _befallen(found: Sequence[Word], i: int) -> bool:
    """Whether the 'しまう' at ``i`` helps a thing done to one or a thing become ('ひょうでやられてしまって',
    'きられちゃう', '見送りとなってしまいました'): what befell one, regretted whatever marks follow; '食べちゃった！'
    is a thing one did, and counts only with a trailing '…'."""
    j = i - 1 if i and found[i - 1].surface in TE_LINKS else i
    if j < 2 or not (found[j - 1].lemma in PASSIVES and found[j - 1].pos == "auxiliary"
                     and found[j - 2].lemma not in TELLING_VERBS  # '大丈夫って言われちゃった': what was said decides
                     or found[j - 1].lemma in BECOMING and found[j - 1].pos == "verb"):
        return False
    # a glad thing done to one or become ('褒められちゃった', '好きになっちゃった') is no misfortune
    glad = {c.name for c in concepts().values() if c.polarity > 0 or c.emotion in GLAD_FEELINGS}
    before = found[:i]
    return not tags(before, "".join(w.surface for w in before)) & glad


def _inside_a_word(start: int, end: int, spans: tuple[tuple[int, int], ...]) -> bool:
    """Whether ``text[start:end]`` lies inside one word, not at its start: 'いたい' in 'だいたい' is no pain;
    'るようになった' after a stem ('のれる' + 'ように') runs on past the word and is the ending it names."""
    return any(a < start and end <= b for a, b in spans)


def _in_order(found: Sequence[Word], sequence: tuple[str, ...], last_negated: bool = False) -> bool:
    """Whether the words hold ``sequence``'s lemmas (or surfaces) in order, each within SEQUENCE_GAP words of
    the one before, the last not negated ('熱さがった〜' holds 熱…下がる; '熱が下がらない' does not), or, with
    ``last_negated``, negated ('話す相手がおらん' holds 相手…居る)."""
    def at(i: int, k: int) -> bool:
        if found[i].lemma != sequence[k] and found[i].surface != sequence[k]:
            return False
        if k == len(sequence) - 1:
            return negated(found, i) == last_negated
        return any(at(j, k + 1) for j in range(i + 1, min(len(found), i + 2 + SEQUENCE_GAP)))
    return bool(sequence) and any(at(i, 0) for i in range(len(found)))


def achieved(found: Sequence[Word]) -> bool:
    """The line tells of something managed, in the past and not negated: a verb in its potential form
    ('買えた', '弾けました', '歩けるようになった'), a verb done through ('走りきった'), or any verb after
    'やっと'/'ついに' ('ようやく咲いた')."""
    past = [i for i, w in enumerate(found) if w.pos == "auxiliary" and w.lemma == PAST]
    at_last = next((i for i, w in enumerate(found) if w.surface in AT_LAST), None)
    for i, word in enumerate(found):
        if word.pos != "verb" or negated(found, i) or not _past_after(found, i, past):
            continue
        could = potential(word) or could_do(found, i)
        through = word.lemma in THROUGH and i > 0 and found[i - 1].pos == "verb"
        # 'ついに壊れた' is no good news: after 'やっと' only a verb that is not bad of itself
        benign = polarity_table().get(word.lemma, 0) >= 0 and not any(c.polarity < 0 for c in by_lemma().get(word.lemma, ()))
        if could or through or (at_last is not None and at_last < i and not helper(found, i) and benign):
            return True
    return False


def _past_after(found: Sequence[Word], i: int, past: Sequence[int]) -> bool:
    """Whether a past tense follows the word at ``i`` in its own sentence ('家賃払えるか微妙。シフト減らされた':
    the past is the next sentence's, nothing was managed)."""
    return any(p > i and not any(w.surface and all(c in FULL_STOPS for c in w.surface) for w in found[i + 1:p])
               for p in past)


def could_not(found: Sequence[Word]) -> bool:
    """The line tells of something one could not do, in the past ('買えなかった', '行けへんかった'): a letdown;
    not a plan changed ('行けなくなった' calls something off)."""
    past = [i for i, w in enumerate(found) if w.pos == "auxiliary" and w.lemma == PAST]
    return any(w.pos == "verb" and (potential(w) or one_row_could(found, i)) and negated(found, i) and _past_after(found, i, past)
               and not any(v.lemma in BECOMING for v in found[i + 2:i + 4]) for i, w in enumerate(found))


def no_longer(found: Sequence[Word]) -> bool:
    """Whether the line tells of a thing one can no longer do: a verb negated, then なる ('歩けなくなった',
    '肩が上がらなくなって'); not a plan called off ('行けなくなった' is a retraction), nor a bad thing that
    stopped ('泣かなくなった')."""
    table, index = polarity_table(), by_lemma()
    return any(w.pos == "verb" and negated(found, i) and w.lemma not in PLAN_VERBS
               and not any(c.polarity < 0 for c in index.get(w.lemma, ())) and table.get(w.lemma, 0) >= 0
               and any(v.lemma in BECOMING and v.pos == "verb" for v in found[i + 1:i + 4])
               for i, w in enumerate(found))


def _named_unturned(surface: str, text: str, polar: bool, spans: tuple[tuple[int, int], ...] = ()) -> bool:
    """Whether ``surface`` is in ``text`` and, for a concept that says how things went, not turned by a
    negation right after it ('うまくいってない', '歩けるようになってない': no good news; '負けなかった': no defeat)."""
    start = text.find(surface)
    while start >= 0:
        # a kana surface never from inside a word ('いたい' is not in 'だいたい'); one with kanji anywhere ('ボロ負け')
        if not (KANA_WORD.fullmatch(surface) and _inside_a_word(start, start + len(surface), spans)) \
                and (not polar or not NEGATION_AFTER.match(text, start + len(surface))):
            return True
        start = text.find(surface, start + 1)
    return False


def marked_sad(line: str) -> bool:
    """Whether the line as sent carries a sad mark (concepts.json `sad_marks`: 😭, （泣）), found as written."""
    return any(mark in line for mark in concepts()["sad_marks"].surfaces)


@functools.lru_cache(maxsize=256)
def named_in(text: str) -> frozenset[str]:
    """The concepts a whole line names (tags of its words), kept per text: the apology, the praise and the
    voice's letdown ask of the same line."""
    return frozenset(tags(words(text), text))


def apologises(text: str) -> bool:
    """Whether the line says sorry by concept `apology` ('お詫び申し上げます', '申し訳ございません', 'ごめんやで')."""
    return "apology" in named_in(text)


def praises_the_agent(text: str, own_names: tuple[str, ...]) -> bool:
    """Whether the line says something good of the agent by concept `compliment`, naming it (its names or
    'あなた': 'ニケちゃんは町の宝だなや', 'ニケの作るお菓子、ガチで店レベル')."""
    named = named_in(text)
    if "compliment" in named and ("second_person" in named or any(n and n in text for n in own_names)):
        return True
    # 'その髪飾り、すごい似合ってるね': what suits one is said of the one spoken to, when nobody else is named
    return any(w.lemma in SUITS for w in words(text)) and not named & {"first_person", "kin", "person_role", "pet"}


def names_an_event(text: str, aside: frozenset[str] = frozenset()) -> bool:
    """Whether the line names a thing that happens ('旅行', '試験', '結婚': a noun that takes する, or one a
    concept says went well or badly), which is then what it is about; the words ``aside`` not counted."""
    index = by_lemma()
    return any(w.pos == "noun" and w.surface not in aside and w.lemma not in aside
               and (DOABLE in w.detail or any(c.polarity for c in index.get(w.lemma, ()))) for w in words(text))


def told_event(text: str) -> str:
    """The pack's reaction for the kind of thing a plain news tells ('ピアノ習い始めた' → 'news_began',
    '引っ越した！' → 'news_moved'; concepts with a `reaction`), '' when it tells none of them."""
    named = named_in(text)
    return next((c.reaction for c in concepts().values() if c.reaction and c.name in named), "")


def undertaking(noun: str) -> bool:
    """Whether a noun names a thing one does and may be nervous of ('面接', '発表会', '手術', 'プレゼン'): its last
    word takes する, or a concept of effort or of a milestone holds it; not an illness, a loss, a person."""
    found = words(noun)
    if not found or found[-1].pos not in ("noun", "suffix"):
        return False
    index = by_lemma()
    own = [c for w in found for c in index.get(w.lemma, ())]
    if any(c.polarity < 0 for c in own):
        return False  # '病気', '入院': a trouble, not a thing undertaken
    return DOABLE in found[-1].detail or any(c.name in UNDERTAKEN for c in own)


def tells_an_outcome(text: str) -> bool:
    """Whether the line tells how a thing came out ('終わったよ〜', '受かった！', 'うまくいったよ', 'だめだった':
    concept `outcome`, then the past within two words); '落ちたらどうしよう' only fears one."""
    outcome = concepts()["outcome"].lemmas
    found = words(text)
    return any(word.lemma in outcome and any(w.lemma == PAST and w.surface not in CONDITIONAL for w in found[i + 1:i + 4])
               for i, word in enumerate(found))
