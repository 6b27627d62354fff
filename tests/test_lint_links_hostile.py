"""``--check-links`` against hostile links, servers and caches (issue 13, items 11-15).

Every test runs under the ``connections`` guard of ``test_lint_links``: a connection or a
name lookup for anything but 127.0.0.1 is refused and fails the test. Where a test needs
"other hosts", it routes every connection to the loopback server through the checker's
internal seam (:class:`~urlsift.lint._http.AddressPolicy`: a resolver that needs no DNS, a
network layer that connects to the test server whatever address was vetted, a classifier
of public addresses), so no packet ever leaves 127.0.0.1.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import httpcore
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_lint_links import Server, _Handler, finding, messages
from urlsift.cli import main
from urlsift.lint._addresses import IPAddress, numeric_host, redact, special_kind
from urlsift.lint._http import AddressPolicy
from urlsift.lint._linkcache import CACHE_FORMAT, SIGNATURE
from urlsift.lint.links import LinkOptions, diagnose_links
from urlsift.lint.model import RULES, Diagnostic, Finding

pytest_plugins = ["test_lint_links"]  # its fixtures: connections, server, options

LOOPBACK = ipaddress.ip_address("127.0.0.1")


def _port(server: Server) -> int:
    return int(server.base.rsplit(":", 1)[1])


class Resolver:
    """An injected resolver: a fixed table of names, every lookup recorded."""

    def __init__(self, table: dict[str, Sequence[str]] | None = None) -> None:
        self.table = table or {}
        self.calls: list[str] = []

    async def __call__(self, host: str, port: int) -> Sequence[str]:
        self.calls.append(host)
        if host not in self.table:
            raise OSError(f"test resolver: unknown name {host!r}")
        return self.table[host]


class ToServer(httpcore.AsyncNetworkBackend):
    """Network layer: every connection goes to the test server; the addresses asked for
    (after the checker's vetting) are recorded."""

    def __init__(self, port: int, unreachable: Iterable[str] = ()) -> None:
        self.port = port
        self.unreachable = set(unreachable)
        self.asked: list[tuple[str, int]] = []
        self.timeouts: list[float | None] = []
        self.inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        self.asked.append((host, port))
        self.timeouts.append(timeout)
        if host in self.unreachable:
            raise httpcore.ConnectError(f"test network: {host} is unreachable")
        return await self.inner.connect_tcp("127.0.0.1", self.port, timeout)

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Any = None
    ) -> httpcore.AsyncNetworkStream:
        raise NotImplementedError

    async def sleep(self, seconds: float) -> None:
        raise NotImplementedError


def _loopback_is_public(address: IPAddress) -> bool:
    # The test server plays a public site; every other special address stays special.
    return address == LOOPBACK or special_kind(address) is None


def check(
    findings: list[Finding], options: LinkOptions, policy: AddressPolicy | None = None
) -> list[Diagnostic]:
    async def no_wait(seconds: float) -> None:
        pass

    if policy is None:  # the real rules
        return diagnose_links(findings, options, sleep=no_wait, clock=lambda: 1e9)
    return diagnose_links(findings, options, sleep=no_wait, clock=lambda: 1e9, policy=policy)


def _route(server: Server, path: str, status: int, **headers: str) -> None:
    server.routes[path] = lambda handler, method: handler.answer(status, **headers)


# --- item 11: no URL aborts the run ---------------------------------------------------

HOSTILE = [
    "https://xn--ls8h.la/",  # an A-label that decodes to a disallowed code point
    "http://xn--zz.com/",  # an invalid A-label
    "http://xn--/d",  # an empty A-label
    "http://127.0.0.1:65536/x",  # port out of range (anyio raised an ExceptionGroup)
    "http://127.0.0.1:0/x",
    "http://127.0.0.1:99999999999999999999/x",
    "http://" + "a" * 64 + ".example/",  # a label longer than 63
    "http://" + "abcdefghi." * 30 + "example/",  # a host longer than 253
    "http://[::1/",  # an unclosed IPv6 literal
    "http://[zz]/",  # not an IPv6 address
    "http://[::1]]/",
    "http://exa mple.com/",  # a space in the host
    "http://ex\x00ample.com/",
    "http://h/\r\nX-Injected: 1",  # header injection
    "http://h\r\nX-Injected: 1/",
    "http://%00/",
    "http://host%2F..%2F/",
    "http://0177.0.0.01.1/",
    "https://\u00e9\u0301\u0000.example/",
    "http://\ud800.example/",  # a lone surrogate (undecodable input bytes)
    "http://.../",
    "http://-a-.example/",
]


