"""Per-scheme validators for RFC 1738 §3/§5, held in a registry object.

Strategy: a scheme's check walks the scheme-specific part once, splitting it at the
delimiters its BNF production names (``//``, ``@``, ``:``, ``/``, ``?``, ``;type=``,
``%09``...) with ``str.find`` and checking each component span against the compiled rule
from :mod:`urlsift.grammar.rfc`. The rule's ``fullmatch`` decides; only when it fails does a
diagnostic pass find the first offending position. Every finding is a
:class:`~urlsift._model.Defect` appended to a :class:`SchemeContext`, with the BNF line in
its message and its offset in the URL as given; nothing raises for bad input.

Invariants:

* Offsets are always into the full URL string (fragment included); spans are passed as
  ``(start, end)`` pairs, never as re-based substrings.
* Characters that are wrong anywhere (a ``%`` that is no escape, unsafe, control and
  non-ASCII characters) are reported once by the lexical scan in :mod:`urlsift.validation.rules`;
  component checks skip over them and report only what their own rule forbids (reserved
  characters out of place, a non-digit in a port ...), so one mistake is one defect. The
  exceptions are rules narrower than "any character": a host, a port or a group with an
  unsafe character breaks its own rule too and says so (``bad-hostname`` ...).
* Each scheme is data: :class:`IpScheme` rows (the §3.1 common syntax plus a path check)
  and :class:`OpaqueScheme` rows (mailto, news). :func:`default_registry` builds a fresh
  :class:`SchemeRegistry` from that table on every call; there is no mutable module state.
* Everything is linear in the URL's length: each span is scanned a bounded number of times.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Literal, Protocol

from .._model import Defect, Policy
from .._record import field, record
from ..errors import ConfigError
from ..grammar import rfc as g

__all__ = [
    "DEFAULT_MAX_DEFECTS_PER_CODE",
    "GenericScheme",
    "IpScheme",
    "Level",
    "OpaqueScheme",
    "Scheme",
    "SchemeContext",
    "SchemeRegistry",
    "check_group",
    "check_host",
    "check_login",
    "check_port",
    "check_span",
    "default_registry",
    "quote",
]

Level = Literal["error", "warning", "lenient"]
"""How loud a finding is: ``lenient`` is a warning, or an error under ``Policy(strict=True)``."""

_MAX_QUOTED = 60
"""Values longer than this are shortened when quoted in messages."""

DEFAULT_MAX_DEFECTS_PER_CODE = 8
"""At most this many defects of one code are kept per URL (the first ones found), so that
a hostile URL (``;a;a;a...`` in prospero) cannot produce a defect per character."""


def quote(text: str) -> str:
    """Quote a piece of a URL for a message, shortened and with controls made visible.

    Args:
        text: the text to quote.

    Returns:
        The text in single quotes; longer than 60 characters, its middle is elided.
    """
    if len(text) > _MAX_QUOTED:
        text = text[: _MAX_QUOTED // 2] + "..." + text[-_MAX_QUOTED // 2 :]
    shown = "".join(ch if ch.isprintable() else _escape(ch) for ch in text)
    return f"'{shown}'"


def _escape(ch: str) -> str:
    # A visible escape for a control, format or lone-surrogate character.
    code_point = ord(ch)
    return f"\\x{code_point:02x}" if code_point < 0x100 else f"\\u{code_point:04x}"


def severity_of(level: Level, strict: bool) -> Literal["error", "warning"]:
    """The severity of a finding at ``level``: ``lenient`` is an error only when strict."""
    return "error" if level == "error" or (level == "lenient" and strict) else "warning"


@record(frozen=False)
class SchemeContext:
    """What a scheme check reads (the URL, the policy) and writes (defects, parts).

    A mutable accumulator, on purpose: it lives for a single
    :func:`urlsift.validation.rules.validate` call and is frozen into a ``Validation`` at the end.
    """

    url: str
    """The URL as given, fragment included (offsets point into it)."""
    policy: Policy = field(default_factory=Policy)
    """Strictness in force."""
    defects: list[Defect] = field(default_factory=list)
    """Findings so far, in the order they were made."""
    parts: list[tuple[str, str]] = field(default_factory=list)
    """Parsed components so far, in URL order."""
    counts: dict[str, int] = field(default_factory=dict)
    """Defects reported so far per code (see ``DEFAULT_MAX_DEFECTS_PER_CODE``)."""

    def report(self, code: str, offset: int, message: str, level: Level = "error") -> None:
        """Record a defect.

        Args:
            code: stable kebab-case code.
            offset: offset into :attr:`url`.
            message: explanation naming the BNF rule.
            level: ``error``, ``warning``, or ``lenient`` (warning unless strict).

        Beyond ``DEFAULT_MAX_DEFECTS_PER_CODE`` defects of one code, further ones are
        counted in :attr:`counts` but not kept.
        """
        seen = self.counts.get(code, 0)
        self.counts[code] = seen + 1
        if seen >= DEFAULT_MAX_DEFECTS_PER_CODE:
            return
        self.defects.append(Defect(code, message, severity_of(level, self.policy.strict), offset))

    def part(self, name: str, start: int, end: int) -> None:
        """Record a parsed component ``url[start:end]`` under ``name``."""
        self.parts.append((name, self.url[start:end]))

    def has_errors(self) -> bool:
        """Return True when any recorded defect is an error."""
        return any(d.severity == "error" for d in self.defects)


class Scheme(Protocol):
    """What the registry holds: a named check of a scheme-specific part."""

    @property
    def name(self) -> str:
        """Lower-case scheme name."""
        ...

    @property
    def default_port(self) -> int | None:
        """The port the scheme's protocol uses when none is given, if any."""
        ...

    def check(self, ctx: SchemeContext, start: int, end: int) -> None:
        """Check ``ctx.url[start:end]``, the part after ``scheme:``, fragment excluded."""
        ...


