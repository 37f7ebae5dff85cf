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
chat markup before use.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from karakuri_agent.ja import places
from karakuri_agent.ja.phrases import DEFAULT_HONORIFIC
from karakuri_agent.ja.safety import clean_text
from karakuri_agent.ja.sentences import split_sentences
from karakuri_agent.ja.speech import (
    ADDRESS,
    AFTER_NOUN,
    APOLOGY,
    BRACKET_TAG,
    BRACKETED_LABEL,
    CLOSERS,
    CONTENT_RUN,
    ECHOES,
    FAMILY_GIVEN,
    GREETING,
    HERE,
    HONORIFICS,
    IT,
    LAST_RESORT,
    LIKE_WORD,
    OPINION,
    PAUSE,
    PERSON_NAME,
    QUESTION,
    REQUEST,
    SUBJECT,
    SUBJECT_FOLLOWERS,
    TERMINATORS,
    THANKS,
    THAT_TIME,
    THERE,
    TIME_PARTICLE,
    WHEN_WORDS,
    addressed,
    is_asking,
    is_kanji,
    join_sentences,
    tidy_unnamed,
    usable_unnamed,
)
from karakuri_agent.params import utf16_units
from karakuri_agent.reading.questions import Question, read_question
from karakuri_agent.voice.persona import LONGEST_LABEL, LONGEST_NAME, MESSAGE_UNITS, Fact, Persona

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

PURPOSES = frozenset({"accept", "reply", "farewell", "start", "promise_accept"})
# The server's maxLength for a conversation message (CONTRACT §2 example).
DEFAULT_MAX_LENGTH = MESSAGE_UNITS

# How many candidates a tiny max_length may cut shorter before giving up.
_SHORTER_TRIES = 40
_NAME_CAP = LONGEST_NAME
_LABEL_CAP = LONGEST_LABEL


# ---------------------------------------------------------------------------
# What the agent remembers
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Memory:
    """What the agent remembers that an answer may draw on: place names,
    the one it is at and the ones it went to lately (newest first)."""

    here: str = ""
    recent_places: tuple[str, ...] = ()
    known_places: tuple[str, ...] = ()


# ---------------------------------------------------------------------------
# Cleaning what comes from outside
# ---------------------------------------------------------------------------


_BOT_TAG = re.compile(r"[\W_]*(?:(?<![A-Za-z])[Bb][Oo][Tt]|(?<=[a-z])B[Oo][Tt])$")


def _strip_decorations(name: str) -> str:
    """'Luna☆Bot' -> 'Luna', '【公式】メイ♪' -> 'メイ'."""
    name = BRACKET_TAG.sub("", name).strip()
    name = _BOT_TAG.sub("", name).strip() or name
    name = "".join(ch for ch in name if unicodedata.category(ch) not in ("So", "Sk", "Sm"))
    name = name.replace("\u200d", "").replace("\ufe0f", "")
    while name and unicodedata.category(name[0])[0] in "PZ":
        name = name[1:]
    while name and unicodedata.category(name[-1])[0] in "PZ":
        name = name[:-1]
    return name


def address_name(name: str | None, honorific: str = DEFAULT_HONORIFIC) -> str:
    """How the agent calls someone: 'メイさん', 'コウくん', 'Lunaさん'; '' if unusable.

    ``honorific`` is the persona's (a pack may say 'くん', '様' or nothing).

    A kanji family name followed by a kana given name is shortened to the
    given name, the way the town's people call each other ('桜草メイ' ->
    'メイさん'). An honorific already there is kept, never doubled.
    """
    if not name:
        return ""
    bare = _strip_decorations(clean_text(name))
    if not bare:
        return ""
    if bare.endswith(HONORIFICS):
        return _cut_units(bare, _NAME_CAP)
    given = FAMILY_GIVEN.match(bare)
    if given:
        bare = given.group(1)
    return _cut_units(bare, _NAME_CAP - len(honorific)) + honorific


def _place_label(place_name: str | None) -> str:
    """'6-11 (喫茶店 店内)' -> '喫茶店'; '本屋「栞」' stays as it is."""
    if not place_name:
        return ""
    label = clean_text(place_name)
    label = re.sub(r"^\d+-\d+\s*", "", label)
    inner = BRACKETED_LABEL.fullmatch(label)
    if inner:
        label = inner.group(1)
    return _cut_units(label.strip(), _LABEL_CAP)


