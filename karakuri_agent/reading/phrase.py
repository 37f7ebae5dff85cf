"""How a word stands in its phrase: turned by a negation after it, made passive, or only helping the word before.

Pure functions over the analyzer's words (reading/morphemes.py), read by the lexicon's scoring
(reading/lexicon.py): a concept's word counts only as its phrase says it ('楽しくなかった' is no joy).
"""

from __future__ import annotations

from collections.abc import Sequence

from karakuri_agent.ja.listening_cues import AGREEING_TAILS, QUESTION_MARKS
from karakuri_agent.ja.word_classes import (
    ADVERBIAL_FORM,
    AGENT_MARK,
    AVERTING,
    EUPHONIC,
    GODAN_ENDINGS,
    GOING_PAST,
    LAUGH_LETTERS,
    NEGATION_TRANSPARENT,
    NEGATIONS,
    NEGATIVE_ADVERBS,
    NOUN_TO_VERB,
    OBLIGING,
    OBLIGING_LINKS,
    ONE_ROW,
    ONE_ROWS,
    PASSIVES,
    PAST,
    PAST_BY_CONJUGATION,
    PLAIN_FORMS,
    PAST_TOLD,
    POTENTIAL_RU,
    RARE,
    RU,
    SUPPORT_VERBS,
    TE_LINKS,
)
from karakuri_agent.reading import morphemes
from karakuri_agent.reading.morphemes import Word

# How far after a predicate a negation still turns it: its auxiliaries (れ, なかっ, た) come between.
NEGATION_REACH = 3


def passive(found: Sequence[Word], i: int) -> bool:
    """Whether the verb at `i` was done to someone (食べ+られ+た, 外さ+れ+た): the passive auxiliary, then
    the past; '食べられる？' asks what one can do, it tells nothing done, and a one-row verb's られた with no
    one named doing it (に) is what one could do ('かおつけられた！', '人参食べられた！')."""
    following = found[i + 1:i + 4]
    return bool(following) and following[0].pos == "auxiliary" and following[0].lemma in PASSIVES \
        and any(tells_past(w) for w in following[1:]) and not could_do(found, i)


def could_do(found: Sequence[Word], i: int) -> bool:
    """Whether the one-row verb at ``i`` with られ is its potential ('かおつけられた！'): nobody named doing it
    ('弟に食べられた' is done to one)."""
    after = found[i + 1:i + 2]
    return found[i].conjugation.startswith(ONE_ROWS) and bool(after) and after[0].surface.startswith(RARE) \
        and not any(w.surface == AGENT_MARK and w.pos == "particle" for w in found[:i])


def modifies_a_noun(found: Sequence[Word], i: int) -> bool:
    """The predicate at ``i`` ends a clause that modifies the noun after it (its auxiliaries, and
    adjectives after a verb, between): '駅前にできた新しいカレー屋' is about the カレー屋, 'すすめられた本'
    tells of no trouble; a laugh typed after it is no noun ('消えたｗｗ')."""
    j = i + 1
    while j < len(found) and (found[j].pos in ("auxiliary", "adnominal", "prefix")
                              or (found[j].pos == "adjective" and found[i].pos != "adjective")):
        j += 1  # 'できた小さな店', 'すすめられたお店'
    return j < len(found) and found[j].pos == "noun" and not found[j].spaced \
        and not set(found[j].surface) <= LAUGH_LETTERS


