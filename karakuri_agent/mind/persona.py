"""The character as data: its voice's phrase pools, what it knows, the knobs of its rules.

Read and checked from a pack by voice/persona_pack.py; every room that speaks or
decides reads these types, so they live with the other shared types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from karakuri_agent.behaviour.spec import Behaviour


Pool = tuple[str, ...]


@dataclass(frozen=True)
class Fact:
    """Something the persona can say about itself on one subject.

    ``likes`` answers a yes/no question on the subject (None: no opinion);
    ``reasons`` follow a yes or a no, ``details`` answer "what/which",
    ``recent`` answers "did you ... anything?", and ``more`` is something of
    its own to add after answering.
    """

    words: Pool
    likes: bool | None = None
    reasons: Pool = ()
    details: Pool = ()
    recent: Pool = ()
    more: Pool = ()


@dataclass(frozen=True)
class Habit:
    """Something the character does or does not do, and how it says so.

    A yes/no question whose words hold one of ``words`` ('家にいる派？') is
    answered yes when ``does`` (no otherwise), then with ``say``.
    """

    words: Pool
    does: bool
    say: Pool = ()


@dataclass(frozen=True)
class Tastes:
    """What the character likes, dislikes and does, to answer questions about itself truly.

    ``favourites`` maps a kind (food, drink, place,
    season, colour, pastime) to the thing ('鮭のおにぎり'); ``time_of_day``
    is 'morning', 'night' or '' (neither); ``pastimes`` answer "what do you
    do on your days off"; ``likes`` and ``dislikes`` pick an option of a
    which-of question and answer "do you like …?".
    """

    favourites: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    likes: Pool = ()
    dislikes: Pool = ()
    pastimes: Pool = ()
    time_of_day: str = ""
    habits: tuple[Habit, ...] = ()


@dataclass(frozen=True)
class Rules:
    """The decision rules' knobs a character may turn.

    ``transfer_policy`` None leaves it to KARAKURI_TRANSFER_POLICY (default
    "known"); an operator's explicit setting wins over the pack's.
    """

    conversation_turns: int = 8  # own lines in a conversation before saying goodbye
    talk_again_after: int = 6  # commands before starting a conversation with the same person again
    start_conversations: bool = True  # whether to speak to someone first when idle
    # How often, with someone new today beside her and nothing due, she speaks first rather than
    # doing something else first (0: never first, 1: always). A pack's `sociability` variable overrides it.
    sociability: float = 0.8
    transfer_policy: str | None = None
    # Help or food offered in talk ('荷物持とうか？', 'みかん食べる？'): "accept" (as a person would, from
    # anyone), "known" (from people met before), "decline". A transfer of items or money is the transfer
    # policy's.
    offers: str = "accept"


@dataclass(frozen=True)
class Persona:
    """One voice: every line the agent says is one of these templates, filled.

    Mappings are read-only views so a loaded (and cached) pack cannot be
    changed by one caller under another (which also makes it unhashable).
    """

    name: str
    short_name: str
    first_person: str
    tone: str
    greetings: Mapping[str, Pool]
    accept: Pool
    small_talk: Mapping[str, Mapping[str, Pool]]
    reactions: Mapping[str, Pool]
    farewells: Pool
    conversation_start: Pool
    promise_accept: Pool
    place_aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    topic_aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    tails: Pool = ()
    # How questions are answered: phrase sets per kind of answer, what the
    # persona likes and knows, where it likes to go.
    answers: Mapping[str, Pool] = field(default_factory=lambda: MappingProxyType({}))
    facts: Mapping[str, Fact] = field(default_factory=lambda: MappingProxyType({}))
    favourite_places: Pool = ()
    tastes: Tastes = Tastes()
    # What it would say of itself, by topic (its birthday, what it is good at, its childhood...: the keys
    # of ja/lexicon/concepts.json `self_topics`); a topic left out is one it never thought about.
    about_me: Mapping[str, Pool] = field(default_factory=lambda: MappingProxyType({}))
    # What it means to do, by the time ahead asked of ('tomorrow', 'weekend': the frames of concepts.json
    # `ahead`), said when no promise falls then; a frame left out is answered with answers.no_plans.
    plans_ahead: Mapping[str, Pool] = field(default_factory=lambda: MappingProxyType({}))
    honorific: str = ""  # added to the names of the people it talks to; the pack's defaults give さん
    likes: Pool = ()
    topics: Pool = ()
    rules: Rules = Rules()
    # The pack's behaviour.json (behaviour/spec.py Behaviour); None: the pack has none.
    behaviour: Behaviour | None = None

    @property
    def by_place(self) -> Mapping[str, Pool]:
        return self.small_talk["by_place"]

    @property
    def by_topic(self) -> Mapping[str, Pool]:
        return self.small_talk["by_topic"]
