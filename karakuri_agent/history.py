"""`karakuri-agent log`: the activity history, readable by a person."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from .config import Settings
from .clock import utc_now
from .state.factory import open_state


def recent(settings: Settings, limit: int) -> list[dict[str, Any]]:
    """The newest `limit` activity entries, oldest first, with the claims whose outcome was never written."""
    with open_state(settings, utc_now) as state:
        entries = list(reversed(state.store.recent_activity(limit)))
        claims = state.ledger.recent_claims(limit)
    return with_unrecorded_claims(entries, claims)


def with_unrecorded_claims(entries: list[dict[str, Any]], claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Add a `claimed` entry for each claim in the entries' window that has no command entry.

    The claim is written before the command is sent; what came of it is
    written after. When that second write failed (a full disk, a lost
    database), the claim is all that shows the notification was sent.
    """
    if not entries:
        return entries
    since = str(entries[0]["created_at"])
    commanded = {e["notification_id"] for e in entries if e["kind"] == "command"}
    extra = [{"created_at": str(c["claimed_at"]), "notification_id": c["notification_id"], "kind": "claimed",
              "command": c["command"], "params": c["params"], "outcome": c.get("outcome")}
             for c in claims if str(c["claimed_at"]) >= since and c["notification_id"] not in commanded]
    return sorted(entries + extra, key=lambda e: str(e["created_at"])) if extra else entries


def why_empty(state_dir: Path) -> str:
    """What a newcomer needs after `demo`: its runs were kept in a throwaway state."""
    return (f"no activity recorded in {state_dir} yet. `karakuri-agent demo` and fixture runs use a"
            " throwaway state; to keep one, run `karakuri-agent demo --state-dir DIR` and then"
            " `KARAKURI_STATE_DIR=DIR karakuri-agent log`.")


def format_entries(entries: Iterable[dict[str, Any]]) -> Iterable[str]:
    """One line per entry, and under a run's report the model's trace when a model was asked."""
    for entry in entries:
        yield from _entry_lines([entry])
        if entry.get("model"):
            from .llm.trace import LLMTrace  # plain data: reading a trace needs no model client

            yield f"{' ' * 22}{LLMTrace.from_json(entry['model']).line()}"


def _entry_lines(entries: Iterable[dict[str, Any]]) -> Iterable[str]:
    """One line per entry: a received notification, a command, a dry run's plan, a report."""
    for entry in entries:
        stamp = entry["created_at"][:19].replace("T", " ")
        head = f"{stamp}  {entry['notification_id']}"
        kind = entry["kind"]
        if kind == "request":
            yield f"{head}  received {entry.get('notification_type') or 'notification'}"
            continue
        params = json.dumps(entry.get("params") or {}, ensure_ascii=False)
        if kind == "claimed":
            yield f"{head}  SENT {entry['command']} {params}  (outcome not recorded)"
            continue
        if kind == "report":
            line = f"{head}  report {entry['message']}"
            if entry.get("success") is False:
                line += f"  [{entry.get('reason')}]"
            yield line
            continue
        if kind == "dry_run":
            planned = f"would send {entry['command']} {params}" if entry.get("command") else "would send nothing"
            line = f"{head}  DRY-RUN {planned}  report {entry['message']}"
            yield line + (f"  ({entry['reason']})" if entry.get("reason") else "")
            continue
        mark = "ok " if entry.get("success") else "ERR"
        line = f"{head}  {mark} {entry.get('command')} {params}"
        if entry.get("message"):
            line += f"  → {entry['message']}"
        if entry.get("reason"):
            line += f"  ({entry['reason']})"
        yield line
