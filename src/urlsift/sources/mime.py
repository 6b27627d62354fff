"""MIME walking: one raw message in, one decoded text unit per text part out.

Strategy: the standard library's ``email`` package does all of MIME, with
``policy=compat32`` so that malformed input becomes ``msg.defects`` instead of exceptions.
This module only decides what to scan and how to turn bytes into ``str``:

* Parsing (the reference path). The header block (up to the first empty line, capped at
  ``max_header_bytes``), less the fields this module never reads (``Received``, ``X-*``...:
  see ``_UNREAD_FIELD``), is parsed with ``headersonly=True``. A message that is not
  ``multipart/*`` or ``message/*`` then gets its body attached as the feed parser itself
  would attach it (bytes as ASCII with surrogate escapes), which skips the parser's
  line-by-line body loop; any other message, or a header block with a stray non-header
  line, is parsed in full. The stdlib decodes the transfer encoding
  (``get_payload(decode=True)``): quoted-printable soft line breaks vanish, so a URL broken
  by one comes out whole.
* Parsing (the fast paths; the same results, which tests check against the reference path
  message by message). Messages are small and many, so the cost is per message, not per
  byte. (1) A *clean* header block (every line a field or a continuation, LF line ends,
  no CR) is cut into fields by one regular expression; each kept field goes through the
  stdlib's own ``compat32.header_source_parse``, which is all the parser's header loop
  does for such a block. (2) A single-part message then needs no ``Message`` at all unless
  its body is quoted-printable, base64 or uuencoded, which the stdlib decodes on a
  message holding just that body and its Content-Transfer-Encoding. (3) What the stdlib
  concludes from a Content-Type or Content-Transfer-Encoding value (type, charset,
  ``format``, ``delsp``) is cached by value. (4) A multipart's boundary is renamed to a
  shared one before the feed parser sees it, when that provably changes nothing but the
  name, so the parser's per-boundary regular expression comes from ``re``'s cache (see
  :func:`_rename_boundary`). Anything else takes the reference path.
* Parsing (streamed; again the same results, tests compare them). A single message too
  large to hold, read by .archive in two passes: :func:`single_part_head` reads its header
  block by the steps above and accepts a message whose only part has a body that is used
  as is (see the notes above it); :func:`streamed_message_units` builds the units from
  what a first pass learned about the body (:func:`plan_decoding` takes
  :func:`decode_text`'s branches on it), with the text decoded lazily from a second pass.
* Walking. Parts are numbered like IMAP body parts: ``1`` for a single-part message, ``1``,
  ``2``, ``2.1``... inside multiparts; an encapsulated ``message/rfc822`` at ``n`` has its
  parts at ``n.1``, ``n.2``... Every ``text/*`` part is scanned; other parts are skipped and
  counted unless ``include_attachments``. A ``multipart/*`` whose body could not be split
  (missing boundary) is scanned as text (``multipart-not-split``). Nesting deeper than
  :data:`MAX_MIME_DEPTH` makes the whole message be scanned as raw text
  (``mime-too-deep``). When a message yields no unit but has defects, one unit without
  text (the root's content type, part ``1``) carries them.
* Charsets. Text is decoded with the declared charset; when that is unknown (or not a text
  encoding) or the bytes do not fit it, UTF-8 is tried, and then the declared charset (or
  UTF-8) with ``surrogateescape``: bytes valid in no charset become U+DC80..U+DCFF, exactly
  as :mod:`urlsift.sources.text` does, so text is never lost and decoding never raises.
  Line ends are normalised to LF (CRLF is MIME's canonical form, not content).
* ``text/html`` becomes visible text plus attribute URLs (:mod:`.htmltext`);
  ``text/plain; format=flowed`` is unwrapped (:mod:`.flowed`).
* Context: ``Message-ID``, ``Date`` and ``From`` as written (unfolded), ``Subject`` with
  RFC 2047 encoded words decoded; undecodable bytes there become U+FFFD (context is
  metadata, never scanned), values are cut at :data:`~.options.MAX_CONTEXT_CHARS`.
* Defects. The stdlib's defects become ``mime-defect`` (class name in the message); this
  module adds ``unknown-charset``, ``charset-decode-error``, ``charset-mismatch``,
  ``unknown-transfer-encoding``, ``multipart-not-split``, ``html-parse-error``,
  ``header-too-large``, ``url-in-header-block``, ``header-decode-error``, ``mime-too-deep``
  and, should the parser itself fail, ``message-parse-error`` (the raw message is then
  scanned as UTF-8 text so nothing is lost). All are warnings: they describe the input,
  and never by themselves make a URL invalid. Defects of a message or of a multipart
  container are attached to every unit beneath it.
* Header block end (:func:`find_body`): the first empty line, or a line starting
  ``scheme://`` (a message that lost its separator, whose first body line is a URL: that
  line is the body's first, with ``url-in-header-block``, not a field named ``http``).
* Transfer encodings are compared stripped (``base64 `` is base64: RFC 2045 allows white
  space around the token; the stdlib would leave such a body undecoded).
* ``text/calendar`` parts are unfolded (RFC 5545 §3.1, :func:`unfold_calendar`); their
  lines and columns are those of the unfolded content lines.
* Large messages (near the 64 MiB cap) hold each of their bytes, decoded body and text
  once: bodies over ``LARGE_BODY_BYTES`` are transfer-decoded in slices
  (:mod:`.transfer`), large leaf parts of a multipart are lifted out of the feed parser
  (:func:`_lift_large_parts`, on the fast and the reference parse), and a long text
  reaches the scanner in pieces (:data:`TEXT_PIECE_CHARS`). The results are the
  stdlib's (tests compare them with the thresholds made tiny).
"""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from email.header import decode_header
from email.message import Message
from email.parser import BytesParser
from email.policy import compat32
from email.utils import collapse_rfc2231_value
from functools import lru_cache

from .._model import Defect, MessageContext, TextUnit
from .bodystream import LINE_END, BodyFacts, decode_stream, streamable_codec
from .flowed import unflow
from .htmltext import html_to_text
from .options import MAX_CONTEXT_CHARS, MailOptions
from .transfer import LARGE_BODY_BYTES, decode_body

MAX_MIME_DEPTH = 64
"""Deepest MIME nesting walked; a deeper message is scanned as raw text (``mime-too-deep``)."""

KNOWN_TRANSFER_ENCODINGS = frozenset(
    {"", "7bit", "8bit", "binary", "quoted-printable", "base64"}
    | {"x-uuencode", "uuencode", "uue", "x-uue"}
)
"""Content-Transfer-Encoding values the stdlib decodes (others pass through as is)."""

ENCAPSULATED_TYPES = frozenset({"message/rfc822", "message/news", "message/global"})
"""``message/*`` types whose body is a whole message, walked for its parts."""

URL_HEADER_NAMES = frozenset({"archived-at", "link"})
"""Headers scanned with ``scan_headers``, besides every ``List-*`` header (RFC 2369)."""

