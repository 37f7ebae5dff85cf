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
