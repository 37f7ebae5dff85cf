"""The HTTP client: the two calls of the contract, error mapping, retry policy.

The transport is a constructor argument (as in httpx itself): production uses
the network, dry runs use recorded fixtures, tests use respx. The client
never decides *whether* to act; it only makes sure that a GET may be repeated
and a POST never is, once it may have left the machine (CONTRACT §4).
"""

from __future__ import annotations

import email.utils
import logging
import time
from datetime import datetime, timezone
from typing import Any, Callable

import httpx

from karakuri_agent import outside
from karakuri_agent.errors import OutcomeUnknown, ServerRejected, ServerSlow, Unreachable
from karakuri_agent.reading.trigger import validate_notification_id
from karakuri_agent.secret import Secret, redact

log = logging.getLogger(__name__)
USER_AGENT = "karakuri-agent/0.1"
MAX_RETRY_AFTER = 30.0
# A command refused with 429 `rate_limited` (not taken) is sent at most this many times in all.
RATE_LIMITED_TRIES = 3
MIN_MASKED_SECRET = 8
# Raised before a single byte of the request was written: safe to send again.
NEVER_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)

_NOT_JSON = object()


def _json(response: httpx.Response, secrets: tuple[str, ...]) -> Any:
    """The answer's JSON with the API key and the other secrets scrubbed out, or _NOT_JSON.

    A server that echoes a secret (the key, a webhook token, the model key,
    the database password) must not get it stored or printed by us; a body
    nested too deeply to parse counts as not JSON.
    """
    text = redact(response.text, secrets)
    try:
        return outside.loads(text)
    except (ValueError, RecursionError):
        return _NOT_JSON


def _error_body(response: httpx.Response, secrets: tuple[str, ...]) -> dict[str, Any]:
    """The server's JSON error body, or a stand-in built from a non-JSON one."""
    body = _json(response, secrets)
    if isinstance(body, dict):
        return body
    snippet = " ".join(redact(response.text, secrets).split())[:160]
    return {"error": f"http_{response.status_code}", "message": snippet or response.reason_phrase}


def _http_date(value: str | None) -> datetime | None:
    """An HTTP date (`Date`, `Retry-After`) as an aware datetime, or None."""
    if not value:
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=timezone.utc)


def server_date(response: httpx.Response) -> datetime | None:
    """The server's clock when it answered (the `Date` header), if it said."""
    return _http_date(response.headers.get("Date"))


def _retry_after(response: httpx.Response, body: dict[str, Any] | None = None) -> float | None:
    """Seconds to wait before asking again: the error body's `details.retry_after_seconds` (the newer API's
    429 `rate_limited`), else a Retry-After header (delta, or an HTTP date read against the server's Date)."""
    details = (body or {}).get("details")
    told = details.get("retry_after_seconds") if isinstance(details, dict) else None
    if isinstance(told, (int, float)) and not isinstance(told, bool) and 0 <= told < float("inf"):
        return float(told)
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        until = _http_date(value)
        if until is None:
            return None
        now = server_date(response) or datetime.now(timezone.utc)  # the machine's clock only as a last resort
        return max(0.0, (until - now).total_seconds())


def _redirect_target(response: httpx.Response) -> str:
    """Where a redirect pointed, without what may carry a secret (user info, query, fragment)."""
    location = response.headers.get("Location", "")
    try:
        url = response.url.join(location) if location else None
    except (httpx.InvalidURL, ValueError, TypeError):
        url = None
    if url is None:
        return "nowhere given"
    return f"{url.scheme}://{url.host}{f':{url.port}' if url.port else ''}{url.path}"[:200]


def _redirected(response: httpx.Response) -> dict[str, Any]:
    return {"error": "redirected",
            "message": f"the server redirected the request (HTTP {response.status_code} to"
                       f" {_redirect_target(response)}); redirects are not followed: check KARAKURI_API_BASE_URL"}


class _Busy(ServerRejected):
    """A 5xx or 429 answer to a GET, or a 429 to a command: retried after `retry_after` (when the server said),
    and raised as ServerRejected at the end."""

    def __init__(self, status: int, body: dict[str, Any], retry_after: float | None) -> None:
        super().__init__(status, body)
        self.retry_after = retry_after


def _is_retryable_get_error(exc: BaseException) -> bool:
    return isinstance(exc, (_Busy, httpx.TransportError))


def connection_pool(base_url: str, timeout: float = 10.0, transport: httpx.BaseTransport | None = None) -> httpx.Client:
    """The HTTP connection pool to one server, with no key of its own (each request carries its agent's).

    httpx.Client is safe to share between threads: a fleet's agents use one per server.
    """
    return httpx.Client(
        follow_redirects=False,  # no API call follows a redirect: it would carry the key elsewhere
        base_url=base_url.rstrip("/") + "/",
        headers={"User-Agent": USER_AGENT},
        transport=transport,
        timeout=httpx.Timeout(timeout, connect=min(timeout, 5.0)),
        # A plain-http base (a loopback server) never uses TLS: skip loading the
        # CA bundle, which costs ~20 ms per process. https keeps full verification.
        verify=not base_url.startswith("http://"),
    )


