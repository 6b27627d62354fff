"""``urlsift lint --check-links`` against a real HTTP server on 127.0.0.1 in this process.

The server runs in a thread (``ThreadingHTTPServer``, port 0) with one handler per path;
it records every request. A guard on ``socket.socket.connect`` refuses (and records) any
connection to an address other than 127.0.0.1, and every test ends by checking that no
such connection was attempted. Retry waits go through an injected ``sleep`` that only
records the delay, so no test sleeps for a ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from urlsift.errors import ConfigError
from urlsift.lint._http import HEAD_REFUSED, is_retryable, parse_retry_after
from urlsift.lint._linkcache import CACHE_FORMAT, SIGNATURE
from urlsift.lint.links import (
    _CONFIG_KEYS,
    DEFAULT_ACCEPT,
    LinkOptions,
    default_cache_path,
    diagnose_links,
)
from urlsift.lint.model import Diagnostic, Finding
from urlsift.lint.report import tool_info

Route = Callable[["_Handler", str], None]


@dataclass
class Seen:
    """One request as the server saw it."""

    method: str
    path: str
    client: str
    headers: dict[str, str]


@dataclass
class Server:
    """The test server's state, shared with the handler threads."""

    base: str = ""
    routes: dict[str, Route] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    release: threading.Event = field(default_factory=threading.Event)
    inflight: int = 0
    max_inflight: int = 0
    inflight_goal: int = 1
    changed: threading.Condition = field(default_factory=threading.Condition)
    hits: dict[str, int] = field(default_factory=dict)
    body_bytes_sent: int = 0
    body_done: threading.Event = field(default_factory=threading.Event)

    def requests(self, path: str | None = None) -> list[tuple[str, str]]:
        with self.lock:
            return [(s.method, s.path) for s in self.seen if path is None or s.path == path]

    def url(self, path: str) -> str:
        return self.base + path


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_HEAD(self) -> None:
        self._dispatch("HEAD")

    def do_GET(self) -> None:
        self._dispatch("GET")

    def _dispatch(self, method: str) -> None:
        state = self.server.state
        with state.lock:
            state.seen.append(
                Seen(method, self.path, self.client_address[0], dict(self.headers.items()))
            )
            state.hits[self.path] = state.hits.get(self.path, 0) + 1
        route = state.routes.get(self.path.partition("?")[0])
        if route is None:
            self.answer(404)
        else:
            route(self, method)

    def answer(self, status: int, **headers: str) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.send_header("Content-Length", "0")
        self.end_headers()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: Server

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hung up (timeouts, GET fallbacks closed early) is expected


def _redirect(status: int, location: str) -> Route:
    return lambda handler, method: handler.answer(status, Location=location)


def _status(status: int, **headers: str) -> Route:
    return lambda handler, method: handler.answer(status, **headers)


def _no_head(handler: _Handler, method: str) -> None:
    handler.answer(405 if method == "HEAD" else 200)


def _busy_once(retry_after: str) -> Route:
    def route(handler: _Handler, method: str) -> None:
        if handler.server.state.hits[handler.path] == 1:
            handler.answer(429, Retry_After=retry_after)
        else:
            handler.answer(200)

    return route


def _slow(handler: _Handler, method: str) -> None:
    handler.server.state.release.wait(60.0)  # set when the test ends
    handler.answer(200)


def _inflight(handler: _Handler, method: str) -> None:
    # Each request is held until ``inflight_goal`` requests are in flight together (so a
    # loaded machine cannot keep the checker from reaching its limit), then a moment
    # longer, in which a checker that exceeded its limit would show it.
    state = handler.server.state
    with state.changed:
        state.inflight += 1
        state.max_inflight = max(state.max_inflight, state.inflight)
        state.changed.notify_all()
        state.changed.wait_for(lambda: state.inflight >= state.inflight_goal, timeout=30)
    time.sleep(0.05)
    with state.changed:
        state.inflight -= 1
    handler.answer(200)


