"""Document text in, :class:`~urlsift.lint.model.Finding` records out (no file I/O).

Strategy
--------
Every document format is handled in two passes over the *same* offsets:

1. the format's own link syntax (Markdown inline links and autolinks, reST targets, HTML
   attributes, roff ``.UR``) is found by a small position-exact scanner in the format's
   module (:mod:`.extract_markdown`, :mod:`.extract_rst`, :mod:`.extract_html`,
   :mod:`.extract_man`), and each target is judged by the core :class:`~urlsift.Judge`;
2. the appendix forms (``<URL:...>``, ``<scheme:...>``, ``URL:``, bare URLs) are found by
   the core :class:`~urlsift.Scanner` on a *scan text*: the document with its code regions
   masked (every character replaced by a space, line breaks kept) so line and column
   numbers stay exact. Formats whose scan text is not the source text character for
   character (roff escapes) pass a position map back to the source.

A core URL that overlaps a document link is dropped: the document link is reported once,
with its own origin. Everything here is a pure function of the text; nothing raises on
bad input.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Literal

from .._model import Candidate, Policy, Url
from ..api import Judge
from ..scanner import DEFAULT_SCHEMES, Scanner
from .model import Finding

DocumentFormat = Literal["text", "markdown", "rst", "html", "man"]
"""How a document is read."""

DOCUMENT_LINK_ORIGINS = frozenset(
    {
        "markdown-link",
        "markdown-autolink",
        "markdown-reference",
        "rst-link",
        "rst-target",
        "html-attribute",
        "man-macro",
    }
)
"""Origins of URLs found by a format's own link syntax (not by the appendix forms)."""

# File name suffix (lower case) -> format. Man pages are recognised by pattern below.
_SUFFIX_FORMATS: dict[str, DocumentFormat] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdown": "markdown",
    ".mkd": "markdown",
    ".rst": "rst",
    ".rest": "rst",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".man": "man",
}
# Man page sections: foo.1, foo.3p, foo.8x (a digit 1-9, then at most a few letters).
_MAN_SUFFIX = re.compile(r"\.[1-9][a-z]{0,3}")


def detect_format(path: str) -> DocumentFormat:
    """Return the format of a document from its file name.

    Args:
        path: the document's path (only the name is looked at).

    Returns:
        ``markdown``, ``rst``, ``html``, ``man`` or ``text`` (anything else).
    """
    suffix = PurePath(path).suffix.lower()
    fmt = _SUFFIX_FORMATS.get(suffix)
    if fmt is not None:
        return fmt
    if _MAN_SUFFIX.fullmatch(suffix):
        return "man"
    return "text"


@dataclass(frozen=True, slots=True)
class ExtractOptions:
    """What the extractors look at."""

    include_verbatim: bool = False
    """Also scan code blocks, code spans and literal blocks (skipped by default)."""
    policy: Policy = field(default_factory=Policy)
    """Validation strictness."""
    schemes: tuple[str, ...] = DEFAULT_SCHEMES
    """Schemes recognised in bare URLs and (with any scheme followed by ``//``) in
    document links."""


class LineIndex:
    """Offsets <-> 1-based line and column (columns count characters, ``\\n`` ends a line)."""

    __slots__ = ("_starts", "text")

    def __init__(self, text: str) -> None:
        """Index the line starts of ``text``."""
        self.text = text
        self._starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def position(self, offset: int) -> tuple[int, int]:
        """Return the (line, column) of ``offset`` (both 1-based)."""
        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

    def line_start(self, line: int) -> int:
        """Return the offset of the first character of 1-based ``line``."""
        return self._starts[line - 1]

    def line_end(self, line: int) -> int:
        """Return the offset of 1-based ``line``'s ``\\n`` (or the text's end)."""
        if line < len(self._starts):
            return self._starts[line] - 1
        return len(self.text)

    @property
    def line_count(self) -> int:
        """Number of lines (a final line without ``\\n`` counts)."""
        return len(self._starts)


def mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """Replace every character of ``spans`` by a space, keeping ``\\r`` and ``\\n``.

    Args:
        text: the document.
        spans: ``(start, end)`` offset pairs, in any order, possibly overlapping.

    Returns:
        A text of the same length, so offsets, lines and columns are unchanged.
    """
    marks = sorted(spans)
    if not marks:
        return text
    out: list[str] = []
    pos = 0
    for start, end in marks:
        start = max(start, pos)
        if end <= start:
            continue
        out.append(text[pos:start])
        out.append(_BLANK_NON_BREAKS.sub(" ", text[start:end]))
        pos = end
    out.append(text[pos:])
    return "".join(out)


_BLANK_NON_BREAKS = re.compile(r"[^\r\n]")

# RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]{0,31}):")
_WHITESPACE = re.compile(r"\s")


def link_scheme(target: str, schemes: Sequence[str]) -> str | None:
    """Return the scheme of a link target when it is a URL urlsift checks, else None.

    A target is checked when its scheme is one of ``schemes`` (the bare-URL set) or is
    followed by ``//``; relative links, ``#anchors`` and other schemes (``javascript:``,
    ``data:``) are not.
    """
    m = _SCHEME.match(target)
    if m is None:
        return None
    scheme = m.group(1).lower()
    if scheme in schemes or target.startswith("//", m.end()):
        return scheme
    return None


