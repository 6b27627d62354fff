"""reStructuredText documents: embedded URIs, targets, standalone URIs, local links.

Strategy: the constructs that decide what is a link are read with bounded, position-exact
patterns, line by line, following the reST specification as docutils implements it
(docutils itself is not used at run time: it gives no columns, and parsing alone costs
about 0.8 s per MB, see ``benchmarks/README.md``). What is structure, never prose:

* code: literal blocks introduced by a paragraph ending in ``::``, the content of
  ``code-block``, ``code``, ``sourcecode``, ``highlight`` and ``code-cell`` directives,
  ``inline literals``;
* doctest blocks (a paragraph starting with ``>>>``), and comments (``.. text``, any
  explicit markup that is no target, footnote, citation, substitution or directive: a
  reader never sees it);
* interpreted text, with a role, ``:name:`content``` (any role name, Sphinx's ``:file:``,
  ``:pep:``, ``:doc:``, ``:ref:`` ... as well as docutils' ``:code:``), or without one
  (a title reference for docutils, never a link): masked; ``:doc:`` and ``:ref:``
  targets are recorded as local links;
* directive options (``:target:``, ``:alt:``, ``:width:`` lines after a directive): masked;
  a ``:target:`` URL is reported as a link (``rst-target``).

Links: ``\\`text <URI>\\`_`` and ``__`` embedded URIs, found from their closing ``>`_``
backwards (so every search is bounded by ``MAX_TARGET`` characters); explicit targets
``.. _name: URI``, anonymous ``__ URI`` and the ``image``/``figure`` directive arguments,
whose URI may continue on more indented lines up to a blank line, an option line or another
explicit markup line (so a figure's caption or the paragraph after a target is never part
of the URI). As docutils does, whitespace inside a URI is removed (the URI is the
concatenation of its lines), so a URI broken across lines is *not* whitespace in a URL,
and a break after a hyphen is not ambiguous. Targets that are not URLs (``name_``
aliases, relative paths) are ignored. Anchors: section titles (as docutils makes their
ids) and ``.. _label:`` names. Standalone URIs in the text are the core's appendix forms.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from .findings import (
    Extracted,
    ExtractOptions,
    FindingBuilder,
    LineIndex,
    is_relative,
    link_scheme,
    mask,
)
from .slugs import make_id, normalize_label

MAX_TARGET = 2048
"""Longest embedded URI or target looked at, in characters."""

_LITERAL_INTRO = re.compile(r"::[ \t]*\Z")
_CODE_DIRECTIVE = re.compile(
    r"[ \t]*\.\.[ \t]+(?:code-block|code|sourcecode|highlight|code-cell)::", re.IGNORECASE
)
_INLINE_LITERAL = re.compile(rf"``(?=\S)(?:[^`\n]|`(?!`)|\n(?![ \t]*\n)){{1,{MAX_TARGET}}}?``")
# Interpreted text with a role (reST "inline markup recognition rules": the start-string
# follows whitespace or punctuation; a role name is letters, digits and isolated - _ + : .).
# Each pattern starts with its literal character and looks behind it afterwards, so the
# regex engine jumps from one candidate character to the next.
_ROLE = re.compile(
    rf":(?<![\w`\\]:)(?P<name>[A-Za-z0-9](?:[\w+.-]|:(?!`)){{0,63}}):"
    rf"`(?P<content>[^`]{{1,{MAX_TARGET}}})`(?!`)"
)
# Interpreted text without a role (the default role: a title reference in docutils, never
# a link) and the text of a hyperlink reference (`text`_, `text <URI>`__, the label of a
# link): a start-string after whitespace or one of - / ' " < ( [ {, content that starts
# and ends with a non-space and stays in its paragraph, an end-string (then "_" or "__"
# for a reference) followed by whitespace or punctuation.
_INTERPRETED = re.compile(
    r"`(?<![^\s\-/'\"<(\[{]`)(?=[^\s`])"
    rf"(?:[^`\n]|\n(?![ \t]*\n)){{1,{MAX_TARGET}}}?(?<=\S)`(?P<reference>__?)?"
    r"(?=[\s\-.,:;!?/'\")\]}>]|\Z)"
)
# A list item's bullet or enumerator: the item's text (and a literal block it
# introduces) is indented relative to the text after it.
_BULLET = re.compile(r"[ \t]*(?:[-*+\u2022\u2023\u2043]|\(?(?:\d+|[A-Za-z#])[.)])[ \t]+(?=\S)")
# An explicit markup start; what follows decides the construct. Anything but a target, a
# footnote or citation label, a substitution definition or a directive is a comment.
_EXPLICIT_START = re.compile(r"([ \t]*)\.\.(?=[ \t]|\Z)[ \t]*(.*)\Z")
_NOT_COMMENT = re.compile(
    r"_|\[(?:[\w.:+-]+|#[\w.:+-]*|\*)\](?:[ \t]|\Z)|\|[^|]+\|[ \t]|[\w:.+-]+::(?:[ \t]|\Z)"
)
_CODE_ROLES = frozenset({"code", "literal", "samp", "kbd", "command", "program"})
_EMBEDDED_END = re.compile(r">`__?")
_TARGET = re.compile(
    r"^([ \t]*)(?:\.\.[ \t]+_(?P<label>`[^`\n]+`|(?:[^:\\\n]|\\.)+):|__|"
    r"\.\.[ \t]+(?:image|figure)::)(?=[ \t]|$)[ \t]*",
    re.MULTILINE,
)
_INLINE_TARGET = re.compile(r"(?<![\w`\\])_`([^`]+)`")
_DIRECTIVE = re.compile(r"^([ \t]*)\.\.[ \t]+[\w:.+-]+::", re.MULTILINE)
_OPTION = re.compile(r"[ \t]+:(?P<name>[\w-]+):(?:[ \t]+(?P<value>\S[^\n]*))?[ \t]*\Z")
_EXPLICIT = re.compile(r"[ \t]*(?:\.\.[ \t]|__[ \t])")
# A section title's underline: one punctuation character repeated (at least twice).
_UNDERLINE = re.compile(r"([!-/:-@\[-`{-~])\1+[ \t]*\Z")


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
    """Yield the spans of literal blocks, doctest blocks and code directives."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        base = _indent(line)
        if line.lstrip().startswith(">>>") and (i == 0 or not lines[i - 1].strip()):
            end = i + 1  # a doctest block: the paragraph that starts with ">>>"
            while end < len(lines) and lines[end].strip():
                end += 1
            yield index.line_start(i + 1), _end_of_line(index, end)
            i = end
            continue
        directive = _CODE_DIRECTIVE.match(line) is not None
        if directive or (
            _LITERAL_INTRO.search(line) and not line.lstrip().startswith("..") and line.strip()
        ):
            first = i + 1
            bullet = None if directive else _BULLET.match(line)
            if bullet is not None:
                base = len(bullet.group().expandtabs())
            end = _indented_block(lines, first, base)
            if directive:
                # the directive line and its options (:name:, :caption:) are markup, the
                # body after them is code
                body = first
                while body < end and _OPTION.match(lines[body]) and _indent(lines[body]) > base:
                    body += 1
                if end > body:
                    yield index.line_start(body + 1), _end_of_line(index, end)
            elif end > first:
                yield index.line_start(first + 1), _end_of_line(index, end)
            i = max(end, i + 1)
            continue
        i += 1


