"""One notification's read-decide-write at a time for an agent, across processes and machines.

What a notification reads from the state (the pack's variables, fire counts
and cooldowns, what was said, what is held) is what its decision is made
from, and what it writes back after its command is computed from that read.
Two runs of the same agent deciding at once would each write back a state
computed without the other's change: a `max_fires: 1` rule fired twice, a
counter that two notifications each raised by one ending at one. So a run
takes the agent's turn before it reads and gives it back after its last
write; a second run waits for it (a model deciding may hold it for its whole
answer time), and then reads what the first one wrote.

The lock is the operating system's or the database's, never a row: a run
that is killed gives its turn back with its process (SQLite: an exclusive
`flock` on a file beside the database) or its connection (PostgreSQL: a
session advisory lock keyed by the agent). A turn not given back within
`TURN_WAIT_SECONDS` (a run stuck far past the longest a run may take) is
`StateBusy`: nothing is sent, and the notification is handled by the next
run as usual.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from karakuri_agent.errors import StateBusy, StateUnavailable

# Longer than a whole run may take (about 67 s, twice that when redirected to a newer notification, plus
# a model's budget): a run waits this long for another run of the same agent to finish.
TURN_WAIT_SECONDS = 180.0
POLL_SECONDS = 0.02
LOCK_FILENAME = "karakuri.turn.lock"


def waiting(try_take: Callable[[], bool], what: str, wait: float = TURN_WAIT_SECONDS) -> None:
    """Call `try_take` until it takes the turn, or raise StateBusy after `wait` seconds."""
    deadline = time.monotonic() + wait
    while not try_take():
        if time.monotonic() >= deadline:
            raise StateBusy(f"another run of this agent held its turn ({what}) for more than {wait:.0f} s",
                            "turn held")
        time.sleep(POLL_SECONDS)


@contextmanager
def file_turn(state_dir: Path, wait: float = TURN_WAIT_SECONDS) -> Iterator[None]:
    """The agent's turn as an exclusive lock on a file in its state directory (released with the process)."""
    import fcntl

    path = state_dir / LOCK_FILENAME
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise StateUnavailable(f"cannot open {path} to take the agent's turn: {exc.strerror}") from None

    def try_take() -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    try:
        waiting(try_take, path.name, wait)
        yield
    finally:
        os.close(fd)  # closing the descriptor gives the lock back
