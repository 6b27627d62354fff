"""reST read with docutils (``--rst-parser docutils``): docutils decides, urlsift locates.

What this module promises:

* :func:`docutils_links` is a pure function of the text: the URIs docutils (the reference
  reST parser) makes a ``reference``, an explicit ``target`` or an ``image``, in document
  order, or None when docutils fails on the document. docutils is imported on the first
  call only, so ``import urlsift`` and every other lint mode never import it.
* Sphinx documents parse without Sphinx: an unknown directive is read generically (any
  options; its arguments parsed as inline text, its content as body text) and an unknown
  role gives a literal (never a link). Nothing is registered in docutils' global tables: the generic
  directive is chosen by this module's own copies of docutils' parser states, the generic
  role by a per-parse inliner, and the ``role`` and ``default-role`` directives define
  their roles in that inliner only, so nothing leaks between documents or threads.
* No file is read (file insertion and ``raw`` are off), nothing is written to stderr
  (report and halt levels above every message), and no exception escapes.
* :func:`extract_rst_docutils` gives the findings of :func:`.extract_rst.extract_rst`
  (same positions, same origins, same rules) that docutils makes links; a docutils link
  the extractor did not report is located in the source (the first occurrence not already
  claimed, whitespace-insensitive when docutils joined a URI broken over lines) and
  judged by the same :class:`~.findings.FindingBuilder`. docutils gives no columns (its
  nodes carry at best a line), which is why the extractor locates.

Choices written down (``docs/lint.md``, "reST parser"): a bare URL the extractor rejoined
over a line break is kept whole when docutils' link is its first line (docutils does not
rejoin bare URLs; the RFC 1738 appendix does); with ``include-verbatim`` the findings in
code (which docutils never makes links) are kept as the extractor gives them; local links
and anchors are the extractor's. A document docutils cannot read (an exception, or a line
longer than docutils' ``line_length_limit``), and a document larger than
:data:`DOCUTILS_MAX_BYTES` (docutils' time grows faster than its input on some documents:
anonymous targets, substitutions, ``:pep:`` roles), is read by the extractor alone and
marked :attr:`~.findings.Extracted.fallback`; the lint run counts such documents and its
summary says how many.
"""

from __future__ import annotations

import bisect
import copy
import dataclasses
import importlib.util
import re
import types
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, ClassVar

from .extract_rst import extract_rst
from .findings import (
    DOCUMENT_LINK_ORIGINS,
    Extracted,
    ExtractOptions,
    FindingBuilder,
    LineIndex,
    RstParser,
    link_scheme,
)
from .model import Finding

DOCUTILS_MAX_BYTES = 256 * 1024
"""Largest document (UTF-8 bytes) docutils reads; a larger one is read by urlsift's
extractor (``fallback``), so one file costs docutils a bounded time (about 20 s on the
slowest family measured, ``benchmarks/bench_lint_linear.py``)."""

RST_PARSERS: tuple[RstParser, ...] = ("urlsift", "docutils")
"""The values of ``--rst-parser`` and of the ``rst-parser`` key."""

RST_EXTRA_HINT = "pip install 'urlsift[rst]'"
"""How to install what ``--rst-parser docutils`` needs."""


def docutils_available() -> bool:
    """True when docutils can be imported (the ``rst`` extra is installed)."""
    return importlib.util.find_spec("docutils") is not None


def docutils_links(text: str, schemes: Sequence[str]) -> tuple[tuple[str, str], ...] | None:
    """Return the links docutils finds in a reST document.

    Args:
        text: the decoded document.
        schemes: the bare-URL schemes (a URI is kept when :func:`~.findings.link_scheme`
            accepts it: one of these schemes, or any scheme followed by ``//``).

    Returns:
        ``(uri, origin)`` pairs in document order: ``rst-link`` for a reference (embedded
        URI, standalone URI, an image's ``:target:``), ``rst-target`` for an explicit
        target or an image URI. A URI made by a role (``:pep:``) is listed too: whether it
        is written in the text is the caller's business. None when docutils fails.

    Raises:
        ImportError: docutils is not installed (the ``rst`` extra; the command line and
            the configuration check :func:`docutils_available` first).
    """
    machinery = _machinery()
    try:
        return machinery(text, schemes)
    except Exception:  # docutils on a broken document: the caller falls back
        return None