def _comments(lines: list[str], index: LineIndex) -> Iterator[tuple[int, int]]:
    """Yield the spans of comments (explicit markup that is no other construct).

    A comment is its first line and the lines indented more than it that follow (blank
    lines inside included); an empty ``..`` followed by a blank line is an empty comment.
    """
    i = 0
    while i < len(lines):
        m = _EXPLICIT_START.match(lines[i]) if ".." in lines[i] else None
        if m is None or _NOT_COMMENT.match(m.group(2)):
            i += 1
            continue
        base = len(m.group(1).expandtabs())
        if not m.group(2).strip() and (i + 1 >= len(lines) or not lines[i + 1].strip()):
            end = i + 1
        else:
            end = max(_indented_block(lines, i + 1, base), i + 1)
        yield index.line_start(i + 1), _end_of_line(index, end)
        i = end


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


def _continuation(lines: list[str], first: int, base: int, limit: int) -> int:
    """Index just past the lines from ``first`` that continue an argument at indent ``base``.

    A continuation line is non-blank, indented more than ``base``, and neither a directive
    option (``:width: 50``) nor the start of another explicit markup construct; at most
    ``limit`` characters are looked at.
    """
    i = first
    while i < len(lines) and limit > 0:
        line = lines[i]
        if not line.strip() or _indent(line) <= base:
            break
        if _OPTION.match(line) or _EXPLICIT.match(line):
            break
        limit -= len(line) + 1
        i += 1
    return i


