"""A loopback OpenAI-compatible model for tests and benchmarks: scripted answers.

One more fake of the one loopback server (`testing/loopback.py`). Serves `POST /v1/chat/completions` on 127.0.0.1 from a script, one entry a
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
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Union

from testing import loopback
from testing.loopback import Loopback, Request

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


Reply = Union[str, tuple[int, dict[str, Any]], Drip, Redirect, object]
Script = Union[list[Reply], Callable[[dict[str, Any]], Reply]]


class ScriptedModel(Loopback):
    """The model as one more fake of the loopback server (`testing/loopback.py`)."""

    prefix = "/v1"

    def __init__(self, script: Script, *, delay: float = 0.0) -> None:
        super().__init__()
        self.replies = script if callable(script) else list(script)
        self.delay = delay  # seconds before each answer (benchmarks: a model answering in 1 s)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every request body the client sent, in order."""
        return [r.body for r in self.log]

    @property
    def headers(self) -> list[dict[str, str]]:
        return [r.headers for r in self.log]

    def _reply(self, request: dict[str, Any]) -> Reply:
        if callable(self.replies):
            return self.replies(request)
        with self._lock:
            queue = self.replies
            return queue.pop(0) if queue else (500, {"error": {"message": "script used up"}})

    def answer(self, request: Request) -> loopback.Answer:
        if request.path.rstrip("/") != "/v1/chat/completions":
            return loopback.status(404, {"error": {"message": f"no route {request.path}"}})
        reply = self._reply(request.body or {})
        if reply is HANG:
            return loopback.hang()
        if isinstance(reply, tuple):
            answer = loopback.status(*reply)
        elif isinstance(reply, Redirect):
            answer = loopback.raw(307, "", "text/plain", {"Location": reply.location})
        elif isinstance(reply, Drip):
            body = json.dumps(completion(reply.text, request.body or {}), ensure_ascii=False).encode()
            answer = loopback.drip(body, reply.every, head_too=True)
        else:
            answer = loopback.status(200, completion(str(reply), request.body or {}))
        return loopback.delay(self.delay, answer) if self.delay else answer


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
    model.start()
    try:
        yield model
    finally:
        model.stop()
