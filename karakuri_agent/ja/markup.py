"""Brackets, quotes and punctuation as Japanese text writes them (the id's closers, the quotes around a line)."""

from __future__ import annotations

import re

MARKUP = "*_~|`"

# The marker, possibly inside markup itself: `**notification_id:**`, `` `notification_id: ``.
# It starts where a word does: `my_notification_id` is another word, and `pre` is
# the whole markup run before it.
MARKER = re.compile(r"(?<![A-Za-z0-9*_~|`])(?P<pre>[*_~|`]*)notification_id[*_~|`]*\s*[:：]")

# Between the marker and the id: whitespace, markup, opening brackets and quotes.
OPENERS = re.compile(r"[\s*_~|`(\[{<「『（【〈《\"'“‘]*")

# Right after the id: closing markup, brackets, quotes and sentence punctuation.
CLOSERS = frozenset(MARKUP + ")]}>」』）】〉》\"'”’" + ".,!?:;" + "。、，．！？：；")

OPEN_QUOTE = "「"
CLOSE_QUOTE = "」"
# What a list item or a notification line may start with besides the name.
BULLETS = "-•・*🔔"
# Spaces a Japanese line may be indented with (the ideographic space among them).
INDENT = " \t\u3000"
# How a list of names is joined (メイ、コウ).
LIST_JOIN = "、"
# A run of three kanji or more: a compound whose ends people say for the whole (役所 of 市役所).
KANJI_COMPOUND = re.compile(r"[\u4e00-\u9fff々]{3,}")
# A proper name in brackets (本屋「栞」 → 栞).
BRACKETED_NAME = re.compile(r"「([^「」]+)」")


def quoted(text: str) -> str:
    """Text in Japanese quotes: 「text」."""
    return f"{OPEN_QUOTE}{text}{CLOSE_QUOTE}"


def has_quote(text: str) -> bool:
    return OPEN_QUOTE in text or CLOSE_QUOTE in text
