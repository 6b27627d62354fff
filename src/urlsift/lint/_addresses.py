"""Addresses and secrets for ``--check-links``: which hosts are special, what not to show.

Strategy: pure functions, no I/O. :func:`numeric_host` reads every spelling of an IP
address a resolver accepts as a literal (the forms of ``inet_aton``: dotted quads, partial
dotted forms such as ``127.1``, a single 32-bit integer, parts in hex ``0x7f`` or octal
``0177``; IPv6 literals, with a zone ``%eth0`` or not), so that ``0x7f000001`` and
``2130706433`` are known to be ``127.0.0.1`` before any lookup. :func:`special_kind` names
the class of an address that a public link must not lead into (loopback, private,
link-local, ...), looking through IPv4-mapped, NAT64, 6to4 and Teredo IPv6 forms to the
IPv4 address they carry. :func:`redact` hides the password of every URL in a text.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable

from ..grammar.context import scheme_name

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

__all__ = [
    "LOCAL_NAMES",
    "IPAddress",
    "is_public",
    "numeric_host",
    "redact",
    "special_kind",
]

_PART = re.compile(r"0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*")
_PART_LIMITS = {1: (1 << 32,), 2: (256, 1 << 24), 3: (256, 256, 1 << 16)}
"""Bounds of each part of an ``inet_aton`` address, by the number of parts."""

LOCAL_NAMES = ("localhost", "localhost.localdomain")
"""Names that are loopback by definition (RFC 6761: ``localhost`` and its subdomains)."""


def _part_value(part: str) -> int:
    if part[:2].lower() == "0x":
        return int(part[2:] or "0", 16)
    return int(part, 8) if part.startswith("0") else int(part)


def _inet_aton(text: str) -> ipaddress.IPv4Address | None:
    # inet_aton's grammar: one to four parts separated by dots; each decimal, 0x-hex or
    # 0-octal; the last part fills the bytes the others leave.
    parts = text.split(".")
    if not 1 <= len(parts) <= 4 or not all(_PART.fullmatch(part) for part in parts):
        return None
    values = [_part_value(part) for part in parts]
    limits = _PART_LIMITS.get(len(parts), (256, 256, 256, 256))
    if any(value >= limit for value, limit in zip(values, limits, strict=True)):
        return None
    number = values[-1]
    for index, value in enumerate(values[:-1]):
        number |= value << (24 - 8 * index)
    return ipaddress.IPv4Address(number)


def numeric_host(host: str) -> IPAddress | None:
    """Return the IP address ``host`` spells, or None when it is a name.

    Args:
        host: A URL's host, without brackets (``::1``, ``127.0.0.1``, ``0x7f.1``,
            ``example.org``); one trailing dot is allowed.

    Returns:
        The address (an IPv6 zone is dropped), or None.
    """
    text = host.strip()
    if text.endswith(".") and not text.endswith(".."):
        text = text[:-1]
    if ":" in text:
        try:
            return ipaddress.IPv6Address(text.partition("%")[0])
        except ValueError:
            return None
    if not text.isascii():
        return None
    return _inet_aton(text)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    # The IPv4 address an IPv6 one carries and routes to.
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def special_kind(address: IPAddress) -> str | None:
    """Name the class of a non-public address, or None for a public one.

    Returns:
        ``loopback``, ``link-local``, ``private``, ``unspecified``, ``multicast`` or
        ``reserved`` (any other range not globally reachable: shared address space,
        documentation, benchmarking ...), or None when the address is global unicast.
    """
    if isinstance(address, ipaddress.IPv6Address):
        inner = _embedded_ipv4(address)
        kind = special_kind(inner) if inner is not None else None
        if kind is not None:
            return kind
    checks: tuple[tuple[str, Callable[[IPAddress], bool]], ...] = (
        ("unspecified", lambda a: a.is_unspecified),
        ("loopback", lambda a: a.is_loopback),
        ("link-local", lambda a: a.is_link_local),
        ("multicast", lambda a: a.is_multicast),
        ("private", lambda a: a.is_private),
        ("reserved", lambda a: a.is_reserved or not a.is_global),
    )
    for kind, check in checks:
        if check(address):
            return kind
    return None


def is_public(address: IPAddress) -> bool:
    """True for a global unicast address (:func:`special_kind` gives None)."""
    return special_kind(address) is None


# A scheme name as the scanner reads one (at most 64 characters): the bound keeps the search
# linear (unbounded, every word start of "a.a.a..." rescanned the rest: 4 s for 40 KB), and
# a longer "scheme" is never a URL the scanner or lint reports.
_USERINFO = re.compile(rf"(?i)(\b{scheme_name()}://[^\s/?#@:\[\]]*):[^\s/?#@]*@")


def redact(text: str) -> str:
    """Replace the password of every ``scheme://user:password@`` in ``text`` by ``***``."""
    return _USERINFO.sub(r"\1:***@", text)
