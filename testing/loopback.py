"""The one loopback HTTP(S) server that tests and benchmarks talk to, with the fakes behind it.

Every fake is a `Loopback` with an `answer` of its own:

- `LoopbackAPI`: the Karakuri API's two endpoints from a dict of
  notifications, every command accepted, and a Discord webhook that answers
  204; it can hold a GET until the test releases it (to signal a client
  mid-notification);
- `WorldServer` (`serving(world)`): the town (`karakuri_agent/town/`, as
  `testing/engine_town` builds it) answering through its `handle_get` / `handle_post`, its clock
  in every `Date`;
- `testing/llm_server.ScriptedModel`: an OpenAI-compatible model from a script.

Whatever the fake, a request may be answered by a scripted fault instead
(`script["GET"]` / `script["POST"]`, consumed in order; empty, the fake
answers): an error status, a non-JSON body, a body cut short, a connection
reset, a hold (answer only once `release` is set, so a test can kill the
client mid-request), a hang (never answer) or a slow drip. A fake's own
answer is one of the same `Answer`s, so a model can hang or drip too.

Every request is kept (`log`). Bound to 127.0.0.1 on a free port; with
an `ssl.SSLContext` it speaks TLS (a webhook URL must be https://). Stopping
the server releases every held, hung or dripping request. Nothing here
imports the agent.
"""

from __future__ import annotations

import email.utils
import json
import socket
import ssl
import struct
import subprocess
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

NOTIFICATIONS = "/api/agents/notifications/"
COMMAND = "/api/agents/command"
JSON = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class Request:
    """One request as the server read it: `body` is the JSON sent (None when empty, the text when not JSON)."""

    method: str
    path: str
    body: Any
    headers: dict[str, str]
    is_json: bool = True

    @property
    def authorization(self) -> str:
        return self.headers.get("Authorization", "")


@dataclass
class Answer:
    """How one request is answered. `kind` is one of the constructors below."""

    kind: str
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    claimed_length: int = 0
    seconds: float = 0.0
    then: Answer | None = None
    head_too: bool = False


def status(code: int, body: Any, headers: dict[str, str] | None = None) -> Answer:
    """A JSON answer with this status."""
    return Answer("answer", code, json.dumps(body, ensure_ascii=False).encode(), {**JSON, **(headers or {})})


def raw(code: int, text: str, content_type: str = "text/html", headers: dict[str, str] | None = None) -> Answer:
    """A non-JSON answer (or none at all: a 204's empty body, a redirect's `Location`)."""
    return Answer("answer", code, text.encode(), {"Content-Type": content_type, **(headers or {})})


def cut_short(code: int = 200, sent: bytes = b'{"ok": tr', claimed_length: int = 400) -> Answer:
    """Content-Length promises more than is sent, then the connection closes."""
    return Answer("short", code, sent, dict(JSON), claimed_length=claimed_length)


def reset() -> Answer:
    """The request is read, then the connection is reset (RST, no answer)."""
    return Answer("reset")


def hang() -> Answer:
    """Accept, read the request, never answer (until the server stops)."""
    return Answer("hang")


def delay(seconds: float, then: Answer | None = None) -> Answer:
    """Answer normally (or with `then`) after `seconds`."""
    return Answer("delay", then=then, seconds=seconds)


def drip(body: bytes, seconds_per_byte: float, code: int = 200, *, head_too: bool = False) -> Answer:
    """The body one byte every `seconds_per_byte` (each read alone is quick, the whole never ends in time).

    With `head_too` the status line and headers drip as well, so the client
    never even learns the status.
    """
    return Answer("drip", code, body, dict(JSON), seconds=seconds_per_byte, head_too=head_too)


def hold(then: Answer | None = None) -> Answer:
    """Signal `entered`, wait for `release` (or the server stopping), then answer."""
    return Answer("hold", then=then)


