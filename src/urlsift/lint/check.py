"""Findings in, diagnostics out: the rules of ``urlsift lint`` applied to one document.

Strategy: the core has already judged every URL; a rule here is mostly a row of
:data:`DEFECT_RULES`, mapping a core defect code to a lint rule (tables over branches).
Three rules look at the document instead of a defect: ``URL004`` (whitespace inside a
Markdown, HTML or roff link target), ``URL008`` (a bare URL that seems to continue on the
next line, see :func:`continuation`) and ``URL010`` (an unreadable file, reported by the
engine). Each defect gives its own diagnostic (the core already keeps one defect per
distinct problem), so no BNF rule is lost; the column points at the defect itself when the
URL is written on one line as it reads. Diagnostics come out with their rules' default
severities; :class:`Suppressions` and the engine's rule selection are applied afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import overload

from .._model import Defect
from ..extraction.wrap import continuation as wrap_evidence
from ..output.formats import visible_utf8
from .findings import LineIndex
from .model import RULE_BY_CODE, Diagnostic, Finding, LintSeverity
from .sites import URL_PLACEHOLDER

# Core defect code -> (rule when the defect is a warning, rule when it is an error,
# whether the diagnostic keeps the defect's own severity instead of the rule's).
DEFECT_RULES: dict[str, tuple[str, str, bool]] = {
    "unterminated-wrapper": ("URL002", "URL002", False),
    "ambiguous-hyphen": ("URL003", "URL003", False),
    "unsafe-character": ("URL005", "URL005", True),
    "control-character": ("URL005", "URL005", True),
    "non-ascii-character": ("URL005", "URL005", True),
    "password-in-url": ("URL006", "URL006", False),
    "non-default-port": ("URL007", "URL007", False),
    "reserved-port": ("URL007", "URL007", False),
    "deceptive-userinfo": ("URL009", "URL001", False),
    "encoded-control": ("URL009", "URL001", False),
    "port-out-of-range": ("URL009", "URL001", False),
    "hostnumber-out-of-range": ("URL009", "URL001", False),
    "bad-address": ("URL009", "URL001", False),
    "search-without-path": ("URL009", "URL001", False),
    "invalid-utf8": ("URL009", "URL001", False),
    "continued-line": ("URL008", "URL008", False),
    "possible-wrap": ("URL008", "URL008", False),
}
"""Core defect code -> (rule if warning, rule if error, keep the defect's severity)."""

DEFAULT_DEFECT_RULE = ("URL009", "URL001", False)
"""Any other defect: a warning is suspicious (``URL009``), an error breaks the grammar
(``URL001``)."""

BREAKAGE_RULES: dict[str, str] = {
    "bad-hostname": "URL012",
    "bad-port": "URL012",
    "missing-host": "URL012",
    "port-out-of-range": "URL012",
    "hostnumber-out-of-range": "URL012",
    "bad-escape": "URL013",
    "bad-ftp-type": "URL014",
    "path-not-allowed": "URL014",
    "empty-address": "URL014",
    "missing-group": "URL014",
    "missing-slashes": "URL014",
}
"""Core defect code -> default-group rule: the defects that break a link for a reader.

These defects are also reported by the ``RFC1738`` group's rules above (``URL001``,
``URL009``); when both are selected, :func:`one_per_cause` keeps the default-group one, so
a URL is reported once per cause."""

_BREAKAGE_CODES = frozenset(BREAKAGE_RULES.values())
_GRAMMAR_CODES = frozenset({"URL001", "URL009"})  # the RFC1738 group's view of a defect


def one_per_cause(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The selected diagnostics less the RFC1738 group's twin of a breakage diagnostic.

    A defect in :data:`BREAKAGE_RULES` gives two diagnostics, the grammar rule's
    (``URL001``/``URL009``) and the breakage rule's (``URL012``-``URL014``), at the same
    place with the same message; when selection kept both, the breakage one (which names
    what a reader meets) stays.
    """
    broken = {
        (d.path, d.line, d.column, d.message) for d in diagnostics if d.code in _BREAKAGE_CODES
    }
    if not broken:
        return list(diagnostics)
    return [
        d
        for d in diagnostics
        if d.code not in _GRAMMAR_CODES or (d.path, d.line, d.column, d.message) not in broken
    ]


WHITESPACE_SENSITIVE_ORIGINS = frozenset(
    {"markdown-link", "markdown-autolink", "markdown-reference", "html-attribute", "man-macro"}
)
"""Document links whose target must not hold whitespace (reST removes it, so not reST)."""

MAX_URL_IN_MESSAGE = 200
"""Longest URL quoted in a message, in characters (longer ones end with ``...``)."""


def visible(text: str) -> str:
    """Return ``text`` on one line: controls as ``\\xNN``, undecodable bytes as ``\\udcNN``
    (:func:`urlsift.output.formats.visible_utf8`, the escaping of every human-readable output).

    Long text is cut at :data:`MAX_URL_IN_MESSAGE` characters.
    """
    if len(text) > MAX_URL_IN_MESSAGE:
        text = text[:MAX_URL_IN_MESSAGE] + "..."
    return visible_utf8(text)


# --- URL008: a bare URL that seems to continue on the next line ------------------------

_BLANK_TO_END = re.compile(r"\s*\Z")


def continuation(url: str, rest_of_line: str, url_line: str, next_line: str) -> str | None:
    """Return the next line's first word when a URL at a line end seems to continue there.

    The evidence is the core's (:func:`urlsift.extraction.wrap.continuation`, one definition for the
    scanner's join and this rule): lint warns on its looser "seems to continue" answers
    too, where the scanner joins only lines a client wrapped.

    Args:
        url: the URL as found (a bare URL that ends on its line).
        rest_of_line: what follows the URL on its line.
        url_line: the whole line the URL is on (for its quote prefix).
        next_line: the following line.

    Returns:
        The continuation word (sentence punctuation at its end removed), or None.
    """
    if rest_of_line.strip() or not url:
        return None
    found = wrap_evidence(url, url_line[: len(url_line) - len(rest_of_line)], next_line)
    return None if found is None else found.word


# --- Findings -> diagnostics -------------------------------------------------------------


def _column(finding: Finding, defect: Defect) -> int:
    """The defect's own column when the URL is on one line, written as it reads."""
    if defect.offset is None or finding.line != finding.end_line:
        return finding.column
    at = finding.raw.find(finding.url)
    if at < 0 or defect.offset > len(finding.url):
        return finding.column
    return finding.column + at + defect.offset


def _ip_literal(finding: Finding, defect: Defect) -> bool:
    """True for a host written as an IPv6 literal (``http://[::1]/``): RFC 2732, not broken."""
    return (
        defect.code == "bad-hostname"
        and defect.offset is not None
        and finding.url[defect.offset : defect.offset + 1] == "["
    )


def _diagnostic(
    finding: Finding, code: str, message: str, column: int, severity: LintSeverity | None = None
) -> Diagnostic:
    return Diagnostic(
        path=finding.path,
        line=finding.line,
        column=column,
        code=code,
        severity=severity or RULE_BY_CODE[code].severity,
        message=message,
        url=finding.url,
        end_line=finding.end_line,
        end_column=finding.end_column,
    )


def _continued_message(url: str, word: str) -> str:
    return (
        f"{visible(url)}: ends the line and seems to continue with "
        f"{visible(word)!r} on the next line; wrap it as <URL:...>"
    )


def _defect_message(code: str, finding: Finding, defect: Defect) -> str:
    url = visible(finding.url)
    if defect.code == "continued-line" and finding.alternatives:
        # The core joined the lines: name the URL as cut and its continuation.
        cut = finding.alternatives[0]
        if finding.url.startswith(cut):
            return _continued_message(cut, finding.url[len(cut) :])
    if defect.code == "possible-wrap" and finding.alternatives:
        # The core kept the cut reading and offers the joined one: name both.
        joined = finding.alternatives[0]
        if joined.startswith(finding.url):
            return _continued_message(finding.url, joined[len(finding.url) :])
    if code == "URL003" and finding.alternatives:
        readings = " or ".join(visible(alt) for alt in finding.alternatives)
        return f"{url}: line break after a hyphen: reads {url} or {readings}"
    return f"{url}: {defect.message}"


def diagnose_finding(finding: Finding, lines: Sequence[str] | None = None) -> list[Diagnostic]:
    """Apply every text rule to one finding.

    Args:
        finding: a URL found in a document.
        lines: the document's lines (without line breaks), for ``URL008``; without them
            that rule is not applied.

    Returns:
        The diagnostics, with their rules' default severities.
    """
    out: list[Diagnostic] = []
    # A URL with a placeholder is a pattern, not a link: only rules selected by name (the
    # RFC1738 group) see its breakage.
    template = URL_PLACEHOLDER.search(finding.url) is not None
    for defect in finding.defects:
        if_warning, if_error, inherit = DEFECT_RULES.get(defect.code, DEFAULT_DEFECT_RULE)
        code = if_warning if defect.severity == "warning" else if_error
        severity = defect.severity if inherit and defect.severity == "warning" else None
        message = _defect_message(code, finding, defect)
        column = _column(finding, defect)
        out.append(_diagnostic(finding, code, message, column, severity))
        breakage = BREAKAGE_RULES.get(defect.code)
        if breakage is not None and not template and not _ip_literal(finding, defect):
            out.append(
                _diagnostic(finding, breakage, f"{visible(finding.url)}: {defect.message}", column)
            )
    if template:
        return out
    if finding.origin in WHITESPACE_SENSITIVE_ORIGINS and any(c.isspace() for c in finding.raw):
        message = (
            f"{visible(finding.raw)}: whitespace inside a link target "
            f"({finding.origin}); read as {visible(finding.url)}"
        )
        out.append(_diagnostic(finding, "URL004", message, finding.column))
    if (
        lines is not None
        and finding.origin == "bare"
        and finding.line == finding.end_line
        and finding.line < len(lines)
    ):
        line = lines[finding.line - 1]
        # Only a URL that ends its line can continue; the rest of the line is not copied
        # (one line can hold many URLs: copying it for each was quadratic).
        at_end = _BLANK_TO_END.match(line, finding.end_column - 1) is not None
        word = continuation(finding.url, "", line, lines[finding.line]) if at_end else None
        if word is not None:
            message = _continued_message(finding.url, word)
            out.append(_diagnostic(finding, "URL008", message, finding.column))
    return out


class _Lines(Sequence[str]):
    """A document's lines (without line breaks, a final ``\\r`` dropped), cut from the text
    when asked: a list of every line would hold a string per line (15 bytes per byte of
    ``# H`` lines) for the few URLs that end one."""

    __slots__ = ("_index",)

    def __init__(self, text: str) -> None:
        self._index = LineIndex(text)

    def __len__(self) -> int:
        return self._index.line_count

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        index = self._index
        return index.text[index.line_start(i + 1) : index.line_end(i + 1)].removesuffix("\r")


def diagnose(findings: Iterable[Finding], text: str | None = None) -> list[Diagnostic]:
    """Apply every text rule to the findings of one document.

    Args:
        findings: the document's findings.
        text: the document's text (for ``URL008``).

    Returns:
        The diagnostics in document order, with default severities, without duplicates.
    """
    lines = None if text is None else _Lines(text)
    seen: set[tuple[int, int, str, str]] = set()
    out: list[Diagnostic] = []
    for finding in findings:
        for diagnostic in diagnose_finding(finding, lines):
            key = (diagnostic.line, diagnostic.column, diagnostic.code, diagnostic.message)
            if key not in seen:
                seen.add(key)
                out.append(diagnostic)
    return out


# --- Suppression comments ----------------------------------------------------------------

_SUPPRESSION = re.compile(
    r"urlsift:[ \t]*ignore(?P<kind>-next-line|-file)?(?:\[(?P<codes>[^\]\n]*)\])?"
)


@dataclass(frozen=True, slots=True)
class Suppressions:
    """The suppression comments of one document.

    ``urlsift: ignore`` silences its own line, ``urlsift: ignore-next-line`` the next
    one, ``urlsift: ignore-file`` the whole document; each optionally lists selectors in
    brackets (``[URL003, URL005]``, ``[ambiguous-hyphen]``, ``[URL0]``), else all codes.
    Selectors that name no rule are ignored (they silence nothing).
    """

    lines: dict[int, frozenset[str] | None]
    """1-based line -> codes silenced there (None: all)."""
    file: frozenset[str] | None
    """Codes silenced in the whole document (None: all; empty: none)."""

    @classmethod
    def parse(cls, text: str) -> Suppressions:
        """Read the suppression comments of a document.

        Args:
            text: the document.

        Returns:
            The suppressions; the syntax is the same in every comment style.
        """
        from .config import resolve_selectors_lenient

        lines: dict[int, frozenset[str] | None] = {}
        file: frozenset[str] | None = frozenset()
        if "urlsift:" not in text:
            return cls(lines, file)
        for number, line in enumerate(text.split("\n"), start=1):
            for m in _SUPPRESSION.finditer(line):
                raw = m.group("codes")
                codes = None if raw is None else resolve_selectors_lenient(raw.split(","))
                kind = m.group("kind")
                if kind == "-file":
                    file = None if codes is None or file is None else file | codes
                    continue
                target = number + 1 if kind == "-next-line" else number
                old = lines.get(target, frozenset())
                lines[target] = None if codes is None or old is None else old | codes
        return cls(lines, file)

    def silences(self, diagnostic: Diagnostic) -> bool:
        """Return True when a comment silences ``diagnostic``."""
        if self.file is None or diagnostic.code in self.file:
            return True
        if diagnostic.line not in self.lines:
            return False
        codes = self.lines[diagnostic.line]
        return codes is None or diagnostic.code in codes
