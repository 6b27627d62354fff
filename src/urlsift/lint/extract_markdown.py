"""Markdown documents (CommonMark): inline links, images, autolinks, reference definitions.

Strategy: ``markdown-it-py`` (``MarkdownIt("commonmark")``, its inline rules off) parses
the block structure, in stretches of about :data:`WINDOW` characters whose tokens are those
of one parse of the whole text (:func:`block_tokens`: memory bounded by a stretch, not by
the document); each block token's ``map`` gives its line range, which is all we take
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

Stretches (:func:`block_tokens`). What lint takes from markdown-it is its leaf blocks
(code, HTML blocks, headings: type, ``map``, fence info, heading text), so only those are
yielded; containers (blockquotes, lists, items) are left out, which lets a stretch end
inside one. A stretch is cut after a line break; the tokens before the line it is chosen
to end at are yielded, the next stretch starts at that line, parsed after one *opening
line* (none, or a synthetic one, whose own tokens are dropped or merged). markdown-it's
block rules only look forward, and every container and leaf rule decides whether line n
belongs to it from line n itself and a few values set by the lines before it, so a parse
from line n goes on as the whole parse does once it is in the same state there. The lines
a stretch may end at, each with why that state is the same (markdown-it-py's block rules,
read for version 4):

* the end of a top-level block another one follows (the top-level loop keeps nothing
  but the line number);
* the start of a child of a blockquote: a block starts only on a ``>`` line (a lazy line
  has indent -1, below every block indent, so no block starts on it), and the blockquote
  rule treats a ``>`` line the same first or later (its stripping uses the line alone; only
  a non-``>`` line reads the state of the lines before, ``lastLineEmpty``);
* the start of an item of a list: the list rule runs each item with the same code, given
  the list's kind and marker, which the line opens again (the rules tried before the list
  rule, code, fence, blockquote, rule, are the list's own terminators);
* the start of a child of a list item (or of a blockquote or an item of a list inside a
  list item, which its own line cannot open again), after a synthetic line opening the
  same containers (for an item, those of its list) with each item's marker at a column
  that gives the same content column (noted by :func:`_parser`: only the columns decide
  what belongs to an item) and a one-line heading, after which the innermost loop is at a
  block start as in the whole parse (nothing but ``tight``, unused here, remembers
  whether the line before was blank);
* a line inside a leaf block (paragraph, setext heading, indented code, fence, HTML block)
  held by containers: every such rule goes on line by line, judging each line alone,
  given its opening line (a fence's marker, info and column; an HTML block's kind), so the
  next stretch starts with a synthetic line opening the same containers and a leaf of
  the same kind (for a paragraph the line ``x``, after which the line in question is a
  continuation line as before: a lazy one for the blockquotes, whose ``lastLineEmpty`` is
  false after a lazy line, as after ``x``). The leaf's tokens are then merged: its first
  line and the content of its lines before the cut come from the earlier stretch. A setext
  heading's underline is never chosen (it would be a paragraph's first line).

Every chosen line is checked by parsing its opening line alone: it must open the same
containers (kind, marker, columns) and leaf. The equivalence with one parse of the whole
text is tested on every Markdown file of the nine doc trees and on generated hostile
Markdown made of these constructs (``tests/test_lint_memory.py``).
"""

from __future__ import annotations

