"""`listen --stdin`: the resident loop fed by JSON lines, one report line out per notification.

Each line is `{"content": "...", "author_id": "...", "channel_id": "...",
"id": "..."}` (only `content` is required), read by outside.json_object as
every door's JSON is (bytes that are not UTF-8 read as U+FFFD). A line
that is not such an object (bad JSON, a number JSON cannot carry, nesting
past 32 levels) is one log line and is skipped: it costs that line only. End of input, SIGTERM or SIGINT: the
message in hand is finished, nothing new is started, and the loop returns.
"""

from __future__ import annotations

import logging
import signal
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Callable, Iterator, Protocol, TextIO

from karakuri_agent.app.listen.listener import Message
from karakuri_agent.outside import NotOneObject, json_object
from karakuri_agent.terminal import shown

if TYPE_CHECKING:
    from karakuri_agent.app.cycle import HandleResult

log = logging.getLogger(__name__)
_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class BadLine(ValueError):
    """A stdin line that is not one message."""


def parse_line(line: str) -> Message:
    """One JSON object with a string `content`; ids may be strings or integers (Discord snowflakes)."""
    try:
        value = json_object(line)
    except NotOneObject as exc:
        raise BadLine(str(exc)) from None
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


class Handles(Protocol):
    """What the loop feeds: one agent's Listener (it answers at once), or a Fleet (it queues, answers None,
    and writes each report itself)."""

    def handle(self, message: Message) -> HandleResult | None: ...


def run(listener: Handles, lines: TextIO, out: TextIO, *, before: Callable[[Message], None] | None = None) -> bool:
    """Read messages until end of input or a stop signal; print and flush one report line per notification.

    `before` sees each message first (a fixture run sets its clock to the message's recorded time).
    True when a signal stopped it (a fleet then finishes only what is in hand), False at end of input.
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
                    if before is not None:
                        before(message)
                except BadLine as exc:
                    log.warning("line %d skipped: %s", number, exc)
                    continue
                except Exception as exc:  # a bad line costs that line only, whatever it held
                    log.warning("line %d skipped: %s", number, getattr(exc, "message", None) or type(exc).__name__)
                    continue
                result = listener.handle(message)
                if result is not None:
                    print(shown(result.report), file=out, flush=True)  # as every output line is
    return stopper.requested
