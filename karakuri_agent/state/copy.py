"""`karakuri-agent state copy`: move the whole state between SQLite and PostgreSQL, idempotently.

Every table is copied row by row in the source's order. A row the target
already holds (same key) is skipped, so running the copy again copies
nothing twice, and a target with its own history keeps it. Tables with
natural keys (a notification, a ledger claim, a person, a place, a piece of
knowledge, a heard line, a promise) are matched on that key; the history
tables (activity, memory, own lines) on their whole content, and copied rows
get the target's own ids, after its existing rows.

A ledger claim already in the target always wins: a copy never overwrites or
removes a claim, and never adds a second one for a notification.
The copy is one transaction on the target: it lands whole or not at all.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from karakuri_agent.errors import UsageError
from karakuri_agent.state.base import State, StateLocation
from karakuri_agent.state.factory import backend_for, open_state, open_url
from karakuri_agent.state.sqlite.db import transaction
from karakuri_agent.state.told_store import FACT_COLUMNS
from karakuri_agent.state.values import to_json


@dataclass(frozen=True)
class Table:
    name: str  # as the SQLite file calls it
    columns: tuple[str, ...]
    key: tuple[str, ...]  # what makes two rows the same row
    json: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()  # booleans: 0/1 in SQLite, boolean in PostgreSQL
    ordered_by: str = "id"


_ACTIVITY = ("created_at", "notification_id", "kind", "notification_type", "command", "params", "success",
             "message", "result", "reason", "model", "behaviour")
_COMMITMENT = ("created_at", "notification_id", "partner_id", "partner_name", "place_name", "node_id", "due_at",
               "source_text", "status", "fulfilled_at", "line_key", "said_at")
TABLES: tuple[Table, ...] = (
    Table("attempts", ("notification_id", "command", "params", "claimed_at", "pid", "outcome", "finished_at",
                       "result"), ("notification_id",), json=("params",), ordered_by="claimed_at"),
    Table("notifications", ("notification_id", "fetched_at", "body"), ("notification_id",), json=("body",),
          ordered_by="fetched_at"),
    Table("activity", _ACTIVITY, _ACTIVITY, json=("params", "model", "behaviour"), flags=("success",)),
    Table("memory", ("created_at", "notification_id", "kind", "content"),
          ("created_at", "notification_id", "kind", "content")),
    Table("commitments", _COMMITMENT, ("notification_id", "source_text")),
    Table("heard_lines", ("line_key", "first_seen", "last_seen"), ("line_key",), ordered_by="line_key"),
    Table("people", ("agent_id", "display_name", "nickname", "interactions", "first_seen", "last_contact"),
          ("agent_id",), ordered_by="agent_id"),
    Table("places", ("node_id", "name", "learned_at", "visits", "last_visited"), ("node_id",), ordered_by="node_id"),
    Table("knowledge", ("key", "value", "updated_at"), ("key",), json=("value",), ordered_by="key"),
    Table("behaviour_state", ("key", "value", "updated_at"), ("key",), json=("value",), ordered_by="key"),
    Table("told_facts", (*FACT_COLUMNS, "withdrawn_at"), ("fact_key",), ordered_by="id"),
    Table("fact_mentions", ("fact_key", "listener", "mentioned_at"), ("fact_key", "listener"),
          ordered_by="fact_key"),
    Table("utterances", ("conversation_key", "message", "created_at", "opens"),
          ("conversation_key", "message", "created_at", "opens"), flags=("opens",)),
    Table("journal", ("at", "notification_id", "kind", "key", "data"), ("kind", "key"), json=("data",)),
)
# The PostgreSQL schema names the claims for what they are.
POSTGRES_NAMES = {"attempts": "ledger"}


def open_other(url: str, state_dir: Path, clock: Callable[[], datetime]) -> State:
    """The other side of a copy: `sqlite:` is the state directory's file, `sqlite:DIR` another directory's."""
    if backend_for(url) == "sqlite":
        path = url.partition(":")[2].removeprefix("//")
        return open_url("", Path(path).expanduser() if path else state_dir, clock)
    return open_url(url, state_dir, clock)


def copy_state(source: State, target: State) -> dict[str, int]:
    """Copy every table's rows the target lacks; returns how many rows were copied per table."""
    reader, writer = _side(source), _side(target)
    copied: dict[str, int] = {}
    with writer.transaction():
        for table in TABLES:
            have = {_key(table, row) for row in writer.rows(table)}
            missing = []
            for row in reader.rows(table):
                key = _key(table, row)
                if key not in have:
                    have.add(key)
                    missing.append(row)
            writer.insert(table, missing)
            copied[table.name] = len(missing)
    return copied