import bisect
import html
import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

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
from .sites import (
    COMMENT_INCLUDE,
    TEMPLATE_PLACEHOLDER,
    include_targets,
    markdown_template_reason,
    opaque_reason,
)
from .slugs import SLUG_STYLES, heading_anchors, heading_text, make_id, normalize_label

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
_BRACKETED = re.compile(r"\[((?:[^\[\]\\\n]|\\.){1,999})\]")
# MyST: a role {name} right before a code span, and a target line "(label)=".
_MYST_ROLE = re.compile(r"\{([A-Za-z][\w:+.-]{0,63})\}\Z")
_MYST_TARGET = re.compile(r"^\(([^()\n]{1,200})\)=[ \t]*$", re.MULTILINE)
# A MyST directive, ```{name} or :::{name} (a colon fence is text to CommonMark), and the
# ":key: value" option lines that open its body: ":label:" (mystmd) and ":name:" (MyST-Parser)
# name the element (an id, and a label references find).
_MYST_COLON_DIRECTIVE = re.compile(
    r"^[ \t]{0,3}:{3,}[ \t]*\{[A-Za-z][\w:.-]{0,63}\}[^\n]*\n"
    r"((?:[ \t]*:[\w-]{1,64}:[^\n]*\n){1,64})",
    re.MULTILINE,
)
_MYST_OPTIONS = re.compile(r"\A(?:[ \t]*:[\w-]{1,64}:[^\n]*(?:\n|\Z)){1,64}")
_MYST_NAME = re.compile(r"^[ \t]*:(?:label|name):[ \t]*(\S[^\n]{0,199}?)[ \t]*$", re.MULTILINE)
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
# Anchors generators make besides heading slugs. Raw HTML inside a paragraph: any
# element's id, an <a name>.
_INLINE_ID = re.compile(
    r"<[A-Za-z][\w-]{0,30}\s[^<>]{0,1000}?(?<=[\s\"'])(?:id|name)[ \t]*=[ \t]*"
    r"(?:\"([^\"<>]{1,200})\"|'([^'<>]{1,200})'|([^\s\"'=<>`]{1,200}))",
    re.IGNORECASE,
)
# Raw HTML inside a paragraph: a tag's src or href (an image, a stylesheet, a link).
_INLINE_TAG = re.compile(r"<[A-Za-z][\w-]{0,30}(?=[\s/>])[^<>]{0,2000}>")
_ATTRIBUTE_VALUE = r"(?:\"([^\"<>]{1,2048})\"|'([^'<>]{1,2048})'|([^\s\"'=<>`]{1,2048}))"
_INLINE_URL = re.compile(rf"(?<=[\s\"'])(?:src|href)[ \t]*=[ \t]*{_ATTRIBUTE_VALUE}", re.IGNORECASE)
# An attribute list (Python-Markdown attr_list, kramdown IAL, Goldmark and Pandoc
# attributes): {#id}, {: #id .cls}, { id="x" }, after a heading, a paragraph, a span, a fence.
_ESCAPE = r"\\[!-/:-@\[-`{-~]"  # a Markdown backslash escape of ASCII punctuation
_ATTRIBUTE = (
    rf"(?:[#.](?:[\w:.-]|{_ESCAPE}){{1,200}}"
    r"|[\w-]{1,64}=(?:\"[^\"\n]{0,200}\"|'[^'\n]{0,200}'|[^\s{}]{1,200}))"
)
_ATTRIBUTE_LIST = re.compile(
    rf"(?<!\{{)\{{:?[ \t]*({_ATTRIBUTE}(?:[ \t]+{_ATTRIBUTE}){{0,20}})[ \t]*\}}(?!\}})"
)
_ATTRIBUTE_ID = re.compile(
    rf"(?:^|\s)(?:#((?:[\w:.-]|{_ESCAPE})+)" r"|id=(?:\"([^\"]*)\"|'([^']*)'|(\S+)))"
)
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
# Footnotes: a definition [^label]: and references [^label].
_FOOTNOTE = re.compile(r"\[\^([^\]\s]{1,200})\](:?)")
_FOOTNOTE_IDS = (
    "fn:{}",
    "fnref:{}",
    "fn-{}",
    "fnref-{}",
    "user-content-fn-{}",
    "user-content-fnref-{}",
)
# A definition list's term: a line followed (after at most one blank line) by ": text".
_TERM = re.compile(r"^([^\s:>|][^\n]{0,300})\n(?:[ \t]*\n)?[ \t]{0,3}:[ \t]+\S", re.MULTILINE)


