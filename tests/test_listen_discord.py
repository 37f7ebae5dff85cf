"""`listen` on Discord, without the network: discord.py's own client and objects, fake channels.

The bot is the real `ListenerBot` (a discord.Client) that never logs in; the
channels are stand-ins with discord.py's `history()`/`send()` signatures; the
listener behind it records what reached it.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

discord = pytest.importorskip("discord")

from karakuri_agent.app.cli import agent  # noqa: E402
from karakuri_agent.app.config import load_settings  # noqa: E402
from karakuri_agent.app.listen.bot import (  # noqa: E402
    FIRST_START_WINDOW, ListenerBot, history_after, is_own, message_of, webhook_id_of)
from karakuri_agent.app.listen.listener import Message  # noqa: E402
from karakuri_agent.report.reporters import DiscordChannelReporter, WebhookReporter  # noqa: E402

WORLD, BOT, HOOK = 555000111, 666000333, 888000444
WEBHOOK_URL = f"https://discord.test/api/webhooks/{HOOK}/hook-token-do-not-leak"
WAIT = 60  # seconds: a bound for a worker thread on a loaded machine, never reached when things work


def sent_by(author_id: int, message_id: int, channel_id: int, content: str = "", webhook_id: int | None = None) -> Any:
    """A discord.Message as the bot sees it: the attributes the listener reads."""
    return SimpleNamespace(id=message_id, content=content, author=SimpleNamespace(id=author_id),
                           channel=SimpleNamespace(id=channel_id), webhook_id=webhook_id)


class FakeChannel:
    """A text channel: `history()` as discord.py's (keyword arguments, async iterator), `send()` recorded."""

    def __init__(self, channel_id: int, messages: list[Any], fail: bool = False) -> None:
        self.id = channel_id
        self.messages = messages
        self.history_calls: list[dict[str, Any]] = []
        self.sent: list[tuple[str, Any]] = []
        self.fail = fail

    def history(self, *, limit: int | None = 100, before: Any = None, after: Any = None, around: Any = None,
                oldest_first: bool | None = None):
        self.history_calls.append({"limit": limit, "after": after, "oldest_first": oldest_first})
        after_id = after.id if isinstance(after, discord.Object) else 0
        chosen = sorted((m for m in self.messages if m.id > after_id), key=lambda m: m.id,
                        reverse=not oldest_first)

        async def iterate():
            for message in chosen:
                yield message
        return iterate()

    async def send(self, content: str, *, allowed_mentions: Any = None) -> None:
        if self.fail:
            raise discord.DiscordException("Missing Permissions")
        self.sent.append((content, allowed_mentions))


class Records:
    """The listener behind the bot: what reached it, from which thread, and whether it was catch-up."""

    def __init__(self, last_seen: dict[str, str] | None = None, expect: int = 0,
                 hold: threading.Event | None = None) -> None:
        self.last_seen = last_seen or {}
        self.calls: list[tuple[Message, bool]] = []
        self.threads: set[str] = set()
        self.expect = expect
        self.done = threading.Event()
        self.started = threading.Event()
        self.hold = hold

    def handle(self, message: Message, *, catching_up: bool = False) -> None:
        self.threads.add(threading.current_thread().name)
        self.started.set()
        if self.hold is not None:
            assert self.hold.wait(WAIT)
        self.calls.append((message, catching_up))
        if len(self.calls) >= self.expect:
            self.done.set()


