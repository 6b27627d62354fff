"""Shortcuts taken on the hot paths for speed give what the plain code would give."""

from __future__ import annotations

import urlsift
from urlsift._model import Candidate
from urlsift.extraction.scanner import Scanner

_TEXT = (
    "see http://www.mips.com/x and <URL:ftp://ftp.example.org/pub/\n"
    "  file.tar.gz> or <mailto:joe@example.com>, URL:news:comp.lang.c\n"
    "> quoted http://a.example/long-\n> path and http://b.example/\n"
)


def test_scanner_candidates_fill_every_field() -> None:
    # _make builds candidates with tuple.__new__, which checks no field count.
    scanner = Scanner()
    found = scanner.feed(_TEXT) + scanner.close()
    assert len(found) == 6
    for candidate in found:
        assert type(candidate) is Candidate
        assert len(candidate) == len(Candidate._fields)
        assert Candidate(*candidate) == candidate


def test_records_are_what_the_plain_steps_give() -> None:
    # The same text through extract() and through iter_urls() in small chunks.
    whole = urlsift.extract(_TEXT)
    pieces = [_TEXT[i : i + 7] for i in range(0, len(_TEXT), 7)]
    assert list(urlsift.iter_urls(pieces)) == whole
    assert [u.normalized for u in whole] == [urlsift.validation.normalize(u.url) for u in whole]
