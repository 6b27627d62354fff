"""The validator's fast path (a scheme's ``clean`` pattern) gives exactly the full checks' result.

``validate`` first tries a scheme's ``clean`` pattern (http, https, ftp, mailto, news); these
tests validate the same URLs with a registry whose schemes have no fast path and compare
everything: validity, scheme, defects, parts and fragment, under both policies.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_validate_properties import hostname, hostnumber, hpath, hsegment
from urlsift import Policy, default_registry, validate
from urlsift.schemes import IpScheme, OpaqueScheme, SchemeRegistry

FAST_SCHEMES = ("http", "https", "ftp", "mailto", "news")


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
