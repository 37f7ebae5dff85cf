"""`handle --record DIR`: a real run's exchanges with the server kept as fixtures, after the run.

Recording is optional; the command it records is not. So the directory is
checked before anything is read or sent (a `commands` that is a file, a
`session.json` that is no recording, a read-only mount: one UsageError, exit
2, nothing sent), the exchanges are only kept in memory while the run
talks to the server, and they are written once the run has recorded its
outcome in the state and made its report: a file that cannot be written then
is one line on stderr (`problems`), never an error that loses the outcome of
a command that was sent. Each file is replaced whole, and `session.json`
gets its message under a lock (app/session.py), so runs recording into one
directory at once each keep theirs.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from karakuri_agent.app.session import SESSION_FILE, add_to_session, load_session, write_whole
from karakuri_agent.domain.ids import ID_PATTERN
from karakuri_agent.errors import UsageError
from karakuri_agent.secret import redact

FOLDERS = ("notifications", "commands")


class Recorder:
    """The recording of one run into `directory`: checked first, written last."""

    def __init__(self, directory: Path, secrets: tuple[str, ...]) -> None:
        self.directory = Path(directory)
        self.secrets = secrets
        self.exchanges: dict[Path, dict[str, Any]] = {}

    def check(self) -> None:
        """UsageError naming what cannot take a recording; nothing is read or sent before this passes."""
        for folder in (self.directory, *(self.directory / name for name in FOLDERS)):
            try:
                folder.mkdir(parents=True, exist_ok=True)
                fd, probe = tempfile.mkstemp(dir=folder, prefix=".probe-")
                os.close(fd)
                os.unlink(probe)
            except FileExistsError:
                raise UsageError(f"--record {self.directory}: {folder} is not a directory; nothing was sent") from None
            except OSError as exc:
                raise UsageError(f"--record {self.directory}: cannot write in {folder} ({exc.strerror});"
                                 " nothing was sent") from None
        load_session(self.directory, required=False)  # one that is no recording is refused now, not after
        if (self.directory / SESSION_FILE).exists() and not os.access(self.directory / SESSION_FILE, os.W_OK):
            raise UsageError(f"--record {self.directory}: {SESSION_FILE} is not writable; nothing was sent")

    def transport(self, inner: httpx.BaseTransport | None = None) -> httpx.BaseTransport:
        return RecordingTransport(inner or httpx.HTTPTransport(), self)

    def keep(self, request: httpx.Request, response: httpx.Response) -> None:
        """One exchange, held until `save`: the answer's body (secrets removed), under the id it was for."""
        try:
            body: Any = response.json()
        except ValueError:
            body = {"error": f"http_{response.status_code}", "message": response.text[:160]}
        exchange: dict[str, Any] = {"status": response.status_code}
        if request.method == "GET":
            notification_id: str | None = request.url.path.rstrip("/").rsplit("/", 1)[-1]
            folder = "notifications"
        else:
            try:
                payload = json.loads(request.content or b"{}")
            except ValueError:
                return
            notification_id = str(payload.get("notification_id", "")) if isinstance(payload, dict) else None
            exchange["command"] = payload.get("command") if isinstance(payload, dict) else None
            folder = "commands"
        if notification_id and ID_PATTERN.fullmatch(notification_id):
            self.exchanges[self.directory / folder / f"{notification_id}.json"] = {**exchange, "body": body}

    def save(self, message: str | None, at: datetime, me: dict[str, str]) -> list[str]:
        """Write the kept exchanges and the message (when the run had a notification); one line per failure."""
        problems = []
        for path, exchange in self.exchanges.items():
            text = redact(json.dumps(exchange, ensure_ascii=False, indent=1), self.secrets)
            try:
                write_whole(path, text + "\n")
            except OSError as exc:
                problems.append(f"could not save {path} ({exc.strerror or type(exc).__name__})")
        if message is not None:
            try:
                add_to_session(self.directory, message, at, me)
            except UsageError as exc:
                problems.append(f"could not add the message to the session: {exc.message}")
            except OSError as exc:
                problems.append(f"could not add the message to {self.directory / SESSION_FILE}"
                                f" ({exc.strerror or type(exc).__name__})")
        return problems


class RecordingTransport(httpx.BaseTransport):
    """Forwards to a real transport and hands each exchange to the recorder; never fails a request itself.

    The API key only travels in the Authorization header, which is never
    kept; bodies are scrubbed of every configured secret when written.
    """

    def __init__(self, inner: httpx.BaseTransport, recorder: Recorder) -> None:
        self.inner = inner
        self.recorder = recorder

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        response.read()
        self.recorder.keep(request, response)
        return response

    def close(self) -> None:
        self.inner.close()
