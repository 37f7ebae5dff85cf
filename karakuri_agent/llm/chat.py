"""One bounded chat completion, shaped as much as the server takes, and a probe of the server.

Every request carries a bound on the answer (`max_tokens`), a temperature
and a `response_format`: the proposal's JSON Schema first. Servers differ in
what they take, and say so with a 400 that names the field; then the request
steps down once along the chain for that field and is sent again, within the
same budget:

- `response_format`: the JSON Schema → `{"type": "json_object"}` → none (plain
  text, read by the forgiving reader);
- `max_tokens` ↔ `max_completion_tokens` (OpenAI's reasoning models take only
  the newer name; some older servers only the older one);
- `temperature`: left out (a model with a fixed sampling).

The step is remembered per server (base URL and model) for the life of the
process, so a resident agent learns it once. A refusal that names none of
these, and every other error, is the caller's to handle: the rules decide.

Every request is bounded by the one deadline of the ask, whole: connecting,
writing, and every read of the answer. A per-read timeout is not a deadline
(a server that drips its answer a byte at a time resets it with every
byte), so each request runs in a worker the caller waits for only until the
deadline; past it the request is abandoned and its late answer never used.
Redirects are never followed: the prompt goes to `KARAKURI_LLM_BASE_URL`
and nowhere else, once.

The `openai` package is imported on the first request only (or by `ready()`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from karakuri_agent.llm.answer_schema import NAME
from karakuri_agent.llm.settings import LLMSettings

SCHEMA, OBJECT, TEXT = "json_schema", "json_object", "text"
FORMATS = (SCHEMA, OBJECT, TEXT)
TOKEN_FIELDS = ("max_tokens", "max_completion_tokens")
# The fields a refusal may name, each with the words a server uses for it.
_NAMES = {
    "response_format": ("response_format", "json_schema", "json_object", "structured output"),
    "max_completion_tokens": ("max_completion_tokens",),
    "max_tokens": ("max_tokens",),
    "temperature": ("temperature",),
}
_REFUSED = (400, 422)
PROBE_SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"],
                "additionalProperties": False}
PROBE_PROMPT = 'Answer with this JSON object only: {"ok": true}'
T = TypeVar("T")


class DeadlinePassed(TimeoutError):
    """The ask's deadline came while a request was still going: it was abandoned."""


@dataclass
class ServerShape:
    """What one server has been found to take; starts at the most, steps down on a refusal."""

    format: str = SCHEMA
    token_field: str = TOKEN_FIELDS[0]
    temperature: bool = True
    swapped_tokens: bool = False

    def step_down(self, field: str) -> bool:
        """Take back what the refusal named; False when there is nothing left to take back."""
        if field == "response_format" and self.format != TEXT:
            self.format = FORMATS[FORMATS.index(self.format) + 1]
            return True
        if field in TOKEN_FIELDS and field == self.token_field and not self.swapped_tokens:
            self.token_field = TOKEN_FIELDS[1 - TOKEN_FIELDS.index(field)]
            self.swapped_tokens = True
            return True
        if field == "temperature" and self.temperature:
            self.temperature = False
            return True
        return False


# (base URL, model) → what that server takes; for the life of the process.
_SHAPES: dict[tuple[str, str], ServerShape] = {}


def shape_for(settings: LLMSettings) -> ServerShape:
    return _SHAPES.setdefault((settings.base_url, settings.model), ServerShape())


def forget_servers() -> None:
    """Start learning anew (tests; a process that changes its server)."""
    _SHAPES.clear()


