"""A recorded session moved in time: `demo --at TIME` and `handle --fixtures … --at TIME` outside its span.

A rule on the time of day (a night rule) can only be tried offline if the
recorded notifications say it is night: their `created_at` and
`expires_at`, the texts' `現在時刻` line and the session's message times are
all moved by the same amount, into a copy of the fixtures directory, so the
client, the clock and the transport run unchanged on the copy. The
recording itself is never changed.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from karakuri_agent.domain.clock import PLAUSIBLE_YEARS
from karakuri_agent.domain.notification import TOKYO
from karakuri_agent.ja.notification_text import CLOCK

if TYPE_CHECKING:
    from karakuri_agent.app.fixtures import Session

# A recorded session's own file in a fixtures directory (fixtures.py reads and writes it).
SESSION_FILE = "session.json"

# An epoch-milliseconds time is at least the start of the plausible years (1971-01-01, domain/clock.py):
# a smaller number is no recorded time. Low enough that a recorded time moved by years stays a time,
# so moving a session and moving it back gives back what was recorded.
EPOCH_MS_FROM = int(datetime(PLAUSIBLE_YEARS.start, 1, 1, tzinfo=timezone.utc).timestamp() * 1000)
# The notification's own life past the session's last message: an `--at` this close still means "late".
NOTIFICATION_LIFE = timedelta(minutes=10)


def within_span(session: Session, at: datetime) -> bool:
    """`at` falls inside the recorded session (its first message to its last one's notification life)."""
    if not session.messages:
        return True
    times = [moment for moment, _ in session.messages]
    return min(times) <= at <= max(times) + NOTIFICATION_LIFE


def shifted_copy(directory: Path, session: Session, start: datetime, into: Path) -> Path:
    """A copy of the fixtures in `directory` (its `session` read) starting at `start`, every recorded time moved alike."""
    offset = start - min(moment for moment, _ in session.messages) if session.messages else timedelta(0)
    shutil.copytree(directory, into)
    for path in (into / "notifications").glob("*.json"):
        recorded = json.loads(path.read_text(encoding="utf-8"))
        body = recorded.get("body")
        if isinstance(body, dict):
            _shift_notification(body, offset)
        path.write_text(json.dumps(recorded, ensure_ascii=False, indent=1), encoding="utf-8")
    for path in (into / "commands").glob("*.json"):  # an answer's `completes_at`, `arrives_at`: moved alike
        recorded = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(recorded.get("body"), dict):
            recorded["body"] = _shift_times(recorded["body"], offset)
        path.write_text(json.dumps(recorded, ensure_ascii=False, indent=1), encoding="utf-8")
    session_path = into / SESSION_FILE
    data = json.loads(session_path.read_text(encoding="utf-8"))
    for entry, (at, _) in zip(data.get("messages") or [], session.messages):
        entry["at"] = _stamp(at + offset)
    session_path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return into


def _shift_notification(body: dict[str, Any], offset: timedelta) -> None:
    for key in ("created_at", "expires_at"):
        body[key] = _shifted(body.get(key), offset)
    inner = body.get("notification")
    if isinstance(inner, dict) and isinstance(inner.get("text"), str):
        inner["text"] = shift_text(inner["text"], offset)


def shift_text(text: str, offset: timedelta) -> str:
    """The text with its `現在時刻` line moved by `offset` (read as the world's Tokyo time); nothing else changes."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        found = CLOCK.match(line.strip())
        if found is None:
            continue
        try:
            moment = datetime(int(found.group("y")), int(found.group("mo")), int(found.group("d")),
                              int(found.group("h")), int(found.group("mi")), tzinfo=TOKYO) + offset
        except (ValueError, OverflowError):
            continue
        lead = len(line) - len(line.lstrip())
        start, end = lead + found.start("y"), lead + found.end("mi")
        lines[index] = line[:start] + moment.strftime("%Y-%m-%d %H:%M") + line[end:]
    return "\n".join(lines)


def _shifted(value: Any, offset: timedelta) -> Any:
    """A recorded time moved by `offset`, in the form it was recorded: ISO 8601 text, or epoch milliseconds
    (as the world sends `created_at` and `completes_at`). A value that is no time stays as it was."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value + int(offset.total_seconds() * 1000) if value >= EPOCH_MS_FROM else value
    if isinstance(value, str):
        try:
            return _stamp(_moment(value) + offset)
        except Exception:  # a stamp the recording garbled stays as it was: the run says what it finds
            return value
    return value


def _shift_times(value: Any, offset: timedelta) -> Any:
    """Every `*_at` value in an answer, at any depth, moved by `offset`."""
    if isinstance(value, dict):
        return {k: _shifted(v, offset) if k.endswith("_at") and not isinstance(v, (dict, list))
                else _shift_times(v, offset) for k, v in value.items()}
    if isinstance(value, list):
        return [_shift_times(v, offset) for v in value]
    return value


def _moment(text: str) -> datetime:
    moment = datetime.fromisoformat(text.strip())
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _stamp(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")
