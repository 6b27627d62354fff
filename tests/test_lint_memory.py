"""lint's memory per input byte (issue 24 item 11): the extractors hold one stretch at a time.

The figures are measured by ``benchmarks/bench_lint_memory.py --per-byte``; these tests check
what makes them hold without timing anything: Markdown is parsed in stretches whose tokens
are those of one parse of the whole document (real doc trees, generated hostile Markdown),
extraction in stretches reports exactly what whole-document extraction reports, no parse is
given much more than a stretch, numbered heading repeats are counts, and the compact spans,
masks and scanner pieces change no offset.
"""

from __future__ import annotations

import dataclasses
import random
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

import urlsift.lint.extract_markdown as extract_markdown
import urlsift.lint.findings as findings
from urlsift.lint.extract import ExtractOptions, detect_format, extract_document
from urlsift.lint.extract_markdown import block_tokens
from urlsift.lint.findings import Extracted, LineIndex, Spans, mask
from urlsift.lint.slugs import Anchors, heading_anchors

ROOT = Path(__file__).resolve().parent.parent
SHARED_DOCS = ROOT.parent / "shared" / "corpora" / "docs"
TREES = sorted(p.name for p in SHARED_DOCS.iterdir() if p.is_dir()) if SHARED_DOCS.is_dir() else []
need_docs = pytest.mark.skipif(len(TREES) < 9, reason="the shared doc trees are not here")

# Lines that build the constructs whose extent crosses blank lines or depends on what
# follows: lists (nested, loose, lazy), fences, indented code, HTML blocks of every type,
# setext headings, link reference definitions (titles on the next line, used before they
# are defined), footnotes, tables, front matter, blockquotes, CR line breaks.
PIECES = (
    *("", "", "", "a", "b c", "lazy", "[a] and [b][] and [c](#x)", "    ", "\t", "\r"),
    *("- item", "  - nested", "    - deeper", "1. one", "2) two", "10. ten", "*", "-", "+ x"),
    *("    indented code", "      code", "   - x", "```", "~~~", "```py {#id}", "````"),
    *("> quote", "> ", ">", "> - in quote", "> ```"),
    *("<div>", "</div>", "<!-- c", "-->", "<pre>", "</pre>", "<script>", "</script>"),
    *("<?php", "?>", "<![CDATA[", "]]>", "<!DOCTYPE x>", "<a href='x.md'>", "<textarea>"),
    *("===", "---", "***", "# H", "## H ##", "# H", "H {#h}", "+++", "title: x"),
    *("[a]: http://a.example/", "[b]:", "  http://b.example/", "'title", "title'"),
    *('[c]: <http://c.example/> "t', '"', "[^1]: note", "[^1]", "| a | b |", "|---|---|"),
    *("a\r\nb", "`code", "code`", "<http://d.example/>", "[e](http://e.example/ 'x')"),
)


# Lines inside containers (issue 24 item 11): blockquotes (nested, lazy lines, markers
# with and without a space, tabs, wide indents), lists in quotes, quotes in lists, items of
# many paragraphs, and the leaf blocks a stretch may end inside (paragraphs, setext
# headings, indented code, fences, HTML blocks), in quotes or not.
CONTAINED = (
    *("> a", "> b c", ">a", "> > a", ">> a", "> >", ">", "> ", ">\ta", ">  a", "   > a"),
    *("    > a", "> - a", ">   - b", "> 1. a", "> 2) a", "> * a", "- > a", "  > a", "a", "B"),
    *(">     code", ">\tcode", "> ```", "> ~~~", "> <div>", "> </div>", "> <!--", "> -->"),
    *("> # H", "> H", "> ===", "> ---", "> [r]: http://r.example/", "- a", "  b", "1. a"),
    *("2. b", "   c", "      code", "    code", "```", "<div>", "</div>", "<!-- x", "-->"),
    *("", "", "===", "---", "> > ```", "> > b", "> > <pre>", "> </pre>", "<pre>", "</pre>"),
    *("-   a", "10. a", "     b", "    b", "- - a", "    - b", "-\ta", "  ```", "  - ```", " 1) a"),
    *("  # h", "  b {#i}", "  ===", "- # h", "*    a", "  <div>", "  [r]: http://r.example/"),
    *("  >", "  > b", "  - b", ">   - b", "- > a", "  > - c", "    > d", "  ~~~", "  >     e"),
)


def _hostile(rng: random.Random) -> str:
    lines = [rng.choice(PIECES) for _ in range(rng.randint(1, 60))]
    return "\n".join(lines) + rng.choice(("", "\n", "\n\n"))