# ---------------------------------------------------------------------------------------
# Component checks shared by the schemes
# ---------------------------------------------------------------------------------------


def check_span(
    ctx: SchemeContext, rule: str, start: int, end: int, code: str = "reserved-character"
) -> bool:
    """Check ``ctx.url[start:end]`` against a component rule; report the first offender.

    Args:
        ctx: the context to report into.
        rule: a key of ``_grammar.COMPONENT_PATTERNS`` (and of ``_grammar.BNF``).
        start: offset of the span's first character.
        end: offset just past the span.
        code: defect code for a character the rule forbids (``reserved-character`` by
            default; e.g. ``bad-port`` for digits).

    Returns:
        True when no structural defect was found (lexical ones may still exist).
    """
    pattern = g.COMPONENT_PATTERNS[rule]
    url = ctx.url
    if pattern.fullmatch(url, start, end):
        return True
    pos = start
    while pos < end:
        match = pattern.match(url, pos, end)
        pos = match.end() if match else pos
        if pos >= end:
            return True
        run = g.LEXICAL_RUN_PATTERN.match(url, pos, end)
        if run:
            pos = run.end()
            continue
        ch = url[pos]
        if ch in g.RESERVED:
            what = f"{quote(ch)} is reserved here and must be encoded as %{ord(ch):02X}"
        else:
            what = f"{quote(ch)} is not allowed here"
        ctx.report(code, pos, f"{g.BNF[rule]}: {what}")
        return False
    return True


def _all_digits(ctx: SchemeContext, start: int, end: int) -> int | None:
    # Offset of the first non-digit in the span (None when all are digits).
    match = g.COMPONENT_PATTERNS["digits"].match(ctx.url, start, end)
    stop = match.end() if match else start
    return None if stop >= end else stop


def check_host(ctx: SchemeContext, start: int, end: int) -> bool:
    """Check a non-empty ``host = hostname | hostnumber`` span.

    Args:
        ctx: the context to report into.
        start: offset of the host's first character.
        end: offset just past the host.

    Returns:
        True when the host is a hostname or a hostnumber.
    """
    url = ctx.url
    if g.HOST_PATTERN.fullmatch(url, start, end):
        if g.HOSTNUMBER_PATTERN.fullmatch(url, start, end):
            _check_hostnumber_range(ctx, start, end)
        return True
    host = url[start:end]
    found: tuple[int, str, str] | None = None
    for rule, pattern, what in g.HOST_DIAGNOSTICS:
        match = pattern.search(host)
        if match and (found is None or match.start() < found[0]):
            found = (match.start(), rule, what)
    if found is not None:
        pos, rule, what = found
        message = f"{g.BNF[rule]}: {quote(host[pos])} {what}"
    else:
        # Every label is a well-formed domainlabel, so the last one starts with a digit.
        pos = host.rfind(".") + 1
        message = (
            f"{g.BNF['toplabel']}: the last label {quote(host[pos:])} starts with a digit, "
            f"and {quote(host)} is no hostnumber ({g.BNF['hostnumber']})"
        )
    ctx.report("bad-hostname", start + pos, message)
    return False


