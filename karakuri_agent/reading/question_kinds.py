"""Reading what a partner's line asks, so a reply can answer it first.

Pure and language-level: it knows Japanese question forms (question words,
"AとBどっち", invitations), never a persona. Which answer to give is the
persona's business (speech.py); this module only says what kind of answer
is wanted, which part of the line is the question, and, for a choice, the
options offered.
"""

from __future__ import annotations

from collections.abc import Sequence

import re

from karakuri_agent.ja.question_words import (
    ABLE,
    ALLOW,
    AND,
    CHOICE_HEAD,
    CHOICE_TAIL,
    DOING,
    HOW,
    INDEFINITE,
    INVITE,
    LIKE,
    MEETING_VERBS,
    NAMED,
    NARROWER,
    NOMINAL,
    NOW_AND_THEN,
    OPINION,
    OPTION,
    OR,
    PAST_ASK,
    TRAIT_MARKS,
    WHAT,
    WHAT_UP,
    WHEN,
    WHERE,
    WHICH,
    WHICH_PLACE,
    WHO,
    WHY,
)
from karakuri_agent.domain.understanding import Question
from karakuri_agent.ja.sentences import (
    TELL_ME_END, TRAILING_MARKS, is_asking, split_sentences, the_question, without_explaining,
)
from karakuri_agent.ja.word_classes import (
    ADJECTIVE_ADVERBIAL_END,
    ADJECTIVE_END,
    ADJECTIVE_PAST_END,
    ADVICE_NOUN,
    ADVICE_PARTICLE,
    ASKING_TAILS,
    COMMON_NOUN,
    EUPHONIC,
    FAVOUR_VERBS,
    FROM,
    INDEFINITE_AFTER,
    INTERROGATIVES,
    KATAKANA_LETTER,
    LEAVE_WORDS,
    NEGATIONS,
    NOT_A_PREDICATE_START,
    NOT_SAID_BACK,
    ONGOING_CONTRACTED,
    PAST,
    PERMISSION,
    PLACE_ENDINGS,
    PLAIN_FORMS,
    PREDICATE_LINKS,
    SAYING_WHAT,
    TELLING_VERBS,
    TE_LINKS,
    TIME_TOPICS,
    TOPIC_COMMA,
    TOPIC_PARTICLES,
    VOLITIONAL_FORM,
)
from karakuri_agent.ja.listening_cues import EVER_DONE, OF, YOU
from karakuri_agent.ja.name_words import HONORIFICS
from karakuri_agent.reading import lexicon, morphemes, tense
from karakuri_agent.reading.phrase import potential
from karakuri_agent.reading.times import clock_parts

__all__ = ["Question", "asks_a_favour", "asks_a_trait", "read_question"]

# Options are short words, so only this much before 'どっち' can hold them
# (which also keeps the reading linear on a very long line).
_CHOICE_WINDOW = 60


def read_question(line: str | None, *, own_names: tuple[str, ...] = (),
                  other_names: tuple[str, ...] = ()) -> Question | None:
    """The question the line ends on, or None for a statement.

    A question that names someone ('コウくんは？', or one of ``other_names``)
    and not the agent (``own_names``) is not for the agent to answer.
    """
    if not line:
        return None
    asking = [s for s in split_sentences(line) if is_asking(s)]
    if not asking:
        return None
    text = the_question(asking)
    named = [m.group(1) for m in NAMED.finditer(text)] + [n for n in other_names if n and n in text]
    if named and not any(n and n in text for n in own_names):
        return None
    options = _options(text, own_names)
    if options:
        return Question("choice", text, options)
    kind = _kind(text)
    return Question(kind, text, detail=bool(INDEFINITE.search(text)), past=bool(PAST_ASK.search(text)),
                    predicate=predicate(text, own_names) if kind == "yesno" else "")


# Question forms, most specific first: the first that matches decides.
_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (OPINION, "opinion"), (WHAT_UP, "what_up"), (WHY, "why"), (INDEFINITE, "indefinite"),
    (WHERE, "where"), (WHEN, "when"), (WHO, "who"), (DOING, "doing"), (HOW, "how"),
    (WHAT, "what"), (LIKE, "like"), (ALLOW, "allow"), (INVITE, "invite"),
)


def _kind(text: str) -> str:
    """The answer wanted: the first form that matches, narrowed by the text."""
    asked = without_explaining(text)
    # asked to tell ('今日のハイライト教えて〜') wants what it is, not a yes
    form = next((kind for pattern, kind in _FORMS if pattern.search(asked)),
                "what" if TELL_ME_END.search(asked.rstrip(TRAILING_MARKS)) else "yesno")
    if form == "invite" and asks_a_favour(asked):
        return "yesno"  # 'ノート貸してもらえませんか？' asks a favour, no invitation
    narrower = NARROWER.get(form)
    return narrower(text) if narrower else form


