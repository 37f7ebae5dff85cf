"""`listen --fleet`: many agents in one resident process, each fed the messages of its own channels.

One `Listener` per agent (its own Agent, state, key, pack and reports), one
`Fleet` routing each message by its channel. Each agent's messages are
handled one after another, in arrival order, as a one-agent `listen` does;
different agents go in parallel on a bounded pool of worker threads, so one
agent's slow server or model holds one worker, never the others. What is the
same for all is shared: the process, the analyzer (reading/morphemes.py), one
HTTP connection pool per server, a pack loaded once per directory.

An agent's Agent is used by one worker at a time (its lane runs one message
at a time), not always the same one: the SQLite connection is opened for
that (state/sqlite/guard.py).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from karakuri_agent.app.fleet import Member
from karakuri_agent.app.listen.listener import Listener, Message
from karakuri_agent.errors import ConfigError

if TYPE_CHECKING:
    import httpx

    from karakuri_agent.app.cycle import HandleResult
    from karakuri_agent.mind.persona import Persona
    from karakuri_agent.report.reporters import Reporter

log = logging.getLogger(__name__)

# Workers by default: enough that a few slow servers or models do not hold the rest, few enough
# for a small machine (the work itself is mostly waiting on the network).
DEFAULT_WORKERS = 8
# Open files an agent may hold (the database, its -wal and -shm, a lock) and the process's own beside them.
FILES_PER_AGENT = 6
FILES_SPARE = 256


class _Lane:
    """One agent's queue: its messages one after another, on whichever worker is free."""

    def __init__(self, listener: Listener) -> None:
        self.listener = listener
        self.waiting: deque[tuple[Message, bool]] = deque()
        self.running = False


class Fleet:
    """Routes each message to the agent whose channels hold it; agents in parallel, each in order.

    `handle` only queues (it returns at once, None); `on_result` sees each
    agent's result as its worker finishes it (the stdin source prints it).
    """

    def __init__(self, listeners: list[Listener], *, workers: int = DEFAULT_WORKERS,
                 on_result: Callable[[HandleResult], None] = lambda result: None) -> None:
        self._lanes = [_Lane(listener) for listener in listeners]
        self._by_channel = {channel: lane for lane in self._lanes
                            for channel in lane.listener.agent.runtime.settings.channel_ids}
        self._pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="karakuri-fleet")
        self._lock = threading.Lock()
        self._on_result = on_result
        self._stopping = False

    @property
    def last_seen(self) -> dict[str, str]:
        """The last message id handled in each channel, over every agent (where a catch-up starts)."""
        return {channel: seen for lane in self._lanes for channel, seen in list(lane.listener.last_seen.items())}

    def handle(self, message: Message, *, catching_up: bool = False) -> None:
        """Queue the message on its agent's lane; a message of no agent's channel is one log line."""
        lane = self._by_channel.get(message.channel_id)
        if lane is None:
            log.info("message %s skipped: channel %s is no agent's of this fleet", message.message_id or "-",
                     message.channel_id or "(none)")
            return
        with self._lock:
            if self._stopping:
                return
            lane.waiting.append((message, catching_up))
            if lane.running:
                return
            lane.running = True
        self._pool.submit(self._run, lane)

    def _run(self, lane: _Lane) -> None:
        """Handle the lane's messages until it is empty (or the fleet stops: the one in hand is finished)."""
        while True:
            with self._lock:
                if not lane.waiting or self._stopping:
                    lane.running = False
                    return
                message, catching_up = lane.waiting.popleft()
            result = lane.listener.handle(message, catching_up=catching_up)  # never raises for a message's sake
            if result is not None:
                try:
                    self._on_result(result)
                except Exception:  # a closed stdout must not stop the lane: the report is in the state
                    log.exception("a report could not be written out")

    def close(self, *, finish_queued: bool) -> None:
        """Wait for the workers: every queued message handled (end of input), or only those in hand (a stop)."""
        if not finish_queued:
            with self._lock:
                self._stopping = True
        self._pool.shutdown(wait=True)