# Codecs Python knows but that are not character sets a message may declare.
_NOT_CHARSETS = frozenset({"unicode-escape", "raw-unicode-escape", "idna", "punycode", "undefined"})
_ASCII_PROBE = bytes(range(0x20, 0x7F)) + b"\t\n\r"
_FOLD = re.compile(r"\r?\n(?=[ \t])")
_LINE_END = LINE_END

_PARSER = BytesParser(policy=compat32)

# A header field (RFC 5322 §2.2: a field-name line plus its folded continuation lines)
# whose name is none that this module reads. Such fields are dropped from the top-level
# header block before parsing: Received, DKIM and X- headers are often half the bytes of a
# message, and the stdlib parser would otherwise handle each line in Python. Lines that are
# not well-formed fields are kept, so the parser still sees (and reports) them.
_READ_FIELDS = rb"content-type|content-transfer-encoding|message-id|date|from|subject"
_ROOT_FIELDS = frozenset(_READ_FIELDS.decode("ascii").split("|"))
_URL_FIELDS = rb"|list-[!-9;-~]*|archived-at|link"


def _unread_field_pattern(names: bytes) -> re.Pattern[bytes]:
    return re.compile(
        rb"^(?!(?:" + names + rb")[ \t]*:)[!-9;-~]+[ \t]*:.*\n(?:[ \t].*\n)*",
        re.IGNORECASE | re.MULTILINE,
    )


_UNREAD_FIELD = _unread_field_pattern(_READ_FIELDS)
_UNREAD_FIELD_KEEP_URLS = _unread_field_pattern(_READ_FIELDS + _URL_FIELDS)


def _warning(code: str, message: str) -> Defect:
    return Defect(code, message, "warning")


@lru_cache(maxsize=256)
def _codec_name(charset: str) -> str | None:
    # The Python codec for a declared charset, or None if it is unknown or not a text
    # encoding (rot13, base64 ... decline bytes.decode with LookupError).
    try:
        info = codecs.lookup(charset)
    except (LookupError, ValueError, TypeError):
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_CHARSETS:
        return None
    return info.name


@lru_cache(maxsize=256)
def _ascii_compatible(codec: str) -> bool:
    # True when ASCII bytes mean ASCII text in this codec (not UTF-16, EBCDIC, UTF-7 ...).
    try:
        return _ASCII_PROBE.decode(codec) == _ASCII_PROBE.decode("ascii")
    except (UnicodeError, LookupError):
        return False


def _unknown_charset(charset: str) -> Defect:
    return _warning("unknown-charset", f"unknown charset {charset[:80]!r}; read as UTF-8")


def _charset_lies(charset: str | None) -> Defect:
    return _warning(
        "charset-decode-error",
        f"bytes invalid in declared charset {charset!r}; they are valid UTF-8",
    )


def _charset_mismatch(charset: str | None) -> Defect:
    return _warning(
        "charset-mismatch",
        f"declared charset {charset!r} does not fit: the bytes are NUL-free 8-bit text "
        "(ASCII or UTF-8) without a byte-order mark; read as UTF-8",
    )


# Codecs whose text is made of 2- or 4-byte units: ASCII text in them is full of NUL bytes.
_WIDE_CODECS = frozenset({"utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"})
# The bytes of plain 8-bit text: printable ASCII, tab, LF, FF, CR and every 8-bit byte.
_TEXT_BYTES = bytes([0x09, 0x0A, 0x0C, 0x0D, *range(0x20, 0x7F), *range(0x80, 0x100)])


def _implausible_wide(codec: str, payload: bytes) -> bool:
    """Whether a payload declared in a UTF-16/32 codec is really 8-bit text.

    A declared UTF-16 or UTF-32 charset is implausible when the bytes hold no NUL and no
    control byte other than tab, LF, FF and CR (ASCII text in those codecs is half or
    three quarters NUL bytes, and CJK text in them has line ends, spaces or CJK
    punctuation, all of which hold a NUL or a control byte) and they are valid UTF-8
    (which a byte-order mark FF FE or FE FF is not). Reading such bytes as UTF-16 turns
    ASCII into CJK characters and every URL in it vanishes.
    """
    return (
        codec in _WIDE_CODECS
        and bool(payload)
        and not payload.translate(None, _TEXT_BYTES)
        and (payload.isascii() or _valid_utf8(payload))
    )


def _valid_utf8(payload: bytes) -> bool:
    try:
        payload.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _charset_undecodable(charset: str | None) -> Defect:
    declared = f"declared charset {charset[:80]!r}" if charset is not None else "no charset"
    return _warning(
        "charset-decode-error",
        f"8-bit bytes invalid in {declared} and in UTF-8; kept as surrogate escapes",
    )


def decode_text(payload: bytes, charset: str | None) -> tuple[str, list[Defect]]:
    """Decode a part's bytes to text, never raising and never losing a byte.

    Args:
        payload: the part's bytes after transfer decoding.
        charset: the declared ``charset`` parameter, or ``None``.

    Returns:
        The text and any ``unknown-charset`` / ``charset-decode-error`` /
        ``charset-mismatch`` defects. Bytes that fit no tried charset are kept as
        surrogate escapes (U+DC80..U+DCFF). A UTF-16 or UTF-32 charset declared on bytes
        that are plainly 8-bit text (see :func:`_implausible_wide`) is not used: the bytes
        are read as UTF-8, with ``charset-mismatch``.
    """
    defects: list[Defect] = []
    codec: str | None = None
    if charset is not None:
        codec = _codec_name(charset)
        if codec is None:
            defects.append(_unknown_charset(charset))
    if payload.isascii() and (codec is None or _ascii_compatible(codec)):
        return payload.decode("ascii"), defects
    if codec is not None and _implausible_wide(codec, payload):
        defects.append(_charset_mismatch(charset))
        return payload.decode("utf-8"), defects
    if codec is not None:
        try:
            return payload.decode(codec), defects
        except (UnicodeError, LookupError):
            pass
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        if codec is not None:
            defects.append(_charset_lies(charset))
        return text, defects
    defects.append(_charset_undecodable(charset))
    if codec is not None:
        try:
            return payload.decode(codec, "surrogateescape"), defects
        except (UnicodeError, LookupError):
            pass
    return payload.decode("utf-8", "surrogateescape"), defects


def stream_codec(charset: str | None) -> tuple[bool, str | None]:
    """Whether a body declared in ``charset`` can be decoded as a stream, and its codec.

    Returns:
        ``(streamable, codec)``: the codec is ``None`` for no charset or an unknown one
        (read as UTF-8 by :func:`decode_text`); a known codec must be a
        :func:`~.bodystream.streamable_codec`.
    """
    codec = None if charset is None else _codec_name(charset)
    return codec is None or streamable_codec(codec), codec


