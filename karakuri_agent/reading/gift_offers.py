"""Whether a line offers the agent a thing to take: pure, by the analyzer's words and their forms.

A thing is given by telling the one given it to take it, in every register:
'これ使い。', 'このマフラー巻いて行きなさい', 'お使いくださいませ', 'いぶりがっこ。持ってってけろ',
'よかったら食べてくださぁい'; or by asking whether they want it: 'チケット一枚余ってるんだけど、いる？'.
The verb says it is a thing taken (ja/listening_cues.TAKING: used, eaten, worn, taken along), and
its form that it is asked of the listener (an imperative, a bare stem, a て-request). Holding a
thing without taking it along is a favour asked ('この荷物持って'), not an offer; a request of
another verb ('これ見て', '手伝って') neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.listening_cues import PAUSE, QUESTION_MARKS
from karakuri_agent.ja.sentences import TRAILING_MARKS, is_asking, split_sentences
from karakuri_agent.ja.word_classes import (
    ADVERBIAL_FORM, HUMBLE_DOING, HUMBLE_ENDS, HUMBLE_GIVING, HUMBLE_PREFIX, HUMBLY_GIVEN, IMPERATIVE_FORM, PAST,
    PLACE_ENDINGS, PLAIN_FORMS, TE_LINKS, VOLITIONAL_FORM,
)
from karakuri_agent.reading import lexicon, morphemes
from karakuri_agent.reading.morphemes import Word

__all__ = ["offers_a_thing"]


def offers_a_thing(text: str, own_names: tuple[str, ...] = ()) -> bool:
    """Whether ``text`` gives the one it is said to a thing to take, asks whether they want one, or says
    it will bring them one ('お礼に、あとで漬物持ってぐがら待ってでけろ', 'ニケちゃん家に大根持っていくよ')."""
    if _brought(text, own_names) or _humbly_given(morphemes.words(text)):
        return True
    # handed over: pointed at or counted anywhere in the line ('ほれ、いぶりがっこ。持ってってけろ'), or 'よかったら'
    handed = listening_cues.IF_YOU_LIKE.search(text) is not None \
        or any(w.lemma in listening_cues.GIFT_POINTERS or w.pos == "numeral" for w in morphemes.words(text))
    asked_before = False
    for sentence in split_sentences(text):
        found = _words(sentence)
        if found and is_asking(sentence) and not asked_before and (_wanted_asked(found) or handed and _take_asked(found)):
            return True  # not after another question: '明日って雨降るのかな？傘いる？' asks whether it is needed
        asked_before = asked_before or is_asking(sentence)
        # each clause of it: '俺の使いなよ、折りたたみもう一本あるし'
        if any(_told_to_take(clause, handed) for clause in (_words(c) for c in sentence.split(PAUSE)) if clause):
            return True
    return False


def _humbly_given(found: Sequence[Word]) -> bool:
    """A thing given said humbly, which only ever gives to the one spoken to: 'お分けいたしますよ', 'お貸ししましょうか',
    'これ、差し上げます' (only its endings follow: not 'お分けできません', 'お渡しした資料' (given before), 'お貸しする
    って言った本' (quoted), 'どちらにお届けすれば' (supposed))."""
    for i, w in enumerate(found):
        humble = w.pos == "prefix" and w.lemma == HUMBLE_PREFIX and i + 2 < len(found) \
            and found[i + 1].lemma in HUMBLY_GIVEN and found[i + 2].lemma in HUMBLE_DOING
        end = i + 2 if humble else i if w.lemma == HUMBLE_GIVING else -1
        rest = [after for after in found[end + 1:] if after.pos != "symbol"]
        if end >= 0 and all(after.lemma in HUMBLE_ENDS or after.surface in HUMBLE_ENDS for after in rest[:3]):
            return True
    return False


def _words(sentence: str) -> list[Word]:
    """The sentence's words without marks, drawn-out vowels or the particles that only soften its end."""
    # read without its closing marks: before '。' the analyzer cuts a Kansai stem ('一個食べ。' as 食+べ)
    found = [w for w in morphemes.words(sentence.rstrip(TRAILING_MARKS + QUESTION_MARKS))
             if w.pos not in ("symbol", "space", "whitespace")]
    while found and found[-1].pos == "particle" and found[-1].lemma in listening_cues.SOFT_ENDS:
        found.pop()
    return found


def _told_to_take(found: list[Word], handed: bool) -> bool:
    """'これ食べ', '持ってってけろ', 'お使いくださいませ': a verb of taking, then only a request's words."""
    head = next((i for i in range(len(found) - 1, -1, -1) if found[i].lemma in listening_cues.TAKING
                 or (found[i].lemma in listening_cues.DOING_VERBS and i and found[i - 1].lemma in listening_cues.TAKING)), None)
    if head is None or head and found[head - 1].surface in TE_LINKS:
        return False  # '聞いてもらえて': a helper verb after て, nothing taken
    tail = found[head + 1:]
    if any(w.lemma not in listening_cues.REQUEST_TAIL for w in tail):
        return False
    carried = any(w.lemma in listening_cues.TAKEN_ALONG for w in tail)
    if found[head].lemma in listening_cues.TAKEN_ONLY_ALONG and not carried:
        return False  # 'この荷物持って': held for them, not taken
    last = (tail or [found[head]])[-1]
    # Kansai's bare stem: 'これ食べ', '持っていき', '持って帰り' (a noun to the analyzer)
    stem = last.form.startswith(ADVERBIAL_FORM) and (not tail or last.lemma in listening_cues.TAKEN_ALONG) \
        or not last.form and (last.lemma in listening_cues.TAKEN_ALONG or not tail)  # 'このマフラー使い': a noun to it
    asked = last.form.startswith(IMPERATIVE_FORM) or last.surface in listening_cues.TE_REQUEST or stem
    # handed over (pointed at, counted, 'よかったら') or taken along; not 'ちゃんと食べてね': advice
    return (handed or carried) and (asked or carried and last.surface in listening_cues.ASKING_END)  # '持っていくか'


def _wanted_asked(found: list[Word]) -> bool:
    """'チケット余ってるんだけど、いる？', 'おにぎりいる？': whether they want a thing, asked after it is named
    (never 'うちにいる？', where one is)."""
    if found and found[-1].lemma == listening_cues.POLITE_TAIL:  # 'いります'
        found = found[:-2] + [replace(found[-2], surface=found[-2].surface + found[-1].surface)] if len(found) > 1 else found
    if len(found) < 2 or found[-1].surface not in listening_cues.WANT_ASKED:
        return False
    before = found[-2]
    something = before.surface == listening_cues.INDEFINITE_TAIL and len(found) > 2 and found[-3].lemma == listening_cues.WHAT
    return before.pos == "noun" and _a_thing(before) or before.lemma in listening_cues.WANT_AFTER or something


def _take_asked(found: list[Word]) -> bool:
    """'これ、たこ焼き焼きすぎてもうてん。食べる？', '一個食べる？': a thing handed over, asked whether they will
    take it: a short question ending in a verb of taking in its plain form."""
    last = found[-1]
    return len(found) <= 3 and last.lemma in listening_cues.TAKING and last.form.startswith(PLAIN_FORMS)


def _a_thing(noun: Word) -> bool:
    """A thing one may want, not someone one has ('きょうだいいる？') nor where one is ('この辺いる？')."""
    return not lexicon.named_in(noun.lemma) & listening_cues.SOMEONE and noun.lemma not in listening_cues.WHEREABOUTS \
        and not noun.surface.endswith(PLACE_ENDINGS)


def _brought(text: str, own_names: tuple[str, ...]) -> bool:
    """A thing carried to the listener (持って + 行く / 来る, not asked of them), for them: they are named,
    thanked ('お礼に') or told to wait for it."""
    found = morphemes.words(text)
    for i, word in enumerate(found[:-2]):
        going, last = found[i + 2], found[i + 2]
        for helper in found[i + 3:]:  # its helpers: 'きちゃる', 'いきます'
            if helper.pos != "auxiliary":
                break
            last = helper
        # said as what one will do ('持っていく', '持ってこう'), not asked ('持ってきてもらえる？', '持ってきて')
        told = not last.form or last.form.startswith((*PLAIN_FORMS, VOLITIONAL_FORM))
        if word.lemma in listening_cues.TAKEN_ONLY_ALONG and found[i + 1].surface in TE_LINKS \
                and going.lemma in listening_cues.BRINGING and told \
                and not any(w.lemma in listening_cues.ASKED_FOR for w in found[i + 3:]):
            return any(n and n in text for n in own_names) \
                or any(w.lemma in listening_cues.FOR_THEM for w in found)
    return False