def _code_spans(text: str) -> Iterator[tuple[int, int]]:
    """Yield the spans of inline code (CommonMark §6.1), never across a blank line.

    A backslash escapes the first backtick of an opening run only: inside a code span
    backslashes are literal, so a closing run is never escaped.
    """
    runs = [m.span() for m in _BACKTICKS.finditer(text)]
    by_length: dict[int, list[int]] = {}
    for i, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(i)
    blank = -1  # the first blank line at or after `end` (len(text): none), found lazily
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
            if blank < end:  # `end` only grows: the search never reads a character twice
                found = _BLANK_LINE.search(text, end)
                blank = len(text) if found is None else found.start()
            if blank >= close_start:
                yield start, close_end
                i = j + 1
                continue
        i += 1


def _decode(destination: str) -> str:
    return html.unescape(_ESCAPED.sub(r"\1", destination))


# Inside a destination, a backslash escapes the next character; an unescaped parenthesis
# counts; an unescaped line break followed by another ends the search (a blank line).
_DESTINATION_EVENT = re.compile(r"\\.|[()]|\n(?=\n)", re.DOTALL)


def _destination_closes(text: str, opens: array[int]) -> array[int]:
    """For each destination start in ``opens`` (sorted), the ``)`` that closes it, or -1.

    A start is closed by the first unescaped ``)`` after it that takes the parenthesis depth
    below the depth at the start, if that ``)`` comes within ``MAX_DESTINATION`` characters
    and before any blank line. One pass over the text: the open starts wait on a stack, one
    per depth (a start at a depth is closed, or abandoned at a blank line, before a later
    start can be at the same depth), so every character and every start is looked at a
    bounded number of times.
    """
    closes = array("q", [-1]) * len(opens)
    waiting: list[tuple[int, int]] = []  # (depth at the start, its index), depth increasing
    depth = 0
    k = 0  # next start in `opens`
    for m in _DESTINATION_EVENT.finditer(text, opens[0] if opens else len(text)):
        at = m.start()
        while k < len(opens) and opens[k] <= at:
            waiting.append((depth, k))
            k += 1
        c = text[at]
        if c == "(":
            depth += 1
        elif c == ")":
            while waiting and waiting[-1][0] == depth:
                i = waiting.pop()[1]
                if at < opens[i] + MAX_DESTINATION:
                    closes[i] = at
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
    opens = array("q", (m.end() for m in _LINK_OPEN.finditer(text)))
    closes = _destination_closes(text, opens)
    for pos, close in zip(opens, closes, strict=True):
        if close < 0:
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


def _unrendered_references(text: str) -> set[int]:
    """Offsets of the reference definitions a reader never sees as a link: no text uses
    their label, their label is defined twice (generators keep different ones), or they
    are footnotes (``[^1]:``). Offsets are those of the definition's destination line."""
    definitions: dict[str, list[int]] = {}
    for m in _REFERENCE.finditer(text):
        head = text[m.start() : m.start(1)]  # [label]: and the space before the destination
        label = head[head.index("[") + 1 : head.rindex("]:")]
        definitions.setdefault(_label_key(label), []).append(m.start(1))
    if not definitions:
        return set()
    used: dict[str, int] = {}
    for m in _BRACKETED.finditer(text):
        key = _label_key(m.group(1))
        if key in definitions:
            used[key] = used.get(key, 0) + 1
    unrendered: set[int] = set()
    for key, starts in definitions.items():
        if key.startswith("^") or len(starts) > 1 or used.get(key, 0) <= len(starts):
            unrendered.update(starts)
    return unrendered


def _label_key(label: str) -> str:
    return " ".join(label.split()).casefold()


def _autolinks(text: str) -> Iterator[tuple[int, int]]:
    """Yield the (start, end) of each ``<scheme:...>`` autolink's URL (not ``<URL:...>``)."""
    for m in _AUTOLINK.finditer(text):
        start, end = m.span(1)
        if text[start : start + 4].lower() == "url:" or _BLANK_LINE.search(text, start, end):
            continue
        yield start, end