def test_hostile_urls_are_each_their_own_diagnostic(server: Server, options: LinkOptions) -> None:
    findings = [finding(url, line=n) for n, url in enumerate(HOSTILE, 1)]
    missing = server.url("/missing")
    findings.append(finding(missing, line=99))
    result = check(findings, options)
    by_line = {d.line: d for d in result}
    assert by_line[99].message == f"HTTP 404 Not Found for {missing}"
    for n, url in enumerate(HOSTILE, 1):
        diagnostic = by_line.get(n)
        assert diagnostic is not None, url
        assert diagnostic.code == "URL101", (url, diagnostic)
        assert diagnostic.message.startswith(f"cannot check {url}: "), diagnostic.message
    assert server.requests() == [("HEAD", "/missing"), ("GET", "/missing")]


def test_issue_examples_through_the_cli(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The run reported in the issue: exit 2 and no diagnostics for any file.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.md").write_text(
        "https://xn--ls8h.la/ http://xn--zz.com/ http://xn--/d http://127.0.0.1:65536/x\n",
        encoding="utf-8",
    )
    (tmp_path / "b.md").write_text(f"{server.url('/missing')}\n", encoding="utf-8")
    result = CliRunner().invoke(
        main, ["lint", "--check-links", "--no-cache", "--select", "URL101", "."]
    )
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert sum(line.startswith("a.md:") for line in lines) == 4, result.output
    assert sum(line.startswith("b.md:") for line in lines) == 1, result.output


_HOSTS = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="0123456789abcdefxXn-.:[]%", max_size=30),
    st.from_regex(r"xn--[a-z0-9-]{0,12}(\.[a-z]{1,4})?", fullmatch=True),
    st.integers(min_value=0, max_value=2**40).map(str),
    st.ip_addresses().map(lambda a: f"[{a}]" if a.version == 6 else str(a)),
)
_PORTS = st.one_of(
    st.just(""),
    st.integers(min_value=-5, max_value=2**70).map(lambda p: f":{p}"),
    st.text(max_size=6),
)
_URLS = st.one_of(
    st.builds(
        lambda scheme, user, host, port, path: f"{scheme}://{user}{host}{port}/{path}",
        st.sampled_from(["http", "https", "HTTP", "hTtPs"]),
        st.sampled_from(["", "u:p@", "a@b@", ":@"]),
        _HOSTS,
        _PORTS,
        st.text(max_size=20),
    ),
    st.text(max_size=40).map(lambda rest: "http://" + rest),
)


@settings(max_examples=60, suppress_health_check=list(HealthCheck))
@given(urls=st.lists(_URLS, min_size=1, max_size=6))
def test_no_url_string_aborts_the_run(
    server: Server, options: LinkOptions, urls: list[str]
) -> None:
    # Whatever the URLs, the run ends, and the known-broken link is still reported. Every
    # name resolves to a private address and every connection lands on the test server,
    # so the whole per-URL path (parsing, limits, pinning, httpx, httpcore) is exercised.
    policy = AddressPolicy(resolve=_private, network=ToServer(_port(server)))
    quick = dataclasses.replace(options, cache_path=None, timeout=30.0)
    missing = server.url("/missing")
    findings = [finding(url, line=n) for n, url in enumerate(urls, 1)]
    findings.append(finding(missing, line=99))
    result = check(findings, quick, policy)
    assert [d.code for d in result if d.line == 99] == ["URL101"]
    assert all(d.code in {"URL101", "URL102", "URL103", "URL104"} for d in result)
    assert len(result) <= len(findings)


async def _private(host: str, port: int) -> Sequence[str]:
    # Every name resolves to a private address (reached through ToServer).
    return ["10.1.2.3"]


