"""`listen --stdin`: the resident loop fed by JSON lines, one report line out per notification.

Each line is `{"content": "...", "author_id": "...", "channel_id": "...",
"id": "..."}` (only `content` is required). A line that is not such an
object is one log line and is skipped. End of input, SIGTERM or SIGINT: the
message in hand is finished, nothing new is started, and the loop returns.
"""

from __future__ import annotations

import logging
import signal
from contextlib import contextmanager
from types import FrameType
from typing import Callable, Iterator, TextIO

from karakuri_agent.app.listen.core import Listener, Message
from karakuri_agent.outside import loads

log = logging.getLogger(__name__)
_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class BadLine(ValueError):
    """A stdin line that is not one message."""


def parse_line(line: str) -> Message:
    """One JSON object with a string `content`; ids may be strings or integers (Discord snowflakes)."""
    try:
        value = loads(line)
    except ValueError as exc:
        raise BadLine(f"not JSON ({exc.msg} at position {exc.pos})") from None
    except RecursionError:
        raise BadLine("nested too deeply to be a message") from None
    if not isinstance(value, dict):
        raise BadLine(f"a JSON object is expected, not {type(value).__name__}")
    if not isinstance(value.get("content"), str):
        raise BadLine('no "content" string')
    ids = {}
    for field in ("author_id", "channel_id", "id"):
        raw = value.get(field)
        if raw is None:
            raw = ""
        if isinstance(raw, bool) or not isinstance(raw, (str, int)):
            raise BadLine(f'"{field}" must be a string or an integer')
        ids[field] = str(raw)
    return Message(value["content"], ids["author_id"], ids["channel_id"], ids["id"])


class _Stop(BaseException):
    """Raised by the signal handler while the loop waits for input (nothing is in hand)."""


class _Stopper:
    """SIGTERM/SIGINT: stop at once while waiting for input; after the message in hand while handling one."""

    def __init__(self) -> None:
        self.requested = False
        self._busy = False

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True
        if not self._busy:
            raise _Stop

    @contextmanager
    def installed(self) -> Iterator[None]:
        previous = {s: signal.signal(s, self._on_signal) for s in _SIGNALS}
        try:
            yield
        except _Stop:
            pass
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)

    @contextmanager
    def busy(self) -> Iterator[None]:
        self._busy = True
        try:
            yield
        finally:
            self._busy = False


def run(listener: Listener, lines: TextIO, out: TextIO, *, before: Callable[[Message], None] | None = None) -> None:
    """Read messages until end of input or a stop signal; print and flush one report line per notification.

    `before` sees each message first (a fixture run sets its clock to the message's recorded time).
    """
    stopper = _Stopper()
    with stopper.installed():
        number = 0
        while not stopper.requested:
            line = lines.readline()
            if not line:
                break
            number += 1
            with stopper.busy():
                if not line.strip():
                    continue
                try:
                    message = parse_line(line)
                except BadLine as exc:
                    log.warning("line %d skipped: %s", number, exc)
                    continue
                if before is not None:
                    before(message)
                result = listener.handle(message)
                if result is not None:
                    print(result.report, file=out, flush=True)