class _QuietServer(ThreadingHTTPServer):
    """Keeps quiet when a client goes away mid-request: tests kill clients and break connections on purpose."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


class Loopback:
    """One loopback server; a fake overrides `answer` (and `clock` for the `Date` header)."""

    prefix = "/api"

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.script: dict[str, list[Answer]] = {"GET": [], "POST": []}
        self.log: list[Request] = []  # every request, in order
        self.entered = threading.Event()
        self.release = threading.Event()
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.server = _QuietServer(("127.0.0.1", 0), self._handler())
        self.scheme = "http"
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
            self.scheme = "https"

    def answer(self, request: Request) -> Answer:
        return status(404, {"error": "not_found", "message": "No such endpoint."})

    def clock(self, request: Request) -> datetime | None:
        """The time in this answer's `Date` (a world's clock); None: the machine's."""
        return None

    @property
    def port(self) -> int:
        return self.server.server_port

    @property
    def base_url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}{self.prefix}"

    def count(self, method: str) -> int:
        return sum(1 for r in self.log if r.method == method)

    def start(self) -> None:
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
        if self._thread is not None:
            self._thread.join()

    def _next(self, request: Request) -> Answer:
        with self._lock:
            self.log.append(request)
            queue = self.script.setdefault(request.method, [])
            scripted = queue.pop(0) if queue else None
        return scripted if scripted is not None else self.answer(request)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        srv = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            request: Request | None = None

            def date_time_string(self, timestamp: float | None = None) -> str:
                now = None if self.request is None else srv.clock(self.request)
                if now is None:
                    return super().date_time_string(timestamp)
                return email.utils.format_datetime(now.astimezone(timezone.utc), usegmt=True)

            def _head(self, answer: Answer, length: int) -> None:
                self.send_response(answer.status)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(length))
                self.send_header("Connection", "close")
                self.end_headers()

            def _drip(self, answer: Answer) -> None:
                if answer.head_too:
                    head = "".join([f"HTTP/1.1 {answer.status} OK\r\n",
                                    *(f"{k}: {v}\r\n" for k, v in answer.headers.items()),
                                    f"Content-Length: {len(answer.body)}\r\n\r\n"]).encode()
                else:
                    self._head(answer, len(answer.body))
                    self.wfile.flush()
                    head = b""
                for byte in head + answer.body:
                    if srv._stopping.wait(answer.seconds):
                        break
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()

            def _play(self, answer: Answer, request: Request) -> None:
                kind = answer.kind
                if kind == "answer":
                    self._head(answer, len(answer.body))
                    self.wfile.write(answer.body)
                elif kind == "short":
                    self._head(answer, answer.claimed_length)
                    self.wfile.write(answer.body)
                    self.wfile.flush()
                elif kind == "reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.connection.close()
                elif kind == "hang":
                    srv._stopping.wait(60)
                elif kind == "drip":
                    self._drip(answer)
                elif kind in ("delay", "hold"):
                    if kind == "hold":
                        srv.entered.set()
                        srv.release.wait(60)
                    else:
                        srv._stopping.wait(answer.seconds)
                    if not srv._stopping.is_set():
                        self._play(answer.then or srv.answer(request), request)
                self.close_connection = True

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(length) if length else b""
                try:
                    body: Any = json.loads(data) if data else None
                    is_json = True
                except ValueError:
                    body, is_json = data.decode("utf-8", "replace"), False
                request = self.request = Request(self.command, self.path, body, dict(self.headers), is_json)
                try:
                    self._play(srv._next(request), request)
                except OSError:
                    pass  # the client went away (killed, past its budget): nothing to tell it

            do_GET = _serve
            do_POST = _serve

        return Handler