def _raw_redirect(location: bytes) -> Any:
    def route(handler: _Handler, method: str) -> None:
        handler.wfile.write(
            b"HTTP/1.1 302 Found\r\nLocation: " + location + b"\r\nContent-Length: 0\r\n\r\n"
        )

    return route


_LOCATIONS = st.one_of(
    _URLS.map(lambda url: url.encode("utf-8", "surrogatepass")),
    st.binary(max_size=40),
    st.sampled_from(
        [
            b"//xn--ls8h.la/",
            b"http://127.0.0.1:65536/",
            b"http://[::1/",
            b"\xff\xfe",
            b"http://a:b@h\x00/",
            b"javascript:alert(1)",
            b"http://0x7f000001/",
        ]
    ),
).map(lambda raw: raw.replace(b"\r", b"").replace(b"\n", b""))


@settings(max_examples=60, suppress_health_check=list(HealthCheck))
@given(locations=st.lists(_LOCATIONS, min_size=1, max_size=4))
def test_no_redirect_location_aborts_the_run(
    server: Server, options: LinkOptions, locations: list[bytes]
) -> None:
    # Hostile servers: any bytes in Location. The chain starts at a public name, so the
    # private-address checks run on every hop too.
    port = _port(server)
    for n, location in enumerate(locations):
        server.routes[f"/fuzz/{n}"] = _raw_redirect(location)

    async def resolve(host: str, port: int) -> Sequence[str]:
        return ["93.184.216.34"] if host == "public.test" else ["10.1.2.3"]

    policy = AddressPolicy(resolve=resolve, network=ToServer(port))
    quick = dataclasses.replace(options, cache_path=None, timeout=30.0)
    findings = [
        finding(f"http://public.test:{port}/fuzz/{n}", line=n) for n in range(len(locations))
    ]
    findings.append(finding(server.url("/missing"), line=99))
    result = check(findings, quick, policy)
    assert [d.code for d in result if d.line == 99] == ["URL101"]
    assert all(d.code in {"URL101", "URL102", "URL103", "URL104"} for d in result)


# --- item 12: a corrupt cache never blocks a run ---------------------------------------

CORRUPT: list[tuple[str, bytes]] = [
    ("deep-nesting", b"[" * 100_000),
    ("deep-object", b'{"a":' * 50_000),
    ("truncated", b'{"format": 1, "entries": {"http://x/": {"status": 2'),
    ("binary", bytes(range(256)) * 4),
    ("utf-16", '{"format": 1, "entries": {}}'.encode("utf-16")),
    ("wrong-top", b"[1, 2, 3]"),
    ("wrong-format", b'{"format": "1", "entries": {}}'),
    ("entries-a-list", b'{"format": 1, "entries": []}'),
    ("entry-wrong-types", b'{"format": 1, "entries": {"u": {"status": "200"}}}'),
    (
        "entry-deep",
        b'{"format": 1, "entries": {"u": {"status": 200, "checked": 1, "redirects": '
        + b"[" * 5000
        + b"]" * 5000
        + b"}}}",
    ),
    ("huge-number", b'{"format": 1, "entries": {"u": {"status": 1' + b"0" * 5000 + b"}}}"),
    ("nan", b'{"format": 1, "entries": {"u": {"status": 200, "redirects": [], "checked": NaN}}}'),
]


def signed(content: bytes) -> bytes:
    """``content`` behind urlsift's signature: a corrupt cache of urlsift's own (a file
    without the signature is never replaced: ``test_lint_links_robust``)."""
    body = content.removeprefix(b"{").replace(b'"format": 1', b'"format": 2')
    return SIGNATURE + body


