"""The told thing said back as a clause that takes 'んだ' ('市民マラソンに出る', 'パン屋ができた'), or as its noun.

Read by reading/hearing.py from the analyzer's words; the voice says it back ('へえ、パン屋ができたんだ！'),
so it is only ever the line's own main predicate, short, and never a run of the line repeated whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.word_classes import (
    ADVERBIAL, BECOMING, COPULA, COPULA_ENDINGS, COPULA_PAST, COPULA_VERBS, FORMAL_NOUNS, KANSAI_COPULA, NEGATIONS,
    PAST, PLAIN_SPELLING, POLITE_COPULA, THOUGHT_ENDS, VOLITIONAL_FORM,
)
from karakuri_agent.reading import morphemes
from karakuri_agent.reading.phrase import helper

__all__ = ["ECHO_WINDOW", "echoes", "noun_said", "said_back"]

# A clause said back stays short: it names the thing, it does not repeat the line.
_CLAUSE_CHARS = 12
# No run of this many characters of the partner's line is said back (the line is data, not a script).
ECHO_WINDOW = 8

def echoes(said: str, text: str) -> bool:
    """Whether ``said`` repeats ECHO_WINDOW characters of ``text`` in a row."""
    return any(text[i:i + ECHO_WINDOW] in said for i in range(len(text) - ECHO_WINDOW + 1))

def _said_on(found: Sequence[morphemes.Word], stop: int) -> bool:
    """Whether the sentence goes on past ``stop`` to a predicate of its own: the clause before it is not
    what the sentence says happened ('長年通うとった床屋が、今月で店じまい…', 'ケーキ、運ぶとき落として…')."""
    for k in range(stop, len(found)):
        word = found[k]
        if word.surface and all(c in THOUGHT_ENDS for c in word.surface):
            return False
        # 'することになった', '歩けるようになった': the clause's own verb made an event, no predicate of its own
        formal = k > 1 and found[k - 1].surface == listening_cues.ADVERB_PARTICLE and found[k - 2].lemma in FORMAL_NOUNS and word.lemma in BECOMING
        if word.pos in ("verb", "adjective") and not helper(found, k) and word.lemma not in COPULA_VERBS \
                and not formal:
            return True
    return False


def noun_said(text: str, topic: str) -> str:
    """The noun a sentence ends on, as what it says is: the noun phrase holding the topic right before the
    copula, with nothing after it but auxiliaries and closing particles ('さっきな、公民館で将棋指してきてん。
    三連敗や' → '三連敗な', 'きょうの給食、カレーだった' → 'カレーだった', '今日、ゴミの日だよ' → 'ゴミの日な'),
    ready to take 'んだ'; '' when the noun is not the predicate ('でかか鯛ば見たとよ' says what was seen) or is
    denied ('カレーじゃなかった')."""
    if not topic:
        return ""
    found = list(morphemes.words(text))
    while found and found[-1].pos in ("symbol", "blank", "other"):
        found.pop()  # '！', '😊'
    nouns = [i for i, w in enumerate(found) if w.pos in ("noun", "suffix")]
    copula = nouns[-1] + 1 if nouns and nouns[-1] + 1 < len(found) else None  # right after the last noun
    if copula is not None and not ((found[copula].lemma in (COPULA, POLITE_COPULA)
                                    and found[copula].surface in COPULA_ENDINGS)  # never an adverb's 'ふつうに'
                                   or (found[copula].surface == KANSAI_COPULA and copula == len(found) - 1)):
        copula = None  # '三連敗や', '三連敗なんだよね'
    if copula is None or any(w.pos not in ("auxiliary", "particle") or w.lemma in NEGATIONS for w in found[copula:]) \
            or (found[copula].surface == listening_cues.NOUN_LINK and copula == len(found) - 1):
        return ""  # denied, or a closing 'な' no sentence ends on as its copula ('脈なし化な' is a typed 'かな')
    start = copula  # the noun phrase before it, 'の' joining nouns
    while start > 0 and (found[start - 1].pos in ("noun", "suffix", "prefix")
                         or (found[start - 1].surface == listening_cues.OF and start > 1 and found[start - 2].pos == "noun")):
        start -= 1
    while start < copula - 1 and (found[start].surface == listening_cues.OF or ADVERBIAL in found[start].detail):
        start += 1  # never a time it happened at ('今日ゴミの日'), nor a dangling 'の'
    said = "".join(w.surface for w in found[start:copula])
    if topic not in said or len(said) > _CLAUSE_CHARS or echoes(said, text[:-1]):
        return ""
    return said + (COPULA_PAST if any(w.lemma == PAST for w in found[copula:]) else listening_cues.NOUN_LINK)


def said_back(text: str, topic: str, phrase: bool) -> str:
    """The told thing said back to take 'んだ': the topic with its particle and verb
    ('市民マラソンに出る', 'パン屋ができた'), else the noun with な ('面接な')."""
    if not topic:
        return ""
    if phrase:  # said back whole when it ends as a clause does ('雨が降った'), never mid-way ('楽しく')
        words = morphemes.words(topic)
        ends = bool(words) and (not words[-1].form or words[-1].form.startswith(listening_cues.ENDING_FORMS))
        return topic if ends and topic[-1] in listening_cues.PLAIN_ENDINGS and not echoes(topic, text) else ""
    found = morphemes.words(text)
    surfaces = [w.surface for w in found]
    end = next((i for i in range(len(found)) if "".join(surfaces[:i + 1]).endswith(topic)), None)
    fallback = topic + listening_cues.NOUN_LINK
    start = end - len(morphemes.words(topic)) if end is not None else -1
    paused = end is not None and end + 1 < len(found) and found[end + 1].surface == listening_cues.PAUSE
    if end is None or (len(topic) == 1 and start >= 0 and not paused and (
            found[start].pos in listening_cues.MODIFYING or found[start].surface == listening_cues.NOUN_LINK)):
        # 'そっくりな子見かけた': one letter of a longer thing; said back, it would be half ('探してた猫、
        # 見つかった' names it as what it is about)
        return fallback
    out, verb, last, stop, intended = topic, False, None, len(found), False
    for at, word in enumerate(found[end + 1:], end + 1):
        stop = at
        if out == topic and word.surface == listening_cues.PAUSE:
            out += word.surface  # '猫、見つかった': the pause after what it is about
            continue
        if word.spaced or word.lemma in listening_cues.CLAUSE_STOPS or word.surface in listening_cues.CLAUSE_STOPS:
            break
        if word.pos == "particle" and word.surface in listening_cues.CLAUSE_PARTICLES and not verb:
            out += word.surface
        elif word.pos == "verb" and word.form.startswith(VOLITIONAL_FORM):
            out += PLAIN_SPELLING.get(word.lemma, word.lemma)  # '切ろうと思ってる' plans to 切る
            verb, last, intended = True, replace(word, form=listening_cues.ENDING_FORMS[0]), True
            break
        elif word.pos == "adverb" and not verb and len(word.surface) > 2:
            out += word.surface  # '髪ばっさり切る' (not a kana misread: 'ごう' of 'ごうかく')
        elif word.pos in ("verb", "adjective", "auxiliary") or (word.pos == "particle" and verb
                                                               and word.surface in listening_cues.JOINING):
            out += word.surface
            verb, last = True, word
        else:
            break
    else:
        stop = len(found)
    if verb and not intended and _said_on(found, stop):
        return fallback  # '運ぶとき落としてぐちゃぐちゃなってもうた': not what happened, only when
    ended = False
    for te, past in listening_cues.TE_TO_PAST.items():
        # 'て' that goes on ('出かけて' → '出かけた'); never a closing 'で' after the past ('上がったで')
        if verb and out.endswith(te) and not out[: -len(te)].endswith(PAST):
            out, ended = out[: -len(te)] + past, True
            break
    # A clause takes 'んだ' in a form that ends one ('出る', 'できた'), never one that goes on ('しまい').
    ended = ended or (last is not None and last.form.startswith(listening_cues.ENDING_FORMS))
    fits = verb and ended and out[-1] in listening_cues.PLAIN_ENDINGS and len(out) <= _CLAUSE_CHARS \
        and not echoes(out, text)
    return out if fits else fallback
