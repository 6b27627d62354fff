"""Real text: RFC 1738 exactly, and the shared RFC corpora without errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import urlsift
from urlsift import Scanner
from urlsift.sources.text import open_text

from _fixtures import CORPORA, ROOT

RFC1738 = CORPORA / "rfc" / "rfc1738.txt"
SHARED = ROOT.parent / "shared" / "corpora"


def _scan_file(path: Path) -> list[urlsift.Url]:
    return list(urlsift.scan_units([open_text(str(path))]))


def test_rfc1738_all_30_wrappers_and_6_multiline_rejoined() -> None:
    found = _scan_file(RFC1738)
    expected = (CORPORA / "rfc" / "rfc1738.expected").read_text(encoding="utf-8").splitlines()
    assert [f"{u.line}:{u.column} {u.url}" for u in found] == expected
    assert len(found) == 30
    assert all(u.kind == "wrapped" for u in found)
    multiline = [u for u in found if u.end_line > u.line]
    assert len(multiline) == 6
    assert {u.url for u in multiline} >= {
        "ftp://info.cern.ch/pub/www/doc;type=d",
        "ftp://ds.internic.net/rfc",
        "http://ds.internic.net/instructions/overview.html#WARNING",
        "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
        "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
        "ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z",
    }


def _candidates(pieces: list[str]) -> list[urlsift.Candidate]:
    scanner = Scanner(block_size=64)
    found: list[urlsift.Candidate] = []
    for piece in pieces:
        found += scanner.feed(piece)
    return found + scanner.close()


def test_rfc1738_random_splits() -> None:
    text = RFC1738.read_text(encoding="utf-8")
    whole = _candidates([text])
    rng = random.Random(1738)
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(text)), rng.randint(1, 200)))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        assert _candidates(pieces) == whole


SHARED_RFCS = sorted(SHARED.glob("rfc-*/*.txt")) if SHARED.is_dir() else []


@pytest.mark.skipif(not SHARED_RFCS, reason="shared RFC corpora not present on this machine")
def test_shared_rfc_corpora_scan_cleanly() -> None:
    """Every RFC in the shared corpora scans; chunking and raw spans stay exact."""
    rng = random.Random(3986)
    total = 0
    wrapped = 0
    for path in SHARED_RFCS:
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        found = urlsift.extract(text, source=str(path))
        total += len(found)
        wrapped += sum(u.kind in ("wrapped", "angle") for u in found)
        for url in found:
            assert text[url.start : url.end] == url.raw
            assert url.scheme or not url.valid, (path, url)
        if rng.random() < 0.1:
            chunk = rng.randint(1, 5000)
            pieces = [text[i : i + chunk] for i in range(0, len(text), chunk)]
            assert _candidates(pieces) == _candidates([text]), path
    assert total > 1000
    assert wrapped > 500
