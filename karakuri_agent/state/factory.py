"""`open_state(settings)`: the configured backend, chosen by the scheme of KARAKURI_DATABASE_URL.

Unset or `sqlite:` → the SQLite file in the state directory (the embedded
default: no server to run). `postgresql://` (or `postgres://`) → that
PostgreSQL database (state/postgres.py, needs the `postgres` extra), shared by
every process and machine given the same URL. A new backend adds one branch
here and one module beside sqlite.py, implementing state/base.py.
"""

from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator

from karakuri_agent.errors import ConfigError
from karakuri_agent.state.base import State, StateLocation

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


def open_url(url: str, state_dir: Path, clock: Callable[[], datetime], *, read_only: bool = False) -> State:
    """The state a URL names: SQLite in `state_dir`, or the PostgreSQL database (psycopg imported only here).

    `read_only` (the commands that only read: `log`, `day`, `doctor`): the
    SQLite file must exist and is opened creating and changing nothing, its
    directory's mode included. PostgreSQL is opened as usual.
    """
    if backend_for(url) == "postgres":
        try:
            from karakuri_agent.state.postgres import PostgresState
        except ImportError:
            raise ConfigError("KARAKURI_DATABASE_URL names PostgreSQL: install the driver with"
                              " in the clone, `pip install '.[postgres]'`") from None
        return PostgresState(url, clock)
    from karakuri_agent.state.sqlite.backend import SQLiteState

    return SQLiteState(state_dir, clock, read_only=read_only)


@contextmanager
def open_state(settings: StateLocation, clock: Callable[[], datetime], *, read_only: bool = False) -> Iterator[State]:
    """The configured store and ledger, opened once and closed on exit (`read_only`: see open_url)."""
    state = open_url(settings.database_url.get() if settings.database_url else "", settings.state_dir, clock,
                     read_only=read_only)
    try:
        yield state
    finally:
        state.close()