@pytest.mark.parametrize(("name", "content"), CORRUPT, ids=[name for name, _ in CORRUPT])
def test_corrupt_cache_is_ignored_said_once_and_replaced(
    server: Server,
    options: LinkOptions,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: bytes,
) -> None:
    assert options.cache_path is not None
    options.cache_path.write_bytes(signed(content))
    url = server.url("/ok")
    assert diagnose_links([finding(url)], options, clock=lambda: 1e9) == []
    assert server.requests() == [("HEAD", "/ok")]
    stored = json.loads(options.cache_path.read_text(encoding="utf-8"))
    assert stored["format"] == CACHE_FORMAT
    assert url in stored["entries"]
    err = capsys.readouterr().err
    notes = [line for line in err.splitlines() if "link cache" in line]
    if name != "nan":  # a NaN time is merely a stale entry
        assert len(notes) == 1, err
        assert str(options.cache_path) in notes[0]
        assert "it is ignored (and replaced" in notes[0]
    # The next run reads the repaired file, asks nothing and says nothing.
    assert diagnose_links([finding(url)], options, clock=lambda: 1e9) == []
    assert len(server.requests()) == 1
    assert "link cache" not in capsys.readouterr().err


def test_corrupt_cache_is_replaced_even_when_nothing_resolves(
    server: Server, options: LinkOptions
) -> None:
    assert options.cache_path is not None
    options.cache_path.write_bytes(signed(b"[" * 100_000))
    notes: list[str] = []
    result = diagnose_links(
        [finding(server.url("/missing"))], options, clock=lambda: 1e9, notice=notes.append
    )
    assert [d.code for d in result] == ["URL101"]
    assert len(notes) == 1
    assert json.loads(options.cache_path.read_text(encoding="utf-8")) == {
        "urlsift": "link-cache",
        "entries": {},
        "format": CACHE_FORMAT,
    }


# --- item 13: no redirect from a public address into a private one ----------------------


def test_redirect_to_the_metadata_address_is_refused_without_a_connection(
    server: Server, options: LinkOptions, connections: list[object]
) -> None:
    # The classifier counts the test server as public; the redirect then aims at the cloud
    # metadata address. The guard fails the test if any connection to it is attempted.
    _route(server, "/to-metadata", 302, Location="http://169.254.169.254/latest/meta-data/")
    url = server.url("/to-metadata")
    policy = AddressPolicy(is_public=_loopback_is_public)
    result = check([finding(url)], options, policy)
    assert messages(result) == [
        (
            "URL104",
            f"{url} redirects to http://169.254.169.254/latest/meta-data/, not followed: "
            "169.254.169.254 is a link-local address, reached from a public address "
            "(allow-private-redirects follows it)",
        )
    ]
    assert result[0].severity == "error"
    assert set(connections) == {("127.0.0.1", _port(server))}
    assert server.requests() == [("HEAD", "/to-metadata")]


@pytest.mark.parametrize(
    ("location", "kind"),
    [
        ("http://127.0.0.3:{port}/ok", "loopback"),
        ("http://0x7f000001:{port}/ok", "loopback"),
        ("http://2130706433:{port}/ok", "loopback"),
        ("http://127.1:{port}/ok", "loopback"),
        ("http://0x7f.0.0.1:{port}/ok", "loopback"),
        ("http://127.0.0.1.:{port}/ok", "loopback"),
        ("http://[::1]:{port}/ok", "loopback"),
        ("http://[::ffff:127.0.0.3]:{port}/ok", "loopback"),
        ("http://[::ffff:a9fe:a9fe]/", "link-local"),
        ("http://[fe80::1%25eth0]/", "link-local"),
        ("http://10.0.0.1/", "private"),
        ("http://192.168.1.1/", "private"),
        ("http://100.64.0.1/", "reserved"),
        ("http://0.0.0.0:{port}/", "unspecified"),
        ("http://localhost:{port}/ok", "loopback"),
        ("http://LocalHost.:{port}/ok", "loopback"),
        ("http://api.localhost:{port}/ok", "loopback"),
    ],
)
def test_redirects_into_special_ranges_are_refused(
    server: Server, options: LinkOptions, connections: list[object], location: str, kind: str
) -> None:
    # The link is a public site (a name resolving to a public address, every connection
    # routed to the test server); the redirect aims at a special address in some spelling.
    port = _port(server)
    _route(server, "/jump", 302, Location=location.format(port=port))
    network = ToServer(port)
    policy = AddressPolicy(resolve=Resolver({"public.test": ["93.184.216.34"]}), network=network)
    url = f"http://public.test:{port}/jump"
    ((code, message),) = messages(check([finding(url)], options, policy))
    assert code == "URL104", message
    assert f"is a {kind} address" in message or f"is a {kind} name" in message
    assert server.requests() == [("HEAD", "/jump")]
    assert network.asked == [("93.184.216.34", port)]  # nothing for the redirect
    assert all(a == ("127.0.0.1", port) for a in connections)


