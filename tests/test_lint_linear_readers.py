"""The linear readers against the plain ones they replaced, and the HTML tokenizer's promises.

The Markdown destination finders and the reST block ends were rewritten to be linear
(issue 13, item 3); the straightforward versions they replaced are kept here as oracles
(they are quadratic on hostile input, fine on the short texts generated here) and property
tests hold the two to the same answers. The tokenizer of :mod:`urlsift.sources.htmltokens`
is checked for its tiling promise on any text, and against :mod:`html.parser` on
well-formed markup.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st

from urlsift.lint import extract_man as man
from urlsift.lint import extract_markdown as md
from urlsift.sources.htmltokens import tokenize

# --- Markdown: the straightforward finders -----------------------------------------------

_TITLE_TAIL = re.compile(r"""\s+(?:"[^"]*"|'[^']*'|\([^()]*\))\s*\Z""")


def _balanced_end_oracle(text: str, pos: int, limit: int) -> int | None:
    depth = 0
    i = pos
    while i < limit:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i
            depth -= 1
        elif c == "\n" and text[i + 1 : i + 2] == "\n":
            return None
        i += 1
    return None


def _inline_links_oracle(text: str, max_destination: int) -> Iterator[tuple[int, int]]:
    for m in re.finditer(r"\]\(", text):
        pos = m.end()
        close = _balanced_end_oracle(text, pos, min(len(text), pos + max_destination))
        if close is None:
            continue
        content = text[pos:close]
        title = _TITLE_TAIL.search(content)
        if title is not None:
            content = content[: title.start()]
        start = pos + len(content) - len(content.lstrip())
        end = pos + len(content.rstrip())
        if text.startswith("<", start) and text[end - 1 : end] == ">" and end - start > 1:
            start, end = start + 1, end - 1
        if end > start:
            yield start, end


def _references_oracle(text: str) -> Iterator[tuple[int, int]]:
    for m in md._REFERENCE.finditer(text):
        start, end = m.span(1)
        content = text[start:end]
        title = _TITLE_TAIL.search(content)
        if title is not None:
            content = content[: title.start()]
        content = content.rstrip()
        end = start + len(content)
        if content.startswith("<") and content.endswith(">") and len(content) > 2:
            start, end = start + 1, end - 1
        if end > start:
            yield start, end


_MD_PIECES = [*"[]()\\\n \t\"'<>ax:", "](", "[a]: ", "http://x/", "\n\n", " 't'", ' "t"', " (t)"]
_MD_TEXT = st.lists(st.sampled_from(_MD_PIECES), max_size=60).map("".join)


@given(text=_MD_TEXT)
def test_inline_links_match_the_straightforward_reading(text: str) -> None:
    assert list(md._inline_links(text)) == list(_inline_links_oracle(text, md.MAX_DESTINATION))


@given(text=_MD_TEXT, limit=st.integers(1, 12))
def test_inline_links_limit_matches(text: str, limit: int) -> None:
    old = md.MAX_DESTINATION
    md.MAX_DESTINATION = limit
    try:
        assert list(md._inline_links(text)) == list(_inline_links_oracle(text, limit))
    finally:
        md.MAX_DESTINATION = old


@given(text=_MD_TEXT)
def test_references_match_the_straightforward_reading(text: str) -> None:
    assert list(md._references(text)) == list(_references_oracle(text))


# --- man: the position map --------------------------------------------------------------


def _unescape_oracle(text: str) -> tuple[str, list[tuple[int, int]]]:
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    for m in man._ESCAPE.finditer(text):
        start, end = m.span()
        out.append(text[pos:start])
        spans.extend((i, i + 1) for i in range(pos, start))
        if m.group("two") is not None or m.group("long") is not None:
            name = m.group("two") or m.group("long")
            replacement = man.SPECIAL_CHARACTERS.get(name, m.group(0))
        elif m.group("one") is not None:
            replacement = man._SIMPLE_ESCAPES.get(m.group("one"), m.group(0))
        else:
            replacement = ""
        if replacement == m.group(0):
            spans.extend((i, i + 1) for i in range(start, end))
        else:
            spans.extend((start, end) for _ in replacement)
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    spans.extend((i, i + 1) for i in range(pos, len(text)))
    return "".join(out), spans


_MAN_PIECES = [*'\\-&(:[]fFe"a .\n', "\\(hy", "\\[la]", "\\(zz", "\\fB", "\\*(Tm", "\\[nope]"]


@given(text=st.lists(st.sampled_from(_MAN_PIECES), max_size=40).map("".join))
def test_man_source_map_matches_one_span_per_character(text: str) -> None:
    assert man.unescape(text) == _unescape_oracle(text)


# --- HTML tokenizer ----------------------------------------------------------------------

_HTML_PIECES = [
    *"<>/!?-=\"' \n\t&#;ax",
    "<a",
    "</",
    "<!--",
    "-->",
    "--!>",
    "<!DOCTYPE",
    "<script>",
    "</script>",
    "<title>",
    "</title",
    "<plaintext>",
    " href=",
    "&amp;",
    "\udcff",
]
_HTML_TEXT = st.lists(st.sampled_from(_HTML_PIECES), max_size=60).map("".join)


@given(text=_HTML_TEXT)
def test_tokens_tile_the_input(text: str) -> None:
    position = 0
    for token in tokenize(text):
        assert token.start == position
        assert token.end > token.start
        for attribute in token.attributes:
            assert token.start < attribute.start <= attribute.end <= token.end
        position = token.end
    assert position == len(text)


class _Events(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[tuple[str, ...]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append(("start", tag, *(f"{k}={v or ''}" for k, v in attrs)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self.events.append(("end", tag))

    def handle_data(self, data: str) -> None:
        if self.events and self.events[-1][0] == "text":
            data = self.events.pop()[1] + data
        self.events.append(("text", data))


def _our_events(markup: str) -> list[tuple[str, ...]]:
    events: list[tuple[str, ...]] = []
    for token in tokenize(markup):
        if token.kind == "text":
            data = html.unescape(markup[token.start : token.end])
            if events and events[-1][0] == "text":
                data = events.pop()[1] + data
            events.append(("text", data))
        elif token.kind in ("start", "end"):
            values = (
                f"{a.name}={html.unescape(markup[a.start : a.end])}" for a in token.attributes
            )
            events.append((token.kind, token.name, *(values if token.kind == "start" else ())))
    return events


_NAME = st.sampled_from(["a", "p", "DIV", "img", "br", "span"])
_VALUE = st.text(alphabet="abc :/.&;x", max_size=8)
_ATTRIBUTE = st.tuples(st.sampled_from(["href", "src", "Alt", "data-x"]), _VALUE).map(
    lambda pair: f' {pair[0]}="{pair[1]}"'
)
_ELEMENT = st.one_of(
    st.text(alphabet="abc .:/&;\n", min_size=1, max_size=8).map(lambda t: t.replace("&", "&amp;")),
    st.tuples(_NAME, st.lists(_ATTRIBUTE, max_size=3)).map(
        lambda pair: f"<{pair[0]}{''.join(pair[1])}>"
    ),
    _NAME.map(lambda name: f"</{name}>"),
    st.just("<!-- c -->"),
)


@given(parts=st.lists(_ELEMENT, max_size=12))
def test_well_formed_markup_reads_as_html_parser_reads_it(parts: list[str]) -> None:
    markup = "".join(parts)
    parser = _Events()
    parser.feed(markup)
    parser.close()
    assert _our_events(markup) == parser.events
