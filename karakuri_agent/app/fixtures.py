"""Recorded fixtures: an httpx transport that answers from files, and the recorder.

With this transport the client runs unchanged and nothing leaves the machine
(no `if dry_run:` anywhere else). A fixtures directory holds:

    notifications/<notification_id>.json   {"status": 200, "body": {...}}  answers to GETs
    commands/<notification_id>.json        {"status": 200, "body": {...}}  answers to POSTs
    commands/<notification_id>.json        {"status": 200, "command": "move", "body": {...}}  answers to POSTs
    session.json                           {"self": {"id", "name"}, "messages": [{"at", "message"}, ...]}

A recorded answer to a POST is served only to the command it answered; any
other command (or one with no recording) gets a generic acceptance for that
command (information commands get an empty `data`), so any recorded
notification can be replayed with any of its choices. The recorder writes the
same layout from a real run, with secrets removed, and adds each handled
message with the time it was handled to `session.json`.
"""

from __future__ import annotations

import email.utils
import json
import tempfile
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator

import httpx

from karakuri_agent.app.config import Settings
from karakuri_agent.app.fixture_shift import shifted_copy, within_span
from karakuri_agent.app.session import Session, load_session
from karakuri_agent.app.state_dirs import for_fixtures
from karakuri_agent.domain.clock import utc_now
from karakuri_agent.domain.commands import INFORMATION as INFORMATION_COMMANDS
from karakuri_agent.domain.ids import ID_PATTERN
from karakuri_agent.errors import UsageError
from karakuri_agent.ja import phrases
from karakuri_agent.reading.trigger import find_notification_id
from karakuri_agent.shipped import PACKAGE_DIR

GENERIC_ACCEPTANCE = {"ok": True, "message": phrases.COMMAND_ACCEPTED}
# `--fixtures bundled` names the recorded session shipped with the package.
BUNDLED = "bundled"


def bundled_fixtures_dir() -> Path:
    """The recorded session shipped with the package (used by `karakuri-agent demo`)."""
    return PACKAGE_DIR / "recorded"


def resolve_fixtures_dir(value: Path | str) -> Path:
    """`bundled` or a directory that exists; UsageError otherwise (nothing is run)."""
    directory = bundled_fixtures_dir() if str(value) == BUNDLED else Path(value).expanduser()
    if not directory.is_dir():
        raise UsageError(f"fixtures directory {directory} does not exist"
                         f" (`--fixtures {BUNDLED}` replays the session shipped with the package)")
    return directory


class FixtureClock:
    """The time of a fixture run: `--at`, else when the session recorded the message, else now.

    `follow(body)` moves it to the message in hand, so a resident run on
    fixtures (`listen --stdin --fixtures`) sees each message at its own time.
    """

    def __init__(self, session: Session, at: datetime | None) -> None:
        self._session = session
        self._at = at
        self._moment: datetime | None = at

    def follow(self, body: str) -> None:
        self._moment = self._at or self._session.time_of(find_notification_id(body))

    def __call__(self) -> datetime:
        return self._moment or utc_now()


@contextmanager
def fixture_run(settings: Settings, at: datetime | None,
                state_dir: Path | None = None) -> Iterator[tuple[Settings, FixtureClock]]:
    """Settings and clock for a run on fixtures: decide as the recorded agent did, when it did.

    The recorded session names the agent and the time of each message (`at`
    overrides it). An `at` outside the session's span (fixture_shift.py) moves
    the whole session instead: a copy of it starts at `at`, each message at
    its own moved time, so a night rule can be tried on a daytime recording.
    The state is a throwaway directory, removed afterwards,
    unless `state_dir` (`--state-dir`) names one: KARAKURI_STATE_DIR and
    KARAKURI_DATABASE_URL are the real agent's, and fixture places, people
    and claims must never leak into them (app/state_dirs.py refuses the live
    directory and any state no offline run made).
    """
    assert settings.fixtures_dir is not None
    directory = resolve_fixtures_dir(settings.fixtures_dir)
    session = load_session(directory, required=False)
    with ExitStack() as stack:
        if at is not None and session.messages and not within_span(session, at):
            scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="karakuri-shifted-")))
            directory = shifted_copy(directory, session, at, scratch / "fixtures")
            session, at = load_session(directory, required=True), None
        settings = replace(settings, fixtures_dir=directory, database_url=None)
        if session.me.get("id") or session.me.get("name"):
            settings = replace(settings, self_agent_id=session.me["id"], self_name=session.me["name"])
        clock = FixtureClock(session, at)
        if state_dir is not None:  # settings.state_dir is still the live agent's here
            yield replace(settings, state_dir=for_fixtures(state_dir, settings.state_dir)), clock
            return
        with tempfile.TemporaryDirectory(prefix="karakuri-fixtures-") as state:
            yield replace(settings, state_dir=Path(state)), clock


