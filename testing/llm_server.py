"""A loopback OpenAI-compatible model for tests and benchmarks: scripted answers.

Serves `POST /v1/chat/completions` on 127.0.0.1 from a script, one entry a
request, in order: a text (the model's answer), `(status, body)` for an
error, or `HANG` to hold the request open until the server stops (a model
past the budget, without any sleep in the test). Every request body and
header set is kept so tests can read what the client sent. Once the script
is used up every further request gets a 500. Instead of a list, the script
may be a function of the request body returning one of those answers (the
benchmarks' adversarial model, which answers what it is asked about).
"""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable, Iterator, Union

from testing.loopback import JSONHandler, QuietServer

HANG = object()
Answer = Union[str, tuple[int, dict[str, Any]], object]
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
                self._send(200, completion(str(answer), request))

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
