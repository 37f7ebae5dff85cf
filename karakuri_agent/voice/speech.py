"""In-world lines for the agent, composed from a persona pack.

The voice lives in data, a persona pack (see persona.py), so it can change
without code. This module only picks, fills and fits templates, and it is pure: the
same inputs and seed always give the same line, which keeps decisions
reproducible in dry runs and testable in bulk.

What the pack holds besides greetings and small talk, all declarative:
``answers`` (phrase sets per kind of answer: yes, no, like, dislike, agree,
decline, allow, choice, where, where_now, where_before, doing, when, who,
who_with, why, how, what_up, unknown, ask_back), ``facts`` (per subject: the
words that name it, whether the persona likes it, reasons, details, things
done lately, something to add) and ``favourite_places``. A question is
answered from those and from the places the agent remembers (``Memory``).

Security rule: the partner's line is DATA. It is read only to find a known
topic or place keyword from the pack, or the kind of question it asks;
the one thing copied from it is the option picked in 'AとBどっち', and only
a short plain word (no digits, links, mentions or markup) is taken as one,
so an instruction, a mention, a link or an id cannot travel on.
Names and place labels from the server are cleaned of links, mentions and
chat markup before use."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from karakuri_agent.domain.limits import MESSAGE_UNITS
from karakuri_agent.domain.understanding import VIEWS
from karakuri_agent.mind.persona import Persona
from karakuri_agent.ja.safety import clean_line, clean_text
from karakuri_agent.ja.speech_words import HERE, IT, THAT_TIME, THERE, addressed, join_sentences
from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.normalised import normalised
from karakuri_agent.ja.sentences import is_asking, split_sentences
from karakuri_agent.reading import greetings
from karakuri_agent.reading.lexicon import cheer_words
from karakuri_agent.reading.question_kinds import read_question
from karakuri_agent.voice import answering, reacting
from karakuri_agent.voice.fitting import choose_line, said_key, stable_index
from karakuri_agent.voice.names import address_name, given_name_of, place_label_of, time_label_of
from karakuri_agent.voice.pickup import find_pickup, line_kind, pick_topic
from karakuri_agent.voice.situation import Memory, Scene, Situation, asks_back, fill_pool, statement_words

__all__ = [
    "DEFAULT_MAX_LENGTH",
    "PURPOSES",
    "Memory",
    "address_name",
    "clean_text",
    "compose",
    "pick_topic",
    "said_key",
]

NIGHT = "night"  # the greetings said at bedtime (concepts.json `greetings.night`): a goodbye
HEY = "hey"  # the greeting of a name called ('ニケちゃん！'), or of やっほー (concepts.json greetings)
PURPOSES = frozenset({"accept", "reply", "farewell", "start", "promise_accept"})
# The server's maxLength for a conversation message (CONTRACT §2 example).
DEFAULT_MAX_LENGTH = MESSAGE_UNITS


def _named(text: str, partner: str, call: bool) -> str:
    """Open with the partner's name when ``call`` says so and the line does not
    already name them: people do not start every sentence with a name."""
    if not call or not partner or partner in text or not text.strip():
        return text  # a name alone is no line: an empty candidate stays empty (and is passed over)
    return addressed(partner, text)


def _calls_by_name(seed: str, group: bool) -> bool:
    """Whether this line opens with the name: in a group most lines do, so it
    is clear who is answered; face to face only about one in three."""
    return stable_index(seed, "name", 3) < (2 if group else 1)


@dataclass(frozen=True)
class _Plan:
    """A line is one variant from each slot, in order; ``extras`` are added
    as a further sentence once every plain combination has been said, and
    ``tails`` after that."""

    slots: tuple[list[str], ...]
    extras: list[str]
    tails: list[str]


def _candidates(plan: _Plan) -> Iterator[tuple[str, ...]]:
    """Plain combinations first, then two-variant combinations, then tails."""
    slots = [s for s in plan.slots if s]
    base = list(itertools.product(*slots)) if slots else []
    yield from base
    # The added sentence is the outer loop so consecutive fallbacks also
    # vary their opening, not only their ending.
    for extra in plan.extras:
        for combo in base:
            if extra not in combo:
                yield (*combo, extra)
    for tail in plan.tails:
        for combo in base:
            yield (*combo, tail)


def _place_key(label: str, persona: Persona) -> str | None:
    """The by_place key a place label belongs to ('喫茶店「さくら」' -> '喫茶店')."""
    found = find_pickup(label, persona, frozenset({"place"}))
    return found.key if found else None


def _chat_pool(persona: Persona, scene: Scene, place_key: str | None) -> list[str]:
    """Small talk for when the partner's line gives nothing to pick up."""
    pool = list(persona.reactions["default"]) + list(persona.by_place["_default"])
    if place_key:
        pool += persona.by_place[place_key]
    return fill_pool(pool, scene)


