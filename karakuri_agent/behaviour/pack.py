"""Reading `behaviour.json` into the records of spec.py, naming every problem at once.

The file is read with pydantic (unknown keys are errors), rule by rule, so a
problem names the file, the rule or variable id, the field and what is
expected. Every number is bounded (spec.py's limits; the problem names the
field and the range), and an id or a variable's name is one printable line
(it is printed by `rules` and `log`). The file itself is read by the one
reader of pack files (outside.read_json_file: bounded size and nesting, no
key twice, finite numbers). Then what the shape cannot say: duplicate ids, a
`disable` or `enable_rule` naming no rule, a path to an undefined variable,
an impossible time, a `say` phrase that breaks the pack's phrase rules (the
caller's check).
"""

from __future__ import annotations

import dataclasses
import functools
import unicodedata
from pathlib import Path
from typing import Annotated, Any, Callable, Iterable, Literal, Mapping, Optional, Sequence

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict, ValidationError, create_model

from karakuri_agent.behaviour import build
from karakuri_agent.behaviour.vocabulary import entry_problems
from karakuri_agent.behaviour.spec import (
    ANY,
    BANDS,
    BEHAVIOUR_FILE,
    CHANGES,
    CHOICE,
    COOLDOWN_MINUTES_LIMIT,
    COUNT,
    COUNT_LIMIT,
    DELTA,
    FACT_KINDS,
    FLAG,
    ID,
    KIND_OPERATORS,
    KIND_VALUES,
    MINUTES,
    NAMES,
    OBJECT,
    PAIR,
    PATH_SLOTS,
    PRIORITY,
    PRIORITY_LIMIT,
    RECORD,
    RECORDS,
    TEXT,
    TEXTS,
    VALUE,
    VALUE_LIMIT,
    Behaviour,
    Condition,
    Reaction,
    Rule,
    Variable,
    form_of,
)
from karakuri_agent.patterns import lazy

_CLOCK = lazy(r"^([01]\d|2[0-3]):[0-5]\d$")
_SLOT = lazy(r"\{([^{}]*)\}")


def _range(low: float, high: float, *, above: bool = False, whole: bool = False) -> Callable[[Any], Any]:
    """A check that a number lies in [low, high] ((low, high] when `above`), saying the range when not."""
    def check(value: Any) -> Any:
        if not ((low < value) if above else (low <= value)) or not value <= high:
            noun = "a whole number" if whole else "a number"
            raise ValueError(f"expected {noun} from {_g(low)}{' (exclusive)' if above else ''} to {_g(high)},"
                             f" got {_g(value)}")
        return value
    return check


def _g(value: float) -> str:
    """A number as the author would write it: 1000000000, 0.5, 1e+15 (an integer of 400 digits: said so)."""
    if isinstance(value, int):
        text = str(value)
        return text if len(text) <= 16 else f"an integer of {len(text.lstrip('-'))} digits"
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:g}"


# The pack's numbers: JSON numbers (not a bool, not text: build.py uses the raw value as it is) in range.
Value = Annotated[float, Strict(), AfterValidator(_range(-VALUE_LIMIT, VALUE_LIMIT))]
Delta = Annotated[float, Strict(), AfterValidator(_range(0, 2 * VALUE_LIMIT, above=True))]
Minutes = Annotated[float, Strict(), AfterValidator(_range(0, COOLDOWN_MINUTES_LIMIT, above=True))]
Count = Annotated[int, Strict(), AfterValidator(_range(1, COUNT_LIMIT, whole=True))]
Priority = Annotated[int, Strict(), AfterValidator(_range(-PRIORITY_LIMIT, PRIORITY_LIMIT, whole=True))]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


# What each form of spec.py accepts in the file.
FORMS: dict[str, Any] = {
    TEXT: str, ID: Annotated[str, Field(min_length=1)], TEXTS: list[str], PAIR: tuple[str, str], FLAG: bool,
    ANY: Any, OBJECT: dict[str, Any], VALUE: Value, DELTA: Delta, MINUTES: Minutes, COUNT: Count,
    PRIORITY: Priority, BANDS: list[tuple[Value, Value, str]], NAMES: str | list[str],
}


