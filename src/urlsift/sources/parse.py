"""Parsing: one message's bytes become an ``email.message.Message``, as the stdlib would.

Promises:

* The stdlib's ``email`` package does all of MIME, with ``policy=compat32`` so that
  malformed input becomes ``msg.defects`` instead of exceptions; this module only decides
  what the feed parser is given, and every shortcut gives the parser's own result (tests
  compare each with the reference path, message by message).
* The reference path (:func:`parse_stdlib`): the header block less its unread fields
  (:data:`~.headers.UNREAD_FIELD`) is parsed with ``headersonly=True``; a message that is
  not ``multipart/*`` or ``message/*`` then gets its body attached as the feed parser
  itself attaches it (:func:`attach_body`: bytes as ASCII with surrogate escapes), which
  skips the parser's line-by-line body loop; any other message, or a header block with a
  stray non-header line, is parsed in full.
* Structured messages with a clean header block (:func:`parse_structured`): the body is
  parsed below the root's first ``Content-Type`` and ``Content-Transfer-Encoding`` only
  (the only root fields the parser reads), and a multipart's boundary is renamed to a
  shared one when that provably changes nothing but the name (:func:`_rename_boundary`),
  so the parser's per-boundary regular expression comes from ``re``'s cache.
* Large leaf parts of a multipart (bodies over ``LARGE_BODY_BYTES``) are lifted out of
  the parse (:func:`_lift_large_parts`): the parser sees a placeholder, and the walk
  reads the body from the message's bytes, so each byte of a message near the cap is
  held once, not as lines and strings several times over.
* :func:`parse_message` is the reference parse with the header cap, for callers that want
  a ``Message`` (tests, tools).

No I/O. The stdlib parser may raise on pathological input (``RecursionError`` on extreme
nesting); the part walk (:mod:`.parts`) catches that.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from .._model import Defect
from .headers import (
    UNREAD_FIELD,
    UNREAD_FIELD_KEEP_URLS,
    cap_header,
    content_type_of,
    find_body,
    kept_fields,
    message_of,
    raw_headers,
    simple_parameters,
)
from .transfer import LARGE_BODY_BYTES

if TYPE_CHECKING:
    from email.message import Message
    from email.parser import BytesParser


@lru_cache(maxsize=1)
def _parser() -> BytesParser:
    # The feed parser, made on first use (email.parser imports the feed parser, Message and
    # email.utils, which a scan of common messages does not need). Its and Message's
    # default policy is compat32 (email.policy, which would import the header registry,
    # is not needed for it).
    from email.parser import BytesParser

    return BytesParser()


def attach_body(msg: Message, body: bytes) -> None:
    # The body as the feed parser itself attaches a non-multipart one: bytes read as
    # ASCII with surrogate escapes (BytesParser), as one string.
    msg.set_payload(body.decode("ascii", "surrogateescape"))


def parse_stdlib(
    data: bytes,
    header_len: int,
    body_start: int,
    keep_url_headers: bool,
    lifted: dict[str, tuple[int, int]] | None = None,
) -> Message:
    # The reference path: the header block less its unread fields through the stdlib's
    # header-only parse; a message with structure (or a stray line among its headers)
    # through the full feed parser, a multipart's large leaves lifted out into ``lifted``
    # when given (see _lift_large_parts).
    msg, header = parse_header_stdlib(data[:header_len], keep_url_headers)
    if needs_full_parse(msg):
        # A stray non-header line in the header block, or a body with structure:
        # let the feed parser do everything.
        boundary = msg.get_boundary() if msg.get_content_maintype() == "multipart" else None
        if (
            lifted is not None
            and boundary is not None
            and not msg.get_payload()  # no stray line: the body starts at header_len
            and msg.get_content_type() != "multipart/digest"
        ):
            return _parser().parsebytes(
                header + _lift_large_parts(data, header_len, boundary, lifted)
            )
        return _parser().parsebytes(header + data[header_len:])
    attach_body(msg, data[body_start:])
    return msg


def parse_header_stdlib(header: bytes, keep_url_headers: bool) -> tuple[Message, bytes]:
    # The header-only parse of the header block less its unread fields, and those bytes.
    unread = UNREAD_FIELD_KEEP_URLS if keep_url_headers else UNREAD_FIELD
    header = unread.sub(b"", header)
    return _parser().parsebytes(header, headersonly=True), header


def needs_full_parse(msg: Message) -> bool:
    # A header-only parse that met a non-header line (now its payload), or a structure.
    return bool(msg.get_payload()) or msg.get_content_maintype() in ("multipart", "message")


# Boundaries: the feed parser compiles a regular expression for the boundary of every
# multipart it meets (``re`` caches only 512 patterns, and boundaries are unique), which
# costs more than the rest of parsing a small message. When the boundary's delimiter lines
# are provably the only places the boundary occurs, the message is parsed with the
# boundary renamed to one of these fixed strings (one not in the message), whose pattern
# stays in ``re``'s cache; the parse is the same, line for line (see _rename_boundary).
_SHARED_BOUNDARIES = tuple(f"=_urlsift_{n}_=".encode("ascii") for n in range(4))
# RFC 2046 §5.1.1 bchars less space: nothing that quoting, unquoting, RFC 2231 or
# parameter splitting would touch.
_PLAIN_BOUNDARY = re.compile(r"[0-9A-Za-z'()+_,./:=?-]{1,70}")


def _rename_boundary(
    fields: list[bytes], index: int, body: bytes, boundary: str
) -> tuple[bytes, str] | None:
    """Return the message with its root boundary renamed and the new name, or None.

    The feed parser uses a multipart's boundary B only through ``re.match`` of
    ``--B(--)?[ \t]*(line end)?$`` against lines of the body (as the multipart's own
    delimiter, and as an end-of-part test inside its parts). If every occurrence of ``--B``
    in the body starts a line (after LF) that is exactly ``--B``, an optional ``--``,
    spaces or tabs, and LF or CRLF (or the end), then replacing ``--B`` by ``--C``, for a C
    that occurs nowhere in the message, changes exactly the lines that match B's pattern,
    into lines that match C's with the same groups, and no other line matches either. The
    parameter is renamed where it is written, which must be the only place B occurs in
    the Content-Type field (``index`` in ``fields``); the caller checks that the parsed
    root then reports C as its boundary. What differs is only the root's Content-Type
    text and an epilogue's copies of delimiter lines, neither of which is read here.
    """
    if not _PLAIN_BOUNDARY.fullmatch(boundary):
        return None
    old = boundary.encode("ascii")
    field_text = fields[index]
    if field_text.count(old) != 1:
        return None
    delimiter = b"--" + old
    if _delimiter_lines(body, 0, delimiter) is None:
        return None  # a delimiter inside a line: renaming could change the parse
    for new in _SHARED_BOUNDARIES:
        if new not in body and not any(new in f for f in fields):
            break
    else:
        return None
    fields = fields.copy()
    fields[index] = field_text.replace(old, new)
    return b"".join(fields) + body.replace(delimiter, b"--" + new), new.decode("ascii")


def split_parts(data: bytes, start: int, end: int, boundary: str) -> list[tuple[int, int]] | None:
    """Cut a multipart body at its delimiter lines, as the feed parser would, or decline.

    Returns each part's span in ``data`` (from after its delimiter line to the start of
    the next one, the line end before that included) for a body ``data[start:end]`` (which
    starts at a line start) whose every ``--B`` starts a line (after LF) that is exactly a
    delimiter line (an optional ``--``, spaces or tabs, LF or CRLF), with a first
    delimiter that is not the close one and no two delimiter lines in a row. Without a
    close delimiter, the last part runs to ``end`` (the only span that ends there: a close
    delimiter line lies before ``end``), as the feed parser reads it (its last subpart
    ends at the end of its input, and it reports ``CloseBoundaryNotFoundDefect`` on the
    multipart); a body whose last delimiter line is its last line (an empty last part) is
    declined. ``None`` for anything else (no
    boundary line, a boundary inside a line...), which the caller hands to the stdlib.
    One search per boundary occurrence, no regular expression: the feed parser compiles
    one per boundary, and boundaries are unique. On the body it accepts, the feed
    parser's boundary pattern matches exactly these lines (see :func:`_rename_boundary`),
    so its parts are these spans, and it reports no other defect for the container. The
    boundary is any printable ASCII (RFC 2046 allows spaces inside, "---- =_NextPart...";
    the feed parser escapes every character of it): nothing in it can end or span a line.
    """
    if not (boundary and boundary.isascii() and boundary.isprintable()):
        return None
    delimiter = b"--" + boundary.encode("ascii")
    size = len(delimiter)
    spans: list[tuple[int, int]] = []
    after = -1  # where the part after the last delimiter line starts
    at = data.find(delimiter, start, end)
    while at >= 0:
        if data[at - 1] != 0x0A:
            return None  # not at a line start
        line_end = data.find(b"\n", at + size, end)
        rest = data[at + size : end if line_end < 0 else line_end].removesuffix(b"\r")
        close = rest.startswith(b"--")
        if (rest[2:] if close else rest).strip(b" \t"):
            return None  # more on the line than a delimiter
        if after >= 0:
            if at == after:
                return None  # two delimiter lines in a row
            spans.append((after, at))
        elif close:
            return None  # the close delimiter first: no part at all
        if close:
            return spans
        if line_end < 0:
            return None  # the body ends on a delimiter line: an empty last part
        after = line_end + 1
        at = data.find(delimiter, after, end)
    if after < 0 or after == end:
        return None  # no delimiter line at all, or an empty last part
    spans.append((after, end))  # no close delimiter: the last part runs to the end
    return spans


@lru_cache(maxsize=256)
def boundary_of(value: str) -> str | None:
    # Message.get_boundary() of a message whose Content-Type is ``value``: on a value in
    # the common shape (headers.simple_parameters), the first "boundary" parameter's
    # value, its trailing white space removed; any other value (RFC 2231 parameters and
    # escapes among them) is left to the stdlib (a test holds the two together).
    params = simple_parameters(value)
    if params is not None:
        boundary = params.get("boundary")
        return None if boundary is None else boundary.rstrip()
    return message_of([("Content-Type", value)]).get_boundary()


def parse_structured(
    fields: list[bytes],
    headers: list[tuple[str, str]],
    data: bytes,
    header_len: int,
    lifted: dict[str, tuple[int, int]],
) -> Message:
    # A multipart or message/* message with a clean header block, for the walk: the feed
    # parser parses the body with only the root's first Content-Type and
    # Content-Transfer-Encoding fields, the only root headers it reads (through
    # Message.get()), so the parts come out as from the whole kept block; the caller reads
    # the root's other headers from ``headers``. The boundary is renamed when provable,
    # and large leaf bodies are lifted out (see _lift_large_parts) into ``lifted``.
    first: dict[str, int] = {}
    for i, (name, _) in enumerate(headers):
        key = name.lower()
        if key in ("content-type", "content-transfer-encoding") and key not in first:
            first[key] = i
    keep = sorted(first.values())
    fields = [fields[i] for i in keep]
    body: bytes | None = None
    if "content-type" in first:
        root = message_of([headers[first["content-type"]]])
        value = headers[first["content-type"]][1]
        content_type = content_type_of(value) if value.isascii() else root.get_content_type()
        boundary = root.get_boundary() if content_type.startswith("multipart/") else None
        if boundary is not None:
            if content_type == "multipart/digest":  # parts are message/rfc822 by default
                body = data[header_len:]
            else:
                body = _lift_large_parts(data, header_len, boundary, lifted)
            renamed = _rename_boundary(fields, keep.index(first["content-type"]), body, boundary)
            if renamed is not None:
                msg = _parser().parsebytes(renamed[0])
                parsed_value = msg.get("content-type")
                after = (
                    boundary_of(parsed_value)
                    if isinstance(parsed_value, str)
                    else msg.get_boundary()
                )
                if after == renamed[1]:
                    return msg
    return _parser().parsebytes(b"".join(fields) + (data[header_len:] if body is None else body))


# Large parts: the feed parser holds a part's body as lines, then as one str, several
# times its size (figures: benchmarks/README.md, bench_memory.py --cap). When
# the root boundary's delimiter lines are provably the only places it occurs (as for
# _rename_boundary), a part between two delimiter lines whose body is longer than
# LARGE_BODY_BYTES, whose header block ends at a blank line within max-header reach and
# describes a leaf (not multipart/* or message/*, no stray line), is parsed with its body
# replaced by a placeholder line (a name that occurs nowhere in the message; not in a
# multipart/digest, where a part without Content-Type is message/rfc822); the feed
# parser then stores the placeholder as the part's payload, and _leaf reads the real body
# from the message's bytes: what the parser would have stored, less the line end before
# the delimiter (RFC 2046 §5.1.1: it belongs to the delimiter, and the parser removes it).
# Nothing else of a leaf's parse depends on its body's lines.
_LIFT_PREFIX = b"=_urlsift_lifted_"


def _delimiter_lines(data: bytes, start: int, delimiter: bytes) -> list[int] | None:
    # Where each "--B" of data[start:] is, when every one starts a line that is exactly a
    # delimiter (optional "--", spaces or tabs, a line end); None otherwise.
    out = []
    at = data.find(delimiter, start)
    while at >= 0:
        if at == start or data[at - 1] != 0x0A:  # not at a line start (LF before)
            return None
        end = data.find(b"\n", at)
        rest = data[at + len(delimiter) : end if end >= 0 else len(data)]
        if rest.endswith(b"\r"):
            rest = rest[:-1]
        if rest.startswith(b"--"):
            rest = rest[2:]
        if rest.strip(b" \t"):
            return None
        out.append(at)
        at = data.find(delimiter, at + 1)
    return out


def _lift_large_parts(
    data: bytes, start: int, boundary: str, lifted: dict[str, tuple[int, int]]
) -> bytes:
    # data[start:] with large leaf bodies replaced by placeholders (see above), recording
    # each placeholder's body as (start, stop) in ``data``; data[start:] when none is.
    if len(data) - start <= LARGE_BODY_BYTES or not _PLAIN_BOUNDARY.fullmatch(boundary):
        return data[start:]
    delimiter = b"--" + boundary.encode("ascii")
    lines = _delimiter_lines(data, start, delimiter)
    if lines is None or _LIFT_PREFIX in data:
        return data[start:]
    pieces: list[bytes] = []
    copied = start
    for at, stop in itertools.pairwise(lines):
        if data.startswith(b"--", at + len(delimiter)):
            break  # the close delimiter: what follows is the epilogue
        line_end = data.find(b"\n", at) + 1
        if stop - line_end <= LARGE_BODY_BYTES:
            continue
        prefix = data[line_end : min(stop, line_end + MAX_LIFTED_HEADER)]
        header_len, body_start = find_body(prefix)
        block = prefix[:body_start]
        if body_start <= header_len or body_start == len(prefix) or _lone_cr(block):
            continue  # no blank line within reach, a URL line ends the block, or a lone CR
        part = _parser().parsebytes(prefix[:header_len], headersonly=True)
        if needs_full_parse(part):
            continue
        body_end = stop - (2 if data[stop - 2 : stop] == b"\r\n" else 1)
        name = f"{_LIFT_PREFIX.decode('ascii')}{len(lifted)}_="
        lifted[name] = (line_end + body_start, body_end)
        pieces += [data[copied : line_end + body_start], name.encode("ascii"), data[body_end:stop]]
        copied = stop
    if not pieces:
        return data[start:]
    pieces.append(data[copied:])
    return b"".join(pieces)


def _lone_cr(block: bytes) -> bool:
    # A CR not followed by LF: a line end to the feed parser, not to find_body.
    return block.count(b"\r") != block.count(b"\r\n")


MAX_LIFTED_HEADER = 64 << 10
"""Longest part header block looked for when lifting a large part out of the parse."""


def parse_message(
    data: bytes, max_header_bytes: int, keep_url_headers: bool = True, *, fast: bool = True
) -> tuple[Message, list[Defect]]:
    """Parse one message's bytes with the stdlib (``compat32``), capping the header block.

    Args:
        data: the message bytes (no ``From_`` line needed, but one is tolerated).
        max_header_bytes: header bytes kept; later header lines are dropped.
        keep_url_headers: keep ``List-*``, ``Archived-At`` and ``Link`` (for
            ``scan_headers``); other fields than context and MIME ones are dropped.
        fast: cut a clean header block into fields without the parser's line loop (see
            the module notes); False always takes the parser's own path. Both give the
            same message.

    Returns:
        The parsed message and any ``header-too-large`` defect.

    Raises:
        Exception: whatever the stdlib parser raises on pathological input (for example
            ``RecursionError`` on extreme nesting); :func:`~.parts.message_units` catches it.
    """
    data, header_len, body_start, defects = cap_header(data, max_header_bytes)
    fields = kept_fields(data[:header_len], keep_url_headers) if fast else None
    if fields is None:
        return parse_stdlib(data, header_len, body_start, keep_url_headers), defects
    msg = message_of(raw_headers(fields))
    if msg.get_content_maintype() in ("multipart", "message"):
        return _parser().parsebytes(b"".join(fields) + data[header_len:]), defects
    attach_body(msg, data[body_start:])
    return msg, defects
