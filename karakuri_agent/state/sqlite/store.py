"""The store on the state directory's SQLite file (or SQLite's `:memory:`): sql_store.py's SQL in SQLite's words.

SQLite keeps JSON as text (parsed here on the way out), booleans as 0/1, and
groups a batch of store writes in a transaction that commits without an
fsync (db.transaction's `wait_for_disk=False`): the ledger's claim syncs, and
carries those writes to disk with it.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Callable

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.state.dialect import Dialect, from_json_text
from karakuri_agent.state.sql_store import SQLStore
from karakuri_agent.state.sqlite.db import transaction
from karakuri_agent.state.values import to_json


SQLITE = Dialect(
    name="sqlite",
    positional_mark="?",
    greatest="MAX",
    binary="BINARY",
    json_value=to_json,
    exact_json_value=to_json,
    from_json=from_json_text,
    flag=int,
    transaction=transaction,
)


class SQLiteStore(SQLStore):
    """The Store protocol on one SQLite connection."""

    def __init__(self, conn: sqlite3.Connection, clock: Callable[[], datetime] = utc_now) -> None:
        super().__init__(conn, SQLITE, clock)
