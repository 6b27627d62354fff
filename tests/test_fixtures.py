"""Table-driven scanner tests from corpora/context/*.txt, under every chunking."""

from __future__ import annotations

import pytest

import urlsift
from urlsift import Scanner

from _fixtures import CORPORA, Case, load, render

CASES: list[Case] = [
    case for path in sorted((CORPORA / "context").glob("*.txt")) for case in load(path)
]


def _candidates(pieces: list[str], block_size: int) -> list[urlsift.Candidate]:
    scanner = Scanner(block_size=block_size)
    found: list[urlsift.Candidate] = []
    for piece in pieces:
        found += scanner.feed(piece)
    return found + scanner.close()


def test_fixture_files_have_cases() -> None:
    assert len(CASES) >= 60
    negatives = [c for c in CASES if c.file == "not-urls.txt"]
    assert negatives
    assert all(not c.expected for c in negatives)
    assert all(c.expected for c in CASES if c.file != "not-urls.txt")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fixture(case: Case) -> None:
    assert render(urlsift.extract(case.text)) == case.expected


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fixture_raw_is_the_source_span(case: Case) -> None:
    for url in urlsift.extract(case.text):
        assert case.text[url.start : url.end] == url.raw
        assert url.raw.count("\n") == url.end_line - url.line
        line_start = case.text.rfind("\n", 0, url.start) + 1
        assert url.column == url.start - line_start + 1
        assert url.line == case.text.count("\n", 0, url.start) + 1


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_fixture_chunking_invariance(case: Case) -> None:
    """Whole, one character at a time, and split at every index give the same spans."""
    whole = _candidates([case.text], 1 << 16)
    assert _candidates(list(case.text), 16) == whole
    for cut in range(1, len(case.text)):
        assert _candidates([case.text[:cut], case.text[cut:]], 16) == whole, cut
