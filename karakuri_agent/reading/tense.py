"""When a told thing is: ahead, done, settled, or only quoted; pure, by the analyzer's words.

A past that says which thing ('駅前にできたカレー屋') is not what was done; a past that says a thing
ahead was decided ('来月、結婚することになりました') keeps it ahead, and settled.
"""

from __future__ import annotations

from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.word_classes import PAST, QUOTING, TIMES_OF_A_KIND
from karakuri_agent.reading import lexicon, morphemes
from karakuri_agent.reading.phrase import modifies_a_noun

__all__ = ["ahead", "past", "quoted_end", "settled"]


def ahead(text: str) -> bool:
    """A plan: a time ahead with no past tense, or words of intention."""
    if listening_cues.INTENT.search(text):
        return True
    found = morphemes.words(text)
    times = [i for i, w in enumerate(found) if w.surface in listening_cues.AHEAD or w.lemma in listening_cues.AHEAD]
    if not times:  # 'こんど' is 今度
        return False
    if all(_until(found, i) for i in times) and any(w.lemma in listening_cues.ONGOING for w in found):
        return False  # '午後まで電車が止まってる': a state until a time ahead, going on now
    # '駅前にできたカレー屋、行ってみる': a past that says which thing is not what was done
    return not any(_past_at(found, i) and not _decided(found, i) and not modifies_a_noun(found, i)
                   for i in range(len(found)))


def _until(found: tuple[morphemes.Word, ...], i: int) -> bool:
    return i + 1 < len(found) and found[i + 1].surface == listening_cues.UNTIL


def _past_at(found: tuple[morphemes.Word, ...], i: int) -> bool:
    return found[i].pos == "auxiliary" and found[i].lemma == PAST


def _decided(found: tuple[morphemes.Word, ...], i: int) -> bool:
    """The past at ``i`` only says a thing ahead was decided: 'になりました', '決まった', '決定した'."""
    j = i - 1
    while j >= 0 and found[j].pos == "auxiliary":  # 'なりました': back over ます to the verb
        j -= 1
    if j < 0:
        return False
    verb = found[j]
    return verb.lemma in listening_cues.DECIDED or (verb.lemma == listening_cues.DOING and j > 0 and found[j - 1].lemma in listening_cues.DECIDED)


def settled(text: str) -> bool:
    """A thing ahead told as settled: decided ('昇進決まった！来月から主任', '結婚することになりまして') or a
    milestone of its own ('来月結婚するんだ', '夏に生まれる予定'), not one only attended ('結婚式に行く')."""
    found = morphemes.words(text)
    milestones = lexicon.concepts()["milestone"].lemmas
    for i, word in enumerate(found):
        after = found[i + 1:i + 3]
        if word.lemma in listening_cues.DECIDED and word.lemma != listening_cues.BECOME:
            return True
        if word.lemma == listening_cues.MATTER and [w.lemma for w in after] == [listening_cues.TO, listening_cues.BECOME]:
            return True  # 'ことになった', 'ことになりまして'
        if word.lemma in milestones and (word.pos == "verb" or after[:1] and after[0].lemma in listening_cues.DOING_VERBS):
            return True
    return False


def past(text: str) -> bool:
    found = morphemes.words(text)
    return any(_past_at(found, i) for i in range(len(found)))


def quoted_end(sentence: str) -> bool:
    """The sentence ends in the quoting 'って' ('切ろうかなって', '本当だって'), not a request's 'て' ('言って')."""
    found = [w for w in morphemes.words(sentence) if w.pos != "symbol"]
    while found and found[-1].pos == "particle" and found[-1].surface in listening_cues.SOFTENING_ENDS:
        found.pop()
    return bool(found) and found[-1].lemma in QUOTING


def of_a_kind(text: str) -> bool:
    """Whether a time the line names is a time of a kind, said by the clause before it ('眠れない夜は',
    '寒い日って', '落ち込んだ時は'): what one does then is a habit asked, no plan for tonight or that day."""
    found = morphemes.words(text)
    return any(w.pos == "noun" and w.lemma in TIMES_OF_A_KIND and i and found[i - 1].pos in ("verb", "adjective", "auxiliary")
               for i, w in enumerate(found))
