"""A database URL's password: every spelling of it, so no error, log or report shows it.

A leaf of state/: the settings, the backends and `doctor` mask with it
without opening anything.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

# Read from the text itself, before any parsing: a malformed URL (`…@[::1/k`) must not
# escape masking because a parser refused it. Greedy up to the last "@", so a password
# with "@" in it is taken whole (what follows may be masked too: safe).
_USERINFO = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://(?P<userinfo>[^\n]*)@")
_QUERY_PASSWORD = re.compile(r"[?&]password=(?P<password>[^&#]*)")
_PIECES = re.compile(r"[@:/?#&=\s]+")
_QUOTED = re.compile(r'"([^"]*)"')


def passwords_in(url: str) -> list[str]:
    """Every spelling of the password a database URL may carry (user part, query; raw and %-decoded)."""
    found: list[str] = []
    user = _USERINFO.match(url.strip())
    if user and ":" in user["userinfo"]:
        found.append(user["userinfo"].split(":", 1)[1])
    found.extend(m["password"] for m in _QUERY_PASSWORD.finditer(url))
    found += [unquote(p) for p in found]
    return sorted({p for p in found if p}, key=len, reverse=True)


def password_pieces(url: str) -> list[str]:
    """The password and the fragments a driver may quote of it (split at @, :, spaces…), longest first."""
    pieces = set(passwords_in(url))
    for password in list(pieces):
        pieces.update(p for p in _PIECES.split(password) if len(p) >= 3)
    return sorted(pieces, key=len, reverse=True)


def masked(url: str, text: str | None = None) -> str:
    """`text` (default: the URL) with every spelling and fragment of the URL's password replaced by ***."""
    text = url if text is None else text
    pieces = password_pieces(url)
    for secret in pieces:
        text = text.replace(secret, "***")
    if not pieces:
        return text
    # A driver quotes the part of the URL it choked on: a quoted part that held a piece of the
    # password (or is one) goes whole, so no short fragment of it is left beside the mask.
    passwords = passwords_in(url)
    return _QUOTED.sub(lambda m: '"***"' if "***" in m[1] or any(m[1].strip() and m[1] in p for p in passwords)
                       else m[0], text)


