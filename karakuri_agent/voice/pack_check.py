"""A configured pack's check, remembered: the full check runs once per content of the pack.

Every program checks the pack KARAKURI_PERSONA_DIR names before it acts, and
that check (persona.json's schema in pydantic, every phrase filled at its
longest, behaviour.json's rules) costs more than the rest of a one-shot
`handle`. Its verdict depends only on the bytes of the pack's two files and
on the code that checks them, so a pack whose files and checking code are the
same as when it last passed passes again.

The key is one SHA-256 over both files' bytes, the Python version and every
file of the installed package (its path, size and modification time: a new
install or an edited module changes it) and pydantic's version. Only a pass is kept,
as that key alone in one small file of the state directory (no text of the
pack). A pack is then built from the very text that was hashed, so an edit
made between the check and the build cannot slip through unchecked. A cache
that cannot be read or written costs only the time of the check.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

CHECKED_FILE = "pack-checked"
_PACKAGE = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class PackTexts:
    """The text of a pack's files, read once, and the key of that content with the checking code."""

    persona: str
    behaviour: str | None  # None: the pack has no behaviour.json
    key: str


def read_texts(directory: Path, pack_file: str, behaviour_file: str) -> PackTexts | None:
    """The pack's texts through the one bounded reader; None when one cannot be read as a file
    (the check then says why)."""
    from karakuri_agent.domain.limits import MAX_CONFIGURED_FILE_BYTES
    from karakuri_agent.outside import read_regular_file

    try:
        persona = read_regular_file(directory / pack_file, MAX_CONFIGURED_FILE_BYTES)
    except (OSError, UnicodeDecodeError):
        return None
    try:
        behaviour: str | None = read_regular_file(directory / behaviour_file, MAX_CONFIGURED_FILE_BYTES)
    except FileNotFoundError:
        behaviour = None
    except (OSError, UnicodeDecodeError):
        return None
    digest = hashlib.sha256(code_fingerprint().encode())
    for text in (persona, behaviour):
        data = b"-" if text is None else b"+" + text.encode()
        digest.update(len(data).to_bytes(8, "big") + data)
    return PackTexts(persona, behaviour, digest.hexdigest())


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """What the check's verdict depends on besides the pack: this Python, this package's files, pydantic's version."""
    parts = [sys.version]
    for folder, subfolders, files in os.walk(_PACKAGE):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        parts += [_stamp(os.path.join(folder, name)) for name in sorted(files) if name.endswith((".py", ".json"))]
    from importlib.util import find_spec

    spec = find_spec("pydantic")  # found, not imported: its version file names the pydantic_core it needs too
    if spec is not None and spec.origin:
        try:
            parts.append(Path(spec.origin).with_name("version.py").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            parts.append(_stamp(spec.origin))
    return "\n".join(parts)


def _stamp(path: str) -> str:
    info = os.stat(path)
    return f"{path}:{info.st_size}:{info.st_mtime_ns}"


def passed(cache_dir: Path, key: str) -> bool:
    """Whether the pack with this key passed the check last time (a cache that cannot be read: no)."""
    try:
        return (cache_dir / CHECKED_FILE).read_text(encoding="ascii").strip() == key
    except (OSError, UnicodeDecodeError):
        return False


def remember(cache_dir: Path, key: str) -> None:
    """Keep `key` as the pack that passed, replacing the file whole; only into a state directory that exists."""
    if not cache_dir.is_dir():
        return
    scratch = cache_dir / f".{CHECKED_FILE}.{os.getpid()}"
    try:
        fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0), 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(key + "\n")
        os.replace(scratch, cache_dir / CHECKED_FILE)
    except OSError:
        try:
            scratch.unlink()
        except OSError:
            pass