def _big_get(handler: _Handler, method: str) -> None:
    # HEAD refused; GET announces 64 MiB and sends until the client hangs up.
    if method == "HEAD":
        handler.answer(405)
        return
    total = 64 << 20
    handler.send_response(200)
    handler.send_header("Content-Length", str(total))
    handler.end_headers()
    chunk = b"x" * 65536
    state = handler.server.state
    try:
        for _ in range(total // len(chunk)):
            handler.wfile.write(chunk)
            with state.lock:
                state.body_bytes_sent += len(chunk)
    except OSError:
        pass
    finally:
        state.body_done.set()


ROUTES: dict[str, Route] = {
    "/ok": _status(200),
    "/moved": _redirect(301, "/ok"),
    "/moved-308": _redirect(308, "/ok"),
    "/found": _redirect(302, "/dir/chain"),
    "/dir/chain": _redirect(307, "../ok"),  # relative Location
    "/mixed": _redirect(301, "/found"),
    "/loop-a": _redirect(302, "/loop-b"),
    "/loop-b": _redirect(302, "/loop-a"),
    "/moved-missing": _redirect(301, "/missing"),
    "/to-ftp": _redirect(302, "ftp://127.0.0.1/file"),
    "/no-head": _no_head,
    "/busy": _busy_once("1"),
    "/busy-long": _busy_once("3600"),
    "/down": _status(503),
    "/slow": _slow,
    "/inflight": _inflight,
    "/big": _big_get,
    "/hy-phen": _status(200),
    "/ab": _status(200),
}


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[object]]:
    """Every address the code under test connects to or looks up; only 127.0.0.1 is let
    through, and the test fails afterwards if anything else was tried."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("all_proxy", raising=False)
    attempts: list[object] = []
    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex

    def allowed(address: object) -> bool:
        attempts.append(address)
        return isinstance(address, tuple) and address[0] == "127.0.0.1"

    def connect(self: socket.socket, address: Any) -> None:
        if not allowed(address):
            raise ConnectionRefusedError(f"test guard: no connection to {address!r}")
        original_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        if not allowed(address):
            raise ConnectionRefusedError(f"test guard: no connection to {address!r}")
        return original_connect_ex(self, address)

    original_getaddrinfo = socket.getaddrinfo

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        # No name lookups either: a DNS query is a packet to another address.
        if host not in ("127.0.0.1", b"127.0.0.1"):
            attempts.append(("getaddrinfo", host))
            raise socket.gaierror(socket.EAI_NONAME, f"test guard: no lookup of {host!r}")
        return original_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    yield attempts
    bad = [a for a in attempts if not (isinstance(a, tuple) and a[0] == "127.0.0.1")]
    assert bad == [], f"connections attempted outside 127.0.0.1: {bad}"


@pytest.fixture
def server(connections: list[object]) -> Iterator[Server]:
    """A running test server; asserts afterwards that only 127.0.0.1 talked to it."""
    httpd = _Server(("127.0.0.1", 0), _Handler)
    state = Server(routes=dict(ROUTES))
    httpd.state = state
    host, port = httpd.server_address[:2]
    state.base = f"http://{host!s}:{port}"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.01})
    thread.start()
    try:
        yield state
    finally:
        state.release.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)
    assert {s.client for s in state.seen} <= {"127.0.0.1"}


class Waits:
    """An injected ``sleep``: records each delay and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        await asyncio.sleep(0)


def finding(url: str, *alternatives: str, line: int = 3) -> Finding:
    return Finding(
        path="docs/page.md",
        url=url,
        alternatives=alternatives,
        raw=url,
        line=line,
        column=5,
        end_line=line,
        end_column=5 + len(url),
        origin="bare",
        kind="bare",
    )


@pytest.fixture
def options(tmp_path: Path) -> LinkOptions:
    return LinkOptions(timeout=2.0, retries=0, backoff=0.01, cache_path=tmp_path / "links.json")


def run(
    findings: list[Finding], options: LinkOptions, waits: Waits | None = None, now: float = 1e9
) -> list[Diagnostic]:
    return diagnose_links(findings, options, sleep=waits or Waits(), clock=lambda: now)


def messages(diagnostics: list[Diagnostic]) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in diagnostics]


# --- statuses, redirects, methods ---------------------------------------------------


def test_accepted_link_gives_no_diagnostic(server: Server, options: LinkOptions) -> None:
    assert run([finding(server.url("/ok"))], options) == []
    assert server.requests() == [("HEAD", "/ok")]
    (seen,) = server.seen
    assert seen.headers["User-Agent"].startswith("urlsift/")
    assert seen.headers["Host"] == server.base.removeprefix("http://")


