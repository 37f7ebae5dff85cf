"""The clocks, in one place: the machine's, and the world's (the server's, CONTRACT §9).

Every "now" in the package comes from a clock argument. The machine's clock
(`utc_now`) may be off by hours (no NTP, a container, a laptop waking up)
and a simulated town may run its own time, so a run's `Runtime.clock` is a
`WorldClock`: the server's time as last read, advanced by the monotonic time
elapsed since. Before anything was read from the server it is the machine's
clock. The state stamps with it too, so stored times and "now" are on one
clock even when several machines share a database.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from typing import Callable

Clock = Callable[[], datetime]

# A time outside these years is a fault, not a clock: it is not believed (the server's clock, its
# timestamps, a `--date`), since arithmetic on it could overflow.
PLAUSIBLE_YEARS = range(1971, 9000)


def utc_now() -> datetime:
    """The machine's clock: bookkeeping only, and the world's clock until the server has spoken."""
    return datetime.now(timezone.utc)


class WorldClock:
    """The world's "now": the latest server reading plus the (monotonic) time elapsed since it was read.

    `read_server(created_at, date)` takes the notification's `created_at` and
    the HTTP `Date` of its response; the later of the two is the world's
    time at that moment (a notification read late is judged by the Date, one
    without a Date by its `created_at`). Without either, the machine's clock
    stays in charge.
    """

    def __init__(self, machine: Clock = utc_now, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._machine = machine
        self._monotonic = monotonic
        self._anchor: tuple[datetime, float] | None = None

    def __call__(self) -> datetime:
        if self._anchor is None:
            return self._machine()
        at, read = self._anchor
        try:
            return at + timedelta(seconds=max(0.0, self._monotonic() - read))
        except OverflowError:  # pragma: no cover - readings are bounded to plausible years
            return at

    @property
    def from_server(self) -> bool:
        """The clock follows the server (something was read from it)."""
        return self._anchor is not None

    def read_server(self, *readings: datetime | None) -> None:
        """Follow the server from now on: the latest plausible aware reading, if any."""
        believed = [r for r in readings
                    if r is not None and r.tzinfo is not None and r.year in PLAUSIBLE_YEARS]
        if believed:
            self._anchor = (max(believed).astimezone(timezone.utc), self._monotonic())


def world_clock(clock: Clock) -> WorldClock:
    """`clock` if it already is a world clock, else a world clock over it (as the machine's)."""
    return clock if isinstance(clock, WorldClock) else WorldClock(clock)