class LoopbackAPI(Loopback):
    """The Karakuri API from a dict of notifications; every command gets `command_answer`.

    A GET waits while `get_released` is clear (set by default) and calls
    `on_get` before answering; a POST to a webhook path answers 204, as
    Discord does without `?wait=true`.
    """

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        super().__init__(tls)
        self.notifications: dict[str, dict[str, Any]] = {}
        self.command_answer: dict[str, Any] = {"ok": True, "message": "受け付けました"}
        self.command_status = 200
        self.get_started = threading.Event()
        self.post_started = threading.Event()
        self.get_released = threading.Event()
        self.get_released.set()  # clear it to hold every GET until it is set again
        self.hold_post_seconds = 0.0  # each command answered only after this long (a command in flight)
        self.on_get: Callable[[str], None] | None = None  # called with the notification id before a GET is answered
        self.world_clock: Callable[[], datetime] | None = None  # the world's time for `Date` (default: the machine's)

    @property
    def webhook_url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}/api/webhooks/123/hook-token-do-not-leak"

    def clock(self, request: Request) -> datetime | None:
        return None if self.world_clock is None else self.world_clock()

    @property
    def gets(self) -> list[str]:
        return [r.path.rsplit("/", 1)[-1] for r in self.log if r.method == "GET"]

    @property
    def posts(self) -> list[Any]:
        """Every POST's body (commands, and webhook posts when this server plays the webhook too)."""
        return [r.body for r in self.log if r.method == "POST"]

    @property
    def authorizations(self) -> list[tuple[str, str, str]]:
        """(method, notification id, Authorization) per request: whose key each agent used."""
        return [(r.method, r.path.rsplit("/", 1)[-1] if r.method == "GET"
                 else str((r.body or {}).get("notification_id") if isinstance(r.body, dict) else None),
                 r.authorization) for r in self.log]

    def posts_for(self, notification_id: str) -> list[dict[str, Any]]:
        return [p for p in self.posts if isinstance(p, dict) and p.get("notification_id") == notification_id]

    def answer(self, request: Request) -> Answer:
        if request.method == "GET":
            self.get_started.set()
            self.get_released.wait(timeout=60)  # bounded so a failed test cannot hang the server
            notification_id = request.path.rstrip("/").rsplit("/", 1)[-1]
            if self.on_get is not None:
                self.on_get(notification_id)
            body = self.notifications.get(notification_id)
            if body is None:
                return status(404, {"error": "not_found", "message": "unknown notification"})
            return status(200, body)
        if "/webhooks/" in request.path:
            return raw(204, "", "text/plain")
        self.post_started.set()
        answer = status(self.command_status, self.command_answer)
        return delay(self.hold_post_seconds, answer) if self.hold_post_seconds else answer


class World(Protocol):
    """The town as the server sees it (karakuri_agent/town's `EngineTown`)."""

    now: datetime

    def handle_get(self, notification_id: str, authorization: str | None) -> tuple[Any, ...]: ...

    def handle_post(self, payload: Any, authorization: str | None) -> tuple[Any, ...]: ...


class WorldServer(Loopback):
    """A town's two contract endpoints with bearer auth; anything else a 404 JSON error; the town's clock in `Date`."""

    def __init__(self, world: World) -> None:
        super().__init__()
        self.world = world

    def clock(self, request: Request) -> datetime | None:
        return self.world.now

    def answer(self, request: Request) -> Answer:
        auth = request.headers.get("Authorization")
        if request.method == "GET" and request.path.startswith(NOTIFICATIONS):
            return status(*self.world.handle_get(request.path[len(NOTIFICATIONS):], auth))
        if request.method == "POST" and request.path == COMMAND:
            if not request.is_json:
                return status(400, {"error": "invalid_request", "message": "Request body must be valid JSON.",
                                    "field": "body"})
            return status(*self.world.handle_post(request.body, auth))
        return super().answer(request)


@contextmanager
def running_api(tls: ssl.SSLContext | None = None) -> Iterator[LoopbackAPI]:
    api = LoopbackAPI(tls)
    api.start()
    try:
        yield api
    finally:
        api.stop()


@contextmanager
def serving(world: World) -> Iterator[WorldServer]:
    server = WorldServer(world)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def self_signed(directory: Path) -> tuple[Path, ssl.SSLContext] | None:
    """A certificate for 127.0.0.1 made with the openssl CLI; None when openssl is missing."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    try:
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
             "-addext", "subjectAltName=IP:127.0.0.1"],
            check=True, capture_output=True, timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return cert, context
