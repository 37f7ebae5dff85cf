"""One small error family, so callers branch on meaning, not on messages.

Modelled on httpx's split between transport failures and status errors, with
one distinction httpx cannot make for us: whether a command *may have reached
the server*. That decides whether anything may ever be sent again, so it is a
type (`OutcomeUnknown`), not a flag someone can forget to check.

Every error carries the process exit code the CLI uses and a one-line message
that is safe to print (no secrets, no stack traces).
"""

from __future__ import annotations

from typing import Any

EXIT_FAILURE = 1  # the server said no, or the outcome is unknown
EXIT_USAGE = 2  # bad input or configuration: nothing was sent


class KarakuriError(Exception):
    """Base of every error this package raises on purpose."""

    exit_code = EXIT_FAILURE
    code = "karakuri_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message}


class UsageError(KarakuriError):
    """Bad input (id, params JSON, command not offered): rejected before any request."""

    exit_code = EXIT_USAGE
    code = "invalid_input"


class ConfigError(KarakuriError):
    """Missing or invalid configuration; the message names the variable."""

    exit_code = EXIT_USAGE
    code = "invalid_configuration"


class ServerRejected(KarakuriError):
    """The server answered with a non-2xx status: its answer is known and final."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.body = body
        self.code = str(body.get("error") or f"http_{status}")
        super().__init__(f"server answered {status} {self.code}: {body.get('message', '')}".rstrip(": "))

    @property
    def latest_notification_id(self) -> str | None:
        """Set only for `notification_stale` errors that name a newer notification."""
        details = self.body.get("details")
        if self.code == "notification_stale" and isinstance(details, dict):
            latest = details.get("latest_notification_id")
            return latest if isinstance(latest, str) else None
        return None

    def to_json(self) -> dict[str, Any]:
        return self.body


class Unreachable(KarakuriError):
    """The request provably never reached the server (after any allowed retries)."""

    code = "server_unreachable"


class OutcomeUnknown(KarakuriError):
    """A command may have reached the server (timeout, dropped answer).

    It must never be sent again: the notification is spent.
    """

    code = "outcome_unknown"


class AlreadyAttempted(KarakuriError):
    """The ledger already holds a claim for this notification."""

    code = "notification_already_attempted"

    def __init__(self, notification_id: str, previous: dict[str, Any]) -> None:
        self.notification_id = notification_id
        self.previous = previous
        super().__init__(f"a command was already attempted for {notification_id}")

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, "previous": self.previous}


class NotActionable(KarakuriError):
    """The notification may not be acted on: expired, already processed, or no choices."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)
