"""Which known place a text names: whole names, their words, a building's own name, never a word several buildings share."""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from karakuri_agent.ja import markup
from karakuri_agent.ja.place_words import building_kind
from karakuri_agent.ja.promise_words import SCRIPT_RUN, TOWN_PLACE, UNSEEN_SPOT

NODE_ID_IN_TEXT = re.compile(r"(?<![\d-])(?P<node>\d{1,4}-\d{1,4})(?![\d-])")


def _place_keys(name: str) -> set[str]:
    """Ways a known place name may be said: full, each word, 「」 parts.

    Generic keys shorter than two characters are dropped (too ambiguous);
    the proper name inside 「」 is kept at any length. A label in several
    words is also said run together (駅前 for 駅 前), and a kanji compound
    by its end (役所 for 市役所). A later word
    (校庭 of 学校 校庭) is a way to say the place too, and so is a run of one
    script in a building's name (ベーカリー of ベーカリー麦, たぬき of 麺処たぬき);
    when a key names parts of several buildings (店内, 入口, からくり of
    からくり駅 and からくり神社) `unambiguous_keys` drops it.
    """
    runs = SCRIPT_RUN.findall(name)
    keys = {name, "".join(name.split()), *name.split(), *runs, *_kanji_tails(runs)}
    if markup.OPEN_QUOTE in name:
        keys.add(name.partition(markup.OPEN_QUOTE)[0].strip())
    keys = {key for key in keys if len(key) >= 2}
    proper = markup.BRACKETED_NAME.search(name)
    if proper:  # a proper name is distinctive even as a single kanji (栞)
        keys.add(proper.group(1).strip())
    return {key for key in keys if key}


def _kanji_tails(runs: Sequence[str]) -> list[str]:
    """The ends of a kanji compound, which people say for the whole (役所 for 市役所).

    Only runs of three kanji or more give ends, each at least two kanji long,
    so a single kanji (館, 前) never names a place; an end shared by two
    buildings (役所 of 市役所 and 区役所) is dropped as ambiguous like any key.
    """
    return [run[start:] for run in runs if markup.KANJI_COMPOUND.fullmatch(run)
            for start in range(1, len(run) - 1)]


def unambiguous_keys(known_places: Sequence[Mapping[str, Any]]) -> dict[str, set[str]]:
    """Key → names of the known places it may mean, without keys that name several buildings.

    Two names are one building when they share their first word (喫茶店 店内,
    喫茶店 入口) or their node (郵便局 窓口 and からくり郵便局 listed at it).
    """
    meanings: dict[str, set[tuple[str, str]]] = {}
    for place in known_places:
        name = str(place.get("name") or "").strip() if isinstance(place, Mapping) else ""
        for key in _place_keys(name) if name else ():
            meanings.setdefault(key, set()).add((name, str(place.get("node_id") or "")))
    return {key: {name for name, _ in places} for key, places in meanings.items() if _one_building(places)}


def _one_building(places: set[tuple[str, str]]) -> bool:
    """The (name, node) pairs, linked by a shared first word or node, form one group."""
    groups: list[tuple[set[str], set[str]]] = []
    for name, node in places:
        linked = [g for g in groups if building_kind(name) in g[0] or (node and node in g[1])]
        merged = ({building_kind(name)}, {node} - {""})
        for group in linked:
            groups.remove(group)
            merged = (merged[0] | group[0], merged[1] | group[1])
        groups.append(merged)
    return len(groups) == 1


def known_place(text: str, known_places: Sequence[Mapping[str, Any]]) -> tuple[str, str | None] | None:
    """(name, node_id) of the best-matching known place, if any.

    The longest key found wins; ties go to the first place in the list. A
    key naming parts of several buildings (店内) identifies none of them.
    """
    keys = unambiguous_keys(known_places)
    best: tuple[int, str, str | None] | None = None
    for place in known_places:
        try:
            name = str(place.get("name") or "").strip()
            node_id = place.get("node_id")
        except AttributeError:
            continue
        if not name:
            continue
        for key in _place_keys(name):
            if key in keys and key in text and (best is None or len(key) > best[0]):
                best = (len(key), name, str(node_id) if node_id else None)
    return (best[1], best[2]) if best else None


def place_in_text(text: str, known_places: Sequence[Mapping[str, Any]]) -> tuple[str | None, str | None]:
    """(place_name, node_id) named in the text; (None, None) if none."""
    node = NODE_ID_IN_TEXT.search(text)
    if node:
        node_id = node.group("node")
        for place in known_places:
            if isinstance(place, Mapping) and str(place.get("node_id")) == node_id:
                return (str(place.get("name")) if place.get("name") else None), node_id
        return None, node_id
    known = known_place(text, known_places)
    if known:
        return known
    word = TOWN_PLACE.search(text)
    if word:
        return word.group("word") + (word.group("proper") or ""), None
    unseen = UNSEEN_SPOT.search(text)
    if unseen:
        return unseen.group("word"), None
    return None, None
