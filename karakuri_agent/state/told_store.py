"""What people told the agent (told.py's facts), kept the same way by the SQL backends.

The tables are SQLite's migration 9 and PostgreSQL's migration 6
(`SCHEMA`); the queries are written once with `?` marks, as the rest of the
store's (sql_store.py), whose `_rows` and `_run` run them in the backend's
dialect. Facts are memory, not history: `gc` never deletes them.
A fact is brought up to a listener at most once a week; when it last was
is kept per fact key and listener, so it travels with `state copy`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable

from karakuri_agent.state.values import utc_text

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


_SELECT = ("SELECT f.id, f.fact_key, f.kind, f.topic, f.detail, f.speaker_id, f.speaker_name, f.about_id,"
           " f.about_name, f.said_at, f.due_on, f.source, f.conversation_id, f.withdrawn_at")


class ToldFactsSQL:
    """The fact methods of the Store protocol, over sql_store.SQLStore's `_rows` and `_run`."""

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        raise NotImplementedError

    def _run(self, sql: str, params: Iterable[Any] = ()) -> Any:
        raise NotImplementedError

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
            f"{_SELECT}, m.mentioned_at FROM told_facts f"
            " LEFT JOIN fact_mentions m ON m.fact_key = f.fact_key AND m.listener = ?"
            f" WHERE f.about_id IN ({marks}) OR f.about_name IN ({marks})"
            + (" OR f.about_name = ''" if news else "") +
            " ORDER BY f.said_at DESC, f.id DESC LIMIT ?", [listener, *names, *names, limit])

    def withdraw_facts(self, ids: Iterable[int], at: datetime) -> None:
        for fact_id in dict.fromkeys(ids):
            self._run("UPDATE told_facts SET withdrawn_at = ? WHERE id = ? AND withdrawn_at IS NULL",
                           [utc_text(at), fact_id])

    def mention_fact(self, fact_key: str, listener: str, at: datetime) -> None:
        self._run("INSERT INTO fact_mentions (fact_key, listener, mentioned_at) VALUES (?, ?, ?)"
                       " ON CONFLICT (fact_key, listener) DO UPDATE SET mentioned_at = excluded.mentioned_at",
                       [fact_key, listener, utc_text(at)])

    def facts_learned(self, since: datetime, until: datetime, limit: int = 200) -> list[dict[str, Any]]:
        """Facts told from `since` to before `until`, oldest first: what the agent learned that day."""
        return self._rows(f"{_SELECT}, NULL AS mentioned_at FROM told_facts f"
                               " WHERE f.said_at >= ? AND f.said_at < ? ORDER BY f.said_at, f.id LIMIT ?",
                               [utc_text(since), utc_text(until), limit])
