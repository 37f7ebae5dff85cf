"""Text, JSON and files from outside (the server, Discord, the command line, configured paths), read safely.

JSON may spell a lone surrogate (`"\\ud800"`): Python reads it into a str
that no UTF-8 file, database, terminal or webhook can take, so a run would
crash far from where the text came in. Everything read from outside passes
through here once, and a lone surrogate becomes U+FFFD. A file a setting
names is read only if it is a regular file of a bounded size.

JSON is read and written strictly (RFC 8259): Python's `NaN` and `Infinity`,
a number past the float range (`1e400`, read as infinity) and an integer of
hundreds of digits are refused where they come in, so no value that cannot
be written back, compared or formatted travels further; everything written
(a request body, every `--json`) is strict JSON too. A pack file is also
bounded in nesting and may not repeat a key (`read_json_file`).
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any, NoReturn

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def clean_text(text: str) -> str:
    """`text` with every lone surrogate replaced (a real pair never reaches a str as two halves)."""
    return _LONE_SURROGATE.sub(REPLACEMENT, text) if _LONE_SURROGATE.search(text) else text


def clean(value: Any) -> Any:
    """A JSON value with its strings (keys too) cleaned; iterative, so any depth is fine."""
    if isinstance(value, str):
        return clean_text(value)
    if not isinstance(value, (dict, list)):
        return value
    root: list[Any] = [value]
    stack: list[tuple[Any, Any, Any]] = [(root, 0, value)]
    while stack:
        parent, key, item = stack.pop()
        if isinstance(item, str):
            parent[key] = clean_text(item)
        elif isinstance(item, list):
            copy = list(item)
            parent[key] = copy
            stack.extend((copy, i, v) for i, v in enumerate(copy))
        elif isinstance(item, dict):
            copy_d = {clean_text(k) if isinstance(k, str) else k: v for k, v in item.items()}
            parent[key] = copy_d
            stack.extend((copy_d, k, v) for k, v in copy_d.items())
    return root[0]


# Past this many digits an integer is no number a person or the world means (and Python
# refuses to read one of 4300); below it, every JSON integer is within the float range.
MAX_INTEGER_DIGITS = 300
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|-?(?:Infinity|NaN)|-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?')
_NESTING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class NotFiniteNumber(ValueError):
    """A JSON number that is not a finite number of sane size: `NaN`, `Infinity`, `1e400`, 400 digits."""


class DuplicateKey(ValueError):
    """An object that names one key twice: JSON keeps the last silently, a pack file may not."""

    def __init__(self, key: str) -> None:
        super().__init__(f"duplicate key {key!r} (each key once per object)")
        self.key = key
        self.msg = str(self)


def _refuse_constant(token: str) -> NoReturn:
    raise NotFiniteNumber(token)


def _finite_float(token: str) -> float:
    number = float(token)
    if not math.isfinite(number):
        raise NotFiniteNumber(token)
    return number


def _sane_int(token: str) -> int:
    if len(token) > MAX_INTEGER_DIGITS + 1:
        raise NotFiniteNumber(token)
    return int(token)


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


def strict_decoder(*, unique_keys: bool = False) -> json.JSONDecoder:
    """A decoder that raises NotFiniteNumber for a number JSON should not carry (and DuplicateKey if asked)."""
    return json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_sane_int,
                            object_pairs_hook=_unique if unique_keys else None)


def number_problem(token: str) -> str:
    """What is wrong with a refused number, in words."""
    if token.lstrip("-") in ("NaN", "Infinity"):
        return f"{token} is not a JSON number (numbers must be finite)"
    if "." in token or "e" in token or "E" in token:
        return f"{token[:24]} is beyond the range of numbers (numbers must be finite)"
    return f"an integer of {len(token.lstrip('-'))} digits is too long (at most {MAX_INTEGER_DIGITS})"


def loads(text: str, *, max_depth: int | None = None, unique_keys: bool = False) -> Any:
    """Strict `json.loads`: JSONDecodeError (with where) for bad JSON and for a number JSON should not carry.

    `max_depth` bounds the nesting of arrays and objects (a file of 100 000
    brackets is one clear error naming where, never a RecursionError);
    `unique_keys` raises DuplicateKey for a repeated key. Lone surrogates
    spelled as escapes are cleaned (only then is the value walked).
    """
    try:
        value = strict_decoder(unique_keys=unique_keys).decode(text)
    except NotFiniteNumber as exc:
        token, at = _first_refused(text, str(exc))
        raise json.JSONDecodeError(number_problem(token), text, at) from None
    except RecursionError:
        raise _too_deep(text, max_depth) from None
    if max_depth is not None and _deeper_than(value, max_depth):
        raise _too_deep(text, max_depth)
    if "\\u" in text and re.search(r"\\u[dD][89a-fA-F]", text):
        return clean(value)
    return value


# How deep a JSON value from a door (a command line's params, a listener's line) may nest: a message or
# a command's params is an object of a few levels, never thousands.
DOOR_DEPTH = 32


class NotOneObject(ValueError):
    """Text from a door that is not exactly one JSON object; the message says why, on one line."""


def json_object(text: str) -> dict[str, Any]:
    """Exactly one JSON object from outside: the one reader of every door (`karakuri command`'s params,
    `listen --stdin`'s lines). Whatever the text holds (bad JSON, NaN, an integer of 5000 digits, 100 000
    brackets), it is this object or NotOneObject, never another exception."""
    try:
        value = loads(text, max_depth=DOOR_DEPTH)
    except json.JSONDecodeError as exc:
        raise NotOneObject(f"not JSON ({exc.msg} at position {exc.pos})") from None
    except (ValueError, RecursionError) as exc:  # anything else the decoder refuses: still one line
        raise NotOneObject(f"not JSON ({type(exc).__name__})") from None
    if not isinstance(value, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), "a number")
        raise NotOneObject(f"a JSON object is expected, not {kind}")
    return value


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether a decoded value nests arrays and objects more than `limit` levels (walked without recursion)."""
    level: list[Any] = [value] if isinstance(value, (dict, list)) else []
    for _ in range(limit):  # level by level, keeping only the containers: no recursion, no scalar looked at twice
        level = [child for item in level for child in (item.values() if isinstance(item, dict) else item)
                 if isinstance(child, (dict, list))]
        if not level:
            return False
    return True


