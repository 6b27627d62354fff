"""Hostile input for ``urlsift lint`` and HTML mail parts (issue 13, items 2-4).

Time is never measured here. Each quadratic case runs at a size where the old code took
minutes, under a pytest-timeout guard far above the run time of a linear scan (well under
a second on the shared machine); where a work counter exists, it is asserted instead.
Growth figures are in ``benchmarks/bench_lint_linear.py``; memory in
``benchmarks/bench_lint_memory.py``.
"""

from __future__ import annotations

import os
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest

import urlsift.lint.check as check
import urlsift.lint.extract_rst as extract_rst
from urlsift.lint.config import build_settings
from urlsift.lint.engine import lint_paths, lint_text
from urlsift.lint.extract import ExtractOptions, extract_findings
from urlsift.sources.htmltext import html_to_text

KIB = 1024


def _found(text: str, fmt: str) -> list[tuple[str, str, int, int]]:
    findings = extract_findings(text, "doc", fmt, ExtractOptions())  # type: ignore[arg-type]
    return [(f.origin, f.url, f.line, f.column) for f in findings]


# --- item 2: HTML ----------------------------------------------------------------------

# html.parser took 31.9 s for 200 KB of "<a" and 18 s for 200 KB of "<!--" (quadratic).
_HTML_HOSTILE = {
    "tag-open": "<a" * (200 * KIB),
    "comment-open": "<!--" * (100 * KIB),
    "unclosed-attribute": '<a href="' + "x" * (400 * KIB),
    "lt": "<" * (400 * KIB),
    "charref-open": "&#" * (200 * KIB),
    "deep-nesting": "<div>" * (80 * KIB),
    "end-tag-open": "</a" * (130 * KIB),
}


@pytest.mark.timeout(20)
@pytest.mark.parametrize("family", sorted(_HTML_HOSTILE))
def test_lint_html_hostile_families(family: str) -> None:
    # Hostile to the end: a later '>' would close the runaway tag and spare html.parser.
    text = '<a href="http://before.example/">x</a>\n' + _HTML_HOSTILE[family]
    assert _found(text, "html")[0] == ("html-attribute", "http://before.example/", 1, 10)


@pytest.mark.timeout(20)
@pytest.mark.parametrize("family", sorted(_HTML_HOSTILE))
def test_mail_html_hostile_families(family: str) -> None:
    out = html_to_text('<p>see <a href="http://before.example/">x</a></p>' + _HTML_HOSTILE[family])
    assert "http://before.example/" in out


@pytest.mark.timeout(20)
def test_markdown_html_block_hostile() -> None:
    text = "[x](http://ok.example/)\n\n<div>\n" + "<a" * (100 * KIB)
    assert _found(text, "markdown")[0] == ("markdown-link", "http://ok.example/", 1, 5)


def test_html_positions_and_malformed_attributes() -> None:
    text = (
        '<IMG alt== src="http://a.example/1.jpg" width=1>\n'
        "<a\nhref = 'http://b.example/&amp;x' title=\"x>y\">b</a>\n"
        '<a href="http://c.example/" href=http://d.example/>d</a> <!-- http://e.example/ -->\n'
        "<textarea>http://t.example/ <a href='http://shown.example/'></textarea>\n"
        "<script>x = '</scripts><a href=\"http://s.example/\">'</script> http://v.example/\n"
        '<a href="http://cut.example/ never closed\n'
    )
    assert _found(text, "html") == [
        ("html-attribute", "http://a.example/1.jpg", 1, 17),
        ("html-attribute", "http://b.example/&x", 3, 9),
        ("html-attribute", "http://c.example/", 4, 10),
        ("html-attribute", "http://d.example/", 4, 34),
        ("bare", "http://t.example/", 5, 11),  # <textarea> holds text, not markup
        ("bare", "http://shown.example/", 5, 38),
        ("bare", "http://v.example/", 6, 63),  # <script> ends at </script only
        ("bare", "http://cut.example/", 7, 10),
    ]


def test_mail_html_text_of_malformed_markup() -> None:
    out = html_to_text(
        "<title>T &amp; t</title><head><style>p {}</style></head><body>"
        "<iframe>http://fallback.example/</iframe><p>a &lt;b&gt; c</p>"
        "<img alt== src='http://img.example/'>"
        '<a href="http://cut.example/x?uid=&nbsp;<BR>rest'
    )
    assert "T & t" in out
    assert "a <b> c" in out
    assert "fallback" not in out
    assert "http://cut.example/x?uid=\xa0<BR>rest" in out
    assert out.endswith("rest\n\nhttp://img.example/\n")
    # A cut <iframe> tag is text like any cut tag (only an iframe's content is hidden).
    assert "http://cut.example/" in html_to_text('<iframe src="http://cut.example/ never')
    assert _found('<iframe src="http://cut.example/ x', "html") == [
        ("bare", "http://cut.example/", 1, 14)
    ]


# --- item 3: Markdown, reST, man and the rules ---------------------------------------------


@pytest.mark.timeout(20)
def test_markdown_reference_title_tail_is_linear() -> None:
    # The title pattern searched an unbounded line: 10.7 s at 80 KB, quadratic.
    n = 160 * KIB
    text = "[a]: http://x.example/" + " " * n + "'" + "b" * n + "\n"  # the title is not closed
    assert [(origin, line, column) for origin, _, line, column in _found(text, "markdown")] == [
        ("markdown-reference", 1, 6)
    ]
    text = "[a]: http://x.example/" + " " * n + "'" + "b" * n + "'\n"
    assert _found(text, "markdown") == [("markdown-reference", "http://x.example/", 1, 6)]


