"""The two operations everything is built from: fetch with context, and act once.

The `karakuri` wrapper exposes them one per invocation; `karakuri-agent
handle` chains them with a policy in between. Both go through the same
ledger, so "at most one command per notification" holds whichever front end
(or how many at once) is used.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator

import httpx

from karakuri_agent.app.client import KarakuriClient
from karakuri_agent.app.config import Settings
from karakuri_agent.app.interrupt import must_finish
from karakuri_agent.domain.clock import Clock, WorldClock, utc_now, world_clock
from karakuri_agent.domain.fetched import Fetched
from karakuri_agent.domain.notification import Choice, Notification
from karakuri_agent.errors import KarakuriError, OutcomeUnknown, ServerRejected, Unreachable
from karakuri_agent.memory.context import identity_for, observe, remember
from karakuri_agent.memory.record import record_outcome
from karakuri_agent.state.base import FAILED, SUCCEEDED, UNKNOWN, Ledger, State, Store
from karakuri_agent.state.factory import open_state

if TYPE_CHECKING:
    from karakuri_agent.mind.persona import Persona


# A command refused with 429 is sent again only this long before its notification expires, at the latest.
LIFE_MARGIN_SECONDS = 5.0


@dataclass
class Runtime:
    """Everything one invocation needs, opened once."""

    settings: Settings
    client: KarakuriClient
    store: Store
    ledger: Ledger
    # The world's clock (CONTRACT §9): follows the server from the first notification read.
    clock: WorldClock = field(default_factory=WorldClock)
    # The agent's turn (state/agent_turn.py): held from a notification's first read to its last write.
    turn: Callable[[], AbstractContextManager[None]] = nullcontext


def choose_transport(settings: Settings, clock: Clock | None = None) -> httpx.BaseTransport | None:
    """Recorded fixtures when configured (answering at `clock`'s time), the network otherwise."""
    if settings.fixtures_dir is not None:
        from karakuri_agent.app.fixtures import FixtureTransport

        return FixtureTransport(settings.fixtures_dir, clock)
    return None


@contextmanager
def open_runtime(
    settings: Settings,
    *,
    transport: httpx.BaseTransport | None = None,
    clock: Clock = utc_now,
    state: State | None = None,
    pool: httpx.Client | None = None,
) -> Iterator[Runtime]:
    """The HTTP client and the state (the configured backend unless one is handed in), closed on exit.

    `clock` is the machine's; the runtime's is the world's clock over it, and
    the state opened here stamps with the world's clock too. `pool` is a
    fleet's shared connection pool to the server (left open here).
    """
    world = world_clock(clock)
    client = KarakuriClient(
        settings.api_base_url,
        settings.api_key,
        transport=transport or choose_transport(settings, clock),
        timeout=settings.http_timeout,
        get_retry_budget=settings.get_retry_budget,
        secrets=settings.secrets,
        pool=pool,
    )
    try:
        if state is not None:
            yield Runtime(settings, client, state.store, state.ledger, world, _turn_of(state, settings))
        else:
            with open_state(settings, world) as opened:
                yield Runtime(settings, client, opened.store, opened.ledger, world, _turn_of(opened, settings))
    finally:
        client.close()


def _turn_of(state: State, settings: Settings) -> Callable[[], AbstractContextManager[None]]:
    return lambda: state.turn(settings.agent_key)


def load_configured_persona(settings: Settings) -> Persona:
    """The persona pack KARAKURI_PERSONA_DIR names (else the bundled one), read once per Agent; a pack
    whose content passed the check before is not checked again (its key is kept in the state directory)."""
    from karakuri_agent.voice.persona_pack import load_configured

    return load_configured(settings.persona_dir, checked_in=settings.state_dir)


def fetch(rt: Runtime, notification_id: str, *, prefer_stored: bool = False) -> Fetched:
    """GET the notification (or use the stored copy), record the fetch, build the context."""
    raw = rt.store.load_notification(notification_id) if prefer_stored else None
    date = None
    if raw is None:
        raw = rt.client.get_notification(notification_id)
        date = rt.client.last_server_date
    notification = Notification.from_json(raw, requested_id=notification_id)
    # The world's now is the server's (CONTRACT §9).
    rt.clock.read_server(notification.created_at, date, notification.expires_at)
    now = rt.clock()
    me = identity_for(notification, rt.settings.self_agent_id, rt.settings.self_name)
    activity_id, parsed = observe(rt.store, notification, me=me, now=now)
    remembered = remember(rt.store, parsed, me=me, now=now, world_context_file=rt.settings.world_context_file)
    return Fetched(notification, me, parsed, remembered, activity_id, read_at=now)


@dataclass
class Outcome:
    """What became of the one command: the server's answer or error body."""

    command: str
    params: dict[str, Any]
    success: bool
    result: dict[str, Any]
    error: KarakuriError | None = None
    activity_id: int = 0
    # Why the outcome could not be written to the state (None: it was). The command was sent all the same.
    unrecorded: str | None = None


def act(rt: Runtime, fetched: Fetched, choice: Choice, params: dict[str, Any], *, reason: str = "") -> Outcome:
    """Claim the notification, send the one command, record what happened.

    The claim is committed on its own and on disk before the command is sent
    (the one write that must be); the ledger's outcome and the store's record
    follow in one batch, which does not wait for the disk.

    Raises AlreadyAttempted (nothing sent) when the ledger already has a claim.
    Server errors and unknown outcomes are returned, not raised: they are
    results to record and report, and nothing is ever retried after them.
    """
    sendable(choice.command, params)
    with must_finish():  # Ctrl-C waits for the end of this step: never a command without its record
        return _claim_send_record(rt, fetched, choice, params, reason)


def sendable(command: str, params: dict[str, Any]) -> None:
    """Raise InvalidParams unless the params can be written as the request's strict JSON.

    The gate already refuses them (params.unsendable); this is the last look
    before the claim, since a claim whose request cannot be built loses the
    notification for good.
    """
    from karakuri_agent.outside import dumps
    from karakuri_agent.params import InvalidParams

    try:
        dumps(params)
    except (TypeError, ValueError) as exc:
        raise InvalidParams(command, [f"not JSON a request can carry ({exc})"]) from None


def _claim_send_record(rt: Runtime, fetched: Fetched, choice: Choice, params: dict[str, Any], reason: str) -> Outcome:
    notification_id = fetched.notification.notification_id
    rt.ledger.claim(notification_id, choice.command, params)
    error: KarakuriError | None = None
    try:
        result = rt.client.send_command(notification_id, choice.command, params, may_wait=_life_left(rt, fetched))
        state = SUCCEEDED
    except ServerRejected as exc:
        error, result, state = exc, exc.body, FAILED
    except Unreachable as exc:
        error, result, state = exc, exc.to_json(), FAILED
    except OutcomeUnknown as exc:
        error, result, state = exc, exc.to_json(), UNKNOWN
    outcome = Outcome(choice.command, params, error is None, result, error)
    try:
        with rt.store.batch():  # the outcome and what it teaches: one transaction, after the command
            rt.ledger.finish(notification_id, state, result)
            outcome.activity_id = record_outcome(
                rt.store,
                notification_id=notification_id,
                parsed=fetched.parsed,
                me=fetched.me,
                command=choice.command,
                description=choice.description,
                params=params,
                success=error is None,
                result=result,
                reason=reason,
                now=rt.clock(),
            )
    except Exception as exc:  # a full disk, a lost database, a bug: the command was sent all the same
        outcome.unrecorded = _finish_alone(rt, notification_id, state, result, exc)
    return outcome


def _life_left(rt: Runtime, fetched: Fetched) -> float:
    """Seconds a command refused with 429 may wait to be sent again: what is left of the notification's life
    (by the world's clock, a margin kept), else the settings' retry budget; never past the life."""
    expires = fetched.notification.expires_at
    budget = rt.settings.get_retry_budget
    if expires is None:
        return budget
    return max(0.0, (expires - rt.clock()).total_seconds() - LIFE_MARGIN_SECONDS)


def _finish_alone(rt: Runtime, notification_id: str, state: str, result: dict[str, Any], exc: Exception) -> str:
    """After the outcome's batch failed: try the ledger's outcome on its own; why the outcome is not recorded.

    The claim stays whatever happens, so the notification is never sent again
    and `log` shows it as sent (its outcome not recorded).
    """
    why = getattr(exc, "message", None) or type(exc).__name__
    try:
        with rt.store.batch():
            rt.ledger.finish(notification_id, state, result)
    except Exception:
        return f"{why}; only the claim was kept"
    return f"{why}; the ledger has the outcome, the rest of what it taught was not kept"
