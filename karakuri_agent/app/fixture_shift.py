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
from typing import Any

from karakuri_agent.app.session import SESSION_FILE, Session, write_whole
from karakuri_agent.domain.clock import PLAUSIBLE_YEARS, TOKYO
from karakuri_agent.errors import UsageError
from karakuri_agent.ja.notification_text import CLOCK
from karakuri_agent.outside import file_kind

# A recorded answer is one notification or one command's answer: far below this.
EXCHANGE_LIMIT = 16_000_000
EXCHANGE_DEPTH = 64

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
    """A copy of the fixtures in `directory` (its `session` read) starting at `start`, every recorded time moved alike.

    A recorded file that is not JSON (or not a regular file) is a UsageError
    naming it, and so is a session that would end past the calendar's last
    year: nothing is run on a recording that cannot be moved whole.
    """
    offset = start - min(moment for moment, _ in session.messages) if session.messages else timedelta(0)
    try:
        (max(moment for moment, _ in session.messages) + offset + NOTIFICATION_LIFE).astimezone(timezone.utc)
    except (ValueError, OverflowError):
        raise UsageError(f"--at {start.isoformat()}: the recorded session, moved to start then, would end past"
                         " the year 9999; give an earlier time") from None
    for folder in ("notifications", "commands"):
        for path in sorted((directory / folder).glob("*.json")):
            kind = file_kind(path)
            if kind != "a regular file":  # a FIFO would block the copy, /dev/zero fill the disk
                raise UsageError(f"{path} is {kind or 'a link to nothing'}: not a recorded exchange")
    shutil.copytree(directory, into, symlinks=True)
    for path in sorted((into / "notifications").glob("*.json")):
        recorded = read_exchange(path, directory)
        if isinstance(recorded.get("body"), dict):
            _shift_notification(recorded["body"], offset)
        write_whole(path, json.dumps(recorded, ensure_ascii=False, indent=1))
    for path in sorted((into / "commands").glob("*.json")):  # an answer's `completes_at`, `arrives_at`: moved alike
        recorded = read_exchange(path, directory)
        if isinstance(recorded.get("body"), dict):
            recorded["body"] = _shift_times(recorded["body"], offset)
        write_whole(path, json.dumps(recorded, ensure_ascii=False, indent=1))
    session_path = into / SESSION_FILE
    data = json.loads(session_path.read_text(encoding="utf-8"))  # read and checked once already (session.py)
    for entry, (at, _) in zip(data.get("messages") or [], session.messages):
        entry["at"] = _stamp(at + offset)
    write_whole(session_path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return into


def read_exchange(path: Path, recording: Path) -> dict[str, Any]:
    """One recorded exchange file (a copy's, named by where it came from in `recording`), or UsageError."""
    from karakuri_agent.outside import UnreadableJson, read_json_file

    shown = recording / path.parent.name / path.name
    try:
        recorded = read_json_file(path, EXCHANGE_LIMIT, max_depth=EXCHANGE_DEPTH)
    except (UnreadableJson, FileNotFoundError) as exc:
        raise UsageError(f"{shown}: not a recorded exchange ({str(exc).removeprefix(str(path) + ': ')})") from None
    if not isinstance(recorded, dict):
        raise UsageError(f"{shown}: not a recorded exchange (a JSON object with status and body is expected)")
    return recorded


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
