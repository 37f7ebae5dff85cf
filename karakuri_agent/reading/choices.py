"""Which of some options a partner asks the agent to pick, and the options a line weighs.

An either-or comes in many shapes: 'コーヒーと紅茶、どっちが好き？' (the question
reader's own), '朝型？夜型？' and '犬派？猫派？ which one?' (two short asking
sentences), '朝はご飯かい、パンかい？' (options listed with 'か'), and 'たこ焼きと
お好み焼き、どっち取る？真剣に答えてや' (a request after it). A line that only
weighs them ('ピンクか、アッシュか…') names the options a later 'どっちが似合うと
思う？' asks of (voice/answering.py looks back through the talk for them).
"""

from __future__ import annotations

import os
import re

from karakuri_agent.domain.understanding import Question
from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.question_words import AND, OR
from karakuri_agent.ja.sentences import QUESTION_WORD
from karakuri_agent.ja.word_classes import CHOOSING, CHOSEN_AS, OPTION_PARTICLES
from karakuri_agent.reading import lexicon, morphemes
from karakuri_agent.reading.question_kinds import read_question


def asked(asking: list[str], last: str, own_names: tuple[str, ...], other_names: tuple[str, ...],
          told: str = "") -> Question | None:
    """The either-or among a line's asking sentences (`last`: its last sentence), None when it asks none;
    a 'which' that names no options takes the pair the line weighs before it (`told`: '沖縄と北海道で
    迷ってる〜 ニケちゃんならどっち？').

    The question reader's own choice in the last sentence is left to it (it reads the rest of the
    question too); here are the shapes it does not see."""
    sides = side_options(asking)
    if sides:
        return Question("choice", "".join(asking[-len(sides):]), sides)
    own = read_question(asking[-1], own_names=own_names, other_names=other_names) if asking else None
    if asking and listening_cues.WHICH.search(asking[-1]) and not (own is not None and own.options):
        weighed = which_pair(told + "".join(asking))
        if weighed:
            return Question("choice", asking[-1], weighed)
    for at, sentence in reversed(list(enumerate(asking))):
        chosen = own if at == len(asking) - 1 else read_question(sentence, own_names=own_names, other_names=other_names)
        if chosen is not None and chosen.kind == "choice":
            return chosen if sentence != last else None  # the last sentence's own choice: the reader's to read whole
        listed = tuple(o for o in listed_options(sentence) if not QUESTION_WORD.search(o))
        if len(listed) >= 2:
            return Question("choice", sentence, listed)
    return None


def listed_options(text: str) -> tuple[str, ...]:
    """The options a line weighs ('ピンクか、アッシュか…' → ('ピンク', 'アッシュ'), '夕方にするか朝にするか
    迷ってて' → ('夕方', '朝')); () when it names fewer than two."""
    found = morphemes.words(text)
    options: list[str] = []
    for i, word in enumerate(found):
        if i == 0 or word.pos != "particle" or word.surface not in OPTION_PARTICLES:
            continue
        j = i - 1
        if found[j].surface == CHOOSING and j >= 2 and found[j - 1].surface == CHOSEN_AS:
            j -= 2
        if found[j].pos == "noun" and found[j].surface not in options:
            options.append(found[j].surface)
    return tuple(options) if len(options) >= 2 else ()


def names_its_own(text: str, asking: list[str], own: tuple[str, ...], others: tuple[str, ...]) -> bool:
    """Whether a line asking 'which' names its options itself ('紅茶とコーヒー、どっちがいいと思う？')."""
    question = read_question(text, own_names=own, other_names=others)
    if question is not None and question.kind == "choice":
        return True
    return any(which_pair(a) for a in asking)


def which_pair(asking: str) -> tuple[str, str] | None:
    """The last two nouns joined by 'と' or 'か' in a question that asks which ('銭湯と温泉、どっち？')."""
    return joined_pair(asking) if listening_cues.WHICH.search(asking) else None


