"""The PostgreSQL backend: one database shared by any number of processes on any number of machines.

`PostgresStore` and `PostgresLedger` implement state/base.py on one psycopg 3
connection per process (`connect` is the one place a connection is made). The
connection is in autocommit mode, so every statement is committed when it
returns: a ledger claim is durable before the command is sent, as on SQLite.
`batch()` groups the store's writes into one transaction that does not wait
for the flush (`synchronous_commit` off for it alone).

Timestamps are stored as the same sortable UTC ISO text the SQLite file holds
(`values.utc_text`), in "C" collation so text order is time order: the rest of
the package compares and parses them as text, and `state copy` moves them
unchanged. JSON the package builds (params, knowledge) is `jsonb`; a fetched
notification is `json`, kept exactly as the server sent it.

No driver exception leaves this module: every psycopg error becomes
`StateUnavailable`, whose message names the database without its password."""

from __future__ import annotations

import os
import socket
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Callable, Iterator

import psycopg
import psycopg.sql
from psycopg.types.json import Jsonb

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.errors import AlreadyAttempted, StateUnavailable
from karakuri_agent.state.postgres_schema import migrate
from karakuri_agent.state.postgres_store import PostgresStore
from karakuri_agent.state.urls import masked
from karakuri_agent.state.values import LEDGER_RESULT_CHARS, truncated_json, utc_text

CONNECT_TIMEOUT_SECONDS = 10


def unavailable(exc: psycopg.Error, url: str) -> StateUnavailable:
    """A driver error as the package's one state error: its first line, the password masked."""
    reason = masked(url, (str(exc).strip().splitlines() or [type(exc).__name__])[0])  # the driver may quote a piece
    return StateUnavailable(f"the state database {masked(url)} is unavailable: {reason}")


class _Connection:
    """The psycopg connection, with every driver error turned into StateUnavailable.

    A connection the server dropped is opened again at the next statement
    (outside a transaction: one that breaks inside fails whole), so a
    resident process carries on once the database is back.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.raw = self._open()

    def _open(self) -> psycopg.Connection[Any]:
        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS,
                                   application_name="karakuri-agent")
        except psycopg.Error as exc:
            raise unavailable(exc, self.url) from None

    def _live(self) -> psycopg.Connection[Any]:
        if self.raw.closed:
            self.raw = self._open()
        return self.raw

    def execute(self, sql: str | bytes | psycopg.sql.Composed, params: Any = None) -> psycopg.Cursor[Any]:
        try:
            return self._live().execute(sql, params)
        except psycopg.Error as exc:
            raise unavailable(exc, self.url) from None

    def executemany(self, sql: str, rows: list[Any]) -> None:
        if not rows:
            return
        try:
            with self._live().cursor() as cursor:
                cursor.executemany(sql, rows)
        except psycopg.Error as exc:
            raise unavailable(exc, self.url) from None

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (a dropped connection has none: it is opened again outside one)."""
        return not self.raw.closed and self.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE

    @contextmanager
    def transaction(self, *, wait_for_disk: bool = True) -> Iterator[None]:
        """All or nothing; the database going away inside it is StateUnavailable too.

        `wait_for_disk=False` commits with `synchronous_commit` off for this
        transaction only: the server may lose it in a crash of its own (as if
        it had rolled back), never half of it, and the next claim's commit
        flushes it with its own. Nested, it is a savepoint of the outer one.
        """
        try:
            outermost = not self.in_transaction
            with self._live().transaction():
                if outermost and not wait_for_disk:
                    self.raw.execute("SET LOCAL synchronous_commit TO off")
                yield
        except psycopg.Error as exc:
            raise unavailable(exc, self.url) from None

    def close(self) -> None:
        try:
            self.raw.close()
        except psycopg.Error:
            pass  # closing a connection the server already dropped has nothing left to release


