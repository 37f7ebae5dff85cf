"""`listen` on Discord itself: a discord.py bot feeding the resident loop.

Imported only by `karakuri-agent listen` without `--stdin` (discord.py is the
optional `[discord]` extra). The gateway runs on the asyncio loop; every
message goes through one asyncio queue to one worker thread that owns the
opened Agent (SQLite connections belong to the thread that opened them), so
messages are handled one at a time in arrival order and the synchronous
cycle never blocks the gateway heartbeat.

Catch-up: on start and after every reconnect (`on_ready`, `on_resumed`) a
marker goes through the same queue; when the worker reaches it, each watched
channel's history after the last message seen there is read oldest first
and handled in line. A message both caught up and delivered live is handled
once (the Listener remembers ids); a message read again after a crash is
safe (the ledger sends no second command).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import signal
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import timedelta
from typing import Any, AsyncIterator, Callable, Collection, Mapping, Protocol
from urllib.parse import urlsplit

import discord

from karakuri_agent.app.config import Settings
from karakuri_agent.app.cycle import configured_reporter
from karakuri_agent.app.listen.listener import Listener, Message
from karakuri_agent.errors import ConfigError
from karakuri_agent.report.reporters import DiscordChannelReporter, Reporter

log = logging.getLogger(__name__)


class Fed(Protocol):
    """What the bot feeds: one agent's Listener, or a fleet's router (app/listen/fleet_run.py)."""

    @property
    def last_seen(self) -> Mapping[str, str]: ...

    def handle(self, message: Message, *, catching_up: bool = False) -> Any: ...

# With no message seen yet in a channel (a first start), catch up on this much of its history:
# a notification expires within minutes, so older messages could only be recorded as expired.
FIRST_START_WINDOW = timedelta(minutes=15)
_CATCH_UP = object()
_STOP = object()


def message_of(message: Any) -> Message:
    """The agent's view of a discord.Message (or anything with the same attributes)."""
    return Message(message.content or "", str(message.author.id), str(message.channel.id), str(message.id))


def webhook_id_of(url: str) -> int | None:
    """The id in `.../api/webhooks/<id>/<token>`: messages carrying it are the agent's own reports."""
    parts = urlsplit(url).path.strip("/").split("/")
    if "webhooks" in parts and len(parts) > parts.index("webhooks") + 1:
        candidate = parts[parts.index("webhooks") + 1]
        return int(candidate) if candidate.isdigit() else None
    return None


def is_own(message: Any, bot_user_id: int | None, report_webhook_ids: Collection[int]) -> bool:
    """The agents' own reports (a bot message or a post through a report webhook) are never handled."""
    if bot_user_id is not None and message.author.id == bot_user_id:
        return True
    return getattr(message, "webhook_id", None) in report_webhook_ids


async def history_after(channel: Any, last_seen: str | None) -> AsyncIterator[Any]:
    """The channel's messages after `last_seen` (or within FIRST_START_WINDOW), oldest first, all of them."""
    # An id that is not a snowflake (written by a `--stdin` producer) cannot be a starting point.
    after: Any = discord.utils.utcnow() - FIRST_START_WINDOW
    if last_seen is not None and last_seen.isascii() and last_seen.isdigit():
        after = discord.Object(id=int(last_seen))
    async for message in channel.history(after=after, oldest_first=True, limit=None):
        yield message


