"""The town's own referee for command params, independent of the agent's validator.

The town plays the server: it checks a POSTed command against the choice it
offered, the way a strict server would, and says which field is wrong. It
deliberately shares no code with `karakuri_agent.params`, so a bug there
cannot hide itself here.

Rules (documented because they decide what counts as a violation):
- the choice's own `params` must be sent unchanged (several `action` choices
  are told apart by them);
- every required field (`required_params` plus a JSON Schema `required`) must
  be present and not null or "";
- a field the choice does not declare (neither in `param_schema` nor in its
  own `params`) is refused: the contract says params are the choice's params
  plus the schema's fields, nothing else;
- type, `enum`, `minimum` / `maximum`, `minLength` / `maxLength`,
  `minItems` / `maxItems`, `items` and nested `properties` / `required` are
  checked; string lengths count UTF-16 code units, as a JavaScript server does;
- an integer field accepts 3 and 3.0 (JSON has one number type), not "3" or true.
"""

from __future__ import annotations

import math
from typing import Any

Problem = tuple[str, str]  # (field path, what is wrong)


def fields_of(choice: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """(field specs, required names) from either schema shape."""
    schema = choice.get("param_schema") or {}
    if schema.get("type") == "object" and isinstance(schema.get("properties"), dict):
        fields = dict(schema["properties"])
        required = list(schema.get("required") or [])
    else:
        fields = {k: v for k, v in schema.items() if isinstance(v, dict)}
        required = []
    for name in choice.get("required_params") or []:
        if name not in required:
            required.append(name)
    return fields, required


def check_params(choice: dict[str, Any], params: Any) -> list[Problem]:
    """Every problem with `params` for `choice`; empty when the server would accept it."""
    if not isinstance(params, dict):
        return [("params", "must be an object")]
    problems: list[Problem] = []
    own = choice.get("params") or {}
    for name, value in own.items():
        if params.get(name) != value:
            problems.append((name, f"must be {value!r} for this choice"))
    fields, required = fields_of(choice)
    for name in required:
        if params.get(name) in (None, ""):
            problems.append((name, "is required"))
    for name, value in params.items():
        if name in fields:
            if value is None and name not in required:
                continue
            _check(value, fields[name], name, problems, 0)
        elif name not in own:
            problems.append((name, "is not a parameter of this command"))
    return problems


def utf16_length(text: str) -> int:
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def _type_ok(value: Any, expected: str) -> bool:
    if expected == "string":
        return isinstance(value, str)
    if expected == "boolean":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if expected == "integer":
        return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value) and value.is_integer())
    if expected == "number":
        return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))
    if expected == "array":
        return isinstance(value, list)
    if expected == "object":
        return isinstance(value, dict)
    return True  # an unknown type word constrains nothing


def _check(value: Any, spec: dict[str, Any], path: str, problems: list[Problem], depth: int) -> None:
    if depth > 8:
        problems.append((path, "is nested too deeply"))
        return
    expected = spec.get("type")
    if isinstance(expected, str) and not _type_ok(value, expected):
        problems.append((path, f"must be of type {expected}"))
        return
    enum = spec.get("enum")
    if isinstance(enum, list) and value not in enum:
        problems.append((path, f"must be one of {enum}"))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(spec.get("minimum"), (int, float)) and value < spec["minimum"]:
            problems.append((path, f"must be at least {spec['minimum']}"))
        if isinstance(spec.get("maximum"), (int, float)) and value > spec["maximum"]:
            problems.append((path, f"must be at most {spec['maximum']}"))
    if isinstance(value, str):
        size = utf16_length(value)
        if isinstance(spec.get("maxLength"), int) and size > spec["maxLength"]:
            problems.append((path, f"must be at most {spec['maxLength']} characters"))
        if isinstance(spec.get("minLength"), int) and size < spec["minLength"]:
            problems.append((path, f"must be at least {spec['minLength']} characters"))
    if isinstance(value, list):
        if isinstance(spec.get("maxItems"), int) and len(value) > spec["maxItems"]:
            problems.append((path, f"must have at most {spec['maxItems']} items"))
        if isinstance(spec.get("minItems"), int) and len(value) < spec["minItems"]:
            problems.append((path, f"must have at least {spec['minItems']} items"))
        if isinstance(spec.get("items"), dict):
            for i, item in enumerate(value):
                _check(item, spec["items"], f"{path}[{i}]", problems, depth + 1)
    if isinstance(value, dict) and isinstance(spec.get("properties"), dict):
        for name in spec.get("required") or []:
            if value.get(name) in (None, ""):
                problems.append((f"{path}.{name}", "is required"))
        for name, item in value.items():
            sub = spec["properties"].get(name)
            if isinstance(sub, dict):
                _check(item, sub, f"{path}.{name}", problems, depth + 1)
            elif spec.get("additionalProperties") is False:
                problems.append((f"{path}.{name}", "is not allowed"))
