"""What the agent remembers between runs, in SQL written once for SQLite and PostgreSQL.

`SQLStore` implements the `Store` protocol (state/base.py) over a DB-API
connection and a `Dialect` (dialect.py: marks, JSON, booleans, two functions,
a batch). The SQLite file in the state directory (sqlite/store.py), SQLite's
`:memory:` (memory.py) and the shared PostgreSQL database (postgres.py) all run
these statements, so the backends cannot drift apart: the same rows, the same
orderings, the same answers. Every read is bounded (LIMIT, indexed), so a store
holding months of history costs the same per run as an empty one.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, cast

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.clock import utc_now
from karakuri_agent.domain.heard import same_saying
from karakuri_agent.domain.records import Activity, JournalEntry, Meeting, MeetingStatus, Node, Person, Place
from karakuri_agent.state.base import DAY_LIMIT
from karakuri_agent.state.dialect import Dialect
from karakuri_agent.state.told_store import FACT_COLUMNS, FACT_SELECT, fact_values
from karakuri_agent.state.values import ACTIVITY_RESULT_CHARS, stored_time, truncated_json, utc_text

_ACTIVITY = "id, created_at, notification_id, kind, notification_type, command, params, success, message, reason"
# Commands carry no model trace; a run's report entry may.
_REPORT = f"{_ACTIVITY}, model, behaviour"
_MEETING = "id, notification_id, partner_id, partner_name, place_name, node_id, due_at, source_text"


class SQLStore:
    """The Store protocol over one connection, in one dialect."""

    def __init__(self, conn: Any, dialect: Dialect, clock: Callable[[], datetime] = utc_now) -> None:
        """`conn`: a DB-API connection (sqlite3's, or state/postgres.py's psycopg wrapper) whose errors the
        backend has already mapped to the state error family."""
        self._conn = conn
        self.dialect = dialect
        self._clock = clock

    @property
    def connection(self) -> Any:
        """The connection the store runs on (`state copy` reads and writes whole tables through it)."""
        return self._conn

    def _stamp(self) -> str:
        """Timestamps come from the runtime's clock, so replays and tests are deterministic."""
        return utc_text(self._clock())

    # -- the statements, in the driver's marks ---------------------------------
    def _run(self, sql: str, params: Iterable[Any] = ()) -> Any:
        return self._conn.execute(self.dialect.sql(sql), tuple(params))

    def _run_many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        if rows:
            self._conn.executemany(self.dialect.sql(sql), rows)

    def _one(self, sql: str, params: Iterable[Any] = ()) -> Any:
        return self._run(sql, params).fetchone()

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        cursor = self._run(sql, params)
        names = [column[0] for column in cursor.description or ()]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def _activity(self, rows: list[dict[str, Any]]) -> list[Activity]:
        """Activity rows as records: their JSON read, `success` a boolean, the time parsed."""
        from_json = self.dialect.from_json

        def json_of(row: dict[str, Any], key: str) -> Any:
            return None if row.get(key) is None else from_json(row[key])

        return [Activity(
            id=int(row["id"]), created_at=datetime.fromisoformat(row["created_at"]), notification_id=str(row["notification_id"]),
            kind=str(row["kind"]), notification_type=row["notification_type"], command=row["command"],
            params=json_of(row, "params"), success=None if row["success"] is None else bool(row["success"]),
            message=row["message"], reason=row["reason"], model=json_of(row, "model"),
            behaviour=json_of(row, "behaviour"),
        ) for row in rows]

    def _meetings(self, sql: str, params: Iterable[Any]) -> list[Meeting]:
        """Promise rows as records, their times read once here."""
        return [Meeting(
            partner_name=str(row["partner_name"] or ""), partner_id=row["partner_id"], place_name=row["place_name"],
            node_id=row["node_id"], due_at=stored_time(row["due_at"]), source_text=str(row["source_text"] or ""),
            status=cast("MeetingStatus", row.get("status") or "pending"), id=int(row["id"]), notification_id=str(row["notification_id"]),
            created_at=stored_time(row.get("created_at")), fulfilled_at=stored_time(row.get("fulfilled_at")),
        ) for row in self._rows(sql, params)]

    # -- notifications and activity --------------------------------------
    def save_notification(self, notification_id: str, body: dict[str, Any]) -> None:
        self._run("INSERT INTO notifications (notification_id, fetched_at, body) VALUES (?, ?, ?)"
                  " ON CONFLICT (notification_id) DO UPDATE SET body = excluded.body",
                  (notification_id, self._stamp(), self.dialect.exact_json_value(body)))

    def load_notification(self, notification_id: str) -> dict[str, Any] | None:
        row = self._one("SELECT body FROM notifications WHERE notification_id = ?", (notification_id,))
        return None if row is None else cast("dict[str, Any]", self.dialect.from_json(row[0]))

    def record_request(self, notification_id: str, notification_type: str) -> int:
        """One 'request' entry per notification, however often (and by however many processes) fetched."""
        self._run("INSERT INTO activity (created_at, notification_id, kind, notification_type)"
                  " VALUES (?, ?, 'request', ?) ON CONFLICT DO NOTHING",
                  (self._stamp(), notification_id, notification_type))
        return int(self._one("SELECT id FROM activity WHERE notification_id = ? AND kind = 'request'",
                             (notification_id,))[0])

    def record_command(self, notification_id: str, notification_type: str, command: str,
                       params: dict[str, Any], success: bool, message: str, result: Any,
                       reason: str = "") -> int:
        row = self._one(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type, command, params,"
            " success, message, result, reason) VALUES (?, ?, 'command', ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (self._stamp(), notification_id, notification_type, command, self.dialect.json_value(params),
             self.dialect.flag(success), message, truncated_json(result, ACTIVITY_RESULT_CHARS), reason))
        return int(row[0])

    def record_report(self, notification_id: str, notification_type: str, report: str, *, dry_run: bool,
                      command: str | None, params: dict[str, Any] | None, reason: str, failed: bool,
                      model: dict[str, Any] | None = None, behaviour: dict[str, Any] | None = None) -> None:
        """One entry per run: the report line, a dry run's planned command, why a run failed, the model's
        trace, the rule that decided and the variables changed."""
        as_json = self.dialect.json_value
        self._run(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type, command, params,"
            " success, message, reason, model, behaviour) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (self._stamp(), notification_id, "dry_run" if dry_run else "report", notification_type or None,
             command, None if params is None else as_json(params), self.dialect.flag(False) if failed else None,
             report, reason or None, None if model is None else as_json(model),
             None if behaviour is None else as_json(behaviour)))

    def recent_activity(self, limit: int = 6) -> list[Activity]:
        return self._activity(self._rows(f"SELECT {_REPORT} FROM activity ORDER BY id DESC LIMIT ?", (limit,)))

    def recent_commands(self, limit: int = 6) -> list[Activity]:
        """Commands only, newest first: what the policy checks for variety."""
        return self._activity(self._rows(f"SELECT {_ACTIVITY} FROM activity WHERE kind = 'command'"
                                         " ORDER BY id DESC LIMIT ?", (limit,)))

    # -- memory ------------------------------------------------------------
    def add_memory(self, notification_id: str | None, kind: str, content: str) -> None:
        self._run("INSERT INTO memory (created_at, notification_id, kind, content) VALUES (?, ?, ?, ?)",
                  (self._stamp(), notification_id, kind, content))

    def recent_memory(self, since: datetime, limit: int = 12) -> list[dict[str, Any]]:
        return self._rows("SELECT created_at, kind, content FROM memory WHERE created_at >= ?"
                          " ORDER BY created_at DESC LIMIT ?", (utc_text(since), limit))

    # -- commitments ---------------------------------------------------------
    def hear_line(self, line_key: str, at: datetime, repeat_after: timedelta) -> datetime:
        """When this line was first seen (`at` if never): the time its words are read against
        (domain/heard.py says when a line heard again is the same saying)."""
        row = self._one("SELECT first_seen, last_seen FROM heard_lines WHERE line_key = ?", (line_key,))
        if row is not None:
            first, last = datetime.fromisoformat(row[0]), datetime.fromisoformat(row[1])
            if same_saying(first, last, at, repeat_after):
                self._run(f"UPDATE heard_lines SET last_seen = {self.dialect.greatest}(last_seen, ?)"
                          " WHERE line_key = ?", (utc_text(at), line_key))
                return first
        self._run("INSERT INTO heard_lines (line_key, first_seen, last_seen) VALUES (?, ?, ?) ON CONFLICT (line_key)"
                  " DO UPDATE SET first_seen = excluded.first_seen, last_seen = excluded.last_seen",
                  (line_key, utc_text(at), utc_text(at)))
        return at

    def add_commitment(self, notification_id: str, commitment: dict[str, Any]) -> None:
        """One promise per line said (and per notification and text): re-reading never doubles it."""
        self._run(
            "INSERT INTO commitments (created_at, notification_id, partner_id, partner_name, place_name, node_id,"
            " due_at, source_text, line_key, said_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (self._stamp(), notification_id, commitment.get("partner_id"), commitment["partner_name"],
             commitment.get("place_name"), commitment.get("node_id"), commitment.get("due_at"),
             commitment["source_text"], commitment.get("line_key"), commitment.get("said_at")))

    def pending_commitments(self, due_after: datetime | None = None, limit: int = 8) -> list[Meeting]:
        """Open promises whose time is not before `due_after`, soonest first (undated last)."""
        return self._meetings(
            f"SELECT {_MEETING} FROM commitments WHERE status = 'pending' AND (due_at IS NULL OR due_at >= ?)"
            " ORDER BY due_at IS NULL, due_at LIMIT ?", (utc_text(due_after) if due_after else "", limit))

    def meetings(self, due_from: datetime, due_to: datetime, limit: int = 8) -> list[Meeting]:
        """Promises falling due in a window, kept (gone to) or not yet: the agent still has to be there."""
        return self._meetings(
            f"SELECT {_MEETING}, status FROM commitments WHERE status IN ('pending', 'fulfilled')"
            " AND due_at BETWEEN ? AND ? ORDER BY due_at LIMIT ?", (utc_text(due_from), utc_text(due_to), limit))

    def kept_since(self, since: datetime, limit: int = 8) -> list[Meeting]:
        return self._meetings(
            f"SELECT {_MEETING}, status, fulfilled_at FROM commitments WHERE status = 'fulfilled'"
            " AND fulfilled_at >= ? ORDER BY fulfilled_at, id LIMIT ?", (utc_text(since), limit))

    def fulfil_commitments(self, ids: Iterable[int]) -> None:
        now = self._stamp()
        self._run_many("UPDATE commitments SET status = 'fulfilled', fulfilled_at = ? WHERE id = ?"
                       " AND status = 'pending'", [(now, commitment_id) for commitment_id in ids])

    def withdraw_commitments(self, ids: Iterable[int]) -> None:
        """Promises called off or replaced by a later line: no longer pending, never offered again."""
        self._run_many("UPDATE commitments SET status = 'withdrawn' WHERE id = ? AND status = 'pending'",
                       [(commitment_id,) for commitment_id in ids])

    # -- people --------------------------------------------------------------
    def see_people(self, people: Iterable[PersonRef]) -> None:
        """Remember names and ids without counting a contact (ids resolve names later)."""
        now = self._stamp()
        self._run_many("INSERT INTO people (agent_id, display_name, first_seen) VALUES (?, ?, ?)"
                       " ON CONFLICT (agent_id) DO UPDATE SET display_name = excluded.display_name",
                       [(p.id, p.name, now) for p in people if p.id and p.name])

    def touch_person(self, agent_id: str, name: str) -> None:
        now = self._stamp()
        self._run(
            "INSERT INTO people (agent_id, display_name, interactions, first_seen, last_contact)"
            " VALUES (?, ?, 1, ?, ?) ON CONFLICT (agent_id) DO UPDATE SET"
            " interactions = people.interactions + 1, last_contact = excluded.last_contact,"
            " display_name = CASE WHEN excluded.display_name != '' THEN excluded.display_name"
            " ELSE people.display_name END",
            (agent_id, name, now, now))

    def people(self, agent_ids: Iterable[str]) -> list[Person]:
        ids = list(dict.fromkeys(agent_ids))
        if not ids:
            return []
        rows = self._rows("SELECT agent_id, display_name, nickname, interactions, last_contact FROM people"
                          f" WHERE agent_id IN ({', '.join('?' * len(ids))})", ids)
        by_id = {row["agent_id"]: Person(
            agent_id=str(row["agent_id"]), display_name=str(row["display_name"] or ""), nickname=row["nickname"],
            interactions=int(row["interactions"] or 0), last_contact=stored_time(row["last_contact"]),
        ) for row in rows}
        return [person for agent_id in ids if (person := by_id.get(agent_id)) is not None]

    def met_names(self, limit: int = 500) -> list[str]:
        """The names of the people the agent has talked with, the latest contact first (the `met` fact)."""
        rows = self._run("SELECT display_name FROM people WHERE interactions > 0 AND display_name != ''"
                         " ORDER BY last_contact DESC NULLS LAST LIMIT ?", (limit,)).fetchall()
        return [str(row[0]) for row in rows]

    def person_id(self, name: str) -> str | None:
        """The id of someone seen under this name, for texts that name people without ids.

        One indexed lookup per name, so knowing thousands of people costs nothing.
        """
        row = self._one("SELECT agent_id FROM people WHERE display_name = ?"
                        " ORDER BY last_contact DESC NULLS LAST LIMIT 1", (name,))
        return None if row is None else str(row[0])

    # -- places and world knowledge ------------------------------------------
    def learn_places(self, places: Iterable[Node]) -> None:
        """A node's own label (the latest) outranks a name made from the map, which only fills a gap."""
        now = self._stamp()
        known = [p for p in places if p.get("node_id")]
        for from_building, kept in ((False, "COALESCE(excluded.name, places.name)"), (True, "COALESCE(places.name, excluded.name)")):
            self._run_many("INSERT INTO places (node_id, name, learned_at) VALUES (?, ?, ?)"
                           f" ON CONFLICT (node_id) DO UPDATE SET name = {kept}",
                           [(p["node_id"], p.get("name"), now) for p in known if bool(p.get("from_building")) == from_building])

    def visit_place(self, node_id: str) -> None:
        now = self._stamp()
        self._run("INSERT INTO places (node_id, learned_at, visits, last_visited) VALUES (?, ?, 1, ?)"
                  " ON CONFLICT (node_id) DO UPDATE SET visits = places.visits + 1,"
                  " last_visited = excluded.last_visited", (node_id, now, now))

    def note_presence(self, node_id: str, name: str | None) -> None:
        """The agent is here now: a place just seen from inside is not "new" any more."""
        now = self._stamp()
        self._run("INSERT INTO places (node_id, name, learned_at, last_visited) VALUES (?, ?, ?, ?)"
                  " ON CONFLICT (node_id) DO UPDATE SET last_visited = excluded.last_visited,"
                  " name = COALESCE(places.name, excluded.name)", (node_id, name, now, now))

    def known_places(self, limit: int = 200) -> list[Place]:
        return [Place(node_id=str(row["node_id"]), name=str(row["name"]), visits=int(row["visits"] or 0),
                      last_visited=stored_time(row["last_visited"])) for row in self._rows(
            "SELECT node_id, name, visits, last_visited FROM places WHERE name IS NOT NULL"
            f" ORDER BY node_id COLLATE {self.dialect.binary} LIMIT ?", (limit,))]

    def set_knowledge(self, key: str, value: Any) -> None:
        self._run("INSERT INTO knowledge (key, value, updated_at) VALUES (?, ?, ?)"
                  " ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                  (key, self.dialect.json_value(value), self._stamp()))

    def knowledge(self, key: str) -> dict[str, Any] | None:
        row = self._one("SELECT value, updated_at FROM knowledge WHERE key = ?", (key,))
        return None if row is None else {"value": self.dialect.from_json(row[0]), "updated_at": row[1]}

    def knowledge_times(self) -> dict[str, str]:
        """When each piece of world knowledge was last learned (key → UTC ISO text)."""
        return {row[0]: row[1] for row in self._run("SELECT key, updated_at FROM knowledge LIMIT 100").fetchall()}

    def behaviour_state(self) -> dict[str, Any]:
        rows = self._run("SELECT key, value FROM behaviour_state ORDER BY key").fetchall()
        return {row[0]: self.dialect.from_json(row[1]) for row in rows}

    def save_behaviour_state(self, values: dict[str, Any]) -> None:
        now = self._stamp()
        self._run_many("INSERT INTO behaviour_state (key, value, updated_at) VALUES (?, ?, ?)"
                       " ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                       [(key, self.dialect.json_value(value), now) for key, value in values.items()])

    # -- own lines -------------------------------------------------------------
    def add_utterance(self, conversation_key: str, message: str, *, opens: bool = False) -> None:
        """One of the agent's lines; `opens` marks the first line of a conversation."""
        self._run("INSERT INTO utterances (conversation_key, message, created_at, opens) VALUES (?, ?, ?, ?)",
                  (conversation_key, message, self._stamp(), self.dialect.flag(opens)))

    def utterances(self, conversation_key: str, limit: int = 50) -> list[dict[str, Any]]:
        """The agent's own lines with these partners, newest first (`opens` as 0 or 1)."""
        rows = self._rows("SELECT message, created_at, opens FROM utterances WHERE conversation_key = ?"
                          " ORDER BY id DESC LIMIT ?", (conversation_key, limit))
        return [{**row, "opens": int(row["opens"])} for row in rows]

    def utterances_since(self, since: datetime, limit: int = 2000) -> list[dict[str, Any]]:
        """The agent's own lines in every conversation since ``since``, newest
        first: what it said to someone lately, whichever talk it was in (the
        limit is far above a week of lines at one per notification)."""
        return self._rows("SELECT conversation_key, message, created_at FROM utterances WHERE created_at >= ?"
                          " ORDER BY id DESC LIMIT ?", (utc_text(since), limit))

    # -- what people told (told_store.py's tables) ------------------------------
    def learn_facts(self, facts: Iterable[dict[str, Any]]) -> None:
        marks = ", ".join("?" * len(FACT_COLUMNS))
        for fact in facts:
            self._run(f"INSERT INTO told_facts ({', '.join(FACT_COLUMNS)}) VALUES ({marks})"
                      " ON CONFLICT (fact_key) DO NOTHING", fact_values(fact))

    def told_facts(self, about: Iterable[str], *, listener: str = "", news: bool = False,
                   limit: int = 20) -> list[dict[str, Any]]:
        names = list(dict.fromkeys(a for a in about if a))
        if not names and not news:
            return []
        marks = ", ".join("?" * len(names)) or "NULL"
        return self._rows(
            f"{FACT_SELECT}, m.mentioned_at FROM told_facts f"
            " LEFT JOIN fact_mentions m ON m.fact_key = f.fact_key AND m.listener = ?"
            f" WHERE f.about_id IN ({marks}) OR f.about_name IN ({marks})"
            + (" OR f.about_name = ''" if news else "") +
            " ORDER BY f.said_at DESC, f.id DESC LIMIT ?", [listener, *names, *names, limit])

    def withdraw_facts(self, ids: Iterable[int], at: datetime) -> None:
        self._run_many("UPDATE told_facts SET withdrawn_at = ? WHERE id = ? AND withdrawn_at IS NULL",
                       [(utc_text(at), fact_id) for fact_id in dict.fromkeys(ids)])

    def mention_fact(self, fact_key: str, listener: str, at: datetime) -> None:
        self._run("INSERT INTO fact_mentions (fact_key, listener, mentioned_at) VALUES (?, ?, ?)"
                  " ON CONFLICT (fact_key, listener) DO UPDATE SET mentioned_at = excluded.mentioned_at",
                  (fact_key, listener, utc_text(at)))

    def facts_learned(self, since: datetime, until: datetime, limit: int = 200) -> list[dict[str, Any]]:
        """Facts told from `since` to before `until`, oldest first: what the agent learned that day."""
        return self._rows(f"{FACT_SELECT}, NULL AS mentioned_at FROM told_facts f"
                          " WHERE f.said_at >= ? AND f.said_at < ? ORDER BY f.said_at, f.id LIMIT ?",
                          (utc_text(since), utc_text(until), limit))

    # -- the day view ----------------------------------------------------------
    def add_to_journal(self, notification_id: str, kind: str, key: str, at: datetime,
                       data: dict[str, Any]) -> None:
        self._run("INSERT INTO journal (at, notification_id, kind, key, data) VALUES (?, ?, ?, ?, ?)"
                  " ON CONFLICT (kind, key) DO NOTHING",
                  (utc_text(at), notification_id, kind, key, self.dialect.json_value(data)))

    def journal_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[JournalEntry]:
        rows = self._rows("SELECT at, notification_id, kind, data FROM journal WHERE at >= ? AND at < ?"
                          " ORDER BY at, id LIMIT ?", (utc_text(start), utc_text(end), limit))
        return [JournalEntry(at=datetime.fromisoformat(row["at"]), notification_id=str(row["notification_id"]),
                             kind=str(row["kind"]), data=self.dialect.from_json(row["data"])) for row in rows]

    def activity_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[Activity]:
        return self._activity(self._rows(
            f"SELECT {_ACTIVITY}, behaviour FROM activity"  # the rule trace: which rule fired, each variable change
            " WHERE created_at >= ? AND created_at < ? ORDER BY id LIMIT ?",
            (utc_text(start), utc_text(end), limit)))

    def commitments_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[Meeting]:
        low, high = utc_text(start), utc_text(end)
        return self._meetings(
            f"SELECT {_MEETING}, status, created_at, fulfilled_at FROM commitments WHERE id IN"
            " (SELECT id FROM commitments WHERE created_at >= ? AND created_at < ?"
            "  UNION SELECT id FROM commitments WHERE due_at >= ? AND due_at < ?) ORDER BY id LIMIT ?",
            (low, high, low, high, limit))

    def batch(self) -> AbstractContextManager[Any]:
        """Group several writes into one transaction, all or nothing, that does not wait for the disk.

        Everything the store keeps can be learned again; the ledger's claim
        waits for its own commit, which carries these writes to disk with it.
        Nested, it joins the outer batch.
        """
        return self.dialect.transaction(self._conn, wait_for_disk=False)