class ListenerBot(discord.Client):
    """The gateway side: events in, one queue, one worker thread holding the Listener."""

    def __init__(self, settings: Settings, open_listener: Callable[[Callable[[Message], Reporter | None]], Fed],
                 *, close_listener: Callable[[], None] = lambda: None, report_webhooks: Collection[str] = ()) -> None:
        """`open_listener` opens what the messages are fed to (one agent's Listener, or a fleet's router);
        `report_webhooks` are the fleet's agents' own webhooks beside the settings' (their posts are skipped)."""
        intents = discord.Intents.none()
        intents.guilds = True  # the channel cache, to find the watched channels
        intents.guild_messages = True
        intents.message_content = True  # privileged: enabled on the Developer Portal (docs/listen.md)
        for flag in ("warn_nacl", "warn_dave"):  # the agent never speaks in voice: no start-up warning about it
            if hasattr(discord.VoiceClient, flag):
                setattr(discord.VoiceClient, flag, False)
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
        self.settings = settings
        self._open_listener = open_listener
        self._close_listener = close_listener
        self._webhook = configured_reporter(settings)
        urls = [*report_webhooks, *([settings.webhook_url.get()] if settings.webhook_url else [])]
        self._report_webhook_ids = frozenset(i for i in map(webhook_id_of, urls) if i is not None)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="karakuri-agent")
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._consumer: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: Fed | None = None
        self._stopping = False

    @property
    def listener(self) -> Fed:
        """The Agent's listener, opened by setup_hook before any message is consumed."""
        if self._listener is None:
            raise RuntimeError("the listener is used before setup_hook opened it")
        return self._listener

    # -- lifetime ------------------------------------------------------------------
    async def setup_hook(self) -> None:
        """Open the Agent once, in the worker thread that will use it, and start consuming."""
        self._loop = asyncio.get_running_loop()
        self._listener = await self._in_worker(self._open_listener, self._reporter_for)
        self._consumer = asyncio.create_task(self._consume())

    async def close(self) -> None:
        """Finish the message in hand, start nothing new, close the Agent, then the gateway."""
        if not self._stopping:
            self._stopping = True
            self._queue.put_nowait(_STOP)
            if self._consumer is not None:
                await self._consumer
            await self._in_worker(self._close_listener)  # whatever was opened, even if opening failed halfway
            self._worker.shutdown(wait=True)
        await super().close()

    async def _in_worker(self, func: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._worker, func, *args)

    # -- events --------------------------------------------------------------------
    async def on_ready(self) -> None:
        log.info("connected to Discord as %s; catching up", self.user)
        self._queue.put_nowait(_CATCH_UP)

    async def on_resumed(self) -> None:
        log.info("reconnected to Discord; catching up")
        self._queue.put_nowait(_CATCH_UP)

    async def on_message(self, message: discord.Message) -> None:
        if not self._stopping and not self._own(message):
            self._queue.put_nowait(message_of(message))

    def _own(self, message: Any) -> bool:
        return is_own(message, self.user.id if self.user else None, self._report_webhook_ids)

    # -- the one consumer ----------------------------------------------------------
    async def _consume(self) -> None:
        while True:
            item = await self._queue.get()
            if self._stopping or item is _STOP:
                return
            try:
                if item is _CATCH_UP:
                    await self.catch_up()
                else:
                    await self._in_worker(self.listener.handle, item)
            except Exception:  # a bug must not silently end the only consumer: log it, take the next item
                log.exception("the message loop failed on one item; going on with the next")

    async def catch_up(self) -> None:
        """Each watched channel's missed messages, oldest first, through the worker; stops early on a stop."""
        for channel_id in sorted(self.settings.channel_ids):
            channel = self.get_channel(int(channel_id))
            if channel is None:
                try:
                    channel = await self.fetch_channel(int(channel_id))
                except discord.DiscordException as exc:
                    log.warning("channel %s cannot be read (%s); check KARAKURI_CHANNEL_IDS and the bot's"
                                " permissions", channel_id, type(exc).__name__)
                    continue
            try:
                async for message in history_after(channel, self.listener.last_seen.get(channel_id)):
                    if self._stopping:
                        return
                    if not self._own(message):
                        await self._in_worker(functools.partial(self.listener.handle, message_of(message),
                                                                catching_up=True))
            except discord.DiscordException as exc:
                log.warning("catching up on channel %s failed (%s); the next reconnect tries again",
                            channel_id, type(exc).__name__)

    def _reporter_for(self, message: Message) -> Reporter | None:
        """The webhook when configured, otherwise a bot message in the message's own channel."""
        if self._webhook is not None:
            return self._webhook
        channel = self.get_channel(int(message.channel_id)) if message.channel_id.isdigit() else None
        if channel is None or self._loop is None:
            return None
        return DiscordChannelReporter(channel, self._loop, self.settings.webhook_budget)


def check_settings(settings: Settings) -> None:
    """What the bot cannot start without: ConfigError naming the variable."""
    if settings.discord_bot_token is None:
        raise ConfigError("DISCORD_BOT_TOKEN is not set (see docs/listen.md), or use --stdin")
    if not settings.channel_ids:
        raise ConfigError("KARAKURI_CHANNEL_IDS is not set: the ids of the channels the world posts in")


def run(settings: Settings, open_agent: Callable[[ExitStack], Any]) -> None:
    """Run the bot for one agent until SIGTERM/SIGINT; a refused token or a missing intent is a ConfigError."""
    def open_listener(stack: ExitStack, reporter_for: Callable[[Message], Reporter | None]) -> Fed:
        return Listener(open_agent(stack), reporter_for=reporter_for)

    serve(settings, open_listener)


def serve(settings: Settings, open_listener: Callable[[ExitStack, Callable[[Message], Reporter | None]], Fed], *,
          report_webhooks: Collection[str] = ()) -> None:
    """Run the bot until SIGTERM/SIGINT, feeding what `open_listener` opens (in the worker thread, closed
    with the stack it is given); a refused token or a missing intent is a ConfigError."""
    check_settings(settings)
    stack = ExitStack()

    token = settings.discord_bot_token
    assert token is not None  # check_settings said so

    bot = ListenerBot(settings, functools.partial(open_listener, stack), close_listener=stack.close,
                      report_webhooks=report_webhooks)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
        async with bot:
            await bot.start(token.get())

    try:
        asyncio.run(main())
    except discord.LoginFailure:
        raise ConfigError("Discord refused DISCORD_BOT_TOKEN; copy the bot's token again (docs/listen.md)") from None
    except discord.PrivilegedIntentsRequired:
        raise ConfigError("the bot needs the Message Content intent: enable it on the Developer Portal"
                          " (docs/listen.md)") from None