def _contained(rng: random.Random) -> str:
    # runs of one line (a long quote, list, paragraph, code block), mixed with PIECES
    lines: list[str] = []
    for _ in range(rng.randint(1, 30)):
        piece = rng.choice(CONTAINED if rng.random() < 0.8 else PIECES)
        lines.extend([piece] * rng.choice((1, 1, 2, 3, 8)))
    return "\n".join(lines) + rng.choice(("", "\n", "\n\n"))


def _signature(tokens: Iterator[Token]) -> list[tuple[object, ...]]:
    return [
        (t.type, t.tag, t.nesting, t.level, t.map and tuple(t.map), t.info, t.content, t.markup)
        for t in tokens
    ]


def _markdown_files() -> list[Path]:
    suffixes = {".md", ".markdown", ".mdx", ".mkd", ".mdown"}
    return sorted(p for p in SHARED_DOCS.rglob("*") if p.suffix.lower() in suffixes)


def _same(a: Extracted, b: Extracted) -> bool:
    return (
        a.findings == b.findings
        and a.local_links == b.local_links
        and set(a.anchors) == set(b.anchors)
        and a.labels == b.labels
        and a.opaque == b.opaque
    )


@need_docs
def test_stretches_give_the_whole_parse_on_real_trees() -> None:
    files = _markdown_files()
    assert len(files) > 200
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        whole = _signature(block_tokens(text, None))
        for window in (1, 100):
            assert _signature(block_tokens(text, window)) == whole, (path, window)


