"""Every table the agent's state holds, declared once: its columns, what makes two rows one, its JSON and flags.

The migrations (sqlite/db.py, postgres_schema.py) are history: each one the
change it made, never edited. This is the present: what a migrated database
holds, on either backend (under the backend's own names, dialect.py's
`table`). `state copy` moves these tables and these columns; the tests hold
every migrated SQLite file and PostgreSQL database to exactly this list, so a
new migration that adds a table or a column fails there until it is named here.
"""

from __future__ import annotations

from dataclasses import dataclass

from karakuri_agent.state.told_store import FACT_COLUMNS


@dataclass(frozen=True)
class Table:
    """One table; its rows are read in `ordered_by` order."""

    name: str  # as the SQLite file calls it
    columns: tuple[str, ...]
    key: tuple[str, ...]  # what makes two rows the same row
    json: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()  # booleans: 0/1 in SQLite, boolean in PostgreSQL
    exact_json: bool = False  # its JSON kept exactly as received (a notification, as the server sent it)
    not_copied: tuple[str, ...] = ()  # columns only one backend has (a shared database's claim names its host)
    ordered_by: str = "id"


_ACTIVITY = ("created_at", "notification_id", "kind", "notification_type", "command", "params", "success",
             "message", "result", "reason", "model", "behaviour")
_COMMITMENT = ("created_at", "notification_id", "partner_id", "partner_name", "place_name", "node_id", "due_at",
               "source_text", "status", "fulfilled_at", "line_key", "said_at")
TABLES: tuple[Table, ...] = (
    Table("attempts", ("notification_id", "command", "params", "claimed_at", "pid", "outcome", "finished_at",
                       "result"), ("notification_id",), json=("params",), ordered_by="claimed_at",
          not_copied=("host",)),
    Table("notifications", ("notification_id", "fetched_at", "body"), ("notification_id",), json=("body",),
          ordered_by="fetched_at", exact_json=True),
    Table("activity", _ACTIVITY, _ACTIVITY, json=("params", "model", "behaviour"), flags=("success",)),
    Table("memory", ("created_at", "notification_id", "kind", "content"),
          ("created_at", "notification_id", "kind", "content")),
    Table("commitments", _COMMITMENT, ("notification_id", "source_text")),
    Table("heard_lines", ("line_key", "first_seen", "last_seen"), ("line_key",), ordered_by="line_key"),
    Table("people", ("agent_id", "display_name", "nickname", "interactions", "first_seen", "last_contact"),
          ("agent_id",), ordered_by="agent_id"),
    Table("places", ("node_id", "name", "learned_at", "visits", "last_visited"), ("node_id",), ordered_by="node_id"),
    Table("knowledge", ("key", "value", "updated_at"), ("key",), json=("value",), ordered_by="key"),
    Table("behaviour_state", ("key", "value", "updated_at"), ("key",), json=("value",), ordered_by="key"),
    Table("told_facts", (*FACT_COLUMNS, "withdrawn_at"), ("fact_key",), ordered_by="id"),
    Table("fact_mentions", ("fact_key", "listener", "mentioned_at"), ("fact_key", "listener"),
          ordered_by="fact_key"),
    Table("utterances", ("conversation_key", "message", "created_at", "opens"),
          ("conversation_key", "message", "created_at", "opens"), flags=("opens",)),
    Table("journal", ("at", "notification_id", "kind", "key", "data"), ("kind", "key"), json=("data",)),
)