def test_missing_page_is_a_broken_link_at_the_findings_span(
    server: Server, options: LinkOptions
) -> None:
    url = server.url("/missing")
    (diagnostic,) = run([finding(url, line=7)], options)
    assert diagnostic == Diagnostic(
        path="docs/page.md",
        line=7,
        column=5,
        code="URL101",
        severity="error",
        message=f"HTTP 404 Not Found for {url}",
        url=url,
        end_line=7,
        end_column=5 + len(url),
    )
    # 404 on HEAD may mean "HEAD not implemented": GET gets the last word.
    assert server.requests() == [("HEAD", "/missing"), ("GET", "/missing")]


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/moved", "redirects permanently to {base}/ok (301)"),
        ("/moved-308", "redirects permanently to {base}/ok (308)"),
        ("/found", "redirects temporarily to {base}/ok (302, 307)"),
        ("/mixed", "redirects to {base}/ok (301, 302, 307)"),
    ],
)
def test_redirects_are_followed_and_reported(
    server: Server, options: LinkOptions, path: str, words: str
) -> None:
    url = server.url(path)
    (diagnostic,) = run([finding(url)], options)
    assert (diagnostic.code, diagnostic.severity) == ("URL102", "warning")
    assert diagnostic.message == f"{url} " + words.format(base=server.base)
    assert server.requests()[-1] == ("HEAD", "/ok")


def test_redirect_to_a_missing_page_is_broken(server: Server, options: LinkOptions) -> None:
    url = server.url("/moved-missing")
    assert messages(run([finding(url)], options)) == [
        ("URL101", f"HTTP 404 Not Found for {url} (redirected to {server.url('/missing')})")
    ]


def test_redirect_loop_and_too_many_redirects(server: Server, options: LinkOptions) -> None:
    loop, chain = server.url("/loop-a"), server.url("/mixed")
    limited = dataclasses.replace(options, max_redirects=2)
    assert messages(run([finding(loop), finding(chain)], limited)) == [
        (
            "URL101",
            f"cannot follow the redirects of {loop}: redirect loop: "
            f"{loop} -> {server.url('/loop-b')} -> {loop}",
        ),
        ("URL101", f"cannot follow the redirects of {chain}: more than 2 redirects"),
    ]


def test_redirect_to_another_scheme_is_not_followed(
    server: Server, options: LinkOptions, connections: list[object]
) -> None:
    url = server.url("/to-ftp")
    ((code, message),) = messages(run([finding(url)], options))
    assert code == "URL101"
    assert "ftp://127.0.0.1/file, which cannot be checked" in message
    port = int(server.base.rsplit(":", 1)[1])
    assert connections == [("127.0.0.1", port)] * len(connections)


def test_head_refused_falls_back_to_get(server: Server, options: LinkOptions) -> None:
    url = server.url("/no-head")
    assert run([finding(url)], options) == []
    assert server.requests() == [("HEAD", "/no-head"), ("GET", "/no-head")]


def test_method_policies(server: Server, options: LinkOptions) -> None:
    url = server.url("/no-head")
    head_only = dataclasses.replace(options, method="head", cache_path=None)
    assert messages(run([finding(url)], head_only)) == [
        ("URL101", f"HTTP 405 Method Not Allowed for {url}")
    ]
    get_only = dataclasses.replace(options, method="get", cache_path=None)
    assert run([finding(url)], get_only) == []
    assert server.requests() == [("HEAD", "/no-head"), ("GET", "/no-head")]


@pytest.mark.timeout(60)  # a hang guard only: reading 64 MiB would not hang, the count fails
def test_get_fallback_does_not_download_the_body(server: Server, options: LinkOptions) -> None:
    assert run([finding(server.url("/big"))], options) == []
    assert server.requests() == [("HEAD", "/big"), ("GET", "/big")]
    assert server.body_done.wait(5)  # the client hung up ...
    assert server.body_bytes_sent < 32 << 20  # ... long before the 64 MiB announced