def _check_hostnumber_range(ctx: SchemeContext, start: int, end: int) -> None:
    # hostnumber = digits "." digits "." digits "." digits has no bound; IPv4 needs 0-255.
    pos = start
    for group in ctx.url[start:end].split("."):
        if len(group) > 3 or int(group) > 255:
            ctx.report(
                "hostnumber-out-of-range",
                pos,
                f"{g.BNF['hostnumber']}: {quote(group)} is above 255, no IPv4 address",
                "warning",
            )
            return
        pos += len(group) + 1


def check_port(ctx: SchemeContext, scheme: Scheme, start: int, end: int) -> bool:
    """Check a ``port = digits`` span and flag ports other than the scheme's default.

    Args:
        ctx: the context to report into.
        scheme: the scheme whose default port applies.
        start: offset just after the ``:``.
        end: offset just past the port.

    Returns:
        True when the port is made of digits.
    """
    if start == end:
        ctx.report("bad-port", start, f"{g.BNF['port']}: empty after ':' (digits = 1*digit)")
        return False
    bad = _all_digits(ctx, start, end)
    if bad is not None:
        ctx.report("bad-port", bad, f"{g.BNF['port']}: {quote(ctx.url[bad])} is not a digit")
        return False
    finding = port_finding(scheme.name, scheme.default_port, ctx.url[start:end])
    if finding is not None:
        ctx.report(finding[0], start, finding[1], finding[2])
    return True


@functools.lru_cache(maxsize=512)
def port_finding(name: str, default: int | None, digits: str) -> tuple[str, str, Level] | None:
    """What :func:`check_port` reports on a port made of digits: (code, message, level).

    None for the scheme's default port (or any port of a scheme without one). A pure
    function of its arguments, cached: the validator's fast path reports a port's finding
    without a :class:`SchemeContext` (the same few ports recur in real text).

    Args:
        name: the scheme's name (for the message).
        default: the scheme's default port, if it has one.
        digits: the port as written, one or more ASCII digits.
    """
    if len(digits) > 5 or int(digits) > 65535:
        return (
            "port-out-of-range",
            f"{g.BNF['port']}: {quote(digits)} is above 65535, no TCP port",
            "warning",
        )
    value = int(digits)
    if default is None or value == default:
        return None
    if value < 1024:
        return (
            "reserved-port",
            f"CAUTION: port {value} is not {name}'s default {default} and lies in the "
            "reserved range below 1024, where another protocol's server may be made to act "
            "on this URL (RFC 1738 §6)",
            "warning",
        )
    return (
        "non-default-port",
        f"port {value} is not {name}'s default {default} (RFC 1738 §6)",
        "warning",
    )


def _decode(text: str) -> str:
    # Percent-decoding, octet by octet, into code points 0-255 (enough to compare shapes).
    return g.ESCAPE_PATTERN.sub(lambda m: chr(int(m.group()[1:], 16)), text)


def _check_deceptive(ctx: SchemeContext, user_start: int, user_end: int, host: str) -> None:
    # A user name shaped like a host name ("www.bank.com@evil.example") hides the real host.
    decoded = _decode(ctx.url[user_start:user_end])
    head = decoded
    for stop in "/?:@":
        head = head.split(stop, 1)[0]
    if "." in head and g.HOST_PATTERN.fullmatch(head):
        ctx.report(
            "deceptive-userinfo",
            user_start,
            f"{g.BNF['login']}: the user name {quote(decoded)} looks like a host, but the "
            f"URL leads to the host {quote(host)}",
            "warning",
        )


