"""`karakuri-agent log`: the activity history, readable by a person."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from .config import Settings
from .clock import utc_now
from .state.factory import open_state


def recent(settings: Settings, limit: int) -> list[dict[str, Any]]:
    """The newest `limit` activity entries, oldest first."""
    with open_state(settings, utc_now) as state:
        return list(reversed(state.store.recent_activity(limit)))


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
        if entry.get("behaviour"):
            yield from (f"{' ' * 22}{line}" for line in behaviour_lines(entry["behaviour"]))


def behaviour_lines(trace: dict[str, Any]) -> Iterable[str]:
    """The rule that decided, the rules that gave way and why, every variable change: one line each."""
    from .behaviour.variables import Change

    rule = trace.get("rule") or (f"none ({trace['by']} decided)" if trace.get("by") else "none answered")
    yield f"rule: {rule}"
    for entry in trace.get("gave_way") or ():
        yield f"gave way: {entry.get('rule')} ({entry.get('why')})"
    fired = [r for r in trace.get("fired") or () if r != trace.get("rule")]
    if fired:
        yield f"also fired: {', '.join(fired)}"
    if trace.get("reactions"):
        yield f"reactions: {', '.join(trace['reactions'])}"
    for change in trace.get("changes") or ():
        known = {k: change.get(k) for k in ("path", "by", "op", "asked", "before", "after", "status")}
        yield f"change: {Change(**known, why=change.get('why', '')).line()}"


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
