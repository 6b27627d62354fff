"""The shapes of issue 23 (a bare URL a mail client wrapped), table-driven.

``corpora/wrapjoin/shapes.txt`` holds one case per shape (cut from the shared archives
where one exists there, made-up otherwise, as each case says): the answer (join, both,
keep), the URL and its first alternative. Each case also gives the same candidates,
body types included, whatever the chunking, and ``urlsift lint`` names the continuation of
a possible wrap (URL008).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

from urlsift import Candidate, Scanner, extract
from urlsift.grammar.context import PossibleWrap, SoftBreakWrap
from urlsift.lint.config import ALL_CODES, LintSettings
from urlsift.lint.engine import lint_text

ROOT = Path(__file__).resolve().parent.parent
SHAPES = ROOT / "corpora" / "wrapjoin" / "shapes.txt"


class Shape(NamedTuple):
    name: str
    origin: str
    answer: str
    url: str
    alt: str
    text: str


def _shapes() -> list[Shape]:
    shapes: list[Shape] = []
    for block in SHAPES.read_text("utf-8").split("\n=== ")[1:]:
        name, *lines = block.split("\n")
        fields = dict(line.split(": ", 1) for line in lines if line and not line.startswith("  |"))
        text = "\n".join(line[3:] for line in lines if line.startswith("  |")) + "\n"
        shapes.append(
            Shape(name, fields["origin"], fields["answer"], fields["url"], fields["alt"], text)
        )
    return shapes


SHAPE_CASES = _shapes()


def _answer(text: str) -> tuple[str, str, str]:
    urls = extract(text)
    if not urls:
        return ("none", "-", "-")
    url = urls[0]
    codes = {d.code for d in url.defects}
    if codes & {"continued-line", "ambiguous-hyphen"}:
        answer = "join"
    else:
        answer = "both" if "possible-wrap" in codes else "keep"
    return (answer, url.url, url.alternatives[0] if url.alternatives else "-")


def test_every_shape_of_the_issue_has_a_case_and_real_ones_name_their_source() -> None:
    assert len(SHAPE_CASES) >= 20
    assert {shape.answer for shape in SHAPE_CASES} == {"join", "both", "keep", "none"}
    for shape in SHAPE_CASES:
        assert shape.origin.startswith("made-up") or re.match(
            r"(mbox|mail-samples|rfc-[a-z-]+)/\S+ \((judged\.txt |drawn\.txt |message-id <)",
            shape.origin,
        ), shape.name


@pytest.mark.parametrize("shape", SHAPE_CASES, ids=[shape.name for shape in SHAPE_CASES])
def test_shape(shape: Shape) -> None:
    assert _answer(shape.text) == (shape.answer, shape.url, shape.alt)


def _candidates(text: str, split: int | None) -> list[tuple[Candidate, type[str]]]:
    scanner = Scanner(block_size=16)
    if split is None:
        found = [c for ch in text for c in scanner.feed(ch)]
    else:
        found = scanner.feed(text[:split]) + scanner.feed(text[split:])
    return [(c, type(c.body)) for c in found + scanner.close()]


@pytest.mark.parametrize("shape", SHAPE_CASES, ids=[shape.name for shape in SHAPE_CASES])
def test_chunking_never_changes_a_shape(shape: Shape) -> None:
    scanner = Scanner()
    whole = [(c, type(c.body)) for c in scanner.feed(shape.text) + scanner.close()]
    assert _candidates(shape.text, None) == whole
    for split in range(len(shape.text) + 1):
        assert _candidates(shape.text, split) == whole


def test_body_types_tell_the_answer() -> None:
    by_name = {shape.name: shape for shape in SHAPE_CASES}

    def body_type(name: str) -> type[str]:
        scanner = Scanner()
        (first, *_) = scanner.feed(by_name[name].text) + scanner.close()
        return type(first.body)

    assert body_type("half-written-query-70-columns") is str
    assert body_type("hyphen-led-piece") is PossibleWrap
    assert body_type("quoted-printable-soft-break-left-encoded") is SoftBreakWrap


def test_a_possible_wrap_spans_both_lines_and_points_at_the_cut() -> None:
    shape = next(s for s in SHAPE_CASES if s.name == "hyphen-led-piece")
    (url, *_) = extract(shape.text)
    assert (url.line, url.end_line) == (1, 2)
    (defect,) = url.defects
    assert defect.code == "possible-wrap"
    assert defect.severity == "warning"
    assert defect.offset == len(url.url)


def test_the_cut_reading_gives_way_when_only_the_joined_one_is_valid() -> None:
    # The cut reading ends in a bad escape ("%2"): the joined one is promoted to the URL,
    # the possible-wrap warning stays.
    text = "> see http://www.example.org/docs/FAQ.html#How%20to%20file%2\n0a%20report today\n"
    (url,) = extract(text)
    assert url.url == "http://www.example.org/docs/FAQ.html#How%20to%20file%20a%20report"
    assert url.valid
    assert [d.code for d in url.defects] == ["possible-wrap"]


def test_lint_names_the_continuation_of_a_possible_wrap() -> None:
    shape = next(s for s in SHAPE_CASES if s.name == "hyphen-led-piece")
    _, found = lint_text(shape.text, "doc.txt", LintSettings(select=ALL_CODES))
    (diagnostic,) = [d for d in found if d.code == "URL008"]
    assert "'-billion-plan/'" in diagnostic.message
    assert diagnostic.url == "https://www.example.com/news/2019/06/budget-cut-9"


def test_scanner_defect_codes_are_documented() -> None:
    text = (ROOT / "docs" / "defects.md").read_text("utf-8")
    scanner = text.split("## Scanner defects", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", scanner, re.MULTILINE))
    source = (ROOT / "src" / "urlsift" / "extraction" / "rejoin.py").read_text("utf-8")
    reported = set(re.findall(r'Defect\(\s*"([a-z-]+)"', source))
    assert "possible-wrap" in reported
    assert reported <= documented


def test_every_read_path_gives_the_same_answer(tmp_path: Path) -> None:
    # Plain text, a message of an mbox (its MIME part) and a message longer than the
    # streaming threshold (read as a stream): the same records for each shape's URL.
    import json

    from click.testing import CliRunner

    from urlsift.cli import main
    from urlsift.sources.archive import STREAM_MIN_BYTES

    body = "".join(shape.text + "\n" for shape in SHAPE_CASES if shape.answer != "none")
    headers = (
        "From: joe@example.com\nTo: list@example.org\nSubject: links\n"
        "Message-ID: <1@example.com>\nContent-Type: text/plain; charset=utf-8\n\n"
    )
    filler = "filler words without links, just to make the message long\n"
    long_body = filler * (STREAM_MIN_BYTES // len(filler) + 1) + body
    (tmp_path / "plain.txt").write_text(body, "utf-8")
    (tmp_path / "list.mbox").write_text(
        "From joe@example.com Thu Nov 26 12:00:00 2026\n" + headers + body, "utf-8"
    )
    (tmp_path / "long.eml").write_text(headers + long_body, "utf-8")
    runner = CliRunner()
    seen = []
    for name in ("plain.txt", "list.mbox", "long.eml"):
        result = runner.invoke(main, ["scan", "--format", "jsonl", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
        records = [json.loads(line) for line in result.stdout.splitlines()]
        seen.append(
            [
                (r["url"], r["alternatives"], [d["code"] for d in r["defects"]])
                for r in records
                if "url" in r and r.get("record", "url") == "url"
            ]
        )
    assert seen[0] == seen[1] == seen[2]
    assert sum("possible-wrap" in codes for _, _, codes in seen[0]) >= 8
