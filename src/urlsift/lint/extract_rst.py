"""reStructuredText documents: embedded URIs, hyperlink targets, standalone URIs.

Strategy: reST has no cheap exact parser with columns, so this module reads the few
constructs that matter with bounded, position-exact patterns, line by line:

* code is masked (unless verbatim text is included): literal blocks introduced by a
  paragraph ending in ``::``, the content of ``code-block``, ``code``, ``sourcecode`` and
  ``highlight`` directives, ``inline literals`` and the ``:code:``/``:literal:``/``:samp:``
  roles;
* ``\\`text <URI>\\`_`` and ``__`` embedded URIs, found from their closing ``>`_`` backwards
  (so every search is bounded by ``MAX_TARGET`` characters);
* explicit targets ``.. _name: URI``, anonymous ``__ URI`` and the ``image``/``figure``
  directive arguments, whose URI may continue on indented lines.

As docutils does, whitespace inside an embedded URI or a target URI is removed (the URI is
the concatenation of its lines), so a URI broken across lines here is *not* reported as
whitespace in a URL, and a break after a hyphen is not ambiguous: docutils keeps the
hyphen. Targets that are not URLs (``name_`` aliases, relative paths) are ignored.
Standalone URIs in the text are the core's appendix forms.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from .extract import ExtractOptions, FindingBuilder, LineIndex, link_scheme, mask
from .model import Finding

MAX_TARGET = 2048
"""Longest embedded URI or target looked at, in characters."""

_LITERAL_INTRO = re.compile(r"::[ \t]*\Z")
_CODE_DIRECTIVE = re.compile(
    r"[ \t]*\.\.[ \t]+(?:code-block|code|sourcecode|highlight|code-cell)::", re.IGNORECASE
)
_INLINE_LITERAL = re.compile(rf"``(?=\S)(?:[^`\n]|`(?!`)|\n(?![ \t]*\n)){{1,{MAX_TARGET}}}?``")
_CODE_ROLE = re.compile(rf":(?:code|literal|samp)(?::[\w-]+)?:`[^`]{{0,{MAX_TARGET}}}`")
_EMBEDDED_END = re.compile(r">`__?")
_TARGET = re.compile(
    r"^([ \t]*)(?:\.\.[ \t]+_(?:`[^`\n]+`|(?:[^:\\\n]|\\.)+):|__|"
    r"\.\.[ \t]+(?:image|figure)::)(?=[ \t]|$)[ \t]*",
    re.MULTILINE,
)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _indented_block(lines: list[str], first: int, base: int) -> int:
    """Index just past the block of lines after ``first`` indented more than ``base``.

    Blank lines inside the block belong to it; trailing blank lines do not.
    """
    end = first
    i = first
    while i < len(lines):
        line = lines[i]
        if line.strip():
            if _indent(line) <= base:
                break
            end = i + 1
        i += 1
    return end


def _code_blocks(text: str, index: LineIndex) -> Iterator[tuple[int, int]]:
    """Yield the spans of literal blocks and code directives."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        base = _indent(line)
        directive = _CODE_DIRECTIVE.match(line) is not None
        if directive or (
            _LITERAL_INTRO.search(line) and not line.lstrip().startswith("..") and line.strip()
        ):
            first = i + 1
            end = _indented_block(lines, first, base)
            if directive:
                yield index.line_start(i + 1), _end_of_line(index, max(end, i + 1))
            elif end > first:
                yield index.line_start(first + 1), _end_of_line(index, end)
            i = max(end, i + 1)
            continue
        i += 1


def _end_of_line(index: LineIndex, line: int) -> int:
    # Offset just past 1-based `line` (its line break included when it has one).
    return min(index.line_end(line) + 1, len(index.text))


