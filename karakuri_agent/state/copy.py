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
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from karakuri_agent.errors import UsageError
from karakuri_agent.state.base import State, StateLocation
from karakuri_agent.state.factory import backend_for, open_state, open_url
from karakuri_agent.state.sql_store import SQLStore
from karakuri_agent.state.tables import TABLES, Table


def open_other(url: str, state_dir: Path, clock: Callable[[], datetime]) -> State:
    """The other side of a copy: `sqlite:` is the state directory's file, `sqlite:DIR` another directory's."""
    if backend_for(url) == "sqlite":
        path = url.partition(":")[2].removeprefix("//")
        return open_url("", Path(path).expanduser() if path else state_dir, clock)
    return open_url(url, state_dir, clock)


def copy_state(source: State, target: State) -> dict[str, int]:
    """Copy every table's rows the target lacks; returns how many rows were copied per table."""
    reader, writer = _Side(source), _Side(target)
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


class _Side:
    """One end of a copy: its connection, read and written in its backend's dialect."""

    def __init__(self, state: State) -> None:
        store = state.store
        if not isinstance(store, SQLStore):
            raise UsageError("state copy works between the SQLite file and PostgreSQL databases")
        self.conn = store.connection
        self.dialect = store.dialect

    def transaction(self) -> AbstractContextManager[Any]:
        return self.dialect.transaction(self.conn)

    def rows(self, table: Table) -> list[dict[str, Any]]:
        cursor = self.conn.execute(f"SELECT {', '.join(table.columns)} FROM {self.dialect.table(table.name)}"
                                   f" ORDER BY {table.ordered_by}")
        rows = [dict(zip(table.columns, values)) for values in cursor.fetchall()]
        for row in rows:
            for column in table.json:
                row[column] = self.dialect.from_json(row[column])
            for column in table.flags:
                row[column] = None if row[column] is None else bool(row[column])
        return rows

    def insert(self, table: Table, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        dialect = self.dialect
        as_json = dialect.exact_json_value if table.exact_json else dialect.json_value

        def value(column: str, v: Any) -> Any:
            if v is None:
                return None
            if column in table.json:
                return as_json(v)
            return dialect.flag(v) if column in table.flags else v

        marks = ", ".join("?" * len(table.columns))
        self.conn.executemany(dialect.sql(f"INSERT INTO {dialect.table(table.name)} ({', '.join(table.columns)})"
                                          f" VALUES ({marks}) ON CONFLICT DO NOTHING"),
                              [tuple(value(c, row[c]) for c in table.columns) for row in rows])
