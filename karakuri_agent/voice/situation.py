"""What a line is about: the scene its templates are filled from, the situation a reply answers,
and the answer to a question asked (reading/question_kinds.py) from what the persona knows.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from karakuri_agent.mind.persona import Fact, Persona
from karakuri_agent.ja.sentences import is_asking, split_sentences
from karakuri_agent.ja.speech_words import (
    IT,
    LIKE_WORD,
    SUBJECT_FOLLOWERS,
    join_sentences,
    tidy_unnamed,
    usable_unnamed,
)
from karakuri_agent.domain.understanding import VIEWS, Understanding
from karakuri_agent.ja import listening_cues
from karakuri_agent.reading import morphemes
from karakuri_agent.reading.question_kinds import Question, asks_a_favour, asks_a_trait, asks_leave, names_a_question_word
from karakuri_agent.ja.word_classes import BEING_THERE, NOT_TOPICS, PAST
from karakuri_agent.voice.fitting import rotated
from karakuri_agent.voice.names import place_word_of
from karakuri_agent.voice.pickup import Pickup, stands_alone, vocabulary_of


@dataclass(frozen=True)
class Plan:
    """A promise ahead as an answer names it: where, at what time, and on which day from today."""

    place: str
    time: str  # 'HH:MM'
    days: int = 0  # 0 today, 1 tomorrow...
    weekday: int = 0  # of its day, Monday 0
    week: int = 0  # 0 this week (Monday to Sunday), 1 the next


@dataclass(frozen=True)
class Memory:
    """What the agent remembers that an answer may draw on: place names,
    the one it is at and the ones it went to lately (newest first)."""

    here: str = ""
    recent_places: tuple[str, ...] = ()
    known_places: tuple[str, ...] = ()
    today_places: tuple[str, ...] = ()  # where it went today (the world's day), newest first
    met_today: tuple[str, ...] = ()  # whom it talked with today
    plans: tuple[Plan, ...] = ()  # the promises ahead, soonest first
    talk: tuple[str, ...] = ()  # the conversation's lines before the one answered, oldest first
    arrived: tuple[tuple[str, str], ...] = ()  # (place, 'HH:MM') it was found at after being elsewhere today, newest first
    did_today: tuple[str, ...] = ()  # the actions it did today, by name, newest first


def _pickup_pool(pickup: Pickup | None, persona: Persona, scene: Scene) -> list[str]:
    if pickup is None:
        return []
    table = persona.by_topic if pickup.kind == "topic" else persona.by_place
    return fill_pool(table[pickup.key], scene)


@dataclass(frozen=True)
class Scene:
    """The values templates are filled with."""

    partner: str
    place: str
    topic: str
    time: str
    first_person: str

    def fill(self, template: str) -> str:
        text = template.format_map(vars(self))
        return tidy_unnamed(text) if not self.partner else text


def fill_pool(pool: Iterable[str], scene: Scene) -> list[str]:
    templates = list(pool)
    if not scene.partner:
        templates = [t for t in templates if usable_unnamed(t)] or templates
    filled = [scene.fill(t) for t in templates]
    return list(dict.fromkeys(t for t in filled if t))


@dataclass(frozen=True)
class Situation:
    """Everything a plan needs, read once from compose()'s arguments."""

    persona: Persona
    purpose: str
    seed: str
    known: bool
    close: bool
    pickup: Pickup | None
    kind: str | None
    place_key: str | None  # where the agent is, as a by_place key
    said: Scene  # {place}/{topic} are what the partner mentioned
    here: Scene  # {place} is where the agent is
    question: Question | None
    line: str  # the partner's line, cleaned
    memory: Memory
    heard: Understanding | None = None  # what the line is and is about (reading/hearing.py)
    takes_offers: bool = True  # help or a gift offered is accepted (the transfer policy says so), else declined

    def rot(self, pool: list[str], salt: str) -> list[str]:
        return rotated(pool, self.seed, f"{self.purpose}:{salt}")

    def filled(self, pool: Iterable[str], salt: str, **values: str) -> list[str]:
        """``pool``'s templates filled with what was said (and ``values``), in this seed's order."""
        return self.rot(fill_pool(pool, replace(self.said, **values)), salt)

    def lines_of(self, kind: str, table: str = "answers", **values: str) -> list[str]:
        """The pack's lines of ``table.kind`` (its `answers` or `reactions`), filled, in this seed's order."""
        pool = (self.persona.answers if table == "answers" else self.persona.reactions).get(kind, ())
        return self.filled(pool, f"{table}.{kind}", **values)

    @functools.cached_property
    def picked(self) -> list[str]:
        return _pickup_pool(self.pickup, self.persona, self.said)

    @functools.cached_property
    def reaction(self) -> list[str]:
        return fill_pool(self.persona.reactions.get(self.kind or "", ()), self.said)

    @functools.cached_property
    def tails(self) -> list[str]:
        return self.rot(fill_pool(self.persona.tails, self.here), "tail")

    @functools.cached_property
    def answer(self) -> _Answer | None:
        return _answer(self.question, self) if self.question else None


