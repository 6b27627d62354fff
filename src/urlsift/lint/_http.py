"""HTTP(S) probing for ``urlsift lint --check-links``: one URL in, one :class:`Outcome` out.

Strategy: an edge module (it does network I/O; the sans-IO core never imports it). A
:class:`Prober` owns one ``httpx.AsyncClient`` for one event loop and answers
:meth:`Prober.check` for a URL without its fragment. Redirects are followed by hand
(``follow_redirects=False``) so every hop is recorded with its status and the absolute
``Location`` it led to; a URL seen twice in one chain is a loop, and more than
``max_redirects`` hops is an error. Each hop is one *request*: HEAD first, then GET when
the server refuses HEAD (a status in :data:`HEAD_REFUSED`), retried on the statuses of
:data:`is_retryable` and on transport errors, waiting ``Retry-After`` (capped) or an
exponential backoff with jitter. Bodies are never read: responses are streamed and closed
at once. Concurrency is bounded twice: a per-host semaphore keyed by (scheme, host, port),
taken first so that waiting for a busy host holds no global slot, then the global one; both
are released before any backoff sleep. Network trouble never raises: it becomes an
``Outcome`` of kind ``error`` or ``timeout``.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timezone
from http import HTTPStatus
from typing import Literal

import httpx

OutcomeKind = Literal["ok", "status", "error", "timeout"]
"""``ok``: an accepted status (perhaps after redirects); ``status``: a status that is not
accepted; ``error``: no usable answer (connection, TLS, protocol, redirect trouble);
``timeout``: no answer in time after every try."""

Method = Literal["head-get", "head", "get"]
"""Request policy: ``head-get`` sends HEAD and falls back to GET where HEAD is refused."""

METHODS: dict[str, tuple[str, ...]] = {
    "head-get": ("HEAD", "GET"),
    "head": ("HEAD",),
    "get": ("GET",),
}
"""Policy name -> the HTTP methods tried in turn for one hop."""

REDIRECTS: dict[int, bool] = {301: True, 302: False, 303: False, 307: False, 308: True}
"""Statuses followed as redirects (with a ``Location``) -> whether the move is permanent."""

# Servers answer HEAD with all sorts of statuses when they do not implement it (405 and
# 501 are the correct ones; 400, 403, 404 and 500 are seen in the wild, which is why lychee
# and django-linkcheck fall back on them too). 408 and 429 are about timing, not the
# method, so they are retried instead.
HEAD_REFUSED: frozenset[int] = frozenset(range(400, 500)) - {408, 429} | {500, 501}
"""HEAD statuses after which the same URL is asked again with GET (policy ``head-get``)."""

# 501 Not Implemented and 505 HTTP Version Not Supported will not change with time.
_PERMANENT_5XX = frozenset({501, 505})


def is_retryable(status: int) -> bool:
    """Return True for the statuses worth asking again later: 408, 429 and most 5xx."""
    return status in (408, 429) or (500 <= status <= 599 and status not in _PERMANENT_5XX)


def parse_retry_after(value: str, now: float) -> float | None:
    """Return the wait a ``Retry-After`` header asks for, in seconds, or None if malformed.

    Args:
        value: The header value: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
        now: The current POSIX time, to turn a date into a delay.

    Returns:
        A non-negative number of seconds (a date in the past gives 0), or None.
    """
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(int(text))
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, when.timestamp() - now)


def status_text(status: int) -> str:
    """``404 Not Found``: the status with its standard phrase (when it has one)."""
    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return str(status)


@dataclass(frozen=True, slots=True)
class Hop:
    """One redirect followed."""

    status: int
    """The redirect status (301, 302, 303, 307 or 308)."""
    location: str
    """The absolute URL it led to (relative ``Location`` values resolved, fragment dropped)."""

    @property
    def permanent(self) -> bool:
        """True for 301 and 308."""
        return REDIRECTS.get(self.status, False)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What checking one URL concluded."""

    url: str
    """The URL requested (without fragment)."""
    kind: OutcomeKind
    """See :data:`OutcomeKind`."""
    status: int | None = None
    """The last status received (None for ``error``/``timeout`` without one)."""
    redirects: tuple[Hop, ...] = ()
    """The redirects followed, in order."""
    reason: str = ""
    """For ``error``: what went wrong, in words."""
    stage: Stage = "connect"
    """For ``error``: see :data:`Stage`."""
    host: str = ""
    """For ``error``/``timeout``: ``host`` or ``host:port`` of the request that failed."""
    tries: int = 1
    """Requests sent for the last hop (HEAD and GET, first tries and retries)."""
    cached: bool = False
    """True when the outcome came from the on-disk cache (no request sent)."""

    @property
    def final_url(self) -> str:
        """The URL the redirects ended at (the URL itself without redirects)."""
        return self.redirects[-1].location if self.redirects else self.url

    @property
    def resolves(self) -> bool:
        """True when the link works (an accepted status, perhaps after redirects)."""
        return self.kind == "ok"


