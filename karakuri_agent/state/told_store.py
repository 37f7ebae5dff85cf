"""What people told the agent (told.py's facts), kept the same way by the SQL backends.

The tables are SQLite's migration 9 and PostgreSQL's migration 6
(`SCHEMA`); the queries are sql_store.py's, as the rest of the store's.
Facts are memory, not history: `gc` never deletes them.
A fact is brought up to a listener at most once a week; when it last was
is kept per fact key and listener, so it travels with `state copy`.
"""

from __future__ import annotations

from typing import Any

SCHEMA = """
    CREATE TABLE told_facts (
        id {id},
        fact_key text NOT NULL UNIQUE,
        kind text NOT NULL,
        topic text NOT NULL,
        detail text NOT NULL DEFAULT '',
        speaker_id text,
        speaker_name text NOT NULL DEFAULT '',
        about_id text,
        about_name text NOT NULL DEFAULT '',
        said_at {time} NOT NULL,
        due_on text,
        source text NOT NULL,
        conversation_id text,
        withdrawn_at {time}
    );
    CREATE INDEX told_facts_by_about_id ON told_facts (about_id, said_at);
    CREATE INDEX told_facts_by_about_name ON told_facts (about_name, said_at);
    CREATE INDEX told_facts_by_time ON told_facts (said_at);
    CREATE TABLE fact_mentions (
        fact_key text NOT NULL,
        listener text NOT NULL,
        mentioned_at {time} NOT NULL,
        PRIMARY KEY (fact_key, listener)
    )
"""

FACT_COLUMNS = ("fact_key", "kind", "topic", "detail", "speaker_id", "speaker_name", "about_id", "about_name",
                "said_at", "due_on", "source", "conversation_id")
# Text columns that are never NULL: a fact without them is stored with ''.
_EMPTY = {"detail": "", "speaker_name": "", "about_name": ""}


def fact_values(fact: dict[str, Any]) -> list[Any]:
    """One fact's column values, in FACT_COLUMNS order, as every backend stores them."""
    return [_EMPTY.get(c) if fact.get(c) is None else fact[c] for c in FACT_COLUMNS]


FACT_SELECT = ("SELECT f.id, f.fact_key, f.kind, f.topic, f.detail, f.speaker_id, f.speaker_name, f.about_id,"
           " f.about_name, f.said_at, f.due_on, f.source, f.conversation_id, f.withdrawn_at")
