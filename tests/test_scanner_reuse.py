"""One scanner for many texts: :meth:`Scanner.reset` and :meth:`Scanner.finds_nothing_in`.

* ``reset`` makes a used scanner (closed, or left in the middle of a text: deferred spans,
  a bare URL being skipped, wrap answers remembered) scan the next text exactly as a new
  scanner of its configuration would, ``origin`` included.
* ``finds_nothing_in`` never turns away a text in which a new scanner, fed the text whole
  and closed, finds a candidate: on hypothesis-generated text (pieces of URLs, wrappers,
  prefixes, quote marks, any characters) and on every part of the mail corpora, the
  project's own and the shared archives (skipped when absent).
* The pipeline that uses both (:func:`urlsift.api.scan_reset`, as ``scan_units`` and the
  CLI's engines run it) gives the records of a new scanner per unit.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_chunking import PIECES
from urlsift import Candidate, Judge, Scanner, TextUnit, scan_unit
from urlsift.api import scan_reset
from urlsift.sources.archive import open_units

CASES = settings(max_examples=150, deadline=None)
OWN_MAIL = Path(__file__).resolve().parent.parent / "corpora" / "mail"
SHARED_MBOX = Path("/work/shared/corpora/mbox")

# Pieces near a trigger without being one ("Subject:", "12:30", "<b>", a scheme word glued
# to another word), besides the scanner tests' URL pieces.
NEAR = ["Subject:", "12:30", "<b>", "<", ":", "xhttp:", "http", "ttp:", "-http:", "+ftp:"]
pieces = st.lists(st.sampled_from(PIECES + NEAR) | st.text(max_size=6), max_size=40).map("".join)


def _fresh(text: str, **options: object) -> list[Candidate]:
    scanner = Scanner(**options)  # type: ignore[arg-type]
    return scanner.feed(text) + scanner.close()


@CASES
@given(pieces)
def test_nothing_found_where_the_check_says_so(text: str) -> None:
    if Scanner().finds_nothing_in(text):
        assert _fresh(text) == []


@CASES
@given(pieces, st.sampled_from([None, ("http",), ("ftp", "s-ftp", "x-y")]))
def test_the_check_follows_the_scheme_set(text: str, schemes: tuple[str, ...] | None) -> None:
    if Scanner(schemes).finds_nothing_in(text):
        assert _fresh(text, schemes=schemes) == []


def test_the_check_passes_on_text_with_triggers() -> None:
    scanner = Scanner()
    assert scanner.finds_nothing_in("Subject: lunch at 12:30 <b>bold</b>")
    assert not scanner.finds_nothing_in("see http://a.example/")
    assert not scanner.finds_nothing_in("see <mailto:a@b.example>")
    # A text of a block or more is scanned in more than one pass: never turned away.
    assert not Scanner(block_size=16).finds_nothing_in("no trigger in here at all")


@CASES
@given(st.lists(pieces, min_size=1, max_size=4), st.data())
def test_reset_scans_as_a_new_scanner(texts: list[str], data: st.DataObject) -> None:
    reused = Scanner(block_size=16)
    for text in texts:
        if data.draw(st.booleans()):  # left in the middle of a text
            reused.reset()
            reused.feed(text + "<URL:http://a.example/" + "x" * 5000)
        origin = data.draw(st.sampled_from([(0, 1), (100, 7)]))
        reused.reset(origin)
        cut = data.draw(st.integers(0, len(text)))
        found = reused.feed(text[:cut]) + reused.feed(text[cut:]) + reused.close()
        fresh = Scanner(block_size=16, origin=origin)
        assert found == fresh.feed(text[:cut]) + fresh.feed(text[cut:]) + fresh.close()


def _mail_units() -> list[TextUnit]:
    paths = sorted(p for p in OWN_MAIL.iterdir() if p.suffix in (".eml", ".mbox", ".txt"))
    if SHARED_MBOX.is_dir():
        paths += sorted(SHARED_MBOX.glob("*.mbox.gz"))
    units = []
    for path in paths:
        kind = "mail" if path.suffix == ".eml" else "auto"
        for unit in open_units(str(path), kind):  # type: ignore[arg-type]
            units.append(replace(unit, chunks=tuple(unit.chunks)))
    return units


@pytest.fixture(scope="module")
def mail_units() -> list[TextUnit]:
    return _mail_units()


def test_no_mail_part_is_turned_away_that_holds_a_candidate(mail_units: list[TextUnit]) -> None:
    scanner = Scanner()
    turned_away = 0
    for unit in mail_units:
        if len(unit.chunks) == 1 and scanner.finds_nothing_in(unit.chunks[0]):  # type: ignore[arg-type]
            turned_away += 1
            assert _fresh(unit.chunks[0]) == [], unit.context  # type: ignore[index]
    assert turned_away  # the check does turn parts away


def test_the_reused_scanner_gives_the_records_of_new_ones(mail_units: list[TextUnit]) -> None:
    fresh_judge, reused_judge = Judge(), Judge()
    reused = Scanner()
    for unit in mail_units:
        expected = list(scan_unit(unit, Scanner(), fresh_judge, extra_defects=unit.defects))
        got = list(scan_reset(unit, reused, reused_judge, extra_defects=unit.defects))
        assert got == expected, unit.context


@CASES
@given(st.lists(pieces, min_size=1, max_size=4), st.data())
def test_scan_whole_is_reset_feed_and_close(texts: list[str], data: st.DataObject) -> None:
    # Whatever state the scanner was left in (closed, fed in part, a URL being skipped,
    # another text scanned whole), and whether the text fills a block or not.
    block = data.draw(st.sampled_from([16, 64, 1 << 16]))
    reused = Scanner(block_size=block)
    for text in texts:
        left = data.draw(st.sampled_from(["closed", "fed", "whole"]))
        if left == "fed":
            reused.reset()
            reused.feed(text + "<URL:http://a.example/" + "x" * 5000)
        elif left == "whole":
            reused.scan_whole("see http://b.example/x-\n  y and <URL:http://c.example/")
        origin = data.draw(st.sampled_from([(0, 1), (100, 7)]))
        found = reused.scan_whole(text, origin)
        fresh = Scanner(block_size=block, origin=origin)
        assert found == fresh.feed(text) + fresh.close()
        assert reused.close() == []  # left closed, as close() leaves it
        with pytest.raises(RuntimeError):
            reused.feed("x")


def test_scan_whole_refuses_bytes() -> None:
    with pytest.raises(TypeError):
        Scanner().scan_whole(b"http://a.example/")  # type: ignore[arg-type]
