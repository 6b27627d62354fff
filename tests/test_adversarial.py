"""Hostile inputs: nothing may crash, hang, go quadratic or hold unbounded text.

Each test has a pytest-timeout guard far above the expected run time (a quadratic scan of
a megabyte would take minutes); speed itself is measured in benchmarks/, not here.
"""

from __future__ import annotations

import pytest

import urlsift
from urlsift import DEFAULT_MAX_URL_LENGTH, DEFAULT_MAX_WRAPPER_LENGTH, Scanner

MB = 1 << 20
pytestmark = pytest.mark.timeout(60)


def _stream(text: str, chunk: int = 4096) -> tuple[list[urlsift.Candidate], int]:
    """Scan ``text`` in chunks; return the candidates and the largest buffer seen."""
    scanner = Scanner()
    found: list[urlsift.Candidate] = []
    peak = 0
    for i in range(0, len(text), chunk):
        found += scanner.feed(text[i : i + chunk])
        peak = max(peak, len(scanner._text.text))
    return found + scanner.close(), peak


BOUND = max(DEFAULT_MAX_URL_LENGTH, DEFAULT_MAX_WRAPPER_LENGTH) + (1 << 16) + 1024


def test_megabyte_of_unclosed_wrappers() -> None:
    found, peak = _stream("<URL:" * (MB // 5))
    assert found == []
    assert peak < BOUND


def test_megabyte_of_dots_and_letters() -> None:
    found, peak = _stream("a." * (MB // 2))
    assert found == []
    assert peak < BOUND


def test_megabyte_of_angle_brackets() -> None:
    found, peak = _stream("<" * MB + ">" * MB)
    assert found == []
    assert peak < BOUND


def test_url_without_terminator_is_cut_at_the_bound() -> None:
    text = "see http://" + "a" * MB + " then http://b.example/"
    found, peak = _stream(text)
    assert [c.kind for c in found] == ["bare", "bare"]
    assert found[0].truncated
    assert len(found[0].raw) == DEFAULT_MAX_URL_LENGTH
    assert found[1].raw == "http://b.example/"
    assert peak < BOUND
    first = urlsift.extract(text)[0]
    assert [d.code for d in first.defects] == ["url-too-long"]
    assert not first.valid


def test_unclosed_wrapper_with_a_megabyte_of_content() -> None:
    text = "<URL:http://" + "b" * MB + "\nprose http://c.example/"
    found, peak = _stream(text)
    assert [c.kind for c in found] == ["wrapped", "bare"]
    assert not found[0].terminated
    assert found[0].truncated
    assert peak < BOUND


def test_url_with_a_megabyte_of_trailing_dots() -> None:
    found = urlsift.extract("http://a.example/" + "." * MB + "!")
    assert len(found) == 1
    assert [d.code for d in found[0].defects] == ["url-too-long"]


def test_many_short_urls_with_dots() -> None:
    text = "http://a.example/x.... " * 40000
    found = urlsift.extract(text)
    assert len(found) == 40000
    assert {u.url for u in found} == {"http://a.example/x"}


def test_megabyte_line_with_nul_bytes_and_surrogates() -> None:
    text = ("\x00\udcff" * (MB // 4)) + "http://a.example/\x00" + "\udcfe" * 1000
    found = urlsift.extract(text)
    assert [u.url for u in found] == ["http://a.example/"]


def test_hyphen_continuations_are_bounded() -> None:
    text = "http://a-\n" + "b-\n" * (MB // 3)
    found, peak = _stream(text)
    assert found[0].truncated
    assert peak < BOUND


def test_megabyte_of_opening_and_closing_parentheses() -> None:
    found = urlsift.extract("http://a.example/" + "(" * (MB // 2) + ")" * (MB // 2))
    assert len(found) == 1


def test_closing_parentheses_after_a_url() -> None:
    found = urlsift.extract("(" + "http://a.example/x" + ")" * 3000)
    assert [u.url for u in found] == ["http://a.example/x"]


def test_quote_prefixes_everywhere() -> None:
    text = "> " * (MB // 2) + "<URL:http://a.example/\n" + "> " * 100 + "b>"
    found = urlsift.extract(text)
    assert len(found) == 1


def test_wrapper_bound_is_documented_length() -> None:
    body = "a/" * DEFAULT_MAX_WRAPPER_LENGTH
    found = urlsift.extract(f"<URL:http://{body}>")
    assert len(found) == 1
    assert "unterminated-wrapper" in [d.code for d in found[0].defects]


def test_feeding_one_character_at_a_time_on_long_text() -> None:
    text = "x <URL:http://a.example/" + "c" * 3000 + "> " * 2 + "http://b.example/ " * 2000
    scanner = Scanner()
    found: list[urlsift.Candidate] = []
    for char in text:
        found += scanner.feed(char)
    found += scanner.close()
    assert len(found) == 2001
