"""Reading the notification id out of a Discord message (CONTRACT §1).

The id ends up in a URL path, so it is validated strictly here, before any
request exists: ASCII letters, digits, `_` and `-` only. Discord markup around
it is normal (a code span, bold, a spoiler, brackets, quotes, a full stop) and
is read through; anything glued on that could change a URL (`/../x`, `?q=`,
`#`, `%`, `\\`, `&`, `=`, `..`) or pass for part of the id (a zero-width space,
full-width or other look-alike letters) makes the whole id invalid rather than
silently truncated.

Where the id ends: right after it may come closing markup and punctuation
(`notif-X.` is `notif-X` and a full stop); after those, only whitespace, the
end of the text, or ordinary non-Latin text (`notif-X。次の行`). So
`notif-X.y`, `notif-X?y=1` and `notif-X/..` are rejected.

Several markers: the first marker that carries an id decides. A marker
followed by no id (`notification_id: (なし)`) is skipped. A malformed id is
rejected even when a later marker carries a good one: skipping it would act
on a message that is not what it seems.
"""

from __future__ import annotations

import unicodedata

from karakuri_agent.domain.ids import ID_PATTERN, is_well_formed_id
from karakuri_agent.errors import UsageError
from karakuri_agent.ja.markup import (
    CLOSERS,
    MARKER,
    OPENERS,
)


def validate_notification_id(value: str) -> str:
    """Return `value` if it is a well-formed id, else raise UsageError."""
    if is_well_formed_id(value):
        return value
    raise UsageError(f"invalid notification id {_printable(value)}: expected notif-[A-Za-z0-9_-]+")


def find_notification_id(body: str) -> str | None:
    """The id the message carries, None when it carries none.

    A message that names a notification id which is not well formed raises
    UsageError: it is neither "nothing to do" nor something to fetch.
    """
    for marker in MARKER.finditer(body):
        start = OPENERS.match(body, marker.end())
        assert start is not None  # OPENERS matches the empty string
        underscores = marker.group("pre").count("_") + start.group().count("_")
        rest = body[start.end():]
        if not _looks_like_an_id(rest):
            continue  # `notification_id: (なし)`: this marker names nothing
        return _read_id(rest, underscores)
    return None


def _looks_like_an_id(text: str) -> bool:
    """Whether the text starts with `notif` however it is spelled (case, width)."""
    return unicodedata.normalize("NFKC", text[:8]).casefold().startswith("notif")


def _read_id(rest: str, underscores: int) -> str:
    """The id at the start of `rest`, which must end cleanly; else UsageError."""
    match = ID_PATTERN.match(rest)
    if match is None:
        raise UsageError(f"invalid notification id {_printable(_token(rest))} in the message")
    candidate = match.group()
    # `_notif-X_` is italic markup around the id, not an id ending in `_`.
    trailing = len(candidate) - len(candidate.rstrip("_"))
    candidate = candidate[: len(candidate) - min(trailing, underscores)]
    if not _ends_cleanly(rest[len(candidate):]):
        raise UsageError(f"invalid notification id {_printable(_token(rest))} in the message")
    return validate_notification_id(candidate)


def _ends_cleanly(after: str) -> bool:
    """Whether what follows the id closes it instead of continuing it."""
    closing = 0
    while closing < len(after) and after[closing] in CLOSERS:
        closing += 1
    if ".." in after[:closing]:
        return False  # a path step, not a full stop
    if closing == len(after) or after[closing].isspace():
        return True
    return closing > 0 and _ordinary_text(after[closing])


def _ordinary_text(char: str) -> bool:
    """Text that can follow closing punctuation without reading as part of the id.

    ASCII (a URL's own characters, letters that continue the id), invisible
    format characters, and letters from Latin-like scripts or folding to ASCII
    (`ａ`, `а`, `α`) are not: they are how a crafted id hides a second part.
    """
    if char.isascii() or unicodedata.category(char) in ("Cf", "Cc", "Co", "Cn"):
        return False
    if unicodedata.normalize("NFKC", char).isascii():
        return False
    return not unicodedata.name(char, "").startswith(("LATIN", "GREEK", "CYRILLIC", "FULLWIDTH LATIN"))


def _token(text: str) -> str:
    return text.split(maxsplit=1)[0] if text.strip() else ""


def _printable(value: str) -> str:
    """A short, escaped rendering so odd characters are visible in the error."""
    shown = value[:40] + ("…" if len(value) > 40 else "")
    return ascii(shown)