def plan_decoding(facts: BodyFacts, charset: str | None) -> tuple[str, list[Defect]]:
    """Decide as :func:`decode_text` would, from facts learned about a payload not held.

    The branches of decode_text, in its order, on :class:`~.bodystream.BodyFacts`; with
    the codec returned, :func:`~.bodystream.decode_stream` (``surrogateescape``) then
    gives decode_text's text, since the branch's decoding succeeds on this payload and
    agrees with ``surrogateescape`` wherever it succeeds.

    decode_text's ``charset-mismatch`` branch needs no fact: it is for UTF-16 and UTF-32
    only, which are never streamable.

    Args:
        facts: what a :class:`~.bodystream.BodyCheck` for this charset's codec learned.
        charset: the declared charset, for which :func:`stream_codec` says streamable.

    Returns:
        The codec to decode with, and decode_text's defects in its order.
    """
    defects: list[Defect] = []
    codec: str | None = None
    if charset is not None:
        codec = _codec_name(charset)
        if codec is None:
            defects.append(_unknown_charset(charset))
    if facts.ascii and (codec is None or _ascii_compatible(codec)):
        return "ascii", defects
    if codec is not None and facts.codec_valid:
        return codec, defects
    if facts.utf8_valid:
        if codec is not None:
            defects.append(_charset_lies(charset))
        return "utf-8", defects
    defects.append(_charset_undecodable(charset))
    # decode_text then tries the declared codec with surrogateescape, which cannot fail
    # for a streamable codec, and else UTF-8 with surrogateescape.
    return codec or "utf-8", defects


def _header_text(value: object, lossless: bool = False) -> str:
    # A raw header value (str with surrogate escapes for 8-bit bytes) as text: the bytes
    # read as UTF-8, unfolded (RFC 5322 §2.2.3).
    text = str(value)
    if not text.isascii():
        raw = text.encode("utf-8", "surrogateescape")
        text = raw.decode("utf-8", "surrogateescape" if lossless else "replace")
    if "\n" in text:
        text = _FOLD.sub("", text)
    return text.strip()


def decode_subject(value: str) -> tuple[str, list[Defect]]:
    """Decode RFC 2047 encoded words in an unfolded header value, never raising.

    Args:
        value: the header value as text (see :func:`message_units`).

    Returns:
        The decoded text and any ``header-decode-error`` defects; on failure the value is
        returned as written.
    """
    if "=?" not in value:
        return value, []
    try:
        pieces = decode_header(value)
    except Exception as exc:  # HeaderParseError, binascii errors ...
        return value, [
            _warning("header-decode-error", f"Subject encoded words: {type(exc).__name__}")
        ]
    defects: list[Defect] = []
    out: list[str] = []
    for piece, charset in pieces:
        if isinstance(piece, str):
            out.append(piece)
            continue
        if charset is None:
            out.append(piece.decode("raw-unicode-escape", "replace"))
            continue
        codec = _codec_name(charset)
        if codec is None:
            defects.append(
                _warning("header-decode-error", f"Subject: unknown charset {charset[:80]!r}")
            )
            codec = "utf-8"
        try:
            out.append(piece.decode(codec))
        except (UnicodeError, LookupError):
            defects.append(
                _warning("header-decode-error", f"Subject: bytes invalid in {charset[:80]!r}")
            )
            out.append(piece.decode("utf-8", "replace"))
    return "".join(out), defects


def _defects_of(part: Message, path: str) -> list[Defect]:
    # The stdlib's defect objects as stable "mime-defect" records.
    out = []
    for defect in part.defects:
        detail = str(defect)
        name = type(defect).__name__
        message = f"part {path}: {name}" + (f": {detail[:200]}" if detail else "")
        out.append(_warning("mime-defect", message))
    return out


def find_body(data: bytes) -> tuple[int, int]:
    """Find where a message's header block ends and its body starts.

    The block ends at the first empty line (LF or CRLF), or just before the first line
    that starts with ``scheme://`` (a URL: no header field is written so), whichever comes
    first; without either, it is all of ``data``. A message that lost the blank line after
    its header block, and whose first body line is a URL, would otherwise have that line
    read as a field named ``http`` (see :func:`url_line_defect`). On a prefix of a
    message, a result with ``header < len(data)`` is the message's own (no earlier end can
    come past the prefix); ``header == body == len(data)`` means none was found yet.

    Returns:
        ``(header, body)``: the block's length including its last line end, and the
        offset of the body (equal to ``header`` when the block ends at a URL line).
    """
    header, body = _blank_line(data)
    url_line = _URL_LINE.search(data, 0, header)
    if url_line is not None:
        return url_line.start(), url_line.start()
    return header, body


def url_line_defect(data_length: int, header: int, body: int) -> Defect | None:
    """The defect of a header block that :func:`find_body` ended at a URL line, or None.

    Args:
        data_length: bytes in the data find_body searched (or more of the message).
        header: find_body's first result.
        body: find_body's second result.
    """
    if header != body or header >= data_length:
        return None
    return _warning(
        "url-in-header-block",
        "a line starting with a URL where a header field was expected (no blank line "
        "before it): read as the first body line",
    )


# A line starting "scheme://" (RFC 1738 §2.1 scheme characters, lower or upper case).
_URL_LINE = re.compile(rb"^[A-Za-z][A-Za-z0-9+.-]*://", re.MULTILINE)


def _blank_line(data: bytes) -> tuple[int, int]:
    # find_body's first empty line alone: (header, body), or (len, len) when none.
    if data.startswith(b"\n"):
        return 0, 1
    if data.startswith(b"\r\n"):
        return 0, 2
    lf = data.find(b"\n\n")
    if lf >= 0 and data.find(b"\r", 0, lf) < 0:
        return lf + 1, lf + 2  # no CR before it, so no CRLF blank line either
    # An earlier CRLF blank line must end before this LF one: no need to search past it.
    crlf = data.find(b"\n\r\n", 0, lf + 2 if lf >= 0 else len(data))
    if lf >= 0 and (crlf < 0 or lf < crlf):
        return lf + 1, lf + 2
    if crlf >= 0:
        return crlf + 1, crlf + 3
    return len(data), len(data)


def _cap_header(data: bytes, max_header_bytes: int) -> tuple[bytes, int, int, list[Defect]]:
    # (data, header length, body offset, defects) with the header block cut at the cap.
    # A block that ends at a URL line gets the blank line it lacks (a copy of the
    # message, for such broken ones only), so that every parse below sees the same split.
    header_len, body_start = find_body(data)
    defects = []
    url_line = url_line_defect(len(data), header_len, body_start)
    if url_line is not None:
        defects.append(url_line)
        data = data[:header_len] + b"\n" + data[header_len:]
        body_start += 1
    if header_len <= max_header_bytes:
        return data, header_len, body_start, defects
    cut = data.rfind(b"\n", 0, max_header_bytes) + 1
    defect = _warning("header-too-large", f"header block of {header_len} bytes cut to {cut} bytes")
    data = data[:cut] + data[header_len:]
    return data, cut, body_start - (header_len - cut), [*defects, defect]


