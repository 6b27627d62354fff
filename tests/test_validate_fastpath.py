"""The validator's fast path (a scheme's ``clean`` pattern) gives exactly the full checks' result.

``validate`` first tries a scheme's ``clean`` pattern (every scheme of RFC 1738 and https
has one); these tests validate the same URLs with a registry whose schemes have no fast
path and compare everything: validity, scheme, defects, parts and fragment, under both
policies. The fast path also covers a fragment and the lenient ``~``.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_validate_properties import hostname, hostnumber, hpath, hsegment
from urlsift import Policy, default_registry, validate
from urlsift.validation.schemes import IpScheme, OpaqueScheme, SchemeRegistry

FAST_SCHEMES = (
    "http",
    "https",
    "ftp",
    "gopher",
    "nntp",
    "telnet",
    "wais",
    "file",
    "prospero",
    "mailto",
    "news",
)


def _full_checks_only() -> SchemeRegistry:
    registry = default_registry()
    for name in FAST_SCHEMES:
        scheme = registry.lookup(name)
        assert isinstance(scheme, IpScheme | OpaqueScheme)
        assert scheme.clean is not None  # the default registry does offer the fast path
        registry.register(dataclasses.replace(scheme, clean=None), replace=True)
    return registry


FAST = default_registry()
FULL = _full_checks_only()

# Characters around the clean language's edges: reserved, unsafe, escapes, non-ASCII.
_EDGY = st.text(
    alphabet=st.sampled_from(list("aZ09-._~!*'(),;:@&=/?#%+$ <>\"{}|\\^[]`\t\né\udc80")),
    max_size=30,
)


def _same(url: str) -> None:
    for policy in (Policy(), Policy(strict=True)):
        fast = validate(url, policy=policy, registry=FAST)
        full = validate(url, policy=policy, registry=FULL)
        assert fast == full, url


@settings(max_examples=400)
@given(
    scheme=st.sampled_from(["http", "https", "HTTP", "Https"]),
    host=st.one_of(hostname, hostnumber, _EDGY),
    port=st.one_of(st.none(), st.sampled_from(["80", "443", "8080", "", "x"])),
    path=st.one_of(st.none(), hpath, _EDGY),
    search=st.one_of(st.none(), hsegment, _EDGY),
)
def test_fast_path_agrees_with_full_checks(
    scheme: str, host: str, port: str | None, path: str | None, search: str | None
) -> None:
    url = f"{scheme}://{host}"
    if port is not None:
        url += f":{port}"
    if path is not None:
        url += f"/{path}"
        if search is not None:
            url += f"?{search}"
    _same(url)


@given(st.sampled_from(FAST_SCHEMES), st.text(max_size=40))
def test_fast_path_agrees_on_any_text(scheme: str, tail: str) -> None:
    _same(f"{scheme}:{tail}")


@settings(max_examples=400)
@given(
    st.sampled_from(["ftp://", "FTP://", "mailto:", "news:", "NEWS:"]),
    st.one_of(hostname, hostnumber, _EDGY),
    st.one_of(st.none(), hpath, _EDGY),
    st.sampled_from(["", ";type=i", ";TYPE=D", ";type=x", ";type=", "@", "@h.example", "*"]),
)
def test_fast_path_agrees_for_ftp_mailto_news(
    prefix: str, head: str, path: str | None, tail: str
) -> None:
    url = prefix + head + ("" if path is None else f"/{path}") + tail
    _same(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://h",
        "http://h/",
        "http://h/?",
        "http://h/a/b?c=d&e",
        "http://www.example.com/~user/",  # "~": a warning, full checks
        "http://h/a%20b",  # escape: full checks
        "http://h/%0d",  # encoded control: warning
        "http://1.2.3.400/",  # hostnumber out of range
        "http://h:8080/",  # non-default port
        "http://h?q",  # search without path
        "http://-h/",
        "http://h-/",
        "http://h.1a/",
        "http://h./",
        "http://u@h/",
        "HTTP://H/",
        "http://h/#frag",
        "ftp://h/a/b;type=i",
        "ftp://h/a/b;type=x",
        "ftp://h/a;b",
        "ftp://u:p@h/",
        "ftp://h:21/",
        "ftp://h/%41",
        "mailto:a@b.example",
        "mailto:ab",
        "mailto:",
        "mailto:a%40b",
        "mailto:a@b@c",
        "news:comp.lang.c",
        "news:*",
        "news:1comp",
        "news:a@b.example",
        "news:",
    ],
)
def test_fast_path_agrees_on_edges(url: str) -> None:
    _same(url)


def test_fast_path_is_taken_for_plain_urls() -> None:
    result = validate("http://www.example.com/a/b?c=d", registry=FAST)
    assert result.valid
    assert result.defects == ()
    assert result.parts == (("host", "www.example.com"), ("path", "a/b"), ("search", "c=d"))


# Pieces of URLs of the IP-based schemes, around each rule's edges.
_LOGIN = st.sampled_from(["", "u@", "@", "us~er@", "a.b.example@", "u:p@", "u:@", "%41@", "u;x=1@"])
_PORT = st.sampled_from(
    [
        *("", ":21", ":23", ":70", ":80", ":119", ":210", ":443", ":1525", ":8080"),
        *(":", ":0", ":070", ":1023", ":65535", ":65536", ":123456", ":8x"),
    ]
)
_PATH_ALPHABET = st.sampled_from(
    [*"aZ09-._~$!*'(),;:@&=/?#%+ \t", "%09", "%41", "%0d", ";type=i", "/~u", "é"]
)
_PATH = st.lists(_PATH_ALPHABET, max_size=12).map("".join)


@settings(max_examples=1500)
@given(
    st.sampled_from(FAST_SCHEMES),
    st.sampled_from(["://", ":", ":/"]),
    _LOGIN,
    st.one_of(hostname, hostnumber, st.sampled_from(["", "h", "-h", "h.", "1.2.3.4", "[::1]"])),
    _PORT,
    st.one_of(st.just(""), _PATH.map(lambda p: "/" + p), _PATH),
)
def test_fast_path_agrees_for_every_scheme(
    scheme: str, sep: str, login: str, host: str, port: str, path: str
) -> None:
    _same(f"{scheme}{sep}{login}{host}{port}{path}")


@pytest.mark.parametrize(
    "url",
    [
        "gopher://h",
        "gopher://h/",
        "gopher://h/1",
        "gopher://h:70/1/a?b",
        "gopher://h/~",
        "gopher://h/1sel%09search",
        "nntp://h/comp.lang",
        "nntp://h:119/comp.lang/42",
        "nntp://h/comp.lang/",
        "nntp://h/comp.lang/4x",
        "nntp://h",
        "nntp://h/1comp",
        "telnet://h",
        "telnet://h/",
        "telnet://u@h:23/",
        "telnet://u.v@h/",
        "telnet://h/x",
        "wais://h/db",
        "wais://h/db?q",
        "wais://h:210/db/t/p",
        "wais://h/db/t",
        "wais://h/db/t/p/q",
        "wais://h/db?q/r",
        "file:///",
        "file:///etc/passwd",
        "file://h/a~b",
        "file://h:1/a",
        "file://h",
        "prospero://h/a/b",
        "prospero://h:1525/a;type=text",
        "prospero://h/a;b",
        "news:123@h.example",
        "news:123@1.2.3.4",
        "news:a~b@h.example",
        "http://h/a~b/~c#x~y",
        "http://h/#",
        "http://h/#a b",
        "http://h/#%zz",
        "http://h:80/",
        "https://h:443/a",
        "https://h:80/a",
        "ftp://~u@h/",
        "ftp://u@h:21/a;type=a",
    ],
)
def test_fast_path_agrees_on_more_edges(url: str) -> None:
    _same(url)


class _NoFullChecks:
    """A scheme whose full checks must not run: the fast path has to decide alone."""

    def __init__(self, inner: IpScheme | OpaqueScheme) -> None:
        self.name = inner.name
        self.default_port = inner.default_port
        self.clean = inner.clean

    def check(self, ctx: object, start: int, end: int) -> None:
        raise AssertionError(f"{self.name}: the full checks ran")


@pytest.mark.parametrize(
    "url",
    [
        "http://www.example.com/~user/a?b#top",
        "https://example.com:443/",
        "http://www.call.time.example:2283/~did/made/all/just",
        "ftp://anonymous@ftp.example.org/pub/x;type=i",
        "gopher://gopher.example.org:70/1/archive",
        "nntp://news.example.org/comp.lang.c/42",
        "telnet://bbs.example.org/",
        "wais://wais.example.org:210/db?query",
        "file:///usr/share/doc",
        "prospero://p.example.org/a/b",
        "mailto:someone@example.org",
        "news:comp.infosystems.www",
        "news:123.456@example.org",
    ],
)
def test_fast_path_decides_common_urls_alone(url: str) -> None:
    registry = default_registry()
    for name in FAST_SCHEMES:
        scheme = registry.lookup(name)
        assert isinstance(scheme, IpScheme | OpaqueScheme)
        registry.register(_NoFullChecks(scheme), replace=True)
    assert validate(url, registry=registry) == validate(url, registry=FULL)


def test_clean_hostname_takes_the_same_hosts_as_hostname() -> None:
    # The clean patterns write hostname as possessive runs (faster); HOSTNAME is the BNF's
    # shape. Followed by what may follow a host in a clean pattern (a port, a path, the
    # end), both must accept the same strings and take the same host: every string of up
    # to six host and delimiter characters.
    import itertools

    from urlsift.grammar import rfc as g

    # Compiled as the grammar is (re on 3.11+, regex on 3.10, whose re lacks "++").
    after = r"(?::[0-9]++)?(?:/[^\n]*)?"
    bnf = g.compile_grammar(f"(?P<host>(?>{g.HOSTNAME})){after}")
    runs = g.compile_grammar(f"(?P<host>{g.CLEAN_HOSTNAME}){after}")
    checked = 0
    for size in range(7):
        for chars in itertools.product("aZ1-.:/", repeat=size):
            text = "".join(chars)
            a, b = bnf.fullmatch(text), runs.fullmatch(text)
            assert (a and a.span("host")) == (b and b.span("host")), text
            checked += 1
    assert checked > 100_000
