"""Place names as the town writes them: buildings, their parts, doorways.

A node's name is the building and the part (`喫茶店 店内`, `喫茶店 入口`);
a promise may name the building alone, or with its own name in brackets
(`喫茶店「さくら」`).
"""

from __future__ import annotations

import re

INSIDE = "店内"
DOORWAYS = ("入口", "玄関")
FAREWELL_WORD = "別れ"  # a speak choice whose description says this one is the parting line


def building(name: str) -> str:
    """The building a node's name belongs to: its first word (`喫茶店 店内` and `喫茶店 入口` are one)."""
    words = name.split()
    return words[0] if words else ""


def building_kind(name: str) -> str:
    """The building without its own name in brackets: 喫茶店 of `喫茶店「さくら」` and of `喫茶店 店内`."""
    return re.split(r"[\s「]", name, maxsplit=1)[0]


def is_doorway(name: str) -> bool:
    """An entrance: a place to pass through, not to go to."""
    return any(word in name for word in DOORWAYS)


def is_inside(name: str) -> bool:
    """The inside of a building, or a place that names no entrance."""
    return INSIDE in name or "入口" not in name


def asks_farewell(description: str) -> bool:
    """A speaking choice that asks for the parting line (`別れの挨拶をする`)."""
    return FAREWELL_WORD in description
