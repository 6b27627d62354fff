"""Records and the rule table of ``urlsift lint``.

Strategy: a rule is data (code, name, default severity, one-line summary); the table
:data:`RULES` is the single source for the CLI's ``--select``/``--ignore``, the documented
table in ``docs/lint.md`` (a test compares them) and the SARIF ``rules`` array. Codes are
stable: a rule may be reworded, never renumbered. ``URL0xx`` rules look at the text alone;
``URL1xx`` rules need ``--check-links``.

Rules come in two groups. The default group reports what breaks a link for a reader (an
unclosed wrapper, whitespace or a hyphen break inside a link, an impossible host or port, a
malformed escape, a URL its scheme leaves a client nothing to act on, a relative link to a
file or anchor that does not exist, and with ``--check-links`` dead links). The
``RFC1738`` group (:data:`OPT_IN_GROUPS`) holds the RFC's full rigour (unsafe characters
such as ``~``, reserved characters in a query, ports, passwords, ``host?query``): it is
selected only by name (``--extend-select RFC1738``, ``ALL``, a code) or by ``strict = true``,
as ruff's preview or pedantic rules are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .._model import Defect, Kind
from ._addresses import redact

LintSeverity = Literal["error", "warning"]
"""``error`` fails the run; ``warning`` is reported and also fails it unless ignored."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One lint rule."""

    code: str
    """Stable identifier, e.g. ``URL003``."""
    name: str
    """Stable kebab-case name, e.g. ``ambiguous-hyphen`` (accepted wherever a code is)."""
    severity: LintSeverity
    """Default severity."""
    summary: str
    """One line: what the rule reports."""
    needs_network: bool = False
    """True for the rules that only ``--check-links`` can report."""
    group: Literal["default", "RFC1738", "EXPLAIN"] = "default"
    """``default``: selected unless deselected; ``RFC1738``: opt-in (RFC 1738 strictness);
    ``EXPLAIN``: opt-in listing of what the linter could not judge."""


RULES: tuple[Rule, ...] = (
    Rule(
        "URL001",
        "invalid-syntax",
        "error",
        "The URL breaks the RFC 1738 §5 grammar of its scheme (the message names the rule).",
        group="RFC1738",
    ),
    Rule(
        "URL002",
        "unclosed-wrapper",
        "error",
        "A `<URL:` wrapper or `<scheme:` angle bracket is never closed.",
    ),
    Rule(
        "URL003",
        "ambiguous-hyphen",
        "warning",
        "The URL is broken across lines right after a hyphen: two readings are possible.",
    ),
    Rule(
        "URL004",
        "whitespace-in-url",
        "error",
        "Raw whitespace inside a URL outside a `<URL:...>` or `<...>` wrapper "
        "(a Markdown, reST or HTML link target, or a `URL:` prefix).",
    ),
    Rule(
        "URL005",
        "unsafe-character",
        "error",
        'A character RFC 1738 §2.2 calls unsafe (space, `<>"{}|\\^~[]` and backtick, '
        "controls, non-ASCII) is left unencoded.",
        group="RFC1738",
    ),
    Rule(
        "URL006",
        "password-in-url",
        "warning",
        "The URL carries a password (RFC 1738 §6: clearly unwise).",
        group="RFC1738",
    ),
    Rule(
        "URL007",
        "non-default-port",
        "warning",
        "The URL names a port other than its scheme's default (RFC 1738 §6).",
        group="RFC1738",
    ),
    Rule(
        "URL008",
        "continued-line",
        "warning",
        "A bare URL ends at a line end and seems to continue on the next line: "
        "wrap it as `<URL:...>`.",
    ),
    Rule(
        "URL009",
        "suspicious-url",
        "warning",
        "A URL the grammar allows but that is likely wrong or deceptive "
        "(user name that looks like a host, encoded CR/LF/NUL, port or address out of range, "
        "`?query` without a path).",
        group="RFC1738",
    ),
    Rule(
        "URL010",
        "unreadable-file",
        "error",
        "A file could not be read or decoded as text.",
    ),
    Rule(
        "URL011",
        "file-too-large",
        "warning",
        "A file is larger than `max-file-size` (default 10 MiB): it was not linted.",
    ),
    Rule(
        "URL012",
        "bad-host",
        "error",
        "The host or port cannot be reached as written: a character no host name has "
        "(`exa_mple.com`), an empty label, a port that is no number or above 65535 (`:8o8o`), "
        "an IPv4 group above 255.",
    ),
    Rule(
        "URL013",
        "bad-escape",
        "error",
        "A `%` not followed by two hex digits: clients read it differently from what was meant.",
    ),
    Rule(
        "URL014",
        "unusable-url",
        "error",
        "The scheme's grammar leaves a client nothing to act on: an ftp `;type=` other than "
        "a, i or d, a telnet URL with a path, `news:` or `mailto:` with nothing after the "
        "colon, no `//` after an ip-based scheme.",
    ),
    Rule(
        "URL015",
        "missing-file",
        "error",
        "A relative link (Markdown, reST `:doc:`, HTML `href`/`src`, an image or stylesheet) "
        "names a document, image or stylesheet that does not exist, nor any source the "
        "site generator builds it from.",
    ),
    Rule(
        "URL016",
        "missing-anchor",
        "error",
        "A link's `#anchor` names no heading, label or id of its target document.",
    ),
    Rule(
        "URL017",
        "unjudged-link",
        "warning",
        "A relative link or anchor the linter cannot judge (opt-in: `--extend-select "
        "EXPLAIN`): the message says why (outside the site's source folder, written at "
        "build time, ignored by .gitignore, a template placeholder, content it cannot see).",
        group="EXPLAIN",
    ),
    Rule(
        "URL101",
        "broken-link",
        "error",
        "The link does not resolve: an HTTP status that is not accepted, or a network error.",
        needs_network=True,
    ),
    Rule(
        "URL102",
        "redirected-link",
        "warning",
        "The link resolves through redirects (the message gives the final URL).",
        needs_network=True,
    ),
    Rule(
        "URL103",
        "link-timeout",
        "error",
        "The server did not answer in time (after the retries).",
        needs_network=True,
    ),
    Rule(
        "URL104",
        "private-redirect",
        "error",
        "A redirect from a public address leads into a loopback, private, link-local or "
        "other special address; not followed.",
        needs_network=True,
    ),
)

