"""What differs between the two SQL backends, and nothing else: the store's SQL is written once (sql_store.py).

SQLite and PostgreSQL read the same statements. They differ in five small
ways, each named here once:

- the parameter mark (`?` against psycopg's `%s`; named `:name` against `%(name)s`);
- how a JSON column is written and read (text SQLite parses, `jsonb` psycopg parses);
- how a boolean is stored (0/1 against `boolean`);
- the two-argument maximum (`MAX(a, b)` against `GREATEST(a, b)`) and byte-order
  collation (`BINARY` against `"C"`);
- a table's name (the PostgreSQL schema calls SQLite's `attempts` `ledger`) and
  how a transaction is begun (and told whether to wait for the disk).

Each backend builds its own: `SQLITE` in state/sqlite/store.py, `POSTGRES` in
state/postgres.py (where psycopg, whose JSON wrappers it uses, is imported).
"""

from __future__ import annotations

import json
import re
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Callable


_NAMED_MARK = re.compile(r":(\w+)")


def from_json_text(value: Any) -> Any:
    """A JSON column that the driver gives back as text (SQLite's), as Python values."""
    return None if value is None else json.loads(value)


@dataclass(frozen=True)
class Dialect:
    name: str
    # How one statement's marks are written for the driver: "?" stays "?" on SQLite.
    positional_mark: str
    greatest: str  # the larger of two values
    binary: str  # a collation that orders text by its bytes (times and node ids sort as text)
    json_value: Callable[[Any], Any]  # a value for a JSON column
    exact_json_value: Callable[[Any], Any]  # one kept exactly as the server sent it (a notification's body)
    from_json: Callable[[Any], Any]  # what a JSON column gives back, as Python values
    flag: Callable[[bool], Any]  # a boolean column's value
    # `transaction(conn, wait_for_disk=...)`: all or nothing, nested as a savepoint; the store's batches
    # need not wait for the disk (the ledger claim's own sync carries them), a `state copy` does.
    transaction: Callable[..., AbstractContextManager[Any]]
    table_names: dict[str, str] = field(default_factory=dict)

    def sql(self, statement: str) -> str:
        """A statement written with `?` marks, in the driver's own marks."""
        return statement if self.positional_mark == "?" else statement.replace("?", self.positional_mark)

    def named(self, statement: str) -> str:
        """A statement written with `:name` marks (retention.py's), in the driver's own marks."""
        return statement if self.positional_mark == "?" else _NAMED_MARK.sub(r"%(\1)s", statement)

    def table(self, name: str) -> str:
        """A table's name in this backend's schema (tables.py names them as the SQLite file does)."""
        return self.table_names.get(name, name)
