"""What a line wants done: "let's" said to the partner, or the speaker torn over what to do.

"Let's" is a volitional verb said to the partner, ending what it says.

'おにごっこしよ！', 'カラオケ行こ🎤 歌聞いてみたい', '一緒に食べよっか', '遊ぼうよ' invite the one
spoken to, whatever the register or spelling, because the analyzer gives the
verb's conjugated form (意志推量形) wherever it is written. What is no
invitation: wondering ('帰ろうかな'), encouraging oneself ('今日もがんばろう'),
'shall I' with か alone ('手伝おうか': an offer, reading/help_offers.py), and a
volitional that goes on into more of the sentence ('行こうと思ってる': a plan).

Torn is a question put to oneself and a verb of deliberating over it:
'転職しようか迷ってて', '辞めようかなって考えてる', '行くか行かないか悩んでる' (the か that
ends the question, then 迷う, 悩む or 考える), never '道に迷った'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from karakuri_agent.ja import listening_cues
from karakuri_agent.reading import morphemes

__all__ = ["says_lets", "torn"]


def says_lets(text: str) -> bool:
    """Whether ``text`` (as reading/normalised.py gives it: an emoji after a verb is a full stop) invites the
    partner to do something with the speaker."""
    found = morphemes.words(listening_cues.DRAWN_OUT.sub("", text))
    together = listening_cues.TOGETHER.search(text) is not None
    for i, word in enumerate(found):
        if _contracted(found, i):
            word = replace(found[i + 1], surface=word.surface + found[i + 1].surface, form=listening_cues.VOLITIONAL)
            i += 1
        elif not word.form.startswith(listening_cues.VOLITIONAL) \
                or not (word.pos == "verb" or word.lemma in listening_cues.POLITE_LETS):
            continue  # the copula's 'でしょ', 'やろ', 'だろ' guess; they invite to nothing
        at = next((j for j in range(i, -1, -1) if found[j].pos == "verb"), i)
        verb = found[at]
        if verb.lemma in listening_cues.SELF_RESOLVE or (at and found[at - 1].surface in listening_cues.WONDERING):
            continue  # 'どうしよ': what to do, wondered, is no 'let's'
        after = ""
        for rest in found[i + 1:]:  # what follows it up to the end of its run of words
            if rest.pos == "symbol" or rest.spaced:
                break
            after += rest.surface
        # 'shall we' needs the together of it ('一緒に食べよっか'); alone, 'か' offers or wonders
        if after in listening_cues.LETS or (not after and (together or _chatty(found, i))):
            return True
        if together and after in listening_cues.SHALL_WE:
            return True
    return False


def _contracted(found: tuple[morphemes.Word, ...], i: int) -> bool:
    """'お散歩しよ': する's 'しよ', which the analyzer cuts as し + よ, ending its run of words."""
    word = found[i]
    return word.lemma == listening_cues.DOING and word.surface == listening_cues.LETS_DO[0] \
        and i + 1 < len(found) and found[i + 1].surface == listening_cues.LETS_DO[1] \
        and (i + 2 == len(found) or found[i + 2].pos == "symbol" or found[i + 2].spaced)


def _chatty(found: tuple[morphemes.Word, ...], i: int) -> bool:
    """A bare volitional invites when it is said as talk is ('行こ', 'しよ': shortened; '行こう！'); a plain
    '起きよう。' may as well be the speaker's own resolve."""
    rest = found[i + 1:i + 2]
    return not found[i].surface.endswith(listening_cues.VOLITIONAL_TAIL) \
        or (bool(rest) and rest[0].surface in listening_cues.EXCLAIMED)


def torn(found: Sequence[morphemes.Word]) -> bool:
    """Whether the words deliberate over a question the speaker puts to themself."""
    for i, word in enumerate(found):
        if word.lemma not in listening_cues.DELIBERATING or word.pos != "verb":
            continue
        for k in range(max(1, i - listening_cues.DELIBERATION_GAP), i):
            # the か that ends a clause ('しようか', '行かないか'), not the one of '何か'
            if found[k].surface == listening_cues.EMBEDDED_QUESTION and found[k].pos == "particle" \
                    and found[k - 1].pos in ("verb", "auxiliary") \
                    and all(w.pos in ("particle", "adverb") for w in found[k:i]):
                return True
    return False
