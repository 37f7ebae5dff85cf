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

from karakuri_agent.domain.ids import is_well_formed_id

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


# What of a server's error is shown: stderr gets one line, whatever the body held.
MAX_CODE, MAX_MESSAGE = 64, 300


def one_line(text: str, limit: int) -> str:
    """`text` with its line breaks and runs of spaces made single spaces, cut to `limit` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


class ServerRejected(KarakuriError):
    """The server answered with a non-2xx status: its answer is known and final."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status = status
        self.body = body
        error = body.get("error")
        # The code is a word the CLI prints and maps to advice: anything else the server put there
        # (an object, a number, a paragraph with line breaks) stands for the bare status.
        self.code = one_line(error, MAX_CODE) if isinstance(error, str) and error.strip() else f"http_{status}"
        super().__init__(f"server answered {status} {self.code}: {self.server_message}".rstrip(": "))

    @property
    def server_message(self) -> str:
        """The server's own message on one line of bounded length ("" when it sent none, or not as text)."""
        message = self.body.get("message")
        return one_line(message, MAX_MESSAGE) if isinstance(message, str) else ""

    @property
    def latest_notification_id(self) -> str | None:
        """Set only for `notification_stale` errors that name a newer notification."""
        details = self.body.get("details")
        if self.code == "notification_stale" and isinstance(details, dict):
            latest = details.get("latest_notification_id")
            # The same check as an id read from Discord: one that fails is "no newer notification".
            return latest if isinstance(latest, str) and is_well_formed_id(latest) else None
        return None

    def to_json(self) -> dict[str, Any]:
        return self.body


class Unreachable(KarakuriError):
    """The request provably never reached the server (after any allowed retries)."""

    code = "server_unreachable"


class ServerSlow(Unreachable):
    """The server took the connection but did not answer a read in time: slow, not unreachable.

    Raised only for reads (a GET may be asked again); a command without an
    answer is `OutcomeUnknown`.
    """

    code = "server_slow"


class OutcomeUnknown(KarakuriError):
    """A command may have reached the server (timeout, dropped answer).

    It must never be sent again: the notification is spent.
    """

    code = "outcome_unknown"


class StateUnavailable(KarakuriError):
    """The state database cannot be reached or refused the work: nothing is sent without the ledger.

    The message names the database with its password masked.
    """

    code = "state_unavailable"

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message  # the driver's own words, for a caller that words its own message


class StateBusy(StateUnavailable):
    """Another process held the SQLite file's write lock past the busy timeout: nothing was sent."""

    code = "state_busy"


class AlreadyAttempted(KarakuriError):
    """The ledger already holds a claim for this notification."""

    code = "notification_already_attempted"

    def __init__(self, notification_id: str, previous: dict[str, Any]) -> None:
        self.notification_id = notification_id
        self.previous = previous
        super().__init__(f"a command was already attempted for {notification_id}")

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, "previous": self.previous}


class AgentDisabled(KarakuriError):
    """KARAKURI_AGENT_DISABLED is set: the operator stopped every action."""

    exit_code = EXIT_USAGE
    code = "agent_disabled"


class NotActionable(KarakuriError):
    """The notification may not be acted on: expired, already processed, or no choices."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


# What the person running the agent can do about each error code; an unknown
# code (the server may add some) gets the generic advice.
WHAT_TO_DO = {
    "server_unreachable": "check KARAKURI_API_BASE_URL and the network; nothing was done",
    "server_slow": ("the server took the connection but answered too slowly; raise KARAKURI_HTTP_TIMEOUT"
                    " or try again later; nothing was done"),
    "state_unavailable": ("check KARAKURI_DATABASE_URL and that the database is running (or, for the SQLite"
                          " file, KARAKURI_STATE_DIR's disk and permissions); nothing was sent, and the same"
                          " notification is handled as usual once the state is back"),
    "state_busy": ("another process held the state's SQLite file locked past the busy timeout (a backup, a"
                   " stuck run, a sqlite3 shell); nothing was sent, and the same notification is handled as usual"
                   " once the lock is released"),
    "outcome_unknown": "the command may have reached the server; it will not be sent again",
    "not_found": "the server (or the fixtures directory) does not know this notification id; check the message it came from",
    "unauthorized": "check KARAKURI_API_KEY: it must be the key issued when the agent was registered",
    "forbidden": "check KARAKURI_API_KEY: it belongs to another agent or was revoked",
    "notification_expired": "the notification expired before it was handled; the next one will be handled as usual",
    "notification_processed": "the server already processed this notification; nothing to do",
    "notification_stale": "a newer notification superseded this one; the next one will be handled as usual",
    "invalid_request": "the server refused the params; the message says which",
    "not_logged_in": "the agent is not logged in to the world; log it in and wait for the next notification",
    "service_unavailable": "the server is busy or down; the next notification will be handled as usual",
    "rate_limited": ("the server asked to wait longer than the notification lives (or said no time); the command"
                     " was not taken, and the next notification will be handled as usual"),
    "fixture_unreadable": "a fixture file is not valid JSON; fix or re-record it",
    "invalid_response": "the server's answer was not what the contract describes",
}
GENERIC_ADVICE = "nothing more is sent for this notification; the next one will be handled as usual"


def describe(code: str, message: str) -> dict[str, str]:
    """An error as the CLI shows it: the code, the message, and what to do about it."""
    return {"error": code, "message": message, "what_to_do": WHAT_TO_DO.get(code, GENERIC_ADVICE)}


def explain(exc: KarakuriError) -> dict[str, str]:
    """`describe` for a raised error; a server's own message is used when it sent one."""
    if isinstance(exc, ServerRejected):
        return describe(exc.code, exc.server_message or f"HTTP {exc.status}")
    return describe(exc.code, exc.message)