def _embedded(text: str) -> Iterator[tuple[int, int]]:
    """Yield the (start, end) of each embedded URI of a `text <URI>`_ reference."""
    for m in _EMBEDDED_END.finditer(text):
        end = m.start()
        floor = max(0, end - MAX_TARGET)
        # Each search stops at the nearest '>' back, then at the nearest '<' after it, so
        # the stretches looked at by successive ends do not overlap.
        floor = max(floor, text.rfind(">", floor, end) + 1)
        open_angle = text.rfind("<", floor, end)
        if open_angle < 0 or text.rfind("`", max(0, end - MAX_TARGET), open_angle) < 0:
            continue
        start = open_angle + 1
        content = text[start:end]
        if not content.strip() or "\n\n" in content:
            continue
        start += len(content) - len(content.lstrip())
        end = start + len(content.strip())
        yield start, end


def _block_ends(lines: list[str], queries: list[tuple[int, int]]) -> list[int]:
    """``_indented_block(lines, first, base)`` for each ``(first, base)``, in linear time.

    Calling ``_indented_block`` once per target rescans the same lines for nested targets
    (time ``lines x targets``). Here the lines are swept once from the bottom up, keeping
    the non-blank lines that could still stop a block (nearest on top, each one less
    indented than the one above it); a query finds its stopping line by bisection.
    """
    indents = [_indent(line) if line.strip() else -1 for line in lines]
    last_end = [0] * (len(lines) + 1)  # last_end[i]: 1 + last non-blank index below i
    for i, indent in enumerate(indents):
        last_end[i + 1] = i + 1 if indent >= 0 else last_end[i]
    answers = [0] * len(queries)
    stack_indents: list[int] = []  # increasing from bottom to top
    stack_lines: list[int] = []
    i = len(lines)
    for q in sorted(range(len(queries)), key=lambda q: queries[q][0], reverse=True):
        first, base = queries[q]
        while i > first:
            i -= 1
            if indents[i] < 0:
                continue
            while stack_indents and stack_indents[-1] >= indents[i]:
                stack_indents.pop()
                stack_lines.pop()
            stack_indents.append(indents[i])
            stack_lines.append(i)
        k = bisect.bisect_right(stack_indents, base) - 1
        stop = stack_lines[k] if k >= 0 else len(lines)
        answers[q] = max(first, last_end[stop])
    return answers


def _targets(text: str, index: LineIndex) -> Iterator[tuple[int, int]]:
    """Yield the (start, end) of each explicit target's URI (possibly over several lines)."""
    matches = list(_TARGET.finditer(text))
    line_numbers = [index.position(m.start())[0] for m in matches]
    queries = [
        (line_no, len(m.group(1).expandtabs()))
        for m, line_no in zip(matches, line_numbers, strict=True)
    ]
    block_ends = _block_ends(text.split("\n"), queries)
    for m, line_no, end_line in zip(matches, line_numbers, block_ends, strict=True):
        start = m.end()
        end = index.line_end(max(end_line, line_no))
        if end - start > MAX_TARGET:
            continue
        content = text[start:end]
        if not content.strip():
            continue
        start += len(content) - len(content.lstrip())
        end = start + len(content.strip())
        yield start, end


def extract_rst(text: str, path: str, options: ExtractOptions) -> list[Finding]:
    """Find the URLs of a reStructuredText document.

    Args:
        text: the decoded document.
        path: the path reported in each finding.
        options: what to look at.

    Returns:
        The findings in source order: ``rst-link`` (embedded URIs), ``rst-target``
        (explicit targets, image and figure URIs) and the appendix forms in the text.
    """
    builder = FindingBuilder(text, path, options)
    index = LineIndex(text)
    code = list(_code_blocks(text, index))
    blocks_masked = mask(text, code)
    code.extend(m.span() for m in _INLINE_LITERAL.finditer(blocks_masked))
    code.extend(m.span() for m in _CODE_ROLE.finditer(blocks_masked))
    prose = mask(text, code)
    for finder, origin in (
        (_embedded(prose), "rst-link"),
        (_targets(prose, index), "rst-target"),
    ):
        for start, end in finder:
            written = text[start:end]
            target = "".join(written.split())
            if link_scheme(target, options.schemes) is not None:
                builder.add_link(start, end, origin, None if target == written else target)
    return builder.scan(text if options.include_verbatim else prose)