def extract_rst_docutils(text: str, path: str, options: ExtractOptions) -> Extracted:
    """Find the URLs of a reST document, docutils deciding which are links.

    Args:
        text: the decoded document.
        path: the path reported in each finding.
        options: what to look at.

    Returns:
        The findings in source order, with the extractor's local links and anchors;
        :attr:`~.findings.Extracted.fallback` set (and the extractor's findings) when
        docutils could not read the document or it is larger than
        :data:`DOCUTILS_MAX_BYTES`.

    Raises:
        ImportError: docutils is not installed.
    """
    own = extract_rst(text, path, options)
    if _too_large_for_docutils(text):
        return dataclasses.replace(own, fallback=True)
    decided = docutils_links(text, options.schemes)
    if decided is None:
        return dataclasses.replace(own, fallback=True)
    index = LineIndex(text)
    verbatim: set[tuple[int, int]] = set()
    if options.include_verbatim:  # code is outside docutils' say: keep what is found there
        prose = extract_rst(text, path, dataclasses.replace(options, include_verbatim=False))
        verbatim = {_span(f, index) for f in own.findings} - {
            _span(f, index) for f in prose.findings
        }
    flat = "".join(text.split())
    remaining = Counter(uri for uri, _ in decided)
    kept: list[Finding] = []
    claimed: list[tuple[int, int]] = []
    for finding in own.findings:
        span = _span(finding, index)
        spelling = None if span in verbatim else _spelling(finding, remaining)
        if span in verbatim or spelling is not None:
            if spelling is not None:
                remaining[spelling] -= 1
            kept.append(finding)
            claimed.append(span)
    claimed.sort()
    builder = FindingBuilder(text, path, options)
    cursor = 0
    for uri, origin in decided:
        if remaining[uri] <= 0 or uri not in flat:
            continue
        remaining[uri] -= 1
        found = _locate(text, uri, claimed, cursor) or _locate(text, uri, claimed, 0)
        if found is None:
            continue
        start, end = found
        bisect.insort(claimed, found)
        cursor = end
        builder.add_link(start, end, origin, None if text[start:end] == uri else uri)
    added = list(builder.links)
    findings = sorted([*kept, *added], key=_order)
    return dataclasses.replace(own, findings=findings)


# Punctuation docutils drops from the end of a standalone URI.
_TRAILING = "-.,;:!?'\")]}>"


def _too_large_for_docutils(text: str) -> bool:
    # The UTF-8 size without encoding the text: at most 4 bytes a character.
    if len(text) * 4 <= DOCUTILS_MAX_BYTES:
        return False
    return len(text) > DOCUTILS_MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > (
        DOCUTILS_MAX_BYTES
    )


def _order(finding: Finding) -> tuple[int, int, int, int]:
    return finding.line, finding.column, finding.end_line, finding.end_column


def _span(finding: Finding, index: LineIndex) -> tuple[int, int]:
    # The finding's (start, end) offsets in the source.
    start = index.line_start(finding.line) + finding.column - 1
    return start, index.line_start(finding.end_line) + finding.end_column - 1


def _spelling(finding: Finding, remaining: Counter[str]) -> str | None:
    """The spelling of ``finding`` that docutils made a link (not yet matched), or None."""
    pieces = finding.raw.split()
    spellings = [finding.url, *finding.alternatives, "".join(pieces)]
    if len(pieces) > 1 and finding.origin not in DOCUMENT_LINK_ORIGINS:
        # A URL the appendix rejoined over a line break: docutils has its first line, less
        # the punctuation it never ends a standalone URI with.
        spellings += [pieces[0], pieces[0].rstrip(_TRAILING)]
    for spelling in spellings:
        if remaining[spelling] > 0:
            return spelling
    return None


def _overlaps_claimed(start: int, end: int, claimed: list[tuple[int, int]]) -> bool:
    # claimed: sorted, non-overlapping spans.
    i = bisect.bisect_left(claimed, (end, end))
    return i > 0 and claimed[i - 1][1] > start


def _locate(
    text: str, uri: str, claimed: list[tuple[int, int]], cursor: int
) -> tuple[int, int] | None:
    """The span of the first occurrence of ``uri`` from ``cursor`` not already claimed.

    Written as it is first; else with whitespace anywhere between its characters (docutils
    removes the whitespace of a URI written over several lines).
    """
    at = text.find(uri, cursor)
    while at >= 0:
        if not _overlaps_claimed(at, at + len(uri), claimed):
            return at, at + len(uri)
        at = text.find(uri, at + 1)
    spread = re.compile(r"\s*".join(re.escape(char) for char in uri))
    for m in spread.finditer(text, cursor):
        if not _overlaps_claimed(m.start(), m.end(), claimed):
            return m.span()
    return None


_LinkFinder = Callable[[str, Sequence[str]], tuple[tuple[str, str], ...]]


