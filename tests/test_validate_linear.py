"""Linear time: a megabyte of adversarial input per scheme, validated and regex-matched.

Nested or overlapping repetitions would make these inputs take minutes or hours
(catastrophic backtracking); linear code takes well under a second each. The guard is a
pytest-timeout far above that, so slow machines do not fail while any super-linear
behaviour still does; speed itself is measured in benchmarks/, not asserted here.
"""

from __future__ import annotations

import pytest

from urlsift._model import Policy
from urlsift.grammar import rfc as g
from urlsift.validation.rules import validate

MB = 1 << 20
HALF = MB // 2

ADVERSARIAL: list[tuple[str, str]] = [
    ("http", "http://" + "a." * HALF),
    ("http", "http://" + "a-" * HALF),
    ("https", "https://" + "1." * HALF + ":"),
    ("ftp", "ftp://" + "a@" * HALF),
    ("ftp", "ftp://h/" + "%" * MB),
    ("file", "file://" + "a." * HALF + "/"),
    ("gopher", "gopher://h/1" + "%0" * HALF),
    ("mailto", "mailto:" + "~" * MB),
    ("news", "news:" + "a" * MB + "@"),
    ("nntp", "nntp://h/" + "a/" * HALF),
    ("telnet", "telnet://" + ":" * MB),
    ("wais", "wais://h/" + "/" * MB),
    ("prospero", "prospero://h/x" + ";a" * HALF),
    ("", "foo://" + "a." * HALF + ":"),
    ("", "a" * MB + "_:"),
]


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("scheme", "url"),
    ADVERSARIAL,
    ids=[f"{s or 'generic'}-{i}" for i, (s, _) in enumerate(ADVERSARIAL)],
)
def test_megabyte_is_fast(scheme: str, url: str) -> None:
    assert len(url) >= MB
    result = validate(url, policy=Policy(strict=True))
    g.URL_PATTERNS[scheme].fullmatch(url)
    assert len(result.defects) < 64


def test_every_scheme_has_an_adversarial_case() -> None:
    assert {scheme for scheme, _ in ADVERSARIAL} == set(g.URL_PATTERNS)
