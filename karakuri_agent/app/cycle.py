"""One Discord message in, at most one command out, one report line.

`Agent` is opened once (state, HTTP client, decider, persona, reporter) and
handles any number of messages; `handle()` is the CLI's one-shot run of it.
`Agent._notification` reads top to bottom as the pipeline:
text → id → notification → context → decision → gate → claim → command →
record → report. Each step is one call into the module that owns it.
"""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable, Iterator

import httpx

from karakuri_agent.app.config import Settings
from karakuri_agent.app.operations import Outcome, Runtime, act, fetch, load_configured_persona, open_runtime
from karakuri_agent.app.registry import build_decider
from karakuri_agent.decide.report_facts import facts_of
from karakuri_agent.domain.clock import cooling_down, utc_now
from karakuri_agent.domain.commands import RESPONSE
from karakuri_agent.domain.decision import Decision
from karakuri_agent.decide.deciders import Decider, Proposal
from karakuri_agent.domain.fetched import Fetched
from karakuri_agent.mind.persona import Persona
from karakuri_agent.mind.view import View
from karakuri_agent.errors import (
    MAX_MESSAGE,
    AlreadyAttempted,
    KarakuriError,
    OutcomeUnknown,
    ServerRejected,
    StateUnavailable,
    Unreachable,
    describe,
    explain,
    one_line,
)
from karakuri_agent.gate import first_admitted, not_actionable
from karakuri_agent.memory.context import view_of
from karakuri_agent.reading.trigger import find_notification_id
from karakuri_agent.report.line import Ending, How, line_for
from karakuri_agent.report.line import WebhookResult
from karakuri_agent.report.reporters import Reporter, WebhookReporter
from karakuri_agent.secret import redact
from karakuri_agent.state.base import State, Store

if TYPE_CHECKING:
    from karakuri_agent.domain.model_trace import LLMTrace

Clock = Callable[[], datetime]
log = logging.getLogger(__name__)
# A library stays silent unless its user asks (`karakuri-agent -v`): no "last resort" output.
logging.getLogger("karakuri_agent").addHandler(logging.NullHandler())

# Why nothing can be sent → how the notification ended.
_NOT_ACTIONABLE: dict[str, How] = {"notification_processed": "processed", "notification_expired": "expired",
                                   "no_choices": "no_choices"}


def configured_reporter(settings: Settings) -> Reporter | None:
    """The webhook when one is configured; otherwise the report is only printed by the CLI."""
    return WebhookReporter(settings.webhook_url, settings.webhook_budget) if settings.webhook_url else None


@dataclass(frozen=True)
class HandleResult:
    """What one invocation did, built once from what happened (`_ended`); `record()` is the `--json` record."""

    report: str
    notification_id: str | None = None
    notification_type: str = ""
    decision: Decision | None = None
    outcome: Outcome | None = None
    dry_run: bool = False
    webhook: WebhookResult | None = None
    rejected: tuple[dict[str, Any], ...] = ()
    # Why nothing (or not what was meant) was done: `errors.describe()`'s shape.
    error: dict[str, str] | None = None
    # What a model decider was asked and what came of it (None: no model was asked).
    model: LLMTrace | None = None
    # What went wrong in the decider and was fallen back from (Proposal.errors), one secret-free line each.
    decider_errors: tuple[str, ...] = ()
    # Why what the run did could not all be written to the state (None: it was); the report still goes out.
    unrecorded: str | None = None
    # The rule that decided, the rules that gave way and every variable change (None: nothing was decided).
    behaviour: dict[str, Any] | None = None
    # What the pack's behaviour remembers that this notification changed: saved with the report entry.
    behaviour_memory: dict[str, Any] | None = field(default=None, repr=False)

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
            "rejected_candidates": list(self.rejected),
            "dry_run": self.dry_run,
            "sent": self.sent,
            "outcome": self.outcome and {"success": self.outcome.success, "result": self.outcome.result},
            "webhook_delivered": self.webhook.delivered if self.webhook else None,
            "error": self.error,
            "outcome_recorded": self.unrecorded is None,
            "model": self.model and self.model.to_json(),
            "decider_errors": list(self.decider_errors),
            "behaviour": self.behaviour,
            "report": self.report,
        }


def _ended(ending: Ending, notification_id: str | None = None, **what: Any) -> HandleResult:
    """The one place a HandleResult is made: how the notification ended (its report line, chosen in
    report/) and what happened on the way."""
    return HandleResult(line_for(ending), notification_id, ending.notification_type, **what)


