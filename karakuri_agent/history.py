"""`karakuri-agent log`: the activity history, readable by a person."""

from __future__ import annotations

import json
from typing import Any, Iterable

from .config import Settings
from .db import utc_now
from .state.factory import open_state


def recent(settings: Settings, limit: int) -> list[dict[str, Any]]:
    """The newest `limit` activity entries, oldest first."""
    with open_state(settings, utc_now) as state:
        return list(reversed(state.store.recent_activity(limit)))


def format_entries(entries: Iterable[dict[str, Any]]) -> Iterable[str]:
    for entry in entries:
        stamp = entry["created_at"][:19].replace("T", " ")
        if entry["kind"] == "request":
            yield f"{stamp}  {entry['notification_id']}  received {entry.get('notification_type') or 'notification'}"
            continue
        mark = "ok " if entry.get("success") else "ERR"
        params = json.dumps(entry.get("params") or {}, ensure_ascii=False)
        line = f"{stamp}  {entry['notification_id']}  {mark} {entry.get('command')} {params}"
        if entry.get("message"):
            line += f"  → {entry['message']}"
        if entry.get("reason"):
            line += f"  ({entry['reason']})"
        yield line