@dataclass(frozen=True)
class _Answer:
    """Sentences that answer, best first; what the agent may add of its own;
    words the line must not say (the options it did not pick)."""

    lines: list[str]
    own: list[str]
    avoid: tuple[str, ...] = ()


def _spoken(word: str, key: str, fact: Fact, text: str) -> str:
    """How a fact's subject is said: the line's word when it is a whole noun there ('小説'),
    else the key when the author listed it as a word, else the fact's first word."""
    from karakuri_agent.reading.morphemes import nouns

    if word in nouns(text):
        return word
    return key if key in fact.words else fact.words[0]


def find_fact(text: str, persona: Persona) -> tuple[str, Fact] | None:
    """The subject a line is about, as (the word the line used, its fact). A
    disliked subject wins ('ホラー映画' is about horror, not films), then the
    longest word, then the latest. The word is the line's, never the pack's
    key: a key ('books') is the author's label, not something to say."""
    best: tuple[tuple[bool, int, int], str, Fact] | None = None
    for key, fact in persona.facts.items():
        for word in fact.words:
            start = text.find(word)
            while start != -1:
                end = start + len(word)
                followed = text[end:end + 1]
                if stands_alone(text, start, word) or (
                        followed in SUBJECT_FOLLOWERS and stands_alone(text[:end], start, word)):
                    rank = (fact.likes is False, len(word), start)
                    if best is None or rank > best[0]:
                        best = (rank, _spoken(word, key, fact, text), fact)
                start = text.find(word, start + 1)
    return (best[1], best[2]) if best else None


def _combined(openers: list[str], follows: Sequence[str]) -> list[str]:
    """Each opener, then each follow-up sentence ('うん！' + '本が好きなんだ。')."""
    return [join_sentences((o, f)) for o in openers for f in (follows or ("",))]


def _favourite_place(s: Situation) -> str:
    """A favourite place, one this town has if the agent knows one."""
    known = [place_word_of(p) for p in s.memory.known_places]
    liked = list(s.persona.favourite_places)
    here = [p for p in liked if any(p in k for k in known)] or liked
    return s.rot(here, "favourite")[0] if here else ""


def pick_option(options: Sequence[str], s: Situation) -> str:
    """The option the persona likes best; among equals, one fixed by the seed."""
    def liking(option: str) -> tuple[int, bool]:
        """How well she likes it, then whether it is her fact's own first word: two options of one
        fact ('本' and '漫画' of books) go to the one its reasons are written about."""
        found = find_fact(option, s.persona)
        if found is None or found[1].likes is None:
            return 1, False
        return (2 if found[1].likes else 0), bool(found[1].words) and option == found[1].words[0]
    tasted = pick_by_taste(tuple(options), s)
    best = max(liking(o) for o in tasted)
    # Among equals, the same pick every time she is asked (her taste, not the notification's id).
    return rotated([o for o in tasted if liking(o) == best], s.persona.name, "choice:" + "|".join(sorted(options)))[0]


def time_side(text: str) -> str:
    """'morning' or 'night' when ``text`` names one of them alone, else ''."""
    night = any(w in text for w in listening_cues.NIGHT_WORDS)
    morning = any(w in text for w in listening_cues.MORNING_WORDS)
    return "" if morning == night else ("night" if night else "morning")


def pick_by_taste(options: tuple[str, ...], s: Situation) -> list[str]:
    """The options of a which-of question the pack's tastes prefer (all of them when it has none)."""
    tastes = s.persona.tastes
    favourites = set(tastes.favourites.values()) | set(tastes.likes) | set(tastes.pastimes)

    def score(option: str) -> int:
        side = time_side(option)
        if side and tastes.time_of_day:
            return 2 if side == tastes.time_of_day else 0
        if option in listening_cues.SEASONS and tastes.favourites.get("season"):
            return 2 if option in tastes.favourites["season"] else 0
        if any(option in f or f in option for f in favourites):
            return 2
        if any(option in d or d in option for d in tastes.dislikes):
            return 0
        return 1
    best = max(score(o) for o in options)
    return [o for o in options if score(o) == best]