class FindingBuilder:
    """Builds findings for one document: judges targets, maps offsets, merges the passes."""

    def __init__(self, text: str, path: str, options: ExtractOptions) -> None:
        """Prepare to report findings in ``text`` (the source) under ``path``."""
        self.text = text
        self.path = path
        self.options = options
        self.index = LineIndex(text)
        self.judge = Judge(policy=options.policy)
        self.links: list[tuple[int, int, Finding]] = []
        self._link_spans: set[tuple[int, int]] = set()

    def _finding(self, url: Url, start: int, end: int, origin: str) -> Finding:
        line, column = self.index.position(start)
        end_line, last_column = self.index.position(max(start, end - 1))
        return Finding(
            path=self.path,
            url=url.url,
            alternatives=url.alternatives,
            raw=self.text[start:end],
            line=line,
            column=column,
            end_line=end_line,
            end_column=last_column + 1,
            origin=origin,
            kind=url.kind if origin not in DOCUMENT_LINK_ORIGINS else "bare",
            defects=url.defects,
        )

    def add_link(self, start: int, end: int, origin: str, target: str | None = None) -> None:
        """Report a document link whose target is written at ``text[start:end]``.

        Args:
            start: offset of the target's first character in the source.
            end: offset just past its last character.
            origin: e.g. ``markdown-link``.
            target: the URL when it is not the source text as written (entities decoded,
                ``mailto:`` added, reST whitespace removed ...). Whitespace left in it is
                removed as inside a ``<...>`` wrapper (hyphen breaks stay ambiguous).
        """
        if (start, end) in self._link_spans:
            return  # the same target seen by two syntaxes (e.g. [x](<http://a>))
        self._link_spans.add((start, end))
        written = self.text[start:end] if target is None else target
        kind: Literal["bare", "angle"] = "angle" if _WHITESPACE.search(written) else "bare"
        line, column = self.index.position(start)
        end_line, _ = self.index.position(max(start, end - 1))
        candidate = Candidate(kind, written, written, start, end, line, column, end_line)
        url = self.judge(candidate, source=self.path)
        self.links.append((start, end, self._finding(url, start, end, origin)))

    def scan(
        self,
        scan_text: str,
        to_source: Callable[[int], int] | None = None,
        end_to_source: Callable[[int], int] | None = None,
    ) -> list[Finding]:
        """Find the appendix forms in ``scan_text`` and merge them with the links so far.

        Args:
            scan_text: the text the core scans (the source with code masked, or an
                unescaped version of it).
            to_source: maps the start offset of a span of ``scan_text`` to the source
                (identity if None).
            end_to_source: maps the end offset of a span (default ``to_source``).

        Returns:
            Every finding of the document, in source order; a core URL that overlaps a
            document link is left out.
        """
        scanner = Scanner(list(self.options.schemes))
        candidates = scanner.feed(scan_text) + scanner.close()
        links = sorted(self.links, key=lambda item: (item[0], item[1]))
        link_starts = [start for start, _, _ in links]
        max_end = _running_max([end for _, end, _ in links])
        found: list[tuple[int, int, Finding]] = list(links)
        for candidate in candidates:
            url = self.judge(candidate, source=self.path)
            start, end = candidate.start, candidate.end
            if to_source is not None:
                start, end = to_source(start), (end_to_source or to_source)(end)
            if _overlaps(start, end, link_starts, max_end):
                continue
            found.append((start, end, self._finding(url, start, end, url.kind)))
        found.sort(key=lambda item: (item[0], item[1]))
        return [finding for _, _, finding in found]


def _running_max(values: list[int]) -> list[int]:
    out: list[int] = []
    best = -1
    for value in values:
        best = max(best, value)
        out.append(best)
    return out


def _overlaps(start: int, end: int, starts: list[int], max_end: list[int]) -> bool:
    # Links sorted by start: any link starting before `end` whose end passes `start`.
    i = bisect.bisect_left(starts, end)
    return i > 0 and max_end[i - 1] > start


def extract_text(text: str, path: str, options: ExtractOptions | None = None) -> list[Finding]:
    """Find the URLs of a plain-text document (the appendix forms only).

    Args:
        text: the decoded document.
        path: the path reported in each finding.
        options: what to look at.

    Returns:
        The findings in source order.
    """
    return FindingBuilder(text, path, options or ExtractOptions()).scan(text)


def extract_findings(
    text: str, path: str, fmt: DocumentFormat, options: ExtractOptions | None = None
) -> list[Finding]:
    """Find the URLs of a document in the given format.

    Args:
        text: the decoded document.
        path: the path reported in each finding.
        fmt: the document's format (see :func:`detect_format`).
        options: what to look at (default :class:`ExtractOptions`).

    Returns:
        The findings in source order.
    """
    from .extract_html import extract_html
    from .extract_man import extract_man
    from .extract_markdown import extract_markdown
    from .extract_rst import extract_rst

    extractors: dict[DocumentFormat, Callable[[str, str, ExtractOptions], list[Finding]]] = {
        "text": extract_text,
        "markdown": extract_markdown,
        "rst": extract_rst,
        "html": extract_html,
        "man": extract_man,
    }
    return extractors[fmt](text, path, options or ExtractOptions())
