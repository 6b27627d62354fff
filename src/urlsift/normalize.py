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
  (http 80, https 443, ftp 21, gopher 70, telnet 23, nntp 119, wais 210, prospero 1525),
  is removed with its ``:``.
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
  query lower case (RFC 6068 §2: ``hfname`` is case-insensitive). The local part keeps its
  case: RFC 5321 §2.4 makes it case-sensitive (only the receiving host may fold it), so
  ``mailto:USRP-users@...`` and ``mailto:usrp-users@...`` stay different. An address
  list holding a quoted local part (``"``) is left as written: its commas and ``@`` signs
  may be quoted.

Left out on purpose: ``news:`` and the nntp group (message-IDs and group names are
case-sensitive), IDNA mapping of non-ASCII hosts, leading zeros of ports and IP
addresses, the order of query parameters, a trailing ``/`` on a non-empty path, and the
fragment (only its escapes are normalized: §6.2.3 exempts it from scheme rules).
"""

from __future__ import annotations

import re

from .schemes import default_registry

__all__ = ["normalize"]

# "scheme:" then, when present, "//" and the authority (up to "/", "?" or "#").
# RFC 1738 §2.1: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]; upper case is read
# as lower case.
_HEAD = re.compile(r"([A-Za-z0-9+.\-]+):(?://([^/?#]*))?")

# URLs already in normal form, in the common shapes (most URLs in real text): a lower-case
# scheme, a lower-case host without user or port, a non-empty path, no "%". (A "/." in
# them may be a dot segment: those take the full path.) No nested repetition: linear.
_PLAIN = re.compile(
    r"(?:https?|ftp)://[a-z0-9.\-]+/[^%]*"
    r'|mailto:[^%?#@",]+@[a-z0-9.\-]+'
    r"|news:[^%]*"
)

_HEX = "0123456789ABCDEFabcdef"
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

# Every two hex digits after a "%" -> what they become: the character itself when it is
# unreserved, else the escape with upper-case digits.
_DECODED: dict[str, str] = {}
for _a in _HEX:
    for _b in _HEX:
        _char = chr(int(_a + _b, 16))
        _DECODED[_a + _b] = _char if _char in _UNRESERVED else f"%{_a}{_b}".upper()
del _a, _b, _char
# The same with nothing decoded: only the digits in upper case.
_UPPER = {pair: f"%{pair}".upper() for pair in _DECODED}

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

# The RFC 1738 schemes whose port and empty path have defaults: their default ports
# (from the scheme table, so there is one list) and whether an empty path is "/".
_REGISTRY = default_registry()
_DEFAULT_PORTS: dict[str, int] = {}
for _name in _REGISTRY:
    _port = _REGISTRY.lookup(_name).default_port
    if _port is not None:
        _DEFAULT_PORTS[_name] = _port
del _name, _port, _REGISTRY
_SLASH_WHEN_EMPTY = frozenset({"http", "https", "ftp", "gopher", "telnet"})
_DOT_SEGMENTS = frozenset({"http", "https"})


def normalize(url: str) -> str:
    """Return the normal form of ``url``: equal normal forms mean the same resource.

    Applies the equivalences listed in the module notes (RFC 3986 §6.2.2-6.2.3, RFC 1738
    defaults, mailto domains); nothing else changes.

    Args:
        url: a URL as found (wrapper removed), valid or not.

    Returns:
        The normal form; ``url`` itself when it is already normal or has no scheme.
    """
    if _PLAIN.fullmatch(url) is not None and "/." not in url:
        return url
    head = _HEAD.match(url)
    if head is None:
        return url
    written_scheme, authority = head.groups()
    scheme = written_scheme.lower()
    rest = url[head.end() :]
    if "%" in rest:
        rest = _percent(rest)
    if authority is None:  # no "//": opaque (mailto, news) or a malformed URL
        if scheme == "mailto":
            rest = _mailto(rest)
        out = f"{scheme}:{rest}"
        return url if out == url else out
    authority = _authority(scheme, authority)
    if rest[:1] in ("", "?", "#"):  # empty path
        if scheme in _SLASH_WHEN_EMPTY:
            rest = "/" + rest
    elif scheme == "gopher" and rest[:2] == "/1" and rest[2:3] in ("", "#"):
        rest = "/" + rest[2:]
    elif scheme in _DOT_SEGMENTS and "/." in rest:
        rest = _without_dot_segments(rest)
    out = f"{scheme}://{authority}{rest}"
    return url if out == url else out


def _percent(text: str) -> str:
    # Escapes with upper-case hex digits, unreserved characters decoded (see the notes:
    # nothing is decoded when a "%" starts no escape).
    first, *pieces = text.split("%")
    table = _DECODED
    if any(piece[:2] not in table for piece in pieces):
        table = _UPPER
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
    for piece in pieces:
        pair = piece[:2]
        if pair in _UPPER:
            out.append("%" + pair + piece[2:].translate(_ASCII_LOWER))
        else:
            out.append("%" + piece.translate(_ASCII_LOWER))
    return "".join(out)


def _authority(scheme: str, authority: str) -> str:
    # [ userinfo "@" ] host [ ":" port ]: the host after the last "@" (as user agents
    # read it), an IPv6 literal in brackets (not RFC 1738, but lower-cased all the same).
    if "%" in authority:
        authority = _percent(authority)
    userinfo, at, hostport = authority.rpartition("@")
    close = hostport.find("]") if hostport.startswith("[") else -1
    colon = hostport.find(":", close + 1)
    host, port = (hostport, None) if colon == -1 else (hostport[:colon], hostport[colon + 1 :])
    host = _lower(host)
    if port is not None:
        default = _DEFAULT_PORTS.get(scheme)
        if default is not None and (
            port == "" or (port.isascii() and port.isdigit() and int(port) == default)
        ):
            port = None
    if scheme == "file" and host == "localhost":
        host = ""
    hostport = host if port is None else f"{host}:{port}"
    return f"{userinfo}{at}{hostport}"


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
    # to [ "?" hfields ] [ "#" fragment ]: each address's domain in lower case, each
    # header name in lower case (RFC 6068 §2).
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
            addresses.append(f"{local}{at}{_lower(domain)}" if at else address)
        to = ",".join(addresses)
    if tail.startswith("?"):
        query, hash_, fragment = tail[1:].partition("#")
        fields = []
        for hfield in query.split("&"):
            name, equals, value = hfield.partition("=")
            fields.append(f"{_lower(name)}{equals}{value}")
        tail = "?" + "&".join(fields) + hash_ + fragment
    return to + tail
