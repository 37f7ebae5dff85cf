"""Whether and how a line greets: by kind (morning, day, evening, again...), read from concepts.json
`greetings` as written, the agent's own names aside; an author adds words there, no code."""

from __future__ import annotations

import functools

from karakuri_agent.ja.listening_cues import (
    ADVERB_PARTICLE, CALL_SEPARATORS, GREETING_LEFTOVER, GREETING_TAIL, NAME_CALL,
)
from karakuri_agent.reading.lexicon import section
from karakuri_agent.reading.morphemes import name_forms

__all__ = ["greeting", "greets_first", "greets_only", "says_a_greeting_of"]


@functools.lru_cache(maxsize=1)
def _greetings() -> dict[str, tuple[str, ...]]:
    return section("greetings")


# Greetings that greet only where the line starts ('おつかれ！' not '今日はおつかれだね'); `whole` ones only as
# the whole line; 'again' ones anywhere but as an adverb ('いやあ、久しぶりやなあ', not '娘が久しぶりに帰ってくる').
AT_START = ("tired",)
# Greetings that greet only where the line ends ('じゃ、お休み！', not '図書館、二週間お休みになるそうです' nor
# 'お休みの日は何してるの？'), kept under `<kind>_at_end`.
AT_END = "_at_end"


def _names(own_names: tuple[str, ...]) -> list[str]:
    """The agent's names as written and in hiragana ('にけちゃーん'), the longest first."""
    return sorted(name_forms(own_names), key=len, reverse=True)


def _uncalled(text: str, own_names: tuple[str, ...]) -> str:
    """``text`` without the agent's names and the call's honorific and separators after them: what the line
    says besides calling it."""
    for name in _names(own_names):
        text = text.replace(name, "")
    return NAME_CALL.sub("", text.lstrip(CALL_SEPARATORS)).lstrip(CALL_SEPARATORS)


def greeting(text: str, own_names: tuple[str, ...] = ()) -> str:
    """The kind of greeting a line greets with ('おはよー！' → 'morning', 'ニケちゃんおつ〜👋' → 'tired', a
    line that only calls the agent's name → 'hey'; concepts.json `greetings`), '' when it greets not.
    Tiredness greets only where the line starts ('おつかれ！'), not told of ('今日はおつかれだね'). Read with its
    spaces dropped ('あけまして おめでとう')."""
    text = "".join(text.split())
    kinds = _greetings()
    bare = _uncalled(text, own_names)
    found = [(len(w), key) for key, words in kinds.items() if key not in (*AT_START, "whole") and not key.endswith(AT_END)
             for w in words if w in text and not (key == "again" and w + ADVERB_PARTICLE in text)]
    found += [(len(w), key) for key in AT_START if key in kinds for w in kinds[key] if bare.startswith(w)]
    ending = GREETING_TAIL.sub("", bare)
    found += [(len(w), key.removesuffix(AT_END)) for key, words in kinds.items() if key.endswith(AT_END)
              for w in words if ending.endswith(w)]
    if found:
        return max(found)[1]
    rest = GREETING_TAIL.sub("", bare)
    named = any(name in text for name in _names(own_names))
    return "hey" if (named and not rest) or rest in kinds["whole"] else ""


def greets_first(text: str, own_names: tuple[str, ...] = ()) -> str:
    """The kind of greeting a line opens with ('こんにちは〜、元気してた？' → 'day'), '' when it opens
    with none."""
    kind = greeting(text, own_names)
    bare = _uncalled(text, own_names)
    return kind if kind and any(bare.startswith(w) for w in _greetings().get(kind, ())) else ""


def greets_only(text: str, own_names: tuple[str, ...] = ()) -> bool:
    """Whether a line is a greeting and no more ('おはようございます！', 'ニケちゃんおつ〜'), not one that
    tells or asks after it ('おはよう…金魚が死んじゃった')."""
    if not greeting(text, own_names):
        return False
    rest = _uncalled(text, own_names)
    for word in sorted({w for kind in _greetings().values() for w in kind}, key=len, reverse=True):
        rest = rest.replace(word, "")
    rest = NAME_CALL.sub("", GREETING_TAIL.sub("", rest).strip(CALL_SEPARATORS))
    return len(rest) <= GREETING_LEFTOVER


def says_a_greeting_of(text: str, kind: str) -> bool:
    """Whether ``text`` says a word of that kind of greeting ('やっほー' of 'hey'), not only a name called."""
    text = "".join(text.split())
    return any(word in text for word in _greetings().get(kind, ()))