RULE_BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
RULE_BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES}

OPT_IN_GROUPS: dict[str, frozenset[str]] = {
    "RFC1738": frozenset(rule.code for rule in RULES if rule.group == "RFC1738"),
    "EXPLAIN": frozenset(rule.code for rule in RULES if rule.group == "EXPLAIN"),
}
"""Opt-in group name (a selector, any case) -> its codes."""

DEFAULT_CODES = frozenset(rule.code for rule in RULES if rule.group == "default")
"""The codes reported when nothing is selected."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One URL found in a document, before the rules judge it."""

    path: str
    """The document's path as it will be reported (relative to the working folder)."""
    url: str
    """The primary reading of the URL."""
    alternatives: tuple[str, ...]
    """Other readings (e.g. without the hyphen at an ambiguous line break)."""
    raw: str
    """The exact source text of the span."""
    line: int
    """1-based line of the span's first character."""
    column: int
    """1-based column of the span's first character."""
    end_line: int
    """1-based line of the span's last character."""
    end_column: int
    """1-based column just past the span's last character (on ``end_line``)."""
    origin: str
    """Where the URL was written: an appendix form (``wrapped``, ``angle``, ``prefixed``,
    ``bare``) or a document link (``markdown-link``, ``markdown-autolink``,
    ``markdown-reference``, ``rst-link``, ``rst-target``, ``html-attribute``, ``man-macro``)."""
    kind: Kind
    """The appendix form the core scanner saw (``bare`` for document links)."""
    defects: tuple[Defect, ...] = ()
    """The core's defects for this URL (scanner, rejoiner and validator)."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem to report: ``path:line:col: CODE message``."""

    path: str
    """The document's path (relative to the working folder where possible)."""
    line: int
    """1-based line."""
    column: int
    """1-based column."""
    code: str
    """The rule's code, e.g. ``URL001``."""
    severity: LintSeverity
    """Effective severity (after configuration)."""
    message: str
    """What is wrong, in words; names the BNF rule for ``URL001``."""
    url: str | None = None
    """The URL concerned (primary reading), when there is one."""
    end_line: int | None = None
    """1-based line of the span's end, when known."""
    end_column: int | None = None
    """1-based column just past the span's end, when known."""

    def __post_init__(self) -> None:
        # A password written in a URL is never shown, whatever the output format: the
        # message and the URL carry ``user:***@`` instead.
        for name in ("message", "url"):
            value = getattr(self, name)
            if value is not None and "@" in value:
                object.__setattr__(self, name, redact(value))

    @property
    def rule(self) -> Rule:
        """The rule this diagnostic reports."""
        return RULE_BY_CODE[self.code]

    def sort_key(self) -> tuple[str, int, int, str, str]:
        """Order: path, line, column, code, message."""
        return (self.path, self.line, self.column, self.code, self.message)

    def to_dict(self) -> dict[str, object]:
        """Return the diagnostic as a JSON-ready mapping (the ``json``/``jsonl`` object)."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "name": self.rule.name,
            "severity": self.severity,
            "message": self.message,
            "url": self.url,
        }
