"""Offline runs keep their state apart from the live agent's: `--state-dir` of demo, fixtures and town.

A fixture run acts as the recorded agent and a town life as the character in
the offline town: their people, places, promises and claims must never reach
the state a live agent reads (its log, its closeness, its promises). So an
offline run's directory carries a marker, written when the run first takes
it, and a run refuses:

- the live agent's own state directory (KARAKURI_STATE_DIR, else the
  platform's default), under whatever spelling of the path;
- a directory that holds a state no offline run made;
- for a town life, any directory that is not new or empty: a life starts on
  its first day. The marker is created exclusively (`O_EXCL`), so of two
  lives started at once into one new directory exactly one takes it.
"""

from __future__ import annotations

import os
from pathlib import Path

from karakuri_agent.errors import UsageError

MARKER = ".karakuri-offline"  # what made the state: "fixtures" or "town"


def _same(one: Path, other: Path) -> bool:
    try:
        return one.expanduser().resolve() == other.expanduser().resolve()
    except OSError:
        return False


def _not_live(state_dir: Path, live: Path | None) -> None:
    if live is not None and _same(state_dir, live):
        raise UsageError(f"--state-dir {state_dir} is the live agent's state (KARAKURI_STATE_DIR): an offline run"
                         " keeps its own; give another directory")


def _mark(state_dir: Path, made_by: str, *, exclusive: bool) -> None:
    flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if exclusive else 0)
    try:
        state_dir.parent.mkdir(parents=True, exist_ok=True)
        state_dir.mkdir(mode=0o700, exist_ok=True)  # private, as the state directory is made (state/sqlite/db.py)
        fd = os.open(state_dir / MARKER, flags, 0o600)
    except FileExistsError:
        raise UsageError(f"--state-dir {state_dir}: another run took it first; give a new or empty directory"
                         " (a town life always starts on its first day)") from None
    except OSError as exc:
        raise UsageError(f"--state-dir {state_dir}: cannot use it ({exc.strerror})") from None
    try:
        os.write(fd, made_by.encode())
    finally:
        os.close(fd)


def for_fixtures(state_dir: Path, live: Path | None) -> Path:
    """`state_dir` for a fixture run (demo, handle/listen --fixtures): new, or one an offline run made."""
    _not_live(state_dir, live)
    if state_dir.exists() and not state_dir.is_dir():
        raise UsageError(f"--state-dir {state_dir}: not a directory")
    used = state_dir.is_dir() and any(p.name != MARKER for p in state_dir.iterdir())
    if used and not (state_dir / MARKER).is_file():
        raise UsageError(f"--state-dir {state_dir} holds a state no offline run made (a live agent's?): a fixture"
                         " run never writes into it; give a new directory, or one an earlier demo or fixture run"
                         " kept")
    _mark(state_dir, "fixtures", exclusive=False)
    return state_dir


def for_town(state_dir: Path, live: Path | None) -> Path:
    """`state_dir` for one town life: new or empty, taken by this life alone."""
    _not_live(state_dir, live)
    if state_dir.exists() and not state_dir.is_dir():
        raise UsageError(f"--state-dir {state_dir}: not a directory")
    if state_dir.is_dir() and any(state_dir.iterdir()):
        raise UsageError(f"--state-dir {state_dir}: it already holds a state; give a new or empty directory"
                         " (a town life always starts on its first day)")
    _mark(state_dir, "town", exclusive=True)
    return state_dir


def live_state_dir(environ: dict[str, str]) -> Path:
    """Where the live agent keeps its state by this environment: KARAKURI_STATE_DIR, else the default."""
    from karakuri_agent.app.config import default_state_dir

    given = environ.get("KARAKURI_STATE_DIR", "").strip()
    return Path(given) if given else default_state_dir()
