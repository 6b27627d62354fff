"""The shortcuts of possible wraps give the answers of the long way (issue 23's speed).

A judge validates only the readings its choice needs (``chosen_fields``), and a scanner and
a judge keep their last wrap answers and readings: the records must be those of the long
way, whatever is repeated.
"""

from __future__ import annotations

from urlsift import Scanner
from urlsift.api import Judge
from urlsift.validation.rules import chosen_fields, validate_readings
from urlsift.validation.schemes import shared_default_registry

READINGS = [
    ("http://h:80-80/", "http://h:8080/"),  # only the second is valid
    ("http://example.com/a", "http://example.com/ab"),  # both valid: the first
    ("http://exa mple/", "http://ex%zz/"),  # neither: the first
    ("http://example.com/cut", "http://example.com/cut]x", "ftp://x.example/"),
]

# Quoted-printable soft breaks and a client wrap, each quoted again as a reply would.
_TEXT = (
    '<a href=3D"http://lists.example.com/mailman/listinfo/users_lists.example.c=\n'
    'om" rel=3D"noreferrer">list</a>\n'
    "see http://files.example.com/find/results.asp?os=\n"
    "12&type=DRV%2CUTL&id=415&go=Go%21\n\n"
)
TEXT = _TEXT + "".join("> " + line + "\n" for line in _TEXT.splitlines()) + _TEXT


def test_chosen_fields_is_the_choice_of_validate_readings() -> None:
    registry = shared_default_registry()
    for readings in READINGS:
        index, results = validate_readings(readings)
        chosen, fields = chosen_fields(readings, registry, None)
        assert chosen == index
        expected = results[index]
        assert fields == (
            expected.url,
            expected.valid,
            expected.scheme,
            expected.defects,
            expected.parts,
            expected.fragment,
        )


def test_memos_change_no_record() -> None:
    scanner = Scanner()
    candidates = scanner.feed(TEXT) + scanner.close()
    remembered = Judge().judge_all(candidates)
    assert remembered == Judge(cache_size=0).judge_all(candidates)
    # every URL was carried over its break, the soft break's each time as "both" (quoted
    # too: the "> " does not count in its 76 columns)
    assert all(url.alternatives for url in remembered)
    assert [d.code for url in remembered for d in url.defects].count("possible-wrap") == 3
    # fed in small pieces (a fresh scanner: its memo starts empty), the same candidates
    pieces = Scanner()
    found = []
    for start in range(0, len(TEXT), 7):
        found += pieces.feed(TEXT[start : start + 7])
    assert found + pieces.close() == candidates