@functools.cache
def model_of(record: type) -> type[BaseModel]:
    """The pydantic model of one record of spec.py, made from the forms its fields declare.

    A field the record cannot do without is required; a list of entries is
    empty when not given; any other is None when not given, so the checks
    below tell what the author wrote from what they left out.
    """
    declared: dict[str, Any] = {}
    for spec in dataclasses.fields(record):
        form = form_of(spec)
        if form is None:
            continue
        kind, key, of = form
        if kind == CHOICE:
            annotation: Any = Literal[of]
        elif kind == RECORD:
            annotation = model_of(of)
        elif kind == RECORDS:
            annotation = list[model_of(of)]  # type: ignore[misc]  # a model made at run time
        else:
            annotation = FORMS[kind]
        if spec.default is dataclasses.MISSING and spec.default_factory is dataclasses.MISSING:
            declared[key or spec.name] = (annotation, ...)
        elif kind in (RECORDS, BANDS):
            declared[key or spec.name] = (annotation, Field(default_factory=list))
        else:
            declared[key or spec.name] = (Optional[annotation], None)
    model: type[BaseModel] = create_model(f"{record.__name__}Model", __base__=_Strict, **declared)
    return model


_TOP = ("variables", "rules", "reactions", "disable")
# Per trigger: the fields it needs (and may have) beyond `type`.
_TRIGGER_NEEDS: dict[str, tuple[str, ...]] = {
    "notification": ("types",), "time": ("between",), "keyword": ("keywords",), "every": ("notifications",),
    "day_start": (), "variable_crossed": ("variable", "direction", "threshold"), "after_command": ("command",),
    "manual": (),
}
_ACTION_NEEDS: dict[str, tuple[str, ...]] = {
    "choose": ("command",), "avoid": ("commands",), "say": ("phrases",), "set": ("path", "value"),
    "add": ("path", "value"), "subtract": ("path", "value"), "toggle": ("path",), "enable_rule": ("rule",),
    "disable_rule": ("rule",), "directive": ("text",), "context": ("text",),
}
_ACTION_MAY: dict[str, tuple[str, ...]] = {"choose": ("params",), "directive": ("persistent", "duration")}


def read_behaviour(directory: Path, *, builtin_ids: Sequence[str] = (),
                   phrase_problem: Callable[[str], str | None] | None = None) -> tuple[Behaviour, list[str]]:
    """The pack's behaviour (empty without a file) and every problem, one line each."""
    path = directory / BEHAVIOUR_FILE
    if not path.exists():
        return Behaviour(), []
    from karakuri_agent.domain.limits import MAX_CONFIGURED_FILE_BYTES, MAX_PACK_NESTING
    from karakuri_agent.outside import UnreadableJson, read_json_file

    try:  # a regular file of bounded size and nesting only: not /dev/zero, not a FIFO, not 100 000 brackets
        data = read_json_file(path, MAX_CONFIGURED_FILE_BYTES, max_depth=MAX_PACK_NESTING)
    except FileNotFoundError:
        return Behaviour(), []
    except UnreadableJson as exc:
        return Behaviour(), [str(exc)]
    return parse_behaviour(data, str(path), builtin_ids=builtin_ids, phrase_problem=phrase_problem)


def parse_behaviour(data: Any, source: str = BEHAVIOUR_FILE, *, builtin_ids: Sequence[str] = (),
                    phrase_problem: Callable[[str], str | None] | None = None) -> tuple[Behaviour, list[str]]:
    """`data` (a decoded behaviour.json) as a Behaviour, and every problem with it."""
    if not isinstance(data, dict):
        return Behaviour(), [f"{source}: expected a JSON object {{...}} at the top"]
    problems: list[str] = [f"{source}: {key}: unknown key, expected one of {', '.join(_TOP)}"
                           for key in data if key not in _TOP]
    variables = _variables(data.get("variables", {}), source, problems)
    rules = [r for r in (_rule(raw, i, source, problems) for i, raw in enumerate(_list(data, "rules", source, problems)))
             if r is not None]
    reactions = [r for r in (_reaction(raw, i, source, problems)
                             for i, raw in enumerate(_list(data, "reactions", source, problems))) if r is not None]
    raw_ids = [r.get("id") for r in _list(data, "rules", [], []) if isinstance(r, dict)]
    problems += [f"{source}: rules[{_shown(rid)}].id: duplicate id (rule ids are unique, built-in ones included)"
                 for i, rid in enumerate(raw_ids) if isinstance(rid, str) and (rid in raw_ids[:i] or rid in builtin_ids)]
    disable = _list(data, "disable", source, problems)
    if not all(isinstance(d, str) for d in disable):
        problems.append(f"{source}: disable: expected a list of rule ids [\"...\", ...]")
        disable = []
    behaviour = Behaviour(variables=variables, rules=tuple(rules), reactions=tuple(reactions),
                          disable=tuple(disable), source=source)
    problems += _meaning_problems(behaviour, source, builtin_ids, phrase_problem)
    return behaviour, problems