def _greetings(persona: Persona, scene: Scene, known: bool, close: bool = False, greeted: str = "") -> list[str]:
    """Greetings by how well the agent knows the partner: never はじめまして to someone known; a greeting
    returned in kind when the pack has that kind ('おはよー！' → `greetings.morning`)."""
    if greeted and greeted != "first" and persona.greetings.get(greeted):
        return fill_pool(persona.greetings[greeted], scene)
    if close and persona.greetings.get("close"):
        return fill_pool(persona.greetings["close"], scene)
    return fill_pool(persona.greetings["known" if known else "first_meeting"], scene)


def _situation(purpose: str, persona: Persona, *, last_line: str | None, place_label: str,
               time_label: str, partner: str, known: bool, seed: str, others: Sequence[str],
               memory: Memory, close: bool = False, takes_offers: bool = True) -> Situation:
    pickup = find_pickup(last_line, persona)
    here_place = place_label or (THERE if purpose == "promise_accept" else HERE)
    if purpose == "promise_accept" and not place_label and pickup and pickup.kind == "place":
        here_place = pickup.text  # the meeting place the partner just named
    here = Scene(partner, here_place, IT, time_label or THAT_TIME, persona.first_person)
    said = Scene(
        partner,
        pickup.text if pickup and pickup.kind == "place" else here.place,
        pickup.text if pickup and pickup.kind == "topic" else here.topic,
        here.time,
        persona.first_person,
    )
    line = clean_line(last_line or "")
    own_names = (persona.short_name, persona.name)
    other_names = tuple(filter(None, (given_name_of(o) for o in others)))
    question = read_question(line, own_names=own_names, other_names=other_names) \
        if purpose != "promise_accept" else None
    heard = hear(line, own_names=own_names, other_names=(*other_names, given_name_of(partner) or partner)) \
        if purpose in ("reply", "farewell", "accept") and line else None
    if heard and heard.question:
        question = heard.question  # read from the line as understood ('朝型？夜型？', 'こわくない' with no ？)
    return Situation(
        persona=persona, purpose=purpose, seed=seed, known=known, close=close and known, pickup=pickup,
        kind=line_kind(last_line),
        place_key=_place_key(place_label, persona) if place_label else None,
        said=said, here=here, question=question, line=line,
        heard=heard, takes_offers=takes_offers,
        memory=replace(memory, here=memory.here or place_label),
    )


def _plan_reply(s: Situation) -> _Plan:
    """Answer what the line is (voice/answering.py) or the question it asks, one
    thought per line: at most the same subject's own addition follows. Otherwise
    pick up the partner's topic; else react to the kind of line; else chat.
    Once a pool is used up the next one's lines are said instead, never glued on."""
    if s.heard and s.heard.kind == "farewell":
        care = reacting.cared(s, s.heard)
        bye = s.rot(_goodbyes(s), "bye")
        return _Plan((s.rot(care, "care"), bye) if care else (bye,), [], [])
    if s.heard and s.heard.kind == "greeting":  # greeted in the middle of a talk: greeted back in kind
        return _Plan((s.rot(_greetings(s.persona, s.said, True, s.close, _greeted(s)), "greet"),), [], [])
    # 'おはようございます。いいお天気ですね', 'こんにちは〜、元気してた？': greeted back in kind before the answer,
    # where the pack has the kind; never before care
    own = (s.persona.short_name, s.persona.name)
    opened = (greetings.greets_first(s.line, own) or (greetings.greeting(s.line, own) if "greeting" in s.heard.acts else "")) \
        if s.heard and not s.heard.troubled else ""
    greet = fill_pool(s.persona.greetings.get(opened, ()), s.said) if opened != "first" else []
    greet = s.rot([g for g in greet if len(split_sentences(g)) == 1] or greet, "greet")  # one thought follows
    understood = (answering.answered(s, s.heard) or []) if s.heard else []
    if understood:
        return _Plan((greet, understood) if greet else (understood,), [], [])
    if s.answer:
        answer = (s.rot(s.answer.lines, "answer"), s.rot(["", *s.answer.own], "own"))
        return _Plan((greet, *answer) if greet else answer, [], [])
    chat = _chat_pool(s.persona, s.here, s.place_key)
    primary = s.picked or s.reaction or chat
    rest = [pool for pool in (s.reaction, chat) if pool and pool is not primary]
    alternatives = [*s.rot(primary, "main"), *(line for i, pool in enumerate(rest) for line in s.rot(pool, f"extra{i}"))]
    return _Plan((alternatives,), [], [])


