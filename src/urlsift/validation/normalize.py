"""One spelling per URL: the equivalences RFC 3986 §6.2.2-6.2.3 allows, and no others.

Strategy: :func:`normalize` rewrites a URL into a normal form such that two URLs with the
same normal form are certainly the same resource (no false positives); it does not try
to find every equivalence (false negatives are allowed, as §6.2 says of any ladder of
comparison). It is a pure function of its argument, linear in its length, and never
raises: a string without a ``scheme:`` comes back unchanged, and whatever cannot be
parsed is left as written. Its result is a fixed point (``normalize(normalize(u)) ==
normalize(u)``).

The rules, and why each is safe:

* **Percent-encoding** (§6.2.2.1-2, every URI): the hex digits of ``%hh`` upper case, and
  ``%hh`` of an RFC 3986 *unreserved* character (``A-Z a-z 0-9 - . _ ~``) decoded. None of
  these is reserved in RFC 1738 either, whose §2.2 gives the same interpretation to a
  non-reserved octet written plainly or encoded; ``%7E`` becomes ``~``, which RFC 1738
  calls unsafe but which names the same resource. A component holding a ``%`` that starts
  no escape (invalid) only gets the upper case: decoding next to it could make a new
  escape (``%%341`` would read ``%41``), and then the result would not be a fixed point.
* **Scheme** lower case (§6.2.2.1; RFC 1738 §2.1 asks the same of interpreters).
* **Host** lower case (ASCII letters only, escapes kept upper case) when the URL has a
  ``//`` authority, whatever the scheme (§6.2.2.1: always for the generic syntax).
  User and password are kept as written: they are case-sensitive.
* **Port** (§6.2.3), for the RFC 1738 schemes only: an empty port, or the scheme's default
  (http 80, https 443, ftp 21, gopher 70, telnet 23, nntp 119, wais 210, prospero 1525;
  ``080`` is 80), is removed with its ``:``.
* **Empty path** becomes ``/`` (§6.2.3) for http and https, and for ftp, gopher and
  telnet, whose ``/`` RFC 1738 §3.2, §3.4 and §3.8 call optional when the path is empty.
  A gopher path of just the default type ``1`` is that empty path (§3.4).
* **Dot segments** (§6.2.2.3) are removed from http and https paths only: user agents
  resolve them before any request, so the server sees the same path. An ftp path is a
  series of CWD commands, where ``a/..`` need not lead back (symbolic links), and the
  other schemes' paths (gopher selectors, wais and prospero names) are opaque strings.
* **file**: the host ``localhost`` is the empty host (RFC 1738 §3.10; §6.2.3 prefers the
  empty authority).
* **mailto**: the domain of each address (after its last ``@``) lower case (§6.2.3 gives
  this very example; a domain name is case-insensitive), and the header names of the
  query lower case (RFC 6068 §2: ``hfname`` is case-insensitive). DEVIATION: the local
  part is lower-cased too (ASCII letters). RFC 5321 §2.4 lets the receiving host treat it
  as case-sensitive, but says that exploiting this "impedes interoperability and is
  discouraged", and mail systems fold it in practice; in real archives one list address
  appears under several spellings (``mailto:usrp-users@lists.ettus.com`` 448 times and
  ``mailto:USRP-users@lists.ettus.com`` 364 times in usrp-users 2019), which a count must
  not split. An address list holding a quoted local part (``"``) is left as written: its
  commas and ``@`` signs may be quoted, and a quoted local part may mean its case.

Left out on purpose: ``news:`` and the nntp group (message-IDs and group names are
case-sensitive), IDNA mapping of non-ASCII hosts, leading zeros of other ports and of IP
addresses, the order of query parameters, a trailing ``/`` on a non-empty path, and the
fragment (only its escapes are normalized: §6.2.3 exempts it from scheme rules).
"""

from __future__ import annotations

from functools import lru_cache

from ..grammar.rfc import SCHEME_CHARS, compile_grammar, compile_on_use
from .schemes import shared_default_registry

__all__ = ["normalize"]

# "scheme:" then, when "//" follows, the authority: [ user-info "@" ] host [ ":" port ].
# RFC 1738 §2.1: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ], upper case read as
# lower case. The user-info runs to the last "@" (as user agents read it); a host in
# brackets is an IPv6 literal (not RFC 1738, but lower-cased all the same). The match
# ends where the path, query or fragment starts. No nested repetition: linear.
_SPLIT = compile_on_use(
    rf"([{SCHEME_CHARS}]+):"
    r"(?://(?:([^/?#]*)@)?(\[[^\]/?#]*\](?=[:/?#]|\Z)|[^:/?#]*)(?::([^/?#]*))?)?"
)