@dataclass(frozen=True, slots=True)
class ProbeSettings:
    """The subset of the link options the prober needs (see ``LinkOptions``)."""

    timeout: float
    retries: int
    backoff: float
    max_backoff: float
    max_retry_after: float
    max_concurrency: int
    max_per_host: int
    accept: frozenset[int]
    max_redirects: int
    user_agent: str
    method: Method


Stage = Literal["connect", "exchange", "redirect"]
"""Where an ``error`` happened: connecting (DNS, TCP, TLS), the exchange after connecting
(the server hung up, broke the protocol), or following a redirect."""

Sleep = Callable[[float], Awaitable[None]]
"""An ``asyncio.sleep``-like coroutine function (tests inject one that does not sleep)."""


@dataclass(frozen=True, slots=True)
class _Reply:
    # A response's head: all we keep of it.
    status: int
    location: str | None
    retry_after: str | None


@dataclass(frozen=True, slots=True)
class _Failure:
    # No response: ``kind`` is ``error`` or ``timeout``; ``retryable`` for transport trouble.
    kind: Literal["error", "timeout"]
    reason: str
    retryable: bool
    stage: Stage = "connect"


def _host_label(url: httpx.URL) -> str:
    # The host as a person wrote it: with the port only when one was given.
    host = url.host if ":" not in url.host else f"[{url.host}]"
    return f"{host}:{url.port}" if url.port is not None else host


def _reason(exc: BaseException) -> str:
    # httpx errors often wrap an OSError whose text is the useful part.
    text = str(exc).strip()
    return text or type(exc).__name__