def _attach_body(msg: Message, body: bytes) -> None:
    # The body as the feed parser itself attaches a non-multipart one: bytes read as
    # ASCII with surrogate escapes (BytesParser), as one string.
    msg.set_payload(body.decode("ascii", "surrogateescape"))


def _parse_stdlib(
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
    msg, header = _parse_header_stdlib(data[:header_len], keep_url_headers)
    if _needs_full_parse(msg):
        # A stray non-header line in the header block, or a body with structure:
        # let the feed parser do everything.
        boundary = msg.get_boundary() if msg.get_content_maintype() == "multipart" else None
        if (
            lifted is not None
            and boundary is not None
            and not msg.get_payload()  # no stray line: the body starts at header_len
            and msg.get_content_type() != "multipart/digest"
        ):
            return _PARSER.parsebytes(
                header + _lift_large_parts(data, header_len, boundary, lifted)
            )
        return _PARSER.parsebytes(header + data[header_len:])
    _attach_body(msg, data[body_start:])
    return msg


def _parse_header_stdlib(header: bytes, keep_url_headers: bool) -> tuple[Message, bytes]:
    # The header-only parse of the header block less its unread fields, and those bytes.
    unread = _UNREAD_FIELD_KEEP_URLS if keep_url_headers else _UNREAD_FIELD
    header = unread.sub(b"", header)
    return _PARSER.parsebytes(header, headersonly=True), header


def _needs_full_parse(msg: Message) -> bool:
    # A header-only parse that met a non-header line (now its payload), or a structure.
    return bool(msg.get_payload()) or msg.get_content_maintype() in ("multipart", "message")


# -- fast path ---------------------------------------------------------------------------
#
# Most header blocks are clean: every line is a field (RFC 5322 §2.2: field-name, colon,
# value) or a continuation line (starting with a space or tab), every line ends in LF, and
# there is no CR. The feed parser's header loop is then fully determined: each field
# becomes ``compat32.header_source_parse`` of its lines, in order, with no defect and no
# body line. So one regular expression cuts the block into fields (they must tile it
# exactly), and the kept ones go to that same stdlib function, instead of the parser's
# Python loop over every line. Any other block (a ``From`` line, a stray line, a name with
# a space before the colon, CRLF or a lone CR, a continuation first ...) takes the
# reference path, which reports what the parser finds.
def _field_pattern(names: bytes) -> re.Pattern[bytes]:
    # Each match is one whole field: group 1 when it is kept (named ``names``), else 2.
    # Anchored at line starts, so a long line that is no field costs one pass, not one per
    # position (the block is up to max_header_bytes long); backtracking stays within a
    # line, and cannot change a match: "." stops at LF, a name cannot hold the colon, and
    # nothing follows the continuation lines. (Not possessive: Python 3.10's re has no
    # "*+".)
    return re.compile(
        rb"^(?:((?i:" + names + rb"):.*\n(?:[ \t].*\n)*)|([!-9;-~]+:.*\n(?:[ \t].*\n)*))",
        re.MULTILINE,
    )


_FIELD = _field_pattern(_READ_FIELDS)
_FIELD_KEEP_URLS = _field_pattern(_READ_FIELDS + _URL_FIELDS)


def _kept_fields(header: bytes, keep_url_headers: bool) -> list[bytes] | None:
    # The kept fields of a clean header block, as written; None if it is not clean.
    if b"\r" in header:
        return None
    # split() gives [gap, kept, other, gap, kept, other, ..., gap]: the fields tile the
    # block when every gap is empty.
    pieces = (_FIELD_KEEP_URLS if keep_url_headers else _FIELD).split(header)
    if any(pieces[0::3]):
        return None  # some line is neither a field nor a continuation
    return list(filter(None, pieces[1::3]))


def _raw_headers(fields: list[bytes]) -> list[tuple[str, str]]:
    # (name, value) as the feed parser stores each field of a clean block:
    # compat32.header_source_parse of the field's lines, which for such a field is the
    # name up to the first colon and the rest with leading spaces and tabs and the final
    # line end removed (the lines joined again as they were). Written out here, as a
    # method call per field costs more than the work; a test holds it to the stdlib's.
    headers = []
    for field_text in fields:
        name, value = field_text.decode("ascii", "surrogateescape").split(":", 1)
        headers.append((name, value.lstrip(" \t").rstrip("\r\n")))
    return headers


def _message_of(headers: list[tuple[str, str]]) -> Message:
    msg = Message(policy=compat32)
    for name, value in headers:
        msg.set_raw(name, value)
    return msg


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


@lru_cache(maxsize=256)
def _boundary_of(value: str) -> str | None:
    # Message.get_boundary() of a message whose Content-Type is ``value``.
    return _message_of([("Content-Type", value)]).get_boundary()


def _parse_structured(
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
        root = _message_of([headers[first["content-type"]]])
        value = headers[first["content-type"]][1]
        content_type = _content_type_of(value) if value.isascii() else root.get_content_type()
        boundary = root.get_boundary() if content_type.startswith("multipart/") else None
        if boundary is not None:
            if content_type == "multipart/digest":  # parts are message/rfc822 by default
                body = data[header_len:]
            else:
                body = _lift_large_parts(data, header_len, boundary, lifted)
            renamed = _rename_boundary(fields, keep.index(first["content-type"]), body, boundary)
            if renamed is not None:
                msg = _PARSER.parsebytes(renamed[0])
                parsed_value = msg.get("content-type")
                after = (
                    _boundary_of(parsed_value)
                    if isinstance(parsed_value, str)
                    else msg.get_boundary()
                )
                if after == renamed[1]:
                    return msg
    return _PARSER.parsebytes(b"".join(fields) + (data[header_len:] if body is None else body))


# Large parts: the feed parser holds a part's body as lines, then as one str, several
# times its size, so a multipart message near the 64 MiB cap cost ten times the cap. When
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
        part = _PARSER.parsebytes(prefix[:header_len], headersonly=True)
        if _needs_full_parse(part):
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


def _first_values(headers: list[tuple[str, str]]) -> dict[str, str]:
    # The first value of each field the root is read for, by lower-case name, as
    # Message.get() finds it.
    values: dict[str, str] = {}
    for name, value in headers:
        key = name.lower()
        if key in _ROOT_FIELDS and key not in values:
            values[key] = value
    return values


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
            ``RecursionError`` on extreme nesting); :func:`message_units` catches it.
    """
    data, header_len, body_start, defects = _cap_header(data, max_header_bytes)
    fields = _kept_fields(data[:header_len], keep_url_headers) if fast else None
    if fields is None:
        return _parse_stdlib(data, header_len, body_start, keep_url_headers), defects
    msg = _message_of(_raw_headers(fields))
    if msg.get_content_maintype() in ("multipart", "message"):
        return _PARSER.parsebytes(b"".join(fields) + data[header_len:]), defects
    _attach_body(msg, data[body_start:])
    return msg, defects


@dataclass(slots=True)
class MessageResult:
    """What one message produced, for the caller's statistics."""

    units: list[TextUnit] = field(default_factory=list)
    """Units in part order (the header unit, if any, first)."""
    text_parts: int = 0
    """Parts scanned (units other than the header unit)."""
    header_units: int = 0
    """1 when a header unit was produced."""
    skipped: int = 0
    """Parts not scanned (attachments and other non-text parts)."""
    defects: int = 0
    """Defects found in the message (its units' defects, each counted once)."""


class _TooDeepError(Exception):
    """MIME nesting beyond MAX_MIME_DEPTH: the message is scanned as raw text instead."""


@dataclass(slots=True)
class _Walk:
    source: str
    options: MailOptions
    number: int
    offset: int
    result: MessageResult
    root_type: str = "message/rfc822"
    found: list[Defect] = field(default_factory=list)  # every defect seen, for the count
    # Bodies lifted out of the parse (_lift_large_parts): placeholder -> (start, stop) in
    # ``data``, the message's bytes.
    lifted: dict[str, tuple[int, int]] = field(default_factory=dict)
    data: bytes = b""
    # The message's context fields, set once its header is read.
    message_id: str | None = None
    date: str | None = None
    sender: str | None = None
    subject: str | None = None


def _context(walk: _Walk, path: str, content_type: str) -> MessageContext:
    return MessageContext(
        message=walk.number,
        message_offset=walk.offset,
        message_id=walk.message_id,
        date=walk.date,
        from_=walk.sender,
        subject=walk.subject,
        part=path,
        content_type=content_type,
    )


# A part's text longer than this is handed to the scanner in pieces of this many
# characters: the scanner's work on one chunk makes copies of it, so a whole 40 MB text
# would cost several times its size at once (the results are the same wherever the
# chunks are cut).
TEXT_PIECE_CHARS = 1 << 16


def _pieces(text: str) -> Iterator[str]:
    # The text in pieces of TEXT_PIECE_CHARS, lazily (it is released when they are done).
    for start in range(0, len(text), TEXT_PIECE_CHARS):
        yield text[start : start + TEXT_PIECE_CHARS]


def _emit(walk: _Walk, path: str, content_type: str, text: str, defects: list[Defect]) -> None:
    chunks: Iterable[str] = (text,) if text else ()
    if len(text) > TEXT_PIECE_CHARS:
        chunks = _pieces(text)
    _emit_chunks(walk, path, content_type, chunks, defects)


def _emit_chunks(
    walk: _Walk, path: str, content_type: str, chunks: Iterable[str], defects: list[Defect]
) -> None:
    unit = TextUnit(
        source=walk.source,
        chunks=chunks,
        context=_context(walk, path, content_type),
        defects=tuple(defects),
    )
    walk.result.units.append(unit)
    walk.result.text_parts += 1


def _param(params: dict[str, object], name: str) -> str | None:
    # A Content-Type parameter as text (RFC 2231 values collapsed), or None.
    value = params.get(name)
    if value is None:
        return None
    if isinstance(value, tuple):
        value = collapse_rfc2231_value(value)
    return str(value).strip()


# -- what a part's headers say -------------------------------------------------------------
#
# The stdlib reads Content-Type and Content-Transfer-Encoding (``get_content_type``,
# ``get_params``); what it concludes depends on the header's value alone, and a few values
# ("text/plain; charset=us-ascii") make up most of an archive. So the conclusions are
# cached by value, each computed once by the stdlib on a message holding just that header.
# Values with 8-bit bytes (which the stdlib hands out as Header objects) are not cached.

_TextParams = tuple[str | None, bool, bool]
"""(charset in lower case or None, format=flowed, DelSp=yes) of a text part."""


@lru_cache(maxsize=512)
def _content_type_of(value: str) -> str:
    # Message.get_content_type() of a part whose Content-Type is ``value``.
    return _message_of([("Content-Type", value)]).get_content_type()


def _part_type(part: Message) -> tuple[str, object]:
    # (content type, the Content-Type value or None) of a parsed part.
    value = part.get("content-type")
    if isinstance(value, str):
        return _content_type_of(value), value
    return part.get_content_type(), value


def _text_params(part: Message, plain: bool) -> _TextParams:
    # The charset, and for text/plain the format=flowed and DelSp parameters.
    params: dict[str, object] = {}
    for key, value in part.get_params(failobj=[])[1:]:
        params.setdefault(key.lower(), value)
    charset = _param(params, "charset")
    flowed = plain and (_param(params, "format") or "").lower() == "flowed"
    delsp = flowed and (_param(params, "delsp") or "").lower() == "yes"
    return (charset.lower() if charset else None), flowed, delsp


@lru_cache(maxsize=512)
def _text_params_of(value: str, plain: bool) -> _TextParams:
    return _text_params(_message_of([("Content-Type", value)]), plain)


def _part_text_params(part: Message, value: object, plain: bool) -> _TextParams:
    if isinstance(value, str):
        return _text_params_of(value, plain)
    return _text_params(part, plain)


@lru_cache(maxsize=256)
def _transfer_encoding_of(value: str) -> str:
    return _header_text(value).lower()


def _scanned(walk: _Walk, path: str, content_type: str, own: list[Defect]) -> bool:
    # Whether a leaf part of this type is scanned (counting it as skipped if not).
    if content_type.startswith("multipart/"):
        # The parser could not split it (no boundary, or none found): scan it as text.
        own.append(_warning("multipart-not-split", f"part {path}: {content_type} read as text"))
    elif not content_type.startswith("text/") and not walk.options.include_attachments:
        walk.result.skipped += 1
        return False
    return True


def _check_transfer_encoding(cte: str, path: str, own: list[Defect]) -> None:
    if cte not in KNOWN_TRANSFER_ENCODINGS:
        own.append(
            _warning(
                "unknown-transfer-encoding",
                f"part {path}: transfer encoding {cte[:80]!r} read as 8bit",
            )
        )


def _leaf(
    walk: _Walk, part: Message, path: str, inherited: list[Defect], content_type: str | None
) -> None:
    value: object  # the Content-Type value, for the parameters
    if content_type is None:
        content_type, value = _part_type(part)
    else:
        value = part.get("content-type")
    own: list[Defect] = []
    if not _scanned(walk, path, content_type, own):
        return
    cte_value = part.get("content-transfer-encoding", "")
    if isinstance(cte_value, str):
        _check_transfer_encoding(_transfer_encoding_of(cte_value), path, own)
    else:  # a Header object: the value has 8-bit bytes
        _check_transfer_encoding(_header_text(cte_value).lower(), path, own)
    decoded = _decoded_encoding(cte_value)
    if decoded is not None and str(cte_value).lower() != decoded:
        part.replace_header("Content-Transfer-Encoding", decoded)  # " base64 " -> "base64"
    payload: bytes | None = None
    # The payload as the parser stored it (get_payload() would decode a str holding
    # surrogate escapes with the charset, into a copy): Message has no public reader.
    body = getattr(part, "_payload", None)
    where = walk.lifted.get(body) if walk.lifted and isinstance(body, str) else None
    if where is not None:  # a lifted body: the message's bytes are the part's
        start, stop = where
        if decoded is None:
            payload = walk.data[start:stop]
        else:
            payload = decode_body(walk.data, start, decoded, stop)
            if payload is None:  # not clean: the stdlib decodes it, and reports why
                _attach_body(part, walk.data[start:stop])
    elif decoded is not None and isinstance(body, str) and len(body) > LARGE_BODY_BYTES:
        payload = decode_body(body, 0, decoded)  # in slices (.transfer), as the stdlib would
    del body
    if payload is None:
        got = part.get_payload(decode=True)
        payload = got if isinstance(got, bytes) else b""
    if part.defects:
        own.extend(_defects_of(part, path))  # after decoding: base64 defects appear then
    params = _part_text_params(part, value, content_type == "text/plain")
    _text_unit(walk, path, inherited, content_type, payload, params, own)


# RFC 5545 §3.1: a content line is folded by inserting CRLF and one space or tab; the
# line ends are LF by the time this applies.
_CALENDAR_FOLD = re.compile(r"\n[ \t]")
# Content types whose text needs a step over the whole text (not streamed).
_WHOLE_TEXT_TYPES = frozenset({"text/html", "text/calendar"})


def unfold_calendar(text: str) -> str:
    """Unfold the content lines of an iCalendar part (RFC 5545 §3.1).

    A line end followed by one space or tab is removed with that character, so a
    ``LOCATION:https://...`` or ``URL:...`` value folded at 75 octets is whole again.
    Lines and columns of the URLs found are then those of the unfolded content lines
    (as for a ``format=flowed`` part, whose lines are those of the unwrapped text).

    Args:
        text: the part's text, line ends already LF.

    Returns:
        The unfolded text.
    """
    return _CALENDAR_FOLD.sub("", text)


def _text_unit(
    walk: _Walk,
    path: str,
    inherited: list[Defect],
    content_type: str,
    payload: bytes,
    params: _TextParams,
    own: list[Defect],
) -> None:
    # A scanned leaf's bytes (after transfer decoding) as text, into a unit.
    charset, flowed, delsp = params
    text, charset_defects = decode_text(payload, charset)
    own.extend(charset_defects)
    if "\r" in text:
        text = _LINE_END.sub("\n", text)
    if content_type == "text/html":
        try:
            text = html_to_text(text)
        except Exception as exc:  # the stdlib tokenizer is lenient; be safe anyway
            own.append(
                _warning("html-parse-error", f"part {path}: {type(exc).__name__}; raw markup")
            )
    elif flowed:
        text = unflow(text, delsp)
    elif content_type == "text/calendar" and "\n" in text:
        text = unfold_calendar(text)
    walk.found.extend(own)
    _emit(walk, path, content_type, text, inherited + own if own else inherited)


# get_payload(decode=True) decodes these; any other value gives the payload's bytes
# unchanged. It compares the value as written, lower-cased but not stripped, so
# "base64 " (RFC 2045 allows white space around the token) would pass undecoded: the
# value is stripped (unfolded) here first (_decoded_encoding), and a part whose value
# differs is given the stripped one before the stdlib decodes it.
_DECODED_TRANSFER_ENCODINGS = frozenset(
    {"quoted-printable", "base64", "x-uuencode", "uuencode", "uue", "x-uue"}
)


def _decoded_encoding(value: object) -> str | None:
    # The transfer encoding get_payload(decode=True) is to decode, stripped, or None.
    name = _transfer_encoding_of(value) if isinstance(value, str) else _header_text(value).lower()
    return name if name in _DECODED_TRANSFER_ENCODINGS else None


def _fast_leaf(
    walk: _Walk,
    data: bytes,
    body_start: int,
    inherited: list[Defect],
    content_type: str,
    ct_value: str | None,
    cte_value: str | None,
) -> None:
    # _leaf for a single-part message from the fast path (its body is data[body_start:]),
    # its Content-Type and Content-Transfer-Encoding values ASCII (the first of each, as
    # Message.get() finds them): the same steps, without a Message unless the stdlib has a
    # body to decode. A large body is decoded in slices (.transfer), without a copy.
    own: list[Defect] = []
    if not _scanned(walk, "1", content_type, own):
        return
    _check_transfer_encoding(_transfer_encoding_of(cte_value or ""), "1", own)
    decoded_cte = None if cte_value is None else _decoded_encoding(cte_value)
    payload: bytes | None = None
    if decoded_cte is not None and len(data) - body_start > LARGE_BODY_BYTES:
        payload = decode_body(data, body_start, decoded_cte)
    if payload is not None:
        pass  # decoded as the stdlib would, without defects
    elif decoded_cte is not None:
        part = _message_of([("Content-Transfer-Encoding", decoded_cte)])
        _attach_body(part, data[body_start:])
        decoded = part.get_payload(decode=True)
        payload = decoded if isinstance(decoded, bytes) else b""
        if part.defects:
            own.extend(_defects_of(part, "1"))
    else:
        payload = data[body_start:]
    params = (
        _text_params_of(ct_value, content_type == "text/plain")
        if ct_value is not None
        else (None, False, False)
    )
    _text_unit(walk, "1", inherited, content_type, payload, params, own)


def _walk_part(
    walk: _Walk,
    part: Message,
    path: str,
    inherited: list[Defect],
    depth: int,
    content_type: str | None = None,
) -> None:
    # ``path`` is this part's number ("" for a multipart message's root); ``content_type``
    # is the part's, when the caller already has it.
    if depth > MAX_MIME_DEPTH:
        raise _TooDeepError(path)
    if not part.is_multipart():
        _leaf(walk, part, path or "1", inherited, content_type)
        return
    payload = part.get_payload()
    if not isinstance(payload, list):  # pragma: no cover - is_multipart() says it is
        return
    own = _defects_of(part, path or "0")
    walk.found.extend(own)
    defects = inherited + own
    if content_type is None:
        content_type = _part_type(part)[0]
    if content_type.startswith("message/"):
        here = path or "1"
        inner = payload[0] if payload else None
        if content_type not in ENCAPSULATED_TYPES or not isinstance(inner, Message):
            walk.result.skipped += 1
            return
        inner_payload = inner.get_payload()
        if isinstance(inner_payload, list) and inner.get_content_maintype() == "multipart":
            _walk_part(walk, inner, here, defects, depth + 1)
        else:
            _walk_part(walk, inner, here + ".1", defects, depth + 1)
        return
    for index, child in enumerate(payload, 1):
        if isinstance(child, Message):
            child_path = f"{path}.{index}" if path else str(index)
            _walk_part(walk, child, child_path, defects, depth + 1)


def _set_context(walk: _Walk, values: dict[str, str]) -> list[Defect]:
    # The message context from the first Message-ID, Date, From and Subject values.
    value = values.get("message-id")
    walk.message_id = None if value is None else _header_text(value)[:MAX_CONTEXT_CHARS]
    value = values.get("date")
    walk.date = None if value is None else _header_text(value)[:MAX_CONTEXT_CHARS]
    value = values.get("from")
    walk.sender = None if value is None else _header_text(value)[:MAX_CONTEXT_CHARS]
    value = values.get("subject")
    if value is None:
        return []
    subject, defects = decode_subject(_header_text(value)[:MAX_CONTEXT_CHARS])
    walk.subject = subject[:MAX_CONTEXT_CHARS]
    return defects


def _header_unit(walk: _Walk, headers: list[tuple[str, str]], defects: list[Defect]) -> None:
    lines = []
    for name, value in headers:
        key = name.lower()
        if key.startswith("list-") or key in URL_HEADER_NAMES:
            lines.append(f"{name}: {_header_text(value, lossless=True)}")
    if lines:
        unit = TextUnit(
            source=walk.source,
            chunks=("\n".join(lines) + "\n",),
            context=_context(walk, "0", "header"),
            defects=tuple(defects),
        )
        walk.result.units.append(unit)
        walk.result.header_units += 1


def _start_message(
    walk: _Walk,
    known: list[Defect],
    header_defects: list[Defect],
    values: dict[str, str],
    headers: list[tuple[str, str]],
    root_type: str,
) -> None:
    # The root's header read: context, the message's defects, the header unit.
    known += header_defects + _set_context(walk, values)
    walk.root_type = root_type
    if walk.options.scan_headers:
        _header_unit(walk, headers, known)


def _read_message(walk: _Walk, data: bytes, known: list[Defect], fast: bool) -> None:
    # Parse and walk one message, adding its units to ``walk.result``; may raise.
    options = walk.options
    data, header_len, body_start, header_defects = _cap_header(data, options.max_header_bytes)
    fields = _kept_fields(data[:header_len], options.scan_headers) if fast else None
    if fields is None:
        msg = _parse_stdlib(data, header_len, body_start, options.scan_headers, walk.lifted)
        walk.data = data
        headers = list(msg.raw_items())
        values = _first_values(headers)
    else:
        headers = _raw_headers(fields)
        values = _first_values(headers)
        ct_value = values.get("content-type")
        cte_value = values.get("content-transfer-encoding")
        if (ct_value is None or ct_value.isascii()) and (cte_value is None or cte_value.isascii()):
            content_type = "text/plain" if ct_value is None else _content_type_of(ct_value)
            structured = content_type.startswith(("multipart/", "message/"))
            if not structured:
                _start_message(walk, known, header_defects, values, headers, content_type)
                _fast_leaf(walk, data, body_start, known, content_type, ct_value, cte_value)
                return
        else:  # 8-bit bytes in a value: the stdlib reads it through a Header object
            msg = _message_of(headers)
            structured = msg.get_content_maintype() in ("multipart", "message")
        if structured:
            msg = _parse_structured(fields, headers, data, header_len, walk.lifted)
            walk.data = data
        else:
            _attach_body(msg, data[body_start:])
    _start_message(walk, known, header_defects, values, headers, msg.get_content_type())
    _walk_part(walk, msg, "", known, 0, walk.root_type)


def message_units(
    data: bytes,
    *,
    source: str,
    number: int,
    offset: int,
    options: MailOptions,
    defects: Sequence[Defect] = (),
    fast: bool = True,
) -> MessageResult:
    """Turn one message's bytes into text units, one per scanned part. Never raises.

    Args:
        data: the message (header and body).
        source: path reported on the units.
        number: 1-based number of the message in its archive or folder.
        offset: byte offset of the message in its archive.
        options: what to scan and the header cap.
        defects: defects already known for the message (from splitting or reading).
        fast: take the fast paths (see the module notes); False parses every message
            the reference way. Both give the same result (tests compare them).

    Returns:
        A :class:`MessageResult`. When the message yields no unit but has defects, one
        unit without text carries them, so no problem goes unreported.
    """
    result = MessageResult()
    known = list(defects)
    walk = _Walk(source, options, number, offset, result)
    try:
        _read_message(walk, data, known, fast)
    except Exception as exc:  # too deep, or the stdlib parser failed: scan the raw bytes
        problem = _raw_scan_defect(exc)
        walk.found.append(problem)
        result.units.clear()
        result.text_parts = result.header_units = result.skipped = 0
        text = data.decode("utf-8", "surrogateescape")
        if "\r" in text:
            text = _LINE_END.sub("\n", text)
        _emit(walk, "1", "text/plain", text, [*known, problem])
    return _finish(walk, known)


def _raw_scan_defect(exc: Exception) -> Defect:
    # The defect of a message whose parse or walk raised: it is then scanned as raw text.
    if isinstance(exc, _TooDeepError):
        return _warning(
            "mime-too-deep",
            f"parts nested deeper than {MAX_MIME_DEPTH} levels (at {exc}); "
            "message scanned as raw text",
        )
    return _warning(
        "message-parse-error",
        f"{type(exc).__name__} while parsing; message scanned as raw text",
    )


def _finish(walk: _Walk, known: list[Defect]) -> MessageResult:
    # The defect count; one unit without text for the defects of a message without units.
    result = walk.result
    result.defects = len(known) + len(walk.found)
    if not result.units and result.defects:
        result.units.append(
            TextUnit(
                source=walk.source,
                chunks=(),
                context=_context(walk, "1", walk.root_type),
                defects=tuple(known + walk.found),
            )
        )
    return result


# -- streamed single-part messages -------------------------------------------------------
#
# A single message too large to hold (a message file of its own: see .archive) is read
# in two passes when its header block allows: the block is read here by the same steps as
# _read_message (the fast path when clean, else the stdlib's header-only parse), and when
# it describes one leaf whose body the stdlib would hand over unchanged (not multipart/* or
# message/*, no stray line in the block, a transfer encoding that get_payload(decode=True)
# leaves alone, 8-bit or unknown ones included) and whose text needs no whole-text step
# (not text/html, not format=flowed) in a charset .bodystream can decode as a stream, its
# unit is built by the steps of _fast_leaf/_leaf and _text_unit, with decode_text's
# decision taken from the body's facts (plan_decoding) and the text left as a lazy stream.
# Anything else returns None and takes message_units on the whole message.

BodyReader = Callable[[], Iterable[bytes]]
"""Returns the body's bytes again, in blocks, each time it is called (lazily)."""


@dataclass(frozen=True, slots=True)
class SinglePartHead:
    """The header block of a message that can take the streamed path.

    Made by :func:`single_part_head`, used by :func:`streamed_message_units`.
    """

    raw: bytes
    """The header block and the blank line after it, as read."""
    headers: tuple[tuple[str, str], ...]
    """The kept fields, as the parser stores them."""
    values: tuple[tuple[str, str], ...]
    """The first value of each field the context is read from, by lower-case name."""
    content_type: str
    """The message's (and its only part's) content type."""
    charset: str | None
    """The declared charset in lower case, as decode_text receives it."""
    codec: str | None
    """The codec a :class:`~.bodystream.BodyCheck` checks (``None``: UTF-8 only)."""
    own: tuple[Defect, ...]
    """The part's defects known from the header (transfer encoding, parser defects)."""
    scanned: bool
    """False when the part is skipped (not text, no ``include_attachments``): the body
    is then not needed at all."""
    header_defects: tuple[Defect, ...] = ()
    """The message's defects from reading the header block (``url-in-header-block``)."""


def single_part_head(
    raw: bytes, header_len: int, options: MailOptions, *, fast: bool = True
) -> SinglePartHead | None:
    """Read a header block; return a head when the message can take the streamed path.

    Args:
        raw: the message's first bytes up to and including the blank line that ends the
            header block (where :func:`message_units` would find it: :func:`find_body`),
            or up to the URL line that ends it.
        header_len: bytes of ``raw`` before that blank line (all of ``raw`` when the block
            ends at a URL line).
        options: as for :func:`message_units`.
        fast: as for :func:`message_units`.

    Returns:
        A :class:`SinglePartHead`, or ``None`` when the message must be read whole: a block
        longer than ``max_header_bytes``, a stray line, a structured type, a quoted-printable,
        base64 or uuencoded body, ``text/html``, ``format=flowed``, a charset that is not
        streamable, or anything raising. Never raises.
    """
    if header_len > options.max_header_bytes:
        return None  # the block is cut first: message_units' business
    try:
        return _single_part_head(raw, header_len, options, fast)
    except Exception:
        return None


def _single_part_head(
    raw: bytes, header_len: int, options: MailOptions, fast: bool
) -> SinglePartHead | None:
    header = raw[:header_len]
    fields = _kept_fields(header, options.scan_headers) if fast else None
    msg: Message | None = None
    if fields is None:  # _read_message's reference path (_parse_stdlib)
        msg = _parse_header_stdlib(header, options.scan_headers)[0]
        if _needs_full_parse(msg):
            return None
        headers = list(msg.raw_items())
    else:
        headers = _raw_headers(fields)
    values = _first_values(headers)
    ct_value = values.get("content-type")
    cte_value = values.get("content-transfer-encoding")
    if msg is None and not (
        (ct_value is None or ct_value.isascii()) and (cte_value is None or cte_value.isascii())
    ):
        msg = _message_of(headers)  # 8-bit bytes in a value: as _read_message, a Message
    if msg is None:  # _read_message's fast path
        content_type = "text/plain" if ct_value is None else _content_type_of(ct_value)
    else:
        content_type = msg.get_content_type()
    if content_type.startswith(("multipart/", "message/")):
        return None
    url_line = url_line_defect(len(raw) + 1, header_len, len(raw))
    head = SinglePartHead(
        raw=raw,
        headers=tuple(headers),
        values=tuple(values.items()),
        content_type=content_type,
        charset=None,
        codec=None,
        own=(),
        scanned=content_type.startswith("text/") or options.include_attachments,
        header_defects=() if url_line is None else (url_line,),
    )
    if not head.scanned:
        return head  # skipped before its body is looked at (_scanned)
    own: list[Defect] = []
    params: _TextParams
    if msg is None:  # _fast_leaf before its payload
        _check_transfer_encoding(_transfer_encoding_of(cte_value or ""), "1", own)
        if cte_value is not None and _decoded_encoding(cte_value) is not None:
            return None
        plain = content_type == "text/plain"
        params = (None, False, False) if ct_value is None else _text_params_of(ct_value, plain)
    else:  # _leaf on the root (as _walk_part calls it) before its payload
        cte = msg.get("content-transfer-encoding", "")
        _check_transfer_encoding(
            _transfer_encoding_of(cte) if isinstance(cte, str) else _header_text(cte).lower(),
            "1",
            own,
        )
        if _decoded_encoding(cte) is not None:  # as _leaf decides
            return None
        if msg.defects:
            own.extend(_defects_of(msg, "1"))
        params = _part_text_params(msg, msg.get("content-type"), content_type == "text/plain")
    charset, flowed, _ = params
    streamable, codec = stream_codec(charset)
    if content_type in _WHOLE_TEXT_TYPES or flowed or not streamable:
        return None  # a whole-text step (html_to_text, unflow...), or a codec not streamed
    return replace(head, charset=charset, codec=codec, own=tuple(own))


def _decoded(body: BodyReader, codec: str, head: bytes = b"") -> Iterator[str]:
    # The text of ``head`` then the body, read only when the first piece is asked for.
    blocks = body()
    yield from decode_stream(itertools.chain((head,), blocks) if head else blocks, codec)


def streamed_message_units(
    head: SinglePartHead,
    facts: BodyFacts | None,
    body: BodyReader,
    *,
    source: str,
    number: int,
    offset: int,
    options: MailOptions,
    defects: Sequence[Defect] = (),
) -> MessageResult:
    """Turn a streamed single-part message into units: :func:`message_units`' result.

    The units, contexts, defects and counts are those :func:`message_units` gives for the
    whole message; the body unit's chunks decode ``body()`` lazily, so its text is only
    read when the chunks are iterated. Never raises on bad content.

    Args:
        head: from :func:`single_part_head`.
        facts: from a :class:`~.bodystream.BodyCheck` of ``head.codec`` fed the whole body;
            may be ``None`` when ``head.scanned`` is false.
        body: gives the body's bytes (after the blank line) again, in blocks.
        source: path reported on the units.
        number: 1-based number of the message in its archive or folder.
        offset: byte offset of the message in its archive.
        options: as for :func:`message_units`.
        defects: defects already known for the message (from reading it).

    Returns:
        A :class:`MessageResult`.

    Raises:
        ValueError: ``facts`` is ``None`` for a scanned part.
    """
    if facts is None and head.scanned:
        raise ValueError("a scanned part needs the facts of its body")
    result = MessageResult()
    known = list(defects)
    walk = _Walk(source, options, number, offset, result)
    try:
        _start_message(
            walk,
            known,
            list(head.header_defects),
            dict(head.values),
            list(head.headers),
            head.content_type,
        )
        own: list[Defect] = []
        if _scanned(walk, "1", head.content_type, own) and facts is not None:
            # _fast_leaf/_leaf after the payload, then _text_unit for a text without
            # whole-text step.
            own.extend(head.own)
            codec, charset_defects = plan_decoding(facts, head.charset)
            own.extend(charset_defects)
            walk.found.extend(own)
            chunks = _decoded(body, codec)
            _emit_chunks(walk, "1", head.content_type, chunks, known + own if own else known)
    except Exception as exc:  # as message_units: the raw bytes as UTF-8 text
        problem = _raw_scan_defect(exc)
        walk.found.append(problem)
        result.units.clear()
        result.text_parts = result.header_units = result.skipped = 0
        raw_text = _decoded(body, "utf-8", head.raw)
        _emit_chunks(walk, "1", "text/plain", raw_text, [*known, problem])
    return _finish(walk, known)
