"""The wire contract's notification (CONTRACT §2), read tolerantly into plain dataclasses.

The server may send times as ISO text or Unix milliseconds, a choice's text as
`description` or `label`, `param_schema` flat or as a JSON Schema object, and
unknown fields anywhere. All of that is normalised here, once, so nothing
downstream has to know. A choice that is not even an object with a `command`
string is dropped: it could never be sent anyway.

Plain dataclasses rather than pydantic models: every rule here is a tolerance
written by hand (nothing is rejected, only normalised), and importing pydantic
cost 55-65 ms of each 235 ms invocation (benchmarks/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Sequence

from karakuri_agent.domain.clock import PLAUSIBLE_YEARS
from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.limits import MAX_FIELD_CHARS, MAX_TEXT_CHARS
from karakuri_agent.domain.records import Line

# Statuses meaning "someone already acted on this notification".
PROCESSED_STATUSES = frozenset(
    {"processed", "handled", "completed", "done", "responded", "answered", "acted", "executed", "consumed"}
)
EXPIRED_STATUSES = frozenset({"expired", "stale", "superseded"})
# The world's clock: reports, promises and texts are all in Tokyo time.


def parse_timestamp(value: Any) -> datetime | None:
    """ISO 8601 text or Unix milliseconds (number or digit string) → aware UTC datetime.

    A time outside the plausible years (clock.PLAUSIBLE_YEARS: `0001-01-01`,
    `9999-12-31T23:59`, 1e18 ms) is unknown (None): every sum, zone change or
    comparison on what is returned stays within the calendar.
    """
    moment = _timestamp(value)
    return moment if moment is not None and moment.year in PLAUSIBLE_YEARS else None


def _timestamp(value: Any) -> datetime | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        if isinstance(value, (int, float)):
            return datetime.fromtimestamp(value / 1000, tz=timezone.utc)
        if isinstance(value, str):
            text = value.strip()
            if text.lstrip("-").isdigit():
                return datetime.fromtimestamp(int(text) / 1000, tz=timezone.utc)
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
            return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None
    return None


def _as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _as_str_list(value: Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def normalise_schema(schema: Any) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Return (flat field map, required names) from either schema shape."""
    schema = _as_dict(schema)
    if schema.get("type") == "object" and isinstance(schema.get("properties"), dict):
        fields, required = schema["properties"], _as_str_list(schema.get("required"))
    else:
        fields, required = schema, []
    flat = {name: spec for name, spec in fields.items() if isinstance(name, str) and isinstance(spec, dict)}
    return flat, required


def _text(value: Any) -> str:
    """A text field, cut to MAX_FIELD_CHARS before any pattern reads it (a name, a line, a type)."""
    return value[:MAX_FIELD_CHARS] if isinstance(value, str) else ""


def _long_text(value: Any) -> str:
    """The notification's text, bounded before any pattern reads it: its head and its tail, at line ends.

    Real texts are a few kB; a server may send megabytes. What the parsers
    look for sits at the start (who calls, where the agent is) and at the end
    (the newest line, whose turn it is), so the middle goes.
    """
    if not isinstance(value, str):
        return ""
    if len(value) <= MAX_TEXT_CHARS:
        return value
    half = MAX_TEXT_CHARS // 2
    head, tail = value[:half], value[-half:]
    head = head[: head.rfind("\n") + 1] or head
    tail = tail[tail.find("\n") + 1:] or tail
    return head + tail


def _optional_id(value: Any) -> str | None:
    """Ids are text; numbers are accepted (JSON has no 64-bit integers everywhere)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class Choice:
    """One offered command, normalised: `param_schema` is always a flat field map."""

    command: str
    description: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    required_params: list[str] = field(default_factory=list)
    param_schema: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Any) -> Choice | None:
        """A choice from the server's JSON, or None when it has no command to send."""
        if not isinstance(data, dict) or not isinstance(data.get("command"), str) or not data["command"]:
            return None
        flat, schema_required = normalise_schema(data.get("param_schema"))
        required = _as_str_list(data.get("required_params"))
        required += [name for name in schema_required if name not in required]
        text = data.get("description") or data.get("label") or ""
        return cls(
            command=data["command"],
            description=text if isinstance(text, str) else str(text),
            params=_as_dict(data.get("params")),
            required_params=required,
            param_schema=flat,
        )

    def enum(self, name: str) -> list[Any]:
        """The values `name` may take, when its schema lists them as text or numbers; [] otherwise.

        The one tolerant reading of an `enum`: a server may send anything there
        (a number, an object), and no reader should crash on it.
        """
        values = self.param_schema.get(name, {}).get("enum")
        if not isinstance(values, list):
            return []
        return [v for v in values if isinstance(v, (str, int)) and not isinstance(v, bool)]

    def summary(self) -> dict[str, Any]:
        """The normalised view put in the decision context."""
        return {
            "command": self.command,
            "description": self.description,
            "params": self.params,
            "required_params": self.required_params,
            "param_schema": self.param_schema,
        }


def _participant(data: Any) -> PersonRef | None:
    if not isinstance(data, dict):
        return None
    return PersonRef(_optional_id(data.get("id") or data.get("agent_id")), _text(data.get("name")))


def _line(data: Any) -> Line | None:
    if not isinstance(data, dict):
        return None
    return Line(_text(data.get("speaker")), _text(data.get("message")), _optional_id(data.get("speaker_id")))