def check_login(ctx: SchemeContext, scheme: IpScheme, start: int, end: int) -> None:
    """Check ``login = [ user [ ":" password ] "@" ] hostport`` in ``ctx.url[start:end]``.

    Args:
        ctx: the context to report into.
        scheme: the scheme, for what its production allows (user, port, empty host).
        start: offset just after ``//``.
        end: offset of the ``/`` that ends the login, or of the end of the part.
    """
    url = ctx.url
    at = url.rfind("@", start, end)
    host_start = start
    user_span: tuple[int, int] | None = None
    if at != -1:
        host_start = at + 1
        if not scheme.userinfo:
            ctx.report(
                "userinfo-not-allowed",
                start,
                f"{g.BNF[scheme.rule]}: no user name or password is allowed before '@'",
            )
        colon = url.find(":", start, at)
        user_end = at if colon == -1 else colon
        ctx.part("user", start, user_end)
        check_span(ctx, "user", start, user_end)
        user_span = (start, user_end)
        if colon != -1:
            ctx.part("password", colon + 1, at)
            check_span(ctx, "password", colon + 1, at)
            if at > colon + 1:
                ctx.report(
                    "password-in-url",
                    colon + 1,
                    f"{g.BNF['login']}: the URL carries a password; "
                    "URLs with secret passwords are unwise (RFC 1738 §6)",
                    "warning",
                )
    # An IPv6 literal "[...]" (not RFC 1738) is reported as one bad host, colons and all.
    bracket = url.find("]", host_start, end) if url.startswith("[", host_start, end) else -1
    colon = url.find(":", max(host_start, bracket), end)
    host_end = end if colon == -1 else colon
    if host_start == host_end:
        if not scheme.host_optional:
            ctx.report("missing-host", host_start, f"{g.BNF['hostport']}: the host is empty")
    else:
        ctx.part("host", host_start, host_end)
        check_host(ctx, host_start, host_end)
    if user_span is not None:
        _check_deceptive(ctx, user_span[0], user_span[1], url[host_start:host_end])
    if colon != -1:
        ctx.part("port", colon + 1, end)
        if scheme.port:
            check_port(ctx, scheme, colon + 1, end)
        else:
            ctx.report("port-not-allowed", colon, f"{g.BNF[scheme.rule]}: no ':port' is allowed")


# ---------------------------------------------------------------------------------------
# The §3.1 common Internet scheme syntax, as one parameterised check
# ---------------------------------------------------------------------------------------

PathCheck = Callable[[SchemeContext, "IpScheme", int, int], None]
"""Checks the url-path ``ctx.url[start:end]`` (after the ``/`` that follows hostport)."""


@record
class IpScheme:
    """A scheme following ``"//" login [ "/" urlpath ]``, described as a table row."""

    name: str
    """Lower-case scheme name."""
    rule: str
    """Key of its production in ``_grammar.BNF`` (e.g. ``ftpurl``), quoted in messages."""
    default_port: int | None
    """Default port, for the ``non-default-port`` / ``reserved-port`` warnings."""
    path: PathCheck
    """Check of the url-path."""
    userinfo: bool = False
    """Whether ``user[:password]@`` is allowed (``login`` rather than ``hostport``)."""
    port: bool = True
    """Whether ``:port`` is allowed."""
    host_optional: bool = False
    """Whether the host may be empty (file)."""
    path_required: bool = False
    """Whether the ``/`` after hostport is required."""
    missing_path_code: str = "missing-path"
    """Defect code when a required ``/`` is absent."""
    search_without_path: bool = False
    """Whether ``host?search`` (no ``/``) is tolerated as a lenient defect (http, https)."""
    clean: re.Pattern[str] | None = None
    """Optional fast path: a pattern whose full match of the part after ``scheme:`` proves the
    URL valid, its groups (all named, in URL order) being the parts; the only defects left
    are those of :func:`check_port` on a ``port`` group and of the lexical scan of ``~``,
    which the validator reruns (see ``_grammar.clean_ip_schemepart``). Any scheme object
    may offer this attribute; the validator falls back to :meth:`check` when it is absent or
    does not match."""

    def check(self, ctx: SchemeContext, start: int, end: int) -> None:
        """Check ``ctx.url[start:end]``, the part after ``scheme:``.

        Args:
            ctx: the context to report into.
            start: offset just after the scheme's ``:``.
            end: offset of the end of the URL (before any ``#fragment``).
        """
        url = ctx.url
        if not url.startswith("//", start, end):
            ctx.report(
                "missing-slashes", start, f"{g.BNF[self.rule]}: '//' must follow '{self.name}:'"
            )
            return
        login_start = start + 2
        slash = url.find("/", login_start, end)
        login_end = end if slash == -1 else slash
        query = url.find("?", login_start, login_end) if self.search_without_path else -1
        if query != -1:
            login_end = query
        check_login(ctx, self, login_start, login_end)
        if query != -1:
            ctx.report(
                "search-without-path",
                query,
                f"{g.BNF[self.rule]}: '?' search must follow a '/' path",
                "lenient",
            )
            ctx.part("search", query + 1, end)
            check_span(ctx, "search", query + 1, end)
        elif slash == -1:
            if self.path_required:
                ctx.report(
                    self.missing_path_code,
                    end,
                    f"{g.BNF[self.rule]}: the '/' after the host and what follows are required",
                )
        else:
            self.path(ctx, self, slash + 1, end)