WINDOW = 8192
"""Characters of the document markdown-it parses at once (see :func:`block_tokens`)."""

# markdown-it's own normalisation (rules_core.normalize): its line numbers count these.
_NEWLINES = re.compile(r"\r\n?")
_CONTAINERS = frozenset(
    f"{kind}_{side}"
    for kind in ("blockquote", "bullet_list", "ordered_list", "list_item")
    for side in ("open", "close")
)
# Leaf blocks a stretch may end inside: each goes on line by line, judging every line by
# itself, after an opening line parsed first, inside the same containers: a synthetic one
# (paragraphs, setext headings, indented code), or one like their own (fences, HTML blocks).
_SYNTHETIC_OPENINGS = {"paragraph_open": "x\n", "heading_open": "x\n", "code_block": "    x\n"}
_OWN_OPENINGS = frozenset({"fence", "html_block"})
_CLOSED_BLOCK = "# x\n"  # a one-line block, after which the next line starts a block
Chain = list[tuple[str, str, str, object]]
"""Containers from the top: opening token type, markup, info and, for a list item, the
columns (of its list, of its content) markdown-it gave it (see :func:`_parser`)."""


@dataclass
class _Carry:
    """Where the next stretch starts: after a line opening its containers (and a leaf)."""

    start: int  # in the whole text, the first line of the leaf parsed on (or -1: none)
    prefix: str  # the line parsed before the next stretch
    parts: list[str]  # the leaf's content for its lines before the next stretch


