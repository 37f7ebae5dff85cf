"""Test-only bootstrap: make a child process SIGKILL itself at one step of the cycle.

Imported through `python -c` before the CLI runs, it wraps one function of
the package so the process dies at exactly that point, the way a power cut or
an OOM kill would (no exception handlers, no `finally`, no atexit). The
production code has no hooks for this: the wrapping happens here.

    python -c "import killpoints; killpoints.arm('after_claim'); from karakuri_agent.app.cli import agent; ..."
"""

from __future__ import annotations

import functools
import os
import signal
from typing import Any, Callable

POINTS = ("before_claim", "after_claim", "after_answer", "before_record", "mid_record", "before_report_entry",
          "in_webhook")


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _die_before(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        die()

    return wrapper


def _die_after(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        func(*args, **kwargs)
        die()

    return wrapper


def arm(point: str | None = None) -> None:
    """Wrap the function for `point` (or the KILLPOINT environment variable)."""
    point = point or os.environ.get("KILLPOINT", "")
    from karakuri_agent.app import client
    from karakuri_agent.app import cycle
    from karakuri_agent.app import operations
    from karakuri_agent.report import line as report
    from karakuri_agent.state.sqlite import ledger, store

    if point == "before_claim":  # decided, nothing claimed yet
        ledger.Ledger.claim = _die_before(ledger.Ledger.claim)
    elif point == "after_claim":  # the claim is committed, the POST not yet written
        ledger.Ledger.claim = _die_after(ledger.Ledger.claim)
    elif point == "after_answer":  # the server answered; neither the ledger outcome nor the record written
        client.KarakuriClient.send_command = _die_after(client.KarakuriClient.send_command)
    elif point == "before_record":  # the outcome transaction open, the ledger outcome written, the record not yet
        operations.record_outcome = _die_before(operations.record_outcome)
    elif point == "mid_record":  # inside the outcome transaction, after the record's first write
        store.SQLiteStore.record_command = _die_after(store.SQLiteStore.record_command)
    elif point == "before_report_entry":  # the outcome committed; the run's report entry not yet written
        cycle.Agent._remember = _die_before(cycle.Agent._remember)
    elif point == "in_webhook":  # everything done and recorded; the report is being posted
        report._send_with_discord_webhook = _die_before(report._send_with_discord_webhook)
    elif point:
        raise ValueError(f"unknown kill point {point!r}; one of {POINTS}")
