"""Persona packs: who the agent is, how it talks, and the knobs of its rules.

A pack is a directory holding ``persona.json``. Only ``name`` is required:
every field a pack leaves out comes from the neutral defaults
(``persona_defaults.json``, which name no character), tables merge key by key
and a phrase set given replaces the default one. ``KARAKURI_PERSONA_DIR``
selects a pack for every program; without it the bundled pack
(``skill/personas/nike``) is used.

Checking is one function, ``problems``, shared by ``karakuri-agent persona
check`` and by every program at start, so both say the same thing about a
broken pack. The bundled pack is not re-checked at run time (the test suite
checks it): loading it never imports pydantic.
"""

from __future__ import annotations

import functools
import json
import string
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from karakuri_agent.domain.limits import MESSAGE_UNITS, utf16_units
from karakuri_agent.mind.persona import Fact, Habit, Persona, Pool, Rules, Tastes
from karakuri_agent.ja import phrases
from karakuri_agent.shipped import shipped
from karakuri_agent.voice import pack_check

__all__ = [
    "PACK_FILE",
    "PERSONA_DIR_ENV",
    "PLACEHOLDERS",
    "BrokenPack",
    "Fact",
    "Persona",
    "Rules",
    "bundled_pack_dir",
    "iter_templates",
    "load_configured",
    "load_persona",
    "problems",
    "shipped",
]

PACK_FILE = "persona.json"
PERSONA_DIR_ENV = "KARAKURI_PERSONA_DIR"
PLACEHOLDERS = ("partner", "place", "topic", "time", "first_person")
# What a template is filled with when its length is checked: as long as speech
# ever makes a partner's name (honorific included) and a place, time or topic.
LONGEST_NAME = 16
LONGEST_LABEL = 20

_DEFAULTS_FILE = Path(__file__).with_name("persona_defaults.json")
# The neutral lines in a casual register, laid over the polite ones for a pack that speaks casually.
_CASUAL_FILE = Path(__file__).with_name("persona_defaults_casual.json")
REGISTERS = ("polite", "casual")
# The top-level fields whose lists are phrase sets (tables of them: greetings, reactions, answers, small_talk).
_PHRASE_FIELDS = ("greetings", "accept", "conversation_start", "promise_accept", "farewells", "reactions",
                  "small_talk", "tails", "answers")


class BrokenPack(ValueError):
    """A pack that cannot be used; ``lines`` are the problems, one per line."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        more = f" (and {len(lines) - 1} more problem(s): run `karakuri-agent persona check`)" if len(lines) > 1 else ""
        super().__init__(lines[0] + more)


def iter_templates(persona: Persona) -> Iterator[tuple[str, str]]:
    """Every template with a dotted path, so a pack can be checked as a whole."""
    for kind, pool in persona.greetings.items():
        yield from _labelled(f"greetings.{kind}", pool)
    yield from _labelled("accept", persona.accept)
    for section, table in persona.small_talk.items():
        for key, pool in table.items():
            yield from _labelled(f"small_talk.{section}.{key}", pool)
    for kind, pool in persona.reactions.items():
        yield from _labelled(f"reactions.{kind}", pool)
    yield from _labelled("farewells", persona.farewells)
    yield from _labelled("conversation_start", persona.conversation_start)
    yield from _labelled("promise_accept", persona.promise_accept)
    yield from _labelled("tails", persona.tails)
    for kind, pool in persona.answers.items():
        yield from _labelled(f"answers.{kind}", pool)
    for key, fact in persona.facts.items():
        for part in ("reasons", "details", "recent", "more"):
            yield from _labelled(f"facts.{key}.{part}", getattr(fact, part))
    for i, habit in enumerate(persona.tastes.habits):
        yield from _labelled(f"tastes.habits[{i}].say", habit.say)
    for topic, pool in persona.about_me.items():
        yield from _labelled(f"about_me.{topic}", pool)
    for frame, pool in persona.plans_ahead.items():
        yield from _labelled(f"plans_ahead.{frame}", pool)


def iter_spoken_values(persona: Persona) -> Iterator[tuple[str, str]]:
    """Every value of the pack a line may say whole (names, tastes, likes, topics, the words of its facts and
    habits), with a dotted path: held to the rules a phrase is held to. Keys are labels matched against the
    world's words, never said."""
    yield from (("name", persona.name), ("short_name", persona.short_name),
                ("first_person", persona.first_person), ("honorific", persona.honorific))
    for label, pool in (("likes", persona.likes), ("topics", persona.topics),
                        ("favourite_places", persona.favourite_places), ("tastes.likes", persona.tastes.likes),
                        ("tastes.dislikes", persona.tastes.dislikes), ("tastes.pastimes", persona.tastes.pastimes)):
        yield from _labelled(label, pool)
    for kind, thing in persona.tastes.favourites.items():
        yield f"tastes.favourites.{kind}", thing
    for i, habit in enumerate(persona.tastes.habits):
        yield from _labelled(f"tastes.habits[{i}].words", habit.words)
    for key, fact in persona.facts.items():
        yield from _labelled(f"facts.{key}.words", fact.words)


