"""Whether a line offers the agent help: pure, by the analyzer's words and their conjugated forms.

Help is offered in many shapes, and none of them is a question to answer
with a yes or an invitation to a plan: 'shall I' ('荷物重そうだね、持とうか？',
'駅までお送りしましょうか'), a benefactive ('それ、直してあげよっか', '教えたげる'),
a plain promise of a helpful act ('Need help? 荷物持つよ', '道わからんかったら案内するで'),
or a set phrase ('何かお手伝いできることはありますか', 'おにぎり半分こしよ').
The verb is read as the analyzer conjugates it, so a past ('手伝ったよ'),
a negation ('持たないよ'), a request ('手伝ってあげて'; but 'let me', 'おごらせて', offers) or something done
together ('一緒に作ろうか', '夕日見ようよ': invitations) is no offer.
"""

from __future__ import annotations

import unicodedata

from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.sentences import split_sentences
from karakuri_agent.ja.word_classes import GUESSING_COPULAS, NEGATIONS, PAST, TE_LINKS
from karakuri_agent.reading import morphemes
from karakuri_agent.reading.morphemes import Word
from karakuri_agent.reading.volition import torn

__all__ = ["offers_help"]

_MARKS = ("So", "Sk", "Cf", "Mn")  # emoji, their modifiers and joiners


def offers_help(text: str) -> bool:
    """Whether ``text`` offers to do something for the one it is said to."""
    text = "".join(ch for ch in text if unicodedata.category(ch) not in _MARKS)  # emoji read no verb
    text = listening_cues.DRAWN_OUT.sub("", text)  # '案内するで〜' ends as '案内するで' does
    if listening_cues.HELP_ASKED.search(text):
        return True
    return any(_offered(sentence) for sentence in split_sentences(text) if not listening_cues.TOGETHER.search(sentence))


def _offered(sentence: str) -> bool:
    found = morphemes.words(sentence)
    if torn(found):
        return False  # '買おうかどうか迷う': a question put to oneself offers nothing
    for i, word in enumerate(found):
        if word.lemma not in listening_cues.HELP_VERBS or word.pos not in ("verb", "noun"):
            continue
        head = i
        if found[i + 1:i + 2] and found[i + 1].surface == listening_cues.PURPOSE and found[i + 2:i + 3] \
                and found[i + 2].lemma in listening_cues.COMING_GOING:
            head = i + 2  # '迎えに行こうか', '手伝いに行くで': the going says whether it is offered
        elif word.pos == "noun":  # '案内する', 'お手伝いしましょうか': the noun's する conjugates
            if i + 1 >= len(found) or found[i + 1].lemma not in (listening_cues.DOING, listening_cues.HUMBLE_DOING):
                continue
            head = i + 1
        chain = _chain(found, head + 1)
        verb = found[head]
        if len(chain) >= 2 and chain[0].lemma in listening_cues.LET_ME and chain[1].surface in TE_LINKS:
            return True  # 'let me': 'この前のお詫びに、今日はおごらせて'
        if _past_or_negated(chain):
            continue
        after = "".join(w.surface for w in found[head + 1 + len(chain):])
        # (a copula's やろ/だろう/でしょう guesses: 'ビニールハウスもつやろか' wonders, it offers nothing)
        if verb.form.startswith(listening_cues.VOLITIONAL) or any(w.form.startswith(listening_cues.VOLITIONAL)
                                                                  and w.surface not in GUESSING_COPULAS for w in chain):
            then = [w for w in found[head + 1 + len(chain):] if w.surface not in listening_cues.QUOTE_PARTICLES]
            if not after.startswith(listening_cues.MUSING) and not after.startswith(listening_cues.LETS) \
                    and not (then and then[0].lemma in listening_cues.INTENDING):
                return True  # 'shall I' ('持とうか'), not 'let's' ('夕日見ようよ'), musing nor meaning to ('と思ってる')
            continue
        if any(w.surface in listening_cues.KANSAI_BENEFACTIVE for w in chain):
            return True
        if any(w.lemma in listening_cues.BENEFACTIVE and w.form.startswith((*listening_cues.NON_PAST, listening_cues.VOLITIONAL)) for w in chain):
            return True
        if word.lemma in listening_cues.HELP_SAID_PLAINLY and verb.form.startswith(listening_cues.NON_PAST) and not chain[-1:]:
            rest = found[head + 1:]
            if not rest or rest[0].surface in listening_cues.OFFER_ENDS or rest[0].lemma in listening_cues.OFFER_ENDS:
                return True
        elif word.lemma in listening_cues.HELP_SAID_PLAINLY and chain and all(w.lemma in listening_cues.PLAIN_TAIL for w in chain):
            if verb.form.startswith(listening_cues.NON_PAST) or chain[0].form.startswith(listening_cues.NON_PAST):
                return True  # '案内するで', '案内しますよ'

    return False


def _chain(found: tuple[Word, ...], start: int) -> list[Word]:
    """The verbs and auxiliaries that go on from a verb ('て' + 'あげよっ', 'ましょう'), up to the next other word."""
    out: list[Word] = []
    for word in found[start:]:
        if word.pos in ("verb", "auxiliary") or (word.pos == "particle" and word.surface in listening_cues.JOINING):
            out.append(word)
            continue
        break
    return out


def _past_or_negated(chain: list[Word]) -> bool:
    """'手伝った', '持たない', '手伝ってあげて' (a request): the act is not being offered now."""
    if chain and chain[-1].pos == "particle":
        return True
    for word in chain:
        if word.lemma == PAST and not word.form.startswith(listening_cues.VOLITIONAL):  # '持ったろか' is volitional
            return True
        if word.lemma in NEGATIONS or word.surface in NEGATIONS:
            return True
    return False