def _too_deep(text: str, limit: int | None) -> json.JSONDecodeError:
    """The error for a text nested too deeply, at the first bracket past `limit` (strings do not count)."""
    if limit is None:
        return json.JSONDecodeError("nested too deeply", text, 0)
    depth = 0
    for match in _NESTING.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > limit:
                return json.JSONDecodeError(f"nested deeper than {limit} levels", text, match.start())
        elif token in ("]", "}"):
            depth -= 1
    return json.JSONDecodeError(f"nested deeper than {limit} levels", text, 0)


def _first_refused(text: str, refused: str) -> tuple[str, int]:
    """The first number outside strings the strict decoder refuses, and where it is."""
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token[0] == '"':
            continue
        try:
            if token.lstrip("-") in ("NaN", "Infinity"):
                _refuse_constant(token)
            (_finite_float if "." in token or "e" in token or "E" in token else _sane_int)(token)
        except NotFiniteNumber:
            return token, match.start()
    return refused, 0


def dumps(value: Any, *, indent: int | None = None) -> str:
    """Strict JSON text, Japanese kept: ValueError for a value JSON cannot carry (NaN, Infinity).

    What the program sends (a command's body) and prints (every `--json`)
    is written by this one function, so it is JSON any reader takes.
    """
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=indent)


def dumps_shown(value: Any, *, indent: int | None = None) -> str:
    """JSON to print: strict; a number that is not finite (only a state from an older version can hold
    one) is printed as null rather than as bare `NaN` no JSON reader takes."""
    try:
        return dumps(value, indent=indent)
    except ValueError:
        return dumps(_finite_only(value), indent=indent)


def _finite_only(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite_only(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite_only(v) for v in value]
    return value


def read_regular_file(path: Path, limit: int) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes, else OSError saying why.

    A configured path may name anything: `/dev/zero` (endless), a FIFO
    (blocks for ever), a directory, a huge file. The file is opened without
    blocking and checked before a byte is read; at most `limit` + 1 bytes are.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if info.st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit // 1000} kB", str(path))
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            data = handle.read(limit + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit // 1000} kB", str(path))
    return data.decode("utf-8")


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISREG, "a regular file"))


def file_kind(path: Path) -> str | None:
    """What is at `path` ("a directory", "a FIFO (named pipe)", ...), so a message says what it is; None: nothing."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


class UnreadableJson(ValueError):
    """A JSON file that cannot be used; the message is one line naming the file and what is wrong."""


def read_json_file(path: Path, limit: int, *, max_depth: int) -> Any:
    """The strict JSON of a file a setting names (a pack's persona.json, behaviour.json): the one reader.

    A regular file of at most `limit` bytes, nested at most `max_depth`
    levels, no key twice in one object, finite numbers only. Raises
    FileNotFoundError when there is no file, else UnreadableJson saying why.
    """
    try:
        return loads(read_regular_file(path, limit), max_depth=max_depth, unique_keys=True)
    except FileNotFoundError:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        raise UnreadableJson(f"{path}: cannot be read ({' '.join(str(exc).split())})") from None
    except json.JSONDecodeError as exc:
        raise UnreadableJson(f"{path}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except DuplicateKey as exc:
        raise UnreadableJson(f"{path}: {exc}") from None