def _labelled(label: str, pool: Pool) -> Iterator[tuple[str, str]]:
    return ((f"{label}[{i}]", t) for i, t in enumerate(pool))


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------


def bundled_pack_dir() -> Path:
    """The pack used when KARAKURI_PERSONA_DIR is not set."""
    return shipped("skill", "personas", "nike")


def load_persona(directory: Path | str | None = None, *, checked_in: Path | None = None) -> Persona:
    """The pack in ``directory``, checked; else the bundled one (cached).

    A configured pack is read as it is now, so editing it takes effect on the
    next run. Raises BrokenPack naming every problem. With ``checked_in`` (the
    state directory), a pack whose content passed the check before is not
    checked again (voice/pack_check.py says why that is sound).
    """
    if directory is None:
        return _load_bundled()
    directory = Path(directory).expanduser()
    texts = _pack_texts(directory) if checked_in is not None else None
    if texts is not None and checked_in is not None and pack_check.passed(checked_in, texts.key):
        return _from_texts(texts, directory)
    found = problems(directory)
    if found:
        raise BrokenPack(found)
    if texts is not None and checked_in is not None and _pack_texts(directory) == texts:
        pack_check.remember(checked_in, texts.key)  # what was checked is what was hashed: unchanged meanwhile
        return _from_texts(texts, directory)
    data = _read_pack_json(directory / PACK_FILE)
    return _with_behaviour(_build(_merged(_defaults_for(data), data)), directory)


def _pack_texts(directory: Path) -> pack_check.PackTexts | None:
    from karakuri_agent.behaviour.spec import BEHAVIOUR_FILE

    return pack_check.read_texts(directory, PACK_FILE, BEHAVIOUR_FILE)


def _from_texts(texts: pack_check.PackTexts, directory: Path) -> Persona:
    """The persona built from a checked pack's texts as read (not read again)."""
    from dataclasses import replace

    from karakuri_agent.behaviour.build import build_behaviour
    from karakuri_agent.behaviour.spec import BEHAVIOUR_FILE
    from karakuri_agent.domain.limits import MAX_PACK_NESTING
    from karakuri_agent.outside import loads

    data = loads(texts.persona, max_depth=MAX_PACK_NESTING, unique_keys=True)
    persona = _build(_merged(_defaults_for(data), data))
    if texts.behaviour is None:
        return persona
    behaviour = loads(texts.behaviour, max_depth=MAX_PACK_NESTING, unique_keys=True)
    return replace(persona, behaviour=build_behaviour(behaviour, str(directory / BEHAVIOUR_FILE)))


def _read_pack_json(path: Path) -> Any:
    """A pack's file through the one reader of pack files (outside.read_json_file): a regular file of
    bounded size and nesting (not /dev/zero, not a FIFO), no key twice, finite numbers, its text cleaned.
    Raises FileNotFoundError or UnreadableJson (one line naming the file)."""
    from karakuri_agent.domain.limits import MAX_CONFIGURED_FILE_BYTES, MAX_PACK_NESTING
    from karakuri_agent.outside import read_json_file

    return read_json_file(path, MAX_CONFIGURED_FILE_BYTES, max_depth=MAX_PACK_NESTING)


