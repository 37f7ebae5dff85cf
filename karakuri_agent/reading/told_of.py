"""What a line tells of, read by the lexicon's words (concepts.json): eating asked of (`meals`), a thing
found or come back (`found`), talking together, a thing shown (`showing`); each asked by one reader, not a tag of
the line."""

from __future__ import annotations

import functools

from karakuri_agent.ja.listening_cues import HOW_IT_LOOKS, LEADING_MARKS
from karakuri_agent.ja.word_classes import TALKING
from karakuri_agent.reading.lexicon import concepts, named_in, section
from karakuri_agent.reading.morphemes import lemma_set, words
from karakuri_agent.reading.phrase import negated

__all__ = ["about_talking", "eats", "meal_asked", "shows_a_thing", "tells_found"]


@functools.lru_cache(maxsize=1)
def _meals() -> tuple[tuple[str, ...], frozenset[str]]:
    table = section("meals")
    return table["meals"], lemma_set(table["eating"])


def eats(text: str) -> bool:
    """Whether ``text`` names eating or drinking (concepts.json `meals.eating`, by lemma): '厚切りトーストを
    食べる', '朝まんまは何食ったんだ'."""
    return any(w.lemma in _meals()[1] for w in words(text))


def meal_asked(asking: str) -> bool:
    """Whether a question asks what the agent ate or drank ('お昼なに食べた？', 'きょうのおやつ、なんだった？'):
    a meal named, or eating asked of (concepts.json `meals`)."""
    return any(m in asking for m in _meals()[0]) or eats(asking)


def about_talking(text: str) -> bool:
    """Whether a line speaks of talking together ('話してると楽しい', 'しゃべってると元気出る')."""
    return any(w.lemma in TALKING for w in words(text))


def tells_found(text: str) -> bool:
    """Whether a line tells of a thing found or come back (concepts.json `found`: 届いてた, 見つかった,
    帰ってきた), not negated; what it resolves is in the talk before it."""
    found = words(text)
    lemmas = _found_lemmas()
    return any(w.lemma in lemmas and not negated(found, i) for i, w in enumerate(found))


@functools.lru_cache(maxsize=1)
def _found_lemmas() -> frozenset[str]:
    return lemma_set(concepts()["found"].lemmas)  # as written ('見つかる') and as the analyzer's (見付かる)


def shows_a_thing(text: str, told: str, asking: list[str], own_names: tuple[str, ...]) -> bool:
    """Whether the line shows the listener a thing and tells nothing besides ('じゃーん😆 どうかな？', '見て見て！',
    'じゃーん！新しい靴！似合う？'; concepts.json `showing`), at most asking how it looks; 'はがぬけたの！みてみて！'
    tells of a tooth, 'じゃーん、明日どこ行く？' asks of a plan."""
    if "showing" not in named_in(text):
        return False
    shows = (*concepts()["showing"].surfaces, *own_names)
    return not any(w.pos == "verb" for w in words(_without(told, shows))) \
        and all(HOW_IT_LOOKS.search(_without(a, shows)) for a in asking)


def _without(text: str, said: tuple[str, ...]) -> str:
    for word in said:
        text = text.replace(word, "")
    return text.lstrip(LEADING_MARKS)
