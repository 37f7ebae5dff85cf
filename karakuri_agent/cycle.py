"""`handle()`: one Discord message in, at most one command out, one report line.

Readable top to bottom as the pipeline of DESIGN.md:
text → id → notification → context → decision → params → claim → command →
record → report. Each step is one call into the module that owns it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from . import report
from .config import Settings
from .errors import AlreadyAttempted, OutcomeUnknown, ServerRejected, Unreachable
from .db import utc_now
from .operations import Fetched, Outcome, Runtime, act, fetch, open_runtime
from .commands import RESPONSE
from .context import view_of
from .deciders import Decider, Decision, build_decider
from .gate import first_admitted, not_actionable
from .speech import load_persona
from .trigger import find_notification_id

# Why nothing can be sent → the report line for it.
_NOT_ACTIONABLE_REPORTS = {
    "notification_processed": lambda kind: report.PROCESSED,
    "notification_expired": lambda kind: report.EXPIRED,
    "no_choices": lambda kind: report.idle_report(kind, why=report.NO_CHOICES),
}


@dataclass
class HandleResult:
    """What one invocation did; `record()` is the `--json` decision record."""

    report: str
    notification_id: str | None = None
    notification_type: str = ""
    decision: Decision | None = None
    outcome: Outcome | None = None
    dry_run: bool = False
    webhook: report.WebhookResult | None = None
    rejected: list[dict[str, Any]] = field(default_factory=list)

    @property
    def sent(self) -> bool:
        return self.outcome is not None

    def record(self) -> dict[str, Any]:
        decision = self.decision
        return {
            "notification_id": self.notification_id,
            "notification_type": self.notification_type,
            "decision": decision and {"command": decision.command, "params": decision.params,
                                      "reason": decision.reason},
            "rejected_candidates": self.rejected,
            "dry_run": self.dry_run,
            "sent": self.sent,
            "outcome": self.outcome and {"success": self.outcome.success, "result": self.outcome.result},
            "webhook_delivered": self.webhook.delivered if self.webhook else None,
            "report": self.report,
        }


def handle(
    body: str,
    settings: Settings,
    *,
    dry_run: bool = False,
    transport: httpx.BaseTransport | None = None,
    record_dir: Path | None = None,
    decider: Decider | None = None,
    clock=utc_now,
    post: bool = True,
) -> HandleResult:
    """Run the whole cycle for one message. Raises UsageError for a malformed id."""
    notification_id = find_notification_id(body)
    if notification_id is None:
        return HandleResult(report.NO_ID)
    if settings.disabled:
        return HandleResult(report.DISABLED, notification_id)
    with open_runtime(settings, transport=transport, record_dir=record_dir, clock=clock) as rt:
        result = _handle_notification(rt, notification_id, decider or build_decider(settings), dry_run=dry_run)
    if post and not dry_run and settings.webhook_url:
        result.webhook = report.post_to_discord(settings.webhook_url.get(), result.report,
                                                budget=settings.webhook_budget)
    return result


def _handle_notification(rt: Runtime, notification_id: str, decider: Decider, *, dry_run: bool,
                         newer: bool = False) -> HandleResult:
    """Steps 2-7 for one id; follows a `notification_stale` pointer once."""
    if not dry_run and rt.ledger.previous(notification_id) is not None:
        return HandleResult(report.ALREADY_HANDLED, notification_id)
    try:
        fetched = fetch(rt, notification_id)
    except ServerRejected as exc:
        if exc.latest_notification_id and not newer:
            return _handle_notification(rt, exc.latest_notification_id, decider, dry_run=dry_run, newer=True)
        return HandleResult(report.STALE if exc.code == "notification_stale" else report.FAILED, notification_id)
    except Unreachable:
        return HandleResult(report.FAILED, notification_id)

    notification = fetched.notification
    kind = notification.notification.type
    result = HandleResult("", notification_id, kind, dry_run=dry_run)
    now = rt.clock()
    blocked = not_actionable(notification, now)
    if blocked is not None:
        result.report = _NOT_ACTIONABLE_REPORTS[blocked](kind)
        return result
    if _cooling_down(rt, fetched, now):
        result.report = report.idle_report(kind, why=report.COOLING_DOWN)
        return result

    view = view_of(rt.store, fetched, now, persona=load_persona(rt.settings.persona_file),
                   transfer_policy=rt.settings.transfer_policy)
    decision, admitted, refused = first_admitted(notification, decider.propose(view), view.said_before)
    result.decision = decision
    result.rejected.extend(refused)
    if admitted is None:
        result.report = report.idle_report(kind)
        return result
    if dry_run:
        result.decision = Decision(admitted.choice.command, admitted.params, decision.reason)
        result.report = report.planned_report(kind, admitted.choice.command)
        return result

    try:
        outcome = act(rt, fetched, admitted.choice, admitted.params, reason=decision.reason)
    except AlreadyAttempted:
        result.report = report.ALREADY_HANDLED
        return result
    result.outcome = outcome
    if outcome.success:
        result.report = report.action_report(kind, admitted.choice.command, outcome.result, newer=newer)
    elif isinstance(outcome.error, ServerRejected) and outcome.error.latest_notification_id and not newer:
        latest = _handle_notification(rt, outcome.error.latest_notification_id, decider, dry_run=dry_run, newer=True)
        latest.rejected = result.rejected + latest.rejected
        return latest
    elif isinstance(outcome.error, OutcomeUnknown):
        result.report = report.UNKNOWN_OUTCOME
    else:
        result.report = report.STALE if outcome.error and outcome.error.code == "notification_stale" else report.FAILED
    return result


def _cooling_down(rt: Runtime, fetched: Fetched, now: datetime) -> bool:
    """Skip an idle-type notification inside the cooldown window (off by default)."""
    window = rt.settings.cooldown_seconds
    if window <= 0 or any(c.command in RESPONSE for c in fetched.notification.choices):
        return False
    last = rt.store.recent_commands(1)
    if not last:
        return False
    return now - datetime.fromisoformat(last[0]["created_at"]) < timedelta(seconds=window)