def _time_label(time_text: str | None) -> str:
    """'18時に' -> '18時' so templates can say '{time}に' without doubling it."""
    if not time_text:
        return ""
    label = clean_text(time_text).rstrip(TIME_PARTICLE)
    return _cut_units(label, _LABEL_CAP)


# ---------------------------------------------------------------------------
# Reading the partner's line
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Pickup:
    kind: str  # "topic" or "place"
    key: str  # the pack's key, whose templates answer it
    text: str  # what the line will say: the word as the partner wrote it


def _is_word(surface: str) -> bool:
    return any(unicodedata.category(ch)[0] == "L" for ch in surface)


def _stands_alone(line: str, start: int, surface: str) -> bool:
    """A one-kanji keyword ('本', '雨') counts only outside a longer word
    ('本屋', '本当', '日本', '大雨')."""
    if len(surface) > 1 or not is_kanji(surface):
        return True
    before = line[start - 1] if start > 0 else ""
    after = line[start + 1] if start + 1 < len(line) else ""
    return not (is_kanji(before) or is_kanji(after))


def _vocabulary(persona: Persona) -> Iterator[tuple[str, str, str]]:
    """(surface, kind, key) for every keyword the pack can answer."""
    for key in persona.by_topic:
        yield key, "topic", key
    for alias, key in persona.topic_aliases.items():
        yield alias, "topic", key
    for key in persona.by_place:
        if key != "_default":
            yield key, "place", key
    for alias, key in persona.place_aliases.items():
        yield alias, "place", key


def _find_pickup(line: str | None, persona: Persona,
                 kinds: frozenset[str] = frozenset({"topic", "place"})) -> _Pickup | None:
    """The keyword the partner's line ends on, if the pack knows one.

    The latest mention wins because a Japanese line usually puts its point
    last ('それより腹減った'); words beat emoji; longer beats shorter.
    """
    if not line:
        return None
    text = clean_text(line)
    best: tuple[tuple[bool, int, int], _Pickup] | None = None
    for surface, kind, key in _vocabulary(persona):
        if kind not in kinds:
            continue
        start = text.find(surface)
        while start != -1:
            if _stands_alone(text, start, surface):
                word = _is_word(surface)
                rank = (word, start + len(surface), len(surface))
                if best is None or rank > best[0]:
                    best = (rank, _Pickup(kind, key, surface if word else key))
            start = text.find(surface, start + 1)
    return best[1] if best else None


def pick_topic(line: str | None, persona: Persona) -> str | None:
    """The topic or place word a reply to ``line`` will pick up, or None.

    It is a word from the pack that occurs in the line (an emoji is
    returned as its word, e.g. '🍙' -> 'おにぎり'), and compose() puts it in
    the reply, so `pick_topic(x) in compose("reply", last_line=x, ...)` can
    be measured.
    """
    found = _find_pickup(line, persona)
    return found.text if found else None


def _line_kind(line: str | None) -> str | None:
    """What sort of line it is, to choose a fitting reaction."""
    if not line:
        return None
    text = clean_text(line)
    for kind, pattern in (
        ("apology", APOLOGY), ("thanks", THANKS),
        ("opinion", OPINION), ("question", QUESTION), ("greeting", GREETING),
    ):
        if pattern.search(text):
            return kind
    return None


# ---------------------------------------------------------------------------
# Filling templates
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scene:
    """The values templates are filled with."""

    partner: str
    place: str
    topic: str
    time: str
    first_person: str

    def fill(self, template: str) -> str:
        text = template.format_map(vars(self))
        return tidy_unnamed(text) if not self.partner else text


def _fill_pool(pool: Iterable[str], scene: _Scene) -> list[str]:
    templates = list(pool)
    if not scene.partner:
        templates = [t for t in templates if usable_unnamed(t)] or templates
    filled = [scene.fill(t) for t in templates]
    return list(dict.fromkeys(t for t in filled if t))