def load_configured(directory: Path | None, *, checked_in: Path | None = None) -> Persona:
    """The pack KARAKURI_PERSONA_DIR names (None: the bundled one), for a program starting.

    A broken pack stops the program before anything is read or sent, with
    the first line `karakuri-agent persona check` prints for it (exit 2).
    """
    from karakuri_agent.errors import ConfigError

    try:
        return load_persona(directory, checked_in=checked_in)
    except BrokenPack as exc:
        raise ConfigError(f"{PERSONA_DIR_ENV}: {exc}") from None


@functools.lru_cache(maxsize=1)
def _load_bundled() -> Persona:
    data = _read_json(bundled_pack_dir() / PACK_FILE)
    return _with_behaviour(_build(_merged(_defaults_for(data), data)), bundled_pack_dir())


def _with_behaviour(persona: Persona, directory: Path) -> Persona:
    """The persona with its pack's behaviour.json (already checked), read without pydantic."""
    from dataclasses import replace

    from karakuri_agent.behaviour.build import build_behaviour
    from karakuri_agent.behaviour.spec import BEHAVIOUR_FILE

    path = directory / BEHAVIOUR_FILE
    if not path.exists():
        return persona
    return replace(persona, behaviour=build_behaviour(_read_pack_json(path), str(path)))


@functools.lru_cache(maxsize=1)
def _defaults() -> dict[str, Any]:
    return _read_json(_DEFAULTS_FILE)


@functools.lru_cache(maxsize=1)
def _casual_defaults() -> dict[str, Any]:
    return _merged(_defaults(), _read_json(_CASUAL_FILE))


def _defaults_for(data: Mapping[str, Any]) -> dict[str, Any]:
    """The neutral lines in the pack's own register: what it leaves unset never switches its voice."""
    return _casual_defaults() if register_of(data) == "casual" else _defaults()


def _pack_phrases(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, list):
        for item in data:
            yield from _pack_phrases(item)
    elif isinstance(data, dict):
        for key, value in data.items():
            if key not in ("place_aliases", "topic_aliases"):
                yield from _pack_phrases(value)


def register_of(data: Mapping[str, Any]) -> str:
    """'polite' or 'casual': the pack's `register`, else how most of its own phrases end
    (です/ます or not); a pack with no phrases of its own is polite, as the defaults are."""
    given = data.get("register")
    if given in REGISTERS:
        return str(given)
    ends = [phrases.is_polite(line) for field in _PHRASE_FIELDS for line in _pack_phrases(data.get(field))
            if len(line.strip()) > 2]
    return "casual" if ends and sum(ends) * 2 < len(ends) else "polite"


def unset_phrase_sets(directory: Path) -> tuple[str, list[str]]:
    """The pack's register and the phrase sets it leaves to the neutral defaults (dotted names)."""
    data = _read_pack_json(directory / PACK_FILE)
    data = data if isinstance(data, dict) else {}
    unset: list[str] = []

    def walk(defaults: Mapping[str, Any], given: Any, prefix: str) -> None:
        for key, value in defaults.items():
            name = f"{prefix}{key}"
            mine = given.get(key) if isinstance(given, dict) else None
            if isinstance(value, dict):
                walk(value, mine, name + ".")
            elif isinstance(value, list) and not mine:
                unset.append(name)

    walk({k: v for k, v in _casual_defaults().items() if k in _PHRASE_FIELDS}, data, "")
    return register_of(data), unset


