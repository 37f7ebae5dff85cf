"""Whether a line calls something off or changes it, read word by word: the letters of a calling off
('なし', 'なくなっ', '行けなく') only count where the analyzer reads them as one."""

from __future__ import annotations

from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.word_classes import TE_LINKS
from karakuri_agent.reading import morphemes

__all__ = ["retracts"]


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
