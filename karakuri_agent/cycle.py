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
from .params import InvalidParams, merge, validate
from .models import INFORMATION_COMMANDS
from .policy import (
    ACCEPT_TRANSFER,
    COMMITMENT_SOON,
    END,
    REJECT_TRANSFER,
    SPEAK,
    Decider,
    Decision,
    RulePolicy,
    View,
)
from .record import agents_in, conversation_key, partner_keys, said_to_partners
from .speech import load_persona
from .trigger import find_notification_id

# Choices that answer someone: never skipped by the cooldown.
RESPONSE_COMMANDS = frozenset(
    {"conversation_accept", "conversation_reject", "conversation_stay", "conversation_leave",
     *SPEAK, *END, *ACCEPT_TRANSFER, *REJECT_TRANSFER}
)
# People walk around: who was near ten minutes ago may be gone.
NEARBY_FRESH = timedelta(minutes=10)
# Own lines further apart than this belong to different conversations.
CONVERSATION_GAP = timedelta(minutes=30)
MEETING_LOOKBACK = timedelta(minutes=30)
# A line is not said again to the same person within this span (a week of town life).
SAID_BEFORE_SPAN = timedelta(days=7)


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
        result = _handle_notification(rt, notification_id, decider or RulePolicy(), dry_run=dry_run)
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
    if notification.is_processed():
        result.report = report.PROCESSED
        return result
    if notification.is_expired(now):
        result.report = report.EXPIRED
        return result
    if not notification.choices:
        result.report = report.idle_report(kind, why=report.NO_CHOICES)
        return result
    if _cooling_down(rt, fetched, now):
        result.report = report.idle_report(kind, why=report.COOLING_DOWN)
        return result

    decision, choice, params = _first_sendable(decider.propose(view_of(rt, fetched, now)), fetched, result)
    result.decision = decision
    if choice is None:
        result.report = report.idle_report(kind)
        return result
    if dry_run:
        result.decision = Decision(choice.command, params, decision.reason)
        result.report = report.planned_report(kind, choice.command)
        return result

    try:
        outcome = act(rt, fetched, choice, params, reason=decision.reason)
    except AlreadyAttempted:
        result.report = report.ALREADY_HANDLED
        return result
    result.outcome = outcome
    if outcome.success:
        result.report = report.action_report(kind, choice.command, outcome.result, newer=newer)
    elif isinstance(outcome.error, ServerRejected) and outcome.error.latest_notification_id and not newer:
        latest = _handle_notification(rt, outcome.error.latest_notification_id, decider, dry_run=dry_run, newer=True)
        latest.rejected = result.rejected + latest.rejected
        return latest
    elif isinstance(outcome.error, OutcomeUnknown):
        result.report = report.UNKNOWN_OUTCOME
    else:
        result.report = report.STALE if outcome.error and outcome.error.code == "notification_stale" else report.FAILED
    return result


def _first_sendable(candidates: list[Decision], fetched: Fetched, result: HandleResult):
    """The first proposal that is offered and whose params validate; the others are noted."""
    for decision in candidates:
        if not decision.acts:
            return decision, None, {}
        choice = fetched.notification.choice(decision.command, decision.params)
        if choice is None:
            result.rejected.append({"command": decision.command, "problem": "not offered"})
            continue
        try:
            return decision, choice, validate(choice, merge(choice, decision.params))
        except InvalidParams as exc:
            result.rejected.append({"command": decision.command, "problem": "; ".join(exc.problems)})
    if candidates:
        return Decision(None, reason="どの候補も送れる形にならなかった"), None, {}
    return Decision(None, reason="選べる行動がない"), None, {}


def view_of(rt: Runtime, fetched: Fetched, now: datetime) -> View:
    """Read what the policy needs from the store, once."""
    store = rt.store
    learned = {key: now - datetime.fromisoformat(at) for key, at in store.knowledge_times().items()}
    nearby_entry = store.knowledge("get_nearby_agents")
    nearby = agents_in(nearby_entry["value"]) if nearby_entry and learned["get_nearby_agents"] < NEARBY_FRESH else []
    lines = store.utterances(conversation_key(fetched.parsed, fetched.me), 30)
    candidates = [a["id"] for a in nearby] + [
        str(v) for c in fetched.notification.choices if c.command == "conversation_start"
        for v in _listed(c.param_schema.get("target_agent_id", {}).get("enum"))
    ]
    return View(
        notification_id=fetched.notification.notification_id,
        choices=fetched.notification.choices,
        parsed=fetched.parsed,
        context=fetched.preprocess["context"],
        me=fetched.me,
        now=now,
        persona=load_persona(rt.settings.persona_file),
        recent_commands=store.recent_commands(6),
        knowledge_age={k: v for k, v in learned.items() if k in INFORMATION_COMMANDS},
        places=fetched.preprocess["context"]["known_places"],
        nearby_agents=[a for a in nearby if not fetched.me.is_self(a["id"], a["name"])],
        own_lines=this_conversation(lines, now),
        # Whom the agent may speak to: this conversation's others, or those it may start one with.
        said_before=[line["message"] for line in lines]
        + said_to_partners(store, partner_keys(fetched.parsed, fetched.me) | set(candidates), now - SAID_BEFORE_SPAN),
        acquaintances={p["agent_id"]: p for p in store.people(candidates)},
        meetings=store.meetings(now - MEETING_LOOKBACK, now + COMMITMENT_SOON),
        transfer_policy=rt.settings.transfer_policy,
    )


def _listed(enum: Any) -> list[Any]:
    """A schema's enum when it is a list; a server may send anything there."""
    return enum if isinstance(enum, list) else []


def this_conversation(lines: list[dict[str, Any]], now: datetime) -> list[str]:
    """The agent's lines of the conversation going on now (newest first).

    Without a conversation id, lines are keyed by partners only, so earlier
    talks with the same people are cut off at the line that opened this one
    (an accept or a start) or at the first long silence.
    """
    current, later = [], now
    for line in lines:
        said = datetime.fromisoformat(line["created_at"])
        if later - said > CONVERSATION_GAP:
            break
        current.append(line["message"])
        if line.get("opens"):
            break
        later = said
    return current


def _cooling_down(rt: Runtime, fetched: Fetched, now: datetime) -> bool:
    """Skip an idle-type notification inside the cooldown window (off by default)."""
    window = rt.settings.cooldown_seconds
    if window <= 0 or any(c.command in RESPONSE_COMMANDS for c in fetched.notification.choices):
        return False
    last = rt.store.recent_commands(1)
    if not last:
        return False
    return now - datetime.fromisoformat(last[0]["created_at"]) < timedelta(seconds=window)
