"""Issue 12 items 2-5 in the scanner: glued URLs, unsafe characters, pseudo-URLs, hyphen joins.

The cases cut from real text are in corpora/context/real-text.txt (run by test_fixtures.py);
these tests pin the edges of each rule and check that every decision the new rules make
(reading "//" after a glued word, the line before it, an IP literal, the scheme inside
``<URL:``, the word after a hyphen break) is the same wherever the text is cut.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urlsift
from test_chunking import _scan, _split  # the chunking tests' feed-and-close helpers


def _urls(text: str, schemes: list[str] | None = None) -> list[str]:
    return [u.url for u in urlsift.extract(text, schemes=schemes)]


@pytest.mark.parametrize(
    ("text", "urls"),
    [
        # B: glue before a scheme word followed by "//"
        ("(R-XX)      -http://www.example.gov/~member/", ["http://www.example.gov/~member/"]),
        ("fiber.https://www.example.net/p", ["https://www.example.net/p"]),
        ("git+https://example.com/r.git", ["https://example.com/r.git"]),
        ("page 12http://a.example/", ["http://a.example/"]),
        ("xhttp://a.example/ myftp://b.example/", []),
        # B: without "//", only after a "+" or "-" that starts the line
        ("+news:abc123$1@news.example.net...", ["news:abc123$1@news.example.net"]),
        ("a\n-mailto:joe@example.org", ["mailto:joe@example.org"]),
        ("  -mailto:joe@example.org 12.news:comp.lang.c", []),
        ("foo.news:abc e-mailto:joe@example.org", []),
        ("see -news:abc\nx+news:abc", []),
        ("-http:x y", ["http:x"]),  # a list mark: as after a space
        # B: "URL:" never takes glue ("X-URL:" is a header name)
        ("X-URL:ftp://a.example/", ["ftp://a.example/"]),
        ("-URL: later", []),
        # C: unsafe characters end a bare or prefixed URL
        (
            "http://a.example/b|c http://a.example/d^e http://a.example/f\\g",
            [
                "http://a.example/b",
                "http://a.example/d",
                "http://a.example/f",
            ],
        ),
        ("URL:http://a.example/{x}", ["http://a.example/"]),
        ("``http://localhost``", ["http://localhost"]),
        ("${x}http://a.example/${y}", ["http://a.example/"]),
        ("http://a.example/~user/", ["http://a.example/~user/"]),
        ("http://[::1]:8080/x[1]", ["http://[::1]:8080/x"]),
        ("http://[v1.fe]/ http://[host]/", ["http://[v1.fe]/"]),
        # ... after a user too; a "[" after "@" in a path is no host
        (
            "http://user@[::1]:8080/x ftp://u:p@[2001:db8::1]/f http://h/a@[x]",
            ["http://user@[::1]:8080/x", "ftp://u:p@[2001:db8::1]/f", "http://h/a@"],
        ),
        ("<http://a.example/{x}|y>", ["http://a.example/{x}|y"]),
        ("(http://a.example/wiki/Foo_(bar))", ["http://a.example/wiki/Foo_(bar)"]),
        # D: pseudo-URLs are skipped whole
        (
            "<javascript:> <JavaScript:void(0)> <about:blank> http://a.example/",
            ["http://a.example/"],
        ),
        ("<javascript:open('http://x.example/')>", []),
        ("<data:,hi> <URL:data:,ho>", ["data:,hi", "data:,ho"]),
        # E: hyphen joins
        ("http://a.example/x--\ny", ["http://a.example/x"]),
        ("http://a.example/x.-\nYou see", ["http://a.example/x.-"]),
        ("http://a.example/x.-\nyou see", ["http://a.example/x.-you"]),
        ("http://a.example/x-\nYou-see", ["http://a.example/x-You-see"]),
        ("http://a.example/a--b", ["http://a.example/a--b"]),
    ],
)
def test_rule_edges(text: str, urls: list[str]) -> None:
    assert _urls(text) == urls


def test_a_configured_javascript_scheme_is_reported_bare() -> None:
    assert _urls("javascript:void(0)", ["javascript"]) == ["javascript:void(0)"]


def test_longer_configured_words_win_over_their_tails() -> None:
    assert _urls("s-ftp://a.example/ ftp://b.example/", ["ftp", "s-ftp"]) == [
        "s-ftp://a.example/",
        "ftp://b.example/",
    ]


PIECES = [
    "-",
    ".",
    "+",
    "1",
    "x",
    " ",
    "\n",
    "-\n",
    "--\n",
    ".-\n",
    "You ",
    "you",
    "> ",
    "http:",
    "//",
    "news:",
    "mailto:",
    "URL:",
    "<URL:",
    "<",
    ">",
    "javascript:",
    "about:",
    "{",
    "}",
    "[",
    "]",
    "::1",
    "[::1]",
    "|",
    "`",
    "\\",
    "@",
    "$",
    "a.example/",
    "(",
    ")",
]
texts = st.lists(st.sampled_from(PIECES), max_size=50).map("".join)


@given(texts, st.lists(st.integers(min_value=0, max_value=300), max_size=8))
def test_new_rules_do_not_depend_on_chunking(text: str, cuts: list[int]) -> None:
    whole = _scan([text], 1 << 16)
    assert _scan(list(text)) == whole
    assert _scan(_split(text, cuts)) == whole
