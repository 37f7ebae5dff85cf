"""Retention: forgetting old history without forgetting who we are or what we did.

Every run adds a few rows (the fetched notification, its activity entries, a
memory line, maybe an utterance), so after months the state file holds
history nobody reads. `forget()` deletes what is older than `keep_days`, and
never what a run still needs:

- the ledger (`attempts`) is kept forever: a deleted claim could let a late
  duplicate delivery of an old message act a second time;
- people, places and world knowledge are kept: they are what the agent knows;
- the context a run builds stays the same: the newest activity entries and
  commands (`recent_activity`, `recent_commands`), the newest memory lines
  (`recent_memory`), every pending promise, and every line of a conversation
  that is still going on are kept whatever their age.

One write transaction, so a crash or a concurrent run sees all or nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from karakuri_agent.domain.limits import ACTIVITY_LIMIT as KEEP_ACTIVITY
from karakuri_agent.domain.limits import MEMORY_LIMIT as KEEP_MEMORY
from karakuri_agent.domain.limits import RECENT_COMMANDS as KEEP_COMMANDS
from karakuri_agent.state.values import utc_text

if TYPE_CHECKING:
    from karakuri_agent.state.sql_store import SQLStore

# Keeping a century is keeping everything; past ~2.7 million days the cutoff
# would fall before year 1, which dates cannot express.
MAX_KEEP_DAYS = 36_500

# Named parameters (:name) in SQLite's style; a dialect writes them in its driver's (dialect.named).
STATEMENTS: dict[str, str] = {
    # Old entries, except the newest few overall and the newest few commands.
    "activity": (
        "DELETE FROM activity WHERE created_at < :cutoff"
        " AND id NOT IN (SELECT id FROM activity ORDER BY id DESC LIMIT :keep_activity)"
        " AND id NOT IN (SELECT id FROM activity WHERE kind = 'command' ORDER BY id DESC LIMIT :keep_commands)"
    ),
    "memory": (
        "DELETE FROM memory WHERE created_at < :cutoff"
        " AND id NOT IN (SELECT id FROM memory ORDER BY created_at DESC, id DESC LIMIT :keep_memory)"
    ),
    # The stored copies of old notifications (an old notification has long expired).
    "notifications": "DELETE FROM notifications WHERE fetched_at < :cutoff",
    # Own lines of conversations that ended before the cutoff; a conversation with a
    # recent line keeps all of its lines (the policy counts them and avoids repeats).
    "utterances": (
        "DELETE FROM utterances WHERE created_at < :cutoff AND conversation_key NOT IN"
        " (SELECT conversation_key FROM utterances WHERE created_at >= :cutoff)"
    ),
    # Sightings of others' lines not seen since the cutoff, except the lines of pending
    # promises (re-read later, they must still resolve to the same saying).
    "heard_lines": (
        "DELETE FROM heard_lines WHERE last_seen < :cutoff AND line_key NOT IN"
        " (SELECT line_key FROM commitments WHERE status = 'pending' AND line_key IS NOT NULL)"
    ),
    # The day view's facts (places stood at, lines, gifts): only `day` reads them, for a past day.
    "journal": "DELETE FROM journal WHERE at < :cutoff",
    # Kept or otherwise closed promises; every pending one stays, however old.
    "commitments": (
        "DELETE FROM commitments WHERE status != 'pending'"
        " AND COALESCE(fulfilled_at, created_at) < :cutoff"
    ),
}


class DryRun(Exception):
    """Raised inside the deleting transaction of a dry run, so every backend rolls it back."""


def forget(store: SQLStore, *, keep_days: int, now: datetime, dry_run: bool = False) -> dict[str, Any]:
    """Delete history older than `keep_days` before `now`, on either SQL backend; rows deleted per table.

    `attempts`, `people`, `places` and `knowledge` are never touched. The
    statements run in one transaction (waiting for the disk, as a deletion
    should); a dry run counts the same rows in it, then rolls it back.
    """
    values = retention_values(keep_days, now)
    conn, dialect = store.connection, store.dialect
    deleted: dict[str, Any] = {}
    try:
        with dialect.transaction(conn):
            for table, sql in STATEMENTS.items():
                deleted[table] = conn.execute(dialect.named(sql), values).rowcount
            if dry_run:
                raise DryRun
    except DryRun:
        pass
    deleted["cutoff"] = values["cutoff"]
    return deleted


def retention_values(keep_days: int, now: datetime) -> dict[str, Any]:
    """The statements' parameters (the cutoff and what is kept whatever its age); ValueError for a bad keep_days."""
    if isinstance(keep_days, bool) or not isinstance(keep_days, int) or not 0 <= keep_days <= MAX_KEEP_DAYS:
        raise ValueError(f"keep_days must be a whole number of days from 0 to {MAX_KEEP_DAYS}, got {keep_days!r}")
    return {
        "cutoff": utc_text(now - timedelta(days=keep_days)),
        "keep_activity": KEEP_ACTIVITY,
        "keep_commands": KEEP_COMMANDS,
        "keep_memory": KEEP_MEMORY,
    }