def copy_between(settings: StateLocation, other_url: str, *, to_other: bool, clock: Callable[[], datetime],
                 argument: str = "the other URL") -> dict[str, int]:
    """`state copy --to URL` (to_other) or `--from URL`: the configured state is the other side.

    `argument` names where `other_url` came from, so a wrong one is blamed on it, not on the settings.
    """
    backend_for(other_url, argument)
    configured = settings.database_url.get() if settings.database_url else ""
    if _endpoint(configured, settings.state_dir) == _endpoint(other_url, settings.state_dir):
        raise UsageError("state copy: that is the configured state itself; name the other one"
                         " (postgresql://… or sqlite:DIR)")
    with open_state(settings, clock) as mine:
        other = open_other(other_url, settings.state_dir, clock)
        try:
            return copy_state(mine, other) if to_other else copy_state(other, mine)
        finally:
            other.close()


def _endpoint(url: str, state_dir: Path) -> tuple[str, str]:
    """Which store a URL names, to refuse copying a state onto itself."""
    if backend_for(url) == "postgres":
        return ("postgres", url)
    path = url.partition(":")[2].removeprefix("//")
    return ("sqlite", str((Path(path).expanduser() if path else state_dir).resolve()))


def _key(table: Table, row: dict[str, Any]) -> tuple[Any, ...]:
    """The row's identity, with JSON compared by value (key order and spacing differ between backends)."""
    return tuple(json.dumps(row[c], sort_keys=True) if c in table.json else row[c] for c in table.key)


class _SQLiteSide:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def transaction(self) -> Any:
        return transaction(self.conn)

    def rows(self, table: Table) -> list[dict[str, Any]]:
        cursor = self.conn.execute(f"SELECT {', '.join(table.columns)} FROM {table.name} ORDER BY {table.ordered_by}")
        rows = [dict(zip(table.columns, values)) for values in cursor]
        for row in rows:
            for column in table.json:
                row[column] = None if row[column] is None else json.loads(row[column])
            for column in table.flags:
                row[column] = None if row[column] is None else bool(row[column])
        return rows

    def insert(self, table: Table, rows: list[dict[str, Any]]) -> None:
        marks = ", ".join("?" * len(table.columns))
        self.conn.executemany(
            f"INSERT INTO {table.name} ({', '.join(table.columns)}) VALUES ({marks}) ON CONFLICT DO NOTHING",
            [tuple(_sqlite_value(table, c, row[c]) for c in table.columns) for row in rows],
        )


def _sqlite_value(table: Table, column: str, value: Any) -> Any:
    if value is None:
        return None
    if column in table.json:
        return to_json(value)
    if column in table.flags:
        return int(value)
    return value


class _PostgresSide:
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def transaction(self) -> Any:
        return self.conn.transaction()

    def rows(self, table: Table) -> list[dict[str, Any]]:
        name = POSTGRES_NAMES.get(table.name, table.name)
        cursor = self.conn.execute(f"SELECT {', '.join(table.columns)} FROM {name} ORDER BY {table.ordered_by}")
        return [dict(zip(table.columns, values)) for values in cursor.fetchall()]

    def insert(self, table: Table, rows: list[dict[str, Any]]) -> None:
        from psycopg.types.json import Json, Jsonb

        name = POSTGRES_NAMES.get(table.name, table.name)
        wrap = Json if table.name == "notifications" else Jsonb  # a notification is kept as sent

        def value(column: str, v: Any) -> Any:
            return wrap(v) if column in table.json and v is not None else v

        marks = ", ".join(["%s"] * len(table.columns))
        self.conn.executemany(
            f"INSERT INTO {name} ({', '.join(table.columns)}) VALUES ({marks}) ON CONFLICT DO NOTHING",
            [tuple(value(c, row[c]) for c in table.columns) for row in rows],
        )


def _side(state: State) -> _SQLiteSide | _PostgresSide:
    from karakuri_agent.state.sqlite.state import SQLiteState

    if isinstance(state, SQLiteState):
        return _SQLiteSide(state.conn)
    from karakuri_agent.state.postgres import PostgresState  # only reached with a PostgreSQL state, so psycopg is there

    if isinstance(state, PostgresState):
        return _PostgresSide(state.conn)
    raise UsageError("state copy works between the SQLite file and PostgreSQL databases")
