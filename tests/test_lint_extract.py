"""The extractors of urlsift lint: exact positions per format, code skipped, never raising."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from urlsift.lint.extract import (
    DocumentFormat,
    ExtractOptions,
    detect_format,
    extract_findings,
    mask,
)
from urlsift.lint.extract_man import unescape


def _found(text: str, fmt: DocumentFormat, **options: bool) -> list[tuple[str, str, int, int]]:
    findings = extract_findings(text, "doc", fmt, ExtractOptions(**options))
    return [(f.origin, f.url, f.line, f.column) for f in findings]


def test_detect_format() -> None:
    assert detect_format("a/b.MD") == "markdown"
    assert detect_format("x.rst") == "rst"
    assert detect_format("x.htm") == "html"
    assert detect_format("ls.1") == "man"
    assert detect_format("perl.3pm") == "man"
    assert detect_format("README") == "text"
    # a source copied as text (Sphinx's _sources) is read in its own format
    assert detect_format("_sources/usage.rst.txt") == "rst"
    assert detect_format("_sources/guide.md.TXT") == "markdown"
    assert detect_format("page.html.txt") == "text"
    assert detect_format("notes.txt") == "text"


def test_mask_keeps_offsets_and_line_breaks() -> None:
    assert mask("ab\ncd\r\nef", [(1, 8)]) == "a \n  \r\n f"


def test_markdown_links_autolinks_references_and_code() -> None:
    text = (
        "# T\n"
        "See [a](http://a.example/x) and <http://b.example/>.\n"
        '`http://code.example/` ![i](https://i.example/i.png "t")\n'
        "```\nhttp://fenced.example/\n```\n"
        "[r]: http://r.example/\n"
        "[rel](../x.html) [top](#top) http://bare.example/\n"
    )
    assert _found(text, "markdown") == [
        ("markdown-link", "http://a.example/x", 2, 9),
        ("markdown-autolink", "http://b.example/", 2, 34),
        ("markdown-link", "https://i.example/i.png", 3, 29),
        ("markdown-reference", "http://r.example/", 7, 6),
        ("bare", "http://bare.example/", 8, 30),
    ]
    verbatim = _found(text, "markdown", include_verbatim=True)
    assert any(url.startswith("http://code.example/") for _, url, _, _ in verbatim)
    assert ("bare", "http://fenced.example/", 5, 1) in verbatim


def test_markdown_whitespace_destination_and_html_block() -> None:
    text = '[a](http://a.example/x y)\n\n<div><a href="http://h.example/?a=1&amp;b=2">x</a></div>\n'
    assert _found(text, "markdown") == [
        ("markdown-link", "http://a.example/xy", 1, 5),
        ("html-attribute", "http://h.example/?a=1&b=2", 3, 15),
    ]


def test_rst_links_targets_and_literals() -> None:
    text = (
        "See `x <http://x.example/a\n   b>`_ and ``http://lit.example/``.\n\n"
        ".. _t: http://t.example/long-\n   path\n\n"
        "Example::\n\n    http://literal.example/\n\n"
        ".. code-block:: sh\n\n   curl http://code.example/\n\n"
        "Text http://bare.example/.\n"
    )
    assert _found(text, "rst") == [
        ("rst-link", "http://x.example/ab", 1, 9),
        ("rst-target", "http://t.example/long-path", 4, 8),
        ("bare", "http://bare.example/", 15, 6),
    ]


def test_html_attributes_visible_text_and_code() -> None:
    text = (
        "<p>Go http://v.example/ now</p>\n"
        "<a href=' http://a.example/ '>a</a><pre>http://pre.example/</pre>\n"
        "<script>var u = 'http://s.example/';</script><a href=\"/rel\">r</a>\n"
    )
    assert _found(text, "html") == [
        ("bare", "http://v.example/", 1, 7),
        ("html-attribute", "http://a.example/", 2, 11),
    ]


def test_man_macros_and_escapes() -> None:
    text = ".TH X 1\n.UR http://m.example/a\\-b\n.UE\n.MT a@b.example\nSee \\fBhttp://t.example/x\\-y\\fR.\n.nf\nhttp://nf.example/\n.fi\n"
    assert _found(text, "man") == [
        ("man-macro", "http://m.example/a-b", 2, 5),
        ("man-macro", "mailto:a@b.example", 4, 5),
        ("bare", "http://t.example/x-y", 5, 8),
    ]
    out, spans = unescape("a\\-b\\&c")
    assert out == "a-bc"
    assert spans == [(0, 1), (1, 3), (3, 4), (6, 7)]


_PIECES = [*"ab:/<>`[]()\"'=&#%-_.\\ \n\t*!h", "http://", "<a href='", "``", ".UR ", "]("]
_TEXT = st.lists(st.sampled_from([*_PIECES, "\udcff", "\x00"]), max_size=80).map("".join)


@given(text=_TEXT, fmt=st.sampled_from(["text", "markdown", "rst", "html", "man"]))
def test_extraction_never_raises(text: str, fmt: DocumentFormat) -> None:
    for verbatim in (False, True):
        for f in extract_findings(text, "doc", fmt, ExtractOptions(include_verbatim=verbatim)):
            assert 1 <= f.line <= f.end_line
            assert f.column >= 1
