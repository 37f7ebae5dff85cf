"""Records for tests written as the wire and the store write them: a person, a line, a place, a command.

Tests state a notification's people and lines as the server's JSON spells
them (`{"id", "name"}`, `{"speaker", "speaker_id", "message"}`), and a
View's surroundings in the store's column names (as the wrapper's context
shows them); these turn them into the records the readers and the store
give, times read from ISO text as the store reads them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.records import Activity, Line, Person, Place

T0 = datetime.fromisoformat("2026-04-18T00:00:00+00:00")


def _time(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if isinstance(value, str) else value


def ref(row: dict[str, Any] | PersonRef) -> PersonRef:
    """A person as a participant (`{"id", "name"}`)."""
    return row if isinstance(row, PersonRef) else PersonRef(row.get("id"), row.get("name") or "")


def as_refs(rows: Iterable[dict[str, Any] | PersonRef]) -> list[PersonRef]:
    return [ref(row) for row in rows]


def line(row: dict[str, Any] | Line) -> Line:
    """A conversation line (`{"speaker", "speaker_id", "message"}`)."""
    return row if isinstance(row, Line) else Line(row.get("speaker") or "", row.get("message") or "",
                                                  row.get("speaker_id"))


def as_lines(rows: Iterable[dict[str, Any] | Line]) -> list[Line]:
    return [line(row) for row in rows]


def as_transfers(rows: Iterable[dict[str, Any]]) -> list[Any]:
    """Transfers as the text reader gives them: their `from` and `to` as people."""
    return [{**row, **{side: ref(row[side]) for side in ("from", "to") if row.get(side) is not None}} for row in rows]


def as_places(rows: Iterable[dict[str, Any] | Place]) -> list[Place]:
    return [row if isinstance(row, Place) else Place(
        node_id=row["node_id"], name=row["name"], visits=row.get("visits") or 0,
        last_visited=_time(row.get("last_visited"))) for row in rows]


def as_people(rows: Iterable[dict[str, Any] | Person]) -> list[Person]:
    return [row if isinstance(row, Person) else Person(
        agent_id=row["agent_id"], display_name=row.get("display_name") or "", nickname=row.get("nickname"),
        interactions=row.get("interactions") or 0, last_contact=_time(row.get("last_contact"))) for row in rows]


def as_commands(rows: Iterable[dict[str, Any] | Activity]) -> list[Activity]:
    """Activity entries (commands unless the row says its kind), as the store gives them: an id, a
    notification and a time when the row has none."""
    return [row if isinstance(row, Activity) else Activity(**{
        "id": n, "notification_id": "", "kind": "command", **row,
        "created_at": _time(row.get("created_at")) or T0}) for n, row in enumerate(rows, 1)]
