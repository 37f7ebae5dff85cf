"""Taking up what the partner said: the topic or word of their line a reply can answer."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from karakuri_agent.mind.persona import Persona
from karakuri_agent.ja.safety import clean_text
from karakuri_agent.reading import greetings
from karakuri_agent.ja.speech_words import (
    APOLOGY,
    OPINION,
    QUESTION,
    THANKS,
    is_kanji,
)


@dataclass(frozen=True)
class Pickup:
    kind: str  # "topic" or "place"
    key: str  # the pack's key, whose templates answer it
    text: str  # what the line will say: the word as the partner wrote it


def _is_word(surface: str) -> bool:
    return any(unicodedata.category(ch)[0] == "L" for ch in surface)


def stands_alone(line: str, start: int, surface: str) -> bool:
    """A one-kanji keyword ('本', '雨') counts only outside a longer word
    ('本屋', '本当', '日本', '大雨')."""
    if len(surface) > 1 or not is_kanji(surface):
        return True
    before = line[start - 1] if start > 0 else ""
    after = line[start + 1] if start + 1 < len(line) else ""
    return not (is_kanji(before) or is_kanji(after))


def vocabulary_of(persona: Persona) -> Iterator[tuple[str, str, str]]:
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


def find_pickup(line: str | None, persona: Persona,
                 kinds: frozenset[str] = frozenset({"topic", "place"})) -> Pickup | None:
    """The keyword the partner's line ends on, if the pack knows one.

    The latest mention wins because a Japanese line usually puts its point
    last ('それより腹減った'); words beat emoji; longer beats shorter.
    """
    if not line:
        return None
    text = clean_text(line)
    best: tuple[tuple[bool, int, int], Pickup] | None = None
    for surface, kind, key in vocabulary_of(persona):
        if kind not in kinds:
            continue
        start = text.find(surface)
        while start != -1:
            if stands_alone(text, start, surface):
                word = _is_word(surface)
                rank = (word, start + len(surface), len(surface))
                if best is None or rank > best[0]:
                    best = (rank, Pickup(kind, key, surface if word else key))
            start = text.find(surface, start + 1)
    return best[1] if best else None


def pick_topic(line: str | None, persona: Persona) -> str | None:
    """The topic or place word a reply to ``line`` will pick up, or None.

    It is a word from the pack that occurs in the line (an emoji is
    returned as its word, e.g. '🍙' -> 'おにぎり'), and compose() puts it in
    the reply, so `pick_topic(x) in compose("reply", last_line=x, ...)` can
    be measured.
    """
    found = find_pickup(line, persona)
    return found.text if found else None


def line_kind(line: str | None) -> str | None:
    """What sort of line it is, to choose a fitting reaction."""
    if not line:
        return None
    text = clean_text(line)
    for kind, pattern in (("apology", APOLOGY), ("thanks", THANKS), ("opinion", OPINION), ("question", QUESTION)):
        if pattern.search(text):
            return kind
    return "greeting" if greetings.greeting(text) else None