def _read_json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _merged(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Tables merge key by key; anything else the pack gives replaces the default. A `null` the pack
    gives is a field left unset (the schema lets every optional field be null): the default stays."""
    out = dict(base)
    for key, value in over.items():
        if value is None:
            continue
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merged(out[key], value)
        else:
            out[key] = value
    return out


def _pools(table: Mapping[str, list[str]]) -> Mapping[str, Pool]:
    return MappingProxyType({k: tuple(v) for k, v in table.items()})


def _build(data: Mapping[str, Any]) -> Persona:
    """A Persona from merged, already checked data."""
    small = data["small_talk"]
    facts = {
        key: Fact(words=tuple(entry["words"]), likes=entry.get("likes"),
                  **{part: tuple(entry.get(part) or ()) for part in ("reasons", "details", "recent", "more")})
        for key, entry in data.get("facts", {}).items()
    }
    # A like with no fact of its own still answers "…好き？" with a yes.
    named = {word for fact in facts.values() for word in fact.words} | set(facts)
    facts.update({like: Fact(words=(like,), likes=True) for like in data.get("likes", ()) if like not in named})
    return Persona(
        name=data["name"],
        short_name=data.get("short_name") or data["name"],
        first_person=data["first_person"],
        tone=data.get("tone", ""),
        greetings=_pools(data["greetings"]),
        accept=tuple(data["accept"]),
        small_talk=MappingProxyType({
            "by_place": _pools(small["by_place"]),
            "by_topic": _pools(small.get("by_topic", {})),
        }),
        reactions=_pools(data["reactions"]),
        farewells=tuple(data["farewells"]),
        conversation_start=tuple(data["conversation_start"]),
        promise_accept=tuple(data["promise_accept"]),
        place_aliases=MappingProxyType(dict(small.get("place_aliases", {}))),
        topic_aliases=MappingProxyType(dict(small.get("topic_aliases", {}))),
        tails=tuple(data["tails"]),
        answers=_pools(data["answers"]),
        facts=MappingProxyType(facts),
        favourite_places=tuple(data.get("favourite_places", ())),
        tastes=_tastes(data.get("tastes") or {}),
        about_me=_pools(data.get("about_me") or {}),
        plans_ahead=_pools(data.get("plans_ahead") or {}),
        honorific=data.get("honorific", phrases.DEFAULT_HONORIFIC),
        likes=tuple(data.get("likes", ())),
        topics=tuple(data.get("topics", ())),
        rules=Rules(**{k: v for k, v in data.get("rules", {}).items() if v is not None}),
    )


def _tastes(data: Mapping[str, Any]) -> Tastes:
    return Tastes(
        favourites=MappingProxyType(dict(data.get("favourites") or {})),
        likes=tuple(data.get("likes") or ()), dislikes=tuple(data.get("dislikes") or ()),
        pastimes=tuple(data.get("pastimes") or ()), time_of_day=data.get("time_of_day") or "",
        habits=tuple(Habit(words=tuple(h["words"]), does=bool(h["does"]), say=tuple(h.get("say") or ()))
                     for h in data.get("habits") or ()),
    )


# ---------------------------------------------------------------------------
# Checking
# ---------------------------------------------------------------------------


def problems(directory: Path) -> list[str]:
    """Every problem of the pack in ``directory``, one line each naming the
    file, the field and what is expected; [] when the pack is usable."""
    path = directory / PACK_FILE
    if not directory.is_dir():
        return [f"{directory}: not a directory (a persona pack is a directory holding {PACK_FILE})"]
    from karakuri_agent.outside import UnreadableJson

    try:
        data = _read_pack_json(path)
    except FileNotFoundError:
        return [f"{path}: missing (create it with `karakuri-agent persona init {directory} --name NAME`)"]
    except UnreadableJson as exc:
        return [str(exc)]
    if not isinstance(data, dict):
        return [f"{path}: expected a JSON object {{...}} at the top"]
    shape, bad_fields = _shape_problems(data)
    # The rest of the pack is checked too (without the fields already found wrong),
    # so one run lists every problem rather than one kind per round.
    usable = {key: value for key, value in data.items() if key not in bad_fields}
    try:
        persona = _build(_merged(_defaults_for(usable), usable))
    except Exception:  # what is left cannot be built: its shape problems say why
        return [f"{path}: {line}" for line in shape]
    return [f"{path}: {line}" for line in (*shape, *_alias_problems(persona), *_template_problems(persona))] + \
        _behaviour_problems(directory, persona)


def _behaviour_problems(directory: Path, persona: Persona) -> list[str]:
    """behaviour.json beside persona.json: every problem, its `say` phrases held to the phrase rules."""
    from karakuri_agent.behaviour.builtin import BUILTIN_RULE_IDS
    from karakuri_agent.behaviour.pack import read_behaviour
    from karakuri_agent.behaviour.spec import BEHAVIOUR_FILE

    if not (directory / BEHAVIOUR_FILE).exists():
        return []
    _, found = read_behaviour(directory, builtin_ids=BUILTIN_RULE_IDS,
                              phrase_problem=lambda phrase: phrase_problem(persona, phrase))
    return found


def _shape_problems(data: dict[str, Any]) -> tuple[list[str], set[str]]:
    """One line per field of the wrong shape, and the top-level fields they are in."""
    from pydantic import ValidationError

    from karakuri_agent.voice.persona_schema import PersonaFile

    try:
        PersonaFile.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        return ([f"{_where(error['loc'])}: {_expected(error)}" for error in errors],
                {str(error["loc"][0]) for error in errors if error["loc"]})
    return [], set()


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


_EXPECTED = {
    "extra_forbidden": "unknown field (see the list of fields in the pack's README.md)",
    "missing": "required, expected a text",
    "too_short": "expected at least one entry (an empty phrase set leaves nothing to say)",
    "string_too_short": "expected a non-empty text",
    "string_type": "expected a text in double quotes",
    "list_type": "expected a list [\"...\", ...]",
    "dict_type": "expected an object {...}",
    "model_type": "expected an object {...}",
    "model_attributes_type": "expected an object {...}",
    "bool_type": "expected true or false",
    "int_type": "expected a whole number",
}


def _expected(error: Mapping[str, Any]) -> str:
    kind = str(error["type"])
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    return str(error["msg"]).replace("Input should be", "expected")


def _alias_problems(persona: Persona) -> Iterator[str]:
    for section, targets, table in (("place_aliases", "by_place", persona.place_aliases),
                                    ("topic_aliases", "by_topic", persona.topic_aliases)):
        for alias, target in table.items():
            if target not in persona.small_talk[targets]:
                yield f"small_talk.{section}.{alias}: points to {target!r}, expected a key of small_talk.{targets}"


def _not_plain(line: str) -> bool:
    """What the gate refuses and the speech would strip: the line differs once cleaned (whitespace aside)."""
    from karakuri_agent.ja.safety import clean_text  # the speech's own cleaning, so the check and the send agree

    return "".join(clean_text(line).split()) != "".join(line.split())


def _template_problems(persona: Persona) -> Iterator[str]:
    """Unknown placeholders, phrases a message cannot carry once filled, and values no line may say."""
    for where, template in iter_templates(persona):
        problem = phrase_problem(persona, template)
        if problem:
            yield f"{where}: {problem}"
    for where, value in iter_spoken_values(persona):
        problem = value_problem(value)
        if problem:
            yield f"{where}: {problem}"


def value_problem(value: str) -> str | None:
    """What keeps a value of the pack out of every line: a control character, or what the speech would cut
    (a link, a mention, chat markup, an id), which would leave a broken sentence; None if it may be said."""
    from karakuri_agent.ja.safety import BARE_IDS

    if any(unicodedata.category(ch) in ("Cc", "Cf") and ch != "\u200d" for ch in value):
        return "contains a control character (a line break, a tab, an invisible mark); write it on one line"
    if _not_plain(value) or BARE_IDS.search(value):
        return ("contains a link, a mention, chat markup or an id (https://…, @…, **…**), which would be cut out"
                " when said, leaving a broken sentence; write it in plain words")
    return None


def phrase_problem(persona: Persona, template: str) -> str | None:
    """What breaks the pack's phrase rules in one template (placeholders, length once filled); None if fine."""
    longest = {
        "partner": phrases.FILLER * (LONGEST_NAME - len(persona.honorific)) + persona.honorific,
        "place": phrases.FILLER * LONGEST_LABEL, "topic": phrases.FILLER * LONGEST_LABEL,
        "time": phrases.FILLER * LONGEST_LABEL,
        "first_person": persona.first_person,
    }
    expected = ", ".join(f"{{{p}}}" for p in PLACEHOLDERS)
    try:
        parsed = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(template) if f is not None]
    except ValueError as exc:
        return f"{exc} (write a literal brace as {{{{ or }}}})"
    bad = [f for f, spec, conv in parsed if f not in PLACEHOLDERS or spec or conv]
    if bad:
        return f"unknown placeholder {{{bad[0]}}}, expected only {expected}"
    filled = template.format_map({f: longest[f] for f, _, _ in parsed})
    if _not_plain(filled):
        return ("contains a mention, link or chat markup (@everyone, a URL, **…**), which would be"
                " cut out when said, leaving a broken line; write it in plain words")
    if utf16_units(filled) > MESSAGE_UNITS:
        return (f"{utf16_units(filled)} characters (UTF-16 units) with the longest names filled in,"
                f" expected at most {MESSAGE_UNITS}")
    return None
