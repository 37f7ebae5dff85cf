"""Where the one-line report goes after a notification is handled.

A `Reporter` takes the finished line; it never raises and never changes
what was done or recorded. The webhook is the one-shot default; printing is
for a process that reports on its own output; a Discord channel reporter
belongs beside them when the agent listens as a bot.
"""

from __future__ import annotations

import sys
from typing import Protocol, TextIO

from . import report
from .config import Secret, Settings


class Reporter(Protocol):
    def post(self, line: str) -> report.WebhookResult | None:
        """Deliver the line; a webhook answers whether it was delivered, others None."""


class WebhookReporter:
    def __init__(self, url: Secret, budget: float) -> None:
        self._url = url
        self._budget = budget

    def post(self, line: str) -> report.WebhookResult:
        return report.post_to_discord(self._url.get(), line, budget=self._budget)


class StdoutReporter:
    """One flushed line per report, for a resident process whose output is read live."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream

    def post(self, line: str) -> None:
        print(line, file=self._stream or sys.stdout, flush=True)


def configured_reporter(settings: Settings) -> Reporter | None:
    """The webhook when one is configured; otherwise the report is only printed by the CLI."""
    return WebhookReporter(settings.webhook_url, settings.webhook_budget) if settings.webhook_url else None