def test_accept_configures_what_resolves(server: Server, options: LinkOptions) -> None:
    accepting = dataclasses.replace(options, accept=DEFAULT_ACCEPT | {404})
    assert run([finding(server.url("/missing"))], accepting) == []
    assert server.requests() == [("HEAD", "/missing")]  # accepted: no GET fallback


def test_fragment_is_not_sent_and_each_url_is_fetched_once(
    server: Server, options: LinkOptions
) -> None:
    url = server.url("/missing")
    findings = [finding(url, line=1), finding(url + "#part", line=2), finding(url, line=3)]
    result = run(findings, options)
    assert [(d.line, d.code, d.url) for d in result] == [
        (1, "URL101", url),
        (2, "URL101", url + "#part"),
        (3, "URL101", url),
    ]
    assert result[1].message == f"HTTP 404 Not Found for {url}#part"
    assert server.requests() == [("HEAD", "/missing"), ("GET", "/missing")]


def test_excluded_and_non_http_links_are_never_fetched(
    server: Server, options: LinkOptions
) -> None:
    excluding = dataclasses.replace(options, exclude=(r"/miss", r"^https?://nowhere\."))
    findings = [
        finding(server.url("/missing")),
        finding("http://nowhere.example/x"),
        finding("ftp://127.0.0.1/pub/file"),
        finding("mailto:someone@127.0.0.1"),
        finding("http:///no-host"),
    ]
    assert run(findings, excluding) == []
    assert server.requests() == []


# --- retries, timeouts, connection errors ----------------------------------------------


def test_429_waits_for_retry_after_then_succeeds(server: Server, options: LinkOptions) -> None:
    waits = Waits()
    retrying = dataclasses.replace(options, retries=2)
    assert run([finding(server.url("/busy"))], retrying, waits) == []
    assert waits.delays == [1.0]
    assert server.requests() == [("HEAD", "/busy"), ("HEAD", "/busy")]


def test_retry_after_is_capped(server: Server, options: LinkOptions) -> None:
    waits = Waits()
    capped = dataclasses.replace(options, retries=1, max_retry_after=0.5)
    assert run([finding(server.url("/busy-long"))], capped, waits) == []
    assert waits.delays == [0.5]


