"""`karakuri-agent gc`: forgetting old history in the configured state."""

from __future__ import annotations

from typing import Any

from karakuri_agent.app.config import Settings


def collect(settings: Settings, keep_days: int, *, dry_run: bool = False) -> dict[str, Any]:
    """`karakuri-agent gc`: forget history in the configured state, now (or only count it)."""
    from karakuri_agent.domain.clock import utc_now
    from karakuri_agent.state.factory import open_state

    with open_state(settings, utc_now) as state:
        return state.forget_before(keep_days, utc_now(), dry_run=dry_run)