def _plan_accept(s: Situation) -> _Plan:
    """Greet, take up what the request said (an apology, a topic), then say
    yes, or answer the question it asked (which says yes when it asked leave).
    A request that tells or asks something of its own ('金魚が死んじゃった…',
    'お誕生日っていつ？') is answered as a turn would be, greeted back only
    when it greeted, and never cheerfully when it tells of trouble."""
    if s.heard is not None and s.heard.kind == "farewell":
        return _plan_farewell(s)  # a talk opened to say goodbye ('もう帰らんといかんけん、またね'): goodbye
    understood = (answering.answered(s, s.heard) or []) if s.heard and s.heard.kind != "greeting" else []
    # An answer is greeted before only when the line greeted ('こんにちは！今日は何するの？'): it needs
    # no chatty opener, and trouble no cheerful one.
    # A request for a moment ('今ちょっといい？') opens a talk as a greeting does.
    greeted = s.heard is None or (("greeting" in s.heard.acts or (s.question is not None and s.question.kind == "allow"))
                                  and not s.heard.troubled)
    # (a bid to talk, '今ちょっといい？', opens it as a greeting does: greeted back)
    said_its_thing = s.heard is not None and s.heard.kind not in ("greeting", "statement") \
        and not (s.question is not None and s.question.kind == "allow")
    kind = _greeted(s)
    if said_its_thing and (not kind or kind == HEY and not greetings.says_a_greeting_of(s.line, HEY)):
        greeted = False  # 'ニケちゃん！ほじょりんなしでのれたよ！': a call by name before the news greets nobody back
    greet = s.rot(_greetings(s.persona, s.said, s.known, s.close, kind), "greet")
    if understood:
        return _Plan((greet if greeted else [], understood), [], [])
    apology = s.kind in ("apology", "thanks")
    if s.answer:
        middle = (s.picked or s.reaction) if apology else []
        agree = s.answer.lines
    else:  # a greeting is already answered by the greeting slot
        middle = [] if s.kind == "greeting" else s.picked or (s.reaction if apology else [])
        # a talk opened with a greeting is met with one; 'うん、聞かせて！' answers a request nobody made
        greeting_only = s.heard is not None and s.heard.kind == "greeting"
        # a line that named something the pack has words for is met with those words, never with 'なになに？'
        # after them ('来年度より、図書館の開館時間が…' → '…図書館に借りたい本があるんだ。大丈夫だよ、なになに？')
        agree = [] if greeting_only or (middle and not apology) else fill_pool(s.persona.accept, s.said)
    # an answer is not padded with a reaction or a giggle once its plain lines are said ('…わからないや。なるほど、
    # おもしろいね！', '…どうかなあ…。えへへ。'), nor is a line that tells of trouble
    light = not s.answer and not (s.heard is not None and s.heard.troubled)
    extras = s.rot(fill_pool(s.persona.reactions["default"], s.said), "extra") if light else []
    # a line that says its thing without greeting ('今日の晩ご飯カレーだった', '🐸🐸🐸') is met with what it said,
    # not with 'はじめまして、…ニケだよ、仲良くしてね！' glued before it
    return _Plan((greet if greeted or not (s.answer or said_its_thing) else [], s.rot(middle, "pick"), s.rot(agree, "accept")),
                 extras, s.tails if light else [])


