"""The one-line Discord report (CONTRACT §5), and posting it.

A person reading the channel should be able to follow the agent's day: the
line names the place, the action, the partner, the item or amount, and the
promise being kept (`本屋への移動を始めました（到着予定 21:40）`). It is
assembled from the fixed Japanese phrases below, clock times, and the names
in `ReportFacts`, which pass `_plain` first: anything that looks like an id,
a forbidden word (internal terms, `マスター`), a mention, a link or a second
line is dropped and the phrase falls back to its generic form. Speech and
server messages are never inserted.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Literal

from karakuri_agent.domain.notification import parse_timestamp
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.ja import place_words
from karakuri_agent.ja import report_phrases
from karakuri_agent.ja.report_phrases import (  # re-exported: callers name them as line.X
    ACTIONS as ACTIONS,
    ALREADY_HANDLED as ALREADY_HANDLED,
    COOLING_DOWN as COOLING_DOWN,
    DEFAULT_ACTION as DEFAULT_ACTION,
    DEFAULT_SUMMARY as DEFAULT_SUMMARY,
    DISABLED as DISABLED,
    EXPIRED as EXPIRED,
    FAILED as FAILED,
    FORBIDDEN as FORBIDDEN,
    INTERRUPTED as INTERRUPTED,
    NO_CHOICES as NO_CHOICES,
    NO_ID as NO_ID,
    PREFIX as PREFIX,
    PROCESSED as PROCESSED,
    QUOTE_PAIRS as QUOTE_PAIRS,
    STALE as STALE,
    SUMMARIES as SUMMARIES,
    UNKNOWN_OUTCOME as UNKNOWN_OUTCOME,
    UNSAFE as UNSAFE,
)
from karakuri_agent.ja.safety import ID_LIKE
from karakuri_agent.terminal import shown


@dataclass(frozen=True)
class ReportFacts:
    """What the report may name, in the words people use; None when unknown.

    Filled by whoever knows the notification (the policy's view of it), read
    only here. Names only, never ids: an id-like value is dropped when the
    line is written.
    """

    place: str | None = None  # where the action happens, or where the move goes
    action: str | None = None  # what is done there: "お茶を買う"
    partner: str | None = None  # who is answered, met, given to or received from
    item: str | None = None  # what changes hands: "ポップコーン", "300円"
    promise: bool = False  # the move or the wait keeps a promise made for `place`
    gift: str = ""  # a turn's answer to an offer made in the conversation: "accept" or "reject"


NO_FACTS = ReportFacts()
_ASCII_WORD = re.compile(r"[\x21-\x7e]+")  # `tea`, `book`: an item or action id, not its name


def _unquoted(text: str) -> str:
    """`text` without the quotes around it, keeping those inside: 「栞」 is 栞, 本屋「栞」 stays whole.

    A stray quote at an edge, with no partner in the name, goes too (a name cut short).
    """
    text = text.strip(" ")
    while len(text) >= 2 and QUOTE_PAIRS.get(text[0]) == text[-1]:
        text = text[1:-1].strip(" ")
    if text and text[0] in QUOTE_PAIRS and QUOTE_PAIRS[text[0]] not in text[1:]:
        text = text[1:].strip(" ")
    openers = {closer: opener for opener, closer in QUOTE_PAIRS.items()}
    if text and text[-1] in openers and openers[text[-1]] not in text[:-1]:
        text = text[:-1].strip(" ")
    return text


def _plain(name: str | None, *, person: bool = False, limit: int = 24) -> str | None:
    """The name if it is one a person would say, else None (the phrase goes generic).

    People may have plain ASCII names (`Bob`); things and places named only by
    an ASCII word are named by their id.
    """
    if not name:
        return None
    text = _unquoted(" ".join(str(name).split()))
    if not text or len(text) > limit or UNSAFE.search(text) or ID_LIKE.search(text) or shown(text) != text:
        return None
    if not person and _ASCII_WORD.fullmatch(text):
        return None
    if any(word.lower() in text.lower() for word in FORBIDDEN):
        return None
    return text


def _cleaned(facts: ReportFacts) -> ReportFacts:
    place = _plain(facts.place)
    return replace(
        facts,
        place=place_words.building(place) if place else None,
        action=_plain(facts.action),
        partner=_plain(facts.partner, person=True),
        item=_plain(facts.item),
    )


def described(command: str, facts: ReportFacts = NO_FACTS) -> tuple[str, str]:
    """(as planned, as done) for a command, as specific as the facts allow. No 。 at the end."""
    cleaned = _cleaned(facts)
    return report_phrases.described(command, place=cleaned.place, action=cleaned.action, item=cleaned.item,
                               partner=cleaned.partner, promise=cleaned.promise, gift=cleaned.gift) or ACTIONS.get(command, DEFAULT_ACTION)


def summary_of(notification_type: str) -> str:
    return SUMMARIES.get(notification_type, DEFAULT_SUMMARY)


def clock(value: Any) -> str | None:
    """HH:MM in Asia/Tokyo from Unix ms or ISO text, None if unreadable."""
    moment = parse_timestamp(value)
    return moment.astimezone(TOKYO).strftime("%H:%M") if moment else None


def action_report(notification_type: str, command: str, result: dict[str, Any], *,
                  facts: ReportFacts = NO_FACTS, newer: bool = False) -> str:
    """The report for a command the server accepted."""
    return report_phrases.accepted(summary_of(notification_type), described(command, facts)[1], newer=newer,
                              arrives=clock(result.get("arrives_at")), completes=clock(result.get("completes_at")))


def planned_report(notification_type: str, command: str, facts: ReportFacts = NO_FACTS) -> str:
    """The report of a dry run: what would be sent."""
    return report_phrases.planned(summary_of(notification_type), described(command, facts)[0])


def idle_report(notification_type: str, *, why: str = "") -> str:
    """Seen, nothing done: `why` is one of the fixed phrases below."""
    return report_phrases.idle(summary_of(notification_type), why)


# How one notification ended, as its report line tells it (`Ending.how`).
How = Literal["no_id", "disabled", "already_handled", "failed", "processed", "expired", "no_choices",
              "cooling_down", "idle", "planned", "sent", "unknown_outcome"]


@dataclass(frozen=True)
class Ending:
    """How one notification ended, as far as its report line needs to know: the cycle says what
    happened, `line_for` says it (the one place a report line is chosen)."""

    how: How
    notification_type: str = ""
    command: str = ""  # the command planned or sent
    result: dict[str, Any] = field(default_factory=dict)  # the server's answer to a sent command
    facts: ReportFacts = NO_FACTS
    idle_why: str = ""  # why nothing was done (ja/'s `…ため、` phrase), when there is one
    error_code: str | None = None  # a failure's code: notification_stale is told apart
    newer: bool = False  # acted on the newer notification a stale one pointed to


def line_for(ending: Ending) -> str:
    """The report line for how a notification ended."""
    kind = ending.notification_type
    fixed = {"no_id": NO_ID, "disabled": DISABLED, "already_handled": ALREADY_HANDLED, "processed": PROCESSED,
             "expired": EXPIRED, "unknown_outcome": UNKNOWN_OUTCOME}
    if ending.how in fixed:
        return fixed[ending.how]
    if ending.how == "failed":
        return STALE if ending.error_code == "notification_stale" else FAILED
    if ending.how == "sent":
        return action_report(kind, ending.command, ending.result, facts=ending.facts, newer=ending.newer)
    if ending.how == "planned":
        return planned_report(kind, ending.command, ending.facts)
    why = {"no_choices": NO_CHOICES, "cooling_down": COOLING_DOWN}.get(ending.how, ending.idle_why)
    return idle_report(kind, why=why)


@dataclass
class WebhookResult:
    delivered: bool
    attempts: int
    status: int | None = None


def post_to_discord(
    url: str,
    line: str,
    *,
    budget: float = 10.0,
    max_attempts: int = 3,
    sleep: Callable[[float], None] = time.sleep,
    send: Callable[[str, str, float], tuple[int, dict[str, Any]]] | None = None,
) -> WebhookResult:
    """Post the line with mentions disabled; sent again only when it surely did not arrive.

    That is a 429 (Discord said "not now") or an error raised before the
    request left the machine (`send` raises `MaybeArrived` for any failure
    after that: a timeout, a dropped answer). A 5xx, a redirect or any other
    answer ends it: the line may already be in the channel, and a report
    posted twice reads as two actions.

    Never raises: a webhook failure must not change what was done or recorded.
    `send` is the seam tests use; by default discord-webhook does the POST.
    """
    send = send or _send_with_discord_webhook
    started = time.monotonic()
    status: int | None = None
    for attempt in range(1, max_attempts + 1):
        remaining = budget - (time.monotonic() - started)
        try:
            status, body = send(url, line, max(0.5, min(remaining, 5.0)))
        except MaybeArrived:
            return WebhookResult(False, attempt, None)
        except Exception:  # refused, DNS, TLS before sending: the request never left
            status, body = None, {}
        if status is not None and 200 <= status < 300:
            return WebhookResult(True, attempt, status)
        if status is not None and status != 429:
            return WebhookResult(False, attempt, status)
        delay = _retry_delay(status, body, attempt)
        if attempt == max_attempts or time.monotonic() - started + delay > budget:
            return WebhookResult(False, attempt, status)
        sleep(delay)
    return WebhookResult(False, max_attempts, status)


def _retry_delay(status: int | None, body: dict[str, Any], attempt: int) -> float:
    retry_after = body.get("retry_after") if isinstance(body, dict) else None
    if status == 429 and isinstance(retry_after, (int, float)) and retry_after >= 0:
        return float(retry_after)
    return 0.5 * 2.0 ** (attempt - 1)


def webhook_payload(line: str) -> dict[str, Any]:
    """What is posted: the line, and no pings whatever it says."""
    return {"content": shown(line)[:2000], "allowed_mentions": {"parse": []}}


class MaybeArrived(Exception):
    """The webhook request failed after it may have reached Discord: it is not sent again."""


def _send_with_discord_webhook(url: str, line: str, timeout: float) -> tuple[int, dict[str, Any]]:
    import requests  # discord-webhook's own HTTP library, loaded with it
    from discord_webhook import DiscordWebhook  # imported here: it costs ~100 ms and is rarely needed

    payload = webhook_payload(line)
    hook = DiscordWebhook(url=url, content=payload["content"], allowed_mentions=payload["allowed_mentions"],
                          timeout=timeout, rate_limit_retry=False)
    # Not execute() (it parses every answer as JSON and raises on Discord's empty
    # 204, so the report would look undelivered and be posted again) and not
    # api_post_request() (requests follows a redirect, which would carry the
    # report to another host): the same POST, with redirects refused.
    try:
        response = requests.post(hook.url, json=hook.json, params=getattr(hook, "_query_params", None),
                                 timeout=timeout, allow_redirects=False)
    except requests.exceptions.RequestException as exc:
        if _never_sent(exc):
            raise ConnectionError("the webhook could not be reached") from None
        raise MaybeArrived(type(exc).__name__) from None
    try:
        body = response.json()
    except (ValueError, RecursionError):
        body = {}
    return response.status_code, body if isinstance(body, dict) else {}


def _never_sent(exc: Exception) -> bool:
    """requests' error for a connection that was never opened (refused, DNS, connect timeout)."""
    import requests
    from urllib3.exceptions import ConnectTimeoutError, MaxRetryError, NewConnectionError

    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return True
    reason = exc.args[0] if exc.args else None
    reason = reason.reason if isinstance(reason, MaxRetryError) else reason
    return isinstance(reason, (NewConnectionError, ConnectTimeoutError))
