"""The day as one JSON object (`karakuri-agent day --json`): plain data, times as ISO 8601 in the world's zone."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from karakuri_agent.app.day.model import ZONE, Day, Transfer


def to_json(day: Day) -> dict[str, Any]:
    return {
        "date": day.date.isoformat(),
        "zone": str(ZONE),
        "empty": day.empty,
        "notifications": day.notifications,
        "places": [{"node_id": v.node_id, "label": v.label, "arrived_at": _iso(v.arrived_at)} for v in day.places],
        "conversations": [
            {"partners": list(c.partners), "started_at": _iso(c.started_at), "ended_at": _iso(c.ended_at),
             "lines_by_speaker": c.lines_by_speaker(),
             "lines": [{"speaker": line.speaker, "text": line.text, "at": _iso(line.at), "own": line.own}
                       for line in c.lines]}
            for c in day.conversations
        ],
        "promises": [
            {"partner": p.partner, "place": p.place, "node_id": p.node_id, "due_at": _iso(p.due_at),
             "status": p.status, "made_at": _iso(p.made_at), "kept_at": _iso(p.kept_at), "text": p.text}
            for p in day.promises
        ],
        "transfers": [_transfer(t) for t in day.transfers],
        "commands": dict(sorted(day.commands.items())),
        "failures": [{"notification_id": f.notification_id, "error": f.error, "message": f.message,
                      "at": _iso(f.at)} for f in day.failures],
        "rules_fired": [{"rule": r.rule, "command": r.command, "at": _iso(r.at)} for r in day.rules_fired],
        "variables": [{"path": v.path, "value": v.value, "at": _iso(v.at)} for v in day.variables],
        "learned": [{"teller": f.teller, "about": f.about, "kind": f.kind, "topic": f.topic, "line": f.line,
                     "withdrawn": f.withdrawn, "at": _iso(f.at)} for f in day.learned],
    }


def _transfer(t: Transfer) -> dict[str, Any]:
    what: dict[str, Any] = {"item": t.item} if t.item else {"money": t.money}
    return {"direction": t.direction, "partner": t.partner, **what, "at": _iso(t.at)}


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(ZONE).isoformat(timespec="seconds") if moment else None
