"""Reading what the model answered into one `Proposal`, forgivingly.

Models wrap JSON in code fences, put a sentence before or after it, think
aloud in `<think>` blocks, or offer a list of options. All of that is read
through; only an answer with no usable object is an error, and its problem
is one short line that can be shown to the model when it is asked again.
A number JSON cannot carry (`NaN`, `Infinity`, `1e400`) is such an error
too: it is read with the strict decoder every door uses (outside.py).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from karakuri_agent.outside import NotFiniteNumber, number_problem, strict_decoder

# A reason is a note for the log, not an essay.
REASON_LIMIT = 120
# Bounds the work spent on a long, brace-heavy answer that holds no JSON.
_MAX_TEXT = 20_000
_MAX_STARTS = 50
_THINKING = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[A-Za-z]*[ \t]*\n?(.*?)```", re.DOTALL)
_STARTS = re.compile(r"[{\[]")


class UnreadableProposal(ValueError):
    """The answer holds no proposal; `problem` says why in one line."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class Proposal(BaseModel):
    """One command the model proposes, the params to send with it, and why."""

    model_config = ConfigDict(extra="ignore")

    command: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)
    reason: str = ""
    # Changes to the agent's own variables (behaviour.json), `{"energy": -10}`: clamped by the engine.
    state: dict[str, Any] = Field(default_factory=dict)

    @field_validator("command", mode="before")
    @classmethod
    def _trimmed(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @field_validator("params", "state", mode="before")
    @classmethod
    def _none_is_empty(cls, value: Any) -> Any:
        return {} if value is None else value

    @field_validator("reason", mode="before")
    @classmethod
    def _one_short_line(cls, value: Any) -> str:
        """Printed by `log` and `--explain`: no line breaks, no terminal control codes."""
        text = " ".join(("" if value is None else str(value)).split())
        return "".join(ch for ch in text if not unicodedata.category(ch).startswith("C"))[:REASON_LIMIT]


def read_proposal(text: str | None) -> Proposal:
    """The first proposal in the answer, or UnreadableProposal."""
    body = _THINKING.sub("", (text or "")[:_MAX_TEXT])
    value = None
    for candidate in [*(m.group(1) for m in _FENCE.finditer(body)), body]:
        value = _first_json(candidate)
        if value is not None:
            break
    if value is None:
        raise UnreadableProposal("the answer holds no JSON object")
    try:
        return Proposal.model_validate(value)
    except ValidationError as exc:
        problems = [f"{'.'.join(map(str, e['loc'])) or 'proposal'}: {e['msg']}" for e in exc.errors()[:3]]
        raise UnreadableProposal("; ".join(problems)) from None


def _first_json(text: str) -> dict[str, Any] | None:
    """The first object that decodes, starting at any `{` or `[`; of a list, its first item."""
    decoder = strict_decoder()
    for count, match in enumerate(_STARTS.finditer(text)):
        if count >= _MAX_STARTS:
            break
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except NotFiniteNumber as exc:  # an object was there, with a number no request can carry
            raise UnreadableProposal(f"{number_problem(str(exc))}: use finite numbers") from None
        except (ValueError, RecursionError):
            continue
        if isinstance(value, list) and value:
            value = value[0]
        if isinstance(value, dict):
            return value
    return None
