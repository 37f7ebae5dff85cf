"""The SQLite backend: one file in the state directory (db.py), `SQLiteStore`, the SQLite `Ledger`.

Its migrations are db.MIGRATIONS; its retention statements are retention.py's.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.state.sqlite.db import connect, connect_read_only
from karakuri_agent.state.sqlite.ledger import Ledger
from karakuri_agent.state.sqlite.store import SQLiteStore


class SQLiteState:
    """The store and the ledger on one connection, so a claim and a record share the file's locks."""

    def __init__(self, state_dir: Path, clock: Callable[[], datetime] = utc_now, *, read_only: bool = False) -> None:
        """`read_only`: the existing file, opened to read, nothing created or changed (db.connect_read_only)."""
        self.conn = connect_read_only(state_dir) if read_only else connect(state_dir)
        self.state_dir: Path | None = state_dir
        self.store = SQLiteStore(self.conn, clock)
        self.ledger = Ledger(self.conn, clock)

    def forget_before(self, keep_days: int, now: datetime, *, dry_run: bool = False) -> dict[str, Any]:
        from karakuri_agent.state.retention import forget

        return forget(self.store, keep_days=keep_days, now=now, dry_run=dry_run)

    def turn(self, agent: str) -> AbstractContextManager[None]:
        """The agent's turn (state/agent_turn.py): a lock on a file beside the database, one agent per file."""
        if self.state_dir is None:
            return nullcontext()  # an in-memory state lives in one process, one run at a time
        from karakuri_agent.state.agent_turn import file_turn

        return file_turn(self.state_dir)

    def close(self) -> None:
        self.conn.close()
