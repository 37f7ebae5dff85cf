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
from karakuri_agent.ja.question_words import NOMINAL
from karakuri_agent.ja.sentences import is_asking, split_sentences
from karakuri_agent.ja.word_classes import (
    ADVERBIAL, ADVERBIAL_FORM, ALLOWING_LINKS, BECOMING, BENEFACTIVE_CONTRACTED, COMING_LEMMAS, DOING_CONJUGATION,
    DONE_WANTED, EVEN, GOING, GOING_TRIED, GOING_WANTED, GOOD_LEMMA, HONORIFIC_COMING, IRREALIS, LEADING_KANJI, PAST,
    PLAIN_SPELLING, STEM_BY_CONJUGATION, TE_LINKS, TRIED_WANTED, TRYING, VOLITIONAL_FORM, WANTING,
)
from karakuri_agent.reading import lexicon, morphemes
from karakuri_agent.reading.phrase import helper, negated, potential
from karakuri_agent.reading.volition import says_lets

__all__ = ["asks_along", "invited_act", "invites"]


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
        or says_lets(text) or any(asks_along(sentence) for sentence in split_sentences(text)) \
        or any(_coming_allowed(morphemes.words(s)) for s in split_sentences(text) if not is_asking(s))


def _coming_allowed(found: tuple[morphemes.Word, ...]) -> bool:
    """Coming allowed, which asks one along: 'ニケちゃんも、たべにきていいよ！', 'おめは手ぶらで来ればいいがらな',
    'いつでも来たらええ', '遊びに来てもいいよ' (never '来なくていいよ': a negation comes between; nor '来ていいのは
    関係者だけ', which says who may; nor '来てよかった', glad one came; a sentence asking it, '来てもいい？', asks
    leave)."""
    for i, word in enumerate(found[:-2]):
        if word.pos != "verb" or word.lemma not in COMING_LEMMAS or found[i + 1].surface not in ALLOWING_LINKS:
            continue
        then = found[i + 2:i + 4]
        if then and then[0].surface == EVEN:
            then = then[1:]
        if then and then[0].lemma == GOOD_LEMMA and not (then[1:] and (then[1].surface == NOMINAL or then[1].lemma == PAST)):
            return True
    return False


