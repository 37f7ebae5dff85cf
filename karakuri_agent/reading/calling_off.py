"""Whether a line calls something off or changes it, read word by word: the letters of a calling off
('なし', 'なくなっ', '行けなく') only count where the analyzer reads them as one."""

from __future__ import annotations

from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.word_classes import BECOMING, COPULA_VERBS, MISTAKEN, REASON_LINKS, TE_LINKS
from karakuri_agent.reading import morphemes
from karakuri_agent.reading.phrase import helper
from karakuri_agent.reading.sentiment import feel

__all__ = ["let_go_for_a_reason", "retracts"]


def retracts(text: str) -> bool:
    """Whether the line says something is called off or changed; quitting told as done ('仕事やめたわ') is
    news of one's life, unless it takes something back ('やっぱりやめた') or what was said before
    ('引っ越すって言ったじゃん？あれやめた')."""
    found = [m for m in listening_cues.RETRACT.finditer(text) if _calls_off(text, m.start())]
    return any(not listening_cues.QUIT_DONE.match(text, m.start()) for m in found) \
        or (bool(found) and (listening_cues.TAKING_BACK.search(text) or listening_cues.SAID_BEFORE.search(text)) is not None)


def _calls_off(text: str, at: int) -> bool:
    """Whether the words at ``at`` call something off, as the analyzer reads them: not '話' ('はなしになって'),
    not 'without' ('字幕なしで洋画'), not a thing that stopped ('うごかなくなった'), not a reason given
    ('見に行けなくて', '行けなくてごめん')."""
    words = morphemes.words(text)
    i = next((j for j, (start, end) in enumerate(morphemes.word_spans(words, text)) if start <= at < end), None)
    if i is None:
        return True
    word, after = words[i], words[i + 1:i + 3]
    if word.lemma in listening_cues.NOT_CALLING_OFF:
        return False
    if word.lemma == listening_cues.NONE_LEMMA and len(after) == 2 and after[0].surface == listening_cues.BY_MEANS \
            and after[1].pos in ("noun", "verb") and after[1].lemma not in listening_cues.DOING_VERBS | {listening_cues.BECOME}:
        return False
    if word.pos == "auxiliary" and i and words[i - 1].pos == "verb" and words[i - 1].lemma not in listening_cues.PLAN_VERBS:
        return False
    return not (word.pos == "verb" and [w.pos for w in after] == ["auxiliary", "particle"] and after[1].surface in TE_LINKS)


def let_go_for_a_reason(text: str, apologised: bool) -> bool:
    """Whether a line takes back what was said to the agent before (やっぱ, って言ったべ, an apology) and says why
    ('…あれ、親戚来るがらダメになった'): met by letting it go, not by the plan said back; not a plan changed
    ('やっぱ九時にすっぺ'), one only mused ('やっぱやめよっかな'), nor a line sent by mistake ('今のなし！間違えて
    送信しちゃいました'); their own letdown ('プロジェクト、まさかの中止。…全部パー') takes nothing back."""
    return gives_a_reason(text) and not listening_cues.CHANGE_TO.search(text) \
        and not any(m in text for m in (*MISTAKEN, *listening_cues.MUSING)) \
        and (apologised or bool(listening_cues.TAKING_BACK.search(text) or listening_cues.SAID_BEFORE.search(text)))


def gives_a_reason(text: str) -> bool:
    """Whether a line that takes something back says why: a reason's link after a predicate ('親戚来るがら',
    '財布忘れたけん', '足りそうなので'; not '明日から', which says when), or a trouble told after it."""
    called = listening_cues.RETRACT.search(text)
    found = morphemes.words(text[:called.start()] if called else text)  # the reason comes before what it calls off ('…けん無理になった';
    # 'あれナシになったけん。大家さんと話ついた' tells what came of it)
    linked = any((w.surface in REASON_LINKS or "".join(x.surface for x in found[i:i + 2]) in REASON_LINKS)  # の+で
                 and i and found[i - 1].pos in ("verb", "adjective", "auxiliary")
                 for i, w in enumerate(found))
    # a trouble told after it ('…無理になった。しごとおわらん'; not 'あれやめた。ここに残るわ', glad news)
    rest = text[called.end():] if called else ""
    after = morphemes.words(rest)
    told = any(w.pos == "verb" and w.lemma not in (*BECOMING, *COPULA_VERBS, listening_cues.DOING) and not helper(after, i)
               for i, w in enumerate(after))  # (not the calling off's own ending: '無理に+なった', 'キャンセル+し+ます')
    return linked or (told and feel(rest).polarity < 0)