def _targets_kind(text: str, index: LineIndex, lines: list[str]) -> Iterator[tuple[str, int, int]]:
    """Yield (kind, start, end) of each explicit target's URI: ``rst-image`` for an image
    or figure, ``rst-target`` for a named or anonymous target."""
    for m in _TARGET.finditer(text):
        kind = "rst-target" if m.group("label") is not None or "__" in m.group() else "rst-image"
        line_no = index.position(m.start())[0]  # 1-based: also the 0-based next line
        base = len(m.group(1).expandtabs())
        end_line = _continuation(lines, line_no, base, MAX_TARGET)
        start = m.end()
        end = index.line_end(max(end_line, line_no))
        if end - start > MAX_TARGET:
            continue
        content = text[start:end]
        if not content.strip():
            continue
        start += len(content) - len(content.lstrip())
        end = start + len(content.strip())
        yield kind, start, end


def _options(
    text: str, index: LineIndex, lines: list[str]
) -> Iterator[tuple[str, int, int, int, int]]:
    """Yield (name, line start, line end, value start, value end) of each directive option.

    The options of a directive are the lines right after its arguments, each
    ``:name: value``, up to a blank line (docutils' field list in the directive block).
    """
    for m in _DIRECTIVE.finditer(text):
        line_no = index.position(m.start())[0]
        base = len(m.group(1).expandtabs())
        i = _continuation(lines, line_no, base, MAX_TARGET)
        while i < len(lines) and i - line_no < 64:
            option = _OPTION.match(lines[i])
            if option is None or _indent(lines[i]) <= base:
                break
            start = index.line_start(i + 1)
            value_start, value_end = option.span("value")
            if value_start < 0:
                value_start = value_end = len(lines[i])
            yield (
                option.group("name"),
                start,
                start + len(lines[i]),
                start + value_start,
                start + value_end,
            )
            i += 1


_TITLE_MARKUP = re.compile(
    r"``(.+?)``|\*\*(.+?)\*\*|\*(.+?)\*|`([^`<]+?)(?:\s*<[^>]*>)?`_{0,2}|\\(.)"
)


_UNESCAPE = re.compile(r"\\(.)")


def _title_text(title: str) -> str:
    """A section title's text as docutils names it (inline markup and escapes removed)."""
    return _TITLE_MARKUP.sub(lambda m: next(g for g in m.groups() if g is not None), title)


def _named_references(
    builder: FindingBuilder, references: list[tuple[int, str]], names: set[str]
) -> None:
    """Record each `` `Name`_ `` reference whose name the document does not define (a
    section title, an explicit or embedded target: docutils' "Unknown target name") as a
    local link that :mod:`.locallinks` reports."""
    for start, name in references:
        if name and normalize_label(_UNESCAPE.sub(r"\1", name)) not in names:
            builder.add_local(start, " ".join(name.split()), "rst-name")  # one line


def _anchors(lines: list[str], names: set[str] | None = None) -> Iterator[str]:
    """Yield the ids of the section titles (a text line over a punctuation underline);
    their reference names are added to ``names``."""
    for i in range(1, len(lines)):
        if not lines[i][:1] or lines[i][0].isalnum() or lines[i][0].isspace():
            continue
        underline = _UNDERLINE.match(lines[i])
        title = lines[i - 1].strip()
        if underline is None or not title or lines[i - 1][:1].isspace():
            continue
        if _UNDERLINE.match(lines[i - 1]) or len(lines[i].rstrip()) < min(len(title), 4):
            continue
        if names is not None:
            names.add(normalize_label(_title_text(title)))
        anchor = make_id(title)
        if anchor:
            yield anchor