def _ftp_path(ctx: SchemeContext, scheme: IpScheme, start: int, end: int) -> None:
    # "/" fpath [ ";type=" ftptype ]; ";" is reserved in fpath, so the first one starts it.
    url = ctx.url
    semi = url.find(";", start, end)
    type_start = semi + len(";type=")
    if semi != -1 and url[semi:type_start].lower() == ";type=":
        ctx.part("path", start, semi)
        check_span(ctx, "fpath", start, semi)
        ctx.part("type", type_start, end)
        code = url[type_start:end]
        if len(code) != 1 or code not in "AIDaid":
            shown = quote(code) if code else "nothing"
            ctx.report(
                "bad-ftp-type", type_start, f"{g.BNF['ftptype']}: got {shown} after ';type='"
            )
        return
    ctx.part("path", start, end)
    check_span(ctx, "fpath", start, end)


def _file_path(ctx: SchemeContext, scheme: IpScheme, start: int, end: int) -> None:
    ctx.part("path", start, end)
    check_span(ctx, "fpath", start, end)


def _http_path(ctx: SchemeContext, scheme: IpScheme, start: int, end: int) -> None:
    # "/" hpath [ "?" search ]
    query = ctx.url.find("?", start, end)
    path_end = end if query == -1 else query
    ctx.part("path", start, path_end)
    check_span(ctx, "hpath", start, path_end)
    if query != -1:
        ctx.part("search", query + 1, end)
        check_span(ctx, "search", query + 1, end)


def _gopher_path(ctx: SchemeContext, scheme: IpScheme, start: int, end: int) -> None:
    # [ gtype [ selector [ "%09" search [ "%09" gopher+_string ] ] ] ]
    url = ctx.url
    if start == end:
        return
    gtype_end = start + 3 if g.ESCAPE_PATTERN.match(url, start, end) else start + 1
    ctx.part("gtype", start, gtype_end)
    pieces = (("selector", "selector"), ("search", "gopher-search"))
    pos = gtype_end
    for name, rule in pieces:
        tab = url.find("%09", pos, end)
        piece_end = end if tab == -1 else tab
        ctx.part(name, pos, piece_end)
        check_span(ctx, rule, pos, piece_end)
        if tab == -1:
            return
        pos = tab + 3
    ctx.part("gopher+", pos, end)
    check_span(ctx, "gopher+_string", pos, end)


def check_group(ctx: SchemeContext, start: int, end: int) -> bool:
    """Check ``group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]``.

    Args:
        ctx: the context to report into.
        start: offset of the group's first character.
        end: offset just past the group.

    Returns:
        True when no ``bad-news-group`` or ``missing-group`` defect was found.
    """
    url = ctx.url
    if start == end:
        ctx.report("missing-group", start, f"{g.BNF['group']}: the group name is empty")
        return False
    if g.GROUP_PATTERN.fullmatch(url, start, end):
        return True
    first = url[start]
    if not (first.isascii() and first.isalpha()):
        ctx.report(
            "bad-news-group",
            start,
            f"{g.BNF['group']}: a group name starts with a letter, not {quote(first)}",
        )
        return False
    return check_span(ctx, "group", start + 1, end, code="bad-news-group")