def own_schema(conn: _Connection) -> None:
    """The schema a URL names for its agent (`?options=-csearch_path%3Dnike`), made on first use.

    Several agents share one database each in a schema of its own (docs/fleet.md):
    the tables are the same, the rows never meet. A URL naming no schema uses
    `public`, as before.
    """
    current, path = conn.execute("SELECT current_schema(), current_setting('search_path')").fetchone() or (None, "")
    if current is not None:
        return
    first = str(path).split(",")[0].strip().strip('"')
    if first and first != "$user":
        conn.execute(psycopg.sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(psycopg.sql.Identifier(first)))


def connect(url: str) -> _Connection:
    """The one place a connection is made (a pool for a resident process would go here), migrated."""
    conn = _Connection(url)
    try:
        own_schema(conn)
        migrate(conn)
    except BaseException:
        conn.close()
        raise
    return conn


# -- the ledger --------------------------------------------------------------------
class PostgresLedger:
    """The claim is one INSERT … ON CONFLICT DO NOTHING: exactly one process on any machine gets a row back."""

    def __init__(self, conn: _Connection, clock: Callable[[], datetime] = utc_now) -> None:
        self._conn = conn
        self._clock = clock
        self._host = socket.gethostname()

    def claim(self, notification_id: str, command: str, params: dict[str, Any]) -> None:
        """Take the notification (committed when this returns), or raise AlreadyAttempted with the earlier claim."""
        if self._conn.in_transaction:
            raise RuntimeError("a claim is committed on its own, before the command: not inside a batch")
        taken = self._conn.execute(
            "INSERT INTO ledger (notification_id, command, params, claimed_at, pid, host)"
            " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (notification_id) DO NOTHING RETURNING notification_id",
            (notification_id, command, Jsonb(params), utc_text(self._clock()), os.getpid(), self._host),
        ).fetchone()
        if taken is None:
            raise AlreadyAttempted(notification_id, self.previous(notification_id) or {})

    def finish(self, notification_id: str, outcome: str, result: dict[str, Any]) -> None:
        self._conn.execute(
            "UPDATE ledger SET outcome = %s, finished_at = %s, result = %s WHERE notification_id = %s",
            (outcome, utc_text(self._clock()), truncated_json(result, LEDGER_RESULT_CHARS), notification_id),
        )

    def recent_claims(self, limit: int) -> list[dict[str, Any]]:
        rows = self._conn.execute("SELECT notification_id, command, params, claimed_at, outcome FROM ledger"
                                  " ORDER BY claimed_at DESC LIMIT %s", (limit,)).fetchall()
        return [dict(zip(("notification_id", "command", "params", "claimed_at", "outcome"), row)) for row in rows]

    def previous(self, notification_id: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT command, params, claimed_at, outcome, finished_at FROM ledger"
                                 " WHERE notification_id = %s", (notification_id,)).fetchone()
        if row is None:
            return None
        return dict(zip(("command", "params", "claimed_at", "outcome", "finished_at"), row))


class PostgresState:
    """The store and the ledger on one connection to the shared database."""

    def __init__(self, url: str, clock: Callable[[], datetime] = utc_now) -> None:
        self.conn = connect(url)
        self.store = PostgresStore(self.conn, clock)
        self.ledger = PostgresLedger(self.conn, clock)

    def forget_before(self, keep_days: int, now: datetime, *, dry_run: bool = False) -> dict[str, Any]:
        from karakuri_agent.state.retention import forget

        return forget(self.store, keep_days=keep_days, now=now, dry_run=dry_run)

    @contextmanager
    def turn(self, agent: str) -> Iterator[None]:
        """The agent's turn (state/agent_turn.py): a session advisory lock keyed by the agent, so agents that share
        the database wait only for themselves; a connection that dies gives it back."""
        from karakuri_agent.state.agent_turn import waiting

        key = ("karakuri-agent turn:" + agent,)
        def try_take() -> bool:
            row = self.conn.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", key).fetchone()
            return bool(row and row[0])

        waiting(try_take, "an advisory lock")
        try:
            yield
        finally:
            try:
                self.conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", key)
            except StateUnavailable:
                pass  # the connection went away, and its lock with it

    def close(self) -> None:
        self.conn.close()