def test_a_name_resolving_to_a_private_address_is_refused_at_connect_time(
    server: Server, options: LinkOptions, connections: list[object]
) -> None:
    port = _port(server)
    _route(server, "/to-inside", 301, Location=f"http://inside.test:{port}/ok")
    resolver = Resolver({"inside.test": ["10.9.8.7"]})
    network = ToServer(port)
    policy = AddressPolicy(is_public=_loopback_is_public, resolve=resolver, network=network)
    url = server.url("/to-inside")
    assert messages(check([finding(url)], options, policy)) == [
        (
            "URL104",
            f"{url} redirects to http://inside.test:{port}/ok, not followed: inside.test "
            "resolves to 10.9.8.7, which is a private address, reached from a public address "
            "(allow-private-redirects follows it)",
        )
    ]
    assert resolver.calls == ["inside.test"]
    assert network.asked == [("127.0.0.1", port)]  # the link itself; never 10.9.8.7


def test_the_vetted_address_is_the_one_connected_to(
    server: Server, options: LinkOptions, connections: list[object]
) -> None:
    # DNS rebinding: the name answers a public address once, then a private one. The
    # checker resolves once per connection and connects to what it vetted; a mixed
    # answer keeps only the public addresses.
    port = _port(server)
    _route(server, "/to-rebind", 302, Location=f"http://rebind.test:{port}/ok")
    _route(server, "/to-mixed", 302, Location=f"http://mixed.test:{port}/ok")

    class Rebinding(Resolver):
        async def __call__(self, host: str, port: int) -> Sequence[str]:
            self.calls.append(host)
            if host == "public.test":
                return ["93.184.216.34"]
            if host == "mixed.test":
                return ["10.0.0.1", "8.8.8.8", "127.0.0.1"]
            return ["1.1.1.1"] if self.calls.count(host) == 1 else ["169.254.169.254"]

    resolver = Rebinding()
    network = ToServer(port)
    policy = AddressPolicy(resolve=resolver, network=network)
    serial = dataclasses.replace(options, max_per_host=1, max_concurrency=1, cache_path=None)
    findings = [
        finding(f"http://public.test:{port}/to-rebind"),
        finding(f"http://public.test:{port}/to-mixed"),
    ]
    result = check(findings, serial, policy)
    assert [d.code for d in result] == ["URL102", "URL102"]
    assert resolver.calls.count("rebind.test") == 1
    assert resolver.calls.count("mixed.test") == 1
    assert {host for host, _ in network.asked} == {"93.184.216.34", "1.1.1.1", "8.8.8.8"}
    assert all(a == ("127.0.0.1", port) for a in connections)


def test_every_vetted_address_is_tried_in_turn(server: Server, options: LinkOptions) -> None:
    # IPv6 black-holed: the next family gets its turn within the timeout.
    port = _port(server)
    resolver = Resolver({"dual.test": ["2606:4700::1", "2606:4700::2", "93.184.216.34"]})
    network = ToServer(port, unreachable={"2606:4700::1", "2606:4700::2"})
    policy = AddressPolicy(resolve=resolver, network=network)
    ten = dataclasses.replace(options, timeout=10.0)
    assert check([finding(f"http://dual.test:{port}/ok")], ten, policy) == []
    assert network.asked == [
        ("2606:4700::1", port),
        ("93.184.216.34", port),
    ]
    assert network.timeouts == [pytest.approx(10 / 3), 5.0]  # shares of the timeout
    network.asked.clear()
    gone = ToServer(port, unreachable={"2606:4700::1", "2606:4700::2", "93.184.216.34"})
    policy = AddressPolicy(resolve=resolver, network=gone)
    ((code, message),) = messages(
        check(
            [finding(f"http://dual.test:{port}/x")],
            dataclasses.replace(ten, cache_path=None),
            policy,
        )
    )
    assert (code, message) == (
        "URL101",
        f"cannot connect to dual.test:{port}: test network: 2606:4700::2 is unreachable",
    )
    assert [host for host, _ in gone.asked] == ["2606:4700::1", "93.184.216.34", "2606:4700::2"]


