"""What never reaches the town or the report: links, mentions, chat markup, ids.

One filter for the voice (every line and name it says), the gate (which
refuses a line the filter would change) and the report (which names nothing
that looks like an id).
"""

from __future__ import annotations

import re
import unicodedata

from karakuri_agent.terminal import ESCAPE_SEQUENCE

# A lone '@' goes too: nothing in town is addressed that way.
MENTION = re.compile(r"[@＠]\s*(?:everyone|here)\b|[@＠][\w.\-]*", re.IGNORECASE)
MASKED_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)")
# Not `\b`: a Japanese letter is a word character too, so `見てhttps://…` has no word boundary before the link.
URL = re.compile(
    r"(?i)(?:(?<![a-z0-9])(?:https?|ftp)://|(?<![a-z0-9.])www\.|(?<![a-z0-9])discord(?:app)?\.(?:gg|com)/)\S*"
)
DISCORD_TOKEN = re.compile(r"<(?:a?:\w+:\d+|[@#][!&]?\d+|t:\d+(?::\w)?|id:\w+)>")
LINE_MARKUP = re.compile(r"(?m)^\s*(?:>+|-#|#+)\s*")
MARKUP_CHARS = re.compile(r"[*_~`|<>]")
KEEP_FORMAT = {"\u200d"}  # ZWJ joins emoji; other format chars can hide text


def clean_text(text: str) -> str:
    """Text with links, mentions and chat markup removed, on one line.

    Applied to everything that reaches a line (names, place labels, and the
    final line itself) so nothing platform-specific is ever said in town.
    """
    text = ESCAPE_SEQUENCE.sub(" ", text)  # a terminal escape goes whole: no `[31m` left to be said
    kept = "".join(
        ch for ch in text
        if ch in KEEP_FORMAT or unicodedata.category(ch) not in ("Cs", "Cc", "Cf", "Co")
        or ch in "\n\t"
    )
    kept = MASKED_LINK.sub(r"\1", kept)
    kept = URL.sub(" ", kept)
    kept = DISCORD_TOKEN.sub(" ", kept)
    kept = MENTION.sub(" ", kept)
    kept = LINE_MARKUP.sub("", kept)
    kept = MARKUP_CHARS.sub("", kept)
    return " ".join(kept.split())


# A line break or a wide space between two thoughts ('課題おわらん　締め切り明日なのに'): read as a full stop.
THOUGHT_BREAK = re.compile(r"(?<=[^\s。！？!?、])[ \t]*[\n\u3000][\s\u3000]*(?=\S)")
# Two wide spaces or more in one sentence space its words apart, as kana is written for children
# ('ニケちゃんの　すきな　いろ　なあに？'): spaces between words, no break between thoughts.
WORDS_SPACED = re.compile(r"[^。！？!?\n]*\u3000[^。！？!?\n\u3000]*\u3000[^。！？!?\n]*")


def thoughts_broken(text: str, full_stop: str = "。") -> str:
    """The line with each break between two thoughts made a full stop, and wide spaces between words that
    are written apart made plain spaces."""
    text = WORDS_SPACED.sub(lambda spaced: spaced.group().replace("\u3000", " "), text)
    return THOUGHT_BREAK.sub(full_stop, text)


def clean_line(text: str) -> str:
    """A partner's line to read, cleaned as `clean_text` cleans it, a break between two thoughts kept as
    a full stop (collapsed to a space, '好きな本てなに　ずっと気になってた' would read as one sentence)."""
    return clean_text(thoughts_broken(text))


# A Discord id or a notification id said in a line: the gate refuses it.
# Ids that mean nothing to a listener: a bare Discord snowflake, a notification id.
BARE_IDS = re.compile(r"(?<!\d)\d{17,20}(?!\d)|notif-[0-9A-Za-z]{4,}")
# A name that is an id in disguise (`12345`, `6-11`, `item_tea`): the report names it generically.
ID_LIKE = re.compile(r"\d{5,}|\d+-\d+|[A-Za-z0-9]+[_-][A-Za-z0-9]+")
