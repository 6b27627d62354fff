"""Markdown documents (CommonMark): inline links, images, autolinks, reference definitions.

Strategy: ``markdown-it-py`` (``MarkdownIt("commonmark")``, its inline rules off) parses
the block structure; each block token's ``map`` gives its line range, which is all we take
from it: the lines of fenced and indented code blocks (masked unless verbatim text is
included) and of HTML blocks (handed to
:func:`~urlsift.lint.extract_html.scan_html_region`). markdown-it does not
give inline columns, so inline code spans, link destinations, autolinks and link reference
definitions are found by small position-exact scanners on the remaining text, each bounded
(``MAX_DESTINATION`` characters, never past a blank line). The work is linear in the text:
every ``](`` is closed in one shared pass, and a title is read from its end, so no
character is read once per link that could contain it.

Deliberately more tolerant than CommonMark, because a linter must see broken links: a
destination that holds whitespace (``[x](http://a b)``, ``<http://a b>``, a reference
definition followed by words) is not a link for CommonMark, and is reported as one with
whitespace in it (``URL004``). Destinations without a scheme (relative links, ``#anchors``)
are not URLs and are ignored. Backslash escapes and entities in destinations are decoded,
as CommonMark does.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Iterator

from markdown_it import MarkdownIt

from ..grammar.context import scheme_name
from .extract_html import scan_html_region
from .findings import (
    Extracted,
    ExtractOptions,
    FindingBuilder,
    LineIndex,
    is_relative,
    link_scheme,
    mask,
)
from .slugs import heading_anchors, make_id, normalize_label

MAX_DESTINATION = 2048
"""Longest link destination looked at, in characters (longer ones are left to the core)."""

_CODE_TOKENS = frozenset({"code_block", "fence"})
_BACKTICKS = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t]*(?=\n)")
_LINK_OPEN = re.compile(r"\]\(")
# A link title after a destination, as the pattern \s+(?:"[^"]*"|'[^']*'|\([^()]*\))\s*\Z
# would find it in the content: read from the end by `_content`, closing -> opening mark.
_TITLE_OPENERS = {'"': '"', "'": "'", ")": "("}
# <scheme:...> (CommonMark autolink), tolerating whitespace inside for URL004. CommonMark
# 0.31 §6.5 takes a scheme of 2 to 32 characters there, so the bounds are its own.
_AUTOLINK = re.compile(rf"<({scheme_name(32, 2)}:[^<>]{{0,{MAX_DESTINATION}}})>")
# [label]: destination (a link reference definition), after up to 3 spaces and any
# blockquote markers; the destination may start on the next line. "[^label]:" is a
# footnote (GFM, Python-Markdown, kramdown, Goldmark, mdBook), whose text is no target.
_REFERENCE = re.compile(
    r"^(?:[ ]{0,3}>)*[ ]{0,3}\[(?!\^)(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*\n?[ \t]*(\S[^\n]*)",
    re.MULTILINE,
)
# MyST: a role {name} right before a code span, and a target line "(label)=".
_MYST_ROLE = re.compile(r"\{([A-Za-z][\w:+.-]{0,63})\}\Z")
_MYST_TARGET = re.compile(r"^\(([^()\n]{1,200})\)=[ \t]*$", re.MULTILINE)
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def _code_spans(text: str) -> Iterator[tuple[int, int]]:
    """Yield the spans of inline code (CommonMark §6.1), never across a blank line.

    A backslash escapes the first backtick of an opening run only: inside a code span
    backslashes are literal, so a closing run is never escaped.
    """
    runs = [m.span() for m in _BACKTICKS.finditer(text)]
    by_length: dict[int, list[int]] = {}
    for i, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(i)
    blanks = [m.start() for m in _BLANK_LINE.finditer(text)]
    i = 0
    while i < len(runs):
        start, end = runs[i]
        before = text[max(0, start - 64) : start]
        if (len(before) - len(before.rstrip("\\"))) % 2:
            start += 1  # an escaped backtick is literal; the rest of the run may open
        same = by_length.get(end - start, [])
        k = bisect.bisect_right(same, i)
        if end > start and k < len(same):
            j = same[k]
            close_start, close_end = runs[j]
            b = bisect.bisect_left(blanks, end)
            if b == len(blanks) or blanks[b] >= close_start:
                yield start, close_end
                i = j + 1
                continue
        i += 1


def _decode(destination: str) -> str:
    return html.unescape(_ESCAPED.sub(r"\1", destination))


# Inside a destination, a backslash escapes the next character; an unescaped parenthesis
# counts; an unescaped line break followed by another ends the search (a blank line).
_DESTINATION_EVENT = re.compile(r"\\.|[()]|\n(?=\n)", re.DOTALL)


def _destination_closes(text: str, opens: list[int]) -> dict[int, int]:
    """Map each destination start in ``opens`` (sorted) to the ``)`` that closes it.

    A start is closed by the first unescaped ``)`` after it that takes the parenthesis depth
    below the depth at the start, if that ``)`` comes within ``MAX_DESTINATION`` characters
    and before any blank line; starts without one are left out. One pass over the text:
    the open starts wait on a stack, one per depth (a start at a depth is closed, or
    abandoned at a blank line, before a later start can be at the same depth), so every
    character and every start is looked at a bounded number of times.
    """
    closes: dict[int, int] = {}
    waiting: list[tuple[int, int]] = []  # (depth at the start, start), depth increasing
    depth = 0
    k = 0  # next start in `opens`
    for m in _DESTINATION_EVENT.finditer(text, opens[0] if opens else len(text)):
        at = m.start()
        while k < len(opens) and opens[k] <= at:
            waiting.append((depth, opens[k]))
            k += 1
        c = text[at]
        if c == "(":
            depth += 1
        elif c == ")":
            while waiting and waiting[-1][0] == depth:
                start = waiting.pop()[1]
                if at < start + MAX_DESTINATION:
                    closes[start] = at
            depth -= 1
        elif c == "\n":
            waiting.clear()  # a blank line: no open destination closes after it
        if k == len(opens) and not waiting:
            break
    return closes


def _content(text: str, start: int, end: int) -> tuple[int, int]:
    """The destination in ``text[start:end]``: its title and outer whitespace removed.

    A title is whitespace, then ``"..."``, ``'...'`` or ``(...)`` (no parenthesis inside),
    then only whitespace. It is read from the end: the title's opening character is
    the nearest one before its closing character, so only the title and the whitespace
    around it are looked at, never the whole content.
    """
    while end > start and text[end - 1].isspace():
        end -= 1
    if end - start >= 2:
        closer = text[end - 1]
        opener = _TITLE_OPENERS.get(closer)
        if opener is not None:
            at = text.rfind(opener, start, end - 1)
            stray = closer == ")" and at >= 0 and text.find(")", at + 1, end - 1) >= 0
            if at > start and not stray and text[at - 1].isspace():
                end = at - 1
                while end > start and text[end - 1].isspace():
                    end -= 1
    while start < end and text[start].isspace():
        start += 1
    return start, end


def _inline_links(text: str) -> Iterator[tuple[int, int]]:
    """Yield the (start, end) of each inline link or image destination."""
    opens = [m.end() for m in _LINK_OPEN.finditer(text)]
    closes = _destination_closes(text, opens)
    for pos in opens:
        close = closes.get(pos)
        if close is None:
            continue
        start, end = _content(text, pos, close)
        if text.startswith("<", start) and text[end - 1 : end] == ">" and end - start > 1:
            start, end = start + 1, end - 1
        if end > start:
            yield start, end


def _references(text: str) -> Iterator[tuple[int, int]]:
    """Yield the (start, end) of each link reference definition's destination."""
    for m in _REFERENCE.finditer(text):
        start, end = _content(text, *m.span(1))
        if text.startswith("<", start) and text[end - 1 : end] == ">" and end - start > 2:
            start, end = start + 1, end - 1
        if end > start:
            yield start, end


