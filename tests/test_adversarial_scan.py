"""Linear work inside one span: no character is walked once per trigger in its span.

A bare URL that is refused (``ftp::``, a Perl name) or cut short (a closing bracket without
its opener) used to be refused or cut only after its whole token, or its whole chain of
hyphen-broken lines, had been walked; the scan resumed one character later, so every later
trigger in the same span walked it again (quadratic in the span cap: about 150 s per MiB).

These tests assert no durations. They count the work instead: every compiled pattern the
scanner uses is wrapped so that each call adds the characters it looked at to a tally, and
the tally must stay within a fixed multiple of the input's length. Before the fix the
families below cost hundreds of characters of pattern work per input character. A hang
guard (pytest-timeout) sits far above the run time for sizes the old code took minutes on.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import fields
from typing import Any

import pytest

import urlsift
from urlsift import Scanner
from urlsift.grammar.context import Patterns

MAX_WORK_PER_CHAR = 12
"""Most pattern work (characters looked at by all calls) per input character."""


class _Counting:
    """A compiled pattern that adds the characters each call looked at to ``tally[0]``."""

    def __init__(self, pattern: Any, tally: list[int]) -> None:
        self._pattern = pattern
        self._tally = tally

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        m = self._pattern.match(string, pos, endpos)
        self._tally[0] += 1 + (m.end() - pos if m else 0)
        return m

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Any:
        m = self._pattern.search(string, pos, endpos)
        self._tally[0] += 1 + ((m.end() if m else min(len(string), endpos)) - pos)
        return m

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[Any]:
        self._tally[0] += 1 + min(len(string), endpos) - pos
        return self._pattern.finditer(string, pos, endpos)  # type: ignore[no-any-return]


def pattern_work(text: str, chunk: int = 1 << 16) -> tuple[int, list[urlsift.Candidate]]:
    """Scan ``text`` fed in ``chunk``-sized pieces, each scanned as it comes (the block
    size is the chunk size); return the pattern work and the candidates."""
    scanner = Scanner(block_size=max(16, chunk))
    tally = [0]
    patterns = scanner._p
    scanner._p = Patterns(
        **{f.name: _Counting(getattr(patterns, f.name), tally) for f in fields(patterns)}
    )
    found: list[urlsift.Candidate] = []
    for i in range(0, len(text), chunk):
        found += scanner.feed(text[i : i + chunk])
    found += scanner.close()
    return tally[0], found


def _spans(unit: str, n: int, span: int = 4090) -> str:
    """``unit`` repeated to ``span`` characters, then a space; the whole repeated to ``n``."""
    one = (unit * (span // len(unit) + 1))[:span] + " "
    return one * max(1, n // len(one))


# name -> make(n): about n characters of text that walks one span once per trigger in it.
FAMILIES: dict[str, Callable[[int], str]] = {
    # From the issue: "ftp::" rejected after the hyphen chain below it was walked.
    "double-colon-hyphen-chain": lambda n: ("ftp::-\n" * 580 + "ftp::\n\n") * max(1, n // 4066),
    # "ftp::(" spans: rejected after the token and its bracket count were walked.
    "double-colon-openers": lambda n: _spans("ftp::(", n),
    "double-colon-tokens": lambda n: _spans("ftp::", n),
    "double-colon-slashes": lambda n: _spans("ftp::/", n),
    # A closing bracket ends each URL, but the token was matched to its end every time.
    "closer-cuts-url": lambda n: _spans("http://a)", n),
    "closer-cuts-empty-url": lambda n: _spans("http://)", n),
    "bracket-cuts-url": lambda n: _spans("http://a]", n),
    # Hyphen chains whose every line holds a trigger.
    "hyphen-chain-of-urls": lambda n: ("http://a-\n" * 400 + "\n") * max(1, n // 4001),
    "hyphen-chain-prose-after": lambda n: ("ftp:x-\n.\n" * 400 + "\n") * max(1, n // 3601),
    "url-prefix-double-colon": lambda n: _spans("URL:ftp::", n),
    "angle-double-colon": lambda n: _spans("<ftp::", n),
    # Wrappers never closed, walked to a blank line, with bare URLs and angle triggers in them.
    "unclosed-wrappers": lambda n: (
        ("<URL:http://a/\n" + "b http://c/ <http:\n" * 200 + "\n") * max(1, n // 4016)
    ),
    # Quoted hyphen chains whose lines each hold a glued trigger.
    "quoted-glued-chain": lambda n: ("> x-http://a-\n" * 300 + "\n") * max(1, n // 4201),
}


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_pattern_work_is_linear_in_the_input(name: str) -> None:
    text = FAMILIES[name](1 << 16)
    work, _ = pattern_work(text)
    assert work <= MAX_WORK_PER_CHAR * len(text), (name, work / len(text))


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_pattern_work_does_not_depend_on_chunking(name: str) -> None:
    """Fed in 64-character pieces the work stays linear (deferred spans are not re-walked
    once per piece)."""
    text = FAMILIES[name](1 << 15)
    work, found = pattern_work(text, chunk=64)
    assert work <= MAX_WORK_PER_CHAR * len(text), (name, work / len(text))
    assert found == pattern_work(text)[1]


def test_pattern_work_on_ordinary_text_is_linear_too() -> None:
    text = (
        "See <URL:ftp://ds.internic.net/rfc/rfc1738.txt> and http://example.org/a-\n"
        "b/c?d=e, or (http://en.wikipedia.org/wiki/Foo_(bar)). Mail me: mailto:j@x.org\n"
        "> quoted http://example.com/x.\n\n"
    ) * 500
    work, found = pattern_work(text)
    assert len(found) == 2500
    assert work <= MAX_WORK_PER_CHAR * len(text)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "name", ["double-colon-hyphen-chain", "double-colon-openers", "double-colon-tokens"]
)
def test_a_megabyte_of_each_issue_family_is_scanned(name: str) -> None:
    # The old scanner took minutes here (about 150 s per MiB for the first family).
    text = FAMILIES[name](1 << 20)
    assert urlsift.extract(text) == []


@pytest.mark.parametrize(
    ("text", "urls"),
    [
        ("ftp::x ftp::/a ftp::ftp://a.b/", ["ftp://a.b/"]),
        ("HTTP::Request::Common http://a.example/x", ["http://a.example/x"]),
        ("http://a)http://b)", ["http://a", "http://b"]),
        ("(http://a.example/x_(y))", ["http://a.example/x_(y)"]),
        ("http://a.example/(b-\n(c))d)", ["http://a.example/(b-(c))d"]),
    ],
)
def test_refused_and_cut_urls_still_find_what_follows(text: str, urls: list[str]) -> None:
    assert [u.url for u in urlsift.extract(text)] == urls
