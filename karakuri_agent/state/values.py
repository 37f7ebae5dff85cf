"""How every backend writes times, JSON and relationships: one format, so the backends agree.

Timestamps are ISO text in UTC with milliseconds, so text order is time order
(the stores compare them as text); JSON is compact and keeps Japanese as is.
"""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import datetime, timezone
from typing import Any

# How much of a server's answer is kept: with a command's activity entry, and in the ledger.
ACTIVITY_RESULT_CHARS = 1000
LEDGER_RESULT_CHARS = 2000


def utc_text(moment: datetime) -> str:
    """Timestamps are stored as sortable ISO text in UTC (one format, so text order is time order)."""
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds")


def stored_time(text: str | None) -> datetime | None:
    """A stored timestamp read back (None for none, or for text no backend wrote: a hand-edited row)."""
    try:
        return datetime.fromisoformat(text) if text else None
    except (TypeError, ValueError):
        return None


def stored_row(record: Any) -> dict[str, Any]:
    """A record of the store (a dataclass) back in its columns, times as stored, what has no value left out:
    as the wrapper's context and `log` show an entry."""
    return {f.name: utc_text(value) if isinstance(value, datetime) else value
            for f in fields(record) if (value := getattr(record, f.name)) is not None}


def to_json(value: Any) -> str:
    """Compact JSON text as stored in the state; one a UTF-8 store can always take.

    Text from outside is cleaned where it comes in (outside.py); a lone
    surrogate that got past that is stored escaped rather than failing the write.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text


def truncated_json(value: Any, limit: int) -> str:
    """JSON text cut to `limit` characters (marked with …): results are kept for people, not parsed."""
    text = to_json(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


