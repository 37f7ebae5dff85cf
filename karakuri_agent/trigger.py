"""Reading the notification id out of a Discord message (CONTRACT §1).

The id ends up in a URL path, so it is validated strictly here, before any
request exists: ASCII letters, digits, `_` and `-` only, and it must end where
the id visibly ends (whitespace, end of text or closing punctuation). Anything
glued on (`/../x`, `?q=`, a zero-width space, full-width letters) makes the
whole id invalid rather than silently truncated.
"""

from __future__ import annotations

import re

from .errors import UsageError

MAX_ID_LENGTH = 128
ID_PATTERN = re.compile(r"notif-[A-Za-z0-9_-]+")
_MARKER = re.compile(r"\bnotification_id\s*[:：]\s*")
_ENDINGS = frozenset("。、，」』）！？")  # full-width only: ASCII ones could start a path or query


def validate_notification_id(value: str) -> str:
    """Return `value` if it is a well-formed id, else raise UsageError."""
    if len(value) <= MAX_ID_LENGTH and ID_PATTERN.fullmatch(value):
        return value
    raise UsageError(f"invalid notification id {_printable(value)}: expected notif-[A-Za-z0-9_-]+")


def find_notification_id(body: str) -> str | None:
    """The id the message carries, None when it carries none.

    A message that names a notification id which is not well formed raises
    UsageError: it is neither "nothing to do" nor something to fetch.
    """
    marker = _MARKER.search(body)
    if marker is None:
        return None
    rest = body[marker.end():]
    match = ID_PATTERN.match(rest)
    end = match.end() if match else 0
    if match is None or not (end == len(rest) or rest[end].isspace() or rest[end] in _ENDINGS):
        candidate = rest.split(maxsplit=1)[0] if rest.strip() else ""
        raise UsageError(f"invalid notification id {_printable(candidate)} in the message")
    return validate_notification_id(match.group())


def _printable(value: str) -> str:
    """A short, escaped rendering so odd characters are visible in the error."""
    shown = value[:40] + ("…" if len(value) > 40 else "")
    return ascii(shown)
