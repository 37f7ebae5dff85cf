"""The JSON Schema of one proposal for this notification, for servers that decode to a schema.

Built from the offered choices alone: one alternative (`anyOf`) per choice,
each naming its command (an enum of one) and the params that choice takes:
its `param_schema` fields, its own fixed params as constants (so an
`action` choice is picked by its `action_id`), the required ones required,
nothing else allowed. A server that enforces the schema while decoding
(llama.cpp's server, vLLM, Ollama, OpenAI) can then only produce an offered
command with params of the right shape, which even a very small model
manages. It is a help, not a trust: the gate checks the answer as it checks
any other (lengths in UTF-16 units, lines said before, the agent's own
limits), and only the keywords every grammar converter knows are copied.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from karakuri_agent.domain.notification import Choice

NAME = "karakuri_proposal"
# The reason is a note for the log (proposal.REASON_LIMIT keeps 120 characters); asking for
# fewer keeps the answer, and so the time spent generating it, short.
REASON_CHARS = 80
_KEYWORDS = ("type", "enum", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems")
_DEPTH = 4


def proposal_schema(choices: Sequence[Choice], *, variables: Sequence[str] = ()) -> dict[str, Any]:
    """One object: `command`, `params` and `reason`, as one of the offered choices allows.

    The root says `"type": "object"` as well, since some servers (OpenAI)
    want a root object before they look at the alternatives. `variables`
    are the character pack's own (behaviour.json): with any, an optional
    `state` of changes to them is allowed too (a number to add, or a flag),
    which the engine clamps like any other change.
    """
    state = _state(variables) if variables else None
    return {"type": "object", "anyOf": [_alternative(choice, state) for choice in choices]}


def _alternative(choice: Choice, state: dict[str, Any] | None) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "command": {"type": "string", "enum": [choice.command]},
        "params": _params(choice),
        "reason": {"type": "string", "maxLength": REASON_CHARS},
    }
    if state is not None:
        properties["state"] = state
    return {"type": "object", "properties": properties, "required": ["command", "params", "reason"],
            "additionalProperties": False}


def _state(variables: Sequence[str]) -> dict[str, Any]:
    """Changes to the pack's variables by name: a number (added) or a flag (set)."""
    change = {"type": ["number", "boolean"]}
    return {"type": "object", "properties": {name: change for name in variables}, "additionalProperties": False}


def _params(choice: Choice) -> dict[str, Any]:
    properties: dict[str, Any] = {name: _field(spec) for name, spec in choice.param_schema.items()}
    for name in choice.required_params:
        properties.setdefault(name, {"type": "string", "minLength": 1})
    for name, value in choice.params.items():
        properties[name] = {"enum": [value]}  # the choice's own value; the gate merges it in anyway
    required = [name for name in dict.fromkeys([*choice.required_params, *choice.params]) if name in properties]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _field(spec: Mapping[str, Any], depth: int = 0) -> dict[str, Any]:
    """A field spec cut to what grammar converters know; a required text is never empty."""
    kept: dict[str, Any] = {key: spec[key] for key in _KEYWORDS if key in spec}
    if not isinstance(kept.get("type"), (str, list)):
        kept.pop("type", None)
    if not (isinstance(kept.get("enum"), list) and kept["enum"]):
        kept.pop("enum", None)
    if kept.get("type") == "string" and "enum" not in kept:
        kept.setdefault("minLength", 1)
    if depth < _DEPTH and isinstance(spec.get("items"), Mapping):
        kept["items"] = _field(spec["items"], depth + 1)
    if depth < _DEPTH and isinstance(spec.get("properties"), Mapping):
        kept["properties"] = {name: _field(sub, depth + 1) for name, sub in spec["properties"].items()
                              if isinstance(sub, Mapping)}
        if isinstance(spec.get("required"), list):
            kept["required"] = [name for name in spec["required"] if name in kept["properties"]]
    return kept