def _greeted(s: Situation) -> str:
    """The kind of greeting the partner's line greeted with ('' none: reading/lexicon.greeting)."""
    return greetings.greeting(s.line, (s.persona.short_name, s.persona.name)) if s.line else ""


def _goodbyes(s: Situation) -> list[str]:
    """The pack's goodbyes; its good-nights when the partner said good night ('じゃ おやすみー')."""
    night = s.persona.greetings.get(NIGHT) if s.line and _greeted(s) == NIGHT else None
    return fill_pool(night or s.persona.farewells, s.said)


def _plan_farewell(s: Situation) -> _Plan:
    farewells = _goodbyes(s)
    # '体調が優れませんので、本日は早めに失礼いたします': care for it before the goodbye
    first = (reacting.cared(s, s.heard) if s.heard else []) or (s.answer.lines if s.answer else s.picked)
    cared = s.heard is not None and s.heard.troubled  # no giggle after care ('体調が優れませんので…')
    return _Plan((s.rot(first, "pick"), s.rot(farewells, "bye")),
                 s.rot(farewells, "extra"), [] if cared else s.tails)


def _plan_start(s: Situation) -> _Plan:
    body = s.picked or fill_pool(s.persona.conversation_start, s.here)
    if not s.picked and s.place_key:
        body += fill_pool(s.persona.by_place[s.place_key], s.here)
    return _Plan(
        (s.rot(_greetings(s.persona, s.here, s.known, s.close), "greet"), s.rot(body, "body")),
        s.rot(fill_pool(s.persona.by_place["_default"], s.here), "extra"),
        s.tails,
    )


def _plan_promise(s: Situation) -> _Plan:
    promises = fill_pool(s.persona.promise_accept, s.here)
    return _Plan((s.rot(promises, "promise"),), s.rot(promises, "extra"), s.tails)


# What the first half of a line of two may tell, to be met before the question after it is answered.
TELLS = frozenset({"thanks", "news", "plan", "feeling", "apology", "compliment", "warmth", "remark", "retraction"})


def _told_then_asked(s: Situation) -> tuple[str, str] | None:
    """A line that tells, then asks in its last sentence ('昇進決まってん！で、お祝いに飲み行かへん？'): its
    two halves; None for one thought (or a greeting first, which the plans greet back in kind)."""
    sentences = split_sentences(normalised(s.line))  # an emoji ends what came before it ('誕生日なの🎂 いつ？')
    if len(sentences) < 2 or not is_asking(sentences[-1]) or any(is_asking(t) for t in sentences[:-1]):
        return None
    if s.heard is not None and s.heard.question is not None and s.heard.question.kind == "choice":
        return None  # '沖縄と北海道で迷ってる〜 ニケちゃんならどっち？': the first half names the options
    if s.heard is not None and "question" not in s.heard.acts:
        return None  # '…一人暮らしなのよ。やっていけるかのう': wondered aloud, one worry (reading/feeling.py)
    return "".join(sentences[:-1]), sentences[-1]


def _plan_both(told: Situation, asked: Situation) -> _Plan | None:
    """What the told half is met with, then the answer to the asked half; None unless both are understood
    ('今日誕生日なの🎂 ニケちゃんは誕生日いつ？' → 'おめでとう！' + '10月10日だよ')."""
    if told.heard is None or told.heard.kind not in TELLS or asked.heard is None:
        return None
    if told.heard.kind == "news" and not (told.heard.mood or told.heard.emotions):
        return None  # plain news ('Yo、ニケ。', 'あれ何て犬種なんだろ。') is met by answering what it asks
    if asked.heard.question is not None and asked.heard.question.kind in (*VIEWS, "opinion"):
        return None  # '転職しようか迷ってて。ぶっちゃけどう思う？' asks its view of the first half: one thought
    met = answering.answered(told, told.heard)
    answer = answering.answered(asked, asked.heard) or (asked.answer.lines if asked.answer else None)
    if not met or not answer:
        return None
    hedges = {*fill_pool(asked.persona.answers.get("not_sure", ()), asked.said),
              *fill_pool(asked.persona.answers.get("unknown", ()), asked.said)}
    # a not-sure after the first half is noise; a yes/no said back after an apology is part of it
    # ('ごめん遅れた！待った？' is not answered 'うん、待ったよ'; 'ごめん、遅れた。大丈夫？' asks to be forgiven, not
    # after its health), a real question after one is answered
    said_back = told.heard.kind == "apology" and (asked.heard.kind == "concern" or (
        asked.heard.question is not None and bool(asked.heard.question.predicate)))
    if set(answer) <= hedges or said_back or set(answer) == set(met):  # '日曜の間違いだった。日曜は？': noted once
        return _Plan((told.rot(met, "told"),), [], [])
    return _Plan((told.rot(met, "told"), asked.rot(answer, "asked")), [], [])