_HEX = "0123456789ABCDEFabcdef"
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


@lru_cache(maxsize=1)
def _escape_tables() -> tuple[dict[str, str], dict[str, str]]:
    # Every two hex digits after a "%" -> what they become: the character itself when it
    # is unreserved, else the escape with upper-case digits; and the same with nothing
    # decoded (only the digits in upper case). Made on the first URL with a "%".
    decoded: dict[str, str] = {}
    for a in _HEX:
        for b in _HEX:
            char = chr(int(a + b, 16))
            decoded[a + b] = char if char in _UNRESERVED else f"%{a}{b}".upper()
    return decoded, {pair: f"%{pair}".upper() for pair in decoded}


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

# The RFC 1738 schemes whose port and empty path have defaults: their default ports in
# decimal (from the scheme table, so there is one list; compared as text, without leading
# zeros: int() refuses a port of 4,300 digits) and whether an empty path is "/".
_REGISTRY = shared_default_registry()  # read only: the default ports
_DEFAULT_PORTS: dict[str, str] = {}
for _name in _REGISTRY:
    _port = _REGISTRY.lookup(_name).default_port
    if _port is not None:
        _DEFAULT_PORTS[_name] = str(_port)
del _name, _port, _REGISTRY
_SLASH_WHEN_EMPTY = frozenset({"http", "https", "ftp", "gopher", "telnet"})
_DOT_SEGMENTS = frozenset({"http", "https"})

# The common shapes (most URLs in real text), so that they cost one match: a lower-case
# scheme, "//", a lower-case host (no user, and not "localhost"), a port (group 2), a
# non-empty path that is not gopher's "/1", and no "%"; "file:///" and a path without
# "%"; a mailto of one address with a lower-case domain; a news URL without "%"; a
# lower-case scheme and host alone (group 3). They are normal but for a default port, and
# the last but for its empty path ("/" is added where that is the normal form). A "/."
# may be a dot segment: such URLs take the full path. No shape holds a "%", so
# normalize() tests for one (and for "/.") with ``in`` before it matches, and the pattern
# is matched as a prefix: past its head, a shape allows any character but "%" to the end
# (the mailto and host shapes are anchored with ``\Z``). No nested repetition, and the
# runs before a "://", ":" or "/" are possessive (they cannot hold the character that
# follows them, so giving one back never helps): linear, and one pass. (Possessive runs
# need Python 3.11's ``re``; compile_grammar compiles with ``regex`` on 3.10.)
# (A test holds the shortcut to the full path.)
_PLAIN = compile_grammar(
    r"([a-z][a-z0-9+.\-]*+)://(?!localhost[:/])[a-z0-9.\-]++(?::([0-9]++))?/(?!1(?:#|$))"
    r"|file:///"
    r'|mailto:(?!//)[^%?#@",A-Z]+@[a-z0-9.\-]+\Z'
    r"|news:(?!//)"
    r"|([a-z][a-z0-9+.\-]*+)://(?!localhost\Z)[a-z0-9.\-]++\Z"
)

# A mailto of one address, no "%", "?", "#" or quote, any case ("Mailto:", a local part in
# capitals): its normal form is all of it in lower case (see _mailto).
_MAILTO_ONE = compile_on_use(r'(?ai:mailto):(?!//)[^%?#@",]+@[A-Za-z0-9.\-]+\Z')


def normalize(url: str) -> str:
    """Return the normal form of ``url``: equal normal forms mean the same resource.

    Applies the equivalences listed in the module notes (RFC 3986 §6.2.2-6.2.3, RFC 1738
    defaults, mailto domains); nothing else changes.

    Args:
        url: a URL as found (wrapper removed), valid or not.

    Returns:
        The normal form; ``url`` itself when it is already normal or has no scheme.
    """
    if "%" in url or "/." in url:
        return _normalize(url)
    plain = _PLAIN.match(url)
    if plain is None:
        if _MAILTO_ONE.match(url) is not None:  # one address, only its case to change
            return "mailto:" + url[7:].translate(_ASCII_LOWER)
        return _normalize(url)
    shape = plain.lastindex
    if shape == 3:  # "scheme://host": only the empty path may change
        return url + "/" if plain[3] in _SLASH_WHEN_EMPTY else url
    if shape != 2:  # no port
        return url
    start, end = plain.span(2)
    if url[start:end].lstrip("0") != _DEFAULT_PORTS.get(plain[1]):
        return url
    return url[: start - 1] + url[end:]


