"""Ctrl-C in a one-shot run: abandon what may be abandoned, finish what must be finished.

Reading, deciding and reporting may stop at once: nothing was claimed, so
the next run handles the notification as usual. The claim, the command and
its record may not: a command cut off there would leave its outcome unknown
and its record missing. A SIGINT in that step is noted (one line on stderr,
at once) and takes effect when the step is over; the command is never sent
twice either way. Without `handled()` installed (the resident loop, tests),
`must_finish()` only counts and changes nothing.
"""

from __future__ import annotations

import signal
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import Iterator

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it

FINISHING = ("interrupted: the command already on its way is finished and recorded first;"
             " it is never sent twice")
ABANDONED = "interrupted: stopped before anything was sent; the next run handles this notification as usual"


@dataclass
class Interruption:
    received: bool = False  # a SIGINT came while a step had to finish: exit 130 once the run is over


_shielded = 0
_current: Interruption | None = None


@contextmanager
def must_finish() -> Iterator[None]:
    """A step that a SIGINT must not cut short (the claim, the command, its record)."""
    global _shielded
    _shielded += 1
    try:
        yield
    finally:
        _shielded -= 1


def _on_sigint(signum: int, frame: FrameType | None) -> None:
    if _current is not None and _shielded:
        if not _current.received:
            print(f"{_program()}: {FINISHING}", file=sys.stderr, flush=True)
        _current.received = True
        return
    raise KeyboardInterrupt


def _program() -> str:
    import click

    context = click.get_current_context(silent=True)
    return (context.find_root().command.name if context else None) or "karakuri-agent"


@contextmanager
def handled() -> Iterator[Interruption]:
    """Install the one-shot run's SIGINT handling for the duration of the block."""
    global _current
    interruption = Interruption()
    previous = signal.signal(signal.SIGINT, _on_sigint)
    _current = interruption
    try:
        yield interruption
    finally:
        _current = None
        signal.signal(signal.SIGINT, previous)


EXIT_TERMINATED = 143  # 128 + SIGTERM


@contextmanager
def terminated_unwinds() -> Iterator[None]:
    """SIGTERM ends an offline run as Ctrl-C does: by unwinding, so its throwaway state directory is removed.

    Only for runs that send nothing real (town, demo, fixture runs): a real
    run's command in flight is finished by `handled()`'s rules instead.
    """
    def _on_sigterm(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(EXIT_TERMINATED)

    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