_PLANS = {
    "reply": _plan_reply,
    "accept": _plan_accept,
    "farewell": _plan_farewell,
    "start": _plan_start,
    "promise_accept": _plan_promise,
}


def compose(
    purpose: str,
    *,
    persona: Persona,
    partner_name: str | None = None,
    partner_known: bool = False,
    partner_close: bool = False,
    last_line: str | None = None,
    place_name: str | None = None,
    previous_lines: Sequence[str] = (),
    said_today: Sequence[str] = (),
    max_length: int | None = None,
    seed: str = "",
    time_text: str | None = None,
    others: Sequence[str] = (),
    memory: Memory = Memory(),
    takes_offers: bool = True,
) -> str:
    """One in-world line for ``purpose``, answering ``last_line`` where it can.

    Pure and deterministic for the same arguments. A question in the
    partner's line is answered first (from the pack's facts and ``memory``);
    otherwise the line picks up a topic or place the partner mentioned. It
    never asks back what the partner just stated, is never one of
    ``previous_lines`` (ignoring spacing and an opening name), is one of ``said_today`` (its lines today to
    anyone) only once every other is, opens with the
    partner's name only on some seeds, and fits ``max_length`` (UTF-16 units,
    as the server counts; None means the server's usual 200). ``others`` are
    the names of the rest of the conversation (a question naming one of them
    is theirs to answer). ``takes_offers``: help or a gift the line offers is
    accepted with thanks (else declined with thanks), as the transfer policy says.
    """
    if purpose not in PURPOSES:
        raise ValueError(f"unknown speech purpose {purpose!r}; expected one of {sorted(PURPOSES)}")
    limit = DEFAULT_MAX_LENGTH if max_length is None else max_length
    if limit < 1:
        raise ValueError(f"max_length must be at least 1, got {max_length}")
    partner = address_name(partner_name, persona.honorific)

    def situated(line: str | None) -> Situation:
        return _situation(purpose, persona, last_line=line, place_label=place_label_of(place_name),
                          time_label=time_label_of(time_text), partner=partner, known=partner_known, seed=seed,
                          others=others, memory=memory, close=partner_close, takes_offers=takes_offers)

    situation = situated(last_line)
    halves = _told_then_asked(situation) if purpose in ("reply", "accept") else None
    # '昨日はありがとね。あ、今度の土曜空いとる？': each half answered, in order
    plan = (_plan_both(situated(halves[0]), situated(halves[1])) if halves is not None else None) \
        or _PLANS[purpose](situation)
    call = _calls_by_name(seed, group=bool(others))
    stated = statement_words(situation.line, persona)
    avoid = situation.answer.avoid if situation.answer else ()
    lines = (clean_text(_named(join_sentences(parts), partner, call)) for parts in _candidates(plan))
    used = {said_key(line) for line in previous_lines}
    guarded = situation.heard is not None and (situation.heard.troubled or situation.heard.ends_badly)
    if guarded:
        avoid = (*avoid, *cheer_words())  # bad news, worry, illness: never met with cheer
    fit = [line for line in lines if line and not asks_back(line, stated) and not any(word in line for word in avoid)]
    if guarded and not fit:  # every line it had cheered: care instead, in the pack's words
        fit = [clean_text(_named(line, partner, call)) for line in situation.lines_of("bad_news_plain", table="reactions")]
    return choose_line(fit, used, limit, said_today={said_key(line) for line in said_today})
