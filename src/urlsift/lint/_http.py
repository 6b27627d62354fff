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
``Outcome`` of kind ``error`` or ``timeout``; so does any URL httpx, idna or the socket
layer cannot use (:func:`parse_url` names what is wrong before anything is sent, and
:meth:`Prober.check` turns any exception left into that URL's outcome).

Safety. Connections go through :class:`_PinnedBackend`, which resolves the host itself,
classifies every address (:mod:`._addresses`) and connects to the address it vetted, so a
name cannot answer one address for the check and another for the connection (DNS
rebinding). A link starts on the ``open`` pool; once its chain has had an answer from a
public address, every further hop uses the ``public`` pool, whose backend connects to
public addresses only (a refusal is an ``Outcome`` of kind ``refused``), after a literal
check that needs no lookup (``0x7f000001``, ``[::ffff:127.0.0.1]``, ``localhost``). The
user name and password written in a link are sent only with ``send_credentials`` and to
the link's own origin. The clients' cookie jars keep nothing; each chain has its own jar.
"""

from __future__ import annotations

import asyncio
import email.utils
import ipaddress
import random
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timezone
from http import HTTPStatus
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any, Literal

import httpcore
import httpx

from ._addresses import LOCAL_NAMES, IPAddress, is_public, numeric_host, redact, special_kind

OutcomeKind = Literal["ok", "status", "error", "timeout", "refused", "unchecked"]
"""``ok``: an accepted status (perhaps after redirects); ``status``: a status that is not
accepted; ``error``: no usable answer (connection, TLS, protocol, redirect trouble, an
invalid URL); ``timeout``: no answer in time after every try; ``refused``: a redirect from
a public address into a private, loopback, link-local or otherwise special one, not
followed; ``unchecked``: the run's overall deadline (``max-time``) came first."""

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
    allow_private_redirects: bool = False
    send_credentials: bool = False


Stage = Literal["connect", "exchange", "redirect", "url"]
"""Where an ``error`` happened: connecting (DNS, TCP, TLS), the exchange after connecting
(the server hung up, broke the protocol), following a redirect, or reading the URL itself
(an invalid port, host or encoding: nothing was sent)."""

Sleep = Callable[[float], Awaitable[None]]
"""An ``asyncio.sleep``-like coroutine function (tests inject one that does not sleep)."""


Resolve = Callable[[str, int], Awaitable[Sequence[str]]]
"""Name -> addresses, like ``getaddrinfo`` (a seam: tests resolve names without DNS)."""


async def system_resolve(host: str, port: int) -> list[str]:
    """The event loop's ``getaddrinfo``: the addresses of ``host``, in the system's order."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


@dataclass(frozen=True, slots=True)
class AddressPolicy:
    """Which addresses are public, and how names are looked up.

    Not a user option: the defaults are the real rules. Tests inject a classifier that
    counts their loopback server as public, a resolver that needs no DNS, and a network
    layer that takes every connection to their loopback server.
    """

    is_public: Callable[[IPAddress], bool] = is_public
    """True for an address a public link may redirect to (default: global unicast)."""
    resolve: Resolve = system_resolve
    """Looks names up at connection time; the address it returns is the one connected to."""
    network: httpcore.AsyncNetworkBackend | None = None
    """The sockets under the checks, given the vetted address (default: httpcore's anyio
    backend)."""


class PrivateAddressError(Exception):
    """A connection after a public hop would go to a special address: not made."""

    def __init__(self, host: str, address: IPAddress, kind: str) -> None:
        self.host = host
        self.address = address
        self.kind = kind
        literal = numeric_host(host) is not None
        via = "" if literal else f" resolves to {address}, which"
        super().__init__(f"{host}{via} is a {kind} address")


def _kind_of(address: IPAddress, policy: AddressPolicy) -> str | None:
    # The special class of an address under the policy (None: public).
    return None if policy.is_public(address) else special_kind(address) or "non-public"


def _interleave_families(addresses: Sequence[IPAddress]) -> list[IPAddress]:
    # The first family first (the resolver's preference), then one of each in turn.
    unique = list(dict.fromkeys(addresses))
    if not unique:
        return []
    first = [a for a in unique if a.version == unique[0].version]
    other = [a for a in unique if a.version != unique[0].version]
    ordered: list[IPAddress] = []
    for index in range(max(len(first), len(other))):
        ordered.extend(group[index] for group in (first, other) if index < len(group))
    return ordered


class _PinnedBackend(httpcore.AsyncNetworkBackend):
    # httpcore's network layer with our own name lookup: the host is resolved once, each
    # address is classified, and the connection goes to that very address (so a name that
    # resolves differently a moment later - DNS rebinding - cannot slip past the check).
    # ``restricted``: only public addresses are connected to.

    def __init__(self, policy: AddressPolicy, *, restricted: bool) -> None:
        self._policy = policy
        self._restricted = restricted
        self._inner = policy.network or httpcore.AnyIOBackend()

    async def _addresses(self, host: str, port: int) -> list[IPAddress]:
        literal = numeric_host(host)
        if literal is not None:
            return [literal]
        try:
            found = await self._policy.resolve(host, port)
            addresses = [ipaddress.ip_address(a.partition("%")[0]) for a in found]
        except (OSError, UnicodeError, ValueError) as exc:
            raise httpcore.ConnectError(_reason(exc)) from exc
        if not addresses:
            raise httpcore.ConnectError(f"no address for {host}")
        return addresses

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await self._addresses(host, port)
        if self._restricted:
            kinds = [_kind_of(address, self._policy) for address in addresses]
            allowed = [a for a, kind in zip(addresses, kinds, strict=True) if kind is None]
            if not allowed:
                raise PrivateAddressError(host, addresses[0], kinds[0] or "non-public")
            addresses = allowed
        # Address families alternate (RFC 8305 §4) and each try gets its share of the
        # timeout (at least a second), so one black-holed family does not use it all.
        ordered = _interleave_families(addresses)
        failure: Exception | None = None
        for index, address in enumerate(ordered):
            share = timeout
            if timeout is not None and index + 1 < len(ordered):
                share = min(timeout, max(1.0, timeout / (len(ordered) - index)))
            try:
                stream = await self._inner.connect_tcp(
                    str(address), port, share, local_address, socket_options
                )
                return _VettedStream(stream, (str(address), port))
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("unix sockets are not used")  # pragma: no cover

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)  # pragma: no cover - httpcore's retries are off


class _VettedStream(httpcore.AsyncNetworkStream):
    # A connection that reports, as its ``server_addr``, the address that was vetted and
    # connected to (also after TLS starts over it).

    def __init__(self, inner: httpcore.AsyncNetworkStream, address: tuple[str, int]) -> None:
        self._inner = inner
        self._address = address

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, timeout)

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(
        self,
        ssl_context: Any,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        inner = await self._inner.start_tls(ssl_context, server_hostname, timeout)
        return _VettedStream(inner, self._address)

    def get_extra_info(self, info: str) -> Any:
        return self._address if info == "server_addr" else self._inner.get_extra_info(info)


_PEER = "urlsift.peer"
"""Response extension: the address the response came from (direct connections only)."""


class _PinnedTransport(httpx.AsyncHTTPTransport):
    # httpx's transport over a connection pool that uses :class:`_PinnedBackend`, noting on
    # each response the peer address it came from. Proxied requests (HTTPS_PROXY ...) go
    # through httpx's own proxy transports instead and carry no such note.

    def __init__(self, backend: _PinnedBackend, limits: httpx.Limits, ssl: Any) -> None:
        super().__init__(verify=ssl, limits=limits)
        # httpx builds its pool without a way to pass a network backend; replace it (the
        # attribute is checked so that a change in httpx fails loudly, not silently).
        if not isinstance(getattr(self, "_pool", None), httpcore.AsyncConnectionPool):
            raise RuntimeError("httpx.AsyncHTTPTransport no longer has a _pool")  # pragma: no cover
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            network_backend=backend,
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        stream = response.extensions.get("network_stream")
        peer = stream.get_extra_info("server_addr") if stream is not None else None
        if isinstance(peer, tuple) and peer:
            response.extensions[_PEER] = str(peer[0])
        return response


class _NoCookies(DefaultCookiePolicy):
    # The client-wide jar keeps nothing: cookies live in one link's redirect chain only.
    def set_ok(self, cookie: Any, request: Any) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class _Reply:
    # A response's head: all we keep of it. ``public``: it came from a public address.
    status: int
    location: str | None
    retry_after: str | None
    public: bool = False


@dataclass(frozen=True, slots=True)
class _Failure:
    # No response: ``retryable`` for transport trouble.
    kind: Literal["error", "timeout", "refused"]
    reason: str
    retryable: bool
    stage: Stage = "connect"


@dataclass(slots=True)
class _Chain:
    # One link's walk through its redirects: where it started, whether it has reached a
    # public address yet, and its own cookies (never shared with another link).
    link: httpx.URL
    public: bool = False
    cookies: httpx.Cookies = field(default_factory=httpx.Cookies)


def _host_label(url: httpx.URL) -> str:
    # The host as a person wrote it: with the port only when one was given.
    try:
        host = url.host
    except (UnicodeError, ValueError):  # an A-label that does not decode
        host = url.raw_host.decode("ascii", "replace")
    host = host if ":" not in host else f"[{host}]"
    return f"{host}:{url.port}" if url.port is not None else host


_NAME = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?")
_NUMERIC_LABEL = re.compile(r"0[xX][0-9A-Fa-f]*|[0-9]+")


def parse_url(text: str | httpx.URL) -> httpx.URL:
    """Parse an http/https URL to request, or raise ValueError saying what is wrong.

    Besides httpx's own checks: a host (a name of dot-separated labels of at most 63
    letters, digits, ``-`` or ``_``, at most 253 characters, whose ``xn--`` labels decode
    and whose last label is not a number; or an IP address in any form ``inet_aton``
    reads) and a port in 1..65535.
    """
    if isinstance(text, str):
        difference = browser_difference(text)
        if difference is not None:
            raise ValueError(difference)
    try:
        url = text if isinstance(text, httpx.URL) else httpx.URL(text)
        host = url.raw_host.decode("ascii")
        _ = url.host  # decodes the IDNA labels, raising on a bad one
    except Exception as exc:  # httpx, idna and codecs raise all sorts
        raise ValueError(_reason(exc)) from exc
    problem = _url_problem(url.scheme, host, url.port)
    if problem is not None:
        raise ValueError(problem)
    return url


_QUERY_OR_FRAGMENT = re.compile(r"[?#]")


def browser_difference(text: str) -> str | None:
    """Why browsers would read an http(s) URL or reference otherwise than RFC 3986 does.

    Browsers parse by the WHATWG URL Standard: for http and https a ``\\`` before the
    query is a ``/`` (``http://evil.example\\@127.0.0.1/`` opens ``evil.example``, where
    RFC 3986, and httpx, read the user ``evil.example\\`` at ``127.0.0.1``), and tabs and
    line breaks are removed. A URL read two ways is not requested: the URL checked would
    not be the one a reader opens.

    Returns:
        The difference in words (None: both read the text the same).
    """
    if "\t" in text or "\n" in text or "\r" in text:
        return "a tab or line break inside, which browsers drop and RFC 3986 forbids: not checked"
    head = _QUERY_OR_FRAGMENT.split(text, maxsplit=1)[0]
    if "\\" not in head:
        return None
    as_browser = head.replace("\\", "/") + text[len(head) :]
    return (
        f"browsers read a backslash as '/' and open {redact(as_browser)!r}, not what RFC 3986 "
        "reads: not checked"
    )


def _url_problem(scheme: str, host: str, port: int | None) -> str | None:
    # What makes a parsed URL unusable for a request, in words (None: nothing).
    if scheme not in ("http", "https"):
        return f"scheme {scheme!r} is not http or https"
    if port is not None and not 0 < port < 65536:
        return f"port {port} is not in 1..65535"
    if not host:
        return "no host"
    if ":" in host:  # an IPv6 literal, checked by httpx
        return None
    name = host[:-1] if host.endswith(".") else host
    labels = name.split(".")
    if len(name) > 253 or not all(_NAME.fullmatch(label) for label in labels):
        return f"{host[:80]!r} is not a host name"
    if _NUMERIC_LABEL.fullmatch(labels[-1]) and numeric_host(host) is None:
        return f"{host[:80]!r} is neither an IPv4 address nor a name"
    return None


def _reason(exc: BaseException) -> str:
    # httpx errors often wrap an OSError whose text is the useful part.
    text = str(exc).strip()
    return text or type(exc).__name__


class Prober:
    """Checks URLs over shared ``httpx.AsyncClient`` pools; use within one event loop.

    Args:
        settings: Timeouts, retries, limits, accepted statuses, method policy, and the
            two safety switches (private redirects, credentials).
        sleep: The coroutine used for every wait (``asyncio.sleep`` by default).
        clock: POSIX time, used to read ``Retry-After`` dates.
        rng: Source of the backoff jitter.
        policy: Which addresses are public and how names resolve (tests inject one).
    """

    def __init__(
        self,
        settings: ProbeSettings,
        *,
        sleep: Sleep | None = None,
        clock: Callable[[], float],
        rng: random.Random | None = None,
        policy: AddressPolicy | None = None,
    ) -> None:
        self._settings = settings
        self._sleep = sleep or asyncio.sleep
        self._clock = clock
        self._rng = rng or random.Random()
        self._policy = policy or AddressPolicy()
        self._global = asyncio.Semaphore(settings.max_concurrency)
        self._per_host: dict[tuple[str, bytes, int | None], asyncio.Semaphore] = {}
        ssl = httpx.create_ssl_context()
        # Two pools: ``open`` for a link's own address and chains that never left private
        # ones (a docs page may link http://localhost:8000); ``public`` for every hop after
        # a public address, where only public addresses are ever connected to, so that a
        # kept-alive connection is safe to reuse.
        self._open = self._client(_PinnedBackend(self._policy, restricted=False), ssl)
        self._public = (
            None
            if settings.allow_private_redirects
            else self._client(_PinnedBackend(self._policy, restricted=True), ssl)
        )

    def _client(self, backend: _PinnedBackend, ssl: Any) -> httpx.AsyncClient:
        settings = self._settings
        limits = httpx.Limits(
            max_connections=settings.max_concurrency,
            max_keepalive_connections=settings.max_concurrency,
        )
        client = httpx.AsyncClient(
            verify=ssl,
            follow_redirects=False,
            timeout=httpx.Timeout(settings.timeout),
            limits=limits,
            cookies=CookieJar(policy=_NoCookies()),
            headers={
                "User-Agent": settings.user_agent,
                "Accept": "text/html,application/xhtml+xml,*/*;q=0.8",
            },
        )
        # The pinned transport replaces the default one after construction: passing it as
        # ``transport=`` would make httpx ignore the proxy settings of the environment,
        # whose transports (mounted by httpx) stay as they are.
        if not isinstance(getattr(client, "_transport", None), httpx.AsyncHTTPTransport):
            raise RuntimeError("httpx.AsyncClient no longer has a _transport")  # pragma: no cover
        client._transport = _PinnedTransport(backend, limits, ssl)
        return client

    async def aclose(self) -> None:
        """Close the clients and their connections."""
        await self._open.aclose()
        if self._public is not None:
            await self._public.aclose()

    async def check(self, url: str) -> Outcome:
        """Follow ``url`` (no fragment) through its redirects to an :class:`Outcome`.

        Never raises for any URL string or server behaviour: what goes wrong is the
        outcome's (an ``error`` with stage ``url`` when the URL itself is unusable).
        """
        try:
            return await self._follow(url)
        except Exception as exc:  # the last line of defence: one URL, one outcome
            return Outcome(url, "error", reason=redact(_reason(exc)), stage="url")

    async def _follow(self, url: str) -> Outcome:
        settings = self._settings
        try:
            current = parse_url(url)
        except ValueError as exc:
            return Outcome(url, "error", reason=f"invalid URL: {_reason(exc)}", stage="url")
        chain = _Chain(current)
        seen = {str(current)}
        hops: list[Hop] = []
        status = 0
        while True:
            refusal = self._refuse_literal(current, chain)
            if refusal is not None:
                return self._refused(url, status, hops, refusal, current, 0)
            reply, tries = await self._request(current, chain)
            if isinstance(reply, _Failure):
                if reply.kind == "refused":
                    return self._refused(url, status, hops, reply, current, tries)
                return Outcome(
                    url,
                    reply.kind,
                    redirects=tuple(hops),
                    reason=reply.reason,
                    stage=reply.stage,
                    host=_host_label(current),
                    tries=tries,
                )
            chain.public = chain.public or reply.public
            status = reply.status
            if status in settings.accept:
                return Outcome(url, "ok", status, tuple(hops), tries=tries)
            if status not in REDIRECTS or reply.location is None:
                return Outcome(url, "status", status, tuple(hops), tries=tries)
            difference = browser_difference(reply.location)
            if difference is not None:
                reason = f"redirect Location {redact(reply.location)!r}: {difference}"
                return self._redirect_error(url, status, hops, reason, current, tries)
            try:
                target = current.join(reply.location).copy_with(fragment=None)
                shown = redact(str(target))
            except Exception as exc:  # httpx and idna raise all sorts
                reason = f"invalid redirect Location {redact(reply.location)!r}: {_reason(exc)}"
                return self._redirect_error(url, status, hops, reason, current, tries)
            hops.append(Hop(status, shown))
            if target.scheme not in ("http", "https") or not target.raw_host:
                reason = f"redirect to {shown}, which cannot be checked (not http or https)"
                return self._redirect_error(url, status, hops, reason, current, tries)
            try:
                target = parse_url(target)
            except ValueError as exc:
                reason = f"invalid redirect to {shown}: {_reason(exc)}"
                return self._redirect_error(url, status, hops, reason, current, tries)
            if str(target) in seen:
                chain_text = " -> ".join([url, *(hop.location for hop in hops)])
                reason = f"redirect loop: {chain_text}"
                return self._redirect_error(url, status, hops, reason, current, tries)
            if len(hops) > settings.max_redirects:
                reason = f"more than {settings.max_redirects} redirects"
                return self._redirect_error(url, status, hops, reason, current, tries)
            seen.add(str(target))
            current = target

    def _refuse_literal(self, url: httpx.URL, chain: _Chain) -> _Failure | None:
        # After a public hop, a host that spells a special address (in any numeric form)
        # or a loopback name is refused before anything is sent or looked up. Names are
        # checked again, resolved, when connecting (the pinned backend).
        if not chain.public or self._public is None:
            return None
        host = url.raw_host.decode("ascii").lower()
        address = numeric_host(host)
        if address is not None:
            kind = _kind_of(address, self._policy)
            if kind is not None:
                return _Failure("refused", str(PrivateAddressError(host, address, kind)), False)
        elif host.rstrip(".").endswith(".localhost") or host.rstrip(".") in LOCAL_NAMES:
            return _Failure("refused", f"{host} is a loopback name", False)
        return None

    @staticmethod
    def _refused(
        url: str, status: int, hops: list[Hop], failure: _Failure, at: httpx.URL, tries: int
    ) -> Outcome:
        return Outcome(
            url,
            "refused",
            status or None,
            tuple(hops),
            failure.reason,
            "redirect",
            _host_label(at),
            tries,
        )

    @staticmethod
    def _redirect_error(
        url: str, status: int, hops: list[Hop], reason: str, at: httpx.URL, tries: int
    ) -> Outcome:
        return Outcome(
            url, "error", status, tuple(hops), reason, "redirect", _host_label(at), tries
        )

    def _request_url(self, url: httpx.URL, chain: _Chain) -> httpx.URL:
        # Only the user name and password written in the link itself are ever sent, only
        # when asked for, and only to the link's own origin; those of a redirect never.
        link = chain.link
        userinfo = b""
        if self._settings.send_credentials and (url.scheme, url.raw_host, url.port) == (
            link.scheme,
            link.raw_host,
            link.port,
        ):
            userinfo = link.userinfo
        return url if url.userinfo == userinfo else url.copy_with(userinfo=userinfo)

    async def _request(self, url: httpx.URL, chain: _Chain) -> tuple[_Reply | _Failure, int]:
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
                result = await self._send(method, url, chain)
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
        key = (url.scheme, url.raw_host.lower(), url.port)
        semaphore = self._per_host.get(key)
        if semaphore is None:
            semaphore = self._per_host[key] = asyncio.Semaphore(self._settings.max_per_host)
        return semaphore

    def _is_public_peer(self, response: httpx.Response, url: httpx.URL) -> bool:
        # Where the answer came from. A direct connection names its peer; through a proxy
        # only the URL's host is known: a literal address is judged, a name counts as
        # public unless it is a loopback name.
        peer = response.extensions.get(_PEER)
        if isinstance(peer, str):
            try:
                return self._policy.is_public(ipaddress.ip_address(peer.partition("%")[0]))
            except ValueError:
                return False
        host = url.raw_host.decode("ascii").lower().rstrip(".")
        address = numeric_host(host)
        if address is not None:
            return self._policy.is_public(address)
        return host not in LOCAL_NAMES and not host.endswith(".localhost")

    async def _send(self, method: str, url: httpx.URL, chain: _Chain) -> _Reply | _Failure:
        # One request; the body is never read. The httpx timeout bounds each phase; the
        # wait_for bounds the whole exchange (a server that trickles bytes).
        timeout = self._settings.timeout
        client = self._public if chain.public and self._public is not None else self._open
        async with self._host_semaphore(url), self._global:
            try:
                request = client.build_request(method, self._request_url(url, chain))
                chain.cookies.set_cookie_header(request)
                response = await asyncio.wait_for(client.send(request, stream=True), timeout)
                try:
                    chain.cookies.extract_cookies(response)
                    return _Reply(
                        response.status_code,
                        response.headers.get("location"),
                        response.headers.get("retry-after"),
                        self._is_public_peer(response, url),
                    )
                finally:
                    await response.aclose()
            except PrivateAddressError as exc:
                return _Failure("refused", str(exc), retryable=False, stage="redirect")
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
            except Exception as exc:  # anything else one URL can provoke stays its own
                return _Failure("error", redact(_reason(exc)), retryable=False, stage="url")
