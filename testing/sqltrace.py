"""Commits on a SQLite connection, seen through `sqlite3`'s own trace callback (tests and benchmarks).

Each commit is kept with its transaction's first writing statement and the
`synchronous` level it ran under: a commit under FULL syncs the write-ahead
log, one under NORMAL does not. A writing statement outside BEGIN … COMMIT
is a transaction, and a commit, of its own.
"""

from __future__ import annotations

import sqlite3

FULL, NORMAL = 2, 1
WRITES = ("INSERT", "UPDATE", "DELETE")


class Commits:
    """Every commit on a connection, with the `synchronous` level it ran under, from the trace callback."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.writes = 0  # writing statements, in or out of a transaction
        self.synchronous = conn.execute("PRAGMA synchronous").fetchone()[0]
        self.open_since: str | None = None  # the first statement of the open transaction
        self.seen: list[tuple[str, int]] = []  # (the transaction's first writing statement, synchronous)
        conn.set_trace_callback(self._statement)

    def _statement(self, sql: str) -> None:
        words = sql.strip().upper().split()
        if not words:
            return
        if words[0] == "PRAGMA" and "SYNCHRONOUS" in words[1] and "=" in sql:
            self.synchronous = {"FULL": FULL, "NORMAL": NORMAL}[sql.rsplit("=", 1)[1].strip().upper()]
        elif words[0] == "BEGIN":
            self.open_since = ""
        elif words[0] in WRITES:
            self.writes += 1
            if self.open_since is None:  # outside BEGIN … COMMIT: a transaction of its own
                self.seen.append((sql.strip(), self.synchronous))
            elif not self.open_since:
                self.open_since = sql.strip()
        elif words[0] == "COMMIT":
            if self.open_since:
                self.seen.append((self.open_since, self.synchronous))
            self.open_since = None
        elif words[0] == "ROLLBACK" and len(words) == 1:
            self.open_since = None

    def synced(self) -> list[str]:
        return [first for first, level in self.seen if level == FULL]
