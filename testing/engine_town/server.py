"""The engine town's HTTP face: the contract's two endpoints on 127.0.0.1 (reusing `testing/loopback.py`).

`GET /api/agents/notifications/{id}` and `POST /api/agents/command` with
bearer auth; everything else is a 404 JSON error. The `Date` of every answer
is the town's clock, months away from the machine's.
"""

from __future__ import annotations

import email.utils
import json
import threading
from contextlib import contextmanager
from datetime import timezone
from http.server import BaseHTTPRequestHandler
from typing import Any, Iterator

from testing.loopback import JSONHandler, QuietServer

from karakuri_agent.town.town import EngineTown

NOTIFICATIONS = "/api/agents/notifications/"
COMMAND = "/api/agents/command"


class EngineTownServer:
    def __init__(self, town: EngineTown) -> None:
        self.town = town
        self.server = QuietServer(("127.0.0.1", 0), self._handler())

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/api"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        town = self.town

        class Handler(JSONHandler):
            def date_time_string(self, timestamp: float | None = None) -> str:
                return email.utils.format_datetime(town.now.astimezone(timezone.utc), usegmt=True)

            def do_GET(self) -> None:
                if not self.path.startswith(NOTIFICATIONS):
                    self._send(404, {"error": "not_found", "message": "No such endpoint."})
                    return
                self._send(*town.handle_get(self.path[len(NOTIFICATIONS):], self.headers.get("Authorization")))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if self.path != COMMAND:
                    self._send(404, {"error": "not_found", "message": "No such endpoint."})
                    return
                try:
                    payload: Any = json.loads(raw or b"null")
                except ValueError:
                    self._send(400, {"error": "invalid_request", "message": "Request body must be valid JSON."})
                    return
                self._send(*town.handle_post(payload, self.headers.get("Authorization")))

        return Handler


@contextmanager
def serving(town: EngineTown) -> Iterator[EngineTownServer]:
    server = EngineTownServer(town)
    thread = threading.Thread(target=server.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.server.shutdown()
        server.server.server_close()