def _named(text: str, partner: str, call: bool) -> str:
    """Open with the partner's name when ``call`` says so and the line does not
    already name them: people do not start every sentence with a name."""
    if not call or not partner or partner in text:
        return text
    return addressed(partner, text)


def _calls_by_name(seed: str, group: bool) -> bool:
    """Whether this line opens with the name: in a group most lines do, so it
    is clear who is answered; face to face only about one in three."""
    return _stable_index(seed, "name", 3) < (2 if group else 1)


# ---------------------------------------------------------------------------
# Fitting a length
# ---------------------------------------------------------------------------


def _cut_units(text: str, limit: int) -> str:
    """The longest prefix within ``limit`` units, never splitting a character
    or leaving a dangling emoji joiner or variation selector."""
    out, used = [], 0
    for ch in text:
        width = 2 if ord(ch) > 0xFFFF else 1
        if used + width > limit:
            break
        out.append(ch)
        used += width
    cut = "".join(out)
    while cut and (cut[-1] in "\u200d\ufe0f " or unicodedata.combining(cut[-1])):
        cut = cut[:-1]
    return cut


def _sentence_ends(text: str) -> Iterator[int]:
    """Indices just after a sentence ends ('！？' and a closing '」' stay with it)."""
    for i, ch in enumerate(text):
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if ch in TERMINATORS and nxt not in TERMINATORS + CLOSERS:
            yield i + 1
        elif (ch in CLOSERS and i > 0 and text[i - 1] in TERMINATORS + CLOSERS
              and nxt not in TERMINATORS + CLOSERS):
            yield i + 1


def _fit(text: str, max_length: int) -> tuple[str, bool]:
    """``text`` within ``max_length`` units, and whether it still reads as
    whole sentences: whole sentences if one fits, else up to a comma (shown
    as '…'), else a clean cut. Never empty."""
    if utf16_units(text) <= max_length:
        return text, True
    whole = [i for i in _sentence_ends(text) if utf16_units(text[:i]) <= max_length]
    if whole:
        return text[: whole[-1]], True
    commas = [i for i, ch in enumerate(text) if ch == PAUSE and utf16_units(text[: i + 1]) <= max_length]
    if commas and commas[-1] > 0:
        return text[: commas[-1]] + "…", False
    return _cut_units(text, max_length) or "…", False


# ---------------------------------------------------------------------------
# Choosing among variants
# ---------------------------------------------------------------------------