def test_429_really_waits_when_not_injected(
    server: Server, options: LinkOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without an injected sleep the checker waits with asyncio.sleep, for the Retry-After
    # asked; the wait is recorded (and shortened), not timed.
    asked: list[float] = []
    real_sleep = asyncio.sleep

    async def recording_sleep(delay: float, *args: Any, **kwargs: Any) -> Any:
        if delay > 0:
            asked.append(delay)
        return await real_sleep(0, *args, **kwargs)

    monkeypatch.setattr(asyncio, "sleep", recording_sleep)
    retrying = dataclasses.replace(options, retries=1)
    assert diagnose_links([finding(server.url("/busy"))], retrying) == []
    assert asked == [1.0]
    assert server.requests() == [("HEAD", "/busy"), ("HEAD", "/busy")]


def test_server_errors_are_retried_with_backoff(server: Server, options: LinkOptions) -> None:
    waits = Waits()
    url = server.url("/down")
    retrying = dataclasses.replace(options, retries=3, backoff=0.1, max_backoff=0.3)
    assert messages(run([finding(url)], retrying, waits)) == [
        ("URL101", f"HTTP 503 Service Unavailable for {url}")
    ]
    assert server.requests() == [("HEAD", "/down")] * 4
    assert len(waits.delays) == 3
    for delay, ceiling in zip(waits.delays, (0.1, 0.2, 0.3), strict=True):
        assert ceiling / 2 <= delay <= ceiling  # exponential, capped, jittered


@pytest.mark.timeout(60)  # a hang guard only
def test_slow_server_is_a_link_timeout(server: Server, options: LinkOptions) -> None:
    waits = Waits()
    impatient = dataclasses.replace(options, timeout=0.2, retries=1)
    result = run([finding(server.url("/slow"))], impatient, waits)
    assert len(waits.delays) == 1  # one backoff between the two tries
    host = server.base.removeprefix("http://")
    assert messages(result) == [("URL103", f"no answer from {host} in 0.2 s (2 tries)")]
    assert result[0].severity == "error"
    assert server.requests() == [("HEAD", "/slow")] * 2
    assert not (impatient.cache_path and impatient.cache_path.exists())  # nothing cached


def test_refused_connection_is_a_broken_link(
    connections: list[object], options: LinkOptions
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/x"
    ((code, message),) = messages(run([finding(url)], dataclasses.replace(options, retries=1)))
    assert code == "URL101"
    assert message.startswith(f"cannot connect to 127.0.0.1:{port}: ")
    assert len([a for a in connections if a == ("127.0.0.1", port)]) == 2  # retried once


# --- concurrency ---------------------------------------------------------------------


@pytest.mark.parametrize(("per_host", "overall", "expected"), [(2, 6, 2), (6, 1, 1), (3, 6, 3)])
def test_concurrency_limits(
    server: Server, options: LinkOptions, per_host: int, overall: int, expected: int
) -> None:
    limited = dataclasses.replace(
        options, max_per_host=per_host, max_concurrency=overall, cache_path=None
    )
    server.inflight_goal = expected
    findings = [finding(server.url(f"/inflight?n={n}")) for n in range(6)]
    assert run(findings, limited) == []
    assert len(server.requests()) == 6
    assert server.max_inflight == expected


# --- cache -----------------------------------------------------------------------------


def test_cache_hit_sends_no_request(server: Server, options: LinkOptions) -> None:
    findings = [finding(server.url("/ok")), finding(server.url("/moved"))]
    first = run(findings, options, now=1000.0)
    assert len(server.requests()) == 3
    assert options.cache_path is not None
    stored = json.loads(options.cache_path.read_text(encoding="utf-8"))
    assert stored["entries"][server.url("/moved")] == {
        "status": 200,
        "redirects": [[301, server.url("/ok")]],
        "checked": 1000.0,
    }
    second = run(findings, options, now=1000.0 + options.cache_ttl - 1)
    assert second == first  # the redirect is still reported, from the cache
    assert len(server.requests()) == 3


def test_cache_entries_expire(server: Server, options: LinkOptions) -> None:
    findings = [finding(server.url("/ok"))]
    short = dataclasses.replace(options, cache_ttl=60.0)
    run(findings, short, now=1000.0)
    run(findings, short, now=1059.0)
    assert len(server.requests()) == 1
    run(findings, short, now=1061.0)
    assert len(server.requests()) == 2


def test_failures_are_never_cached(server: Server, options: LinkOptions) -> None:
    findings = [finding(server.url("/missing")), finding(server.url("/ok"))]
    run(findings, options)
    run(findings, options)
    assert server.requests("/missing") == [("HEAD", "/missing"), ("GET", "/missing")] * 2
    assert server.requests("/ok") == [("HEAD", "/ok")]
    assert options.cache_path is not None
    stored = json.loads(options.cache_path.read_text(encoding="utf-8"))
    assert list(stored["entries"]) == [server.url("/ok")]


def test_cached_status_no_longer_accepted_is_checked_again(
    server: Server, options: LinkOptions
) -> None:
    findings = [finding(server.url("/ok"))]
    run(findings, options)
    strict = dataclasses.replace(options, accept=frozenset({204}))
    assert messages(run(findings, strict)) == [("URL101", f"HTTP 200 OK for {server.url('/ok')}")]
    assert len(server.requests("/ok")) == 2  # the cached 200 was not trusted


@pytest.mark.parametrize(
    "content", ["", "not json", "[1, 2]", '{"format": 1, "entries": {"x": 3}}', '{"format": 99}']
)
def test_corrupt_cache_file_is_ignored_and_replaced(
    server: Server, options: LinkOptions, content: str
) -> None:
    # A file of urlsift's (it starts with the signature) with a corrupt rest.
    assert options.cache_path is not None
    options.cache_path.write_bytes(SIGNATURE + content.encode().removeprefix(b"{"))
    assert run([finding(server.url("/ok"))], options) == []
    assert server.requests() == [("HEAD", "/ok")]
    stored = json.loads(options.cache_path.read_text(encoding="utf-8"))
    assert stored["format"] == CACHE_FORMAT
    assert server.url("/ok") in stored["entries"]


def test_unwritable_cache_is_not_fatal(
    server: Server, options: LinkOptions, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    unwritable = dataclasses.replace(options, cache_path=blocker / "links.json")
    assert run([finding(server.url("/ok"))], unwritable) == []
    assert run([finding(server.url("/ok"))], unwritable) == []
    assert len(server.requests()) == 2
    assert list(tmp_path.iterdir()) == [blocker]  # no temporary file left behind


def test_cache_disabled(server: Server, options: LinkOptions, tmp_path: Path) -> None:
    uncached = dataclasses.replace(options, cache_path=None)
    run([finding(server.url("/ok"))], uncached)
    run([finding(server.url("/ok"))], uncached)
    assert len(server.requests()) == 2
    assert list(tmp_path.iterdir()) == []


# --- readings at an ambiguous hyphen ---------------------------------------------------


def test_only_the_alternative_reading_resolves(server: Server, options: LinkOptions) -> None:
    # Written "/a-" at a line end then "b": the primary reading keeps the hyphen.
    primary, other = server.url("/a-b"), server.url("/ab")
    assert messages(run([finding(primary, other)], options)) == [
        (
            "URL101",
            f"of the readings {primary} and {other}, only the second resolves "
            f"(HTTP 404 Not Found for {primary})",
        )
    ]


def test_primary_reading_resolves(server: Server, options: LinkOptions) -> None:
    primary, other = server.url("/hy-phen"), server.url("/hyphen")
    assert run([finding(primary, other)], options) == []
    assert {path for _, path in server.requests()} == {"/hy-phen", "/hyphen"}


def test_both_readings_resolve(server: Server, options: LinkOptions) -> None:
    assert run([finding(server.url("/hy-phen"), server.url("/ab"))], options) == []


def test_no_reading_resolves(server: Server, options: LinkOptions) -> None:
    primary, other = server.url("/x-y"), server.url("/xy")
    assert messages(run([finding(primary, other)], options)) == [
        (
            "URL101",
            f"none of the readings {primary} and {other} resolves: "
            f"HTTP 404 Not Found for {primary}; HTTP 404 Not Found for {other}",
        )
    ]


# --- options ------------------------------------------------------------------------


def test_default_options() -> None:
    options = LinkOptions(cache_path=None)
    assert options.accept == frozenset(range(200, 300))
    assert options.method == "head-get"
    # The version, and a project URL only when the metadata names one (never a guess).
    assert re.fullmatch(r"urlsift/[0-9][^ ]*( \(\+https://\S+\))?", options.user_agent)
    assert ("(+" in options.user_agent) == (tool_info().information_uri is not None)
    assert LinkOptions.from_config({}) == LinkOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.timeout = 1.0  # type: ignore[misc]
    assert not hasattr(options, "__dict__")


def test_default_cache_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_path() == tmp_path / "urlsift" / "links.json"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_cache_path() == tmp_path / ".cache" / "urlsift" / "links.json"


def test_from_config_reads_every_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    options = LinkOptions.from_config(
        {
            "timeout": 3,
            "retries": 0,
            "backoff": 0.25,
            "max-backoff": 4,
            "max-retry-after": 10.5,
            "max-concurrency": 5,
            "max-per-host": 1,
            "accept": [200, "203..206", " 429 "],
            "exclude": ["^https://internal\\.", "example\\.org"],
            "max-redirects": 3,
            "user-agent": "bot/1",
            "method": "get",
            "cache-path": "~/links.json",
            "cache-ttl": 3600,
        }
    )
    assert options == LinkOptions(
        timeout=3.0,
        retries=0,
        backoff=0.25,
        max_backoff=4.0,
        max_retry_after=10.5,
        max_concurrency=5,
        max_per_host=1,
        accept=frozenset({200, 203, 204, 205, 206, 429}),
        exclude=("^https://internal\\.", "example\\.org"),
        max_redirects=3,
        user_agent="bot/1",
        method="get",
        cache_path=tmp_path / "links.json",
        cache_ttl=3600.0,
    )
    assert LinkOptions.from_config({"cache-path": False}).cache_path is None
    assert LinkOptions.from_config({"exclude": "one"}).exclude == ("one",)


@pytest.mark.parametrize(
    ("table", "fragment"),
    [
        ({"timout": 3}, "unknown key"),
        ({"timeout": True}, "timeout True: must be a number"),
        ({"timeout": "10"}, "must be a number"),
        ({"timeout": 0}, "timeout 0.0: must be a positive number"),
        ({"retries": -1}, "retries -1: must be an integer in 0..100"),
        ({"retries": 1.5}, "must be an integer"),
        ({"max-per-host": 0}, "max-per-host 0: must be an integer >= 1"),
        ({"accept": ["300..200"]}, "from 100 to 599, low to high"),
        ({"accept": ["2xx"]}, 'a range ("200..299")'),
        ({"accept": [99]}, "from 100 to 599"),
        ({"accept": []}, "at least one status"),
        ({"exclude": ["("]}, "not a regular expression"),
        ({"exclude": [1]}, "list of regular expressions"),
        ({"method": "post"}, "must be one of head-get, head, get"),
        ({"cache-path": True}, "a file path or false"),
        ({"cache-ttl": -1}, "must be a number of seconds >= 0"),
        ({"user-agent": ""}, "non-empty printable"),
    ],
)
def test_from_config_errors(table: dict[str, object], fragment: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(fragment)) as caught:
        LinkOptions.from_config(table)
    assert str(caught.value).startswith("invalid [tool.urlsift.links]")


def test_cli_overrides_are_checked() -> None:
    options = LinkOptions(cache_path=None)
    assert dataclasses.replace(options, timeout=0.5, exclude=("x",)).timeout == 0.5
    with pytest.raises(ConfigError, match="invalid timeout -1"):
        dataclasses.replace(options, timeout=-1)
    with pytest.raises(ConfigError, match=r"invalid exclude '\[': not a regular expression"):
        dataclasses.replace(options, exclude=("[",))


def test_retry_after_parsing_and_status_tables() -> None:
    now = 1_700_000_000.0
    assert parse_retry_after("120", now) == 120.0
    assert parse_retry_after(formatdate(now + 30, usegmt=True), now) == pytest.approx(30.0)
    assert parse_retry_after(formatdate(now - 30, usegmt=True), now) == 0.0
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after("-5", now) is None
    assert all(is_retryable(s) for s in (429, 500, 502, 503, 504))
    assert not any(is_retryable(s) for s in (200, 301, 404, 501, 505))
    assert {405, 501, 403, 404, 400} <= HEAD_REFUSED
    assert not {429, 408, 503} & HEAD_REFUSED


def test_documented_configuration_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/lint-links.md shows every key with its default value.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    text = (Path(__file__).parent.parent / "docs" / "lint-links.md").read_text("utf-8")
    block = re.search(r"```toml\n\[tool\.urlsift\.links\]\n(.*?)```", text, re.DOTALL)
    assert block is not None
    table = tomllib.loads(block.group(1))
    assert set(table) == set(_CONFIG_KEYS)
    table["user-agent"] = table["user-agent"].replace("<version>", tool_info().version)
    assert LinkOptions.from_config(table) == LinkOptions()


def test_cli_check_links_end_to_end(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The whole path: a document, `urlsift lint --check-links`, the real local server, the
    # text output; the text rules (URL003) and the link rules side by side.
    from click.testing import CliRunner

    from urlsift.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    base = server.url("")
    (tmp_path / "page.md").write_text(
        f"Good: {base}/ok\n\nGone: {base}/missing\n\nMoved: <{base}/moved>\n\n"
        f"Broken: <URL:{base}/ok-\n  not-there>\n\nSkipped: {base}/missing?skip\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        main,
        # URL007: the test server's port is not http's default.
        [
            *("lint", "--check-links", "--no-cache", "--exclude-link", r"\?skip$"),
            *("--ignore", "URL007", "page.md"),
        ],
    )
    lines = result.output.splitlines()
    codes = [line.split(": ", 1)[1].split(" ", 1)[0] for line in lines if line.startswith("page")]
    assert codes == ["URL101", "URL102", "URL003", "URL101"], result.output
    assert f"HTTP 404 Not Found for {base}/missing" in lines[0]
    assert f"redirects permanently to {base}/ok (301)" in lines[1]
    assert "none of the readings" in lines[3]
    assert result.exit_code == 1
    assert ("HEAD", "/missing?skip") not in server.requests()
