"""A fetched notification with what was read from it: the input of building a View and of the wrapper's output."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from karakuri_agent.domain.identity import Identity
from karakuri_agent.domain.notification import Notification
from karakuri_agent.domain.records import Parsed


@dataclass
class Fetched:
    """A notification with its decision context."""

    notification: Notification
    me: Identity
    parsed: Parsed
    preprocess: dict[str, Any]
    read_at: datetime | None = None  # the world's time it was read (what it taught the store is stamped from then)

    def output(self) -> dict[str, Any]:
        """What `karakuri get_notification` prints: the server's JSON plus the context."""
        return {**self.notification.raw, "nikechan_preprocess": self.preprocess}