def test_private_public_private_chain(
    server: Server, options: LinkOptions, connections: list[object]
) -> None:
    # With the real classifier: a link on a private address may redirect anywhere until
    # the chain reaches a public address; from there, private addresses are refused.
    port = _port(server)
    _route(server, "/a", 302, Location=f"http://intranet.test:{port}/b")
    _route(server, "/b", 302, Location=f"http://www.public.test:{port}/c")
    _route(server, "/c", 302, Location=f"http://intranet.test:{port}/d")
    resolver = Resolver({"intranet.test": ["10.0.0.5"], "www.public.test": ["93.184.216.34"]})
    network = ToServer(port)
    policy = AddressPolicy(resolve=resolver, network=network)
    ((code, message),) = messages(
        check([finding(f"http://intranet.test:{port}/a")], options, policy)
    )
    assert code == "URL104"
    assert "intranet.test resolves to 10.0.0.5, which is a private address" in message
    assert server.requests() == [("HEAD", "/a"), ("HEAD", "/b"), ("HEAD", "/c")]
    assert network.asked == [("10.0.0.5", port), ("10.0.0.5", port), ("93.184.216.34", port)]


def test_through_a_proxy_literal_private_addresses_are_refused(
    server: Server,
    options: LinkOptions,
    connections: list[object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The test server is the forward proxy (HTTP_PROXY is honoured); the proxy resolves
    # names, so urlsift judges the URL's host: a name is public, a literal is what it is.
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HTTP_PROXY", server.base)
    _route(server, "http://www.public.example/ok", 200)
    _route(server, "http://www.public.example/to-metadata", 302, Location="http://0xa9fea9fe/")
    findings = [
        finding("http://www.public.example/ok"),
        finding("http://www.public.example/to-metadata"),
    ]
    ((code, message),) = messages(check(findings, options))
    assert code == "URL104"
    assert "0xa9fea9fe is a link-local address" in message
    # The two links are checked concurrently: their requests come in either order.
    assert sorted(server.requests()) == [
        ("HEAD", "http://www.public.example/ok"),
        ("HEAD", "http://www.public.example/to-metadata"),
    ]
    assert set(connections) == {("127.0.0.1", _port(server))}


def test_loopback_links_are_checked_as_before(server: Server, options: LinkOptions) -> None:
    # With the real classifier the test server is loopback: a link written to it (like a
    # docs page linking http://localhost:8000) and its redirects are followed.
    url = server.url("/moved")
    assert messages(check([finding(url)], options)) == [
        ("URL102", f"{url} redirects permanently to {server.url('/ok')} (301)")
    ]


def test_allow_private_redirects_follows_them(
    server: Server, options: LinkOptions, connections: list[object]
) -> None:
    port = _port(server)
    _route(server, "/to-metadata", 302, Location="http://169.254.169.254/latest/meta-data/")
    _route(server, "/latest/meta-data/", 200)
    network = ToServer(port)
    policy = AddressPolicy(is_public=_loopback_is_public, network=network)
    allowing = dataclasses.replace(options, allow_private_redirects=True)
    ((code, message),) = messages(check([finding(server.url("/to-metadata"))], allowing, policy))
    assert code == "URL102"
    assert message.endswith(
        "redirects temporarily to http://169.254.169.254/latest/meta-data/ (302)"
    )
    assert network.asked == [("127.0.0.1", port), ("169.254.169.254", 80)]
    assert LinkOptions.from_config({"allow-private-redirects": True}).allow_private_redirects


def test_cli_allow_private_redirects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from urlsift.lint.config import CliOptions, build_settings

    monkeypatch.chdir(tmp_path)
    settings = build_settings({}, CliOptions(link_allow_private_redirects=True))
    assert LinkOptions.from_config(settings.links).allow_private_redirects
    assert not LinkOptions.from_config(build_settings({}).links).allow_private_redirects
    result = CliRunner().invoke(main, ["lint", "--help"])
    assert "--allow-private-redirects" in result.output


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("0x7f000001", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("017700000001", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("10.1", "10.0.0.1"),
        ("192.168.257", "192.168.1.1"),
        ("0xa9.0xfe.0xa9.0xfe", "169.254.169.254"),
        ("1.2.3.4.", "1.2.3.4"),
        ("::ffff:127.0.0.1", "::ffff:7f00:1"),
        ("fe80::1%eth0", "fe80::1"),
        ("256.1.1.1", None),
        ("1.2.3.4.5", None),
        ("08.1.1.1", None),
        ("example.org", None),
        ("1.2.3.0x", "1.2.3.0"),
    ],
)
def test_numeric_host_reads_every_inet_aton_form(host: str, expected: str | None) -> None:
    # Addresses compared, not their text: Python 3.13 writes an IPv4-mapped IPv6 address
    # as "::ffff:127.0.0.1", earlier versions as "::ffff:7f00:1".
    address = numeric_host(host)
    assert address == (ipaddress.ip_address(expected) if expected is not None else None)


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),
        ("64:ff9b::a9fe:a9fe", "link-local"),
        ("2002:a00:1::", "private"),
        ("169.254.169.254", "link-local"),
        ("10.0.0.1", "private"),
        ("172.16.0.1", "private"),
        ("fc00::1", "private"),
        ("0.0.0.0", "unspecified"),
        ("224.0.0.1", "multicast"),
        ("100.64.0.1", "reserved"),
        ("93.184.216.34", None),
        ("2606:4700::1111", None),
    ],
)
def test_special_kind(address: str, kind: str | None) -> None:
    assert special_kind(ipaddress.ip_address(address)) == kind


