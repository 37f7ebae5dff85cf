"""The town's HTTP face: the two contract endpoints on 127.0.0.1, with bearer auth.

`GET  /api/agents/notifications/{id}` and `POST /api/agents/command`, JSON in
and out (a 429 carries `Retry-After`); everything else is a 404 JSON error.
A wrong or missing key gets a 401 JSON body. Every answer's `Date` is the
town's clock, which may run ahead of or behind the machine's. The town does the rest (`Town.handle_get` / `handle_post`).
"""

from __future__ import annotations

import email.utils
import json
import threading
from contextlib import contextmanager
from datetime import timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

from .sim import Town

NOTIFICATIONS = "/api/agents/notifications/"
COMMAND = "/api/agents/command"


class TownServer:
    def __init__(self, town: Town) -> None:
        self.town = town
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/api"

    def start(self) -> None:
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        town = self.town

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def date_time_string(self, timestamp: float | None = None) -> str:
                """The `Date` header is the town's clock (CONTRACT §9), not the machine's."""
                return email.utils.format_datetime(town.now.astimezone(timezone.utc), usegmt=True)

            def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(body, ensure_ascii=False).encode()
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if not self.path.startswith(NOTIFICATIONS):
                    self._send(404, {"error": "not_found", "message": "No such endpoint."})
                    return
                notification_id = self.path[len(NOTIFICATIONS):]
                self._send(*town.handle_get(notification_id, self.headers.get("Authorization")))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if self.path != COMMAND:
                    self._send(404, {"error": "not_found", "message": "No such endpoint."})
                    return
                try:
                    payload = json.loads(raw or b"null")
                except ValueError:
                    self._send(400, {"error": "invalid_request", "message": "Body is not JSON.", "field": "body"})
                    return
                self._send(*town.handle_post(payload, self.headers.get("Authorization")))

        return Handler


@contextmanager
def serving(town: Town) -> Iterator[TownServer]:
    server = TownServer(town)
    server.start()
    try:
        yield server
    finally:
        server.stop()