def open_listeners(stack: ExitStack, members: list[Member], *,
                   reporter_for: Callable[[Member], Callable[[Message], Reporter | None]]) -> list[Listener]:
    """Every agent opened once, closed with `stack`: its own state and key; a pack read once per directory
    and one connection pool per server, shared. A pack that is broken stops the fleet here (ConfigError)."""
    from karakuri_agent.app.client import connection_pool
    from karakuri_agent.app.cycle import Agent
    from karakuri_agent.app.operations import load_configured_persona

    _room_for(len(members))
    pools: dict[tuple[str, float], httpx.Client] = {}
    packs: dict[Path | None, Persona] = {}
    listeners = []
    for member in members:
        settings = member.settings
        where = (settings.api_base_url, settings.http_timeout)
        if where not in pools:
            pools[where] = stack.enter_context(connection_pool(*where))
        if settings.persona_dir not in packs:
            try:
                packs[settings.persona_dir] = load_configured_persona(settings)
            except ConfigError as exc:
                raise ConfigError(f"{member.env_file}: {exc.message}") from None
        agent = stack.enter_context(Agent.open(settings, persona=packs[settings.persona_dir], pool=pools[where]))
        listeners.append(Listener(agent, reporter_for=reporter_for(member), name=member.name))
    return listeners


def _room_for(agents: int) -> None:
    """Raise the soft limit on open files toward the hard one: each agent keeps its database open (with
    SQLite its journal files too), and a common soft limit of 1,024 would stop a fleet of a few hundred."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FILES_PER_AGENT * agents + FILES_SPARE
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard))


def from_stdin(members: list[Member], workers: int) -> None:
    """`listen --fleet --stdin`: JSON lines routed by `channel_id`; one report line per notification, as
    each agent's worker finishes it. End of input: every queued message is handled; a signal: those in hand."""
    import sys

    from karakuri_agent.app.cycle import configured_reporter
    from karakuri_agent.app.listen import stdin
    from karakuri_agent.terminal import shown

    printing = threading.Lock()

    def write(result: HandleResult) -> None:
        with printing:
            print(shown(result.report), file=sys.stdout, flush=True)

    if hasattr(sys.stdin, "reconfigure"):  # bytes that are not UTF-8 make a bad line, not a dead listener
        sys.stdin.reconfigure(errors="replace")
    webhooks = {member.env_file: configured_reporter(member.settings) for member in members}
    with ExitStack() as stack:
        fleet = Fleet(open_listeners(stack, members, reporter_for=lambda m: lambda message: webhooks[m.env_file]),
                      workers=workers, on_result=write)
        stopped = stdin.run(fleet, sys.stdin, sys.stdout)
        fleet.close(finish_queued=not stopped)


def from_discord(bot: Any, members: list[Member], workers: int) -> None:
    """`listen --fleet` on Discord: one bot (one DISCORD_BOT_TOKEN for all) reading every agent's channels;
    each report goes through its agent's webhook, else as a bot message in the channel it answers."""
    import dataclasses

    from karakuri_agent.app.cycle import configured_reporter

    tokens = {m.settings.discord_bot_token.get() for m in members if m.settings.discord_bot_token}
    if len(tokens) > 1:
        raise ConfigError("the agents' env files name different DISCORD_BOT_TOKENs; one bot reads every agent's"
                          " channel (set it once, in the environment)")
    # The bot's own settings: the first agent's, reading every agent's channels, posting through no webhook
    # of its own (each agent's reports go through that agent's).
    hub = dataclasses.replace(members[0].settings, webhook_url=None,
                              channel_ids=frozenset().union(*(m.settings.channel_ids for m in members)))

    def open_fleet(stack: ExitStack, in_channel: Callable[[Message], Reporter | None]) -> Fleet:
        def reporter_for(member: Member) -> Callable[[Message], Reporter | None]:
            webhook = configured_reporter(member.settings)
            return (lambda message: webhook) if webhook is not None else in_channel

        fleet = Fleet(open_listeners(stack, members, reporter_for=reporter_for), workers=workers)
        stack.callback(fleet.close, finish_queued=False)
        return fleet

    bot.serve(hub, open_fleet, report_webhooks=[m.settings.webhook_url.get() for m in members if m.settings.webhook_url])