def test_url104_is_documented_with_the_other_link_rules() -> None:
    text = (Path(__file__).parent.parent / "docs" / "lint-links.md").read_text("utf-8")
    for rule in RULES:
        if rule.needs_network:
            assert f"{rule.code} `{rule.name}`" in text, rule.code


# --- item 14: credentials are neither sent nor stored -----------------------------------


def test_credentials_are_not_sent_nor_stored_nor_shown(
    server: Server, options: LinkOptions
) -> None:
    port = _port(server)
    ok = f"http://alice:s3cret@127.0.0.1:{port}/ok"
    moved = f"http://alice:s3cret@127.0.0.1:{port}/moved"
    missing = f"http://alice:s3cret@127.0.0.1:{port}/missing#x"
    result = check([finding(ok), finding(moved), finding(missing)], options)
    assert all("Authorization" not in seen.headers for seen in server.seen)
    assert options.cache_path is not None
    stored = options.cache_path.read_text(encoding="utf-8")
    assert "s3cret" not in stored
    assert "alice" not in stored  # the request had no user name either
    assert [(d.code, d.url) for d in result] == [
        ("URL102", f"http://alice:***@127.0.0.1:{port}/moved"),
        ("URL101", f"http://alice:***@127.0.0.1:{port}/missing#x"),
    ]
    assert all("s3cret" not in d.message for d in result)
    assert (
        result[1].message == f"HTTP 404 Not Found for http://alice:***@127.0.0.1:{port}/missing#x"
    )


def test_credentials_in_a_redirect_are_not_sent_nor_shown(
    server: Server, options: LinkOptions
) -> None:
    port = _port(server)
    _route(server, "/to-creds", 302, Location=f"http://bob:hunter2@127.0.0.1:{port}/ok")
    asked = dataclasses.replace(options, send_credentials=True)
    ((code, message),) = messages(check([finding(server.url("/to-creds"))], asked))
    assert code == "URL102"
    assert "hunter2" not in message
    assert f"http://bob:***@127.0.0.1:{port}/ok" in message
    assert all("Authorization" not in seen.headers for seen in server.seen)
    assert options.cache_path is not None
    assert "hunter2" not in options.cache_path.read_text(encoding="utf-8")