def joined_pair(text: str) -> tuple[str, str] | None:
    """The last two nouns a line joins by 'と' or 'か' ('いちごとチョコバナナで迷って', 'メロンパン と カレーパン
    かった'): what a later 'どっち？' of the talk asks between."""
    text = "".join(text.split())
    found = morphemes.nouns(text)
    pairs = [(a, b) for a, b in zip(found, found[1:]) if (f"{a}{AND}{b}" in text or f"{a}{OR}{b}" in text)
             and not lexicon.named_in(a) & listening_cues.SOMEONE]  # '友達と映画行った': with someone, no options
    return pairs[-1] if pairs else None


def side_options(asking: list[str]) -> tuple[str, ...]:
    """'朝型？夜型？' / '犬派？猫派？': two short asking sentences of one noun each are a choice."""
    asking = [s for s in asking if listening_cues.JAPANESE.search(s)]  # '犬派？猫派？ which one?': the aside dropped
    if len(asking) < 2:
        return ()
    last = [listening_cues.POLITE_ASKING_TAIL.sub("", s.rstrip(listening_cues.QUESTION_MARKS)) for s in asking[-2:]]
    sides = [s[: -len(listening_cues.SIDE)] for s in last if s.endswith(listening_cues.SIDE) and len(s) > len(listening_cues.SIDE)]
    if len(sides) == 2 and sides[0] != sides[1]:
        return tuple(_side_word(side) for side in sides)
    if all(0 < len(s) <= 8 and morphemes.nouns(s) == [s] for s in last) and last[0] != last[1]:
        return tuple(last)
    # '陽キャ？陰キャ？', '朝がた？夜がた？': two short words the analyzer cuts, one ending shared, nothing predicated
    if last[0] != last[1] and os.path.commonprefix([last[0][::-1], last[1][::-1]]) \
            and all(1 < len(s) <= SHORT_SIDE and morphemes.nouns(s) and not any(
                w.pos in PREDICATING for w in morphemes.words(s)) for s in last):
        return tuple(last)
    # '浴衣で行く？私服で行く？': the same ending asked twice, what differs before it the options
    shared = len(os.path.commonprefix([last[0][::-1], last[1][::-1]]))
    fronts = [_side_word(s[:len(s) - shared]) for s in last]
    if shared >= SHARED_ENDING and all(0 < len(f) <= 8 and morphemes.nouns(f) == [f] for f in fronts) \
            and fronts[0] != fronts[1]:
        return tuple(fronts)
    return _listed_after(asking)


def _listed_after(asking: list[str]) -> tuple[str, ...]:
    """'服の好みってどんな系？きれいめ？カジュアル？古着とかもアリ？': a question, then two or more asking
    sentences that each only name a thing, its options (what trails after them aside)."""
    bare = [listening_cues.POLITE_ASKING_TAIL.sub("", s.rstrip(listening_cues.QUESTION_MARKS)) for s in asking]
    run: list[str] = []
    for sentence in bare[1:]:
        found = morphemes.words(sentence)
        if 0 < len(sentence) <= 8 and found and sentence not in run \
                and all(w.pos in ("noun", "adjectival", "auxiliary", "suffix", "prefix") for w in found):  # きれいめ
            run.append(sentence)
        elif len(run) >= 2:
            break
        else:
            run = []
    return tuple(run) if len(run) >= 2 else ()


# How long an ending two questions share must be to make them one either-or ('で行く', '派ですか').
SHARED_ENDING = 2
SHORT_SIDE = 6  # a side said in a word or two ('陽キャ', '朝がた')
PREDICATING = frozenset({"verb", "adjective", "auxiliary", "particle", "interjection"})


def _side_word(side: str) -> str:
    """'休みの日って家にいる' → '家にいる': what follows the topic marker, the side itself ('朝ごはん食べる'
    keeps its ごはん: only a particle the analyzer reads as one marks the topic)."""
    found = morphemes.words(side)
    marks = [i for i, w in enumerate(found)
             if w.pos in ("particle", "symbol") and re.fullmatch(listening_cues.SIDE_TOPIC, w.surface)]
    return "".join(w.surface for w in found[marks[-1] + 1:]) if marks and marks[-1] + 1 < len(found) else side
