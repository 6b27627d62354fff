"""The shared core of the lint extractors: offsets, masking, findings (no file I/O).

Every format module (:mod:`.extract_markdown`, :mod:`.extract_rst`, :mod:`.extract_html`,
:mod:`.extract_man`) depends on this module and never on the dispatcher
(:mod:`.extract`), which depends on them: the imports go one way. What this module
promises: :class:`LineIndex` maps offsets to 1-based line and column exactly;
:func:`mask` keeps every offset; :class:`FindingBuilder` judges document links and the
core scanner's appendix forms and merges them, one finding per span, in source order;
:class:`LocalLink` and the anchor sets record the relative links and link targets of a
document for the offline local-link check (:mod:`.locallinks`).
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Literal

from .._model import Candidate, Policy, Url
from ..api import Judge
from ..extraction.scanner import DEFAULT_SCHEMES, Scanner
from ..grammar.context import scheme_name
from .model import Finding
from .slugs import Anchors

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


RstParser = Literal["urlsift", "docutils"]
"""Who decides what is a link in reST: urlsift's extractor, or docutils."""


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
    rst_parser: RstParser = "urlsift"
    """Who decides what is a link in reST (``docutils`` needs the ``rst`` extra; see
    :mod:`.extract_rst_docutils`)."""


_LINE_BREAK = re.compile("\n")


class LineIndex:
    """Offsets <-> 1-based line and column (columns count characters, ``\\n`` ends a line)."""

    __slots__ = ("_starts", "text")

    def __init__(self, text: str) -> None:
        """Index the line starts of ``text`` (machine integers: a list of Python ints
        would take 36 bytes a line, 24 per byte of blank lines)."""
        self.text = text
        starts = array("I" if len(text) < 1 << 32 else "q", [0])
        starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
        self._starts = starts

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


class Spans:
    """``(start, end)`` offset pairs added in increasing order, without overlap, held as
    machine integers (a list of tuples takes 120 bytes a span); a span that starts where
    the last one ends extends it. :func:`mask` reads them in order, without sorting."""

    __slots__ = ("_flat",)

    def __init__(self) -> None:
        """An empty sequence of spans."""
        self._flat = array("q")

    def add(self, start: int, end: int) -> None:
        """Append ``(start, end)``; ``start`` is at or past the last span's end."""
        flat = self._flat
        if flat and flat[-1] == start:
            flat[-1] = end
        else:
            flat.append(start)
            flat.append(end)

    def append(self, start: int, end: int) -> None:
        """Append ``(start, end)`` as it is (no order asked, no merging)."""
        self._flat.append(start)
        self._flat.append(end)

    def last(self) -> tuple[int, int] | None:
        """The span added last, or None."""
        flat = self._flat
        return (flat[-2], flat[-1]) if flat else None

    def starts(self) -> array[int]:
        """The starts, in the order added."""
        return self._flat[::2]

    def ends(self) -> array[int]:
        """The ends, in the order added."""
        return self._flat[1::2]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        """The spans in order."""
        pairs = iter(self._flat)
        return zip(pairs, pairs, strict=True)

    def __len__(self) -> int:
        """How many spans."""
        return len(self._flat) // 2


_MASK_BLOCK = 4096  # pieces joined at a time by mask (a list of every piece: 2 per span)