def extract_rst(text: str, path: str, options: ExtractOptions) -> Extracted:
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
    index = builder.index
    lines = text.split("\n")
    code = list(_code_blocks(text, index))
    blocks_masked = mask(text, code)
    literals = [m.span() for m in _INLINE_LITERAL.finditer(blocks_masked)]
    code.extend(literals)
    # Each kind of markup is looked for in the text with the kinds before it masked.
    markup: list[tuple[int, int]] = list(_comments(lines, index))
    step = mask(blocks_masked, literals)
    roles: list[tuple[int, int]] = []
    for m in _ROLE.finditer(step):
        # Code roles are code (scanned with verbatim text included); other roles are markup.
        (code if m.group("name").split(":")[-1] in _CODE_ROLES else markup).append(m.span())
        roles.append(m.span())
        builder.add_role(m.group("name"), m.group("content"), m.start("content"))
    step = mask(step, [*markup, *roles])
    references: list[tuple[int, str]] = []  # `Name`_ (offset of the name, the name)
    for m in _INTERPRETED.finditer(step):
        if m.group("reference") is None:
            markup.append(m.span())
            continue
        if m.group("reference") == "_" and not m.group().rstrip("_").endswith(">`"):
            references.append((m.start() + 1, m.group()[1:].rstrip("_")[:-1]))
        # A reference's label is masked; an embedded <URI> and the opening backtick stay
        # for _embedded.
        label = m.group()
        angle = label.rfind("<") if label.rstrip("_").endswith(">`") else -1
        markup.append((m.start() + 1, m.start() + angle if angle > 0 else m.end()))
    option_names: set[str] = set()  # a directive's :name: option names it
    for name, start, end, value_start, value_end in _options(blocks_masked, index, lines):
        markup.append((start, end))
        if name == "name" and value_end > value_start:
            # Sphinx makes it a label (:ref:) and docutils an id
            option_name = normalize_label(text[value_start:value_end])
            option_names.add(option_name)
            builder.labels.add(option_name)
            builder.anchors.add(make_id(option_name))
        if name == "target" and value_end > value_start:
            target = text[value_start:value_end]
            if link_scheme(target, options.schemes) is not None:
                builder.add_link(value_start, value_end, "rst-target")
    prose = mask(text, [*code, *markup])
    names = option_names  # reference names the document defines (docutils: per document)
    for m in _TARGET.finditer(prose):
        label = m.group("label")
        if label is None:
            continue
        name = normalize_label(label.strip("`"))
        names.add(name)
        if not text[m.end() : index.line_end(index.position(m.end())[0])].strip():
            builder.labels.add(name)
            builder.anchors.add(make_id(name))
    for m in _INLINE_TARGET.finditer(prose):  # _`name` defines a name and an id
        name = normalize_label(m.group(1))
        names.add(name)
        builder.anchors.add(make_id(name))
    titles = list(_anchors(lines, builder.titles))
    names |= builder.titles
    builder.anchors.update(titles)
    spans = (("rst-link", start, end) for start, end in _embedded(prose))
    for kind, start, end in itertools.chain(spans, _targets_kind(prose, index, lines)):
        written = text[start:end]
        target = "".join(written.split())
        if link_scheme(target, options.schemes) is not None:
            origin = "rst-target" if kind == "rst-image" else kind
            builder.add_link(start, end, origin, None if target == written else target)
        elif kind != "rst-target" and is_relative(target) and not target.endswith("_"):
            builder.add_local(start, target, kind)  # a document or an image
        elif kind == "rst-link" and target.endswith("_") and not target.endswith("__"):
            references.append((start, " ".join(written.split())[:-1].strip("`")))
        if kind == "rst-link":  # `name <uri>`_ also defines the name
            label_end = text.rfind("<", 0, start)
            label_start = text.rfind("`", 0, label_end)
            if 0 <= label_start < label_end and text[end : end + 3] == ">`_":
                names.add(normalize_label(text[label_start + 1 : label_end]))
    _named_references(builder, references, names)
    return builder.document(builder.scan(mask(text, markup) if options.include_verbatim else prose))
