"""`open_state(settings)`: the configured backend, chosen by the scheme of KARAKURI_DATABASE_URL.

Unset or `sqlite:` → the SQLite file in the state directory (the embedded
default: no server to run). `postgresql://` (or `postgres://`) → that
PostgreSQL database (state/postgres.py, needs the `postgres` extra), shared by
every process and machine given the same URL. A new backend adds one branch
here and one module beside sqlite.py, implementing state/base.py.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator
from urllib.parse import parse_qsl, unquote, urlsplit

from karakuri_agent.errors import ConfigError
from karakuri_agent.state.base import State

if TYPE_CHECKING:
    from karakuri_agent.app.config import Settings

SQLITE_SCHEMES = ("", "sqlite")
POSTGRES_SCHEMES = ("postgresql", "postgres")


def backend_for(url: str, name: str = "KARAKURI_DATABASE_URL") -> str:
    """The backend a database URL names ("sqlite" or "postgres"), or ConfigError naming `name` (the
    variable or the argument the URL came from). The URL itself is never echoed."""
    scheme = url.partition(":")[0].strip().lower() if url.strip() else ""
    if scheme in SQLITE_SCHEMES:
        return "sqlite"
    if scheme in POSTGRES_SCHEMES:
        return "postgres"
    if name == "KARAKURI_DATABASE_URL":
        raise ConfigError(f"{name} must be unset, start with sqlite: or with postgresql://")
    raise ConfigError(f"{name} must be sqlite:DIR or a postgresql:// URL ({scheme or 'no scheme'}: is not a state"
                      " this version can open)")


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


def password_of(url: str) -> str | None:
    """The password in a postgresql:// URL, in its user part or its query (None without one)."""
    try:
        parts = urlsplit(url)
        if parts.password:
            return parts.password
        parsed = next((value for key, value in parse_qsl(parts.query) if key == "password" and value), None)
    except ValueError:
        parsed = None
    return parsed or next(iter(passwords_in(url)), None)


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


def open_url(url: str, state_dir: Path, clock: Callable[[], datetime]) -> State:
    """The state a URL names: SQLite in `state_dir`, or the PostgreSQL database (psycopg imported only here)."""
    if backend_for(url) == "postgres":
        try:
            from karakuri_agent.state.postgres import PostgresState
        except ImportError:
            raise ConfigError("KARAKURI_DATABASE_URL names PostgreSQL: install the driver with"
                              " in the clone, `pip install '.[postgres]'`") from None
        return PostgresState(url, clock)
    from karakuri_agent.state.sqlite.state import SQLiteState

    return SQLiteState(state_dir, clock)


@contextmanager
def open_state(settings: Settings, clock: Callable[[], datetime]) -> Iterator[State]:
    """The configured store and ledger, opened once and closed on exit."""
    state = open_url(settings.database_url.get() if settings.database_url else "", settings.state_dir, clock)
    try:
        yield state
    finally:
        state.close()
