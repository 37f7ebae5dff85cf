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
from zoneinfo import ZoneInfo

Clock = Callable[[], datetime]

# The world's zone: its texts, its days and its clock times are Tokyo's (CONTRACT §9).
TOKYO = ZoneInfo("Asia/Tokyo")

# The agent's night, in the world's hours: a sleep then lasts until the morning, and a bed offered is taken.
NIGHT_FROM, MORNING = 21, 7


def is_night(now: datetime) -> bool:
    hour = now.astimezone(TOKYO).hour
    return hour >= NIGHT_FROM or hour < MORNING


# A time outside these years is a fault, not a clock: it is not believed (the server's clock, its
# timestamps, a `--date`), since arithmetic on it could overflow.
PLAUSIBLE_YEARS = range(1971, 9000)


def cooling_down(last: datetime, now: datetime, window: timedelta) -> bool:
    """Whether a cooldown that began at `last` still holds at `now`: the one rule for every cooldown.

    A `last` ahead of now (a clock stepped back, CONTRACT §9) counts as just
    now, so it holds at most a window; one more than a window ahead blocks
    nothing, instead of blocking until the clock catches up with it.
    """
    return abs(now - last) < window


def cooled_at(last: datetime, now: datetime, window: timedelta) -> datetime | None:
    """When a cooldown that began at `last` ends, seen at `now` (None: it does not hold now).

    By `cooling_down`'s rule: a `last` ahead of now counts as just now, so it ends a window from now.
    """
    if not cooling_down(last, now, window):
        return None
    return now + window if last > now else last + window


def utc_now() -> datetime:
    """The machine's clock: bookkeeping only, and the world's clock until the server has spoken."""
    return datetime.now(timezone.utc)


# A `Date` later than the notification's `created_at` (or its `expires_at`) by up to this is the notification
# read late: a slow fetch, a delivery held up for hours. Further off, or earlier, it is a clock that disagrees
# with the notification's (a server whose `Date` says 2100, a world whose clock runs months away from the
# machines' clocks), and CONTRACT §9 puts the notification's own first.
READ_LATE = timedelta(days=1)


def _plausible(reading: datetime | None) -> datetime | None:
    if reading is None or reading.tzinfo is None or reading.year not in PLAUSIBLE_YEARS:
        return None
    return reading.astimezone(timezone.utc)


def server_now(created_at: datetime | None, date: datetime | None,
               expires_at: datetime | None = None) -> datetime | None:
    """The world's time when a notification was read, CONTRACT §9's order: its own `created_at` first, then `Date`.

    The `Date` is believed over `created_at` only as the notification read
    late: no earlier than `created_at`, and within `READ_LATE` of it or of
    its `expires_at`. Any other `Date` disagrees with the notification's
    clock and loses to it, so a `Date` of 2100 cannot expire a notification
    made a minute ago, and a world whose clock runs months away from the
    machine's keeps its own time whatever the HTTP server stamps. The
    machine's clock is never asked. One reading alone is taken; none (or
    only implausible ones): None.
    """
    made, said = _plausible(created_at), _plausible(date)
    if made is None or said is None:
        return made or said
    ends = _plausible(expires_at) or made
    return said if made <= said <= max(made, ends) + READ_LATE else made


class WorldClock:
    """The world's "now": the latest server reading plus the (monotonic) time elapsed since it was read.

    `read_server(created_at, date)` takes the notification's `created_at` and
    the HTTP `Date` of its response and believes them as `server_now` says.
    Without either, the machine's clock stays in charge.
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

    def read_server(self, created_at: datetime | None, date: datetime | None = None,
                    expires_at: datetime | None = None) -> None:
        """Follow the server from now on: its time as `server_now` reads it, if it gave a plausible one."""
        believed = server_now(created_at, date, expires_at)
        if believed is not None:
            self._anchor = (believed, self._monotonic())


def world_clock(clock: Clock) -> WorldClock:
    """`clock` if it already is a world clock, else a world clock over it (as the machine's)."""
    return clock if isinstance(clock, WorldClock) else WorldClock(clock)
