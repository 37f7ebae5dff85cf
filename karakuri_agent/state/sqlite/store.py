"""What the agent remembers between runs: activity, memory, promises, people, places.

`SQLiteStore` implements the `Store` protocol (state/base.py) on the state
directory's SQLite file, the embedded default. Every
read is bounded (LIMIT, indexed), so a store holding months of history costs
the same per run as an empty one.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, cast

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.domain.heard import same_saying
from karakuri_agent.domain.records import Activity, JournalEntry, Meeting, Node, Participant, Person, Place
from karakuri_agent.ja.phrases import relationship
from karakuri_agent.state.base import DAY_LIMIT
from karakuri_agent.state.sqlite.db import transaction
from karakuri_agent.state.told_store import ToldFactsSQL
from karakuri_agent.state.values import ACTIVITY_RESULT_CHARS, to_json, truncated_json, utc_text

class SQLiteStore(ToldFactsSQL):
    """The Store protocol on the state directory's SQLite file."""

    def __init__(self, conn: sqlite3.Connection, clock: Callable[[], datetime] = utc_now) -> None:
        self._conn = conn
        self._clock = clock

    def _stamp(self) -> str:
        """Timestamps come from the runtime's clock, so replays and tests are deterministic."""
        return utc_text(self._clock())

    # -- notifications and activity --------------------------------------
    def save_notification(self, notification_id: str, body: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO notifications (notification_id, fetched_at, body) VALUES (?, ?, ?)"
            " ON CONFLICT(notification_id) DO UPDATE SET body = excluded.body",
            (notification_id, self._stamp(), to_json(body)),
        )

    def load_notification(self, notification_id: str) -> dict[str, Any] | None:
        row = self._conn.execute(
            "SELECT body FROM notifications WHERE notification_id = ?", (notification_id,)
        ).fetchone()
        return json.loads(row[0]) if row else None

    def record_request(self, notification_id: str, notification_type: str) -> int:
        """One 'request' entry per notification, however often it is fetched."""
        self._conn.execute(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type)"
            " VALUES (?, ?, 'request', ?) ON CONFLICT DO NOTHING",
            (self._stamp(), notification_id, notification_type),
        )
        row = self._conn.execute(
            "SELECT id FROM activity WHERE notification_id = ? AND kind = 'request'", (notification_id,)
        ).fetchone()
        return int(row[0])

    def record_command(self, notification_id: str, notification_type: str, command: str,
                       params: dict[str, Any], success: bool, message: str, result: Any,
                       reason: str = "") -> int:
        cursor = self._conn.execute(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type, command,"
            " params, success, message, result, reason) VALUES (?, ?, 'command', ?, ?, ?, ?, ?, ?, ?)",
            (self._stamp(), notification_id, notification_type, command, to_json(params),
             int(success), message, truncated_json(result, ACTIVITY_RESULT_CHARS), reason),
        )
        return int(cursor.lastrowid or 0)

    def record_report(self, notification_id: str, notification_type: str, report: str, *, dry_run: bool,
                      command: str | None, params: dict[str, Any] | None, reason: str, failed: bool,
                      model: dict[str, Any] | None = None, behaviour: dict[str, Any] | None = None) -> None:
        """One entry per run: the report line, a dry run's planned command, why a run failed, the model's
        trace, the rule that decided and the variables changed."""
        self._conn.execute(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type, command,"
            " params, success, message, reason, model, behaviour) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (self._stamp(), notification_id, "dry_run" if dry_run else "report", notification_type or None,
             command, None if params is None else to_json(params), 0 if failed else None, report, reason or None,
             None if model is None else to_json(model), None if behaviour is None else to_json(behaviour)),
        )

    def recent_activity(self, limit: int = 6) -> list[Activity]:
        rows = self._conn.execute(
            "SELECT id, created_at, notification_id, kind, notification_type, command, params,"
            " success, message, reason, model, behaviour FROM activity ORDER BY id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return cast("list[Activity]", [_activity_row(row) for row in rows])

    def recent_commands(self, limit: int = 6) -> list[Activity]:
        """Commands only, newest first: what the policy checks for variety."""
        rows = self._conn.execute(
            "SELECT id, created_at, notification_id, kind, notification_type, command, params,"
            " success, message, reason FROM activity WHERE kind = 'command' ORDER BY id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return cast("list[Activity]", [_activity_row(row) for row in rows])

    # -- memory ------------------------------------------------------------
    def add_memory(self, notification_id: str | None, kind: str, content: str) -> None:
        self._conn.execute(
            "INSERT INTO memory (created_at, notification_id, kind, content) VALUES (?, ?, ?, ?)",
            (self._stamp(), notification_id, kind, content),
        )

    def recent_memory(self, since: datetime, limit: int = 12) -> list[dict[str, Any]]:
        rows = self._conn.execute(
            "SELECT created_at, kind, content FROM memory WHERE created_at >= ?"
            " ORDER BY created_at DESC LIMIT ?",
            (utc_text(since), limit),
        ).fetchall()
        return [dict(row) for row in rows]

    # -- commitments ---------------------------------------------------------
    def hear_line(self, line_key: str, at: datetime, repeat_after: timedelta) -> datetime:
        """When this line was first seen (`at` if never): the time its words are read against
        (domain/heard.py says when a line heard again is the same saying)."""
        row = self._conn.execute(
            "SELECT first_seen, last_seen FROM heard_lines WHERE line_key = ?", (line_key,)
        ).fetchone()
        if row is not None:
            first, last = datetime.fromisoformat(row[0]), datetime.fromisoformat(row[1])
            if same_saying(first, last, at, repeat_after):
                self._conn.execute(
                    "UPDATE heard_lines SET last_seen = MAX(last_seen, ?) WHERE line_key = ?",
                    (utc_text(at), line_key),
                )
                return first
        self._conn.execute(
            "INSERT INTO heard_lines (line_key, first_seen, last_seen) VALUES (?, ?, ?)"
            " ON CONFLICT(line_key) DO UPDATE SET first_seen = excluded.first_seen, last_seen = excluded.last_seen",
            (line_key, utc_text(at), utc_text(at)),
        )
        return at

    def add_commitment(self, notification_id: str, commitment: dict[str, Any]) -> None:
        """One promise per line said (and per notification and text): re-reading never doubles it."""
        self._conn.execute(
            "INSERT INTO commitments (created_at, notification_id, partner_id, partner_name,"
            " place_name, node_id, due_at, source_text, line_key, said_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (self._stamp(), notification_id, commitment.get("partner_id"), commitment["partner_name"],
             commitment.get("place_name"), commitment.get("node_id"), commitment.get("due_at"),
             commitment["source_text"], commitment.get("line_key"), commitment.get("said_at")),
        )

    def pending_commitments(self, due_after: datetime | None = None, limit: int = 8) -> list[Meeting]:
        """Open promises whose time is not before `due_after`, soonest first (undated last)."""
        rows = self._conn.execute(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at,"
            " source_text FROM commitments WHERE status = 'pending' AND (due_at IS NULL OR due_at >= ?)"
            " ORDER BY due_at IS NULL, due_at LIMIT ?",
            (utc_text(due_after) if due_after else "", limit),
        ).fetchall()
        return cast("list[Meeting]", [dict(row) for row in rows])

    def meetings(self, due_from: datetime, due_to: datetime, limit: int = 8) -> list[Meeting]:
        """Promises falling due in a window, kept (gone to) or not yet: the agent still has to be there."""
        rows = self._conn.execute(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text,"
            " status FROM commitments WHERE status IN ('pending', 'fulfilled') AND due_at BETWEEN ? AND ?"
            " ORDER BY due_at LIMIT ?",
            (utc_text(due_from), utc_text(due_to), limit),
        ).fetchall()
        return cast("list[Meeting]", [dict(row) for row in rows])

    def kept_since(self, since: datetime, limit: int = 8) -> list[Meeting]:
        rows = self._conn.execute(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text,"
            " status, fulfilled_at FROM commitments WHERE status = 'fulfilled' AND fulfilled_at >= ?"
            " ORDER BY fulfilled_at, id LIMIT ?",
            (utc_text(since), limit),
        ).fetchall()
        return cast("list[Meeting]", [dict(row) for row in rows])

    def fulfil_commitments(self, ids: Iterable[int]) -> None:
        now = self._stamp()
        self._conn.executemany(
            "UPDATE commitments SET status = 'fulfilled', fulfilled_at = ? WHERE id = ? AND status = 'pending'",
            [(now, commitment_id) for commitment_id in ids],
        )

    def withdraw_commitments(self, ids: Iterable[int]) -> None:
        """Promises called off or replaced by a later line: no longer pending, never offered again."""
        self._conn.executemany("UPDATE commitments SET status = 'withdrawn' WHERE id = ? AND status = 'pending'",
                               [(commitment_id,) for commitment_id in ids])

    # -- people --------------------------------------------------------------
    def see_people(self, people: Iterable[Participant]) -> None:
        """Remember names and ids without counting a contact (ids resolve names later)."""
        now = self._stamp()
        rows = [(p["id"], p["name"], now) for p in people if p.get("id") and p.get("name")]
        self._conn.executemany(
            "INSERT INTO people (agent_id, display_name, first_seen) VALUES (?, ?, ?)"
            " ON CONFLICT(agent_id) DO UPDATE SET display_name = excluded.display_name",
            rows,
        )

    def touch_person(self, agent_id: str, name: str) -> None:
        now = self._stamp()
        self._conn.execute(
            "INSERT INTO people (agent_id, display_name, interactions, first_seen, last_contact)"
            " VALUES (?, ?, 1, ?, ?) ON CONFLICT(agent_id) DO UPDATE SET"
            " interactions = interactions + 1, last_contact = excluded.last_contact,"
            " display_name = CASE WHEN excluded.display_name != '' THEN excluded.display_name"
            " ELSE display_name END",
            (agent_id, name, now, now),
        )

    def people(self, agent_ids: Iterable[str]) -> list[Person]:
        ids = list(dict.fromkeys(agent_ids))
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = self._conn.execute(
            f"SELECT agent_id, display_name, nickname, interactions, last_contact FROM people"
            f" WHERE agent_id IN ({marks})",
            ids,
        ).fetchall()
        by_id = {row["agent_id"]: row for row in rows}
        return cast("list[Person]", [
            {
                "agent_id": row["agent_id"],
                "display_name": row["display_name"],
                "nickname": row["nickname"],
                "relationship": relationship(row["interactions"]),
                "interactions": row["interactions"],
                "last_contact": row["last_contact"],
            }
            for agent_id in ids
            if (row := by_id.get(agent_id)) is not None
        ])

    def met_names(self, limit: int = 500) -> list[str]:
        """The names of the people the agent has talked with, the latest contact first (the `met` fact)."""
        rows = self._conn.execute(
            "SELECT display_name FROM people WHERE interactions > 0 AND display_name != ''"
            " ORDER BY last_contact DESC LIMIT ?", (limit,)
        ).fetchall()
        return [str(row[0]) for row in rows]

    def person_id(self, name: str) -> str | None:
        """The id of someone seen under this name, for texts that name people without ids.

        One indexed lookup per name, so knowing thousands of people costs nothing.
        """
        row = self._conn.execute(
            "SELECT agent_id FROM people WHERE display_name = ? ORDER BY last_contact DESC LIMIT 1", (name,)
        ).fetchone()
        return row[0] if row else None

    # -- places and world knowledge ------------------------------------------
    def learn_places(self, places: Iterable[Node]) -> None:
        now = self._stamp()
        rows = [(p["node_id"], p.get("name"), now) for p in places if p.get("node_id")]
        self._conn.executemany(
            "INSERT INTO places (node_id, name, learned_at) VALUES (?, ?, ?)"
            " ON CONFLICT(node_id) DO UPDATE SET name = COALESCE(excluded.name, name)",
            rows,
        )

    def visit_place(self, node_id: str) -> None:
        now = self._stamp()
        self._conn.execute(
            "INSERT INTO places (node_id, learned_at, visits, last_visited) VALUES (?, ?, 1, ?)"
            " ON CONFLICT(node_id) DO UPDATE SET visits = visits + 1, last_visited = excluded.last_visited",
            (node_id, now, now),
        )

    def note_presence(self, node_id: str, name: str | None) -> None:
        """The agent is here now: a place just seen from inside is not "new" any more."""
        now = self._stamp()
        self._conn.execute(
            "INSERT INTO places (node_id, name, learned_at, last_visited) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(node_id) DO UPDATE SET last_visited = excluded.last_visited,"
            " name = COALESCE(name, excluded.name)",
            (node_id, name, now, now),
        )

    def known_places(self, limit: int = 200) -> list[Place]:
        rows = self._conn.execute(
            "SELECT node_id, name, visits, last_visited FROM places WHERE name IS NOT NULL"
            " ORDER BY node_id LIMIT ?",
            (limit,),
        ).fetchall()
        return cast("list[Place]", [dict(row) for row in rows])

    def set_knowledge(self, key: str, value: Any) -> None:
        self._conn.execute(
            "INSERT INTO knowledge (key, value, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            (key, to_json(value), self._stamp()),
        )

    def _told_rows(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        return [dict(row) for row in self._conn.execute(sql, params).fetchall()]

    def _told_run(self, sql: str, params: list[Any]) -> None:
        self._conn.execute(sql, params)

    def behaviour_state(self) -> dict[str, Any]:
        rows = self._conn.execute("SELECT key, value FROM behaviour_state ORDER BY key").fetchall()
        return {row[0]: json.loads(row[1]) for row in rows}

    def save_behaviour_state(self, values: dict[str, Any]) -> None:
        self._conn.executemany(
            "INSERT INTO behaviour_state (key, value, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            [(key, to_json(value), self._stamp()) for key, value in values.items()],
        )

    def knowledge(self, key: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT value, updated_at FROM knowledge WHERE key = ?", (key,)).fetchone()
        return {"value": json.loads(row[0]), "updated_at": row[1]} if row else None

    def knowledge_times(self) -> dict[str, str]:
        """When each piece of world knowledge was last learned (key → UTC ISO text)."""
        return {row[0]: row[1] for row in self._conn.execute("SELECT key, updated_at FROM knowledge LIMIT 100")}

    # -- own lines -------------------------------------------------------------
    def add_utterance(self, conversation_key: str, message: str, *, opens: bool = False) -> None:
        """One of the agent's lines; `opens` marks the first line of a conversation."""
        self._conn.execute(
            "INSERT INTO utterances (conversation_key, message, created_at, opens) VALUES (?, ?, ?, ?)",
            (conversation_key, message, self._stamp(), int(opens)),
        )

    def utterances(self, conversation_key: str, limit: int = 50) -> list[dict[str, Any]]:
        """The agent's own lines with these partners, newest first."""
        rows = self._conn.execute(
            "SELECT message, created_at, opens FROM utterances WHERE conversation_key = ?"
            " ORDER BY id DESC LIMIT ?",
            (conversation_key, limit),
        ).fetchall()
        return [dict(row) for row in rows]

    def utterances_since(self, since: datetime, limit: int = 2000) -> list[dict[str, Any]]:
        """The agent's own lines in every conversation since ``since``, newest
        first: what it said to someone lately, whichever talk it was in (the
        limit is far above a week of lines at one per notification)."""
        rows = self._conn.execute(
            "SELECT conversation_key, message, created_at FROM utterances WHERE created_at >= ?"
            " ORDER BY id DESC LIMIT ?",
            (utc_text(since), limit),
        ).fetchall()
        return [dict(row) for row in rows]

    # -- the day view ----------------------------------------------------------
    def add_to_journal(self, notification_id: str, kind: str, key: str, at: datetime,
                       data: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO journal (at, notification_id, kind, key, data) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT(kind, key) DO NOTHING",
            (utc_text(at), notification_id, kind, key, to_json(data)),
        )

    def journal_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[JournalEntry]:
        rows = self._conn.execute(
            "SELECT at, notification_id, kind, data FROM journal WHERE at >= ? AND at < ? ORDER BY at, id LIMIT ?",
            (utc_text(start), utc_text(end), limit),
        ).fetchall()
        return cast("list[JournalEntry]", [{**dict(row), "data": json.loads(row["data"])} for row in rows])

    def activity_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[Activity]:
        rows = self._conn.execute(
            "SELECT id, created_at, notification_id, kind, notification_type, command, params,"
            " success, message, reason, behaviour FROM activity WHERE created_at >= ? AND created_at < ?"
            " ORDER BY id LIMIT ?",  # the rule trace: which rule fired and every variable change (day)
            (utc_text(start), utc_text(end), limit),
        ).fetchall()
        return cast("list[Activity]", [_activity_row(row) for row in rows])

    def commitments_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[Meeting]:
        low, high = utc_text(start), utc_text(end)
        rows = self._conn.execute(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text,"
            " status, created_at, fulfilled_at FROM commitments WHERE id IN"
            " (SELECT id FROM commitments WHERE created_at >= ? AND created_at < ?"
            "  UNION SELECT id FROM commitments WHERE due_at >= ? AND due_at < ?) ORDER BY id LIMIT ?",
            (low, high, low, high, limit),
        ).fetchall()
        return cast("list[Meeting]", [dict(row) for row in rows])

    def batch(self) -> AbstractContextManager[Any]:
        """Group several writes into one transaction, all or nothing, committed without an fsync.

        Everything the store keeps can be learned again, so it does not wait
        for the disk (db.transaction's `wait_for_disk=False`); the ledger's
        claim does, and its sync carries these writes along. Nested, it joins
        the outer batch.
        """
        return transaction(self._conn, wait_for_disk=False)


def _activity_row(row: sqlite3.Row) -> dict[str, Any]:
    entry = dict(row)
    for key in ("params", "model", "behaviour"):
        if entry.get(key):
            entry[key] = json.loads(entry[key])
    if entry.get("success") is not None:
        entry["success"] = bool(entry["success"])
    return {key: value for key, value in entry.items() if value is not None}
