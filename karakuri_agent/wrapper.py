"""The `karakuri` wrapper's two entry points, for LLM runtimes driving `skill/SKILL.md`.

The runtime proposes; this module disposes: the command must be one of the
stored choices, its params must fit the schema, and the ledger must not hold a
claim. Only then is anything sent.
"""

from __future__ import annotations

from typing import Any

from .config import load_settings
from .errors import AgentDisabled, AlreadyAttempted, KarakuriError
from .operations import act, check_actionable, fetch, open_runtime, prepare
from .trigger import validate_notification_id


def get_notification(notification_id: str) -> dict[str, Any]:
    """The stored notification with `nikechan_preprocess` added."""
    notification_id = validate_notification_id(notification_id)
    with open_runtime(load_settings()) as rt:
        return fetch(rt, notification_id).output()


def run_command(notification_id: str, command: str, params: dict[str, Any]) -> dict[str, Any]:
    """Send one offered command with validated params; the server's answer.

    Checked against the copy stored when the notification was fetched (fetched
    now if there is none). A refused or failed command raises; nothing is
    retried. KARAKURI_AGENT_DISABLED stops it before anything is read or sent
    (`get_notification` stays allowed: reading is not an action).
    """
    notification_id = validate_notification_id(notification_id)
    settings = load_settings()
    if settings.disabled:
        raise AgentDisabled("KARAKURI_AGENT_DISABLED is set: nothing was sent (unset it to let the agent act)")
    with open_runtime(settings) as rt:
        previous = rt.ledger.previous(notification_id)
        if previous is not None:  # answer at once, before even reading the notification
            raise AlreadyAttempted(notification_id, previous)
        fetched = fetch(rt, notification_id, prefer_stored=True)
        check_actionable(fetched.notification, rt.clock())
        choice, checked = prepare(fetched, command, params)
        outcome = act(rt, fetched, choice, checked, reason="LLMランタイムの選択")
        if isinstance(outcome.error, KarakuriError):
            raise outcome.error
        return outcome.result
