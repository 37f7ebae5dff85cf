"""The resident loop's one step: a Discord message in, `Agent.handle`, the report out.

Shared by both sources (`listen --stdin` and the Discord bot), so they filter,
skip, remember and log alike. One `Listener` wraps one opened `Agent` and is
used from one thread, one message at a time, in arrival order.

What it adds to `Agent.handle`:

- the filters: only the configured channels and authors count;
- the Discord message ids it has seen, so a message delivered twice (a
  redelivery, a catch-up overlapping a live event) is handled once, and
  the id of the last one per channel, kept in the state, so a restart
  catches up from there (the ledger, not this, is what keeps a second
  *command* from being sent);
- one log line per message, and where its report goes.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Callable

from karakuri_agent.app.config import Settings, debug_enabled
from karakuri_agent.app.cycle import Agent, HandleResult, outcome_word
from karakuri_agent.errors import UsageError
from karakuri_agent.memory.knowledge import LAST_SEEN as LAST_SEEN_KEY
from karakuri_agent.report.reporters import Reporter

log = logging.getLogger(__name__)

# The state's knowledge entry holding {channel id: the last message id handled there}.
# How many message ids are remembered in memory to drop a redelivery (far more than a catch-up reads).
RECENT_IDS = 4096


@dataclass(frozen=True)
class Message:
    """What the agent needs from a Discord message, whichever source it came from."""

    content: str
    author_id: str = ""
    channel_id: str = ""
    message_id: str = ""


def counts(message: Message, settings: Settings) -> bool:
    """Whether the message is one to handle: from a watched channel and a world author (when those are set)."""
    if settings.channel_ids and message.channel_id not in settings.channel_ids:
        return False
    return not settings.world_author_ids or message.author_id in settings.world_author_ids


def became(result: HandleResult) -> str:
    """The log's outcome word: what was sent, or why nothing was (the error code, e.g. notification_expired)."""
    if result.outcome is None and result.error is not None:
        return result.error["error"]
    return outcome_word(result)


def expired(result: HandleResult) -> bool:
    return result.outcome is None and result.error is not None and result.error["error"] == "notification_expired"


class Listener:
    """One opened Agent fed message after message; not thread-safe (one worker calls it)."""

    def __init__(self, agent: Agent, *, reporter_for: Callable[[Message], Reporter | None] = lambda m: None,
                 name: str = "") -> None:
        self.agent = agent
        self._who = f"{name}: " if name else ""  # a fleet's log names the agent before each line
        self._reporter_for = reporter_for
        self._settings = agent.runtime.settings
        self._store = agent.runtime.store
        entry = self._store.knowledge(LAST_SEEN_KEY)
        self.last_seen: dict[str, str] = dict(entry["value"]) if entry and isinstance(entry["value"], dict) else {}
        self._recent: OrderedDict[tuple[str, str], None] = OrderedDict()

    def handle(self, message: Message, *, catching_up: bool = False) -> HandleResult | None:
        """Handle one message; the result when it carried a notification id, None otherwise.

        Never raises for a message's sake: a malformed id or an internal error
        is one log line, and the loop goes on with the next message.
        """
        if not counts(message, self._settings):
            log.debug("message %s skipped: not from a watched channel and world author", message.message_id or "-")
            return None
        if self._seen(message):
            log.debug("message %s skipped: already seen", message.message_id)
            return None
        started = time.perf_counter()
        try:
            result = self.agent.handle(message.content, remember=lambda: self._remember(message))
        except UsageError as exc:
            log.warning("%smessage %s skipped: %s", self._who, message.message_id or "-", exc.message)
            with self._store.batch():
                self._remember(message)
            return None
        except Exception as exc:  # a bug must not stop a resident process; the ledger keeps a retry safe
            if debug_enabled():
                log.exception("%smessage %s: internal error", self._who, message.message_id or "-")
            else:
                log.error("%smessage %s: internal error (%s); set KARAKURI_DEBUG=1 for details",
                          self._who, message.message_id or "-", type(exc).__name__)
            return None
        if result.notification_id is None:
            log.debug("message %s: no notification id, nothing to do", message.message_id or "-")
            return None
        result, posted = self._post(message, result, catching_up=catching_up)
        self._log(message, result, posted, (time.perf_counter() - started) * 1000)
        return result

    def _seen(self, message: Message) -> bool:
        if not message.message_id:
            return False
        key = (message.channel_id, message.message_id)
        return key in self._recent or self.last_seen.get(message.channel_id) == message.message_id

    def _remember(self, message: Message) -> None:
        """Keep the id (in memory, and the channel's last one in the state, for the next catch-up).

        Called by `Agent.handle` inside the transaction of the run's own report
        entry: one commit for both.
        """
        if not message.message_id:
            return
        self._recent[(message.channel_id, message.message_id)] = None
        if len(self._recent) > RECENT_IDS:
            self._recent.popitem(last=False)
        self.last_seen[message.channel_id] = message.message_id
        self._store.set_knowledge(LAST_SEEN_KEY, self.last_seen)

    def _post(self, message: Message, result: HandleResult, *, catching_up: bool) -> tuple[HandleResult, str]:
        """Post the report; an expired notification met while catching up is recorded and logged, not posted.

        The result with what the post did, and one word for the log line."""
        reporter = self._reporter_for(message)
        if reporter is None:
            return result, "not_posted"
        if catching_up and expired(result):
            return result, "skipped"
        result = replace(result, webhook=reporter.post(result.report))
        if result.webhook is not None and not result.webhook.delivered:
            return result, "failed"
        return result, "posted"

    def _log(self, message: Message, result: HandleResult, posted: str, ms: float) -> None:
        """One line per message: ids, decision, outcome, where the report went, milliseconds."""
        decision = result.decision.command if result.decision and result.decision.command else "none"
        line = (f"{self._who}message {message.message_id or '-'} {result.notification_id} decision={decision}"
                f" outcome={became(result)} report={posted} {ms:.0f} ms")
        if result.error and not expired(result):
            log.warning("%s: %s. %s", line, result.error["message"].rstrip("."), result.error["what_to_do"])
        else:
            log.info("%s", line)