def _without_tail(text: str) -> str:
    """'コーヒーと紅茶、' / '山と海なら' / 'AかBか' -> the options alone."""
    while True:
        text = text.rstrip()
        tail = next((t for t in CHOICE_TAIL if text.endswith(t)), None)
        if tail is None or (len(tail) == 1 and not _ends_in_particle(text, tail)):
            return text  # '恋愛もの': the の is the word's own
        text = text[: -len(tail)]


def _ends_in_particle(text: str, tail: str) -> bool:
    """Whether ``text`` ends in ``tail`` as a word of its own (a particle or mark), not a word's last kana
    (after katakana it always is: 'アオかイイイか', however the analyzer cuts a word it does not know)."""
    if len(text) > len(tail) and KATAKANA_LETTER.fullmatch(text[-len(tail) - 1]):
        return True
    found = morphemes.words(text)
    return not found or found[-1].surface == tail and found[-1].pos != "noun"


def _split_at_and(text: str) -> list[str]:
    """'とんこつと醤油' → ['とんこつ', '醤油']: split where the analyzer reads 'と' as the particle, never
    inside a word; between clauses made nouns by 'の' ('ひとりでいるのと みんなといるの'), only after one ('みんなと'
    is whom one is with)."""
    found = morphemes.words(text)
    clauses = any(w.pos == "particle" and w.surface == AND and i and found[i - 1].surface == NOMINAL
                  for i, w in enumerate(found))
    parts, current = [], ""
    for i, word in enumerate(found):
        if word.pos == "particle" and word.surface == AND and (not clauses or found[i - 1].surface == NOMINAL):
            parts.append(current)
            current = ""
        else:
            current += word.surface
    parts.append(current)
    # each clause said as one ('ひとりでいるの', 'みんなといるの'), the last too, whose の the question's tail took
    return [p if not clauses or p.endswith(NOMINAL) else p + NOMINAL for p in parts]