@dataclass
class Answer:
    """The model's text, what the server counted, and the format it was asked in."""

    text: str
    format: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class Chat:
    """Chat completions against one server, each bounded by a deadline on `clock`."""

    def __init__(self, settings: LLMSettings, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._settings = settings
        self._clock = clock
        self._client: Any = None

    def request(self, messages: list[dict[str, str]], schema: dict[str, Any], shape: ServerShape,
                max_tokens: int | None = None) -> dict[str, Any]:
        """The request's fields as `shape` allows: always a bound; a schema unless refused."""
        body: dict[str, Any] = {"model": self._settings.model, "messages": messages,
                                shape.token_field: max_tokens or self._settings.max_tokens}
        if shape.temperature:
            body["temperature"] = self._settings.temperature
        if shape.format == SCHEMA:
            body["response_format"] = {"type": SCHEMA, "json_schema": {"name": NAME, "schema": schema}}
        elif shape.format == OBJECT:
            body["response_format"] = {"type": OBJECT}
        return body

    def complete(self, messages: list[dict[str, str]], schema: dict[str, Any], *, deadline: float,
                 max_tokens: int | None = None) -> Answer:
        """One answer; a refused field is taken back and the request sent again while time is left.

        Raises what the client raised otherwise (TimeoutError when the
        budget is gone before the request could be sent again, DeadlinePassed
        when it ran out while a request was going).
        """
        shape = shape_for(self._settings)
        completions = self.ready()
        while True:
            remaining = deadline - self._clock()
            if remaining <= 0:
                raise TimeoutError("budget spent")
            body = self.request(messages, schema, shape, max_tokens)
            try:
                response = within(remaining, lambda: completions.create(**body, timeout=remaining))
            except Exception as exc:
                if getattr(exc, "status_code", None) in _REFUSED and shape.step_down(refused_field(exc)):
                    continue
                raise
            usage = response.usage
            text = (response.choices[0].message.content or "") if response.choices else ""
            return Answer(text, shape.format, (usage.prompt_tokens or 0) if usage else 0,
                          (usage.completion_tokens or 0) if usage else 0)

    def ready(self) -> Any:
        """The chat completions of the client, built (and `openai` imported) once.

        Seconds on a loaded machine: a caller may do it before its budget starts.
        """
        if self._client is None:
            from openai import DefaultHttpxClient, OpenAI

            key = self._settings.api_key.get() if self._settings.api_key else "not-needed"
            # Never a redirect: a 307 elsewhere would send the prompt (and the key's header) twice, or anywhere.
            self._client = OpenAI(base_url=self._settings.base_url, api_key=key, max_retries=0,
                                  http_client=DefaultHttpxClient(follow_redirects=False))
        return self._client.chat.completions  # its types are imported on first use


def within(seconds: float, call: Callable[[], T]) -> T:
    """`call()`'s result if it comes within `seconds`; DeadlinePassed otherwise, and its late result is dropped.

    The call runs in a daemon worker: the caller is never held past the
    deadline by a server that keeps a request alive, and a one-shot process
    exits without waiting for it. What the call raises is raised here.
    """
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, which decides
            outcome.append((False, exc))

    worker = threading.Thread(target=run, name="karakuri-model-request", daemon=True)
    worker.start()
    worker.join(max(seconds, 0.0))
    if worker.is_alive() or not outcome:
        raise DeadlinePassed("the model's deadline passed during the request")
    done, value = outcome[0]
    if not done:
        raise value
    result: T = value
    return result


def refused_field(exc: Exception) -> str:
    """The request field a 400 names: its `param` when the server gives one, else the first named in its text."""
    param = getattr(exc, "param", None)
    text = f"{param or ''} {getattr(exc, 'message', '')} {json.dumps(getattr(exc, 'body', None), default=str)}"
    found = [(text.find(word), field) for field, words in _NAMES.items() for word in words if word in text]
    return min(found)[1] if found else ""


def probe(settings: LLMSettings, *, clock: Callable[[], float] = time.monotonic) -> tuple[bool, float, str]:
    """Ask the model once with a tiny prompt: (answered, seconds taken, one secret-free line).

    For `doctor`: it uses the request a notification would (a bound, a
    schema unless the server refuses it), so it also tells which
    `response_format` the server takes. Never raises.
    """
    from importlib.util import find_spec

    from karakuri_agent.llm import LLM_EXTRA

    if find_spec("openai") is None:
        return False, 0.0, LLM_EXTRA
    chat = Chat(settings, clock=clock)
    try:
        chat.ready()
    except Exception as exc:  # noqa: BLE001 - a probe reports, it does not fail
        return False, 0.0, f"model {settings.model}: no client ({describe_failure(exc)})"
    started = clock()
    try:
        answer = chat.complete(
            [{"role": "user", "content": PROBE_PROMPT}], PROBE_SCHEMA, deadline=started + settings.timeout,
            max_tokens=16)
    except Exception as exc:  # noqa: BLE001 - a probe reports, it does not fail
        seconds = clock() - started
        return False, seconds, f"model {settings.model}: no answer ({describe_failure(exc)}) after {seconds:.1f} s"
    seconds = clock() - started
    return True, seconds, (f"model {settings.model}: answered in {seconds:.1f} s ({answer.format},"
                           f" {answer.prompt_tokens}+{answer.completion_tokens} tokens)")


def describe_failure(exc: Exception) -> str:
    """A short, secret-free name for a failure (the exception's text may quote a URL)."""
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return f"http {status}"
    name = type(exc).__name__
    return {"APITimeoutError": "timeout", "APIConnectionError": "unreachable", "DeadlinePassed": "timeout",
            "TimeoutError": "budget spent"}.get(name, name)