class Prober:
    """Checks URLs over one shared ``httpx.AsyncClient``; use within one event loop.

    Args:
        settings: Timeouts, retries, limits, accepted statuses, method policy.
        sleep: The coroutine used for every wait (``asyncio.sleep`` by default).
        clock: POSIX time, used to read ``Retry-After`` dates.
        rng: Source of the backoff jitter.
    """

    def __init__(
        self,
        settings: ProbeSettings,
        *,
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float],
        rng: random.Random | None = None,
    ) -> None:
        self._settings = settings
        self._sleep = sleep
        self._clock = clock
        self._rng = rng or random.Random()
        self._global = asyncio.Semaphore(settings.max_concurrency)
        self._per_host: dict[tuple[str, str, int | None], asyncio.Semaphore] = {}
        limits = httpx.Limits(
            max_connections=settings.max_concurrency,
            max_keepalive_connections=settings.max_concurrency,
        )
        self._client = httpx.AsyncClient(
            follow_redirects=False,
            timeout=httpx.Timeout(settings.timeout),
            limits=limits,
            headers={
                "User-Agent": settings.user_agent,
                "Accept": "text/html,application/xhtml+xml,*/*;q=0.8",
            },
        )

    async def aclose(self) -> None:
        """Close the client and its connections."""
        await self._client.aclose()

    async def check(self, url: str) -> Outcome:
        """Follow ``url`` (no fragment) through its redirects to an :class:`Outcome`."""
        settings = self._settings
        try:
            current = httpx.URL(url)
        except httpx.InvalidURL as exc:
            return Outcome(url, "error", reason=f"invalid URL: {_reason(exc)}")
        seen = {str(current)}
        hops: list[Hop] = []
        while True:
            reply, tries = await self._request(current)
            if isinstance(reply, _Failure):
                return Outcome(
                    url,
                    reply.kind,
                    redirects=tuple(hops),
                    reason=reply.reason,
                    stage=reply.stage,
                    host=_host_label(current),
                    tries=tries,
                )
            status = reply.status
            if status in settings.accept:
                return Outcome(url, "ok", status, tuple(hops), tries=tries)
            if status not in REDIRECTS or reply.location is None:
                return Outcome(url, "status", status, tuple(hops), tries=tries)
            try:
                target = current.join(reply.location).copy_with(fragment=None)
            except (httpx.InvalidURL, ValueError) as exc:
                reason = f"invalid redirect Location {reply.location!r}: {_reason(exc)}"
                return self._redirect_error(url, status, hops, reason, current, tries)
            hops.append(Hop(status, str(target)))
            if target.scheme not in ("http", "https") or not target.host:
                reason = f"redirect to {target}, which cannot be checked (not http or https)"
                return self._redirect_error(url, status, hops, reason, current, tries)
            if str(target) in seen:
                chain = " -> ".join([url, *(hop.location for hop in hops)])
                reason = f"redirect loop: {chain}"
                return self._redirect_error(url, status, hops, reason, current, tries)
            if len(hops) > settings.max_redirects:
                reason = f"more than {settings.max_redirects} redirects"
                return self._redirect_error(url, status, hops, reason, current, tries)
            seen.add(str(target))
            current = target

    @staticmethod
    def _redirect_error(
        url: str, status: int, hops: list[Hop], reason: str, at: httpx.URL, tries: int
    ) -> Outcome:
        return Outcome(
            url, "error", status, tuple(hops), reason, "redirect", _host_label(at), tries
        )

    async def _request(self, url: httpx.URL) -> tuple[_Reply | _Failure, int]:
        # One hop: each method of the policy in turn, each retried; returns the last
        # reply or failure and the number of requests sent.
        settings = self._settings
        methods = METHODS[settings.method]
        tries = 0
        result: _Reply | _Failure | None = None
        for index, method in enumerate(methods):
            has_fallback = index + 1 < len(methods)
            attempt = 0
            while True:
                tries += 1
                result = await self._send(method, url)
                wait: float | None
                if isinstance(result, _Reply):
                    if result.status in settings.accept:
                        return result, tries
                    if has_fallback and result.status in HEAD_REFUSED:
                        break  # ask again with the next method
                    if not is_retryable(result.status) or attempt >= settings.retries:
                        return result, tries
                    wait = None
                    if result.retry_after is not None:
                        asked = parse_retry_after(result.retry_after, self._clock())
                        if asked is not None:
                            wait = min(asked, settings.max_retry_after)
                else:
                    if not result.retryable or attempt >= settings.retries:
                        return result, tries
                    wait = None
                await self._sleep(wait if wait is not None else self._backoff(attempt))
                attempt += 1
        assert result is not None  # METHODS entries are never empty
        return result, tries

    def _backoff(self, attempt: int) -> float:
        # Exponential, capped, with jitter in [50 %, 100 %] so parallel retries spread out.
        settings = self._settings
        base = min(settings.max_backoff, settings.backoff * 2.0**attempt)
        return base * self._rng.uniform(0.5, 1.0)

    def _host_semaphore(self, url: httpx.URL) -> asyncio.Semaphore:
        key = (url.scheme, url.host, url.port)
        semaphore = self._per_host.get(key)
        if semaphore is None:
            semaphore = self._per_host[key] = asyncio.Semaphore(self._settings.max_per_host)
        return semaphore

    async def _send(self, method: str, url: httpx.URL) -> _Reply | _Failure:
        # One request; the body is never read. The httpx timeout bounds each phase; the
        # wait_for bounds the whole exchange (a server that trickles bytes).
        timeout = self._settings.timeout
        async with self._host_semaphore(url), self._global:
            try:
                request = self._client.build_request(method, url)
                response = await asyncio.wait_for(self._client.send(request, stream=True), timeout)
                try:
                    return _Reply(
                        response.status_code,
                        response.headers.get("location"),
                        response.headers.get("retry-after"),
                    )
                finally:
                    await response.aclose()
            except (httpx.TimeoutException, asyncio.TimeoutError):
                return _Failure("timeout", f"no answer in {timeout:g} s", retryable=True)
            except (httpx.UnsupportedProtocol, httpx.LocalProtocolError) as exc:
                return _Failure("error", _reason(exc), retryable=False)
            except (httpx.ConnectError, httpx.ProxyError) as exc:
                return _Failure("error", _reason(exc), retryable=True)
            except httpx.TransportError as exc:
                return _Failure("error", _reason(exc), retryable=True, stage="exchange")
            except (httpx.HTTPError, httpx.InvalidURL, OSError) as exc:
                return _Failure("error", _reason(exc), retryable=False, stage="exchange")