def _nntp_path(ctx: SchemeContext, scheme: IpScheme, start: int, end: int) -> None:
    # "/" group [ "/" digits ]
    url = ctx.url
    slash = url.find("/", start, end)
    group_end = end if slash == -1 else slash
    if start < group_end:
        ctx.part("group", start, group_end)
    check_group(ctx, start, group_end)
    if slash == -1:
        return
    ctx.part("article", slash + 1, end)
    if slash + 1 == end:
        ctx.report(
            "bad-article-number",
            end,
            f"{g.BNF['nntpurl']}: the article number after '/' is empty ({g.BNF['digits']})",
        )
        return
    bad = _all_digits(ctx, slash + 1, end)
    if bad is not None:
        ctx.report(
            "bad-article-number",
            bad,
            f"{g.BNF['digits']} (nntp article number): {quote(url[bad])} is not a digit",
        )


def _telnet_path(ctx: SchemeContext, scheme: IpScheme, start: int, end: int) -> None:
    # [ "/" ] and nothing after it.
    if start < end:
        ctx.report(
            "path-not-allowed", start, f"{g.BNF['telneturl']}: nothing may follow the final '/'"
        )


def _wais_path(ctx: SchemeContext, scheme: IpScheme, start: int, end: int) -> None:
    # "/" database [ "?" search | "/" wtype "/" wpath ]
    url = ctx.url
    query = url.find("?", start, end)
    slash = url.find("/", start, end if query == -1 else query)
    if slash == -1:
        db_end = end if query == -1 else query
        ctx.part("database", start, db_end)
        check_span(ctx, "database", start, db_end)
        if query != -1:
            ctx.part("search", query + 1, end)
            check_span(ctx, "search", query + 1, end)
        return
    ctx.part("database", start, slash)
    check_span(ctx, "database", start, slash)
    second = url.find("/", slash + 1, end)
    if second == -1:
        ctx.part("wtype", slash + 1, end)
        check_span(ctx, "wtype", slash + 1, end)
        ctx.report("missing-wpath", end, f"{g.BNF['waisdoc']}: '/' wpath must follow the wtype")
        return
    ctx.part("wtype", slash + 1, second)
    check_span(ctx, "wtype", slash + 1, second)
    ctx.part("wpath", second + 1, end)
    check_span(ctx, "wpath", second + 1, end)


def _prospero_path(ctx: SchemeContext, scheme: IpScheme, start: int, end: int) -> None:
    # "/" ppath *[ ";" fieldname "=" fieldvalue ]
    url = ctx.url
    semi = url.find(";", start, end)
    path_end = end if semi == -1 else semi
    ctx.part("path", start, path_end)
    check_span(ctx, "ppath", start, path_end)
    while semi != -1:
        spec_start = semi + 1
        semi = url.find(";", spec_start, end)
        spec_end = end if semi == -1 else semi
        equals = url.find("=", spec_start, spec_end)
        if equals == -1:
            ctx.report(
                "bad-fieldspec",
                spec_start - 1,
                f"{g.BNF['fieldspec']}: no '=' between this ';' and the next",
            )
            continue
        ctx.parts.append((f"field:{url[spec_start:equals]}", url[equals + 1 : spec_end]))
        check_span(ctx, "fieldname", spec_start, equals)
        check_span(ctx, "fieldvalue", equals + 1, spec_end)


def _urlpath(ctx: SchemeContext, scheme: IpScheme, start: int, end: int) -> None:
    ctx.part("path", start, end)
    check_span(ctx, "urlpath", start, end)


# ---------------------------------------------------------------------------------------
# Schemes without the common syntax, and the generic fallback
# ---------------------------------------------------------------------------------------

BodyCheck = Callable[[SchemeContext, int, int], None]
"""Checks ``ctx.url[start:end]``, the whole part after ``scheme:``."""


