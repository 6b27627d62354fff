"""Peers' conformance fixtures (linkify-it, cmark-gfm, twitter-text) run through urlsift.

The scheme-bearing cases of each peer's own fixtures live in ``corpora/peers/*.cases``
(format: ``corpora/peers/PROVENANCE.md``). Every case must either agree with the peer or be
listed in ``corpora/peers/disagreements.txt`` with its reason: ``RFC`` when the difference
follows from RFC 1738 / RFC 3986 (or from urlsift's documented scope), ``BUG`` when urlsift
is wrong and the entry waits for a fix. A listed case that agrees fails too, so fixing a bug
(or changing behaviour) forces the list to be updated.

``benchmarks/peer_report.py`` imports this module for its per-peer counts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

import urlsift

from _fixtures import data_lines, sections

ROOT = Path(__file__).resolve().parent.parent
PEERS_DIR = ROOT / "corpora" / "peers"
PEERS = ("linkify-it", "cmark-gfm", "twitter-text")
DISAGREEMENTS = PEERS_DIR / "disagreements.txt"
KINDS = ("RFC", "BUG")
_KEYS = frozenset({"desc", "input", "expect", "first", "schemeless", "indices"})


@dataclass(frozen=True)
class PeerCase:
    """One case of a peer's fixtures, as written in ``corpora/peers/<peer>.cases``."""

    peer: str
    name: str
    text: str
    expect: tuple[str, ...] | None = None
    first: str | None = None
    schemeless: tuple[str, ...] = ()
    indices: tuple[tuple[int, int], ...] | None = None
    desc: str = ""

    @property
    def id(self) -> str:
        return f"{self.peer}/{self.name}"


@dataclass(frozen=True)
class Disagreement:
    case_id: str
    kind: str
    reason: str


@dataclass(frozen=True)
class Outcome:
    """How urlsift did on a case: ``agrees`` plus what was expected and what was found."""

    agrees: bool
    expected: object
    found: object
    urls: tuple[str, ...]


def _case(peer: str, name: str, fields: dict[str, str]) -> PeerCase:
    unknown = set(fields) - _KEYS
    if unknown or "input" not in fields or ("expect" in fields) == ("first" in fields):
        raise ValueError(f"{peer}/{name}: bad keys {sorted(fields)}")
    values = {key: json.loads(value) for key, value in fields.items() if key != "desc"}
    indices = values.get("indices")
    if indices is not None and len(indices) != len(values.get("expect", ())):
        raise ValueError(f"{peer}/{name}: one [start, end] per expected URL is needed")
    return PeerCase(
        peer=peer,
        name=name,
        text=values["input"],
        expect=None if "expect" not in values else tuple(values["expect"]),
        first=values.get("first"),
        schemeless=tuple(values.get("schemeless", ())),
        indices=None if indices is None else tuple((a, b) for a, b in indices),
        desc=fields.get("desc", ""),
    )


def load_cases(peer: str) -> list[PeerCase]:
    """Read ``corpora/peers/<peer>.cases``."""
    cases: list[PeerCase] = []
    path = PEERS_DIR / f"{peer}.cases"
    for section in sections(path, "== "):
        fields: dict[str, str] = {}
        for offset, line in enumerate(section.lines, 1):
            if line.startswith("#") or not line.strip():
                continue
            key, sep, value = line.partition(": ")
            if not sep or key in fields:
                raise ValueError(f"{path.name}:{section.number + offset}: cannot read {line!r}")
            fields[key] = value
        cases.append(_case(peer, section.name, fields))
    return cases


def load_all_cases() -> list[PeerCase]:
    return [case for peer in PEERS for case in load_cases(peer)]


def load_disagreements() -> dict[str, Disagreement]:
    """Read ``disagreements.txt``: ``<case id>  <RFC|BUG>: <reason>`` per line."""
    found: dict[str, Disagreement] = {}
    for number, line in data_lines(DISAGREEMENTS):
        case_id, _, rest = line.strip().partition(" ")
        kind, sep, reason = rest.strip().partition(": ")
        if not sep or kind not in KINDS or not reason.strip() or case_id in found:
            raise ValueError(f"disagreements.txt:{number}: cannot read {line!r}")
        found[case_id] = Disagreement(case_id, kind, reason.strip())
    return found


def run_case(case: PeerCase) -> Outcome:
    """Run one case through :func:`urlsift.extract` and compare with the peer."""
    records = urlsift.extract(case.text)
    urls = tuple(record.url for record in records)
    if case.first is not None:
        found_first = urls[0] if urls else None
        return Outcome(found_first == case.first, case.first, found_first, urls)
    assert case.expect is not None
    if case.indices is not None:
        expected_spans = list(zip(case.expect, case.indices, strict=True))
        found_spans = [(record.url, (record.start, record.end)) for record in records]
        return Outcome(found_spans == expected_spans, expected_spans, found_spans, urls)
    return Outcome(urls == case.expect, list(case.expect), list(urls), urls)


CASES = load_all_cases()
LISTED = load_disagreements()


def test_fixtures_are_complete() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for peer in PEERS:
        assert any(case.peer == peer for case in CASES), f"no cases for {peer}"
    for name in ("PROVENANCE.md", "LICENSE.linkify-it", "COPYING.cmark-gfm"):
        assert (PEERS_DIR / name).is_file(), name
    assert (PEERS_DIR / "LICENSE.twitter-text").is_file()


def test_disagreements_name_real_cases() -> None:
    unknown = sorted(set(LISTED) - {case.id for case in CASES})
    assert not unknown, f"disagreements.txt lists unknown cases: {unknown}"


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_peer_case(case: PeerCase) -> None:
    outcome = run_case(case)
    listed = LISTED.get(case.id)
    if listed is None:
        assert outcome.agrees, (
            f"{case.id}: urlsift disagrees with {case.peer} on {case.text!r}: expected "
            f"{outcome.expected!r}, found {outcome.found!r}; fix it or list it in "
            "corpora/peers/disagreements.txt with its reason"
        )
    else:
        assert not outcome.agrees, (
            f"{case.id} now agrees with {case.peer} (found {outcome.found!r}); remove it "
            f"from corpora/peers/disagreements.txt ({listed.kind}: {listed.reason})"
        )
