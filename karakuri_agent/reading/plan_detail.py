"""The detail of a plan a line gives or corrects, as it wrote it: a day, a time of day, a clock time, or one of
the options the talk weighed (concepts.json `plan_details`).

'いや8時半だった' after '明日の集合、公民館前な' / '9時', 'あやっぱにちようで', '北で' after '駅の北口と南口、
どっちで待つ？': a line that only says which is read against the talk (voice/from_the_talk.py notes it).
The words are found as written; the analyzer only says whether the rest of the line says more than which.
"""

from __future__ import annotations

import functools

from karakuri_agent.ja.listening_cues import PAUSE
from karakuri_agent.ja.promise_words import CLOCK_JI
from karakuri_agent.ja.word_classes import APOLOGISING, DETAIL_PREDICATES
from karakuri_agent.reading import morphemes
from karakuri_agent.reading.lexicon import section
from karakuri_agent.reading.normalised import unspaced
from karakuri_agent.reading.phrase import helper, negated

__all__ = ["detail_named", "only_which", "option_named"]


@functools.lru_cache(maxsize=1)
def _words() -> dict[str, tuple[str, ...]]:
    return section("plan_details")


@functools.lru_cache(maxsize=1)
def _naming() -> tuple[str, ...]:
    """The day and time words, longest first ('あさって' before 'あさ')."""
    words = _words()
    return tuple(sorted({*words["days"], *words["times"]}, key=len, reverse=True))


def detail_named(text: str) -> str:
    """The day or time ``text`` names, as written ('いや8時半だった' → '8時半', 'すみません、来週の日曜でした' →
    '来週の日曜', '昼からでもいい' → '昼から'); '' when it names none."""
    text = unspaced(text)
    spans = [(m.start(), m.end()) for m in CLOCK_JI.finditer(text)]
    for word in _naming():
        start = text.find(word)
        while start >= 0:
            if not any(a <= start < b for a, b in spans):  # 'あさ' inside 'あさって' is no morning
                spans.append((start, start + len(word)))
            start = text.find(word, start + 1)
    if not spans:
        return ""
    spans.sort()
    merged = [list(spans[0])]
    for start, end in spans[1:]:
        if start <= merged[-1][1] or text[merged[-1][1]:start] in _words()["joins"]:  # '来週の日曜', '第三土曜'
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    start, end = max(reversed(merged), key=lambda span: span[1] - span[0])  # a correction names the right one last
    after = next((w for w in _words()["after"] if text.startswith(w, end)), "")  # '昼から'
    return text[start:end + len(after)]


def option_named(text: str, options: tuple[str, ...]) -> str:
    """Which of the talk's ``options`` ``text`` names: one written whole, one it starts ('北で' of ('北口', '南口')),
    or the first or second pointed at ('やっぱ後のほうかなあ'); '' for none, or more than one."""
    text = unspaced(text)
    whole = [o for o in options if o and o in text]
    if len(whole) == 1:
        return whole[0]
    if len(options) >= 2:
        if any(w in text for w in _words()["first"]):
            return options[0]
        if any(w in text for w in _words()["second"]):
            return options[-1]
    started = [o for o in options if o and o[0] in text[:len(o)] and not any(p != o and p[0] == o[0] for p in options)]
    return started[0] if len(started) == 1 and len(text) <= len(started[0]) + 2 else ""


def only_which(text: str, detail: str) -> bool:
    """Whether ``text`` says nothing but which ``detail``: no predicate of its own besides agreeing one
    ('でいい', 'でよくない？', 'にしてもええ？', 'いける？'), and none negated ('6時は早すぎた', 'やっぱり
    あした いけない' tell more)."""
    rest = unspaced(text).replace(detail, PAUSE, 1)  # the detail out, its words kept apart
    found = morphemes.words(rest)
    return all(w.lemma in APOLOGISING or w.lemma in DETAIL_PREDICATES and not (w.pos == "verb" and negated(found, i))
               for i, w in enumerate(found) if w.pos in ("verb", "adjective") and not helper(found, i))
