"""`karakuri-agent log`: the activity history, readable by a person."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Iterable, Mapping

from karakuri_agent.app.config import Settings
from karakuri_agent.domain.clock import TOKYO, utc_now
from karakuri_agent.outside import dumps_shown
from karakuri_agent.state.factory import open_state
from karakuri_agent.state.values import stored_row

# How far back a filtered `log` looks (a person's question, not a run's: read once, filtered here).
FILTER_SCAN = 100_000


@dataclass(frozen=True)
class Filters:
    """What `log` keeps: entries since a time, of one notification, of one type, failures only."""

    since: datetime | None = None
    notification_id: str | None = None
    notification_type: str | None = None
    errors: bool = False

    @property
    def any(self) -> bool:
        return bool(self.since or self.notification_id or self.notification_type or self.errors)

    def keeps(self, entry: Mapping[str, Any]) -> bool:
        if self.since is not None and datetime.fromisoformat(entry["created_at"]) < self.since:
            return False
        if self.notification_id and entry.get("notification_id") != self.notification_id:
            return False
        if self.notification_type and entry.get("notification_type") != self.notification_type:
            return False
        return not self.errors or entry.get("success") is False


def no_state_yet(settings: Settings) -> str | None:
    """Why there is nothing to read, when the SQLite state was never created (None: there is a state to open).

    Reading commands must not create one: a typo in KARAKURI_STATE_DIR would
    otherwise leave a fresh empty database behind and say nothing useful.
    """
    from karakuri_agent.state.factory import backend_for

    if settings.database_url is not None and backend_for(settings.database_url.get()) != "sqlite":
        return None  # a database server: opening it is how to know
    from karakuri_agent.state.sqlite.db import DB_FILENAME

    if (settings.state_dir / DB_FILENAME).is_file():
        return None
    return (f"no state yet in {settings.state_dir}: nothing was handled with this KARAKURI_STATE_DIR"
            f" (a real run creates it). {_THROWAWAY}")


def recent(settings: Settings, limit: int, filters: Filters = Filters()) -> list[dict[str, Any]]:
    """The newest `limit` activity entries that pass `filters`, oldest first, with the claims whose outcome
    was never written."""
    return recent_counted(settings, limit, filters)[0]


def recent_counted(settings: Settings, limit: int, filters: Filters = Filters()) -> tuple[list[dict[str, Any]], int]:
    """`recent`'s entries, and how many passed the filters in all (more than `limit`: some are not shown).

    Without filters only `limit` entries are read, so the count is at most `limit`.
    """
    with open_state(settings, utc_now, read_only=True) as state:
        entries = [stored_row(entry) for entry in state.store.recent_activity(FILTER_SCAN if filters.any else limit)]
        claims = state.ledger.recent_claims(limit)
    passing = [entry for entry in entries if filters.keeps(entry)]
    kept = list(reversed(passing[:limit]))
    shown = [e for e in with_unrecorded_claims(kept, claims) if e["kind"] != "claimed" or filters.keeps(e)]
    return shown, len(passing)


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


def why_empty(state_dir: Path, filters: Filters = Filters()) -> str:
    """What a newcomer needs after `demo`: its runs were kept in a throwaway state."""
    if filters.any:
        return f"no activity in {state_dir} matches the filters"
    return f"no activity recorded in {state_dir} yet. {_THROWAWAY}"


_THROWAWAY = ("`karakuri-agent demo` and fixture runs use a throwaway state; to keep one, run"
              " `karakuri-agent demo --state-dir DIR` and then `KARAKURI_STATE_DIR=DIR karakuri-agent log`.")


def world_time(stamp: str) -> str:
    """A stored UTC time in the world's zone, with the zone said (as the report lines' times are)."""
    return datetime.fromisoformat(stamp).astimezone(TOKYO).strftime("%Y-%m-%d %H:%M:%S %Z")


def format_entries(entries: Iterable[dict[str, Any]]) -> Iterable[str]:
    """One line per entry, and under a run's report the model's trace when a model was asked."""
    for entry in entries:
        yield from _entry_lines([entry])
        if entry.get("model"):
            yield f"{' ' * 25}{decider_line(entry['model'])}"
        if entry.get("behaviour"):
            yield from (f"{' ' * 25}{line}" for line in behaviour_lines(entry["behaviour"]))


def decider_line(trace: dict[str, Any]) -> str:
    """A model's trace as one line; a decider without one that fell back: what failed, and who decided."""
    if "model" not in trace:
        return f"decider failed ({'; '.join(trace.get('errors') or ())}) → fallback decided"
    from karakuri_agent.domain.model_trace import LLMTrace  # plain data: reading a trace needs no model client

    return LLMTrace.from_json(trace).line()


def behaviour_lines(trace: dict[str, Any]) -> Iterable[str]:
    """The rule that decided, the rules that gave way and why, every pack rule tried, every variable change.

    One line each; a pack rule tried says why it did what it did (its
    trigger, its conditions with the values found, or "not reached").
    """
    from karakuri_agent.behaviour.variables import Change

    rule = trace.get("rule") or (f"none ({trace['by']} decided)" if trace.get("by") else "none answered")
    yield f"rule: {rule}"
    for entry in trace.get("gave_way") or ():
        yield f"gave way: {entry.get('rule')} ({entry.get('why')})"
    from karakuri_agent.behaviour.selector import tried_line

    for entry in trace.get("tried") or ():
        if isinstance(entry, dict):
            yield f"tried {tried_line(entry)}"
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
        stamp = world_time(entry["created_at"])
        head = f"{stamp}  {entry['notification_id']}"
        kind = entry["kind"]
        if kind == "request":
            yield f"{head}  received {entry.get('notification_type') or 'notification'}"
            continue
        params = dumps_shown(entry.get("params") or {})
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
