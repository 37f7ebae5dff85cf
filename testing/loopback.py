"""A loopback Karakuri API for tests and benchmarks that need real processes.

Serves the two contract endpoints from an in-memory dict, counts every
request, and can hold a POST open (to kill a client mid-command) or a GET
until the test releases it (to signal a client mid-notification). Bound to
127.0.0.1 on a free port; stopped by the context manager.
"""

from __future__ import annotations

import email.utils
import json
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator


class QuietServer(ThreadingHTTPServer):
    """A loopback server that keeps quiet when a client goes away mid-request.

    Tests kill clients on purpose (SIGKILL mid-command, a model past its budget);
    the stock server would print each broken connection's traceback to stderr.
    """

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


class JSONHandler(BaseHTTPRequestHandler):
    """Answers JSON and stays silent: no access log, no traceback for a client that went away."""

    def log_message(self, *args: Any) -> None:  # keep test output clean
        pass

    def _send(self, status: int, body: Any) -> None:
        data = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up waiting (killed, or past its budget): nothing to tell it


class LoopbackAPI:
    def __init__(self) -> None:
        self.notifications: dict[str, dict[str, Any]] = {}
        self.command_answer: dict[str, Any] = {"ok": True, "message": "受け付けました"}
        self.command_status = 200
        self.hold_post_seconds = 0.0
        self.gets: list[str] = []
        self.posts: list[dict[str, Any]] = []
        # (method, notification id, Authorization header) per request: whose key each agent used
        self.authorizations: list[tuple[str, str, str]] = []
        self.post_started = threading.Event()
        self.get_started = threading.Event()
        self.get_released = threading.Event()
        self.get_released.set()  # clear it to hold every GET until it is set again
        self.on_get: Callable[[str], None] | None = None  # called before a GET is answered
        self.clock: Callable[[], datetime] | None = None  # the world's time for the `Date` header (default: the machine's)
        self._lock = threading.Lock()
        self.server = QuietServer(("127.0.0.1", 0), self._handler())

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/api"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(JSONHandler):
            def date_time_string(self, timestamp: float | None = None) -> str:
                """The `Date` header: the world's clock when one is set (CONTRACT §9), else the machine's."""
                if api.clock is None:
                    return super().date_time_string(timestamp)
                return email.utils.format_datetime(api.clock().astimezone(timezone.utc), usegmt=True)

            def do_GET(self) -> None:
                notification_id = self.path.rsplit("/", 1)[-1]
                with api._lock:
                    api.gets.append(notification_id)
                    api.authorizations.append(("GET", notification_id, self.headers.get("Authorization", "")))
                api.get_started.set()
                api.get_released.wait(timeout=60)  # bounded so a failed test cannot hang the server
                if api.on_get is not None:
                    api.on_get(notification_id)
                body = api.notifications.get(notification_id)
                if body is None:
                    self._send(404, {"error": "not_found", "message": "unknown notification"})
                else:
                    self._send(200, body)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                payload = json.loads(self.rfile.read(length) or b"{}")
                with api._lock:
                    api.posts.append(payload)
                    api.authorizations.append(("POST", str(payload.get("notification_id")),
                                               self.headers.get("Authorization", "")))
                api.post_started.set()
                if api.hold_post_seconds:
                    time.sleep(api.hold_post_seconds)
                self._send(api.command_status, api.command_answer)

        return Handler

    def posts_for(self, notification_id: str) -> list[dict[str, Any]]:
        return [p for p in self.posts if p.get("notification_id") == notification_id]


@contextmanager
def running_api() -> Iterator[LoopbackAPI]:
    api = LoopbackAPI()
    thread = threading.Thread(target=api.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield api
    finally:
        api.server.shutdown()
        api.server.server_close()
