"""Whether a line invites the one spoken to along, in any of the ways it is said.

"Let's" in the volitional form (`reading/volition.says_lets`: 'おにごっこしよ！'),
the phrases of coming and going together (ja/listening_cues: '一緒に行こう',
'食べにおいでや'), and an activity asked in the negative: '今から商店街ぶらつかへん？',
'週末、海まで行かん？', '釣りにでも行かんか。', 'お茶しない？', '食べていかない？' ask the
partner along in every region's negation (ない, ん, へん), read by the verb's
lemma and the negation right after it, the question ending there (concepts.json
`asked_along`: the activities, the negations, the closing particles). A verb
of knowing or having is no activity ('あの本知らない？' only asks), nor is a
negation that goes on ('行かないの？' asks of their plan, '来ないんだ' tells).
"""

from __future__ import annotations

import functools

from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.listening_cues import QUESTION_MARKS
from karakuri_agent.ja.sentences import split_sentences
from karakuri_agent.ja.word_classes import IRREALIS
from karakuri_agent.reading import lexicon, morphemes
from karakuri_agent.reading.volition import says_lets

__all__ = ["asks_along", "invites"]


@functools.lru_cache(maxsize=1)
def _along() -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    words = lexicon.section("asked_along")
    return (morphemes.lemma_set(words["activities"]), frozenset(words["negative"]), frozenset(words["closing"]),
            frozenset(words["asking"]))


def asks_along(sentence: str) -> bool:
    """Whether the sentence asks the partner along by asking an activity in the negative, the question
    ending right after the negation (but for a closing particle: 'か', 'ね')."""
    activities, negative, closing, asking = _along()
    marked = any(mark in sentence for mark in QUESTION_MARKS)
    found = [w for w in morphemes.words(listening_cues.DRAWN_OUT.sub("", sentence)) if w.pos != "symbol"]
    for i, word in enumerate(found[:-1]):
        after, rest = found[i + 1], found[i + 2:]
        # the negation follows the verb's irrealis ('行か' + ん); after its plain form ん explains ('するん？')
        if word.pos == "verb" and word.lemma in activities and word.form.startswith(IRREALIS) \
                and after.pos == "auxiliary" and after.lemma in negative \
                and all(w.pos == "particle" and w.surface in closing for w in rest) \
                and (marked or any(w.surface in asking for w in rest)):
            return True
    return False


def invites(text: str) -> bool:
    """An invitation said ('一緒に行こう', '食べにおいでや', 'おにごっこしよ！', '商店街ぶらつかへん？')."""
    return bool(listening_cues.INVITE_SAID.search(text) or listening_cues.INVITE_COME.search(text)) \
        or says_lets(text) or any(asks_along(sentence) for sentence in split_sentences(text))