def negated(found: Sequence[Word], i: int) -> bool:
    """Whether a negation follows word `i` within its own phrase (its auxiliaries and particles between);
    an adverbial adjective takes the negation of the verb it leads ('うまく+いって+ない')."""
    word = found[i]
    if word.pos == "adjective" and word.form.startswith(ADVERBIAL_FORM) and i + 1 < len(found) \
            and found[i + 1].pos == "verb" and _negation_after(found, i + 1):
        return True
    if word.pos == "noun":  # 'ミスしなかった', '風邪ひかなかった', '事故に遭わなかった': its verb is negated
        if i + 1 < len(found) and found[i + 1].lemma in AVERTING:
            return True  # '赤点回避', '心配なし': the trouble named is averted
        j = i + 1
        while j < len(found) and found[j].pos == "particle" and found[j].surface in NOUN_TO_VERB:
            j += 1
        if j < len(found) and found[j].pos == "verb" and found[j].lemma in SUPPORT_VERBS and _negation_after(found, j) \
                and not _asked_after(found[j + 1:]):
            return True  # (asked, 'ケガしてない？' asks after the hurt: it turns nothing)
    return _negation_after(found, i)


def _negation_after(found: Sequence[Word], i: int) -> bool:
    for j, word in enumerate(found[i + 1:i + 1 + NEGATION_REACH], start=i + 1):
        if word.pos in ("auxiliary", "adjective") and (word.lemma in NEGATIONS or word.surface in NEGATIONS):
            if found[j - 1].pos == "verb" and found[j - 1].form.startswith(PLAIN_FORMS[0]):
                return False  # '一日が明るうなるねえ': no negation follows a verb's terminal form; 'ねえ' exclaims
            # an adjective's 'ない？' asks to agree ('かわいくない？'); a verb's still turns it ('眠れない？');
            # 'せんといかん', 'しないといけない' oblige, they turn nothing
            return not (found[i].pos in ("adjective", "adjectival") and _rhetorical(found[j + 1:])) \
                and not _obliged(found[j + 1:])
        if word.pos in ("noun", "verb", "symbol") or (word.pos == "particle" and word.surface not in NEGATION_TRANSPARENT):
            return False
    return False


def _obliged(after: Sequence[Word]) -> bool:
    """Whether the words after a negation make it a must ('と+いかん', 'と+いけない', 'きゃ', 'ば+ならない')."""
    return len(after) >= 2 and after[0].surface in OBLIGING_LINKS and after[1].lemma in OBLIGING


def asked_negation(found: Sequence[Word], i: int) -> bool:
    """Whether word ``i`` is negated and the sentence ends there as a question: a request or an offer
    ('エサやってもらえない？', '貸してくれへん？', '眠れない？' asked of the listener), nothing let down."""
    for j in range(i + 1, min(len(found), i + 1 + NEGATION_REACH)):
        if found[j].pos == "auxiliary" and (found[j].lemma in NEGATIONS or found[j].surface in NEGATIONS):
            return _asked_after(found[j + 1:])
    return False


def _asked_after(after: Sequence[Word]) -> bool:
    """Whether the words after a predicate end its sentence as a question ('ケガしてない？', '風邪ひいてない？')."""
    for word in after:
        if word.pos == "symbol":
            return word.surface in QUESTION_MARKS
        if word.pos not in ("auxiliary", "particle", "adjective"):
            return False
    return False


def _rhetorical(after: Sequence[Word]) -> bool:
    """Whether a negation ends the line as a question asking to be agreed with ('かわいくない？', '楽しく
    なかった？'): it says the thing, it does not turn it."""
    rest = [w for w in after if not (w.pos == "particle" and w.surface in AGREEING_TAILS or w.lemma == PAST)]
    return bool(rest) and all(w.pos == "symbol" for w in rest) and any(w.surface in QUESTION_MARKS for w in rest)


def potential(word: Word) -> bool:
    """Whether the verb is in its potential form ('買え', '弾け', '乗れ'): a one-row verb made of a godan one."""
    return word.conjugation.startswith(ONE_ROW) and (
        word.lemma[-1:] in GODAN_ENDINGS or (word.lemma.endswith(RU) and word.surface.startswith(word.lemma[:-1] + POTENTIAL_RU)))


def one_row_could(found: Sequence[Word], i: int) -> bool:
    """Whether a one-row verb takes られる as what one can do ('答え+られ+なかった', '起き+られ+んかった'); a godan
    verb's れる is done to one ('聞か+れ+なかった')."""
    return found[i].conjugation.startswith(ONE_ROWS) and i + 1 < len(found) \
        and found[i + 1].pos == "auxiliary" and found[i + 1].lemma in PASSIVES