@lru_cache(maxsize=1)
def _machinery() -> _LinkFinder:
    """Build (once) the docutils parser set-up; docutils is imported here only."""
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Directive, Parser, directives, roles, states
    from docutils.parsers.rst.directives.misc import DefaultRole, Role
    from docutils.utils import new_document

    class AnyOption(dict[str, Any]):
        # Every option name is accepted, its value kept as text.
        def __contains__(self, key: object) -> bool:
            return True

        def __getitem__(self, key: str) -> Any:
            return directives.unchanged

    class GenericDirective(Directive):  # type: ignore[misc]
        # A directive docutils does not know: its arguments parsed as inline text (Sphinx
        # renders those of seealso, deprecated, canonical-doc ... so), its content as body.
        optional_arguments = 1
        final_argument_whitespace = True
        has_content = True
        option_spec = AnyOption()

        def run(self) -> list[Any]:
            node = nodes.container()
            if self.arguments:
                made, messages = self.state.inline_text(self.arguments[0], self.lineno)
                node += nodes.paragraph(self.arguments[0], "", *made)
                node += messages
            self.state.nested_parse(self.content, self.content_offset, node)
            return [node]

    def literal_role(
        name: str,
        rawtext: str,
        text: str,
        lineno: int,
        inliner: object,
        options: object = None,
        content: object = None,
    ) -> tuple[list[Any], list[Any]]:
        return [nodes.literal(rawtext, text)], []

    class LocalRole(GenericDirective):
        # ".. role:: name(base)": the role is defined for this document only (a literal).
        def run(self) -> list[Any]:
            written = (self.arguments or list(self.content) or [""])[0]
            name = re.match(r"\s*([^\s(]*)", written)
            if name is not None and name.group(1):
                self.state.memo.inliner.local_roles[name.group(1).lower()] = literal_role
            return []

    class LocalDefaultRole(GenericDirective):
        # ".. default-role::": for this document only; no default role makes a link.
        def run(self) -> list[Any]:
            self.state.memo.inliner.local_roles[""] = literal_role
            return []

    replaced: dict[type[Any], type[Any]] = {Role: LocalRole, DefaultRole: LocalDefaultRole}

    def interpreted(
        inliner: Any, rawsource: str, text: str, role: str, lineno: int
    ) -> tuple[list[Any], list[Any]]:
        # The document's own roles first, then docutils' (its own caches, as in any
        # docutils run), else a literal.
        found = inliner.local_roles.get(role.lower())
        messages: list[Any] = []
        if found is None:
            found, messages = roles.role(role, inliner.language, lineno, inliner.reporter)
        made, more = (found or literal_role)(role, rawsource, text, lineno, inliner)
        return made, [*messages, *more]

    def new_inliner() -> Any:
        # An Inliner instance (a subclass would break its pattern set-up, which reads the
        # class's own attributes) with this document's role table.
        inliner = states.Inliner()
        inliner.local_roles = {}
        inliner.interpreted = types.MethodType(interpreted, inliner)
        return inliner

    def directive(self: Any, match: re.Match[str], **option_presets: Any) -> Any:
        # docutils' lookup (its own caches, as in any docutils run), else the generic one.
        name = match.group(1)
        found, messages = directives.directive(name, self.memo.language, self.document)
        self.parent += messages
        chosen = replaced.get(found, found) or GenericDirective
        return self.run_directive(chosen, match, name, option_presets)

    explicit = copy.copy(states.Body.explicit)
    explicit.constructs = [
        (directive if method is states.Body.directive else method, pattern)
        for method, pattern in states.Body.explicit.constructs
    ]

    class LocalState:
        # Mixed into copies of docutils' states: nested parses use these copies too, and
        # their cached nested state machines are kept apart from docutils' own.
        nested_sm_cache: ClassVar[list[Any]] = []

        def __init__(self, state_machine: Any, debug: bool = False) -> None:
            super().__init__(state_machine, debug)  # type: ignore[call-arg]
            self.nested_sm_kwargs = {"state_classes": state_classes, "initial_state": "Body"}

    namespace = {"explicit": explicit, "directive": directive}
    state_classes = tuple(
        type(cls.__name__, (LocalState, cls), namespace) for cls in states.state_classes
    )
    defaults = get_default_settings(Parser)
    for key, value in {
        "report_level": 5,
        "halt_level": 5,
        "warning_stream": False,
        "file_insertion_enabled": False,
        "raw_enabled": False,
        "syntax_highlight": "none",
        "debug": False,
    }.items():
        setattr(defaults, key, value)
    wanted = (nodes.reference, nodes.target, nodes.image)

    def find_links(text: str, schemes: Sequence[str]) -> tuple[tuple[str, str], ...]:
        document = new_document("<urlsift>", copy.copy(defaults))
        parser = Parser(inliner=new_inliner())
        parser.state_classes = state_classes
        parser.parse(text, document)
        # A line over docutils' line_length_limit: docutils parses nothing, only says so.
        if len(document) == 1 and "line-length-limit" in document[0].astext():
            raise ValueError("a line is longer than docutils' line_length_limit")
        found: list[tuple[str, str]] = []
        for node in document.findall(lambda n: isinstance(n, wanted)):
            if isinstance(node, nodes.target) and isinstance(node.parent, nodes.TextElement):
                continue  # the inline target beside an embedded URI's reference
            uri = node.get("refuri") or node.get("uri")
            if uri and link_scheme(uri, schemes) is not None:
                origin = "rst-link" if isinstance(node, nodes.reference) else "rst-target"
                found.append((uri, origin))
        return tuple(found)

    return find_links
