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
`StateUnavailable`, whose message names the database without its password.
"""

from __future__ import annotations

import os
import re
import socket
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, Iterator

import psycopg
from psycopg.types.json import Json, Jsonb

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.errors import AlreadyAttempted, StateUnavailable
from karakuri_agent.ja.phrases import relationship
from karakuri_agent.state.base import DAY_LIMIT
from karakuri_agent.state.sqlite.ledger import MAX_RESULT_CHARS as MAX_LEDGER_RESULT_CHARS
from karakuri_agent.state.sqlite.store import MAX_RESULT_CHARS
from karakuri_agent.state.told_store import SCHEMA as TOLD_SCHEMA
from karakuri_agent.state.told_store import ToldFactsSQL
from karakuri_agent.state.urls import masked
from karakuri_agent.state.values import truncated_json, utc_text

CONNECT_TIMEOUT_SECONDS = 10
# Any fixed 64-bit number: every process migrating this schema takes the same lock.
MIGRATION_LOCK = 0x6B6172616B757269  # "karakuri"
_TIME = 'text COLLATE "C"'


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

    def execute(self, sql: str, params: Any = None) -> psycopg.Cursor[Any]:
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


def connect(url: str) -> _Connection:
    """The one place a connection is made (a pool for a resident process would go here), migrated."""
    conn = _Connection(url)
    try:
        migrate(conn)
    except BaseException:
        conn.close()
        raise
    return conn


# -- migrations ------------------------------------------------------------------
# Numbered like sqlite/db.py's MIGRATIONS and recorded in schema_migrations; the tables hold
# what the SQLite file holds, under names that say what it is (the claims are
# `ledger`), with the indexes the context's reads use.
MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "initial", f"""
        CREATE TABLE notifications (
            notification_id text PRIMARY KEY,
            fetched_at {_TIME} NOT NULL,
            body json NOT NULL
        );
        CREATE INDEX notifications_by_fetch ON notifications (fetched_at);
        -- One row per notification ever acted on, by any process on any machine. Never deleted.
        CREATE TABLE ledger (
            notification_id text PRIMARY KEY,
            command text NOT NULL,
            params jsonb NOT NULL,
            claimed_at {_TIME} NOT NULL,
            pid integer,
            host text,
            outcome text NOT NULL DEFAULT 'claimed',
            finished_at {_TIME},
            result text
        );
        CREATE TABLE activity (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            created_at {_TIME} NOT NULL,
            notification_id text NOT NULL,
            kind text NOT NULL,
            notification_type text,
            command text,
            params jsonb,
            success boolean,
            message text,
            result text,
            reason text
        );
        CREATE UNIQUE INDEX activity_one_request ON activity (notification_id) WHERE kind = 'request';
        CREATE INDEX activity_by_kind ON activity (kind, id);
        CREATE INDEX activity_by_time ON activity (created_at);
        CREATE TABLE memory (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            created_at {_TIME} NOT NULL,
            notification_id text,
            kind text NOT NULL,
            content text NOT NULL
        );
        CREATE INDEX memory_recent ON memory (created_at);
        CREATE TABLE commitments (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            created_at {_TIME} NOT NULL,
            notification_id text NOT NULL,
            partner_id text,
            partner_name text NOT NULL,
            place_name text,
            node_id text,
            due_at {_TIME},
            source_text text NOT NULL,
            status text NOT NULL DEFAULT 'pending',
            fulfilled_at {_TIME},
            line_key text,
            said_at text,
            UNIQUE (notification_id, source_text)
        );
        CREATE INDEX commitments_pending ON commitments (status, due_at);
        CREATE UNIQUE INDEX commitments_one_per_line ON commitments (line_key, said_at) WHERE line_key IS NOT NULL;
        CREATE TABLE heard_lines (
            line_key text PRIMARY KEY,
            first_seen {_TIME} NOT NULL,
            last_seen {_TIME} NOT NULL
        );
        CREATE INDEX heard_lines_by_time ON heard_lines (last_seen);
        CREATE TABLE people (
            agent_id text PRIMARY KEY,
            display_name text NOT NULL,
            nickname text,
            interactions integer NOT NULL DEFAULT 0,
            first_seen {_TIME} NOT NULL,
            last_contact {_TIME}
        );
        CREATE INDEX people_by_name ON people (display_name, last_contact);
        CREATE TABLE places (
            node_id text PRIMARY KEY,
            name text,
            learned_at {_TIME} NOT NULL,
            visits integer NOT NULL DEFAULT 0,
            last_visited {_TIME}
        );
        CREATE TABLE knowledge (
            key text PRIMARY KEY,
            value jsonb NOT NULL,
            updated_at {_TIME} NOT NULL
        );
        CREATE TABLE utterances (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            conversation_key text NOT NULL,
            message text NOT NULL,
            created_at {_TIME} NOT NULL,
            opens boolean NOT NULL DEFAULT false
        );
        CREATE INDEX utterances_by_conversation ON utterances (conversation_key, id);
        CREATE INDEX utterances_by_time ON utterances (created_at);
    """),
    # What a language model proposed and what came of it (a JSON trace), on the run's report entry.
    (2, "activity_model", "ALTER TABLE activity ADD COLUMN model jsonb"),
    # What a pack's behaviour.json remembers, and each run's rule trace (SQLite's migration 7).
    (4, "behaviour_state", f"""
        CREATE TABLE behaviour_state (
            key text PRIMARY KEY,
            value jsonb NOT NULL,
            updated_at {_TIME} NOT NULL
        );
        ALTER TABLE activity ADD COLUMN behaviour jsonb;
    """),
    # The day view's facts (sqlite/db.py's migration 8): places stood at, conversation lines, gifts;
    # with the indexes that read one day out of a year. (Number 3 was never used; a gap is harmless.)
    (5, "journal", f"""
        CREATE TABLE journal (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            at {_TIME} NOT NULL,
            notification_id text NOT NULL,
            kind text NOT NULL,
            key text NOT NULL,
            data jsonb NOT NULL,
            UNIQUE (kind, key)
        );
        CREATE INDEX journal_by_time ON journal (at);
        CREATE INDEX commitments_by_time ON commitments (created_at);
        CREATE INDEX commitments_by_due ON commitments (due_at);
    """),
    # What people told the agent about themselves, and when each was brought up (SQLite's migration 9).
    (6, "told_facts", TOLD_SCHEMA.format(id="bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", time=_TIME)),
]


def migrate(conn: _Connection) -> list[int]:
    """Apply missing migrations in order under an advisory lock; returns the versions applied now.

    Processes starting at once on an empty database queue on the lock; the
    first migrates, the others find every version recorded.
    """
    wanted = [version for version, _, _ in MIGRATIONS]
    if conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()[0]:
        # Every version, not only the newest: numbers are not contiguous (see sqlite/db.py).
        found = conn.execute("SELECT count(*) FROM schema_migrations WHERE version = ANY(%s)", (wanted,)).fetchone()[0]
        if found == len(wanted):
            return []  # the common case: no lock taken
    applied_now = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY,"
                     " name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
        done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        for version, name, sql in MIGRATIONS:
            if version in done:
                continue
            conn.execute(sql.encode())  # several statements: sent as one query, no parameters
            conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (version, name))
            applied_now.append(version)
    return applied_now


# -- the store ---------------------------------------------------------------------
_ACTIVITY_COLUMNS = "id, created_at, notification_id, kind, notification_type, command, params, success, message, reason"
# Commands carry no model trace; a run's report entry may.
_REPORT_COLUMNS = f"{_ACTIVITY_COLUMNS}, model, behaviour"


class PostgresStore(ToldFactsSQL):
    """The Store protocol on PostgreSQL: the same statements as SQLiteStore, in PostgreSQL's words."""

    def __init__(self, conn: _Connection, clock: Callable[[], datetime] = utc_now) -> None:
        self._conn = conn
        self._clock = clock

    def _stamp(self) -> str:
        return utc_text(self._clock())

    def _rows(self, sql: str, params: Any = None) -> list[dict[str, Any]]:
        cursor = self._conn.execute(sql, params)
        names = [column.name for column in cursor.description or ()]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def _told_rows(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        return self._rows(sql.replace("?", "%s"), params)

    def _told_run(self, sql: str, params: list[Any]) -> None:
        self._conn.execute(sql.replace("?", "%s"), params)

    # -- notifications and activity --------------------------------------
    def save_notification(self, notification_id: str, body: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO notifications (notification_id, fetched_at, body) VALUES (%s, %s, %s)"
            " ON CONFLICT (notification_id) DO UPDATE SET body = excluded.body",
            (notification_id, self._stamp(), Json(body)),
        )

    def load_notification(self, notification_id: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT body FROM notifications WHERE notification_id = %s",
                                 (notification_id,)).fetchone()
        return row[0] if row else None

    def record_request(self, notification_id: str, notification_type: str) -> int:
        """One 'request' entry per notification, however often (and by however many processes) fetched."""
        self._conn.execute(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type)"
            " VALUES (%s, %s, 'request', %s) ON CONFLICT DO NOTHING",
            (self._stamp(), notification_id, notification_type),
        )
        row = self._conn.execute("SELECT id FROM activity WHERE notification_id = %s AND kind = 'request'",
                                 (notification_id,)).fetchone()
        return int(row[0])

    def record_command(self, notification_id: str, notification_type: str, command: str,
                       params: dict[str, Any], success: bool, message: str, result: Any,
                       reason: str = "") -> int:
        row = self._conn.execute(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type, command, params,"
            " success, message, result, reason) VALUES (%s, %s, 'command', %s, %s, %s, %s, %s, %s, %s) RETURNING id",
            (self._stamp(), notification_id, notification_type, command, Jsonb(params), bool(success), message,
             truncated_json(result, MAX_RESULT_CHARS), reason),
        ).fetchone()
        return int(row[0])

    def record_report(self, notification_id: str, notification_type: str, report: str, *, dry_run: bool,
                      command: str | None, params: dict[str, Any] | None, reason: str, failed: bool,
                      model: dict[str, Any] | None = None, behaviour: dict[str, Any] | None = None) -> None:
        self._conn.execute(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type, command, params,"
            " success, message, reason, model, behaviour) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (self._stamp(), notification_id, "dry_run" if dry_run else "report", notification_type or None,
             command, None if params is None else Jsonb(params), False if failed else None, report, reason or None,
             None if model is None else Jsonb(model), None if behaviour is None else Jsonb(behaviour)),
        )

    def recent_activity(self, limit: int = 6) -> list[dict[str, Any]]:
        rows = self._rows(f"SELECT {_REPORT_COLUMNS} FROM activity ORDER BY id DESC LIMIT %s", (limit,))
        return [_present(row) for row in rows]

    def recent_commands(self, limit: int = 6) -> list[dict[str, Any]]:
        rows = self._rows(f"SELECT {_ACTIVITY_COLUMNS} FROM activity WHERE kind = 'command'"
                          " ORDER BY id DESC LIMIT %s", (limit,))
        return [_present(row) for row in rows]

    # -- memory ------------------------------------------------------------
    def add_memory(self, notification_id: str | None, kind: str, content: str) -> None:
        self._conn.execute("INSERT INTO memory (created_at, notification_id, kind, content) VALUES (%s, %s, %s, %s)",
                           (self._stamp(), notification_id, kind, content))

    def recent_memory(self, since: datetime, limit: int = 12) -> list[dict[str, Any]]:
        return self._rows("SELECT created_at, kind, content FROM memory WHERE created_at >= %s"
                          " ORDER BY created_at DESC LIMIT %s", (utc_text(since), limit))

    # -- commitments ---------------------------------------------------------
    def hear_line(self, line_key: str, at: datetime, repeat_after: timedelta) -> datetime:
        """As SQLiteStore.hear_line: the time a line's words are read against."""
        row = self._conn.execute("SELECT first_seen, last_seen FROM heard_lines WHERE line_key = %s",
                                 (line_key,)).fetchone()
        if row is not None:
            first, last = datetime.fromisoformat(row[0]), datetime.fromisoformat(row[1])
            if first - repeat_after <= at <= last + repeat_after:
                self._conn.execute("UPDATE heard_lines SET last_seen = GREATEST(last_seen, %s) WHERE line_key = %s",
                                   (utc_text(at), line_key))
                return first
        self._conn.execute(
            "INSERT INTO heard_lines (line_key, first_seen, last_seen) VALUES (%s, %s, %s) ON CONFLICT (line_key)"
            " DO UPDATE SET first_seen = excluded.first_seen, last_seen = excluded.last_seen",
            (line_key, utc_text(at), utc_text(at)),
        )
        return at

    def add_commitment(self, notification_id: str, commitment: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO commitments (created_at, notification_id, partner_id, partner_name, place_name, node_id,"
            " due_at, source_text, line_key, said_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT DO NOTHING",
            (self._stamp(), notification_id, commitment.get("partner_id"), commitment["partner_name"],
             commitment.get("place_name"), commitment.get("node_id"), commitment.get("due_at"),
             commitment["source_text"], commitment.get("line_key"), commitment.get("said_at")),
        )

    def pending_commitments(self, due_after: datetime | None = None, limit: int = 8) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text"
            " FROM commitments WHERE status = 'pending' AND (due_at IS NULL OR due_at >= %s)"
            " ORDER BY due_at IS NULL, due_at LIMIT %s",
            (utc_text(due_after) if due_after else "", limit),
        )

    def meetings(self, due_from: datetime, due_to: datetime, limit: int = 8) -> list[dict[str, Any]]:
        return self._rows(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text, status"
            " FROM commitments WHERE status IN ('pending', 'fulfilled') AND due_at BETWEEN %s AND %s"
            " ORDER BY due_at LIMIT %s",
            (utc_text(due_from), utc_text(due_to), limit),
        )

    def fulfil_commitments(self, ids: Iterable[int]) -> None:
        self._conn.execute(
            "UPDATE commitments SET status = 'fulfilled', fulfilled_at = %s WHERE id = ANY(%s) AND status = 'pending'",
            (self._stamp(), list(ids)),
        )

    # -- people --------------------------------------------------------------
    def see_people(self, people: Iterable[dict[str, Any]]) -> None:
        now = self._stamp()
        self._conn.executemany(
            "INSERT INTO people (agent_id, display_name, first_seen) VALUES (%s, %s, %s)"
            " ON CONFLICT (agent_id) DO UPDATE SET display_name = excluded.display_name",
            [(p["id"], p["name"], now) for p in people if p.get("id") and p.get("name")],
        )

    def touch_person(self, agent_id: str, name: str) -> None:
        now = self._stamp()
        self._conn.execute(
            "INSERT INTO people (agent_id, display_name, interactions, first_seen, last_contact)"
            " VALUES (%s, %s, 1, %s, %s) ON CONFLICT (agent_id) DO UPDATE SET"
            " interactions = people.interactions + 1, last_contact = excluded.last_contact,"
            " display_name = CASE WHEN excluded.display_name != '' THEN excluded.display_name"
            " ELSE people.display_name END",
            (agent_id, name, now, now),
        )

    def people(self, agent_ids: Iterable[str]) -> list[dict[str, Any]]:
        ids = list(dict.fromkeys(agent_ids))
        if not ids:
            return []
        rows = self._rows("SELECT agent_id, display_name, nickname, interactions, last_contact FROM people"
                          " WHERE agent_id = ANY(%s)", (ids,))
        by_id = {row["agent_id"]: row for row in rows}
        return [{**row, "relationship": relationship(row["interactions"])}
                for agent_id in ids if (row := by_id.get(agent_id)) is not None]

    def person_id(self, name: str) -> str | None:
        row = self._conn.execute("SELECT agent_id FROM people WHERE display_name = %s"
                                 " ORDER BY last_contact DESC NULLS LAST LIMIT 1", (name,)).fetchone()
        return row[0] if row else None

    # -- places and world knowledge ------------------------------------------
    def learn_places(self, places: Iterable[dict[str, Any]]) -> None:
        now = self._stamp()
        self._conn.executemany(
            "INSERT INTO places (node_id, name, learned_at) VALUES (%s, %s, %s)"
            " ON CONFLICT (node_id) DO UPDATE SET name = COALESCE(excluded.name, places.name)",
            [(p["node_id"], p.get("name"), now) for p in places if p.get("node_id")],
        )

    def visit_place(self, node_id: str) -> None:
        now = self._stamp()
        self._conn.execute(
            "INSERT INTO places (node_id, learned_at, visits, last_visited) VALUES (%s, %s, 1, %s)"
            " ON CONFLICT (node_id) DO UPDATE SET visits = places.visits + 1, last_visited = excluded.last_visited",
            (node_id, now, now),
        )

    def note_presence(self, node_id: str, name: str | None) -> None:
        now = self._stamp()
        self._conn.execute(
            "INSERT INTO places (node_id, name, learned_at, last_visited) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (node_id) DO UPDATE SET last_visited = excluded.last_visited,"
            " name = COALESCE(places.name, excluded.name)",
            (node_id, name, now, now),
        )

    def known_places(self, limit: int = 200) -> list[dict[str, Any]]:
        return self._rows('SELECT node_id, name, visits, last_visited FROM places WHERE name IS NOT NULL'
                          ' ORDER BY node_id COLLATE "C" LIMIT %s', (limit,))

    def set_knowledge(self, key: str, value: Any) -> None:
        self._conn.execute(
            "INSERT INTO knowledge (key, value, updated_at) VALUES (%s, %s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            (key, Jsonb(value), self._stamp()),
        )

    def behaviour_state(self) -> dict[str, Any]:
        rows = self._conn.execute("SELECT key, value FROM behaviour_state ORDER BY key").fetchall()
        return {row[0]: row[1] for row in rows}

    def save_behaviour_state(self, values: dict[str, Any]) -> None:
        for key, value in values.items():
            self._conn.execute(
                "INSERT INTO behaviour_state (key, value, updated_at) VALUES (%s, %s, %s)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (key, Jsonb(value), self._stamp()),
            )

    def knowledge(self, key: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT value, updated_at FROM knowledge WHERE key = %s", (key,)).fetchone()
        return {"value": row[0], "updated_at": row[1]} if row else None

    def knowledge_times(self) -> dict[str, str]:
        return {row[0]: row[1] for row in self._conn.execute("SELECT key, updated_at FROM knowledge LIMIT 100")}

    # -- own lines -------------------------------------------------------------
    def add_utterance(self, conversation_key: str, message: str, *, opens: bool = False) -> None:
        self._conn.execute("INSERT INTO utterances (conversation_key, message, created_at, opens)"
                           " VALUES (%s, %s, %s, %s)", (conversation_key, message, self._stamp(), opens))

    def utterances(self, conversation_key: str, limit: int = 50) -> list[dict[str, Any]]:
        rows = self._rows("SELECT message, created_at, opens FROM utterances WHERE conversation_key = %s"
                          " ORDER BY id DESC LIMIT %s", (conversation_key, limit))
        return [{**row, "opens": int(row["opens"])} for row in rows]  # 0/1, as the SQLite store answers

    def utterances_since(self, since: datetime, limit: int = 2000) -> list[dict[str, Any]]:
        return self._rows("SELECT conversation_key, message, created_at FROM utterances WHERE created_at >= %s"
                          " ORDER BY id DESC LIMIT %s", (utc_text(since), limit))

    # -- the day view ----------------------------------------------------------
    def add_to_journal(self, notification_id: str, kind: str, key: str, at: datetime,
                       data: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO journal (at, notification_id, kind, key, data) VALUES (%s, %s, %s, %s, %s)"
            " ON CONFLICT (kind, key) DO NOTHING",
            (utc_text(at), notification_id, kind, key, Jsonb(data)),
        )

    def journal_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[dict[str, Any]]:
        return self._rows("SELECT at, notification_id, kind, data FROM journal WHERE at >= %s AND at < %s"
                          " ORDER BY at, id LIMIT %s", (utc_text(start), utc_text(end), limit))

    def activity_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[dict[str, Any]]:
        rows = self._rows(f"SELECT {_ACTIVITY_COLUMNS} FROM activity WHERE created_at >= %s AND created_at < %s"
                          " ORDER BY id LIMIT %s", (utc_text(start), utc_text(end), limit))
        return [_present(row) for row in rows]

    def commitments_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[dict[str, Any]]:
        low, high = utc_text(start), utc_text(end)
        return self._rows(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text,"
            " status, created_at, fulfilled_at FROM commitments WHERE id IN"
            " (SELECT id FROM commitments WHERE created_at >= %s AND created_at < %s"
            "  UNION SELECT id FROM commitments WHERE due_at >= %s AND due_at < %s) ORDER BY id LIMIT %s",
            (low, high, low, high, limit),
        )

    def batch(self) -> AbstractContextManager[None]:
        """Group several writes into one transaction (all or nothing) that does not wait for the disk.

        As on SQLite: what the store keeps can be learned again; only the
        ledger's claim waits for its commit to be flushed. Nested, it joins the outer batch.
        """
        return self._conn.transaction(wait_for_disk=False)


def _present(row: dict[str, Any]) -> dict[str, Any]:
    """An activity row as SQLiteStore returns it: only the fields that have a value."""
    return {key: value for key, value in row.items() if value is not None}


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
            (outcome, utc_text(self._clock()), truncated_json(result, MAX_LEDGER_RESULT_CHARS), notification_id),
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
        """retention.py's statements, in psycopg's parameter style, in one transaction (rolled back on a dry run)."""
        from karakuri_agent.state.retention import STATEMENTS, DryRun, retention_values

        values = retention_values(keep_days, now)
        deleted: dict[str, Any] = {}
        try:
            with self.conn.transaction():
                for table, sql in STATEMENTS.items():
                    deleted[table] = self.conn.execute(re.sub(r":(\w+)", r"%(\1)s", sql), values).rowcount
                if dry_run:
                    raise DryRun
        except DryRun:
            pass
        deleted["cutoff"] = values["cutoff"]
        return deleted

    def close(self) -> None:
        self.conn.close()