def _answer(q: Question, s: Situation) -> _Answer:
    """What answers ``q``, from the pack's phrase sets, facts and the agent's memory."""
    answers = s.persona.answers

    def said(kind: str, **values: str) -> list[str]:
        return s.rot(fill_pool(answers.get(kind, ()), replace(s.said, **values)), kind)

    # Agreeing to a plan takes its reason from the plan, not from what was said before it.
    found = find_fact(q.text, s.persona) or (
        None if q.kind in ("invite", "allow") else find_fact(s.line, s.persona))
    key, fact = found if found else ("", Fact(words=()))
    reasons = s.rot(list(fact.reasons), "reason")
    details = s.rot(list(fact.details), "detail")
    done = s.rot(list(fact.recent), "recent")
    # A question about itself it has no answer to is said as such, not refused; one about the world is not known.
    about_itself = q.kind in ("like", "yesno", "choice") or _names_itself(q, s)  # 'ニケちゃんは何して遊んでた？'
    unknown = (said("not_sure") if about_itself else []) or said("unknown") or s.rot(s.reaction, "unknown")
    lines: list[str] = []
    avoid: tuple[str, ...] = ()
    recent = next(iter(s.memory.recent_places), "")
    if q.kind == "choice":
        picked = pick_option(q.options, s)
        avoid = tuple(o for o in q.options if o != picked)
        chosen = find_fact(picked, s.persona)
        why = list(chosen[1].reasons) if chosen and chosen[1].likes else []
        lines = _combined(said("choice", topic=picked), s.rot(why, "why"))
    elif q.kind in VIEWS:  # its view of the partner's own matter: the pack's modest guess, advice or suggestion
        lines = said(q.kind)
    elif q.kind == "opinion":
        lines = s.rot(s.reaction or fill_pool(s.persona.reactions.get("opinion", ()), s.said), "opinion")
    elif q.kind in ("why", "when", "where") and not _asks_of_itself(q, s):
        lines = said("unknown")  # 'お祭りっていつ？', 'にじってどうしてできるの？': the world's, not known
    elif q.kind in ("why", "when", "who", "who_with", "how", "what_up"):
        lines = said(q.kind)
    elif q.kind == "where_now" and s.memory.here:
        lines = said("where_now", place=place_word_of(s.memory.here))
    elif q.kind == "doing" and s.memory.here:
        lines = said("doing", place=place_word_of(s.memory.here))
    elif q.kind == "where_before" and recent:
        lines = _combined(said("yes") if q.detail else [""], said("where_before", place=place_word_of(recent)))
    elif q.kind == "where" and _favourite_place(s):
        place = _favourite_place(s)
        why = list(s.persona.facts[place].reasons) if place in s.persona.facts else []
        lines = _combined(said("where", place=place), s.rot(why, "why"))
    elif q.kind == "what":
        favourites = [d for f in s.persona.facts.values() if f.likes for d in f.details]
        lines = details or (s.rot(favourites, "favourites") if LIKE_WORD in q.text else [])
    elif q.kind == "yesno" and (asks_a_favour(q.text) or asks_leave(q.text)):
        lines = said("grant") or said("yes")  # 'あの漫画返してもらえる？': 'うん、いいよ！'
    elif q.kind == "yesno" and _been_today(q, s):
        # 'さっき駅の方にいなかった？' when it was: yes, where it was
        lines = _combined(said("yes"), said("where_before", place=_been_today(q, s)))
    elif fact.likes is False:
        opener = {"like": "dislike", "invite": "decline", "allow": "decline"}.get(q.kind, "no")
        lines = _combined(said(opener, topic=key), reasons)
    elif q.kind == "allow":  # the partner has something to say: let them
        return _Answer(said("allow") or unknown, [])
    elif q.kind == "yesno" and listening_cues.KNOWS_ASKED.search(q.text) and not fact.words:
        lines = said("unknown")  # '新メニューってなにか知ってる？': it does not
    elif q.kind == "yesno" and not (fact.words or reasons or details) and s.heard is not None \
            and s.heard.subject == "agent" and asks_a_trait(q.text):
        # '乗り物酔いするほう？', '寂しくなることありますか？', 'ジェットコースター乗れる？': what kind of one it is,
        # which no fact of the pack says: a person who never thought about it, not a made-up 'うん、乗れるよ！'
        lines = said("not_sure")
    elif q.kind == "yesno" and not (fact.words or reasons or details) and names_a_question_word(q.text):
        lines = said("not_sure")  # 'なんて締めたらいいべ？', '何味が好いとう？': a what asked, which a bare yes never answers
    elif q.kind in ("like", "invite", "yesno"):
        opener = {"like": "like", "invite": "agree"}.get(q.kind, "yes")
        # Agreeing to a plan is the whole thought; a yes carries its reason.
        # (with what the pack says of the place or thing invited to, when it has something).
        # (never what it says of a time named: '今度' → 'うん、また今度ね！' reads as putting the plan off)
        invited = s.picked if s.pickup is not None and s.pickup.key not in NOT_TOPICS else []
        follows = invited if q.kind == "invite" else (done if q.past else []) or reasons or details
        if q.detail:  # "何か読んだ？" wants the thing: what was read lately (where it was, only for a past)
            follows = done or details or (said("where_before", place=place_word_of(recent)) if recent and q.past else [])
        echoed = said("yes_echo", topic=q.predicate) if q.kind == "yesno" and q.predicate and not follows \
            and not q.detail else []  # 'なんか…ある？' wants the thing, not 'あるよ
        # A bare 'うん' says nothing of what was asked: the question's own predicate is said back
        # ('こわくなかった？' → 'うん、ちょっとこわかったよ'), where the pack has the words for it.
        # 'ピーマン すき？' → 'うん、ピーマン好きだよ！': the thing asked of named, not 'それ'
        asked = listening_cues.LIKE_TAIL.sub("", s.heard.topic) if q.kind == "like" and s.heard is not None \
            and not s.heard.phrase else ""
        if not (0 < len(asked) <= LIKED_THING_CHARS and listening_cues.liked_as_asked(asked, q.text)):
            asked = ""  # the end of a longer phrase ('...冷えた空気、好き？') is not said back
        # an invitation joined says what it wants to do, where the line's verb was read ('行かん？' → '行きたいな！')
        wanted = s.heard.wanted if q.kind == "invite" and s.heard is not None else ""
        agreed = (said("agree_to", topic=wanted) if wanted else []) or said(opener, topic=key or asked or IT)
        lines = echoed or _combined(agreed, follows)
    # After agreeing to a plan, proposing it again or asking the partner's
    # view of it would echo it.
    # One line, one thought: nothing of its own follows the answer.
    return _Answer(lines or unknown, [], avoid)