def _json_response(status: int, body: Any) -> httpx.Response:
    return httpx.Response(status, json=body)


def _notification_id_from(request: httpx.Request) -> str | None:
    name = request.url.path.rstrip("/").rsplit("/", 1)[-1]
    return name if ID_PATTERN.fullmatch(name) else None


def _read_exchange(path: Path, *, command: str | None = None) -> httpx.Response | None:
    """The recorded answer; for a POST only if it answered `command` (None: not recorded).

    A file that is not a recorded exchange (not JSON, not a regular file, a
    status that is no HTTP status, headers that are not text) is answered as
    a final refusal naming it (`fixture_unreadable`): a run says which file to
    fix, and a GET is not retried on it.
    """
    from karakuri_agent.app.fixture_shift import read_exchange

    if not path.exists() and not path.is_symlink():
        return None
    try:
        exchange = read_exchange(path, path.parent.parent)
        status, headers = exchange.get("status", 200), exchange.get("headers") or {}
        if not (isinstance(status, int) and not isinstance(status, bool) and 200 <= status <= 599):
            raise UsageError(f"{path}: its status {status!r} is not an HTTP status from 200 to 599")
        if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
            raise UsageError(f"{path}: its headers are not names and texts")
    except UsageError as exc:
        return _json_response(400, {"error": "fixture_unreadable", "message": exc.message})
    if command is not None and exchange.get("command") != command:
        return None
    return httpx.Response(status, json=exchange.get("body"), headers=headers)


class FixtureTransport(httpx.BaseTransport):
    """Serves the two contract endpoints from a fixtures directory.

    With a `clock`, each answer's `Date` is its time: the recorded server
    answers when the replay says it does (the session's time, or `--at`), and
    the agent takes the world's time from that, as from a live server.
    """

    def __init__(self, directory: Path, clock: Callable[[], datetime] | None = None) -> None:
        self.directory = resolve_fixtures_dir(directory)
        self.clock = clock

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._answer(request)
        if self.clock is not None:
            response.headers["Date"] = email.utils.format_datetime(self.clock().astimezone(timezone.utc), usegmt=True)
        return response

    def _answer(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if request.method == "GET" and "/agents/notifications/" in path:
            notification_id = _notification_id_from(request)
            recorded = notification_id and _read_exchange(
                self.directory / "notifications" / f"{notification_id}.json"
            )
            return recorded or _json_response(
                404, {"error": "not_found", "message": f"no recorded notification {notification_id}"}
            )
        if request.method == "POST" and path.endswith("/agents/command"):
            payload = json.loads(request.content or b"{}")
            notification_id = str(payload.get("notification_id", ""))
            command = payload.get("command")
            recorded = ID_PATTERN.fullmatch(notification_id) and _read_exchange(
                self.directory / "commands" / f"{notification_id}.json", command=command
            )
            if recorded:
                return recorded
            if command in INFORMATION_COMMANDS:
                return _json_response(200, {"command": command, "data": {}})
            return _json_response(200, GENERIC_ACCEPTANCE)
        return _json_response(404, {"error": "not_found", "message": f"no fixture for {request.method} {path}"})