def _normalize(url: str) -> str:
    # normalize() without the shortcut for URLs already normal.
    parts = _SPLIT.match(url)
    if parts is None:
        return url
    written_scheme, userinfo, host, port = parts.groups()
    scheme = written_scheme.lower()
    rest = url[parts.end() :]
    if "%" in rest:
        rest = _percent(rest)
    if host is None:  # no "//": opaque (mailto, news) or a malformed URL
        if scheme == "mailto":
            rest = _mailto(rest)
        out = f"{scheme}:{rest}"
        return url if out == url else out
    # Each component on its own: decoding never makes a delimiter.
    if userinfo is None:
        userinfo = ""
    else:
        userinfo = (_percent(userinfo) if "%" in userinfo else userinfo) + "@"
    host = _lower(_percent(host) if "%" in host else host)
    if scheme == "file" and host == "localhost":
        host = ""
    if port is not None:
        port = _percent(port) if "%" in port else port
        default = _DEFAULT_PORTS.get(scheme)
        if default is not None and (
            not port or (port.isascii() and port.isdigit() and port.lstrip("0") == default)
        ):
            port = None
    if not rest or rest[0] in "?#":  # empty path
        if scheme in _SLASH_WHEN_EMPTY:
            rest = "/" + rest
    elif scheme == "gopher" and rest[:2] == "/1" and rest[2:3] in ("", "#"):
        rest = "/" + rest[2:]
    elif scheme in _DOT_SEGMENTS and "/." in rest:
        rest = _without_dot_segments(rest)
    out = (
        f"{scheme}://{userinfo}{host}{rest}"
        if port is None
        else (f"{scheme}://{userinfo}{host}:{port}{rest}")
    )
    return url if out == url else out


def _percent(text: str) -> str:
    # Escapes with upper-case hex digits, unreserved characters decoded (see the notes:
    # nothing is decoded when a "%" starts no escape).
    first, *pieces = text.split("%")
    table, upper = _escape_tables()
    if any(piece[:2] not in table for piece in pieces):
        table = upper
    out = [first]
    for piece in pieces:
        pair = piece[:2]
        out.append(table[pair] + piece[2:] if pair in table else "%" + piece)
    return "".join(out)


def _lower(text: str) -> str:
    # ASCII letters in lower case, except the hex digits of escapes (kept upper case).
    if "%" not in text:
        return text.translate(_ASCII_LOWER)
    first, *pieces = text.split("%")
    out = [first.translate(_ASCII_LOWER)]
    upper = _escape_tables()[1]
    for piece in pieces:
        pair = piece[:2]
        if pair in upper:
            out.append("%" + pair + piece[2:].translate(_ASCII_LOWER))
        else:
            out.append("%" + piece.translate(_ASCII_LOWER))
    return "".join(out)


def _without_dot_segments(rest: str) -> str:
    # RFC 3986 §5.2.4 remove_dot_segments on the path (up to "?" or "#"), which starts
    # with "/": "." segments go, ".." takes the segment before it away; a path ending in
    # a dot segment keeps its final "/".
    end = len(rest)
    for stop in ("?", "#"):
        found = rest.find(stop, 0, end)
        if found != -1:
            end = found
    segments = rest[1:end].split("/")
    if "." not in segments and ".." not in segments:
        return rest
    kept: list[str] = []
    for segment in segments:
        if segment == "..":
            if kept:
                kept.pop()
        elif segment != ".":
            kept.append(segment)
    if segments[-1] in (".", ".."):
        kept.append("")
    return "/" + "/".join(kept) + rest[end:]


def _mailto(rest: str) -> str:
    # to [ "?" hfields ] [ "#" fragment ]: each address in lower case (the domain as RFC
    # 3986 §6.2.3 says, the local part by the deviation in the module notes), each header
    # name in lower case (RFC 6068 §2).
    end = len(rest)
    for stop in ("?", "#"):
        found = rest.find(stop, 0, end)
        if found != -1:
            end = found
    to, tail = rest[:end], rest[end:]
    if "@" in to and '"' not in to and "%22" not in to:
        addresses = []
        for address in to.split(","):
            local, at, domain = address.rpartition("@")
            addresses.append(f"{_lower(local)}{at}{_lower(domain)}" if at else address)
        to = ",".join(addresses)
    if tail.startswith("?"):
        query, hash_, fragment = tail[1:].partition("#")
        fields = []
        for hfield in query.split("&"):
            name, equals, value = hfield.partition("=")
            fields.append(f"{_lower(name)}{equals}{value}")
        tail = "?" + "&".join(fields) + hash_ + fragment
    return to + tail
