"""Secrets: values that never print themselves, and masking them out of text from outside.

A leaf module: every layer that holds or shows a credential (settings, the
HTTP client, the model decider, the reporters) uses it without pulling in
the settings loader.
"""

from __future__ import annotations

from urllib.parse import urlsplit


class Secret:
    """A string that does not print itself."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __bool__(self) -> bool:
        return bool(self._value)


def webhook_token(url: str) -> list[str]:
    """The part of a webhook URL that is its password: the last path segment (Discord's token), and a query.

    Only pieces long enough to be a token count (16 characters and more): a relay's
    short path (`/hook`) is no secret, and as one the gate would refuse every
    spoken line that says the word.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    segments = [segment for segment in parts.path.split("/") if segment]
    return [piece for piece in (segments[-1] if segments else "", parts.query) if len(piece) >= 16]


def redact(text: str, secrets: tuple[str, ...]) -> str:
    """Text from outside (server answers, recorded fixtures) with every secret masked."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text