def handle(
    body: str,
    settings: Settings,
    *,
    dry_run: bool = False,
    transport: httpx.BaseTransport | None = None,
    decider: Decider | None = None,
    clock: Clock = utc_now,
    post: bool = True,
) -> HandleResult:
    """Run the whole cycle for one message (the CLI's one-shot run): open, handle, close."""
    early = answer_without_opening(find_notification_id(body), settings, dry_run=dry_run)
    if early is not None:
        return early
    reporter = configured_reporter(settings) if post else None
    try:
        with Agent.open(settings, transport=transport, decider=decider, clock=clock,
                        reporter=reporter) as agent:
            return agent.handle(body, dry_run=dry_run)
    except StateUnavailable as exc:  # the database could not be opened: nothing read, nothing sent
        result = _state_unavailable(exc, find_notification_id(body), dry_run)
        if reporter is not None and not dry_run:
            result = replace(result, webhook=reporter.post(result.report))
        return result


def answer_without_opening(notification_id: str | None, settings: Settings, *,
                           dry_run: bool = False) -> HandleResult | None:
    """The answers that need no state, no server and no report: no id, or switched off."""
    if notification_id is None:
        return _ended(Ending("no_id"), dry_run=dry_run)
    if settings.disabled:
        return _ended(Ending("disabled"), notification_id, dry_run=dry_run)
    return None


