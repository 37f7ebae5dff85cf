"""A checked `behaviour.json` (pack.py) read into the records of spec.py, by the forms spec.py declares.

Kept apart from the checking so that loading a known-good pack (the bundled
one, or a user's whose check is remembered) costs no pydantic import at
start-up. A record's fields are read by the form each declares (`record`);
a variable's record is derived from the file's words (`variable`).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Mapping, TypeVar

from karakuri_agent.behaviour.spec import (
    FLAG,
    OBJECT,
    PAIR,
    PRIORITY,
    RECORD,
    RECORDS,
    TEXTS,
    Band,
    Behaviour,
    Reaction,
    Rule,
    Variable,
    form_of,
)

R = TypeVar("R")
# Forms whose empty value ([], {}) is no value: the field keeps its default.
_CONTAINERS = (RECORD, RECORDS, TEXTS, PAIR, OBJECT)


def build_behaviour(data: Mapping[str, Any], source: str = "") -> Behaviour:
    return Behaviour(
        variables={name: variable(name, spec) for name, spec in (data.get("variables") or {}).items()},
        rules=tuple(record(Rule, r) for r in data.get("rules") or ()),
        reactions=tuple(record(Reaction, r) for r in data.get("reactions") or ()),
        disable=tuple(data.get("disable") or ()),
        source=source,
    )


def record(cls: type[R], raw: Mapping[str, Any]) -> R:
    """One record of spec.py from its entry in the file: each field by its declared form, else its default."""
    values: dict[str, Any] = {}
    for spec in fields(cls):  # type: ignore[arg-type]  # the records are dataclasses
        form = form_of(spec)
        if form is None:
            continue
        kind, key, of = form
        value = raw.get(key or spec.name)
        if value is None or (kind in _CONTAINERS and not value):
            continue
        values[spec.name] = _read(kind, of, value)
    return cls(**values)


def _read(kind: str, of: Any, value: Any) -> Any:
    if kind == RECORD:
        return record(of, value)
    if kind == RECORDS:
        return tuple(record(of, entry) for entry in value)
    if kind == TEXTS:
        return tuple(value)
    if kind == PAIR:
        return str(value[0]), str(value[1])
    if kind == OBJECT:
        return dict(value)
    if kind == FLAG:
        return bool(value)
    if kind == PRIORITY:
        return int(value)
    return value


def variable(name: str, spec: Mapping[str, Any]) -> Variable:
    """A variable from the file's words: `"type": "flag"`, `"per": "person"`, an initial value within its bounds."""
    flag = spec.get("type") == "flag"
    low, high = spec.get("min"), spec.get("max")
    initial: Any = bool(spec.get("initial")) if flag else spec.get("initial") or 0
    if not flag:
        initial = max(low, initial) if low is not None else initial
        initial = min(high, initial) if high is not None else initial
    return Variable(name=name, kind="flag" if flag else "number", per_person=spec.get("per") == "person",
                    minimum=low, maximum=high, initial=initial, max_delta=spec.get("max_delta"),
                    bands=tuple(Band(lo, hi, str(label)) for lo, hi, label in spec.get("bands") or ()),
                    renamed_from=_names(spec.get("renamed_from")))


def _names(raw: Any) -> tuple[str, ...]:
    """`renamed_from`: one older name, or a list of them."""
    if isinstance(raw, str):
        return (raw,)
    return tuple(str(name) for name in raw or ())