@record
class OpaqueScheme:
    """A scheme whose part after ``scheme:`` has its own production (mailto, news...)."""

    name: str
    """Lower-case scheme name."""
    body: BodyCheck
    """Check of the part after ``scheme:``."""
    default_port: int | None = None
    """Always None: these schemes name no port."""
    clean: re.Pattern[str] | None = None
    """Optional fast path, as :attr:`IpScheme.clean`."""

    def check(self, ctx: SchemeContext, start: int, end: int) -> None:
        """Check ``ctx.url[start:end]``, the part after ``scheme:``.

        Args:
            ctx: the context to report into.
            start: offset just after the scheme's ``:``.
            end: offset of the end of the URL (before any ``#fragment``).
        """
        self.body(ctx, start, end)


def _mailto(ctx: SchemeContext, start: int, end: int) -> None:
    # encoded822addr = 1*xchar; no characters are reserved (§3.5).
    if start == end:
        ctx.report("empty-address", start, f"{g.BNF['encoded822addr']}: the address is empty")
        return
    ctx.part("address", start, end)
    check_span(ctx, "encoded822addr", start, end)
    if "@" not in _decode(ctx.url[start:end]):
        ctx.report(
            "bad-address",
            start,
            f"{g.BNF['encoded822addr']}, further defined in RFC 822 as "
            "addr-spec = local-part \"@\" domain: no '@' in the address",
            "warning",
        )


def _news(ctx: SchemeContext, start: int, end: int) -> None:
    # grouppart = "*" | group | article
    url = ctx.url
    at = url.rfind("@", start, end)
    if at == -1:
        if url[start:end] == "*":
            ctx.part("group", start, end)
            return
        if start < end:
            ctx.part("group", start, end)
        check_group(ctx, start, end)
        return
    ctx.part("article", start, end)
    if at == start:
        ctx.report("bad-article", start, f"{g.BNF['article']}: nothing before '@'")
    else:
        check_span(ctx, "article", start, at)
    if at + 1 == end:
        ctx.report("missing-host", end, f"{g.BNF['article']}: no host after '@'")
    else:
        check_host(ctx, at + 1, end)


_GENERIC_IP = IpScheme("", "ip-schemepart", None, _urlpath, userinfo=True)


@record
class GenericScheme:
    """``genericurl = scheme ":" schemepart`` for every scheme without its own row.

    ``schemepart = *xchar | ip-schemepart``: any xchar string is valid, so only the lexical
    scan can fail. A schemepart that starts with ``//`` and parses as ip-schemepart is
    reported as its parts (user, host, port, path) with their security warnings.
    """

    name: str = ""
    """Empty: the fallback serves every unknown name."""
    default_port: int | None = None
    """Unknown, so no port warnings."""

    def check(self, ctx: SchemeContext, start: int, end: int) -> None:
        """Check ``ctx.url[start:end]``, the part after ``scheme:``.

        Args:
            ctx: the context to report into.
            start: offset just after the scheme's ``:``.
            end: offset of the end of the URL (before any ``#fragment``).
        """
        if ctx.url.startswith("//", start, end):
            trial = SchemeContext(ctx.url, ctx.policy)
            _GENERIC_IP.check(trial, start, end)
            if not trial.has_errors():
                for defect in trial.defects:  # warnings only; through report() for the cap
                    ctx.report(defect.code, defect.offset or 0, defect.message, "warning")
                ctx.parts.extend(trial.parts)
                return
        ctx.part("schemepart", start, end)
        check_span(ctx, "schemepart", start, end)


# ---------------------------------------------------------------------------------------
# The table and the registry
# ---------------------------------------------------------------------------------------