def _been_today(q: Question, s: Situation) -> str:
    """A place it was at today that a yes/no names ('さっき駅の方にいなかった？', '今日図書館行ってた？'), ''."""
    from karakuri_agent.reading.morphemes import words

    found = words(q.text)
    if not (any(w.lemma in BEING_THERE for w in found) and any(w.lemma == PAST for w in found)):
        return ""  # '駅って近い？' asks nothing of where it was
    places = (place_word_of(p) for p in s.memory.today_places if p)
    return next((p for p in places if p and p in q.text), "")


# The longest thing asked of that a like answer names ('冬の朝のキーンと冷えた空気' is said as 'それ').
LIKED_THING_CHARS = 8


def _asks_of_itself(q: Question, s: Situation) -> bool:
    """Whether a why/when/where question asks about the agent (named, 'あなた', its tastes, its time:
    'なんで本が好きなの？', 'いつ空いてる？'), not about the world ('時計台ってなんでずれるの？')."""
    return _names_itself(q, s) or bool(listening_cues.OWN_TIME.search(q.text))


def _names_itself(q: Question, s: Situation) -> bool:
    """Whether a question names the agent ('ニケちゃんは', 'にけちゃん', 'あなた') or its tastes ('好き')."""
    return any(n in q.text for n in morphemes.name_forms((s.persona.short_name, s.persona.name))) \
        or bool(listening_cues.YOU.search(q.text)) or LIKE_WORD in q.text


def statement_words(line: str, persona: Persona) -> frozenset[str]:
    """Every word for a subject the partner stated (not asked) something about,
    so the agent never asks it back ('新刊が入った' -> no '新しい本入ってるかな？')."""
    stated = "".join(part for part in split_sentences(line) if not is_asking(part))
    if not stated:
        return frozenset()
    words: set[str] = set()
    for fact in persona.facts.values():
        if any(w in stated for w in fact.words):
            words.update(fact.words)
    for surface, kind, key in vocabulary_of(persona):
        if surface in stated:
            words.update(s for s, k, target in vocabulary_of(persona) if (k, target) == (kind, key))
    return frozenset(words)


def asks_back(text: str, words: frozenset[str]) -> bool:
    """Whether a line asks about something the partner just stated."""
    return any(w in part for part in split_sentences(text) if is_asking(part) for w in words)
