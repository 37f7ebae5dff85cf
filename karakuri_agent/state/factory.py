"""`open_state(settings)`: the configured backend, chosen by the scheme of KARAKURI_DATABASE_URL.

Unset or `sqlite:` → the SQLite file in the state directory (the embedded
default: no server to run). `postgresql://` is reserved for the server backend
to come and is a configuration error until then. A new backend adds one
branch here and one module beside sqlite.py, implementing state/base.py.
"""

from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Callable, Iterator

from ..errors import ConfigError
from .base import State

if TYPE_CHECKING:
    from ..config import Settings

SQLITE_SCHEMES = ("", "sqlite")
PLANNED_SCHEMES = ("postgresql", "postgres")


def backend_for(url: str) -> str:
    """The backend a database URL names ("sqlite"), or ConfigError. The URL itself is never echoed."""
    scheme = url.partition(":")[0].strip().lower() if url.strip() else ""
    if scheme in SQLITE_SCHEMES:
        return "sqlite"
    if scheme in PLANNED_SCHEMES:
        raise ConfigError("KARAKURI_DATABASE_URL: PostgreSQL is not supported yet; unset it to use SQLite")
    raise ConfigError("KARAKURI_DATABASE_URL must be unset or start with sqlite:")


@contextmanager
def open_state(settings: Settings, clock: Callable[[], datetime]) -> Iterator[State]:
    """The configured store and ledger, opened once and closed on exit."""
    backend_for(settings.database_url.get() if settings.database_url else "")
    from .sqlite import SQLiteState

    state = SQLiteState(settings.state_dir, clock)
    try:
        yield state
    finally:
        state.close()
