"""Recorded fixtures: an httpx transport that answers from files, and the recorder.

With this transport the client runs unchanged and nothing leaves the machine
(no `if dry_run:` anywhere else). A fixtures directory holds:

    notifications/<notification_id>.json   {"status": 200, "body": {...}}  answers to GETs
    commands/<notification_id>.json        {"status": 200, "body": {...}}  answers to POSTs
    messages.json                          ["<Discord message body>", ...] (optional, for `demo`)

A POST without a recorded answer gets a generic acceptance (information
commands get an empty `data`), so any recorded notification can be replayed.
The recorder writes the same layout from a real run, with secrets removed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from .config import redact
from .commands import INFORMATION as INFORMATION_COMMANDS
from .trigger import ID_PATTERN

GENERIC_ACCEPTANCE = {"ok": True, "message": "コマンドを受け付けました"}


def bundled_fixtures_dir() -> Path:
    """The recorded session shipped with the package (used by `karakuri-agent demo`)."""
    return Path(__file__).resolve().parent / "recorded"


def _json_response(status: int, body: Any) -> httpx.Response:
    return httpx.Response(status, json=body)


def _notification_id_from(request: httpx.Request) -> str | None:
    name = request.url.path.rstrip("/").rsplit("/", 1)[-1]
    return name if ID_PATTERN.fullmatch(name) else None


def _read_exchange(path: Path) -> httpx.Response | None:
    try:
        exchange = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        return _json_response(500, {"error": "fixture_unreadable", "message": f"{path.name}: {exc}"})
    headers = exchange.get("headers") or {}
    return httpx.Response(int(exchange.get("status", 200)), json=exchange.get("body"), headers=headers)


class FixtureTransport(httpx.BaseTransport):
    """Serves the two contract endpoints from a fixtures directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
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
            recorded = ID_PATTERN.fullmatch(notification_id) and _read_exchange(
                self.directory / "commands" / f"{notification_id}.json"
            )
            if recorded:
                return recorded
            command = payload.get("command")
            if command in INFORMATION_COMMANDS:
                return _json_response(200, {"command": command, "data": {}})
            return _json_response(200, GENERIC_ACCEPTANCE)
        return _json_response(404, {"error": "not_found", "message": f"no fixture for {request.method} {path}"})


class RecordingTransport(httpx.BaseTransport):
    """Forwards to a real transport and saves each exchange as a fixture file.

    The API key only travels in the Authorization header, which is never
    written; bodies are scrubbed of every configured secret all the same.
    """

    def __init__(self, inner: httpx.BaseTransport, directory: Path, secrets: tuple[str, ...]) -> None:
        self.inner = inner
        self.directory = Path(directory)
        self.secrets = secrets

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        response.read()
        try:
            body = response.json()
        except ValueError:
            body = {"error": f"http_{response.status_code}", "message": response.text[:160]}
        if request.method == "GET":
            notification_id = _notification_id_from(request)
            folder = "notifications"
        else:
            notification_id = str(json.loads(request.content or b"{}").get("notification_id", ""))
            folder = "commands"
        if notification_id and ID_PATTERN.fullmatch(notification_id):
            self._save(self.directory / folder / f"{notification_id}.json", response.status_code, body)
        return response

    def _save(self, path: Path, status: int, body: Any) -> None:
        text = redact(json.dumps({"status": status, "body": body}, ensure_ascii=False, indent=1), self.secrets)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
