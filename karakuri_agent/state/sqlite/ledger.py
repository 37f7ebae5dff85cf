"""The one-action claim per notification.

A claim is a single INSERT on a primary key, committed before the POST and
never deleted or rolled back: whichever process inserts first owns the
notification, forever. A crash after the claim spends the notification; that
is the price of "at most one", and it is the right one.
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import datetime
from typing import Any, Callable

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.errors import AlreadyAttempted
from karakuri_agent.state.values import LEDGER_RESULT_CHARS, to_json, truncated_json, utc_text

class Ledger:
    """The Ledger protocol (state/base.py) on the SQLite file (its driver errors mapped by guard.py)."""

    def __init__(self, conn: sqlite3.Connection, clock: Callable[[], datetime] = utc_now) -> None:
        self._conn = conn
        self._clock = clock

    def _stamp(self) -> str:
        """Timestamps come from the runtime's clock, so replays and tests are deterministic."""
        return utc_text(self._clock())

    def claim(self, notification_id: str, command: str, params: dict[str, Any]) -> None:
        """Take the notification, or raise AlreadyAttempted with the earlier claim.

        The claim is its own transaction, under `synchronous = FULL`: on disk
        when this returns. Inside a batch it would be neither, so that is refused.
        """
        if self._conn.in_transaction:
            raise RuntimeError("a claim is committed on its own, before the command: not inside a batch")
        inserted = self._conn.execute(
            "INSERT INTO attempts (notification_id, command, params, claimed_at, pid)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (notification_id) DO NOTHING",
            (notification_id, command, to_json(params), self._stamp(), os.getpid()),
        ).rowcount
        if inserted != 1:  # another process (or an earlier run) holds it
            raise AlreadyAttempted(notification_id, self.previous(notification_id) or {})

    def finish(self, notification_id: str, outcome: str, result: dict[str, Any]) -> None:
        """Record what happened after the claim. Only ever adds information."""
        text = truncated_json(result, LEDGER_RESULT_CHARS)
        self._conn.execute(
            "UPDATE attempts SET outcome = ?, finished_at = ?, result = ? WHERE notification_id = ?",
            (outcome, self._stamp(), text, notification_id),
        )

    def recent_claims(self, limit: int) -> list[dict[str, Any]]:
        rows = self._conn.execute(
            "SELECT notification_id, command, params, claimed_at, outcome FROM attempts"
            " ORDER BY claimed_at DESC LIMIT ?", (limit,)).fetchall()
        return [{"notification_id": r["notification_id"], "command": r["command"], "params": json.loads(r["params"]),
                 "claimed_at": r["claimed_at"], "outcome": r["outcome"]} for r in rows]

    def previous(self, notification_id: str) -> dict[str, Any] | None:
        row = self._conn.execute(
            "SELECT command, params, claimed_at, outcome, finished_at FROM attempts WHERE notification_id = ?",
            (notification_id,),
        ).fetchone()
        if row is None:
            return None
        return {
            "command": row["command"],
            "params": json.loads(row["params"]),
            "claimed_at": row["claimed_at"],
            "outcome": row["outcome"],
            "finished_at": row["finished_at"],
        }
