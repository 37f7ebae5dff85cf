"""How a line says things went: its polarity and the emotions it names, scored over the lexicon (reading/lexicon.py).

Each predicate and noun is scored by its concept's polarity, else the Tohoku
dictionaries' (polarity.json); a negation after it turns it (眠れない,
楽しくない). What a line concedes is left out: the premise of 'けど' or
'のに' within its sentence ('3年付き合ってたのに、電話一本でおわり' says
nothing glad), and a clause that only says which thing it is ('楽しみにして
たチケット', '昨日なくした指輪') counts only where the rest of the line says
nothing of how things went. Loaded the first time a line is read.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from karakuri_agent.domain.understanding import TORN, TROUBLE
from karakuri_agent.ja.listening_cues import DOABLE, DOING
from karakuri_agent.ja.word_classes import (
    ADJECTIVAL_NOUN,
    ATTRIBUTIVE,
    COPULA_LEMMAS,
    COPULA_VERBS,
    CLAUSE_NOUNS,
    FULL_STOPS,
    GOOD,
    HOPE_LINKS,
    HYPOTHETICAL_FORM,
    LAUGHS,
    CONCESSIVE,
    CONCESSIVE_NO,
    QUOTE_TO,
    THINKING,
    COPULAS,
    NEGATIONS,
    PASSIVES,
    PAST,
    POLITE,
    SENTENCE_END_MARKS,
    TE_LINKS,
    TOPIC_PARTICLES,
)
from karakuri_agent.reading.lexicon import PREDICATES, by_lemma, concepts, polarity_table, tags
from karakuri_agent.reading.morphemes import Word, words
from karakuri_agent.reading.phrase import helper, modifies_a_noun, negated, passive
from karakuri_agent.reading.volition import torn

# The emotions of good news: joy, and pride in a milestone reached (concepts.json `milestone`).
GLAD = frozenset({"glad", "proud"})


@dataclass(frozen=True)
class Feeling:
    """What a line tells of how things went: -1 bad, +1 good, 0 neither; the emotions it names."""

    polarity: int = 0
    emotions: frozenset[str] = frozenset()
    main: int = 0  # the polarity of the line's last predicate (what it ends saying happened), turned when negated
    # Said by a predicate, a concept or a feeling named, not only by the dictionaries' broad nouns ('救急車',
    # '断水', '恐竜' are negative there): only a firm polarity makes a sentence good or bad news.
    firm: bool = True

    @property
    def mood(self) -> str:
        """'good' when a glad thing is told (a concept says so: 受かった, 生まれた), 'bad' when trouble is
        (a feeling named, or the last predicate is bad: 落とした, 壊れた); '' otherwise: a word the
        dictionaries score in passing ('空いてる', '無視して') makes no news good or bad."""
        if self.emotions & TROUBLE or self.main < 0:
            return "bad"
        if self.emotions & GLAD and self.polarity > 0:
            return "good"
        return ""

    @property
    def troubled(self) -> bool:
        """Bad news, worry, illness, grief: nothing to cheer (a reply meets it with care)."""
        return self.polarity < 0 or bool(self.emotions & TROUBLE)



def _concedes(found: Sequence[Word], i: int) -> bool:
    """Whether word ``i`` ends a concessive clause: 'けど' and its kin, or 'の'+'に' after a predicate
    ('付き合ってたのに')."""
    word = found[i]
    if word.pos != "particle":
        return False
    if word.surface in CONCESSIVE:
        return True
    return word.surface == CONCESSIVE_NO[1] and 2 <= i and found[i - 1].surface == CONCESSIVE_NO[0] \
        and found[i - 1].pos == "particle" and (found[i - 2].pos in ("verb", "auxiliary", "adjective")
                                                or found[i - 2].surface in COPULAS)  # '雨やのに'



def _after_concession(found: Sequence[Word]) -> Sequence[Word] | None:
    """The line without what its last concessive clause concedes, from the start of that clause's sentence
    ('ミスしたけど最後まで弾けた' says 弾けた; '彼氏と別れた。3年付き合ってたのに、…' still says 別れた), or None
    (the whole line counts). After 'けど' a predicate must follow; what 'のに' concedes is a premise,
    dropped whatever follows."""
    last = max((i for i in range(len(found)) if _concedes(found, i)), default=None)
    if last is None:
        return None
    rest = found[last + 1:]
    # a けど that ends its sentence concedes nothing to the next ('傘盗まれたっちゃけど。お気に入りやったとに')
    ends = next((i for i, w in enumerate(rest) if w.pos != "particle"), None)
    if ends is not None and rest[ends].pos == "symbol" and rest[ends].surface in SENTENCE_END_MARKS:
        return None
    if ends is None or not any(w.pos not in ("particle", "symbol") for w in rest):
        return None  # '免許証も入っとったのに': a line ending so regrets; nothing is conceded
    premise = found[last].surface == CONCESSIVE_NO[1]
    said = [w for w in rest if w.pos not in ("particle", "symbol")]
    # a predicate must follow: a verb or an adjective, or a noun ending what is said ('…落ちたけどもう過去のこと')
    if not premise and not any(w.pos in ("verb", "adjective", "adjectival") for w in rest) \
            and not (said and said[-1].pos in ("noun", "suffix")):  # '…車はもうダメっぽい'
        return None
    starts = max((i + 1 for i, w in enumerate(found[:last]) if w.pos == "symbol" and w.surface in FULL_STOPS), default=0)
    return [*found[:starts], *rest]


def _before_trailing_concession(found: Sequence[Word]) -> Sequence[Word] | None:
    """The sentences before a last one that trails off in 'けど' ('マラソン完走したとよ！足ガクガクやけど'): that
    one is an aside to what was told; None when the line does not end so or is one sentence."""
    content = [i for i, w in enumerate(found) if w.pos != "symbol"]
    if len(content) > 1 and found[content[-1]].pos == "particle" and found[content[-2]].surface in CONCESSIVE:
        content.pop()  # 'けどな', 'けどね'
    if not content or found[content[-1]].pos != "particle" or found[content[-1]].surface not in CONCESSIVE:
        return None
    breaks = [i for i, w in enumerate(found[:content[-1]]) if w.pos == "symbol" and w.surface in SENTENCE_END_MARKS]
    return found[:breaks[-1] + 1] if breaks else None


def _done(found: Sequence[Word], i: int) -> str:
    """'passive' when the verb at ``i`` says a thing was done to one ('リストラされた'), 'past' when it
    happened ('骨折してしもた'), '' when it is asked for or going on ('無視して送金して')."""
    past = False
    for word in found[i + 1:]:
        if word.lemma in PASSIVES:
            return "passive"
        past = past or word.lemma == PAST
        if not (word.pos in ("auxiliary", "verb") or word.surface in TE_LINKS):
            break
    return "past" if past else ""


@functools.lru_cache(maxsize=256)
def feel(text: str) -> Feeling:
    """The polarity and emotions of a line: each predicate and noun scored (a concept's polarity, else the
    Tohoku dictionaries'), a negation after it turning it; the dictionaries' nouns only where nothing else
    scored. Kept per text: one line's reading asks it of the whole line, the part told and each sentence."""
    return _scored(words(text), text)


def _scored(found: Sequence[Word], text: str) -> Feeling:
    # 'ミスしたけど最後まで弾けた': what follows けど is what the line says; a last sentence trailing off
    # in けど is an aside to the ones before
    conceded = _after_concession(found)
    if conceded is None:  # the aside dropped only where what came before says how things went of its own
        before = _before_trailing_concession(found)
        before = (_after_concession(before) or before) if before is not None else None  # its own けど still counts
        conceded = before if before is not None and _tally(before, _text(before)).polarity else None
    frustrated = conceded is not None and len(conceded) < len(found) and _premise(found)
    if conceded is not None:
        found, text = conceded, _text(conceded)
    said = _told(found, text)
    if conceded is None and _laments(found):
        # '三年付き合ってたのに', 'せっかく作ったのに': a line ending on its premise laments it, however glad its
        # words ('彼女にフラれた…三年付き合ってたのに' is no good news)
        return Feeling(-1, (said.emotions - {"glad"}) | {"sad"}, min(said.main, -1))
    if frustrated and said.polarity <= 0:
        # 'のに' tells an expectation let down ('明日テストなのにぜんっぜん頭に入らない'): a complaint
        return Feeling(-1, said.emotions | {"sad"}, min(said.main, -1))
    return said


def _laments(found: Sequence[Word]) -> bool:
    """Whether the line ends on 'のに' after a predicate, nothing but marks after it ('付き合ってたのに…')."""
    content = [i for i, w in enumerate(found) if w.pos != "symbol"]
    return bool(content) and found[content[-1]].surface == CONCESSIVE_NO[1] and _concedes(found, content[-1])


def _premise(found: Sequence[Word]) -> bool:
    """Whether the line's last concession is 'のに' (a premise let down), not 'けど'."""
    last = max((i for i in range(len(found)) if _concedes(found, i)), default=None)
    return last is not None and found[last].surface == CONCESSIVE_NO[1]


def _told(found: Sequence[Word], text: str) -> Feeling:
    """The feeling of what the line says, its clauses that only say which thing counting where the rest
    says nothing of how things went."""
    which = _which_thing(found)
    if not which:
        return _tally(found, text)
    told = [w for i, w in enumerate(found) if i not in which]
    if _found_again(found, which, told):
        return Feeling(1, frozenset({"glad", "relieved"}), 1)  # '昨日なくした指輪、ソファの隙間から出てきた！！': relief
    said = _tally(told, _text(told))
    return said if said.main or said.emotions else _tally(found, text)  # a predicate of its own, or a feeling


def _text(found: Sequence[Word]) -> str:
    return "".join(w.surface for w in found)


def _which_thing(found: Sequence[Word]) -> set[int]:
    """The words of clauses that only say which thing a noun is ('楽しみにしてたチケット', '昨日なくした指輪',
    '駅前にできた新しいカレー屋'): each from its sentence's start, or the pause or topic before it, to the noun."""
    inside: set[int] = set()
    for i, word in enumerate(found):
        if word.pos not in ("verb", "adjective") or helper(found, i):
            continue
        if _believed(found, i):  # 'なくしたと思ってた鍵': what one thought, not what happened
            start = i
            while start > 0 and found[start - 1].pos != "symbol":
                start -= 1
            inside.update(range(start, i + 1))
            continue
        if not modifies_a_noun(found, i):
            continue
        end = i + 1
        while end < len(found) and found[end].pos != "noun":
            end += 1
        if found[end].surface in CLAUSE_NOUNS or found[end].lemma in CLAUSE_NOUNS \
                or any(w.lemma in POLITE for w in found[i + 1:end]) or found[end].lemma in LAUGHS:
            continue  # '行ったほうがいい', '開くことができた', 'フラれました笑': the line's own predicate
        start = i
        while start > 0 and not (found[start - 1].pos == "symbol" or (found[start - 1].pos == "particle"
                                                                      and found[start - 1].surface in TOPIC_PARTICLES)):
            start -= 1
        inside.update(range(start, end))
    return inside


def _believed(found: Sequence[Word], i: int) -> bool:
    """Whether the predicate at ``i`` is what one thought ('なくしたと思ってた'): its auxiliaries, then と 思う."""
    j = i + 1
    while j < len(found) and found[j].pos == "auxiliary":
        j += 1
    return j + 1 < len(found) and found[j].surface == QUOTE_TO and found[j + 1].lemma in THINKING


def _found_again(found: Sequence[Word], which: set[int], told: Sequence[Word]) -> bool:
    """A thing lost, said so in the clause that names it, found or come back ('なくした指輪、出てきた')."""
    lost = concepts()["loss"].lemmas
    back = concepts()["found"].lemmas
    verbs = [i for i, w in enumerate(told) if w.pos == "verb" and not helper(told, i)]
    return any(found[i].lemma in lost for i in which) and bool(verbs) \
        and told[verbs[-1]].lemma in back and not negated(told, verbs[-1])


def _predicative(found: Sequence[Word], i: int) -> bool:
    """Whether the noun at ``i`` says how a thing is, as a predicate: a noun that can ('苦手', '最悪', '元気')
    before the copula or a negation ('苦手でございまして', '最悪やわ', '元気なくて')."""
    after = found[i + 1:i + 3]
    modifying = bool(after) and after[0].form.startswith(ATTRIBUTIVE) and len(after) > 1 and after[1].pos == "noun"
    return ADJECTIVAL_NOUN in found[i].detail and bool(after) and (
        after[0].pos == "auxiliary" and after[0].lemma in COPULA_LEMMAS and not modifying
        or after[0].lemma in NEGATIONS)  # not 'へんな形' ('苦手なんだ' is); '元気なくて' says how one is


def _conditions(found: Sequence[Word]) -> set[int]:
    """The words of conditions that something follows ('もしお困りでしたら、…お教えいたしますよ', '負けたら悔しい'):
    from the start of their clause to the word in its hypothetical form. Nothing in them happened."""
    inside: set[int] = set()
    for i, word in enumerate(found):
        if word.form.startswith(HYPOTHETICAL_FORM) and any(w.pos not in ("particle", "symbol") for w in found[i + 1:]):
            start = i
            while start > 0 and found[start - 1].pos != "symbol":
                start -= 1
            inside.update(range(start, i + 1))
    return inside


def _hoped(found: Sequence[Word], supposed: set[int]) -> set[int]:
    """The 良い of a hope that trails off ('忙しいだけやったらええんやけど', '晴れるといいんだけど', '治ればいいけど'):
    after a condition, then a concession; a worry, not a good thing told."""
    return {i for i, w in enumerate(found) if w.lemma == GOOD and i and (
        i - 1 in supposed or found[i - 1].surface in HOPE_LINKS and found[i - 1].pos == "particle")
        and any(n.surface in CONCESSIVE or n.lemma in CONCESSIVE for n in found[i + 1:i + 5])}


def _tally(found: Sequence[Word], text: str) -> Feeling:
    table, index = polarity_table(), by_lemma()
    supposed = _conditions(found)  # '娘の熱、早く下がればいいんだけど': no recovery told
    hoped = _hoped(found, supposed)
    happened = [w for i, w in enumerate(found) if i not in supposed]
    named = tags(happened, text if not supposed else _text(happened))
    score, weak, main = 0, 0, 0
    emotions: set[str] = {c.emotion for c in concepts().values() if c.name in named and c.emotion
                          and c.name not in ("warm_feeling", "compliment")}
    if hoped:
        emotions.add("worried")
    for i, word in enumerate(found):
        if word.pos not in PREDICATES or helper(found, i) or word.lemma in NEGATIONS or i in supposed | hoped:
            continue  # a negation ('なかった') turns the word before it; it says nothing itself
        own = index.get(word.lemma, ())
        done = _done(found, i) if word.lemma == DOING and i and DOABLE in found[i - 1].detail else ""
        if done:
            # '骨折した', 'リストラされた': the noun is what happened; the dictionaries' broad nouns
            # ('テストした') only when it was done to one
            own = index.get(found[i - 1].lemma, ())
            value = next((c.polarity for c in own if c.polarity), 0) \
                or (table.get(found[i - 1].lemma, 0) if done == "passive" else 0)
            if any(c.polarity_none for c in own) or not value:
                continue
        elif any(c.polarity_none for c in own):
            continue
        else:
            value = next((c.polarity for c in own if c.polarity), 0) or table.get(word.lemma, 0)
        if negated(found, i):
            turned = next((c.negated_polarity for c in own if c.negated_polarity is not None), None)
            value = turned if turned is not None else -value
            if any(word.lemma in c.negated_lemmas for c in concepts().values()):
                value = -1
        if word.pos == "verb" and passive(found, i) and value <= 0 and "adversity" in named:
            value = -1  # done to one ('弟に食べられた'), unless a glad thing ('褒められた')
        if word.pos == "noun" and not own and not _predicative(found, i):
            # the dictionaries' nouns are broad (テスト and 宿題 are negative there): they count only
            # where no predicate nor concept says how things went ('事故にあった')
            weak += value
            continue
        score += value
        if (word.pos != "noun" or _predicative(found, i)) and (value or word.lemma not in COPULA_VERBS):
            main = value  # '…話すのが苦手でございまして': it ends so; ござる, ある after it say nothing
    # no word scored: a concept named by its surface ('チケット取れた'), else the dictionaries' nouns
    score = score or sum(c.polarity for c in concepts().values() if c.name in named)
    firm = bool(score)  # a predicate or a concept said it (a feeling named says it too, below)
    score = score or weak
    if torn(found):  # '転職しようか迷ってて': deliberating, met with a listening ear, never cheer
        emotions.add(TORN)
    if "regret" in named or "letdown" in named or "adversity" in named:
        main = -1
    if main > 0 and "glad" in emotions:  # '迷子の猫が見つかった！': it ends telling a glad thing; the loss is over
        emotions -= {"sad", "disappointed"}
        score = max(score, 1)
    if "recovery" in named:  # '風邪、やっと治った': the illness named is over; good news
        emotions = (emotions - TROUBLE) | {"glad"}
        score, main = max(score, 1), max(main, 0)
    elif "sad_marks" in named and "glad" in emotions and named & {"good_event", "joy"}:
        emotions.discard("sad")  # 'チケット取れた😭🙏': tears of joy
    if emotions & TROUBLE and score >= 0 and "glad" not in emotions:
        score = -1
    if score < 0:
        emotions -= GLAD  # '楽しくなかった': the joy named is turned
    return Feeling(1 if score > 0 else -1 if score < 0 else 0, frozenset(emotions), main, firm or bool(emotions))