def _options(text: str, own_names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """'コーヒーと紅茶、どっちが好き？' -> ('コーヒー', '紅茶'); () if not a choice."""
    which = WHICH.search(text)
    if not which:
        return ()
    before = _without_tail(text[max(0, which.start() - _CHOICE_WINDOW): which.start()])
    heads = [m.end() for m in CHOICE_HEAD.finditer(before)]
    before = before[heads[-1]:] if heads else before
    parts = _split_at_and(before) if AND in before else before.rsplit(OR, 1)
    parts = [_without_caller(p.strip(), own_names) for p in parts]
    if len(parts) < 2 or len(set(parts)) != len(parts) or not all(OPTION.match(p) for p in parts):
        return ()
    if not all(_an_option(p) and not _calls_at_end(p, own_names) for p in parts) \
            or (WHICH_PLACE.match(text, which.start()) and not all(
            any(w.pos == "noun" for w in morphemes.words(p)) for p in parts)):
        return ()  # '今からどちらへ': '今', 'ら'; '沖縄と北海道で悩んでて、どっち': the second goes on past it
    return tuple(parts)


def _without_caller(option: str, own_names: tuple[str, ...]) -> str:
    """'にけちゃんあめ' → 'あめ', 'ニケちゃんはあかレンジャー' → 'あかレンジャー': the agent called before the first
    option, and the particle marking it, are no part of it."""
    for name in sorted((n for n in own_names if n), key=len, reverse=True):
        if option.startswith(name) and option != name:
            rest = option[len(name):]
            rest = next((rest[len(h):] for h in HONORIFICS if rest.startswith(h)), rest)  # 'にけ'+'ちゃん'
            rest = rest.lstrip("".join(TOPIC_COMMA) + " ")
            # 'ニケちゃんは　あかレンジャーと…': the は is the call's, as the analyzer reads it after the name
            called, at = morphemes.words(option), len(option) - len(rest)
            marker = next((w.surface for w, (start, _) in zip(called, morphemes.word_spans(called, option))
                           if start == at and w.pos == "particle" and w.surface in TOPIC_PARTICLES), "")
            return rest[len(marker):] or option
    return option


def _calls_at_end(option: str, own_names: tuple[str, ...]) -> bool:
    """'山で悩んでてニケちゃん': an option that ran on into the agent called, no option at all."""
    found = morphemes.words(option)
    return any(n and n in option and n != option and not all(KATAKANA_LETTER.fullmatch(ch) for ch in option)
               for n in own_names) and any(w.pos == "particle" for w in found)


def _an_option(option: str) -> bool:
    """Whether an option ends as one does: a thing ('北海道', '温かいお茶'), a doing ('歩いて行く', '家で見るの'),
    never a clause going on past it ('北海道で悩んでて': its last word a linking particle)."""
    if all(KATAKANA_LETTER.fullmatch(ch) for ch in option):
        return True  # a word the analyzer may not know ('イサ', 'ピスタチオ'), however it cuts it
    found = [w for w in morphemes.words(option) if w.pos != "symbol"]
    return not found or found[-1].pos != "particle" or found[-1].surface == OF


def predicate(text: str, own_names: tuple[str, ...] = ()) -> str:
    """What a yes/no question says of its subject, in the plain form an answer can say back ('それ、自分で
    作ったりもする？' → '作ったりもする', '楽しめた？' → '楽しめた', 'こわくなかった？' → 'こわかった',
    '病院連れてったほうがいいかな？' → '連れてったほうがいい'); '' when there is none to say back (a noun, a
    favour asked, a polite form, a negated verb)."""
    found = morphemes.words(text)
    end = len(found)
    while end and (found[end - 1].pos == "symbol" or found[end - 1].pos in ("particle", "auxiliary")
                   and (found[end - 1].surface in ASKING_TAILS or found[end - 1].lemma in ASKING_TAILS)
                   and not (found[end - 1].lemma in NEGATIONS and end >= 2
                            and not found[end - 2].form.startswith(PLAIN_FORMS))):  # '知らん？' negates: kept
        end -= 1
    start = end
    while start:
        word, before = found[start - 1], found[start - 2] if start >= 2 else None
        if word.pos in ("verb", "adjective", "auxiliary") or word.bound:
            start -= 1
        elif word.pos == "particle" and word.surface in PREDICATE_LINKS and before is not None \
                and before.pos in ("verb", "adjective", "auxiliary", "particle"):
            start -= 1
        elif word.pos == "particle" and word.surface == ADVICE_PARTICLE and before is not None \
                and before.lemma == ADVICE_NOUN and start < end and found[start].pos == "adjective":
            start -= 2  # 'ほう+が+いい': the advice and the verb before it
        else:
            break
    chain = found[start:end]
    # a negation alone is no predicate: 'ひん' of '甘すぎひん？' (read as the verb 干る), 'ない' of '辛ない？'
    if not chain or chain[0].pos not in ("verb", "adjective") or chain[0].lemma in NOT_A_PREDICATE_START \
            or chain[0].surface in NEGATIONS \
            or any(w.lemma in NOT_SAID_BACK or w.surface in NOT_SAID_BACK or w.form.startswith(VOLITIONAL_FORM)
                   for w in chain) or not _the_agents(found[:start], own_names):
        return ""
    if any(w.surface == PERMISSION[0] and nxt.lemma == PERMISSION[1] for w, nxt in zip(chain, chain[1:])):
        return ""  # 'してもいいですか' asks leave: 'うん、いいよ', not 'してもいいよ'
    negated = [i for i, w in enumerate(chain) if i and (w.lemma in NEGATIONS or w.surface in NEGATIONS)]
    if not negated:
        # said back, it must be able to end a sentence: 'あっ' of 'あっか？' (ある, cut short) cannot, nor
        # 'あん' of 'あんの？' (a sound-changed ending: 'うん、あんよ！')
        last = chain[-1]
        return "".join(w.surface for w in chain) if last.form.startswith(PLAIN_FORMS) and EUPHONIC not in last.form \
            else ""
    first = chain[0]  # 'こわく+なかっ+た': the adjective, the negation dropped; a negated verb is not said back
    if len(chain[:negated[0]]) != 1 or first.pos != "adjective" or not first.surface.endswith(ADJECTIVE_ADVERBIAL_END):
        return ""
    past = any(w.lemma == PAST for w in chain[negated[0]:])
    return first.surface[:-1] + (ADJECTIVE_PAST_END if past else ADJECTIVE_END)


def _the_agents(before: Sequence[morphemes.Word], own_names: tuple[str, ...]) -> bool:
    """Whether what the question is about is the agent's to say: its topic ('Xは', 'Xって', 'Xが') is the
    agent, 'you', a time ('明日って'), or there is none ('雷、起きちゃった？'); 'たい焼き屋、まだやってるん？'
    with its 'は' said is the shop's, not the agent's to vouch for."""
    for i, word in enumerate(before):
        if i and word.surface in TOPIC_COMMA and before[i - 1].pos in ("noun", "suffix") \
                and before[i - 1].surface.endswith(PLACE_ENDINGS):
            return False
        if word.pos == "particle" and word.surface in TOPIC_PARTICLES and i:
            noun = before[i - 1].surface
            if not (noun in TIME_TOPICS or YOU.search(noun) or any(n and (n in noun or noun in n) for n in own_names)
                    or before[i - 1].pos in ("suffix",)):
                return False
    return True


def asks_a_favour(text: str) -> bool:
    """Whether a question asks the agent to do something for the asker ('あの漫画返してもらえる？',
    '手伝ってくれない？'): a verb's て and a verb of receiving; not one asking to be told ('教えてくれる？')."""
    found = morphemes.words(text)
    return any(w.lemma in FAVOUR_VERBS and i >= 2 and found[i - 1].surface in TE_LINKS
               and (done := _done_before(found, i - 2)) is not None and done.lemma not in TELLING_VERBS
               for i, w in enumerate(found))


def _done_before(found: Sequence[morphemes.Word], i: int) -> morphemes.Word | None:
    """The verb at ``i``, or the one before the contracted ている there ('見て+て+くれない？'); None for neither."""
    if found[i].pos == "verb":
        return found[i]
    return found[i - 1] if found[i].lemma == ONGOING_CONTRACTED and i > 0 and found[i - 1].pos == "verb" else None


def asks_if_free(asking: str, question: Question | None) -> bool:
    """Whether a question asks if the agent is free ('今日の夕方って空いとう？', '本日夕刻、少々お時間を頂戴すること
    は可能でしょうか'; concepts.json `asks_free`), which its promises answer; not when ('いつ空いてる？') nor
    whether it was ('昨日ひまだった？')."""
    unspaced = "".join(asking.split())
    at = lexicon.free_asked_at(unspaced)
    if at < 0 or tense.past(asking) or (question is not None and (question.kind != "yesno" or question.past)):
        return False
    # a thing named before it is what is free ('図書館って月曜も空いてる？' asks if it is open, 'この席空いてる？' if
    # it is taken); a time ('今日の夕方って', '来週の土曜') or the agent's name asks of the agent
    before = morphemes.words(unspaced[:at])
    return not any(w.pos == "noun" and w.detail[:2] == COMMON_NOUN and not lexicon.names_a_time_ahead(w.surface)
                   for w in before)


def asks_leave(text: str) -> bool:
    """Whether a question asks leave of the agent ('お隣、座ってもよろしいでしょうか', 'パンフレット、一部頂戴しても
    いい？'): a verb's て, も, and a word of leave; the agent's to grant."""
    found = morphemes.words(text)
    return any(w.lemma in LEAVE_WORDS and i >= 2 and found[i - 1].surface == PERMISSION[0]
               and found[i - 2].surface in TE_LINKS for i, w in enumerate(found))


def _indefinite(after: Sequence[morphemes.Word]) -> bool:
    """Whether the words after a question word make it an indefinite ('何か', 'どこかしら', '誰にも', '何でも'),
    by the particles themselves: 'どっから来てんの？' starts with the same letter and still asks where from."""
    return bool(after) and after[0].pos == "particle" and (after[0].surface.startswith(INDEFINITE_AFTER) and after[0].surface != FROM
                                                           or "".join(w.surface for w in after) in INDEFINITE_AFTER)


def names_a_question_word(text: str) -> bool:
    """Whether a question holds a question word ('なんて締めたらいいべ？', 'ラーメンは何味が好いとう？'): it asks a
    what, a how or a which, which a bare yes never answers ('何か', 'どこも' ask no such thing)."""
    found = morphemes.words(text)
    return any(w.lemma in INTERROGATIVES and w.pos in ("pronoun", "adverb", "adnominal", "adjectival")
               and not _indefinite(found[i + 1:i + 3])
               or w.surface in SAYING_WHAT and i + 1 < len(found) and found[i + 1].pos == "verb"  # 'なんて締めたら'
               for i, w in enumerate(found))


def asks_a_trait(text: str) -> bool:
    """Whether a yes/no asks what kind of one the listener is, what it can do, has done or does now and then
    ('朝つよいほう？', '乗り物酔いするほうだべか', 'ジェットコースター乗れる？', '寂しくなることありますか？'), which
    only a fact of its own answers, never a bare yes; not how it is now ('元気にしてる？', 'お腹すいてる？')."""
    if EVER_DONE.search(text) or NOW_AND_THEN.search(text):
        return True
    if lexicon.time_ahead(text) or clock_parts(text):
        return False  # 'あした あそべる？', '15時に会えますか？': whether it is free then, asked along
    words = morphemes.words(text)
    found = [i for i, w in enumerate(words) if w.pos in ("noun", "verb", "adjective", "adjectival", "interjection")
             and (w.pos != "interjection" or w.surface in TRAIT_MARKS)]
    if not found:
        return False
    last = words[found[-1]]
    if any(w.pos == "auxiliary" and w.lemma == PAST for w in words[found[-1] + 1:]):
        return False  # '楽しめた？', '駅の方にいなかった？': a time that was, not what kind of one it is
    if last.lemma in FAVOUR_VERBS or last.lemma in MEETING_VERBS:
        return False  # '教えていただけますか': a favour asked; '会える？': whether it is free
    return last.surface in TRAIT_MARKS or last.lemma in TRAIT_MARKS or last.lemma == ABLE \
        or (last.pos == "verb" and potential(last))
