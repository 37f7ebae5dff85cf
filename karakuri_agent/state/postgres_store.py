"""The store on PostgreSQL: sql_store.py's SQL in PostgreSQL's words.

psycopg marks parameters `%s`, reads JSON columns into Python values itself,
stores booleans as `boolean`, and names the ledger's table `ledger`. JSON the
package builds is `jsonb`; a fetched notification is `json`, kept exactly as
the server sent it. A batch of store writes is one transaction committed with
`synchronous_commit` off (state/postgres.py's `_Connection.transaction`).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Callable

from psycopg.types.json import Json, Jsonb

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.state.dialect import Dialect
from karakuri_agent.state.postgres_schema import Connection
from karakuri_agent.state.sql_store import SQLStore


def _identity(value: Any) -> Any:
    return value


def _transaction(conn: Connection, *, wait_for_disk: bool = True) -> AbstractContextManager[None]:
    return conn.transaction(wait_for_disk=wait_for_disk)


POSTGRES = Dialect(
    name="postgres",
    positional_mark="%s",
    greatest="GREATEST",
    binary='"C"',
    json_value=Jsonb,
    exact_json_value=Json,
    from_json=_identity,
    flag=bool,
    transaction=_transaction,
    table_names={"attempts": "ledger"},
)


class PostgresStore(SQLStore):
    """The Store protocol on one connection to the shared database."""

    def __init__(self, conn: Connection, clock: Callable[[], datetime] = utc_now) -> None:
        super().__init__(conn, POSTGRES, clock)