@pytest.mark.parametrize("seed", range(4))
def test_stretches_give_the_whole_parse_on_hostile_markdown(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        text = _hostile(rng)
        whole = _signature(block_tokens(text, None))
        for window in (1, 3, 40):
            assert _signature(block_tokens(text, window)) == whole, (text, window)


@pytest.mark.parametrize("seed", range(6))
def test_stretches_give_the_whole_parse_inside_containers(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(300):
        text = _contained(rng)
        whole = _signature(block_tokens(text, None))
        for window in (1, 3, 40):
            assert _signature(block_tokens(text, window)) == whole, (text, window)


def _extract_both(
    text: str, path: str, monkeypatch: pytest.MonkeyPatch, window: int, piece: int
) -> tuple[Extracted, Extracted]:
    fmt = detect_format(path)
    options = ExtractOptions()
    with monkeypatch.context() as m:
        m.setattr(extract_markdown, "WINDOW", None)
        m.setattr(findings, "_SCAN_PIECE", 1 << 40)
        whole = extract_document(text, path, fmt, options)
    with monkeypatch.context() as m:
        m.setattr(extract_markdown, "WINDOW", window)
        m.setattr(findings, "_SCAN_PIECE", piece)
        pieces = extract_document(text, path, fmt, options)
    return whole, pieces


@need_docs
@pytest.mark.parametrize("tree", TREES)
def test_extraction_in_stretches_is_whole_document_extraction(
    tree: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every document of the tree, every format: Markdown parsed in small stretches, the
    # core scanner fed small pieces, against one parse and one feed of the whole text.
    checked = 0
    for path in sorted((SHARED_DOCS / tree).rglob("*")):
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "\0" in text:
            continue
        whole, pieces = _extract_both(text, str(path), monkeypatch, 200, 300)
        assert _same(whole, pieces), path
        checked += bool(whole.findings)
    assert checked


@pytest.mark.parametrize("seed", range(3))
def test_extraction_in_stretches_on_hostile_markdown(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        text = _hostile(rng) if rng.random() < 0.5 else _contained(rng)
        whole, pieces = _extract_both(text, "x.md", monkeypatch, rng.choice((1, 7, 50)), 5)
        assert _same(whole, pieces), text


def test_no_parse_is_given_much_more_than_a_stretch(monkeypatch: pytest.MonkeyPatch) -> None:
    # What makes the memory per byte hold: markdown-it never sees the whole document.
    given: list[int] = []
    parse = MarkdownIt.parse

    def recording(self: MarkdownIt, src: str, env: object = None) -> list[Token]:
        given.append(len(src))
        return parse(self, src, env)  # type: ignore[arg-type]

    monkeypatch.setattr(MarkdownIt, "parse", recording)
    text = "a\n\n# H\n\n" * 20_000 + "```\n" + "code\n\n" * 2_000 + "```\n" + "- a\n\n" * 10
    tokens = 0
    for _ in block_tokens(text, 4096):
        tokens += 1
    assert tokens > 60_000
    assert sum(given) < 3 * len(text)  # every character parsed a bounded number of times
    assert max(given) < 4 * 14_000  # the fence (12 KB) is the longest block
    assert sorted(given)[-5] <= 4096 + 16  # a stretch is its window and one line


def test_numbered_heading_repeats_are_counts() -> None:
    text = "# Usage\n\n" * 5_000 + "# usage-3\n\n## Üsage\n"
    extracted = extract_document(text, "x.md", "markdown")
    seen: dict[str, int] = {}
    expected: set[str] = set()
    for _ in range(5_000):
        expected.update(heading_anchors("Usage", seen))
    expected.update(heading_anchors("usage-3", seen))
    expected.update(heading_anchors("Üsage", seen))
    assert set(extracted.anchors) == expected
    assert len(extracted.anchors) == len(expected)
    assert isinstance(extracted.anchors, Anchors)
    assert len(extracted.anchors._names) < 10  # type: ignore[attr-defined]
    for anchor in ("usage-5000", "usage_5000", "usage-3", "usage", "üsage"):
        assert anchor in extracted.anchors
    absent = ("usage-5001", "usage_5001", "usage-0", "usage-03", "usage_", "usage-x", "usage-٣")
    for anchor in absent:
        assert anchor not in extracted.anchors
    assert 3 not in extracted.anchors
    lowered = extracted.anchors.lower()
    assert set(lowered) == {a.lower() for a in expected}


def test_spans_mask_as_a_list_does() -> None:
    rng = random.Random(5)
    for _ in range(200):
        text = "".join(rng.choice("ab \n\r<>") for _ in range(rng.randint(0, 300)))
        spans = Spans()
        pairs: list[tuple[int, int]] = []
        at = 0
        while at < len(text):
            start = at + rng.randint(0, 5)
            end = min(len(text), start + rng.randint(0, 9))
            if start >= end:
                break
            spans.add(start, end)
            pairs.append((start, end))
            at = end if rng.random() < 0.3 else end + 1
        assert mask(text, spans) == mask(text, pairs) == mask(text, reversed(pairs))
        assert len(mask(text, spans)) == len(text)


def test_line_index_positions() -> None:
    text = "ab\n\ncd\r\nx"
    index = LineIndex(text)
    assert [index.position(i) for i in (0, 2, 3, 4, 8, 9)] == [
        (1, 1),
        (1, 3),
        (2, 1),
        (3, 1),
        (4, 1),
        (4, 2),
    ]
    assert index.line_count == 4
    assert (index.line_start(3), index.line_end(3), index.line_end(4)) == (4, 7, 9)


def test_repeated_link_spans_are_reported_once() -> None:
    # [x](<http://a>) is seen by the inline link and the autolink finder: one finding.
    text = "[x](<http://a.example/>) and [y][r] <http://a.example/>\n\n[r]: http://b.example/\n"
    extracted = extract_document(text, "x.md", "markdown")
    spans = [(f.line, f.column, f.origin) for f in extracted.findings]
    assert spans == [
        (1, 6, "markdown-link"),
        (1, 38, "markdown-autolink"),
        (3, 6, "markdown-reference"),
    ]
    assert dataclasses.replace(extracted) == extracted


# One Markdown block as big as the document (issue 24 item 11): a loose list, a blockquote,
# a list in a quote, an item of many paragraphs, a quote in an item, lazy lines, a fence
# in an item, one paragraph, nested containers. A whole parse holds 40 to 550 bytes per
# byte of them.
ONE_BLOCK = {
    "list": ("", "- a\n\n"),
    "quote": ("", "> a\n"),
    "ordered": ("", "1. a\n\n"),
    "quote-list": ("", "> - a\n>\n"),
    "item-paragraphs": ("- a\n\n", "  b\n\n"),
    "item-quote": ("- > a\n", "  > a\n"),
    "lazy": ("> a\n", "b\n"),
    "item-fence": ("- ```\n", "  a\n"),
    "paragraph": ("", "a\n"),
    "item-quote-paragraphs": ("- > a\n", "  >\n  > b\n"),
    "item-list": ("- a\n", "  - b\n\n"),
    "quote-item-list": ("> - a\n", ">   - b\n>\n"),
}


@pytest.mark.parametrize("shape", sorted(ONE_BLOCK))
def test_one_block_as_big_as_the_document_is_parsed_in_stretches(shape: str) -> None:
    head, unit = ONE_BLOCK[shape]
    text = head + unit * (16_384 // len(unit))
    assert _signature(block_tokens(text, 256)) == _signature(block_tokens(text, None))
    tracemalloc.start()
    try:
        for _ in block_tokens(text, 256):
            pass
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 15 * len(text), (shape, peak / len(text))  # a whole parse: 40x to 550x
