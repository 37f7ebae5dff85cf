"""A loopback HTTP(S) server that misbehaves on cue, for the fault tests.

It plays the Karakuri API (the two contract endpoints) or a Discord webhook,
and every request can be answered by a scripted fault instead of the normal
answer: an error status, a non-JSON body, a body cut short, a connection
reset, a hold (answer only when released, so a test can kill the client
mid-request) or a hang (never answer). Scripts are consumed in order per
HTTP method; with an empty script the server answers normally.

Bound to 127.0.0.1 on a free port; with an `ssl.SSLContext` it speaks TLS
(the webhook URL must be https://).
"""

from __future__ import annotations

import json
import socket
import ssl
import struct
import subprocess
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # faults and killed clients break connections on purpose


@dataclass
class Fault:
    """One scripted answer. `kind` is one of the constructors below."""

    kind: str
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    claimed_length: int = 0
    seconds: float = 0.0
    then: Fault | None = None


def status(code: int, body: Any, headers: dict[str, str] | None = None) -> Fault:
    """A JSON answer with this status."""
    return Fault("answer", code, json.dumps(body, ensure_ascii=False).encode(),
                 {"Content-Type": "application/json", **(headers or {})})


def raw(code: int, text: str, content_type: str = "text/html") -> Fault:
    """A non-JSON answer."""
    return Fault("answer", code, text.encode(), {"Content-Type": content_type})


def cut_short(code: int = 200, sent: bytes = b'{"ok": tr', claimed_length: int = 400) -> Fault:
    """Content-Length promises more than is sent, then the connection closes."""
    return Fault("short", code, sent, {"Content-Type": "application/json"}, claimed_length=claimed_length)


def reset() -> Fault:
    """The request is read, then the connection is reset (RST, no answer)."""
    return Fault("reset")


def hang() -> Fault:
    """Accept, read the request, never answer (until the server stops)."""
    return Fault("hang")


def delay(seconds: float, then: Fault | None = None) -> Fault:
    """Answer normally (or with `then`) after `seconds`."""
    return Fault("delay", then=then, seconds=seconds)


def drip(body: bytes, seconds_per_byte: float, code: int = 200) -> Fault:
    """Headers at once, then the body one byte every `seconds_per_byte` (each read alone is quick)."""
    return Fault("drip", code, body, {"Content-Type": "application/json"}, seconds=seconds_per_byte)


def hold(then: Fault | None = None) -> Fault:
    """Signal `entered`, wait for `release` (or the server stopping), then answer."""
    return Fault("hold", then=then)


class FaultServer:
    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.notifications: dict[str, Any] = {}
        self.script: dict[str, list[Fault]] = {"GET": [], "POST": []}
        self.command_answer: dict[str, Any] = {"ok": True, "message": "受け付けました"}
        self.requests: list[tuple[str, str, Any]] = []
        self.entered = threading.Event()
        self.release = threading.Event()
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self.server = _QuietServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.scheme = "http"
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
            self.scheme = "https"

    @property
    def port(self) -> int:
        return self.server.server_port

    @property
    def base_url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}/api"

    @property
    def webhook_url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}/api/webhooks/123/hook-token-do-not-leak"

    def posts_for(self, notification_id: str) -> list[dict[str, Any]]:
        return [p for m, path, p in self.requests
                if m == "POST" and isinstance(p, dict) and p.get("notification_id") == notification_id]

    def count(self, method: str) -> int:
        return sum(1 for m, _, _ in self.requests if m == method)

    def _next(self, method: str) -> Fault | None:
        with self._lock:
            queue = self.script[method]
            return queue.pop(0) if queue else None

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        srv = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _answer(self, code: int, body: bytes, headers: dict[str, str]) -> None:
                self.send_response(code)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def _play(self, fault: Fault) -> None:
                if fault.kind == "answer":
                    self._answer(fault.status, fault.body, fault.headers)
                elif fault.kind == "short":
                    self.send_response(fault.status)
                    for name, value in fault.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(fault.claimed_length))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(fault.body)
                    self.wfile.flush()
                    self.close_connection = True
                elif fault.kind == "reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.close_connection = True
                    self.connection.close()
                elif fault.kind == "hang":
                    srv._stopping.wait(60)
                    self.close_connection = True
                elif fault.kind == "delay":
                    srv._stopping.wait(fault.seconds)
                    self._play(fault.then) if fault.then is not None else self._normal()
                elif fault.kind == "drip":
                    self.send_response(fault.status)
                    for name, value in fault.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(fault.body)))
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.flush()
                    for byte in fault.body:
                        if srv._stopping.wait(fault.seconds):
                            break
                        try:
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                        except OSError:  # the client gave up: what it should do
                            break
                    self.close_connection = True
                elif fault.kind == "hold":
                    srv.entered.set()
                    srv.release.wait(60)
                    if fault.then is not None and not srv._stopping.is_set():
                        self._play(fault.then)
                    elif not srv._stopping.is_set():
                        self._normal()

            def _normal(self) -> None:
                if self.command == "GET":
                    name = self.path.rstrip("/").rsplit("/", 1)[-1]
                    body = srv.notifications.get(name)
                    if body is None:
                        self._answer(404, b'{"error": "not_found", "message": "unknown notification"}',
                                     {"Content-Type": "application/json"})
                    else:
                        self._answer(200, json.dumps(body, ensure_ascii=False).encode(),
                                     {"Content-Type": "application/json"})
                elif "/webhooks/" in self.path:
                    self._answer(204, b"", {})
                else:
                    self._answer(200, json.dumps(srv.command_answer, ensure_ascii=False).encode(),
                                 {"Content-Type": "application/json"})

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(length) if length else b""
                try:
                    payload: Any = json.loads(data) if data else None
                except ValueError:
                    payload = data.decode("utf-8", "replace")
                with srv._lock:
                    srv.requests.append((self.command, self.path, payload))
                fault = srv._next(self.command)
                try:
                    self._play(fault) if fault is not None else self._normal()
                except OSError:
                    pass  # the client went away (killed, timed out): nothing to answer

            do_GET = _serve
            do_POST = _serve

        return Handler

    def stop(self) -> None:
        self._stopping.set()
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def serving(tls: ssl.SSLContext | None = None) -> Iterator[FaultServer]:
    server = FaultServer(tls)
    thread = threading.Thread(target=server.server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
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
