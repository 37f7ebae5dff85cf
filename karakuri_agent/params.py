"""Merging and validating a command's params against the choice's `param_schema`.

Pure functions, the schema part of the gate (gate.py): params that fail
here are never sent. String lengths are counted in UTF-16 code units, as the
server (JavaScript) counts them. Only the
safe coercions are made ("3" for an integer field, 3.0 for an integer);
everything else is reported, field by field, in one line.

Whatever the schema says (or does not say about a field), params must be
JSON a request can carry: a number that is not finite (NaN, Infinity) or a
value that is no JSON at all is refused here, before the ledger claims the
notification, never found out when the request is built.
"""

from __future__ import annotations

import math
import re
from typing import Any, TypeGuard

from karakuri_agent.domain.limits import utf16_units
from karakuri_agent.errors import UsageError
from karakuri_agent.domain.notification import Choice

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}
MAX_DEPTH = 8


class InvalidParams(UsageError):
    """Params that break the schema; `problems` lists each one."""

    code = "invalid_params"

    def __init__(self, command: str, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"params for {command} do not fit its schema: " + "; ".join(problems))


def merge(choice: Choice, proposed: dict[str, Any]) -> dict[str, Any]:
    """The choice's own params first, the proposed values merged over them."""
    return {**choice.params, **proposed}


def validate(choice: Choice, params: dict[str, Any]) -> dict[str, Any]:
    """Return the params with safe coercions applied, or raise InvalidParams."""
    problems: list[str] = []
    if "notification_id" in params:
        problems.append("notification_id never goes inside params")
    for name in choice.required_params:
        if params.get(name) in (None, ""):
            problems.append(f"{name} is required")
    unsent = unsendable(params)
    if unsent:  # no schema check can make these sendable: say only this
        raise InvalidParams(choice.command, problems + unsent)
    schema = choice.param_schema
    result: dict[str, Any] = {}
    for name, value in params.items():
        spec = schema.get(name)
        if spec is None:
            if schema and name not in choice.params and name not in choice.required_params:
                problems.append(f"{name} is not a parameter of {choice.command}")
            result[name] = value
            continue
        if value is None and name not in choice.required_params:
            continue  # an optional field left empty is simply not sent
        result[name] = check_value(value, spec, name, problems)
    if problems:
        raise InvalidParams(choice.command, problems)
    return result


def check_value(value: Any, spec: dict[str, Any], path: str, problems: list[str], depth: int = 0) -> Any:
    """Check one value against one field spec; append problems, return the coerced value."""
    if depth > MAX_DEPTH:
        problems.append(f"{path} is nested too deeply")
        return value
    expected = spec.get("type")
    if isinstance(expected, str) and expected in _TYPES:
        value = _coerce(value, expected)
        if not _is_type(value, expected):
            problems.append(f"{path} must be {expected}")
            return value
    enum = spec.get("enum")
    if isinstance(enum, list) and enum and value not in enum:
        problems.append(f"{path} must be one of {enum[:10]}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        _check_bounds(value, spec, path, problems)
    if isinstance(value, str):
        _check_length(utf16_units(value), spec, "Length", path, problems)
    if isinstance(value, list):
        _check_length(len(value), spec, "Items", path, problems)
        items = spec.get("items")
        if isinstance(items, dict):
            value = [check_value(v, items, f"{path}[{i}]", problems, depth + 1) for i, v in enumerate(value)]
    if isinstance(value, dict) and isinstance(spec.get("properties"), dict):
        value = _check_object(value, spec, path, problems, depth)
    return value


def _check_object(value: dict[str, Any], spec: dict[str, Any], path: str, problems: list[str],
                  depth: int) -> dict[str, Any]:
    properties = spec["properties"]
    required: list[Any] = spec["required"] if isinstance(spec.get("required"), list) else []
    for name in required:
        if value.get(name) in (None, ""):
            problems.append(f"{path}.{name} is required")
    checked = {}
    for name, item in value.items():
        sub = properties.get(name)
        checked[name] = check_value(item, sub, f"{path}.{name}", problems, depth + 1) if isinstance(sub, dict) else item
    return checked


def unsendable(params: dict[str, Any]) -> list[str]:
    """What in `params` no strict JSON can carry (NaN, Infinity, a key that is not text, a non-JSON value).

    Walked without recursion, so params of any depth get an answer.
    """
    problems: list[str] = []
    stack: list[tuple[str, Any]] = [("", params)]
    while stack and len(problems) < 5:
        path, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            problems.append(f"{path} must be a finite number (JSON has no NaN or Infinity)")
        elif isinstance(value, dict):
            for key, item in value.items():
                name = f"{path}.{key}" if path else str(key)
                if not isinstance(key, str):
                    problems.append(f"{name}: a key must be text")
                stack.append((name, item))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", item) for i, item in enumerate(value))
        elif value is not None and not isinstance(value, (str, int, float, bool)):
            problems.append(f"{path} is not a JSON value ({type(value).__name__})")
    return sorted(problems)


_INTEGER_TEXT = re.compile(r"-?[0-9]{1,300}")


def _coerce(value: Any, expected: str) -> Any:
    """Only the unambiguous cases: numeric text for numbers, integral floats for integers."""
    if expected == "integer":
        # ASCII digits only ("²" and "٣" are digits to str.isdigit, not to int), one sign, a sane length.
        if isinstance(value, str) and _INTEGER_TEXT.fullmatch(value.strip()):
            return int(value.strip())
        if isinstance(value, float) and value.is_integer():
            return int(value)
    if expected == "number" and isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return value
        return number if math.isfinite(number) else value
    return value


def _is_type(value: Any, expected: str) -> bool:
    if isinstance(value, bool) and expected in ("integer", "number"):
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return isinstance(value, _TYPES[expected])


def _check_bounds(value: float, spec: dict[str, Any], path: str, problems: list[str]) -> None:
    low, high = spec.get("minimum"), spec.get("maximum")
    if _is_number(low) and value < low:
        problems.append(f"{path} must be at least {low}")
    if _is_number(high) and value > high:
        problems.append(f"{path} must be at most {high}")


def _check_length(size: int, spec: dict[str, Any], kind: str, path: str, problems: list[str]) -> None:
    low, high = spec.get(f"min{kind}"), spec.get(f"max{kind}")
    noun = "characters (UTF-16 units)" if kind == "Length" else "items"
    if _is_number(low) and size < low:
        problems.append(f"{path} must have at least {low} {noun}")
    if _is_number(high) and size > high:
        problems.append(f"{path} must have at most {high} {noun}")


def _is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
