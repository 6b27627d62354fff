"""Property tests: results never depend on chunking, and spans are always consistent."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import urlsift
from urlsift import Scanner
from urlsift.extraction.scanner import find_boundary

# Text built from pieces that exercise every rule: wrappers, quotes, hyphen breaks, CRLF.
PIECES = [
    "<",
    ">",
    "<URL:",
    "<url: ",
    "URL:",
    "URL: ",
    "http://",
    "ftp://h.example/",
    "mailto:",
    "news:",
    "x-foo:",
    "<http:",
    "<mailto:a@b>",
    "a",
    "b.c",
    "/",
    "-",
    "-\n",
    "\n",
    "\r\n",
    "\n\n",
    "> ",
    ">> ",
    "> > ",
    ">   >",
    "  > ",
    " ",
    "\t",
    ".",
    ",",
    ")",
    "(",
    "]",
    '"',
    "'",
    "*",
    "é",
    "\x00",
    "\udcff",
    "#frag",
    "?q=1",
    ":",
    "12:30",
    "Re:",
    "%41",
    '<a href="',
    "\n\nAuthor   Standards Track   [Page 7]\n\fRFC 1738   URLs   December 1994\n\n",
    "\f",
]
texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


def _scan(pieces: list[str], block_size: int = 16) -> list[urlsift.Candidate]:
    scanner = Scanner(block_size=block_size)
    found: list[urlsift.Candidate] = []
    for piece in pieces:
        found += scanner.feed(piece)
    return found + scanner.close()


def _split(text: str, cuts: list[int]) -> list[str]:
    points = sorted({min(c, len(text)) for c in cuts})
    out, last = [], 0
    for p in points:
        out.append(text[last:p])
        last = p
    out.append(text[last:])
    return out


@given(texts, st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_random_splits_give_the_same_candidates(text: str, cuts: list[int]) -> None:
    whole = _scan([text], 1 << 16)
    assert _scan(_split(text, cuts)) == whole
    assert _scan(list(text)) == whole


@given(texts)
def test_spans_are_ordered_disjoint_and_exact(text: str) -> None:
    last_end = 0
    for url in urlsift.extract(text):
        assert last_end <= url.start < url.end <= len(text)
        assert text[url.start : url.end] == url.raw
        assert url.line == text.count("\n", 0, url.start) + 1
        assert not any(c.isspace() for c in url.url)
        assert all(not any(c.isspace() for c in alt) for alt in url.alternatives)
        assert url.valid == (not any(d.severity == "error" for d in url.defects))
        last_end = url.end


@given(st.text(max_size=300))
def test_any_text_scans_without_error(text: str) -> None:
    for url in urlsift.extract(text):
        assert text[url.start : url.end] == url.raw


@given(st.binary(max_size=300))
def test_any_bytes_decode_and_scan(data: bytes) -> None:
    text = data.decode("utf-8", "surrogateescape")
    found = urlsift.extract(text)
    assert [u.raw for u in found] == [text[u.start : u.end] for u in found]


@given(texts, st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_chunking_invariance_with_tiny_bounds(text: str, cuts: list[int]) -> None:
    """Truncation, skipping and unclosed-wrapper bounds are chunking-invariant too."""

    def scan(pieces: list[str], block_size: int) -> list[urlsift.Candidate]:
        scanner = Scanner(max_url_length=20, max_wrapper_length=24, block_size=block_size)
        found: list[urlsift.Candidate] = []
        for piece in pieces:
            found += scanner.feed(piece)
        return found + scanner.close()

    whole = scan([text], 1 << 16)
    assert scan(_split(text, cuts), 16) == whole
    assert scan(list(text), 16) == whole
    for candidate in whole:
        assert len(candidate.body) <= 24


# -- pieces cut at scanner.find_boundary, scanned with their origin ----------------------

_ROOT = Path(__file__).resolve().parent.parent
_RFC = _ROOT / "corpora" / "rfc" / "rfc1738.txt"
_CORPUS_FILES = [_RFC, *sorted((_ROOT / "corpora" / "context").glob("*.txt"))]


def _pieces(text: str, size: int) -> list[tuple[str, tuple[int, int]]]:
    out = []
    start, offset, line = 0, 0, 1
    while True:
        cut = find_boundary(text, start + size, final=True)
        if cut is None:
            out.append((text[start:], (offset, line)))
            return out
        piece = text[start:cut]
        out.append((piece, (offset, line)))
        offset += len(piece)
        line += piece.count("\n")
        start = cut


def _scan_pieces(text: str, size: int) -> list[urlsift.Candidate]:
    found: list[urlsift.Candidate] = []
    for piece, origin in _pieces(text, size):
        scanner = Scanner(origin=origin)
        found += scanner.feed(piece)
        found += scanner.close()
    return found


@pytest.mark.parametrize("size", [1, 200, 4096])
def test_pieces_cut_at_boundaries_scan_as_the_whole_text(size: int) -> None:
    for path in _CORPUS_FILES:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        if path == _RFC:  # page breaks every 60 lines: many boundaries, some refused
            assert len(_pieces(text, size)) > 10
        assert _scan_pieces(text, size) == _scan([text]), path


_PAGE_BROKEN_WRAPPER = (
    "see <URL:http://a.example/x\n\nAuthor   Standards Track   [Page 7]\n"
    "\fRFC 1738   URLs   December 1994\n\ny.html> and http://b.example/\n\nend\n"
)


@settings(max_examples=300, deadline=None)
@given(texts, st.integers(1, 40))
@example(_PAGE_BROKEN_WRAPPER, 1)  # the blank line before a page footer is no boundary
def test_pieces_scan_as_the_whole_text(text: str, size: int) -> None:
    assert _scan_pieces(text, size) == _scan([text])


def test_a_quote_prefix_cut_by_a_chunk_boundary_is_not_decided_early() -> None:
    # Found by the scanner fuzzer: with the text cut after ">  ", the prefix read "> " (one
    # level) instead of ">   >" (two), so the wrapper and the hyphen-broken URL stopped at
    # the line break as if another speaker's text followed.
    text = ">   > see <URL:http://a.example/\n>   > path> and http://b.example/x-\n>   > y\n"
    whole = _scan([text])
    assert [c.raw for c in whole] == [
        "<URL:http://a.example/\n>   > path>",
        "http://b.example/x-\n>   > y",
    ]
    for cut in range(len(text)):
        assert _scan([text[:cut], text[cut:]]) == whole, cut