class KarakuriClient:
    """Two calls: `get_notification` (safe to repeat) and `send_command` (never repeated)."""

    def __init__(
        self,
        base_url: str,
        api_key: Secret,
        *,
        transport: httpx.BaseTransport | None = None,
        timeout: float = 10.0,
        get_retry_budget: float = 20.0,
        get_attempts: int = 4,
        connect_attempts: int = 3,
        sleep: Callable[[float], None] | None = None,
        secrets: tuple[str, ...] = (),
        pool: httpx.Client | None = None,
    ) -> None:
        # A fleet's agents share one connection pool per server (`pool`, from connection_pool); each
        # request carries this agent's own key, never the pool's.
        self._owns_pool = pool is None
        self._http = pool or connection_pool(base_url, timeout, transport)
        self._auth = {"Authorization": f"Bearer {api_key.get()}"}
        # Masked in every answer before it is read. Besides the key, only secrets long enough not to
        # match the JSON's own words: masking a short one could turn a valid body into an invalid one.
        self._secrets = (api_key.get(), *(s for s in secrets if len(s) >= MIN_MASKED_SECRET))
        # Each call's whole answer (connection, headers, body) within this many seconds, however the
        # server drips it: httpx's own timeouts are per network operation.
        self._deadline = timeout + min(timeout, 5.0)
        self._timeout = timeout
        self._budget = get_retry_budget
        self._get_attempts = get_attempts
        self._connect_attempts = connect_attempts
        self._sleep = sleep or time.sleep
        # The `Date` of the last answer to a GET: the world's clock when nothing better is known.
        self.last_server_date: datetime | None = None

    def __enter__(self) -> KarakuriClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._owns_pool:
            self._http.close()

    def _within_deadline(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """The request, its whole answer read within the call's deadline, else httpx.ReadTimeout.

        The body is read chunk by chunk against the clock, so a server that
        sends one byte a second cannot hold the run past the deadline.
        """
        started = time.monotonic()
        headers = {**self._auth, **kwargs.pop("headers", {})}
        with self._http.stream(method, url, headers=headers, **kwargs) as streamed:
            if streamed.is_stream_consumed:  # an answer already in memory (a recorded or mock transport)
                return streamed
            chunks = []
            for chunk in streamed.iter_raw():
                chunks.append(chunk)
                if time.monotonic() - started > self._deadline:
                    raise httpx.ReadTimeout(f"the answer took longer than {self._deadline:g} s",
                                            request=streamed.request)
        return httpx.Response(streamed.status_code, headers=streamed.headers, content=b"".join(chunks),
                              request=streamed.request, extensions=streamed.extensions)

    # -- reading ---------------------------------------------------------
    def get_notification(self, notification_id: str) -> dict[str, Any]:
        """GET the stored notification, retrying transport errors, 5xx and 429.

        Bounded twice: by attempts and by `get_retry_budget` seconds of waiting
        (a Retry-After longer than what is left ends the retries). The first
        try is made on its own: the retry machinery (tenacity) is imported only
        when it failed in a way worth trying again, which a one-shot run that
        is answered at once never pays for.
        """
        started = time.monotonic()
        try:
            try:
                return self._get_once(notification_id)
            except Exception as exc:
                if not _is_retryable_get_error(exc):
                    raise
                first, first_took = exc, time.monotonic() - started
            return self._get_again(notification_id, first, first_took)
        except httpx.ReadTimeout:
            raise ServerSlow(f"the server answered too slowly: no answer within {self._timeout:g} s") from None
        except httpx.TransportError as exc:
            raise Unreachable(f"could not fetch the notification: {type(exc).__name__}") from None

    def _get_again(self, notification_id: str, first: Exception, first_took: float) -> dict[str, Any]:
        """The retries after a first try that failed with `first` in `first_took` seconds, counted and
        timed from that first try (as if the retry machinery had been there from the start: the time
        its import takes is not charged to the budget)."""
        from tenacity import Retrying, retry_if_exception, wait_exponential

        started = time.monotonic() - first_took

        def wait(state: Any) -> float:
            exc = state.outcome.exception() if state.outcome else None
            if isinstance(exc, _Busy) and exc.retry_after is not None:
                return min(exc.retry_after, MAX_RETRY_AFTER)
            return wait_exponential(multiplier=0.5, max=8)(state)

        def waiting(state: Any) -> None:  # a person at a terminal sees it (cli.py), a log file keeps it
            log.warning("still waiting for the server, try %d of %d in %.1f s…", state.attempt_number + 1,
                        self._get_attempts, state.next_action.sleep if state.next_action else 0.0)

        def stop(state: Any) -> bool:  # stop_after_attempt | stop_before_delay, the clock started at the first try
            return bool(state.attempt_number >= self._get_attempts
                        or time.monotonic() - started + state.upcoming_sleep >= self._budget)

        unanswered = [first]

        def attempt() -> dict[str, Any]:
            if unanswered:  # the first try, already made: its failure, not a second request
                raise unanswered.pop()
            return self._get_once(notification_id)

        retrying = Retrying(
            retry=retry_if_exception(_is_retryable_get_error),
            stop=stop,
            wait=wait,
            sleep=self._sleep,
            before_sleep=waiting,
            reraise=True,
        )
        result: dict[str, Any] = retrying(attempt)
        return result

    def _get_once(self, notification_id: str) -> dict[str, Any]:
        validate_notification_id(notification_id)  # whoever handed it over, only a well-formed id reaches a path
        response = self._within_deadline("GET", f"agents/notifications/{notification_id}")
        self.last_server_date = server_date(response)
        if response.status_code == 429 or response.status_code >= 500:
            body = _error_body(response, self._secrets)
            raise _Busy(response.status_code, body, _retry_after(response, body))
        if response.is_redirect or 300 <= response.status_code < 400:
            raise ServerRejected(response.status_code, _redirected(response))
        if response.is_error:
            raise ServerRejected(response.status_code, _error_body(response, self._secrets))
        body = _json(response, self._secrets)
        if not isinstance(body, dict):
            raise ServerRejected(
                response.status_code,
                {"error": "invalid_response", "message": "the notification was not a JSON object"},
            )
        return body

    # -- acting ----------------------------------------------------------
    def send_command(self, notification_id: str, command: str, params: dict[str, Any], *,
                     may_wait: float = 0.0) -> dict[str, Any]:
        """POST one command. Sent again only when the server certainly did not take it.

        That is: while the connection could not be opened, and after a 429
        `rate_limited` that says how long to wait, when the wait fits in
        `may_wait` seconds (what is left of the notification's life; at most
        RATE_LIMITED_TRIES tries). Any other transport failure (timeout, reset,
        a body cut short) means the command may have been received:
        OutcomeUnknown, and never a resend.
        """
        waited = 0.0
        for _ in range(RATE_LIMITED_TRIES - 1):
            try:
                return self._send_once(notification_id, command, params)
            except _Busy as exc:  # 429 only: a 5xx answer to a command may have done it
                wait = exc.retry_after
                if wait is None or waited + wait > may_wait:
                    raise
            log.warning("the server is busy (429 rate_limited): sending again in %.0f s, as it asked", wait)
            self._sleep(wait)
            waited += wait
        return self._send_once(notification_id, command, params)

    def _send_once(self, notification_id: str, command: str, params: dict[str, Any]) -> dict[str, Any]:
        # Strict JSON, the one writer (outside.dumps): the gate refused anything it cannot carry before the claim.
        body = outside.dumps({"notification_id": notification_id, "command": command, "params": params}).encode()
        for attempt in range(1, self._connect_attempts + 1):
            try:
                response = self._within_deadline("POST", "agents/command", content=body,
                                                 headers={"Content-Type": "application/json"})
                break
            except NEVER_SENT as exc:
                if attempt == self._connect_attempts:
                    raise Unreachable(f"could not connect to the server: {type(exc).__name__}") from None
                log.warning("still waiting for the server, connection try %d of %d…", attempt + 1,
                            self._connect_attempts)
                self._sleep(0.5 * attempt)
            except httpx.TransportError as exc:
                raise OutcomeUnknown(
                    f"no answer to the command ({type(exc).__name__}); it may have been received"
                ) from None
        if 300 <= response.status_code < 400:  # not followed: whether the command was taken is not known
            raise OutcomeUnknown(f"the command was answered with a redirect (HTTP {response.status_code} to"
                                 f" {_redirect_target(response)}); it may have been received")
        if response.is_error:
            refused = _error_body(response, self._secrets)
            if response.status_code == 429:  # not taken: rate_limited says when to ask again
                raise _Busy(429, refused, _retry_after(response, refused))
            raise ServerRejected(response.status_code, refused)
        body = _json(response, self._secrets)
        if body is _NOT_JSON:  # a proxy's page, a cut answer: nothing says the command was taken
            raise OutcomeUnknown(f"the answer to the command (HTTP {response.status_code}) was not JSON;"
                                 " it may have been received")
        return body if isinstance(body, dict) else {"ok": True, "data": body}
