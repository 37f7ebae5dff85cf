"""The sqlite3 connection with every driver error turned into the state error family, in one place.

As the PostgreSQL backend's `_Connection` does for psycopg: no `sqlite3.Error`
leaves the backend. A write lock another process holds past the busy
timeout is `StateBusy`; anything else the file refuses (read-only, disk
full, I/O, a corrupt page) is `StateUnavailable`. The connection and its
cursors are subclasses of sqlite3's own (`sqlite3.connect(factory=...)`),
so every statement the store, the ledger, `gc` and `state copy` run goes
through here, and their signatures still say `sqlite3.Connection`.
"""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

from karakuri_agent.errors import StateBusy, StateUnavailable, one_line

# SQLite's primary result codes for "another connection holds the lock" (sqlite3 names them from 3.11 on).
_BUSY_CODES = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED


def state_error(exc: sqlite3.Error, where: str) -> StateUnavailable:
    """A driver error as the package's state error: busy (another process holds the lock) or unavailable."""
    reason = one_line(str(exc) or type(exc).__name__, 200)
    code = getattr(exc, "sqlite_errorcode", None)
    if (code is not None and code & 0xFF in _BUSY_CODES) or "locked" in reason or "busy" in reason:
        return StateBusy(f"the state file {where} stayed locked by another process: {reason}", reason)
    return StateUnavailable(f"the state file {where} refused the work: {reason}", reason)


@contextmanager
def mapped(where: str) -> Iterator[None]:
    """Run a driver call; a driver error leaves as the state error it means."""
    try:
        yield
    except sqlite3.Error as exc:
        raise state_error(exc, where) from None


class GuardedCursor(sqlite3.Cursor):
    """A cursor whose every step (execute, fetch, iteration) maps driver errors."""

    where = "karakuri.db"

    def execute(self, sql: str, parameters: Any = (), /) -> GuardedCursor:
        with mapped(self.where):
            super().execute(sql, parameters)
        return self

    def executemany(self, sql: str, seq_of_parameters: Iterable[Any], /) -> GuardedCursor:
        with mapped(self.where):
            super().executemany(sql, seq_of_parameters)
        return self

    def fetchone(self) -> Any:
        with mapped(self.where):
            return super().fetchone()

    def fetchmany(self, size: int | None = 1) -> list[Any]:
        with mapped(self.where):
            return super().fetchmany(size)

    def fetchall(self) -> list[Any]:
        with mapped(self.where):
            return super().fetchall()

    def __next__(self) -> Any:
        with mapped(self.where):
            return super().__next__()


class GuardedConnection(sqlite3.Connection):
    """`sqlite3.connect(path, factory=GuardedConnection)`: statements run on GuardedCursors."""

    where = "karakuri.db"

    def cursor(self, factory: Any = None) -> GuardedCursor:  # type: ignore[override]
        cursor = super().cursor(GuardedCursor)
        cursor.where = self.where
        return cursor

    def execute(self, sql: str, parameters: Any = (), /) -> GuardedCursor:
        return self.cursor().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> GuardedCursor:
        return self.cursor().executemany(sql, parameters)

    def executescript(self, sql_script: str, /) -> sqlite3.Cursor:
        with mapped(self.where):
            return super().executescript(sql_script)

    def commit(self) -> None:
        with mapped(self.where):
            super().commit()

    def rollback(self) -> None:
        with mapped(self.where):
            super().rollback()


def open_guarded(path: Path, timeout: float, *, query: str = "") -> GuardedConnection:
    """The connection to `path`, in autocommit mode (the package says BEGIN itself), its errors mapped.

    `query` opens it as a URI with those parameters (`mode=ro`, `immutable=1`).
    """
    target = f"{path.as_uri()}?{query}" if query else str(path)
    with mapped(str(path)):
        # Used by one thread at a time, not always the one that opened it: a fleet's agents take turns
        # on a pool of workers, each agent's messages one after another (app/listen/fleet_run.py).
        conn = sqlite3.connect(target, timeout=timeout, isolation_level=None, factory=GuardedConnection,
                               uri=bool(query), check_same_thread=False)
    conn.where = str(path)
    return conn
