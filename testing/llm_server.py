"""A loopback OpenAI-compatible model for tests and benchmarks: scripted answers.

Serves `POST /v1/chat/completions` on 127.0.0.1 from a script, one entry a
request, in order: a text (the model's answer), `(status, body)` for an
error, `HANG` to hold the request open until the server stops (a model
past the budget, without any sleep in the test), `Drip(text, every)` to
send the whole HTTP answer (status line and headers included) one byte at
a time (a model that is never silent for long, yet never done), or
`Redirect(location)` for a 307 to elsewhere. Every request body and
header set is kept so tests can read what the client sent. Once the script
is used up every further request gets a 500. Instead of a list, the script
may be a function of the request body returning one of those answers (the
benchmarks' adversarial model, which answers what it is asked about).
"""

from __future__ import annotations

import json
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Union

from testing.loopback import JSONHandler, QuietServer

HANG = object()


@dataclass(frozen=True)
class Drip:
    """A good answer, written one byte every `every` seconds: each read gets something, the whole never ends in time."""

    text: str
    every: float = 0.1


@dataclass(frozen=True)
class Redirect:
    """A 307 to `location`: a client that follows it sends the prompt there too."""

    location: str


Answer = Union[str, tuple[int, dict[str, Any]], Drip, Redirect, object]
Script = Union[list[Answer], Callable[[dict[str, Any]], Answer]]


class ScriptedModel:
    def __init__(self, script: Script, *, delay: float = 0.0) -> None:
        self.script = script if callable(script) else list(script)
        self.delay = delay  # seconds before each answer (benchmarks: a model answering in 1 s)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.released = threading.Event()
        self._lock = threading.Lock()
        self.server = QuietServer(("127.0.0.1", 0), self._handler())

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/v1"

    def _next(self, request: dict[str, Any]) -> Answer:
        if callable(self.script):
            return self.script(request)
        with self._lock:
            return self.script.pop(0) if self.script else (500, {"error": {"message": "script used up"}})

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        model = self

        class Handler(JSONHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                with model._lock:
                    model.requests.append(request)
                    model.headers.append(dict(self.headers))
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                answer = model._next(request)
                if answer is HANG or model.delay:
                    model.released.wait(None if answer is HANG else model.delay)
                if answer is HANG:
                    return
                if isinstance(answer, tuple):
                    self._send(*answer)
                    return
                if isinstance(answer, Redirect):
                    self.send_response(307)
                    self.send_header("Location", answer.location)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if isinstance(answer, Drip):
                    self._drip(answer, completion(answer.text, request))
                    return
                self._send(200, completion(str(answer), request))

            def _drip(self, drip: Drip, body: dict[str, Any]) -> None:
                data = json.dumps(body, ensure_ascii=False).encode()
                head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {len(data)}\r\n\r\n").encode()
                self.close_connection = True
                try:
                    for byte in head + data:
                        if model.released.is_set():
                            return
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(drip.every)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up: its budget was spent

        return Handler


def completion(content: str, request: dict[str, Any]) -> dict[str, Any]:
    """A chat completion answer; usage counts characters, which is all a test needs."""
    prompt = sum(len(m.get("content") or "") for m in request.get("messages", []))
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": request.get("model", ""),
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": len(content), "total_tokens": prompt + len(content)},
    }


@contextmanager
def running_model(script: Script, *, delay: float = 0.0) -> Iterator[ScriptedModel]:
    model = ScriptedModel(script, delay=delay)
    thread = threading.Thread(target=model.server.serve_forever, daemon=True)
    thread.start()
    try:
        yield model
    finally:
        model.released.set()
        model.server.shutdown()
        model.server.server_close()
        thread.join()