def _items(value: Any, read: Any) -> list[Any] | None:
    """Entries of a list that can be read; None when the field is absent."""
    if value is None:
        return None
    if not isinstance(value, list):
        return []
    return [item for item in map(read, value) if item is not None]


# The newer API names its notifications by `kind`; the same events under the older `type` names, which
# packs' triggers and the report's wording use (docs/contract.md, "Two generations"). A kind not listed
# keeps its own name.
KIND_TYPES = {
    "conversation_request": "conversation_requested",
    "conversation_reply": "conversation_message",
    "conversation_fyi": "conversation_message",
    "conversation_turn": "conversation_turn_started",
    "conversation_forced_ended": "conversation_ended",
    "idle_reminder": "idle_reminder_fired",
    "server_announcement": "server_announcement_fired",
    "transfer_request": "transfer_requested",
}


def _payload_lines(payload: dict[str, Any]) -> list[Line] | None:
    """The line a newer notification's payload carries: who said it (`speaker_name`, or the `initiator_name`
    of a request) and the `message`; None when it carries none."""
    message = payload.get("message")
    speaker = payload.get("speaker_name") or payload.get("initiator_name")
    if not isinstance(message, str) or not message or not isinstance(speaker, str):
        return None
    return [Line(_text(speaker), _text(message), _optional_id(payload.get("speaker_id")))]


@dataclass(frozen=True)
class NotificationBody:
    """The notification of either generation: the older `type` and `text`, or the newer `kind`, `summary`,
    `payload` and `perception` (the structured fields first, the text where they are missing)."""

    type: str = ""
    text: str = ""
    conversation_id: str | None = None
    participants: list[PersonRef] | None = None
    conversation_messages: list[Line] | None = None
    choices: list[Choice] = field(default_factory=list)
    kind: str = ""  # the newer API's own name for it ('conversation_reply'), '' in the older
    pending_transfer: bool = False  # the newer payload's has_pending_transfer: an offer this turn answers
    perception: dict[str, Any] = field(default_factory=dict)  # the newer API's surroundings, read by reading/perception.py

    @classmethod
    def from_json(cls, data: Any) -> NotificationBody:
        data = _as_dict(data)
        payload = _as_dict(data.get("payload"))
        conversation = _as_dict(data.get("conversation"))
        conversation_id = data.get("conversation_id") or conversation.get("id") or conversation.get("conversation_id") \
            or payload.get("conversation_id")
        kind = _text(data.get("kind"))
        lines = _items(data.get("conversation_messages"), _line)
        return cls(
            type=_text(data.get("type")) or KIND_TYPES.get(kind, kind),
            text=_long_text(data.get("text")) or _long_text(data.get("summary")),
            conversation_id=_optional_id(conversation_id),
            participants=_items(data.get("participants"), _participant)
            if data.get("participants") is not None else _items(payload.get("participants"), _participant),
            conversation_messages=lines if lines is not None else _payload_lines(payload),
            choices=_items(data.get("choices"), Choice.from_json) or [],
            kind=kind,
            pending_transfer=payload.get("has_pending_transfer") is True,
            perception=_as_dict(data.get("perception")),
        )


def offered_choice(choices: Sequence[Choice], command: str, params: dict[str, Any] | None = None) -> Choice | None:
    """The offered choice for `command`.

    Several choices may share a command (one `action` per action_id, each
    with its own params): the one whose own params agree with `params` wins.
    """
    offered = [c for c in choices if c.command == command]
    wanted = params or {}
    agreeing = [c for c in offered if all(wanted.get(k, v) == v for k, v in c.params.items())]
    if agreeing:
        return agreeing[0]
    # One choice: proposed values may fill over its defaults. Several: the
    # proposal names none of them (an action_id that was not offered).
    return offered[0] if len(offered) == 1 else None


@dataclass(frozen=True)
class Notification:
    """A fetched notification. `raw` keeps the server's JSON exactly, for printing and storing."""

    notification_id: str
    notification: NotificationBody
    created_at: datetime | None = None
    expires_at: datetime | None = None
    status: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Any, *, requested_id: str) -> Notification:
        """Read a server answer as the notification we asked for.

        The id is always the requested (validated) one: the ledger claim and the
        command must name the notification the message carried, whatever the
        body says. Some servers put the body fields at the top level instead of
        under "notification"; both are read.
        """
        data = _as_dict(data)
        body = data["notification"] if isinstance(data.get("notification"), dict) else data
        status = data.get("status") if isinstance(data.get("status"), str) else None
        return cls(
            notification_id=requested_id,
            notification=NotificationBody.from_json(body),
            created_at=parse_timestamp(data.get("created_at")),
            expires_at=parse_timestamp(data.get("expires_at")),
            # The newer API's `stale: true`: consumed, superseded or expired; a command would only be refused.
            status="stale" if data.get("stale") is True and status is None else status,
            raw=data,
        )

    @property
    def choices(self) -> list[Choice]:
        return self.notification.choices

    def choice(self, command: str, params: dict[str, Any] | None = None) -> Choice | None:
        return offered_choice(self.choices, command, params)

    def is_expired(self, now: datetime) -> bool:
        if (self.status or "").lower() in EXPIRED_STATUSES:
            return True
        return self.expires_at is not None and self.expires_at <= now

    def is_processed(self) -> bool:
        return (self.status or "").lower() in PROCESSED_STATUSES
