"""The `karakuri` wrapper's two entry points, for LLM runtimes driving `skill/SKILL.md`.

The runtime proposes; the gate disposes: the command must be one of the
stored choices, its params must fit the schema, its line must be plain words
not said before, and the ledger must not hold a claim. Only then is anything
sent.
"""

from __future__ import annotations

from typing import Any

from karakuri_agent.app.config import Settings
from karakuri_agent.app.operations import Outcome, act, fetch, open_runtime
from karakuri_agent.domain.clock import Clock, utc_now
from karakuri_agent.errors import AgentDisabled, AlreadyAttempted, KarakuriError, NotActionable, UsageError
from karakuri_agent.memory.context import wrapper_output
from karakuri_agent.reading.trigger import validate_notification_id


def get_notification(settings: Settings, notification_id: str, *, clock: Clock = utc_now) -> dict[str, Any]:
    """The stored notification with `nikechan_preprocess` added (`clock`: the machine's)."""
    notification_id = validate_notification_id(notification_id)
    with open_runtime(settings, clock=clock) as rt:
        return wrapper_output(fetch(rt, notification_id))


def run_command(settings: Settings, notification_id: str, command: str, params: dict[str, Any], *,
                clock: Clock = utc_now) -> Outcome:
    """Send one offered command with validated params; its outcome (`.result`: the server's answer).

    Checked against the copy stored when the notification was fetched (fetched
    now if there is none). A refused or failed command raises; nothing is
    retried. KARAKURI_AGENT_DISABLED stops it before anything is read or sent
    (`get_notification` stays allowed: reading is not an action).
    """
    # The gate and what it checks against, imported here: a read (`get_notification`) needs none of it.
    from karakuri_agent.domain.decision import Decision
    from karakuri_agent.gate import NOT_ACTIONABLE, Rejected, admit, not_actionable
    from karakuri_agent.ja import phrases
    from karakuri_agent.memory.context import said_before

    notification_id = validate_notification_id(notification_id)
    if settings.disabled:
        raise AgentDisabled("KARAKURI_AGENT_DISABLED is set: nothing was sent (unset it to let the agent act)")
    with open_runtime(settings, clock=clock) as rt, rt.turn():
        previous = rt.ledger.previous(notification_id)
        if previous is not None:  # answer at once, before even reading the notification
            raise AlreadyAttempted(notification_id, previous)
        fetched = fetch(rt, notification_id, prefer_stored=True)
        blocked = not_actionable(fetched.notification, rt.clock())
        if blocked is not None:
            raise NotActionable(blocked, NOT_ACTIONABLE[blocked])
        verdict = admit(fetched.notification, Decision(command, params), said_before(rt.store, fetched, rt.clock()),
                        settings.secrets)
        if isinstance(verdict, Rejected):
            raise UsageError(f"{command} cannot be sent: " + "; ".join(verdict.problems))
        outcome = act(rt, fetched, verdict.choice, verdict.params, reason=phrases.RUNTIME_CHOICE)
        if isinstance(outcome.error, KarakuriError):
            raise outcome.error
        return outcome