def invited_act(sentence: str) -> str:
    """What the agent would do, joining the invitation, said as wanted ('糸島にドライブ行かん？' → '行きたい',
    '食べに来んね？' → '食べに行きたい', '行ってみない？' → '行ってみたい', 'ラジオ体操せんかね' → '体操したい');
    '' where the analyzer read no verb of it, or none it can say so ('激辛ラーメン、いける？' asks what it can
    eat, '送っていこか？' and '入れちゃろうか？' offer help)."""
    found = [w for w in morphemes.words(sentence) if w.pos != "symbol"]
    verbs = [i for i, w in enumerate(found) if w.pos == "verb" and not helper(found, i)]
    # the verb that invites: in the volitional ('行こ'), or negated and asked ('行かん？'); else the last ('お散歩しよ〜',
    # 'お弁当食べん？' as the analyzer cuts them), never one asked as a favour ('散歩つきあって'), but for coming
    last = verbs[-1] if verbs else None
    asked = last is not None and last + 1 < len(found) and found[last + 1].surface in TE_LINKS \
        and found[last].lemma not in COMING_LEMMAS and all(w.pos == "particle" for w in found[last + 2:])
    at = next((i for i in verbs if _invites_by(found, _tried(found, i))), None if asked else last)
    if at is not None and found[at].lemma in BECOMING and at > 1 and found[at - 1].surface == listening_cues.PURPOSE \
            and found[at - 2].pos == "verb":
        at -= 2  # 'お越しになりませんか': the honorific お…になる is the verb's own
    activities = _along()[0]  # concepts.json `asked_along`: only an activity's verb is said back as wanted
    if at is None or potential(found[at]) or found[at].lemma not in activities | COMING_LEMMAS | HONORIFIC_COMING:
        return ""  # ('つりいこーぜ' misread as 吊る + 行く says nothing of fishing)
    verb, after = found[at], found[at + 1:at + 3]
    if len(after) == 2 and after[0].surface in TE_LINKS and after[1].lemma in TRYING:  # '行ってみない？'
        return GOING_TRIED if verb.lemma in COMING_LEMMAS else verb.surface + after[0].surface + TRIED_WANTED
    if len(after) == 2 and after[0].surface in TE_LINKS and after[1].pos == "verb":
        return ""  # '送っていこか？': a thing done on the way, not what is invited to
    if after and (after[0].surface.startswith(BENEFACTIVE_CONTRACTED) or after[0].lemma in listening_cues.LET_ME):
        return ""  # '入れちゃろうか？', 'ご馳走させていただけませんか': done for the agent, an offer
    honorific = verb.lemma in HONORIFIC_COMING and at > 0 and found[at - 1].pos == "prefix"  # 'お越し'
    if verb.lemma in COMING_LEMMAS or verb.lemma == GOING or honorific:
        if at and found[at - 1].surface in TE_LINKS:
            return ""  # '送っていこか？', '飲んでいかんかね': going on after a thing done, not where to
        # '食べに来んね？' → '食べに行きたい': coming is going (to do a thing, never to 'うち', theirs)
        return _purpose(found, at, places=verb.lemma == GOING) + GOING_WANTED
    if verb.conjugation.startswith(DOING_CONJUGATION):  # 'ラジオ体操せんかね' → '体操したい': the thing done, named
        noun = found[at - 1] if at else None
        if noun is None or listening_cues.DOABLE not in noun.detail:
            return ""
        prefix = found[at - 2].surface if at > 1 and found[at - 2].pos == "prefix" else ""
        return prefix + noun.surface + DONE_WANTED  # 'ご一緒しませんか？' → 'ご一緒したい'
    lemma = _as_written(verb)
    for kind, ending, stem in STEM_BY_CONJUGATION:
        if verb.conjugation.startswith(kind) and lemma.endswith(ending):
            return lemma[: -len(ending)] + stem + WANTING
    return ""


def _tried(found: list[morphemes.Word], i: int) -> int:
    """The word that carries the verb at ``i``'s form: its 'みる' in 'やってみない？', the verb it leads in
    '飲み行かへん？', else itself."""
    if i + 2 < len(found) and found[i + 1].surface in TE_LINKS and found[i + 2].lemma in TRYING:
        return i + 2
    return i + 1 if i + 1 < len(found) and found[i + 1].pos == "verb" and helper(found, i + 1) else i


def _invites_by(found: list[morphemes.Word], i: int) -> bool:
    """Whether the verb at ``i`` asks along by its form: the volitional ('行こ') or a negation ('行かん？')."""
    return found[i].form.startswith(VOLITIONAL_FORM) or negated(found, i)


def _purpose(found: list[morphemes.Word], at: int, places: bool) -> str:
    """What one goes to do, as written before 'に' ('食べに', 'お参りに'), or where (``places``: '海に'); ''
    when none is named."""
    if at < 2 or found[at - 1].surface != listening_cues.PURPOSE:
        return ""
    done = found[at - 2]
    if done.pos == "verb" and done.form.startswith(ADVERBIAL_FORM):
        return done.surface + found[at - 1].surface
    if done.pos == "noun" and ADVERBIAL not in done.detail and not done.proper \
            and (places or listening_cues.DOABLE in done.detail):
        # 'お参りに', '海に' (not a time: '今度に'; nor a name said back)
        prefix = found[at - 3].surface if at > 2 and found[at - 3].pos == "prefix" else ""
        return prefix + done.surface + found[at - 1].surface
    return ""


def _as_written(verb: morphemes.Word) -> str:
    """The verb's dictionary form in the kanji it was written with ('帰らへん' → 帰る, where the analyzer's lemma
    is 返る), else as a person spells it ('しよ' → する)."""
    lemma = PLAIN_SPELLING.get(verb.lemma, verb.lemma)
    written, own = LEADING_KANJI.match(verb.surface), LEADING_KANJI.match(lemma)
    return written.group() + lemma[own.end():] if written and own else lemma