@pytest.mark.timeout(20)
def test_markdown_link_opens_are_linear() -> None:
    # 2048 characters walked per "](" (and markdown-it's inline rules): 19 s at 256 KiB.
    text = "](" * (512 * KIB) + "\n\n[x](http://ok.example/ 'title')\n"
    assert _found(text, "markdown") == [("markdown-link", "http://ok.example/", 3, 5)]


@pytest.mark.timeout(20)
def test_markdown_nested_destinations_are_linear() -> None:
    text = "[x](" * (100 * KIB) + "http://a.example/" + ")" * (100 * KIB) + "\n"
    assert isinstance(_found(text, "markdown"), list)


def test_rst_nested_targets_do_bounded_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each target's indented block was found by rescanning the lines after it.
    calls = 0
    indent = extract_rst._indent

    def counting(line: str) -> int:
        nonlocal calls
        calls += 1
        return indent(line)

    monkeypatch.setattr(extract_rst, "_indent", counting)
    lines = 600
    text = "".join(" " * k + "__ http://a.example/\n" for k in range(lines))
    assert ("rst-target", "http://a.example/", lines, lines + 3) in _found(text, "rst")
    assert calls <= 3 * lines


def test_url008_does_not_copy_the_line_per_url(monkeypatch: pytest.MonkeyPatch) -> None:
    # The rest of the line after each URL was copied: quadratic on a line of many URLs.
    copied = 0
    continuation = check.continuation

    def counting(url: str, rest: str, url_line: str, next_line: str) -> str | None:
        nonlocal copied
        copied += len(rest)
        return continuation(url, rest, url_line, next_line)

    monkeypatch.setattr(check, "continuation", counting)
    text = "http://a.example/x " * 5000 + "\nsee http://b.example/SDG/\nMosaic/Start.html now\n"
    _, diagnostics = lint_text(text, "doc.txt")
    assert [d.code for d in diagnostics if d.code == "URL008"] == ["URL008"]
    assert copied <= len(text)


def test_man_position_map_is_not_per_character() -> None:
    # A (start, end) tuple per character of a man page: 1.2 GB for a 9 MB page.
    text = "See http://a.example/x\\-y and \\fBbold\\fR words in a sentence here.\n" * 8000
    tracemalloc.start()
    try:
        found = _found(text, "man")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert found[0] == ("bare", "http://a.example/x-y", 1, 5)
    assert peak < 20 * len(text)


# --- item 4: bounded reading ------------------------------------------------------------


def _codes(paths: list[str], cwd: Path, **table: object) -> list[tuple[str, str]]:
    settings = build_settings(table)
    result = lint_paths(paths, settings, cwd=cwd)
    return [(d.path, d.code) for d in result.diagnostics]


def test_file_too_large_is_skipped_with_its_own_code(tmp_path: Path) -> None:
    (tmp_path / "big.md").write_text("x http://a.example:9x/ y\n" * 10, encoding="utf-8")
    (tmp_path / "small.md").write_text("http://a.example:9x/\n", encoding="utf-8")
    assert _codes(["."], tmp_path, **{"max-file-size": 100}) == [
        ("big.md", "URL011"),
        ("small.md", "URL012"),
    ]
    assert _codes(["big.md"], tmp_path, **{"max-file-size": 100, "ignore": ["URL011"]}) == []
    assert ("big.md", "URL012") in _codes(["big.md"], tmp_path)


@pytest.mark.timeout(60)
def test_huge_file_is_not_read(tmp_path: Path) -> None:
    # 200 MB took 6.9 GB: the default limit stops it before it is read.
    path = tmp_path / "huge.md"
    with path.open("wb") as f:
        f.write(b"http://a.example/ " * 1000)
        f.truncate(200 * 10**6)  # sparse: the rest reads as NUL bytes
    assert _codes(["huge.md"], tmp_path) == [("huge.md", "URL011")]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.timeout(60)
def test_dev_zero_is_binary_not_fatal(tmp_path: Path) -> None:
    assert _codes(["/dev/zero"], tmp_path) == [("/dev/zero", "URL010")]


@pytest.mark.skipif(sys.platform == "win32", reason="needs mkfifo")
@pytest.mark.timeout(30)
def test_fifo_without_writer_does_not_block(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.md")
    assert _codes(["pipe.md"], tmp_path) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="opens a FIFO read-write")
@pytest.mark.timeout(30)
def test_fifo_with_a_writer_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR)  # Linux: does not wait for a reader
    os.write(writer, b"see http://a.example:9x/\n")
    closer = threading.Timer(0.5, os.close, [writer])  # then the reader sees the end
    closer.start()
    try:
        assert _codes(["pipe.md"], tmp_path) == [("pipe.md", "URL012")]
    finally:
        closer.join()


def test_max_file_size_setting() -> None:
    assert build_settings({}).max_file_size == 10 * 1024 * 1024
    assert build_settings({"max-file-size": 5}).max_file_size == 5


@pytest.mark.parametrize("value", [0, -1, True, "10MB", 1.5])
def test_max_file_size_must_be_a_positive_integer(value: object) -> None:
    from urlsift.errors import ConfigError

    with pytest.raises(ConfigError, match=r"max-file-size.*positive integer"):
        build_settings({"max-file-size": value})