def _parser() -> MarkdownIt:
    """markdown-it's CommonMark block parser, noting on each list item the columns of its
    list and of its content (``meta["indents"]``): what a line opening the same item needs.
    """
    parser = MarkdownIt("commonmark").disable("inline")
    tokenize = parser.block.tokenize

    def noting(state: StateBlock, start: int, end: int) -> None:
        if state.parentType == "list" and state.tokens[-1].type == "list_item_open":
            state.tokens[-1].meta = {"indents": (state.listIndent, state.blkIndent)}
        tokenize(state, start, end)

    parser.block.tokenize = noting  # type: ignore[method-assign,assignment]
    rule = next(r for r in parser.block.ruler.__rules__ if r.name == "fence")
    fence = rule.fn

    def fence_noting(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        at = len(state.tokens)
        if not fence(state, start, end, silent):
            return False
        if not silent:  # the column of the opening fence: its content loses as many
            state.tokens[at].meta = {"indent": state.sCount[start]}
        return True

    parser.block.ruler.at("fence", fence_noting, {"alt": list(rule.alt)})
    return parser


def _groups(tokens: list[Token]) -> Iterator[list[Token]]:
    """The leaf blocks of ``tokens``: an opening token, its content and its closing token,
    or one token. Containers (blockquotes, lists, items) are left out."""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type in _CONTAINERS:
            i += 1
            continue
        j = i
        if token.nesting == 1:
            while tokens[j].nesting != -1 or tokens[j].level != token.level:
                j += 1
        yield tokens[i : j + 1]
        i = j + 1


def _content_token(group: list[Token]) -> Token:
    return group[1] if len(group) == 3 else group[0]


def _head(content: str, lines: int) -> str:
    """The first ``lines`` lines of ``content``, their line breaks included."""
    at = -1
    for _ in range(lines):
        at = content.index("\n", at + 1)
    return content[: at + 1]


def _entry(token: Token) -> tuple[str, str, str, object]:
    return (token.type, token.markup, token.info, token.meta.get("indents"))


def _chain(tokens: list[Token]) -> Chain:
    """The containers a parse opens before anything else."""
    chain: Chain = []
    for token in tokens:
        if token.nesting != 1 or token.type not in _CONTAINERS:
            break
        chain.append(_entry(token))
    return chain


def _opening(chain: Chain, leaf: str | Token) -> str:
    """A line opening the containers of ``chain`` (markers at the columns they had), then
    ``leaf`` (or a line opening the same block as the fence or HTML block ``leaf``)."""
    line: list[str] = []
    column = 0  # in the innermost blockquote's content
    for kind, markup, info, indents in chain:
        if kind == "blockquote_open":
            line.append("> ")
            column = 0
        elif kind == "list_item_open":
            assert isinstance(indents, tuple)
            outer, inner = indents  # content columns of the list's container, of the item
            marker = info + markup
            at = max(outer, inner - len(marker) - 4)  # 0-3 columns in, 1-4 spaces after
            line.append(" " * (at - column) + marker + " " * (inner - at - len(marker)))
            column = inner
    if isinstance(leaf, str):
        return "".join(line) + leaf
    if leaf.type == "html_block":  # its first line, the container's indent taken out
        return "".join(line) + leaf.content[: leaf.content.index("\n") + 1]
    indent = int(leaf.meta["indent"]) - column  # a fence: as far in, its marker and info
    return "".join(line) + " " * indent + leaf.markup + leaf.info + "\n"


def _candidates(tokens: list[Token], lines: int) -> Iterator[tuple[int, Chain, int | None, str]]:
    """Lines a stretch may end before, latest first: (its line, the containers a parse
    from there opens first, the index of the leaf block it is inside or None, the line
    parsed before it: "" for its own line).

    Along the stretch's last top-level block and each container's last child: the start
    of each child of a container (inside a list item, after a synthetic opening line), the
    lines of the last leaf block, and the end of the top-level block before the last one.
    """
    top = [i for i, t in enumerate(tokens) if t.level == 0 and t.nesting >= 0 and t.map]
    found: list[tuple[int, Chain, int | None, str]] = []
    if len(top) >= 2:
        found.append((tokens[top[-2]].map[1], [], None, ""))  # type: ignore[index]
    chain: Chain = []
    node = top[-1] if top else None
    while node is not None:
        token = tokens[node]
        if token.type not in _CONTAINERS:
            first, end = token.map  # type: ignore[misc]
            if token.type in _SYNTHETIC_OPENINGS:
                opening = _opening(chain, _SYNTHETIC_OPENINGS[token.type])
            elif token.type in _OWN_OPENINGS:
                opening = _opening(chain, token)
            else:
                break
            if token.type == "heading_open":
                end -= 1  # a setext heading's underline is no paragraph line
            yield from ((at, chain, node, opening) for at in range(min(end, lines) - 1, first, -1))
            break
        chain = [*chain, _entry(token)]
        if token.type == "list_item_open" and not isinstance(token.meta.get("indents"), tuple):
            break  # an empty item
        close = node + 1
        while tokens[close].nesting != -1 or tokens[close].level != token.level:
            close += 1
        children = [
            i
            for i in range(node + 1, close)
            if tokens[i].level == token.level + 1 and tokens[i].nesting >= 0 and tokens[i].map
        ]
        # A child of a blockquote or an item of a list starts on a line opening them again;
        # inside a list item, after a synthetic line opening the containers (the item's
        # list's, for an item) and a one-line block.
        opened = chain[:-1] if token.type.endswith("_list_open") else chain
        opening = ""
        if any(entry[0] == "list_item_open" for entry in opened):
            opening = _opening(opened, _CLOSED_BLOCK)
        expected = opened if opening else chain
        found.extend((tokens[i].map[0], expected, None, opening) for i in children)  # type: ignore[index]
        if not children:
            break
        node = children[-1]
    found.sort(key=lambda candidate: -candidate[0])
    yield from found


def _goes_on(parser: MarkdownIt, line: str, chain: Chain, leaf: Token | None) -> bool:
    """Whether a parse of ``line`` opens the containers of ``chain`` (with the same
    columns) and then a block of ``leaf``'s kind (None: anything)."""
    tokens = parser.parse(line)
    opened = _chain(tokens)
    if leaf is None:
        return opened[: len(chain)] == chain
    kind = "paragraph_open" if leaf.type == "heading_open" else leaf.type
    if opened != chain or len(tokens) <= len(chain) or tokens[len(chain)].type != kind:
        return False
    block = tokens[len(chain)]
    return kind != "fence" or (block.markup, block.info, block.meta) == (
        leaf.markup,
        leaf.info,
        leaf.meta,
    )


def _next_stretch(
    parser: MarkdownIt, chunk: str, tokens: list[Token], shift: int
) -> tuple[int, int, int | None, str] | None:
    """Where the stretch ``chunk`` (parsed as ``tokens``, its first ``shift`` lines an
    opening line) ends: (its line, its offset in ``chunk``, the index in ``tokens`` of the
    leaf block the stretch ends inside or None, the line to parse before the next
    stretch); None: nowhere."""
    starts = array("q", [0])
    starts.extend(m.end() for m in _LINE_END.finditer(chunk))
    lines = len(starts) - 1 if chunk.endswith("\n") else len(starts)
    checked: dict[str, bool] = {}
    for at, chain, node, opening in _candidates(tokens, lines):
        if at <= shift:
            continue
        leaf = None if node is None else tokens[node]
        line = opening or chunk[starts[at] : starts[at + 1]]
        if not chain and not opening:
            return at, starts[at], node, opening
        if not opening or line not in checked:  # an opening line is the same for many
            checked[line] = _goes_on(parser, line, chain, leaf)
        if checked[line]:
            return at, starts[at], node, opening
    return None


_LINE_END = re.compile("\n")


def block_tokens(text: str, window: int | None = WINDOW) -> Iterator[Token]:
    """Yield markdown-it's leaf block tokens of ``text`` (containers left out) as one parse
    of the whole text gives them (``map`` in the whole text's lines), holding one
    stretch's tokens at a time.

    Only the block structure is parsed: markdown-it's inline rules are not run (``]("``
    * n costs them time quadratic in n). A parse of the whole text holds about one token
    object and five line entries per line of input (hundreds of bytes per byte of ``a``
    paragraphs), so the text is parsed in stretches of about ``window`` characters (None:
    in one parse), each cut after a line break; the next stretch starts at a line from
    which a parse goes on as the whole parse does, after a line opening the containers
    (and the leaf block) that line is in (see "Stretches" in the module notes). A stretch
    with no such line is parsed again twice as long, so every character is parsed a
    bounded number of times.
    """
    parser = _parser()
    source = text
    if "\r" in source:
        source = _NEWLINES.sub("\n", source)
    if window is None:
        for group in _groups(parser.parse(source)):
            yield from group
        return
    start = 0  # offset in `source` of the stretch's first line
    line = 0  # its 0-based line number
    size = window
    carry = _Carry(-1, "", [])
    while start < len(source):
        cut = source.find("\n", start + size - 1)
        end = len(source) if cut < 0 else cut + 1
        prefix = carry.prefix
        shift = prefix.count("\n")
        chunk = prefix + source[start:end]
        tokens = parser.parse(chunk)
        restart, offset, inside, opening = len(chunk) + 1, len(chunk), None, ""
        if end < len(source):
            found = _next_stretch(parser, chunk, tokens, shift)
            if found is None:
                size *= 2
                continue
            restart, offset, inside, opening = found
        groups = list(_groups(tokens))
        on = None  # the leaf parsed on, from its opening line
        if shift:
            on = groups.pop(0)  # the synthetic block, or the leaf
            if carry.start < 0:
                on = None
            else:
                groups.insert(0, on)
                content = _content_token(on)
                if on[0].type != "fence":  # its content starts with the opening line
                    content.content = content.content[content.content.index("\n") + 1 :]
        for group in groups:
            first = group[0].map[0]  # type: ignore[index]
            if first >= restart or (inside is not None and group[0] is tokens[inside]):
                continue
            for token in group:
                if token.map is not None:
                    begin = carry.start if group is on else token.map[0] + line - shift
                    token.map = [begin, token.map[1] + line - shift]
            if group is on:
                content = _content_token(group)
                content.content = "".join([*carry.parts, content.content])
            yield from group
        if end == len(source):
            return
        if inside is None:
            carry = _Carry(-1, opening, [])
        else:
            leaf = tokens[inside]
            group = next(g for g in groups if g[0] is leaf)
            origin = shift if group is on else leaf.map[0] + (leaf.type == "fence")  # type: ignore[index]
            head = _head(_content_token(group).content, restart - origin)
            if group is on:
                carry = _Carry(carry.start, carry.prefix, [*carry.parts, head])
            else:
                carry = _Carry(line + leaf.map[0] - shift, opening, [head])  # type: ignore[index]
        del tokens, groups
        start, line, size = start + offset - len(prefix), line + restart - shift, window


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
    index = builder.index
    code: list[tuple[int, int]] = []
    html_blocks: list[tuple[int, int]] = []
    heading = False
    seen: dict[str, int] = {}
    for token in block_tokens(text, WINDOW):
        if token.map is None:
            continue
        first, last = token.map
        span = (index.line_start(first + 1), _region_end(index, last))
        if token.type in _CODE_TOKENS:
            code.append(span)
            if token.info:
                _attribute_ids(builder, token.info)
                if token.info.startswith("{"):  # a MyST directive
                    listed = _MYST_OPTIONS.match(token.content)
                    if listed is not None:
                        _myst_names(builder, listed.group())
        elif token.type == "html_block":
            html_blocks.append(span)
        elif token.type == "inline" and heading:
            builder.anchors.update(heading_anchors(token.content, seen, builder.repeats))
        heading = token.type == "heading_open"
    blocks = mask(text, [*code, *html_blocks])
    spans = list(_code_spans(blocks))
    _myst(builder, blocks, spans)
    code.extend(spans)
    prose = mask(blocks, spans)  # no code, no HTML block
    builder.opaque = opaque_reason(prose) or next(
        (r for r in (opaque_reason(text[s:e]) for s, e in html_blocks) if r), None
    )
    builder.template = markdown_template_reason(prose)
    builder.includes = include_targets(prose)
    if html_blocks and "@include:" in text:  # VitePress' include is an HTML comment
        builder.includes += tuple(
            found
            for start, end in html_blocks
            for found in include_targets(text[start:end])
            if found.startswith(COMMENT_INCLUDE)
        )
    _generated_anchors(builder, prose)
    # Links are never looked for in code; the core scans code only with verbatim text.
    hidden = [] if options.include_verbatim else list(code)
    for start, end in html_blocks:
        hidden.extend(scan_html_region(builder, start, end))
    unrendered = _unrendered_references(prose) if "]:" in prose else set()
    for finder, origin in (
        (_inline_links, "markdown-link"),
        (_references, "markdown-reference"),
        (_autolinks, "markdown-autolink"),
    ):
        for start, end in finder(prose):
            # a definition no reader sees as a link is not judged as one (start - 1: <...>)
            rendered = (
                not unrendered
                or origin != "markdown-reference"
                or not (start in unrendered or start - 1 in unrendered)
            )
            written = text[start:end]
            target = _decode(written)
            if TEMPLATE_PLACEHOLDER.search(target) and not is_relative(target):
                hidden.append((max(0, start - 1), min(len(text), end + 1)))
                continue  # made at build time: the written text is not the link
            if link_scheme(target, options.schemes) is not None:
                builder.add_link(start, end, origin, None if target == written else target)
            elif (
                origin != "markdown-autolink"
                and rendered
                and is_relative(target)
                and not _spaced(target)
            ):
                builder.add_local(start, target, origin)
    return builder.document(builder.scan(mask(text, hidden)))


def _spaced(target: str) -> bool:
    """True for a relative target with whitespace: CommonMark makes it no link (prose),
    unless a template placeholder (``{{ x | f }}``) holds it."""
    return any(c.isspace() for c in target) and not TEMPLATE_PLACEHOLDER.search(target)


def _attribute_ids(builder: FindingBuilder, text: str) -> None:
    """Add the ids of the attribute lists in ``text``."""
    for m in _ATTRIBUTE_LIST.finditer(text):
        for attribute in _ATTRIBUTE_ID.finditer(m.group(1)):
            anchor = next(g for g in attribute.groups() if g is not None)
            builder.anchors.add(_ESCAPED.sub(r"\1", anchor))  # {#\_id}: a Markdown escape


def _generated_anchors(builder: FindingBuilder, prose: str) -> None:
    """Add the anchors generators make besides heading slugs, from the prose (no code).

    Raw HTML ids and names inside paragraphs, attribute lists, footnotes (the ids
    Python-Markdown and kramdown give, ``fn:x``/``fnref:x``, Goldmark's numbered
    ``fn:1``, and GitHub/remark's ``user-content-fn-x``) and definition list terms (Hugo's
    ``autoDefinitionTermID``, in each slug style).
    """
    if "<" in prose:
        for m in _INLINE_ID.finditer(prose):
            builder.anchors.add(html.unescape(next(g for g in m.groups() if g is not None)))
        for tag in _INLINE_TAG.finditer(prose):
            for m in _INLINE_URL.finditer(prose, tag.start(), tag.end()):
                group = next(i for i in (1, 2, 3) if m.group(i) is not None)
                target = html.unescape(m.group(group)).strip()
                if target and is_relative(target) and not _spaced(target):
                    builder.add_local(m.start(group), target, "html-attribute")
    if "{" in prose:
        _attribute_ids(builder, prose)
    if "[^" in prose:
        numbers: dict[str, int] = {}
        for m in _FOOTNOTE.finditer(prose):
            label = m.group(1)
            if not m.group(2):
                numbers.setdefault(label, len(numbers) + 1)
        for label in {m.group(1) for m in _FOOTNOTE.finditer(prose)}:
            names = {label, str(numbers.get(label, 0)), label.lower()}
            for name in names:
                builder.anchors.update(form.format(name) for form in _FOOTNOTE_IDS)
    if ":" in prose:
        for m in _TERM.finditer(prose):
            text = heading_text(m.group(1))
            builder.anchors.update(slugify(text) for _, slugify, _ in SLUG_STYLES)


def _myst(builder: FindingBuilder, text: str, spans: list[tuple[int, int]]) -> None:
    """Record MyST roles ``{doc}`x``` and ``{ref}`x``` (a code span right after ``{name}``)
    as local links, and MyST targets ``(label)=`` as labels."""
    for start, end in spans:
        role = _MYST_ROLE.search(text, max(0, start - 64), start)
        if role is not None:
            opening = len(text[start:end]) - len(text[start:end].lstrip("`"))
            builder.add_role(role.group(1), text[start + opening : end - opening], start + opening)
    for m in _MYST_TARGET.finditer(text):
        _myst_label(builder, m.group(1))
    if ":::" in text:
        for m in _MYST_COLON_DIRECTIVE.finditer(mask(text, spans)):
            _myst_names(builder, m.group(1))


def _myst_names(builder: FindingBuilder, options: str) -> None:
    """Record the ``:label:`` and ``:name:`` of a MyST directive's option lines."""
    for m in _MYST_NAME.finditer(options):
        _myst_label(builder, m.group(1))


def _myst_label(builder: FindingBuilder, written: str) -> None:
    """A MyST label: a label for references, and an anchor as written (mystmd) and as
    docutils makes ids (MyST-Parser)."""
    label = normalize_label(written)
    builder.labels.add(label)
    builder.anchors.add(make_id(label))
    builder.anchors.add(label)


def _region_end(index: LineIndex, last_line: int) -> int:
    # `last_line` is markdown-it's exclusive 0-based end line: the region ends with the
    # line break of 0-based line last_line - 1.
    if last_line < index.line_count:
        return index.line_start(last_line + 1)
    return len(index.text)
