"""When a line heard again is the same saying: the rule every backend's `hear_line` keeps.

Histories repeat a line for as long as its conversation goes on, so the line
stays the same saying while it keeps being seen; unseen for more than
`repeat_after`, the same words are said anew (another day) and count from
when they are heard. A sighting from a little earlier (notifications out of
order) is the same saying too: the first time stands, so a promise it made
stays one.
"""

from __future__ import annotations

from datetime import datetime, timedelta


def same_saying(first_seen: datetime, last_seen: datetime, at: datetime, repeat_after: timedelta) -> bool:
    """Whether a line seen at `at` is the saying first seen at `first_seen`, last at `last_seen`."""
    return first_seen - repeat_after <= at <= last_seen + repeat_after
