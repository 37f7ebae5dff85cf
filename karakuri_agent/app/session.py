"""A recorded session's `session.json`: who the recorded agent is and which messages it got when.

A recording is outside data: it may be hand-edited, half-written, a
directory, a FIFO or a link to `/dev/zero`. It is read once, here, as a
regular file of bounded size with the shape the recorder writes; anything
else is a UsageError naming the file and what is wrong (exit 2, nothing
run). The recorder's half adds a message under an exclusive lock and
replaces the file whole, so several runs recording into one directory at
once each keep their message and a reader never sees half a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator

from karakuri_agent.errors import UsageError
from karakuri_agent.reading.trigger import find_notification_id

SESSION_FILE = "session.json"
# A session of a whole day of messages is a few hundred kB; a larger file is no recording of this program's.
SESSION_LIMIT = 64_000_000
SESSION_DEPTH = 8
LOCK_FILE = ".session.lock"


def parse_time(text: str) -> datetime:
    """ISO 8601; a time without an offset is UTC (as the recorded sessions are)."""
    try:
        moment = datetime.fromisoformat(text.strip())
        moment = moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
        moment.astimezone(timezone.utc) + timedelta(days=1)  # a time at the calendar's edge cannot be run at
    except (ValueError, OverflowError):
        raise UsageError(f"{text!r} is not an ISO 8601 time between years 1 and 9999"
                         " (e.g. 2026-04-18T03:10:05Z)") from None
    return moment


@dataclass
class Session:
    """Who the recorded agent is and which messages it got when."""

    me: dict[str, str] = field(default_factory=dict)
    messages: list[tuple[datetime, str]] = field(default_factory=list)

    def time_of(self, notification_id: str | None) -> datetime | None:
        """When the message carrying `notification_id` was first handled."""
        for at, message in self.messages:
            if notification_id and find_notification_id(message) == notification_id:
                return at
        return None


def load_session(directory: Path, *, required: bool) -> Session:
    """The directory's `session.json`; an empty session when it has none and none is required."""
    path = directory / SESSION_FILE
    try:
        data = _read(path)
    except FileNotFoundError:
        if required:
            raise UsageError(f"{path} does not exist: not a recorded session") from None
        return Session()
    return _session(path, data)


def _read(path: Path) -> Any:
    from karakuri_agent.outside import UnreadableJson, file_kind, read_json_file

    if not path.exists() and not path.is_symlink():
        raise FileNotFoundError(path)
    try:
        return read_json_file(path, SESSION_LIMIT, max_depth=SESSION_DEPTH)
    except FileNotFoundError:  # a link to nothing
        raise UsageError(f"{path} is a link to nothing: not a recorded session") from None
    except UnreadableJson as exc:
        kind = file_kind(path)
        shown = f"{path} is {kind}" if kind and kind != "a regular file" else str(exc)
        raise UsageError(f"{shown}: not a readable recorded session") from None


def _session(path: Path, data: Any) -> Session:
    """The recorded session in `data`, or UsageError saying which part of `path` is not as recorded."""
    def wrong(what: str) -> UsageError:
        return UsageError(f"{path}: {what} (a recorded session is {{\"self\": {{\"id\", \"name\"}},"
                          " \"messages\": [{\"at\": TIME, \"message\": TEXT}, ...]})")

    if not isinstance(data, dict):
        raise wrong("not a JSON object")
    me = data.get("self") or {}
    messages = data.get("messages")
    if not isinstance(me, dict):
        raise wrong("`self` is not an object")
    if not isinstance(messages, list):
        raise wrong("`messages` is not a list")
    read: list[tuple[datetime, str]] = []
    for number, entry in enumerate(messages, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("at"), str) \
                or not isinstance(entry.get("message"), str):
            raise wrong(f"message {number} is not {{\"at\": TIME, \"message\": TEXT}}")
        try:
            read.append((parse_time(entry["at"]), entry["message"]))
        except UsageError as exc:
            raise wrong(f"message {number}: {exc.message}") from None
    ident = {key: me.get(key) for key in ("id", "name")}
    return Session({k: v if isinstance(v, str) else str(v or "") for k, v in ident.items()}, read)


def add_to_session(directory: Path, message: str, at: datetime, me: dict[str, str]) -> None:
    """The recorder's half of `session.json`: the message, when it came, whose it was.

    Taken under an exclusive lock on a file beside it and written to a
    temporary file that replaces it whole: concurrent recorders each keep
    their message. Raises OSError or UsageError (a session.json that is no
    recording: it is never overwritten).
    """
    path = directory / SESSION_FILE
    with _locked(directory):
        try:
            data = _read(path)
            _session(path, data)  # refused whole when it is not a recording: never written over
        except FileNotFoundError:
            data = {"self": me, "messages": []}
        data["messages"].append({"at": at.astimezone(timezone.utc).isoformat().replace("+00:00", "Z"),
                                 "message": message})
        write_whole(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def write_whole(path: Path, text: str) -> None:
    """`text` as the file at `path`, written beside it and renamed over it: a reader sees the old or the new."""
    fd, scratch = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(scratch, path)
    except BaseException:
        try:
            os.unlink(scratch)
        except OSError:
            pass
        raise


@contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """An exclusive lock on the directory's session lock file, for one read-add-write of session.json."""
    import fcntl

    fd = os.open(directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