def test_send_credentials_sends_them_to_the_links_own_origin_only(
    server: Server, options: LinkOptions
) -> None:
    port = _port(server)
    _route(server, "/away", 302, Location=f"http://elsewhere.test:{port}/ok")
    network = ToServer(port)
    policy = AddressPolicy(resolve=Resolver({"elsewhere.test": ["127.0.0.1"]}), network=network)
    asked = dataclasses.replace(options, send_credentials=True)
    url = f"http://alice:s3cret@127.0.0.1:{port}/away"
    ((code, _),) = messages(check([finding(url)], asked, policy))
    assert code == "URL102"
    first, second = server.seen
    assert first.headers["Authorization"] == "Basic YWxpY2U6czNjcmV0"  # alice:s3cret
    assert "Authorization" not in second.headers
    assert options.cache_path is not None
    stored = json.loads(options.cache_path.read_text(encoding="utf-8"))
    assert list(stored["entries"]) == [f"http://alice:***@127.0.0.1:{port}/away"]
    assert LinkOptions.from_config({"send-credentials": True}).send_credentials


@pytest.mark.parametrize("fmt", ["json", "sarif", "text", "jsonl"])
def test_lint_output_never_shows_a_password(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    port = _port(server)
    (tmp_path / "page.md").write_text(
        f"See http://alice:s3cret@127.0.0.1:{port}/missing and "
        f"<http://bob:hunter2@127.0.0.1:{port}/moved>.\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(
        main, ["lint", "--check-links", "--extend-select", "RFC1738", "--format", fmt, "page.md"]
    )
    assert "URL006" in result.output  # the text rule still says a password is there
    assert result.exit_code == 1, result.output
    assert "URL101" in result.output
    assert "URL102" in result.output
    assert "s3cret" not in result.output
    assert "hunter2" not in result.output
    assert "s3cret" not in (tmp_path / "cache" / "urlsift" / "links.json").read_text("utf-8")


def test_redact() -> None:
    assert redact("http://a:b@h/ and HTTPS://c:d:e@h/x, ftp://u@h/") == (
        "http://a:***@h/ and HTTPS://c:***@h/x, ftp://u@h/"
    )


def test_redact_stays_linear_on_runs_of_scheme_characters() -> None:
    # A hang guard (no clock): with an unbounded scheme name every word start of the run
    # rescanned the rest, 4 s for 40 KB, so this 1 MB run would take about 40 minutes.
    run = "a." * 500_000
    assert redact(run + "http://u:pw@h/") == run + "http://u:***@h/"


# --- item 15: no cookie passes from one link to another ---------------------------------


def _set_cookie(handler: _Handler, method: str) -> None:
    handler.send_response(200)
    handler.send_header("Set-Cookie", "session=leaked; Path=/")
    handler.send_header("Content-Length", "0")
    handler.end_headers()


def _cookie_then_redirect(handler: _Handler, method: str) -> None:
    handler.send_response(302)
    handler.send_header("Set-Cookie", "chain=kept; Path=/")
    handler.send_header("Location", "/needs-cookie")
    handler.send_header("Content-Length", "0")
    handler.end_headers()


def _needs_cookie(handler: _Handler, method: str) -> None:
    handler.answer(200 if "chain=kept" in (handler.headers.get("Cookie") or "") else 403)


def test_cookies_do_not_leak_between_links(server: Server, options: LinkOptions) -> None:
    server.routes["/set-cookie"] = _set_cookie
    one_at_a_time = dataclasses.replace(options, max_concurrency=1, max_per_host=1, cache_path=None)
    findings = [finding(server.url("/set-cookie"))]
    findings += [finding(server.url(f"/ok?n={n}")) for n in range(18)]
    assert check(findings, one_at_a_time) == []
    assert len(server.seen) == 19
    assert [s.path for s in server.seen if "Cookie" in s.headers] == []


def test_cookies_last_within_one_links_redirect_chain(server: Server, options: LinkOptions) -> None:
    server.routes["/cookie-redirect"] = _cookie_then_redirect
    server.routes["/needs-cookie"] = _needs_cookie
    one_at_a_time = dataclasses.replace(options, max_concurrency=1, max_per_host=1, cache_path=None)
    findings = [finding(server.url("/cookie-redirect")), finding(server.url("/needs-cookie"))]
    result = check(findings, one_at_a_time)
    assert [d.code for d in result] == ["URL102", "URL101"]  # the second link has no cookie
    assert result[1].message == f"HTTP 403 Forbidden for {server.url('/needs-cookie')}"
