"""Where the one-line report goes after a notification is handled.

A `Reporter` takes the finished line; it never raises and never changes
what was done or recorded. The webhook is the one-shot default; printing is
for a process that reports on its own output; a bot message in the channel
is for `listen` on Discord without a webhook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from karakuri_agent.report.line import WebhookResult, post_to_discord
from karakuri_agent.terminal import shown
from karakuri_agent.secret import Secret

if TYPE_CHECKING:  # asyncio is imported where a bot runs, not by every one-shot run
    from asyncio import AbstractEventLoop


class Reporter(Protocol):
    def post(self, line: str) -> WebhookResult | None:
        """Deliver the line; a webhook answers whether it was delivered, others None."""


class WebhookReporter:
    def __init__(self, url: Secret, budget: float) -> None:
        self._url = url
        self._budget = budget

    def post(self, line: str) -> WebhookResult:
        return post_to_discord(self._url.get(), line, budget=self._budget)


class DiscordChannelReporter:
    """A bot message in a Discord channel, mentions disabled, posted from a thread off the bot's event loop.

    `channel` is a discord.py channel (anything with an async `send`); the
    listener's worker thread calls `post`, which hands the send to the loop
    and waits for it, at most `budget` seconds.
    """

    def __init__(self, channel: Any, loop: AbstractEventLoop, budget: float) -> None:
        self._channel = channel
        self._loop = loop
        self._budget = budget

    def post(self, line: str) -> WebhookResult:
        from asyncio import run_coroutine_threadsafe

        from discord import AllowedMentions  # only a bot process gets here, with discord.py loaded

        sending = run_coroutine_threadsafe(
            self._channel.send(shown(line), allowed_mentions=AllowedMentions.none()), self._loop)
        try:
            sending.result(timeout=self._budget)
        except Exception as exc:  # Discord's refusal, a timeout, a closed loop: the report is lost, nothing else
            sending.cancel()
            return WebhookResult(False, 1, getattr(exc, "status", None))
        return WebhookResult(True, 1, 200)