def _list(data: Mapping[str, Any], key: str, source: Any, problems: list[str]) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        problems.append(f"{source}: {key}: expected a list [...]")
        return []
    return value


def _errors(exc: ValidationError, where: str) -> list[str]:
    lines = []
    for error in exc.errors():
        field = ".".join(str(p) for p in error["loc"]) or "(whole entry)"
        if error["type"] == "extra_forbidden":
            what = "unknown key"
        elif error["type"] == "literal_error":
            what = f"got {error['input']!r}, {str(error['msg']).replace('Input should be', 'expected')}"
        else:
            what = str(error["msg"]).replace("Input should be", "expected").removeprefix("Value error, ")
        lines.append(f"{where}.{field}: {what}")
    return lines


def _variables(raw: Any, source: str, problems: list[str]) -> dict[str, Variable]:
    if not isinstance(raw, dict):
        problems.append(f"{source}: variables: expected an object {{\"name\": {{...}}}}")
        return {}
    out: dict[str, Variable] = {}
    for name, spec in raw.items():
        where = f"{source}: variables.{_shown(name)}"
        if "." in name or "{" in name or not name or not _printable(name):
            problems.append(f"{where}: a variable's name may not be empty or hold '.', braces, a line break"
                            " or a control character")
            continue
        try:
            model: Any = model_of(Variable).model_validate(spec)
        except ValidationError as exc:
            problems += _errors(exc, where)
            continue
        if model.min is not None and model.max is not None and model.min > model.max:
            problems.append(f"{where}.min: {model.min:g} is above max {model.max:g}")
        if model.type == "flag" and (model.min is not None or model.max is not None or model.bands):
            problems.append(f"{where}: a flag has no min, max or bands")
        for index, (low, high, _label) in enumerate(model.bands):
            if low >= high:
                problems.append(f"{where}.bands[{index}]: expected low below high, got [{low:g}, {high:g}]")
        initial_problem = _initial_problem(model)
        if initial_problem:
            problems.append(f"{where}.initial: {initial_problem}")
            continue
        if isinstance(model.initial, (int, float)) and not isinstance(model.initial, bool) and (
                model.min is not None and model.initial < model.min or model.max is not None and model.initial > model.max):
            # The engine would clamp it silently on the first notification: the author meant something else.
            problems.append(f"{where}.initial: {model.initial:g} is outside min {_bound(model.min)} to max"
                            f" {_bound(model.max)}")
        out[name] = build.variable(name, spec)
    _renames_problems(out, source, problems)
    return out


def _renames_problems(variables: dict[str, Variable], source: str, problems: list[str]) -> None:
    """An older name in `renamed_from` is no variable of the pack now, a plain name, and claimed by one variable."""
    claimed: dict[str, str] = {}
    for name, spec in variables.items():
        for old in spec.renamed_from:
            where = f"{source}: variables.{_shown(name)}.renamed_from"
            if not old or "." in old or "{" in old or not _printable(old):
                problems.append(f"{where}: {_shown(old)} is not a variable's name")
            elif old in variables:
                problems.append(f"{where}: {_shown(old)} is a variable of the pack now; it cannot be an old name")
            elif old in claimed:
                problems.append(f"{where}: {_shown(old)} is already renamed to {_shown(claimed[old])}")
            else:
                claimed[old] = name


def _bound(value: float | str | None) -> str:
    return "none" if value is None else value if isinstance(value, str) else f"{value:g}"


def _initial_problem(model: Any) -> str | None:
    """A number variable starts at a number within the limits, a flag at true or false."""
    value = model.initial
    if value is None:
        return None
    if model.type == "flag":
        return None if isinstance(value, bool) else f"expected true or false, got {_shown(value)}"
    if not _number_value(value):
        return f"expected a number, got {_shown(value)}"
    return _out_of_range(value)


def _out_of_range(value: float) -> str | None:
    """Why a number a pack gives for a variable is outside the variables' limits (None: it is not)."""
    if -VALUE_LIMIT <= value <= VALUE_LIMIT:
        return None
    return f"expected a number from {_g(-VALUE_LIMIT)} to {_g(VALUE_LIMIT)}, got {_g(value)}"


def _printable(name: str) -> bool:
    """One line of visible text: no line break, no control or format character (an id is printed as is)."""
    return not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") for ch in name)


