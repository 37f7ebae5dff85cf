"""Pydantic models of the wire contract (CONTRACT §2), tolerant of its variations.

The server may send times as ISO text or Unix milliseconds, a choice's text as
`description` or `label`, `param_schema` flat or as a JSON Schema object, and
unknown fields anywhere. All of that is normalised here, once, so nothing
downstream has to know. A choice that is not even an object with a `command`
string is dropped: it could never be sent anyway.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

# Statuses meaning "someone already acted on this notification".
PROCESSED_STATUSES = frozenset(
    {"processed", "handled", "completed", "done", "responded", "answered", "acted", "executed", "consumed"}
)
EXPIRED_STATUSES = frozenset({"expired", "stale", "superseded"})


def parse_timestamp(value: Any) -> datetime | None:
    """ISO 8601 text or Unix milliseconds (number or digit string) → aware UTC datetime."""
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


class Choice(BaseModel):
    """One offered command, normalised: `param_schema` is always a flat field map."""

    model_config = ConfigDict(extra="allow", frozen=True)

    command: str
    description: str = ""
    params: dict[str, Any] = Field(default_factory=dict)
    required_params: list[str] = Field(default_factory=list)
    param_schema: dict[str, dict[str, Any]] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _normalise(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        flat, schema_required = normalise_schema(data.get("param_schema"))
        required = _as_str_list(data.get("required_params"))
        required += [name for name in schema_required if name not in required]
        text = data.get("description") or data.get("label") or ""
        return {
            **data,
            "description": text if isinstance(text, str) else str(text),
            "params": _as_dict(data.get("params")),
            "required_params": required,
            "param_schema": flat,
        }

    def summary(self) -> dict[str, Any]:
        """The normalised view put in the decision context."""
        return {
            "command": self.command,
            "description": self.description,
            "params": self.params,
            "required_params": self.required_params,
            "param_schema": self.param_schema,
        }


class Participant(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str | None = None
    name: str = ""

    @field_validator("id", mode="before")
    @classmethod
    def _id_as_text(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


class ConversationMessage(BaseModel):
    model_config = ConfigDict(extra="allow")

    speaker: str = ""
    message: str = ""
    speaker_id: str | None = None


def _valid_items(value: Any, model: type[BaseModel]) -> list[Any] | None:
    """Keep the entries of a list that validate; None when the field is absent."""
    if value is None:
        return None
    if not isinstance(value, list):
        return []
    items = []
    for item in value:
        try:
            items.append(model.model_validate(item))
        except ValueError:
            continue
    return items


class NotificationBody(BaseModel):
    model_config = ConfigDict(extra="allow")

    type: str = ""
    text: str = ""
    conversation_id: str | None = None
    participants: list[Participant] | None = None
    conversation_messages: list[ConversationMessage] | None = None
    choices: list[Choice] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _tolerate(cls, data: Any) -> Any:
        data = _as_dict(data)
        conversation = _as_dict(data.get("conversation"))
        conversation_id = data.get("conversation_id") or conversation.get("id") or conversation.get("conversation_id")
        return {
            **data,
            "type": data.get("type") if isinstance(data.get("type"), str) else "",
            "text": data.get("text") if isinstance(data.get("text"), str) else "",
            "conversation_id": str(conversation_id) if isinstance(conversation_id, (str, int)) else None,
            "participants": _valid_items(data.get("participants"), Participant),
            "conversation_messages": _valid_items(data.get("conversation_messages"), ConversationMessage),
            "choices": _valid_items(data.get("choices"), Choice) or [],
        }


class Notification(BaseModel):
    """A fetched notification. `raw` keeps the server's JSON exactly, for printing."""

    model_config = ConfigDict(extra="allow")

    notification_id: str
    created_at: datetime | None = None
    expires_at: datetime | None = None
    status: str | None = None
    notification: NotificationBody = Field(default_factory=NotificationBody)
    raw: dict[str, Any] = Field(default_factory=dict, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _tolerate(cls, data: Any) -> Any:
        data = _as_dict(data)
        # Some servers put the body fields at the top level instead of under "notification".
        body = data.get("notification") if isinstance(data.get("notification"), dict) else data
        status = data.get("status")
        return {
            **data,
            "created_at": parse_timestamp(data.get("created_at")),
            "expires_at": parse_timestamp(data.get("expires_at")),
            "status": status if isinstance(status, str) else None,
            "notification": body,
            "raw": data,
        }

    @classmethod
    def from_json(cls, data: Any, *, requested_id: str) -> Notification:
        """Validate a server answer as the notification we asked for.

        The id is always the requested (validated) one: the ledger claim and the
        command must name the notification the message carried, whatever the
        body says.
        """
        return cls.model_validate({**_as_dict(data), "notification_id": requested_id})

    @property
    def choices(self) -> list[Choice]:
        return self.notification.choices

    def choice(self, command: str, params: dict[str, Any] | None = None) -> Choice | None:
        """The offered choice for `command`.

        Several choices may share a command (one `action` per action_id, each
        with its own params): the one whose own params agree with `params` wins.
        """
        offered = [c for c in self.choices if c.command == command]
        wanted = params or {}
        agreeing = [c for c in offered if all(wanted.get(k, v) == v for k, v in c.params.items())]
        return (agreeing or offered or [None])[0]

    def is_expired(self, now: datetime) -> bool:
        if (self.status or "").lower() in EXPIRED_STATUSES:
            return True
        return self.expires_at is not None and self.expires_at <= now

    def is_processed(self) -> bool:
        return (self.status or "").lower() in PROCESSED_STATUSES
