"""The in-memory backend: the SQLite backend itself on SQLite's `:memory:` database.

For tests and for code that must not touch the disk (as httpx's
`MockTransport` sits beside its transports). Being the SQLite store and
ledger, not a second implementation, it has their orderings, bounds,
idempotent writes, `AlreadyAttempted` on a second claim and all-or-nothing
`batch()` by construction. Nothing survives the object, so it is never
chosen by configuration: the ledger would not outlive one run.
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.state.sqlite.db import connect_in_memory
from karakuri_agent.state.sqlite.ledger import Ledger
from karakuri_agent.state.sqlite.backend import SQLiteState
from karakuri_agent.state.sqlite.store import SQLiteStore


class MemoryState(SQLiteState):
    """A store and a ledger that live as long as this object."""

    def __init__(self, clock: Callable[[], datetime] = utc_now) -> None:
        self.conn = connect_in_memory()
        self.state_dir = None
        self.store = SQLiteStore(self.conn, clock)
        self.ledger = Ledger(self.conn, clock)