def _shown(value: Any) -> str:
    """A value from the pack as a problem quotes it: escaped, so it cannot break the line it is on."""
    text = value if isinstance(value, str) else repr(value)
    return text if _printable(text) else ascii(text)[1:-1]


def _validated(model: type[BaseModel], raw: Any, where: str, problems: list[str]) -> Any:
    """The entry as its model, or None with every shape problem added."""
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems += _errors(exc, where)
        return None


def _entry_id(raw: Any, index: int) -> str:
    return _shown(raw["id"]) if isinstance(raw, dict) and isinstance(raw.get("id"), str) else f"#{index}"


def _id_problem(raw: Any, where: str) -> list[str]:
    rid = raw.get("id") if isinstance(raw, dict) else None
    if isinstance(rid, str) and not _printable(rid):
        return [f"{where}.id: an id may not hold a line break or a control character"]
    return []


def _rule(raw: Any, index: int, source: str, problems: list[str]) -> Rule | None:
    where = f"{source}: rules[{_entry_id(raw, index)}]"
    problems += _id_problem(raw, where)
    model = _validated(model_of(Rule), raw, where, problems)
    if model is None:
        return None
    problems += _trigger_problems(model.when, where)
    problems += _action_problems(model.then, where)
    if model.cooldown is not None and (model.cooldown.notifications is None) == (model.cooldown.minutes is None):
        problems.append(f"{where}.cooldown: expected exactly one of notifications or minutes")
    return build.record(Rule, raw)


def _reaction(raw: Any, index: int, source: str, problems: list[str]) -> Any:
    where = f"{source}: reactions[{_entry_id(raw, index)}]"
    problems += _id_problem(raw, where)
    model = _validated(model_of(Reaction), raw, where, problems)
    if model is None:
        return None
    problems += _action_problems(model.then, where)
    if any(a.type == "choose" for a in model.then):
        problems.append(f"{where}.then: a reaction comes after the command: choose belongs in a rule")
    return build.record(Reaction, raw)


def _trigger_problems(when: Any, where: str) -> list[str]:
    needs = _TRIGGER_NEEDS[when.type]
    given = {k for k, v in when if v is not None and k != "type"}
    out = [f"{where}.when.{k}: required for a {when.type} trigger" for k in needs if k not in given]
    out += [f"{where}.when.{k}: not a field of a {when.type} trigger (it takes {', '.join(needs) or 'nothing more'})"
            for k in sorted(given - set(needs))]
    if when.between is not None:
        out += [f"{where}.when.between: {t!r} is not a time, expected HH:MM from 00:00 to 23:59"
                for t in when.between if not _CLOCK.match(t)]
    return out


def _action_problems(actions: Iterable[Any], where: str) -> list[str]:
    out: list[str] = []
    choose = 0
    for index, action in enumerate(actions):
        at = f"{where}.then[{index}]"
        needs, may = _ACTION_NEEDS[action.type], _ACTION_MAY.get(action.type, ())
        given = {k for k, v in action if v is not None and k != "type"}
        if action.type in ("set", "add", "subtract") and "value" not in action.model_fields_set:
            given.discard("value")
        out += [f"{at}.{k}: required for {action.type}" for k in needs if k not in given]
        out += [f"{at}.{k}: not a field of {action.type} (it takes {', '.join(needs + may)})"
                for k in sorted(given - set(needs) - set(may))]
        if action.type in ("add", "subtract") and not _number_value(action.value) and "value" in given:
            out.append(f"{at}.value: expected a number, got {_shown(action.value)}")
        elif action.type in CHANGES and _number_value(action.value) and _out_of_range(action.value):
            out.append(f"{at}.value: {_out_of_range(action.value)}")
        choose += action.type == "choose"
    if choose > 1:
        out.append(f"{where}.then: more than one choose (a rule chooses at most one command)")
    return out


