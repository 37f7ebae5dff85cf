"""The Store protocol (state/base.py) on PostgreSQL: the same rows and answers as the SQLite store."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, cast

from psycopg.types.json import Json, Jsonb

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.domain.heard import same_saying
from karakuri_agent.domain.records import Activity, JournalEntry, Meeting, Node, Participant, Person, Place
from karakuri_agent.ja.phrases import relationship
from karakuri_agent.state.base import DAY_LIMIT
from karakuri_agent.state.postgres_schema import Connection
from karakuri_agent.state.told_store import ToldFactsSQL
from karakuri_agent.state.values import ACTIVITY_RESULT_CHARS, truncated_json, utc_text

# -- the store ---------------------------------------------------------------------
_ACTIVITY_COLUMNS = "id, created_at, notification_id, kind, notification_type, command, params, success, message, reason"
# Commands carry no model trace; a run's report entry may.
_REPORT_COLUMNS = f"{_ACTIVITY_COLUMNS}, model, behaviour"


class PostgresStore(ToldFactsSQL):
    """The Store protocol on PostgreSQL: the same statements as SQLiteStore, in PostgreSQL's words."""

    def __init__(self, conn: Connection, clock: Callable[[], datetime] = utc_now) -> None:
        self._conn = conn
        self._clock = clock

    def _stamp(self) -> str:
        return utc_text(self._clock())

    def _rows(self, sql: str, params: Any = None) -> list[dict[str, Any]]:
        cursor = self._conn.execute(sql, params)
        names = [column.name for column in cursor.description or ()]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def _told_rows(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        return self._rows(sql.replace("?", "%s"), params)

    def _told_run(self, sql: str, params: list[Any]) -> None:
        self._conn.execute(sql.replace("?", "%s"), params)

    # -- notifications and activity --------------------------------------
    def save_notification(self, notification_id: str, body: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO notifications (notification_id, fetched_at, body) VALUES (%s, %s, %s)"
            " ON CONFLICT (notification_id) DO UPDATE SET body = excluded.body",
            (notification_id, self._stamp(), Json(body)),
        )

    def load_notification(self, notification_id: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT body FROM notifications WHERE notification_id = %s",
                                 (notification_id,)).fetchone()
        return row[0] if row else None

    def record_request(self, notification_id: str, notification_type: str) -> int:
        """One 'request' entry per notification, however often (and by however many processes) fetched."""
        self._conn.execute(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type)"
            " VALUES (%s, %s, 'request', %s) ON CONFLICT DO NOTHING",
            (self._stamp(), notification_id, notification_type),
        )
        row = self._conn.execute("SELECT id FROM activity WHERE notification_id = %s AND kind = 'request'",
                                 (notification_id,)).fetchone()
        return int(row[0])

    def record_command(self, notification_id: str, notification_type: str, command: str,
                       params: dict[str, Any], success: bool, message: str, result: Any,
                       reason: str = "") -> int:
        row = self._conn.execute(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type, command, params,"
            " success, message, result, reason) VALUES (%s, %s, 'command', %s, %s, %s, %s, %s, %s, %s) RETURNING id",
            (self._stamp(), notification_id, notification_type, command, Jsonb(params), bool(success), message,
             truncated_json(result, ACTIVITY_RESULT_CHARS), reason),
        ).fetchone()
        return int(row[0])

    def record_report(self, notification_id: str, notification_type: str, report: str, *, dry_run: bool,
                      command: str | None, params: dict[str, Any] | None, reason: str, failed: bool,
                      model: dict[str, Any] | None = None, behaviour: dict[str, Any] | None = None) -> None:
        self._conn.execute(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type, command, params,"
            " success, message, reason, model, behaviour) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (self._stamp(), notification_id, "dry_run" if dry_run else "report", notification_type or None,
             command, None if params is None else Jsonb(params), False if failed else None, report, reason or None,
             None if model is None else Jsonb(model), None if behaviour is None else Jsonb(behaviour)),
        )

    def recent_activity(self, limit: int = 6) -> list[Activity]:
        rows = self._rows(f"SELECT {_REPORT_COLUMNS} FROM activity ORDER BY id DESC LIMIT %s", (limit,))
        return cast("list[Activity]", [_present(row) for row in rows])

    def recent_commands(self, limit: int = 6) -> list[Activity]:
        rows = self._rows(f"SELECT {_ACTIVITY_COLUMNS} FROM activity WHERE kind = 'command'"
                          " ORDER BY id DESC LIMIT %s", (limit,))
        return cast("list[Activity]", [_present(row) for row in rows])

    # -- memory ------------------------------------------------------------
    def add_memory(self, notification_id: str | None, kind: str, content: str) -> None:
        self._conn.execute("INSERT INTO memory (created_at, notification_id, kind, content) VALUES (%s, %s, %s, %s)",
                           (self._stamp(), notification_id, kind, content))

    def recent_memory(self, since: datetime, limit: int = 12) -> list[dict[str, Any]]:
        return self._rows("SELECT created_at, kind, content FROM memory WHERE created_at >= %s"
                          " ORDER BY created_at DESC LIMIT %s", (utc_text(since), limit))

    # -- commitments ---------------------------------------------------------
    def hear_line(self, line_key: str, at: datetime, repeat_after: timedelta) -> datetime:
        """As SQLiteStore.hear_line: the time a line's words are read against."""
        row = self._conn.execute("SELECT first_seen, last_seen FROM heard_lines WHERE line_key = %s",
                                 (line_key,)).fetchone()
        if row is not None:
            first, last = datetime.fromisoformat(row[0]), datetime.fromisoformat(row[1])
            if same_saying(first, last, at, repeat_after):
                self._conn.execute("UPDATE heard_lines SET last_seen = GREATEST(last_seen, %s) WHERE line_key = %s",
                                   (utc_text(at), line_key))
                return first
        self._conn.execute(
            "INSERT INTO heard_lines (line_key, first_seen, last_seen) VALUES (%s, %s, %s) ON CONFLICT (line_key)"
            " DO UPDATE SET first_seen = excluded.first_seen, last_seen = excluded.last_seen",
            (line_key, utc_text(at), utc_text(at)),
        )
        return at

    def add_commitment(self, notification_id: str, commitment: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO commitments (created_at, notification_id, partner_id, partner_name, place_name, node_id,"
            " due_at, source_text, line_key, said_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT DO NOTHING",
            (self._stamp(), notification_id, commitment.get("partner_id"), commitment["partner_name"],
             commitment.get("place_name"), commitment.get("node_id"), commitment.get("due_at"),
             commitment["source_text"], commitment.get("line_key"), commitment.get("said_at")),
        )

    def pending_commitments(self, due_after: datetime | None = None, limit: int = 8) -> list[Meeting]:
        return cast("list[Meeting]", self._rows(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text"
            " FROM commitments WHERE status = 'pending' AND (due_at IS NULL OR due_at >= %s)"
            " ORDER BY due_at IS NULL, due_at LIMIT %s",
            (utc_text(due_after) if due_after else "", limit),
        ))

    def meetings(self, due_from: datetime, due_to: datetime, limit: int = 8) -> list[Meeting]:
        return cast("list[Meeting]", self._rows(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text, status"
            " FROM commitments WHERE status IN ('pending', 'fulfilled') AND due_at BETWEEN %s AND %s"
            " ORDER BY due_at LIMIT %s",
            (utc_text(due_from), utc_text(due_to), limit),
        ))

    def kept_since(self, since: datetime, limit: int = 8) -> list[Meeting]:
        return cast("list[Meeting]", self._rows(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text,"
            " status, fulfilled_at FROM commitments WHERE status = 'fulfilled' AND fulfilled_at >= %s"
            " ORDER BY fulfilled_at, id LIMIT %s",
            (utc_text(since), limit),
        ))

    def fulfil_commitments(self, ids: Iterable[int]) -> None:
        self._conn.execute(
            "UPDATE commitments SET status = 'fulfilled', fulfilled_at = %s WHERE id = ANY(%s) AND status = 'pending'",
            (self._stamp(), list(ids)),
        )

    def withdraw_commitments(self, ids: Iterable[int]) -> None:
        self._conn.execute("UPDATE commitments SET status = 'withdrawn' WHERE id = ANY(%s) AND status = 'pending'",
                           (list(ids),))

    # -- people --------------------------------------------------------------
    def see_people(self, people: Iterable[Participant]) -> None:
        now = self._stamp()
        self._conn.executemany(
            "INSERT INTO people (agent_id, display_name, first_seen) VALUES (%s, %s, %s)"
            " ON CONFLICT (agent_id) DO UPDATE SET display_name = excluded.display_name",
            [(p["id"], p["name"], now) for p in people if p.get("id") and p.get("name")],
        )

    def touch_person(self, agent_id: str, name: str) -> None:
        now = self._stamp()
        self._conn.execute(
            "INSERT INTO people (agent_id, display_name, interactions, first_seen, last_contact)"
            " VALUES (%s, %s, 1, %s, %s) ON CONFLICT (agent_id) DO UPDATE SET"
            " interactions = people.interactions + 1, last_contact = excluded.last_contact,"
            " display_name = CASE WHEN excluded.display_name != '' THEN excluded.display_name"
            " ELSE people.display_name END",
            (agent_id, name, now, now),
        )

    def people(self, agent_ids: Iterable[str]) -> list[Person]:
        ids = list(dict.fromkeys(agent_ids))
        if not ids:
            return []
        rows = self._rows("SELECT agent_id, display_name, nickname, interactions, last_contact FROM people"
                          " WHERE agent_id = ANY(%s)", (ids,))
        by_id = {row["agent_id"]: row for row in rows}
        return cast("list[Person]", [{**row, "relationship": relationship(row["interactions"])}
                for agent_id in ids if (row := by_id.get(agent_id)) is not None])

    def met_names(self, limit: int = 500) -> list[str]:
        rows = self._conn.execute("SELECT display_name FROM people WHERE interactions > 0 AND display_name != ''"
                                  " ORDER BY last_contact DESC NULLS LAST LIMIT %s", (limit,)).fetchall()
        return [str(row[0]) for row in rows]

    def person_id(self, name: str) -> str | None:
        row = self._conn.execute("SELECT agent_id FROM people WHERE display_name = %s"
                                 " ORDER BY last_contact DESC NULLS LAST LIMIT 1", (name,)).fetchone()
        return row[0] if row else None

    # -- places and world knowledge ------------------------------------------
    def learn_places(self, places: Iterable[Node]) -> None:
        now = self._stamp()
        self._conn.executemany(
            "INSERT INTO places (node_id, name, learned_at) VALUES (%s, %s, %s)"
            " ON CONFLICT (node_id) DO UPDATE SET name = COALESCE(excluded.name, places.name)",
            [(p["node_id"], p.get("name"), now) for p in places if p.get("node_id")],
        )

    def visit_place(self, node_id: str) -> None:
        now = self._stamp()
        self._conn.execute(
            "INSERT INTO places (node_id, learned_at, visits, last_visited) VALUES (%s, %s, 1, %s)"
            " ON CONFLICT (node_id) DO UPDATE SET visits = places.visits + 1, last_visited = excluded.last_visited",
            (node_id, now, now),
        )

    def note_presence(self, node_id: str, name: str | None) -> None:
        now = self._stamp()
        self._conn.execute(
            "INSERT INTO places (node_id, name, learned_at, last_visited) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (node_id) DO UPDATE SET last_visited = excluded.last_visited,"
            " name = COALESCE(places.name, excluded.name)",
            (node_id, name, now, now),
        )

    def known_places(self, limit: int = 200) -> list[Place]:
        return cast("list[Place]", self._rows('SELECT node_id, name, visits, last_visited FROM places WHERE name IS NOT NULL'
                          ' ORDER BY node_id COLLATE "C" LIMIT %s', (limit,)))

    def set_knowledge(self, key: str, value: Any) -> None:
        self._conn.execute(
            "INSERT INTO knowledge (key, value, updated_at) VALUES (%s, %s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            (key, Jsonb(value), self._stamp()),
        )

    def behaviour_state(self) -> dict[str, Any]:
        rows = self._conn.execute("SELECT key, value FROM behaviour_state ORDER BY key").fetchall()
        return {row[0]: row[1] for row in rows}

    def save_behaviour_state(self, values: dict[str, Any]) -> None:
        for key, value in values.items():
            self._conn.execute(
                "INSERT INTO behaviour_state (key, value, updated_at) VALUES (%s, %s, %s)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (key, Jsonb(value), self._stamp()),
            )

    def knowledge(self, key: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT value, updated_at FROM knowledge WHERE key = %s", (key,)).fetchone()
        return {"value": row[0], "updated_at": row[1]} if row else None

    def knowledge_times(self) -> dict[str, str]:
        return {row[0]: row[1] for row in self._conn.execute("SELECT key, updated_at FROM knowledge LIMIT 100")}

    # -- own lines -------------------------------------------------------------
    def add_utterance(self, conversation_key: str, message: str, *, opens: bool = False) -> None:
        self._conn.execute("INSERT INTO utterances (conversation_key, message, created_at, opens)"
                           " VALUES (%s, %s, %s, %s)", (conversation_key, message, self._stamp(), opens))

    def utterances(self, conversation_key: str, limit: int = 50) -> list[dict[str, Any]]:
        rows = self._rows("SELECT message, created_at, opens FROM utterances WHERE conversation_key = %s"
                          " ORDER BY id DESC LIMIT %s", (conversation_key, limit))
        return [{**row, "opens": int(row["opens"])} for row in rows]  # 0/1, as the SQLite store answers

    def utterances_since(self, since: datetime, limit: int = 2000) -> list[dict[str, Any]]:
        return self._rows("SELECT conversation_key, message, created_at FROM utterances WHERE created_at >= %s"
                          " ORDER BY id DESC LIMIT %s", (utc_text(since), limit))

    # -- the day view ----------------------------------------------------------
    def add_to_journal(self, notification_id: str, kind: str, key: str, at: datetime,
                       data: dict[str, Any]) -> None:
        self._conn.execute(
            "INSERT INTO journal (at, notification_id, kind, key, data) VALUES (%s, %s, %s, %s, %s)"
            " ON CONFLICT (kind, key) DO NOTHING",
            (utc_text(at), notification_id, kind, key, Jsonb(data)),
        )

    def journal_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[JournalEntry]:
        return cast("list[JournalEntry]", self._rows("SELECT at, notification_id, kind, data FROM journal WHERE at >= %s AND at < %s"
                          " ORDER BY at, id LIMIT %s", (utc_text(start), utc_text(end), limit)))

    def activity_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[Activity]:
        rows = self._rows(f"SELECT {_ACTIVITY_COLUMNS}, behaviour FROM activity"  # the rule trace, for day
                          " WHERE created_at >= %s AND created_at < %s"
                          " ORDER BY id LIMIT %s", (utc_text(start), utc_text(end), limit))
        return cast("list[Activity]", [_present(row) for row in rows])

    def commitments_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[Meeting]:
        low, high = utc_text(start), utc_text(end)
        return cast("list[Meeting]", self._rows(
            "SELECT id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text,"
            " status, created_at, fulfilled_at FROM commitments WHERE id IN"
            " (SELECT id FROM commitments WHERE created_at >= %s AND created_at < %s"
            "  UNION SELECT id FROM commitments WHERE due_at >= %s AND due_at < %s) ORDER BY id LIMIT %s",
            (low, high, low, high, limit),
        ))

    def batch(self) -> AbstractContextManager[None]:
        """Group several writes into one transaction (all or nothing) that does not wait for the disk.

        As on SQLite: what the store keeps can be learned again; only the
        ledger's claim waits for its commit to be flushed. Nested, it joins the outer batch.
        """
        return self._conn.transaction(wait_for_disk=False)


def _present(row: dict[str, Any]) -> dict[str, Any]:
    """An activity row as SQLiteStore returns it: only the fields that have a value."""
    return {key: value for key, value in row.items() if value is not None}