@pytest.fixture
def settings(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_CHANNEL_IDS", "10,20")
    monkeypatch.setenv("KARAKURI_WORLD_AUTHOR_IDS", str(WORLD))
    monkeypatch.delenv("DISCORD_WEBHOOK_URL", raising=False)
    return load_settings()


def bot_with(settings, listener: Records, channels: dict[int, FakeChannel], closed: list[str] | None = None):
    bot = ListenerBot(settings, lambda reporter_for: listener,
                      close_listener=lambda: closed.append(threading.current_thread().name) if closed is not None
                      else None)
    bot.get_channel = channels.get  # the gateway's channel cache, without a gateway
    return bot


# -- pure pieces ---------------------------------------------------------------------------
def test_a_discord_message_becomes_string_ids():
    assert message_of(sent_by(WORLD, 101, 10, "notification_id: notif-a")) == Message(
        "notification_id: notif-a", str(WORLD), "10", "101")


def test_own_reports_are_the_bots_messages_and_the_report_webhooks_posts_only():
    assert is_own(sent_by(BOT, 1, 10), BOT, {HOOK})
    assert is_own(sent_by(HOOK, 1, 10, webhook_id=HOOK), BOT, {HOOK})
    assert not is_own(sent_by(WORLD, 1, 10, webhook_id=WORLD), BOT, {HOOK})  # the world posting via its own webhook
    assert not is_own(sent_by(WORLD, 1, 10), None, ())


def test_the_report_webhook_id_is_read_from_its_url():
    assert webhook_id_of(WEBHOOK_URL) == HOOK
    assert webhook_id_of("https://relay.test/post") is None


def test_the_client_asks_for_message_content_and_mentions_nothing(settings):
    bot = bot_with(settings, Records(), {})
    assert bot.intents.message_content and bot.intents.guild_messages
    assert bot.allowed_mentions.to_dict() == discord.AllowedMentions.none().to_dict()


# -- catch-up and the queue ------------------------------------------------------------------
def test_a_last_seen_id_that_is_no_snowflake_catches_up_on_the_recent_window_only():
    channel = FakeChannel(10, [sent_by(WORLD, 7, 10)])

    async def read() -> list[Any]:
        return [m async for m in history_after(channel, "stdin-line-7")]

    assert [m.id for m in asyncio.run(read())] == [7]
    after = channel.history_calls[0]["after"]
    assert not isinstance(after, discord.Object)
    assert timedelta(0) <= discord.utils.utcnow() - after - FIRST_START_WINDOW < timedelta(minutes=1)


def test_catch_up_reads_after_the_last_seen_oldest_first_then_live_messages_in_order(settings):
    ten = FakeChannel(10, [sent_by(WORLD, 103, 10, "c"), sent_by(WORLD, 99, 10, "old"), sent_by(WORLD, 101, 10, "a"),
                           sent_by(BOT, 102, 10, "own report")])
    twenty = FakeChannel(20, [sent_by(WORLD, 201, 20, "d")])
    listener = Records(last_seen={"10": "100"}, expect=5)
    bot = bot_with(settings, listener, {10: ten, 20: twenty})
    bot._connection.user = SimpleNamespace(id=BOT)  # as after login

    async def scenario() -> None:
        await bot.setup_hook()
        await bot.on_ready()
        await bot.on_message(sent_by(WORLD, 104, 10, "live"))
        await bot.on_message(sent_by(BOT, 105, 10, "own report, live"))
        await bot.on_message(sent_by(WORLD, 202, 20, "live too"))
        assert await asyncio.to_thread(listener.done.wait, WAIT)
        await bot.close()

    asyncio.run(scenario())
    assert [(m.message_id, catching_up) for m, catching_up in listener.calls] == [
        ("101", True), ("103", True), ("201", True), ("104", False), ("202", False)]
    assert len(listener.threads) == 1  # one worker thread, the one that opened the Agent
    assert ten.history_calls == [{"limit": None, "after": ten.history_calls[0]["after"], "oldest_first": True}]
    assert ten.history_calls[0]["after"].id == 100
    first_start = twenty.history_calls[0]["after"]  # no message seen there yet: the recent window only
    assert timedelta(0) <= discord.utils.utcnow() - first_start - FIRST_START_WINDOW < timedelta(minutes=1)


class Lane(Records):
    """One fleet agent's listener (app/listen/fleet_run.py routes by its channels)."""

    def __init__(self, channel: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.agent = SimpleNamespace(runtime=SimpleNamespace(settings=SimpleNamespace(channel_ids={channel})))


def test_a_fleet_behind_the_bot_gets_each_agents_channel_caught_up_and_live_and_skips_their_webhooks(settings):
    from karakuri_agent.app.listen.fleet_run import Fleet

    hook_20 = 888000333
    ten = FakeChannel(10, [sent_by(WORLD, 101, 10, "a"), sent_by(WORLD, 103, 10, "c")])
    twenty = FakeChannel(20, [sent_by(WORLD, 201, 20, "d"), sent_by(hook_20, 202, 20, "its report", hook_20)])
    first, second = Lane("10", last_seen={"10": "100"}, expect=3), Lane("20", expect=2)
    fleet = Fleet([first, second], workers=2)  # type: ignore[list-item]
    bot = ListenerBot(settings, lambda reporter_for: fleet, close_listener=lambda: fleet.close(finish_queued=True),
                      report_webhooks=[f"https://discord.com/api/webhooks/{hook_20}/token-of-20"])
    bot.get_channel = {10: ten, 20: twenty}.get

    async def scenario() -> None:
        await bot.setup_hook()
        await bot.on_ready()
        await bot.on_message(sent_by(WORLD, 104, 10, "live"))
        await bot.on_message(sent_by(WORLD, 203, 20, "live too"))
        assert await asyncio.to_thread(first.done.wait, WAIT) and await asyncio.to_thread(second.done.wait, WAIT)
        await bot.close()

    asyncio.run(scenario())
    assert [(m.message_id, up) for m, up in first.calls] == [("101", True), ("103", True), ("104", False)]
    assert [(m.message_id, up) for m, up in second.calls] == [("201", True), ("203", False)]  # its own report skipped
    assert ten.history_calls[0]["after"].id == 100  # where the first agent's channel was left


def test_close_finishes_the_message_in_hand_starts_nothing_new_and_closes_the_agent_in_its_thread(settings):
    release = threading.Event()
    listener = Records(hold=release)
    closed: list[str] = []
    bot = bot_with(settings, listener, {}, closed)

    async def scenario() -> None:
        await bot.setup_hook()
        await bot.on_message(sent_by(WORLD, 1, 10, "first"))
        await bot.on_message(sent_by(WORLD, 2, 10, "second"))
        assert await asyncio.to_thread(listener.started.wait, WAIT)
        closing = asyncio.create_task(bot.close())
        await asyncio.sleep(0)  # let close() mark the stop before the first message is released
        release.set()
        await closing

    asyncio.run(scenario())
    assert [m.message_id for m, _ in listener.calls] == ["1"]
    assert closed == list(listener.threads)


# -- reports -------------------------------------------------------------------------------
def test_without_a_webhook_the_report_is_a_bot_message_in_its_channel_with_mentions_disabled(settings):
    channel = FakeChannel(10, [])
    bot = bot_with(settings, Records(), {10: channel})

    async def scenario() -> Any:
        await bot.setup_hook()
        reporter = bot._reporter_for(Message("x", str(WORLD), "10", "1"))
        assert isinstance(reporter, DiscordChannelReporter)
        result = await asyncio.to_thread(reporter.post, "からくり: 会話の誘いを確認。@everyone")
        await bot.close()
        return result

    result = asyncio.run(scenario())
    assert result.delivered
    ((content, mentions),) = channel.sent
    assert content == "からくり: 会話の誘いを確認。@everyone"
    assert (mentions.everyone, mentions.users, mentions.roles, mentions.replied_user) == (False, False, False, False)


def test_a_refused_channel_post_is_a_lost_report_not_an_error(settings):
    channel = FakeChannel(10, [], fail=True)
    bot = bot_with(settings, Records(), {10: channel})

    async def scenario() -> Any:
        await bot.setup_hook()
        result = await asyncio.to_thread(bot._reporter_for(Message("x", "", "10", "1")).post, "からくり: …")
        await bot.close()
        return result

    assert not asyncio.run(scenario()).delivered


def test_with_a_webhook_the_report_goes_there(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_CHANNEL_IDS", "10")
    monkeypatch.setenv("DISCORD_WEBHOOK_URL", WEBHOOK_URL)
    bot = bot_with(load_settings(), Records(), {10: FakeChannel(10, [])})
    assert isinstance(bot._reporter_for(Message("x", "", "10", "1")), WebhookReporter)


# -- the command ---------------------------------------------------------------------------
@pytest.mark.parametrize("variables, problem", [
    ({"KARAKURI_CHANNEL_IDS": "10"}, "DISCORD_BOT_TOKEN is not set"),
    ({"DISCORD_BOT_TOKEN": "bot-token-do-not-leak"}, "KARAKURI_CHANNEL_IDS is not set"),
])
def test_listen_on_discord_without_its_settings_stops_with_exit_2(env, monkeypatch, variables, problem):
    for name in ("DISCORD_BOT_TOKEN", "KARAKURI_CHANNEL_IDS", "KARAKURI_WORLD_AUTHOR_IDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(agent, ["listen"])
    assert result.exit_code == 2 and problem in result.output
    assert "bot-token-do-not-leak" not in result.output


@pytest.mark.parametrize("refusal, problem", [
    (lambda: discord.LoginFailure("Improper token has been passed."), "Discord refused DISCORD_BOT_TOKEN"),
    (lambda: discord.PrivilegedIntentsRequired(None), "Message Content intent"),
])
def test_a_refused_token_or_a_missing_intent_is_a_configuration_error(settings, monkeypatch, refusal, problem):
    from karakuri_agent.errors import ConfigError
    from karakuri_agent.app.listen import bot

    async def refused(self, token: str, *, reconnect: bool = True) -> None:
        raise refusal()

    monkeypatch.setattr(ListenerBot, "start", refused)  # what discord.py's login or connect raises
    monkeypatch.setenv("DISCORD_BOT_TOKEN", "bot-token-do-not-leak")
    with pytest.raises(ConfigError, match=problem) as raised:
        bot.run(load_settings(), lambda stack: None)
    assert "bot-token-do-not-leak" not in str(raised.value)