def _number_value(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _meaning_problems(b: Behaviour, source: str, builtin_ids: Sequence[str],
                      phrase_problem: Callable[[str], str | None] | None) -> list[str]:
    out: list[str] = []
    seen = {rule.id for rule in b.rules}
    reaction_ids = [r.id for r in b.reactions]
    out += [f"{source}: reactions[{_shown(rid)}].id: duplicate id" for i, rid in enumerate(reaction_ids)
            if rid in reaction_ids[:i]]
    known = set(builtin_ids) | seen
    out += [f"{source}: disable: {rid!r} names no rule (see `karakuri-agent rules`)"
            for rid in b.disable if rid not in known]
    for kind, entries in (("rules", b.rules), ("reactions", b.reactions)):
        for entry in entries:
            where = f"{source}: {kind}[{_shown(entry.id)}]"
            for index, cond in enumerate(entry.conditions):
                if (cond.fact is None) == (cond.variable is None):
                    out.append(f"{where}.conditions[{index}]: expected exactly one of fact or variable")
                elif cond.variable is not None and not _defined(b, cond.variable):
                    out.append(f"{where}.conditions[{index}].variable: {cond.variable!r} is no defined variable")
                elif problem := _never_holds(b, cond):
                    out.append(f"{where}.conditions[{index}].{problem}")
                elif _number_value(cond.value) and _out_of_range(cond.value):
                    out.append(f"{where}.conditions[{index}].value: {_out_of_range(cond.value)}")
            for index, action in enumerate(entry.then):
                at = f"{where}.then[{index}]"
                if action.type in CHANGES and action.path and not _defined(b, action.path):
                    out.append(f"{at}.path: {action.path!r} is no defined variable (see variables)")
                if action.type == "toggle" and action.path and _defined(b, action.path) and \
                        b.variables[action.path.split(".")[0]].kind != "flag":
                    out.append(f"{at}.path: toggle needs a flag, {action.path!r} is a number")
                if action.type in ("enable_rule", "disable_rule") and action.rule and action.rule not in known:
                    out.append(f"{at}.rule: {action.rule!r} names no rule")
                if action.type == "say" and phrase_problem is not None:
                    for n, phrase in enumerate(action.phrases):
                        problem = phrase_problem(phrase)
                        if problem:
                            out.append(f"{at}.phrases[{n}]: {problem}")
            if isinstance(entry, Rule):
                when = entry.when
                if when.type == "variable_crossed" and when.variable and not _defined(b, when.variable):
                    out.append(f"{where}.when.variable: {when.variable!r} is no defined variable")
            out += entry_problems(entry, where)  # the world's commands, events, types and bounds
    return out


def kind_of(b: Behaviour, cond: Condition) -> str:
    """What a condition looks at: a fact's kind (spec.FACT_KINDS), or a defined variable's (number or flag)."""
    if cond.fact is not None:
        return FACT_KINDS[cond.fact]
    return b.variables[(cond.variable or "").split(".")[0]].kind


def _never_holds(b: Behaviour, cond: Condition) -> str | None:
    """Why a condition can never hold, as `field: why` (None: it can): an operator its kind does not take,
    or a value of another kind (`money gt "100"`, `place gt 3`, a flag `eq 1`)."""
    kind = kind_of(b, cond)
    named = cond.fact if cond.fact is not None else f"variable {cond.variable}"
    if cond.operator not in KIND_OPERATORS[kind]:
        return (f"operator: {named} is {KIND_VALUES[kind]}: it takes {', '.join(KIND_OPERATORS[kind])},"
                f" not {cond.operator}")
    value = cond.value
    fits = {"label": isinstance(value, str), "names": isinstance(value, str), "number": _number_value(value),
            "clock": isinstance(value, str) and bool(_CLOCK.match(value)), "flag": isinstance(value, bool)}[kind]
    if not fits:
        return f"value: {named} is compared with {KIND_VALUES[kind]}, got {_shown(value)}"
    low: float | str | None
    high: float | str | None
    if kind == "clock":
        low, high = "00:00", "23:59"
    elif cond.variable is not None and kind == "number":
        spec = b.variables[cond.variable.split(".")[0]]
        low, high = spec.minimum, spec.maximum  # the engine clamps the variable to these
    else:
        return None
    op = cond.operator
    if (high is not None and (op == "gt" and value >= high or op in ("gte", "eq") and value > high)) or \
            (low is not None and (op == "lt" and value <= low or op in ("lte", "eq") and value < low)):
        return (f"value: {named} runs from {_bound(low)} to {_bound(high)}, so {op} {_shown(value)} never holds")
    return None


def _defined(b: Behaviour, path: str) -> bool:
    """A path names a variable: `energy`, or `affection.NAME` / `affection.{partner}` for one per person."""
    name, _, key = path.partition(".")
    spec = b.variables.get(name)
    if spec is None:
        return False
    if not spec.per_person:
        return key == ""
    slot = _SLOT.fullmatch(key)
    return bool(key) and (slot is None or slot.group(1) in PATH_SLOTS)