class Agent:
    """Everything a notification needs, opened once, handling any number of messages.

    A one-shot run opens it for one message (`handle`); a resident process
    opens it at start-up and calls `handle` for each message it receives.
    Not thread-safe: one message at a time per Agent (the ledger, not the
    Agent, keeps several processes from acting twice).
    """

    def __init__(self, runtime: Runtime, *, decider: Decider, persona: Persona,
                 reporter: Reporter | None = None) -> None:
        self.runtime = runtime
        self.decider = decider
        self.persona = persona
        self.reporter = reporter
        # Transfer offers: the operator's setting wins, then the persona pack's rule, then "known".
        self.transfer_policy = runtime.settings.transfer_policy or persona.rules.transfer_policy or "known"

    @classmethod
    @contextmanager
    def open(cls, settings: Settings, *, transport: httpx.BaseTransport | None = None,
             decider: Decider | None = None, reporter: Reporter | None = None,
             clock: Clock = utc_now, state: State | None = None, persona: Persona | None = None,
             pool: httpx.Client | None = None) -> Iterator[Agent]:
        """Load the persona, build the decider, open the state and the HTTP client.

        `state` is for callers that hold their own (an in-memory one in tests);
        otherwise the configured backend is opened and closed here. A fleet
        hands in the persona it loaded once for the pack's directory and its
        connection pool to the server.
        """
        persona = persona or load_configured_persona(settings)
        chosen = decider or build_decider(settings)
        with open_runtime(settings, transport=transport, clock=clock, state=state, pool=pool) as rt:
            yield cls(rt, decider=chosen, persona=persona, reporter=reporter)

    def handle(self, body: str, *, dry_run: bool = False, remember: Callable[[], None] | None = None) -> HandleResult:
        """One message: at most one command, one report line (posted unless dry-run).

        `remember` is the caller's own writes for this message (a listener's
        last message id), committed in the transaction that keeps the run's
        report entry, or alone when no entry is kept (no id, switched off);
        not at all when the state is unavailable. Raises UsageError for a
        malformed id.
        """
        started = time.perf_counter()
        notification_id = find_notification_id(body)
        result = answer_without_opening(notification_id, self.runtime.settings, dry_run=dry_run)
        if result is None and notification_id is not None:
            try:
                if not dry_run and self.runtime.ledger.previous(notification_id) is not None:
                    result = self._keep(_ended(Ending("already_handled"), notification_id), notification_id, remember)
                else:  # the agent's state read, decided on and written back by one run at a time
                    with self.runtime.turn():
                        result = self._notification(notification_id, dry_run=dry_run)
                        if result.model is not None:
                            result.model.sent, result.model.dry_run = result.sent, dry_run
                        result = self._keep(result, notification_id, remember)
            except StateUnavailable as exc:  # the ledger cannot be asked: nothing more is sent
                result = _state_unavailable(exc, notification_id, dry_run)
            if self.reporter is not None and not dry_run:
                result = replace(result, webhook=self.reporter.post(result.report))
        elif remember is not None:
            with self.runtime.store.batch():
                remember()
        result = result or _ended(Ending("no_id"), dry_run=dry_run)
        log.info("%s decision=%s outcome=%s %d ms", result.notification_id or "-",
                 result.decision.command if result.decision and result.decision.command else "none",
                 outcome_word(result), (time.perf_counter() - started) * 1000)
        return result

    def _keep(self, result: HandleResult, notification_id: str, remember: Callable[[], None] | None) -> HandleResult:
        """The run's report entry and the caller's writes, in one batch.

        Once a command was sent, nothing here may stop the report: a write
        that fails is said on stderr (`unrecorded`), not raised.
        """
        try:
            with self.runtime.store.batch():
                self._remember(result, notification_id)
                if result.behaviour_memory is not None and not result.dry_run:
                    self.runtime.store.save_behaviour_state(result.behaviour_memory)
                if remember is not None:
                    remember()
        except Exception as exc:
            if not result.sent:
                raise
            why = getattr(exc, "message", None) or type(exc).__name__
            return replace(result, unrecorded=result.unrecorded or f"{why}; the report entry was not kept")
        return result

    def _remember(self, result: HandleResult, notification_id: str) -> None:
        """Keep the run's report line (and a dry run's plan, and why a run failed) for `log`."""
        planned = result.decision if result.dry_run and result.decision and result.decision.command else None
        why = result.error and f"{result.error['error']}: {result.error['message']}"
        self.runtime.store.record_report(
            result.notification_id or notification_id,
            result.notification_type,
            result.report,
            dry_run=result.dry_run,
            command=planned.command if planned else None,
            params=planned.params if planned else None,
            reason=why or (planned.reason if planned else ""),
            failed=result.error is not None,
            model=result.model.to_json() if result.model else (
                {"errors": list(result.decider_errors)} if result.decider_errors else None),
            behaviour=result.behaviour,
        )

    def _notification(self, notification_id: str, *, dry_run: bool, newer: bool = False) -> HandleResult:
        """Steps 2-7 for one id; follows a `notification_stale` pointer once."""
        rt = self.runtime
        if not dry_run and rt.ledger.previous(notification_id) is not None:
            return _ended(Ending("already_handled"), notification_id, dry_run=dry_run)
        try:
            fetched = fetch(rt, notification_id)
        except ServerRejected as exc:
            if exc.latest_notification_id and not newer:
                return self._notification(exc.latest_notification_id, dry_run=dry_run, newer=True)
            return _ended(Ending("failed", error_code=exc.code), notification_id, dry_run=dry_run,
                          error=explain(exc))
        except Unreachable as exc:
            return _ended(Ending("failed", error_code=exc.code), notification_id, dry_run=dry_run,
                          error=explain(exc))

        notification = fetched.notification
        kind = notification.notification.type
        began = fetched.read_at or rt.clock()  # promises kept from then on: by this notification (promise_kept)
        now = rt.clock()
        blocked = not_actionable(notification, now)
        if blocked is not None:
            expired = _expired(notification.expires_at, now) if blocked == "notification_expired" else None
            return _ended(Ending(_NOT_ACTIONABLE[blocked], kind), notification_id, dry_run=dry_run, error=expired)
        if _cooling_down(rt, fetched, now):
            return _ended(Ending("cooling_down", kind), notification_id, dry_run=dry_run)

        from karakuri_agent.decide.behaving import begun  # the pack's turn: begun once, for everyone who needs it

        view = begun(view_of(rt.store, fetched, now, persona=self.persona, transfer_policy=self.transfer_policy))
        proposal = self.decider.propose(view)
        walk = proposal.walk()
        decision, admitted, refused = first_admitted(notification, walk, view.said_before, rt.settings.secrets)
        source = walk.source  # the proposal the decision came from: a fallback's, once the first's were refused
        if not any(decision is c for c in source.candidates) and source.selection is not None:
            decision = replace(decision, rule=source.selection.rule or "")  # the gate's own "nothing": whose rule it was
        model = source.model or proposal.model
        decided = {"decision": decision, "rejected": tuple(refused), "model": model,
                   "decider_errors": self._fallbacks(proposal, model, refused), "dry_run": dry_run}
        if admitted is None:
            return _ended(Ending("idle", kind, idle_why=decision.idle_why), notification_id,
                          **decided, **self._behave(view, source, decision, None, None, model, began))
        command = admitted.choice.command
        if dry_run:
            planned = Decision(command, admitted.params, decision.reason, rule=decision.rule)
            return _ended(Ending("planned", kind, command, facts=facts_of(view, planned)), notification_id,
                          **{**decided, "decision": planned}, **self._behave(view, source, decision, command, None, model, began))

        from karakuri_agent.decide.behaving import fired_before_sending

        fired = fired_before_sending(view, source.selection)
        if fired is not None:  # a pack rule's firing counts before its command may reach the server
            with rt.store.batch():
                rt.store.save_behaviour_state(fired)
        try:
            outcome = act(rt, fetched, admitted.choice, admitted.params, reason=decision.reason)
        except AlreadyAttempted:
            return _ended(Ending("already_handled", kind), notification_id, **decided)
        if not outcome.success and isinstance(outcome.error, ServerRejected) and outcome.error.latest_notification_id \
                and not newer:
            latest = self._notification(outcome.error.latest_notification_id, dry_run=dry_run, newer=True)
            return replace(latest, rejected=tuple(refused) + latest.rejected)
        if outcome.success:
            _mentioned(rt.store, decision, admitted.params, view.now)
            ending = Ending("sent", kind, command, outcome.result, facts_of(view, Decision(command, admitted.params)),
                            newer=newer)
        elif isinstance(outcome.error, OutcomeUnknown):
            ending = Ending("unknown_outcome", kind)
        else:
            ending = Ending("failed", kind, error_code=getattr(outcome.error, "code", None))
        return _ended(ending, notification_id, **decided, outcome=outcome, unrecorded=outcome.unrecorded,
                      error=explain(outcome.error) if outcome.error is not None else None,
                      **self._behave(view, source, decision, command, outcome.success, model, began))

    def _fallbacks(self, proposal: Proposal, model: LLMTrace | None, refused: list[dict[str, Any]]) -> tuple[str, ...]:
        """The record says who decided: the errors fallen back from, and a model's proposal this gate refused.

        The model's checks admitted its proposal (it comes first); this gate,
        which alone knows the configured secrets, may still refuse it, and
        then the rules' candidate behind it is what goes out.
        """
        lines = tuple(failure_line(exc, self.runtime.settings.secrets) for exc in proposal.errors)
        if model is not None:
            model.errors = list(lines)
            if refused:
                model.overruled(refused[0]["problem"])
        return lines

    def _behave(self, view: View, proposal: Proposal, decision: Decision, sent: str | None,
                success: bool | None, model: LLMTrace | None, began: datetime) -> dict[str, Any]:
        """The pack's reactions to what happened: the trace kept with the run, and what it remembers after.

        The promises this notification kept (in place, by going, by talking:
        the ones `day` calls kept) are read back from the store for the
        pack's `promise_kept` reaction.
        """
        from karakuri_agent.decide.behaving import behaviour_of, changed, finish  # imported once a decision is made

        kept = [] if behaviour_of(view).empty else self.runtime.store.kept_since(began)
        memory, behaviour = finish(view, proposal.selection, decision, sent, success, kept=kept)
        if behaviour is not None and model is not None and not model.replaced_by_rules:
            # The model chose: the rules' selection came along for its firings, not as the decider.
            behaviour = {**behaviour, "rule": None, "by": "the model"}
        return {"behaviour_memory": None if memory is None else changed(view, memory), "behaviour": behaviour}