def _autolinks(text: str) -> Iterator[tuple[int, int]]:
    """Yield the (start, end) of each ``<scheme:...>`` autolink's URL (not ``<URL:...>``)."""
    for m in _AUTOLINK.finditer(text):
        start, end = m.span(1)
        if text[start : start + 4].lower() == "url:" or _BLANK_LINE.search(text, start, end):
            continue
        yield start, end


def extract_markdown(text: str, path: str, options: ExtractOptions) -> Extracted:
    """Find the URLs of a Markdown document.

    Args:
        text: the decoded document.
        path: the path reported in each finding.
        options: what to look at.

    Returns:
        The findings in source order: document links (``markdown-link``,
        ``markdown-autolink``, ``markdown-reference``, ``html-attribute`` in HTML blocks)
        and the appendix forms in the prose.
    """
    builder = FindingBuilder(text, path, options)
    index = LineIndex(text)
    code: list[tuple[int, int]] = []
    html_blocks: list[tuple[int, int]] = []
    # Only the block structure is used: markdown-it's inline rules are not run (``]("`` * n
    # costs them time quadratic in n).
    heading = False
    seen: dict[str, int] = {}
    for token in MarkdownIt("commonmark").disable("inline").parse(text):
        if token.map is None:
            continue
        first, last = token.map
        span = (index.line_start(first + 1), _region_end(index, last))
        if token.type in _CODE_TOKENS:
            code.append(span)
        elif token.type == "html_block":
            html_blocks.append(span)
        elif token.type == "inline" and heading:
            builder.anchors.update(heading_anchors(token.content, seen))
        heading = token.type == "heading_open"
    spans = list(_code_spans(mask(text, [*code, *html_blocks])))
    _myst(builder, mask(text, [*code, *html_blocks]), spans)
    code.extend(spans)
    # Links are never looked for in code; the core scans code only with verbatim text.
    hidden = [] if options.include_verbatim else list(code)
    for start, end in html_blocks:
        hidden.extend(scan_html_region(builder, start, end))
    prose = mask(text, [*code, *html_blocks])
    for finder, origin in (
        (_inline_links, "markdown-link"),
        (_references, "markdown-reference"),
        (_autolinks, "markdown-autolink"),
    ):
        for start, end in finder(prose):
            written = text[start:end]
            target = _decode(written)
            if link_scheme(target, options.schemes) is not None:
                builder.add_link(start, end, origin, None if target == written else target)
            elif origin != "markdown-autolink" and is_relative(target):
                builder.add_local(start, target, origin)
    return builder.document(builder.scan(mask(text, hidden)))


def _myst(builder: FindingBuilder, text: str, spans: list[tuple[int, int]]) -> None:
    """Record MyST roles ``{doc}`x``` and ``{ref}`x``` (a code span right after ``{name}``)
    as local links, and MyST targets ``(label)=`` as labels."""
    for start, end in spans:
        role = _MYST_ROLE.search(text, max(0, start - 64), start)
        if role is not None:
            opening = len(text[start:end]) - len(text[start:end].lstrip("`"))
            builder.add_role(role.group(1), text[start + opening : end - opening], start + opening)
    for m in _MYST_TARGET.finditer(text):
        label = normalize_label(m.group(1))
        builder.labels.add(label)
        builder.anchors.add(make_id(label))


def _region_end(index: LineIndex, last_line: int) -> int:
    # `last_line` is markdown-it's exclusive 0-based end line: the region ends with the
    # line break of 0-based line last_line - 1.
    if last_line < index.line_count:
        return index.line_start(last_line + 1)
    return len(index.text)