def mask(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """Replace every character of ``spans`` by a space, keeping ``\\r`` and ``\\n``.

    Args:
        text: the document.
        spans: ``(start, end)`` offset pairs, in any order, possibly overlapping (a
            :class:`Spans` is read in its order).

    Returns:
        A text of the same length, so offsets, lines and columns are unchanged.
    """
    marks = spans if isinstance(spans, Spans) else sorted(spans)
    if not marks:
        return text
    blocks: list[str] = []
    out: list[str] = []
    pos = 0
    for start, end in marks:
        start = max(start, pos)
        if end <= start:
            continue
        out.append(text[pos:start])
        chunk = text[start:end]
        if "\n" in chunk or "\r" in chunk:
            out.append(_BLANK_NON_BREAKS.sub(" ", chunk))
        else:
            out.append(" " * (end - start))
        pos = end
        if len(out) >= _MASK_BLOCK:
            blocks.append("".join(out))
            out.clear()
    out.append(text[pos:])
    blocks.append("".join(out))
    return "".join(blocks)


_BLANK_NON_BREAKS = re.compile(r"[^\r\n]")

# A link target's scheme, then ":": the scanner's scheme name, so that a configured scheme
# (up to MAX_SCHEME_LENGTH characters) is found in document links as in text.
_SCHEME = re.compile(rf"({scheme_name()}):")
_WHITESPACE = re.compile(r"\s")
# Sphinx roles that link documents (reST :doc:`x`, MyST {doc}`x`) -> local link origin.
_LINK_ROLES = {"doc": "rst-doc", "ref": "rst-ref", "std:doc": "rst-doc", "std:ref": "rst-ref"}
_ROLE_TARGET = re.compile(r"<([^<>]+)>\s*\Z")


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


def is_relative(target: str) -> bool:
    """True when a link target is a relative reference (a path or ``#fragment``).

    Targets with a scheme (``mailto:``, ``javascript:``, ``c:``), network-path references
    (``//host/``) and empty targets are not.
    """
    return bool(target) and not target.startswith("//") and not _SCHEME.match(target)


@dataclass(frozen=True, slots=True)
class LocalLink:
    """A relative link between documents, as written (checked offline by :mod:`.locallinks`)."""

    target: str
    """The target as the reader's tool reads it (decoded): ``../guide.md#install``,
    ``#usage``, a ``:doc:`` path, or a ``:ref:`` label."""
    line: int
    """1-based line of the target's first character."""
    column: int
    """1-based column of the target's first character."""
    origin: str
    """``markdown-link``, ``markdown-reference``, ``html-attribute``, ``rst-link``,
    ``rst-doc`` (a ``:doc:`` role) or ``rst-ref`` (a ``:ref:`` role)."""


@dataclass(frozen=True, slots=True)
class Extracted:
    """Everything one document gives the lint rules."""

    findings: list[Finding]
    """The URLs found, in source order."""
    local_links: tuple[LocalLink, ...] = ()
    """Relative links to other documents or anchors, in source order."""
    anchors: AbstractSet[str] = frozenset()
    """The fragment identifiers the document defines (heading slugs, ids, labels)."""
    labels: frozenset[str] = frozenset()
    """reST ``.. _label:`` names, normalised (for ``:ref:``, which is project-wide)."""
    titles: frozenset[str] = frozenset()
    """Section titles as reference names, normalised: labels too where Sphinx's
    ``autosectionlabel`` extension makes them so."""
    fallback: bool = False
    """True when the parser asked for could not read the document and urlsift's own
    extractor's findings stand instead (``--rst-parser docutils`` on a document docutils
    fails on)."""
    opaque: str | None = None
    """Why the document may define anchors the linter cannot see (a shortcode, an include,
    an MDX component: :data:`~.sites.OPAQUE_CONTENT`), or None: its anchors are all known."""
    template: str | None = None
    """Why the document is a template rendered into other pages (:func:`~.sites.template_reason`),
    or None: its relative links are then not judged from its own folder."""
    includes: tuple[str, ...] = ()
    """The files its include directives name, as :func:`~.sites.include_targets` gives them
    (those files are fragments rendered inside this document)."""
    redirect: str | None = None
    """Where the page sends its reader at once (an HTML ``<meta http-equiv="refresh">``
    with a URL: the redirect stubs rustdoc, mkdocs-redirects and Sphinx extensions write),
    as written, or None. A fragment into such a page is looked for where it goes."""


class FindingBuilder:
    """Builds findings for one document: judges targets, maps offsets, merges the passes."""

    def __init__(self, text: str, path: str, options: ExtractOptions) -> None:
        """Prepare to report findings in ``text`` (the source) under ``path``."""
        self.text = text
        self.path = path
        self.options = options
        self.index = LineIndex(text)
        self.judge = Judge(policy=options.policy)
        self.links: list[Finding] = []
        """The document links, in the order added; their spans in ``link_spans``."""
        self.link_spans = Spans()
        self.local_links: list[tuple[int, LocalLink]] = []
        self.anchors: set[str] = set()
        self.repeats: dict[tuple[str, str], int] = {}
        """Numbered repeats of heading slugs (see :class:`~.slugs.Anchors`)."""
        self.labels: set[str] = set()
        self.titles: set[str] = set()
        self.opaque: str | None = None
        self.template: str | None = None
        self.includes: tuple[str, ...] = ()
        self.redirect: str | None = None

    def add_local(self, start: int, target: str, origin: str) -> None:
        """Record a relative link whose target is written from ``text[start]`` on."""
        line, column = self.index.position(start)
        self.local_links.append((start, LocalLink(target, line, column, origin)))

    def add_role(self, name: str, content: str, start: int) -> None:
        """Record the target of a Sphinx ``doc`` or ``ref`` role as a local link.

        Args:
            name: the role's name (``doc``, ``ref``, ``std:doc`` ...; others are ignored).
            content: the role's text: ``target`` or ``title <target>``.
            start: offset of ``content`` in the source.
        """
        origin = _LINK_ROLES.get(name)
        if origin is None:
            return
        explicit = _ROLE_TARGET.search(content)
        if explicit is not None:
            content, start = explicit.group(1), start + explicit.start(1)
        target = content.strip().lstrip("~!")
        if target:
            self.add_local(start + content.index(target[0]), target, origin)

    def document(self, findings: list[Finding]) -> Extracted:
        """Return the document's findings with its local links and anchors."""
        local = tuple(link for _, link in sorted(self.local_links, key=lambda item: item[0]))
        return Extracted(
            findings,
            local,
            Anchors(self.anchors, self.repeats) if self.repeats else frozenset(self.anchors),
            frozenset(self.labels),
            opaque=self.opaque,
            titles=frozenset(self.titles),
            template=self.template,
            includes=self.includes,
            redirect=self.redirect,
        )

    def _finding(self, url: Url, start: int, end: int, origin: str) -> Finding:
        line, column = self.index.position(start)
        end_line, last_column = self.index.position(max(start, end - 1))
        raw = self.text[start:end]
        return Finding(
            path=self.path,
            url=url.url,
            alternatives=url.alternatives,
            raw=url.url if raw == url.url else raw,  # one string, not two equal ones
            line=line,
            column=column,
            end_line=line if end_line == line else end_line,
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
        if self.link_spans.last() == (start, end):
            return  # the same target seen by two syntaxes (e.g. [x](<http://a>))
        # (a repeat that is not the last link added is dropped by `scan`)
        written = self.text[start:end] if target is None else target
        kind: Literal["bare", "angle"] = "angle" if _WHITESPACE.search(written) else "bare"
        line, column = self.index.position(start)
        end_line, _ = self.index.position(max(start, end - 1))
        candidate = Candidate(kind, written, written, start, end, line, column, end_line)
        url = self.judge(candidate, source=self.path)
        self.links.append(self._finding(url, start, end, origin))
        self.link_spans.append(start, end)

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
        links, starts, ends = self._sorted_links()
        max_end = _running_max(ends)
        kept: list[tuple[int, int, Finding]] = []
        for candidate in self._candidates(scan_text):
            start, end = candidate.start, candidate.end
            if to_source is not None:
                start, end = to_source(start), (end_to_source or to_source)(end)
            if _overlaps(start, end, starts, max_end):
                continue
            url = self.judge(candidate, source=self.path)
            kept.append((start, end, self._finding(url, start, end, url.kind)))
        if not kept:
            return links
        kept.sort(key=lambda item: (item[0], item[1]))
        found: list[Finding] = []
        i = 0
        for start, end, finding in kept:  # a link before a core URL of the same span
            while i < len(links) and (starts[i], ends[i]) <= (start, end):
                found.append(links[i])
                i += 1
            found.append(finding)
        found.extend(links[i:])
        return found

    def _sorted_links(self) -> tuple[list[Finding], array[int], array[int]]:
        """The links by (start, end), the first added of a repeated span only, and their
        starts and ends."""
        starts, ends = self.link_spans.starts(), self.link_spans.ends()
        n = len(self.links)
        ordered = all((starts[i], ends[i]) < (starts[i + 1], ends[i + 1]) for i in range(n - 1))
        if ordered:
            return self.links, starts, ends
        order = sorted(range(n), key=lambda i: (starts[i], ends[i]))  # stable
        keep: list[int] = []
        for i in order:
            if not keep or (starts[keep[-1]], ends[keep[-1]]) != (starts[i], ends[i]):
                keep.append(i)
        return (
            [self.links[i] for i in keep],
            array("q", [starts[i] for i in keep]),
            array("q", [ends[i] for i in keep]),
        )

    def _candidates(self, scan_text: str) -> Iterator[Candidate]:
        """The core scanner's candidates in ``scan_text``, fed a piece at a time (a list
        of every candidate would hold them all at once)."""
        scanner = Scanner(list(self.options.schemes))
        for at in range(0, len(scan_text), _SCAN_PIECE):
            yield from scanner.feed(scan_text[at : at + _SCAN_PIECE])
        yield from scanner.close()


_SCAN_PIECE = 1 << 16
"""Characters of the scan text given to the core scanner at a time."""


def _running_max(values: Iterable[int]) -> array[int]:
    out = array("q")
    best = -1
    for value in values:
        best = max(best, value)
        out.append(best)
    return out


def _overlaps(start: int, end: int, starts: array[int], max_end: array[int]) -> bool:
    # Links sorted by start: any link starting before `end` whose end passes `start`.
    i = bisect.bisect_left(starts, end)
    return i > 0 and max_end[i - 1] > start