def _stable_index(seed: str, salt: str, size: int) -> int:
    """A choice that is the same on every run and machine (hash() is salted)."""
    digest = hashlib.sha256(f"{seed}\x1f{salt}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % size


def _rotated(items: Sequence[str], seed: str, salt: str) -> list[str]:
    if not items:
        return []
    k = _stable_index(seed, salt, len(items))
    return list(items[k:]) + list(items[:k])


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


def said_key(line: str) -> str:
    """What two lines are compared by to tell whether one was already said: no
    whitespace and no opening name. Spacing changes nothing in Japanese, and
    'メイさん、またね' says what 'またね' says. The gate compares by it too."""
    return ADDRESS.sub("", "".join(line.split()), count=1)


def _choose(lines: Iterable[str], used: set[str], max_length: int) -> str:
    """The first line not said before that fits as whole sentences; else the
    first one cut to fit; for a tiny max_length with all of them used, a
    shorter cut or a one-word line still says something new."""
    seen: list[str] = []
    first_cut: str | None = None
    for line in lines:
        fitted, whole = _fit(line, max_length)
        if said_key(fitted) not in used:
            if whole:
                return fitted
            first_cut = first_cut or fitted
        seen.append(line)
    if first_cut:
        return first_cut
    for line in list(dict.fromkeys(seen))[:_SHORTER_TRIES]:
        for limit in range(min(max_length, utf16_units(line)) - 1, 0, -1):
            shorter = _cut_units(line, limit)
            if shorter and said_key(shorter) not in used:
                return shorter
    for word in LAST_RESORT:
        if utf16_units(word) <= max_length and said_key(word) not in used:
            return word
    return _fit(seen[0], max_length)[0] if seen else "…"


# ---------------------------------------------------------------------------
# Plans per purpose
# ---------------------------------------------------------------------------


def _place_key(label: str, persona: Persona) -> str | None:
    """The by_place key a place label belongs to ('喫茶店「さくら」' -> '喫茶店')."""
    found = _find_pickup(label, persona, frozenset({"place"}))
    return found.key if found else None


def _pickup_pool(pickup: _Pickup | None, persona: Persona, scene: _Scene) -> list[str]:
    if pickup is None:
        return []
    table = persona.by_topic if pickup.kind == "topic" else persona.by_place
    return _fill_pool(table[pickup.key], scene)


def _chat_pool(persona: Persona, scene: _Scene, place_key: str | None) -> list[str]:
    """Small talk for when the partner's line gives nothing to pick up."""
    pool = list(persona.reactions["default"]) + list(persona.by_place["_default"])
    if place_key:
        pool += persona.by_place[place_key]
    return _fill_pool(pool, scene)


def _greetings(persona: Persona, scene: _Scene, known: bool, close: bool = False) -> list[str]:
    """Greetings by how well the agent knows the partner: never はじめまして to someone known."""
    if close and persona.greetings.get("close"):
        return _fill_pool(persona.greetings["close"], scene)
    return _fill_pool(persona.greetings["known" if known else "first_meeting"], scene)


@dataclass(frozen=True)
class _Situation:
    """Everything a plan needs, read once from compose()'s arguments."""

    persona: Persona
    purpose: str
    seed: str
    known: bool
    close: bool
    pickup: _Pickup | None
    kind: str | None
    place_key: str | None  # where the agent is, as a by_place key
    said: _Scene  # {place}/{topic} are what the partner mentioned
    here: _Scene  # {place} is where the agent is
    question: Question | None
    line: str  # the partner's line, cleaned
    echo: str | None  # a word of the partner's line to take up when the pack knows none of its words
    memory: Memory

    def rot(self, pool: list[str], salt: str) -> list[str]:
        return _rotated(pool, self.seed, f"{self.purpose}:{salt}")

    @functools.cached_property
    def picked(self) -> list[str]:
        return _pickup_pool(self.pickup, self.persona, self.said)

    @functools.cached_property
    def echoed(self) -> list[str]:
        if not self.echo:
            return []
        return _fill_pool(ECHOES, replace(self.said, topic=self.echo))

    @functools.cached_property
    def reaction(self) -> list[str]:
        return _fill_pool(self.persona.reactions.get(self.kind or "", ()), self.said)

    @functools.cached_property
    def tails(self) -> list[str]:
        return self.rot(_fill_pool(self.persona.tails, self.here), "tail")

    @functools.cached_property
    def answer(self) -> _Answer | None:
        return _answer(self.question, self) if self.question else None


def _situation(purpose: str, persona: Persona, *, last_line: str | None, place_label: str,
               time_label: str, partner: str, known: bool, seed: str, others: Sequence[str],
               memory: Memory, close: bool = False) -> _Situation:
    pickup = _find_pickup(last_line, persona)
    here_place = place_label or (THERE if purpose == "promise_accept" else HERE)
    if purpose == "promise_accept" and not place_label and pickup and pickup.kind == "place":
        here_place = pickup.text  # the meeting place the partner just named
    here = _Scene(partner, here_place, IT, time_label or THAT_TIME, persona.first_person)
    said = _Scene(
        partner,
        pickup.text if pickup and pickup.kind == "place" else here.place,
        pickup.text if pickup and pickup.kind == "topic" else here.topic,
        here.time,
        persona.first_person,
    )
    line = clean_text(last_line or "")
    question = read_question(
        line, own_names=(persona.short_name, persona.name),
        other_names=tuple(filter(None, (_given_name(o) for o in others))),
    ) if purpose != "promise_accept" else None
    return _Situation(
        persona=persona, purpose=purpose, seed=seed, known=known, close=close and known, pickup=pickup,
        kind=_line_kind(last_line),
        place_key=_place_key(place_label, persona) if place_label else None,
        said=said, here=here, question=question, line=line,
        echo=None if pickup else echo_word(line, names=(partner, persona.name, persona.short_name, *others)),
        memory=replace(memory, here=memory.here or place_label),
    )


def echo_word(line: str, *, names: Iterable[str | None] = ()) -> str | None:
    """The last content word of ``line`` (a kanji or katakana run), not a name, or None.

    A Japanese line puts its point last ('コンビニの前で猫が昼寝してた' → 昼寝).
    A line that asks the agent to do something gives none.
    A kanji run must end where a noun ends (before の, を, し ...), so a verb
    stem or half a word (夕焼 of 夕焼け) is never taken up.
    """
    if any(REQUEST.search(part) for part in split_sentences(line)):
        return None  # a request's words are not taken up: the agent repeats no one's instructions
    known = [n for n in names if n and len(n) >= 2]
    found = None
    for match in CONTENT_RUN.finditer(line):
        word, after = match.group(), line[match.end():match.end() + 1]
        next_two = line[match.end():match.end() + 2]
        if is_kanji(word[-1]) and after and after not in AFTER_NOUN and not SUBJECT.match(next_two):
            continue
        if word in WHEN_WORDS:
            continue
        if PERSON_NAME.match(word) or any(word in name or name in word for name in known):
            continue
        found = word
    return found


# ---------------------------------------------------------------------------
# Answering a question
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Answer:
    """Sentences that answer, best first; what the agent may add of its own;
    words the line must not say (the options it did not pick)."""

    lines: list[str]
    own: list[str]
    avoid: tuple[str, ...] = ()


def _given_name(name: str) -> str:
    """'黒瀬コウ' -> 'コウ', 'コウくん' -> 'コウ': how a line names someone."""
    called = address_name(name)
    for honorific in sorted(HONORIFICS, key=len, reverse=True):
        if called.endswith(honorific):
            return called[: -len(honorific)]
    return called


def _find_fact(text: str, persona: Persona) -> tuple[str, Fact] | None:
    """The subject a line is about. A disliked subject wins ('ホラー映画' is
    about horror, not films), then the longest word, then the latest."""
    best: tuple[tuple[bool, int, int], str, Fact] | None = None
    for key, fact in persona.facts.items():
        for word in fact.words:
            start = text.find(word)
            while start != -1:
                end = start + len(word)
                followed = text[end:end + 1]
                if _stands_alone(text, start, word) or (
                        followed in SUBJECT_FOLLOWERS and _stands_alone(text[:end], start, word)):
                    rank = (fact.likes is False, len(word), start)
                    if best is None or rank > best[0]:
                        best = (rank, key, fact)
                start = text.find(word, start + 1)
    return (best[1], best[2]) if best else None


def _combined(openers: list[str], follows: Sequence[str]) -> list[str]:
    """Each opener, then each follow-up sentence ('うん！' + '本が好きなんだ。')."""
    return [join_sentences((o, f)) for o in openers for f in (follows or ("",))]


def _place_word(name: str) -> str:
    """'本屋 店内' -> '本屋': the building, as people say it."""
    label = _place_label(name)
    return places.building(label) if label else ""


def _favourite_place(s: _Situation) -> str:
    """A favourite place, one this town has if the agent knows one."""
    known = [_place_word(p) for p in s.memory.known_places]
    liked = list(s.persona.favourite_places)
    here = [p for p in liked if any(p in k for k in known)] or liked
    return s.rot(here, "favourite")[0] if here else ""


def _pick_option(options: Sequence[str], s: _Situation) -> str:
    """The option the persona likes best; among equals, one fixed by the seed."""
    def liking(option: str) -> int:
        found = _find_fact(option, s.persona)
        return 1 if found is None or found[1].likes is None else (2 if found[1].likes else 0)
    best = max(liking(o) for o in options)
    return s.rot([o for o in options if liking(o) == best], "choice")[0]


def _answer(q: Question, s: _Situation) -> _Answer:
    """What answers ``q``, from the pack's phrase sets, facts and the agent's memory."""
    answers = s.persona.answers

    def said(kind: str, **values: str) -> list[str]:
        return s.rot(_fill_pool(answers.get(kind, ()), replace(s.said, **values)), kind)

    # Agreeing to a plan takes its reason from the plan, not from what was said before it.
    found = _find_fact(q.text, s.persona) or (
        None if q.kind in ("invite", "allow") else _find_fact(s.line, s.persona))
    key, fact = found if found else ("", Fact(words=()))
    reasons = s.rot(list(fact.reasons), "reason")
    details = s.rot(list(fact.details), "detail")
    done = s.rot(list(fact.recent), "recent")
    unknown = said("unknown") or s.rot(s.reaction, "unknown")
    lines: list[str] = []
    avoid: tuple[str, ...] = ()
    recent = next(iter(s.memory.recent_places), "")
    if q.kind == "choice":
        picked = _pick_option(q.options, s)
        avoid = tuple(o for o in q.options if o != picked)
        chosen = _find_fact(picked, s.persona)
        why = list(chosen[1].reasons) if chosen and chosen[1].likes else []
        lines = _combined(said("choice", topic=picked), s.rot(why, "why"))
    elif q.kind == "opinion":
        lines = s.rot(s.reaction or _fill_pool(s.persona.reactions.get("opinion", ()), s.said), "opinion")
    elif q.kind in ("why", "when", "who", "who_with", "how", "what_up"):
        lines = said(q.kind)
    elif q.kind == "where_now" and s.memory.here:
        lines = said("where_now", place=_place_word(s.memory.here))
    elif q.kind == "doing" and s.memory.here:
        lines = said("doing", place=_place_word(s.memory.here))
    elif q.kind == "where_before" and recent:
        lines = _combined(said("yes") if q.detail else [""], said("where_before", place=_place_word(recent)))
    elif q.kind == "where" and _favourite_place(s):
        place = _favourite_place(s)
        why = s.persona.facts[place].reasons if place in s.persona.facts else ()
        lines = _combined(said("where", place=place), s.rot(list(why), "why"))
    elif q.kind == "what":
        favourites = [d for f in s.persona.facts.values() if f.likes for d in f.details]
        lines = details or (s.rot(favourites, "favourites") if LIKE_WORD in q.text else [])
    elif fact.likes is False:
        opener = {"like": "dislike", "invite": "decline", "allow": "decline"}.get(q.kind, "no")
        lines = _combined(said(opener, topic=key), reasons)
    elif q.kind == "allow":  # the partner has something to say: let them
        return _Answer(said("allow") or unknown, [])
    elif q.kind in ("like", "invite", "yesno"):
        opener = {"like": "like", "invite": "agree"}.get(q.kind, "yes")
        follows = (done if q.past else []) or reasons or details
        if q.detail:  # "何か読んだ？" wants the thing: what was read lately
            follows = done or details or (said("where_before", place=_place_word(recent)) if recent else [])
        lines = _combined(said(opener, topic=key or IT), follows)
    # After agreeing to a plan, proposing it again or asking the partner's
    # view of it would echo it.
    invited = q.kind == "invite"
    more = list(fact.more) if fact.likes is not False and not invited else []
    own = [*s.rot(more, "more"), *([] if invited else said("ask_back"))]
    own += s.rot(_fill_pool(s.persona.by_place["_default"], s.here), "chat")
    return _Answer(lines or unknown, own, avoid)


def _statement_words(line: str, persona: Persona) -> frozenset[str]:
    """Every word for a subject the partner stated (not asked) something about,
    so the agent never asks it back ('新刊が入った' -> no '新しい本入ってるかな？')."""
    stated = "".join(part for part in split_sentences(line) if not is_asking(part))
    if not stated:
        return frozenset()
    words: set[str] = set()
    for fact in persona.facts.values():
        if any(w in stated for w in fact.words):
            words.update(fact.words)
    for surface, kind, key in _vocabulary(persona):
        if surface in stated:
            words.update(s for s, k, target in _vocabulary(persona) if (k, target) == (kind, key))
    return frozenset(words)


def _asks_back(text: str, words: frozenset[str]) -> bool:
    """Whether a line asks about something the partner just stated."""
    return any(w in part for part in split_sentences(text) if is_asking(part) for w in words)


# ---------------------------------------------------------------------------
# Plans per purpose
# ---------------------------------------------------------------------------


def _plan_reply(s: _Situation) -> _Plan:
    """Answer a question first, then at most one thing of the agent's own.
    Otherwise pick up the partner's topic; else react to the kind of line;
    else chat. Once those are used up, the best pool is combined with the others."""
    if s.answer:
        return _Plan((s.rot(s.answer.lines, "answer"), s.rot(["", *s.answer.own], "own")), [], s.tails)
    chat = _chat_pool(s.persona, s.here, s.place_key)
    primary = s.picked or s.echoed or s.reaction or chat
    rest = [pool for pool in (s.reaction, chat) if pool and pool is not primary] or [primary]
    extras = [line for i, pool in enumerate(rest) for line in s.rot(pool, f"extra{i}")]
    return _Plan((s.rot(primary, "main"),), extras, s.tails)


def _plan_accept(s: _Situation) -> _Plan:
    """Greet, take up what the request said (an apology, a topic), then say
    yes, or answer the question it asked (which says yes when it asked leave)."""
    apology = s.kind in ("apology", "thanks")
    if s.answer:
        middle = (s.picked or s.reaction) if apology else []
        agree = s.answer.lines
    else:  # a greeting is already answered by the greeting slot
        middle = [] if s.kind == "greeting" else s.picked or (s.reaction if apology else [])
        agree = _fill_pool(s.persona.accept, s.said)
    return _Plan(
        (s.rot(_greetings(s.persona, s.said, s.known, s.close), "greet"), s.rot(middle, "pick"),
         s.rot(agree, "accept")),
        s.rot(_fill_pool(s.persona.reactions["default"], s.said), "extra"),
        s.tails,
    )


def _plan_farewell(s: _Situation) -> _Plan:
    farewells = _fill_pool(s.persona.farewells, s.said)
    first = s.answer.lines if s.answer else s.picked
    return _Plan((s.rot(first, "pick"), s.rot(farewells, "bye")),
                 s.rot(farewells, "extra"), s.tails)


def _plan_start(s: _Situation) -> _Plan:
    body = s.picked or _fill_pool(s.persona.conversation_start, s.here)
    if not s.picked and s.place_key:
        body += _fill_pool(s.persona.by_place[s.place_key], s.here)
    return _Plan(
        (s.rot(_greetings(s.persona, s.here, s.known, s.close), "greet"), s.rot(body, "body")),
        s.rot(_fill_pool(s.persona.by_place["_default"], s.here), "extra"),
        s.tails,
    )


def _plan_promise(s: _Situation) -> _Plan:
    promises = _fill_pool(s.persona.promise_accept, s.here)
    return _Plan((s.rot(promises, "promise"),), s.rot(promises, "extra"), s.tails)


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
    max_length: int | None = None,
    seed: str = "",
    time_text: str | None = None,
    others: Sequence[str] = (),
    memory: Memory = Memory(),
) -> str:
    """One in-world line for ``purpose``, answering ``last_line`` where it can.

    Pure and deterministic for the same arguments. A question in the
    partner's line is answered first (from the pack's facts and ``memory``);
    otherwise the line picks up a topic or place the partner mentioned. It
    never asks back what the partner just stated, is never one of
    ``previous_lines`` (ignoring spacing and an opening name), opens with the
    partner's name only on some seeds, and fits ``max_length`` (UTF-16 units,
    as the server counts; None means the server's usual 200). ``others`` are
    the names of the rest of the conversation (a question naming one of them
    is theirs to answer).
    """
    if purpose not in PURPOSES:
        raise ValueError(f"unknown speech purpose {purpose!r}; expected one of {sorted(PURPOSES)}")
    limit = DEFAULT_MAX_LENGTH if max_length is None else max_length
    if limit < 1:
        raise ValueError(f"max_length must be at least 1, got {max_length}")
    partner = address_name(partner_name, persona.honorific)
    situation = _situation(
        purpose, persona, last_line=last_line, place_label=_place_label(place_name),
        time_label=_time_label(time_text), partner=partner, known=partner_known, seed=seed,
        others=others, memory=memory, close=partner_close,
    )
    plan = _PLANS[purpose](situation)
    call = _calls_by_name(seed, group=bool(others))
    stated = _statement_words(situation.line, persona)
    avoid = situation.answer.avoid if situation.answer else ()
    lines = (clean_text(_named(join_sentences(parts), partner, call)) for parts in _candidates(plan))
    used = {said_key(line) for line in previous_lines}
    return _choose((line for line in lines if line and not _asks_back(line, stated)
                    and not any(word in line for word in avoid)), used, limit)