def _mentioned(store: Store, decision: Decision, sent: dict[str, Any], now: datetime) -> None:
    """A memory the sent line brought up is marked mentioned (in world time): not again within a week."""
    memory = decision.recalled
    if memory is not None and memory.line in str(sent.get("message") or ""):
        store.mention_fact(memory.fact_key, memory.listener, now)


def failure_line(exc: BaseException, secrets: tuple[str, ...]) -> str:
    """One secret-free line for a decider's failure: our own errors say what they say, masked; a foreign
    one only its type (and HTTP status), as its text may quote a URL or a key."""
    if isinstance(exc, KarakuriError):
        return f"{exc.code}: {one_line(redact(exc.message, secrets), MAX_MESSAGE)}"
    status = getattr(exc, "status_code", None)
    return type(exc).__name__ + (f" (http {status})" if isinstance(status, int) else "")


def _state_unavailable(exc: StateUnavailable, notification_id: str | None, dry_run: bool) -> HandleResult:
    """The state went away: the failure report, why on stderr; the notification stays for the next run."""
    return _ended(Ending("failed", error_code=exc.code), notification_id, dry_run=dry_run, error=explain(exc))


def _expired(expires_at: datetime | None, now: datetime) -> dict[str, str]:
    """Expiry is decided here, on the world's clock (the server's, CONTRACT §9): say when, and that clock's now."""
    when = f"at {expires_at.isoformat()}" if expires_at else "(the server marked it expired)"
    said = now.isoformat(timespec="seconds")
    return describe("notification_expired", f"the notification expired {when}; the server's clock said {said}")


def outcome_word(result: HandleResult) -> str:
    """One word for the log line: what became of the notification."""
    if result.outcome is not None and result.outcome.success:
        return "succeeded"
    if result.outcome is not None:
        return result.outcome.error.code if result.outcome.error else "failed"
    if result.dry_run and result.decision is not None and result.decision.command:
        return "planned"
    return "not_sent"


def _cooling_down(rt: Runtime, fetched: Fetched, now: datetime) -> bool:
    """Skip an idle-type notification inside the cooldown window (off by default).

    A last command stamped ahead of now (a clock stepped back) counts as just
    now: it cools down at most one window ahead, and a stamp further ahead
    than that blocks nothing (CONTRACT §9).
    """
    window = rt.settings.cooldown_seconds
    if window <= 0 or any(c.command in RESPONSE for c in fetched.notification.choices):
        return False
    last = rt.store.recent_commands(1)
    if not last:
        return False
    return cooling_down(last[0].created_at, now, timedelta(seconds=window))