def _default_schemes() -> tuple[Scheme, ...]:
    # One row per scheme of RFC 1738 §3 (plus https, which follows http).
    return (
        IpScheme("ftp", "ftpurl", 21, _ftp_path, userinfo=True, clean=g.FTP_CLEAN_PATTERN),
        IpScheme(
            "http",
            "httpurl",
            80,
            _http_path,
            search_without_path=True,
            clean=g.HTTP_CLEAN_PATTERN,
        ),
        IpScheme(
            "https",
            "httpsurl",
            443,
            _http_path,
            search_without_path=True,
            clean=g.HTTP_CLEAN_PATTERN,
        ),
        IpScheme("gopher", "gopherurl", 70, _gopher_path, clean=g.GOPHER_CLEAN_PATTERN),
        IpScheme(
            "nntp",
            "nntpurl",
            119,
            _nntp_path,
            path_required=True,
            missing_path_code="missing-group",
            clean=g.NNTP_CLEAN_PATTERN,
        ),
        IpScheme(
            "telnet", "telneturl", 23, _telnet_path, userinfo=True, clean=g.TELNET_CLEAN_PATTERN
        ),
        IpScheme(
            "wais", "waisurl", 210, _wais_path, path_required=True, clean=g.WAIS_CLEAN_PATTERN
        ),
        IpScheme(
            "file",
            "fileurl",
            None,
            _file_path,
            port=False,
            host_optional=True,
            path_required=True,
            clean=g.FILE_CLEAN_PATTERN,
        ),
        IpScheme(
            "prospero",
            "prosperourl",
            1525,
            _prospero_path,
            path_required=True,
            clean=g.PROSPERO_CLEAN_PATTERN,
        ),
        OpaqueScheme("mailto", _mailto, clean=g.MAILTO_CLEAN_PATTERN),
        OpaqueScheme("news", _news, clean=g.NEWS_CLEAN_PATTERN),
    )


FastEntry = tuple[str, Scheme, re.Pattern[str], tuple[str, ...], int]
"""What the validator's fast path keeps per scheme name as written: the name in lower case,
the scheme, its ``clean`` pattern, the pattern's group names by number, and the number of
its ``port`` group (0 when none). See ``validation.clean_fields``."""


class SchemeRegistry:
    """Scheme checks by lower-case name, with a fallback for every other name.

    Each instance owns its table: registering into one registry never affects another.
    """

    __slots__ = ("_fallback", "_schemes", "fast_table")

    def __init__(self, schemes: Iterable[Scheme] = (), fallback: Scheme | None = None) -> None:
        """Create a registry.

        Args:
            schemes: schemes to register (names must be distinct).
            fallback: the check for unregistered names (default: :class:`GenericScheme`).

        Raises:
            ConfigError: a name is malformed or given twice.
        """
        self._schemes: dict[str, Scheme] = {}
        self._fallback: Scheme = fallback if fallback is not None else GenericScheme()
        self.fast_table: dict[str, FastEntry | None] = {}
        """Scratch space of the validator's fast path, keyed by a scheme name as written
        (see ``validation.clean_fields``); emptied whenever a scheme is registered."""
        for scheme in schemes:
            self.register(scheme)

    def register(self, scheme: Scheme, *, replace: bool = False) -> None:
        """Add a scheme check under its (lower-cased) name.

        Args:
            scheme: the scheme to add.
            replace: allow replacing a scheme of the same name.

        Raises:
            ConfigError: the name is not a valid scheme name, or is taken and not
                ``replace``.
        """
        name = scheme.name.lower()
        if not g.SCHEME_PATTERN.fullmatch(name):
            raise ConfigError("scheme name", scheme.name, g.BNF["scheme"])
        if name in self._schemes and not replace:
            raise ConfigError("scheme name", scheme.name, "already registered")
        self._schemes[name] = scheme
        self.fast_table.clear()

    def lookup(self, name: str) -> Scheme:
        """Return the check for a scheme name, case-insensitively, or the fallback.

        Args:
            name: a scheme name in any case.

        Returns:
            The registered scheme, or the generic fallback.
        """
        return self._schemes.get(name.lower(), self._fallback)

    def copy(self) -> SchemeRegistry:
        """Return an independent registry with the same schemes and fallback."""
        return SchemeRegistry(self._schemes.values(), self._fallback)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._schemes

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._schemes))

    def __len__(self) -> int:
        return len(self._schemes)


def default_registry() -> SchemeRegistry:
    """Return a fresh registry holding the schemes of RFC 1738 §3 and https.

    Returns:
        A new :class:`SchemeRegistry` (callers may register into it freely).
    """
    return SchemeRegistry(_default_schemes())


@functools.cache
def shared_default_registry() -> SchemeRegistry:
    """The default registry of callers given none (``validate``, ``Judge``), built once.

    Building one costs more than validating a URL, and its fast table (the clean patterns
    by scheme name as written) is filled again by each new registry; shared, both are paid
    once per process. Nothing registers into it: it is never handed to a caller.
    """
    return default_registry()
