"""The wall clock, in one place: every "now" in the package comes from a clock argument that defaults to this."""

from __future__ import annotations

from datetime import datetime, timezone


def utc_now() -> datetime:
    return datetime.now(timezone.utc)