def done_to(found: Sequence[Word], i: int) -> bool:
    """Whether the verb at ``i`` is done to one ('怒られたら', '怒られると'): a passive whatever its tense, which a
    one-row verb's られる is only as phrase.passive reads it (食べられる is what one can eat)."""
    after = found[i + 1] if i + 1 < len(found) else None
    if found[i].pos != "verb" or after is None or after.pos != "auxiliary" or after.lemma not in PASSIVES:
        return False
    return not found[i].conjugation.startswith(ONE_ROWS) or passive(found, i)


def helper(found: Sequence[Word], i: int) -> bool:
    """Whether word `i` only helps the word before it (食べて+しまう, 行って+みる, 書き+始める): a bound
    word after a verb or its て; bound after a noun it is the predicate itself (パン屋が+できた)."""
    word = found[i]
    if i == 0:
        return False
    before = found[i - 1]
    if word.pos == "verb" and before.pos == "verb" and EUPHONIC in before.form:
        return True  # '置い+でき+ちまった' is 置いてきた in a dialect's voice: a sound-changed stem takes only て or た
    if not word.bound:
        return False
    return before.pos in ("verb", "auxiliary") or (before.pos == "particle" and before.surface in TE_LINKS)


def tells_past(word: Word) -> bool:
    """Whether the word marks the past: the auxiliary た, or Kansai's past told ('パクられ+てん')."""
    return word.pos == "auxiliary" and word.lemma == PAST or word.surface in PAST_TOLD


def said_as_done(phrase: str) -> str:
    """An action's name in the past ('厚切りトーストを食べる' → '厚切りトーストを食べた', '干物を買う' →
    '干物を買った'), by how its last verb conjugates; '' when it does not end in a verb's plain form."""
    from karakuri_agent.reading.morphemes import (
        words,  # the analyzer: only for a day's action said
    )

    found = words(phrase)
    if not found or found[-1].pos != "verb" or not phrase.endswith(found[-1].surface):
        return ""
    verb = found[-1]
    if verb.surface.endswith(GOING_PAST[0]):
        return phrase[: -len(GOING_PAST[0])] + GOING_PAST[1]
    for kind, ending, past in PAST_BY_CONJUGATION:
        if verb.conjugation.startswith(kind) and phrase.endswith(ending):
            return phrase[: -len(ending)] + past
    return ""


def says_not(text: str) -> bool:
    """Whether a sentence ends on a negation ('料理はあんまりしないんだ', '作ったことないなあ', '得意じゃないかな'),
    so a yes/no answered by it is a no; 'おにぎりくらいなら作るよ' is a yes. Read from its end: the first
    negation or predicate met decides."""
    for word in reversed(morphemes.words(text)):
        if word.lemma in NEGATIONS and word.pos in ("auxiliary", "adjective") or word.lemma in NEGATIVE_ADVERBS:
            return True  # 'スポーツは見るのもするのもあんまり…': the negation left unsaid
        if word.pos in ("verb", "adjective", "adjectival", "noun"):
            return False
    return False


def predicate_of(text: str) -> str:
    """The lemma a sentence ends on, its particles, auxiliaries and helping verbs aside ('運転免許もってる？' → 持つ,
    '寒いのは平気だべか' → 平気), a run of nouns whole ('今日お誕生日じゃありませんでしたっけ' → 誕生日); ''."""
    found = morphemes.words(text)
    at = next((i for i in range(len(found) - 1, -1, -1)
               if found[i].pos in ("verb", "adjective", "adjectival", "noun") and not helper(found, i)), None)
    if at is None:
        return ""
    start = at
    while found[at].pos == "noun" and start and found[start - 1].pos == "noun":
        start -= 1
    return "".join(w.lemma for w in found[start:at + 1])
