"""Message headers: where the header block ends, which fields are read, what they say.

Promises:

* The block's end (:func:`find_body`): the first empty line, or a line starting
  ``scheme://`` (a message that lost its separator, whose first body line is a URL: that
  line is the body's first, with ``url-in-header-block``, not a field named ``http``). A
  block longer than ``max_header_bytes`` is cut at a line end (:func:`cap_header`,
  ``header-too-large``).
* Fields read: ``Content-Type``, ``Content-Transfer-Encoding``, ``Message-ID``, ``Date``,
  ``From``, ``Subject`` (and, for ``scan_headers``, ``List-*``, ``Archived-At``,
  ``Link``). Other well-formed fields (``Received``, ``DKIM-*``, ``X-*``... often a large
  share of a message's bytes) are dropped before the stdlib parser sees the block
  (:data:`UNREAD_FIELD`); lines that are not well-formed fields are kept, so the parser
  still sees (and reports) them.
* The clean-block fast path: a block whose every line is a field or a continuation, with
  LF line ends and no CR, is cut into fields by one regular expression
  (:func:`kept_fields`), each stored as the feed parser stores it (:func:`raw_headers`),
  with no parser loop. Any other block returns ``None`` there, and the caller takes the
  stdlib's path (:mod:`.parse`). Tests hold both to the same result.
* What a ``Content-Type`` or ``Content-Transfer-Encoding`` value says (type, charset,
  ``format``, ``delsp``, the encoding to decode) is the stdlib's conclusion, computed once
  per distinct ASCII value (cached). Transfer encodings are compared stripped
  (``base64 `` is base64: RFC 2045 allows white space around the token);
  ``unknown-transfer-encoding`` for others.
* Context values: as written, unfolded; undecodable bytes become U+FFFD (context is
  metadata, never scanned); the ``Subject``'s RFC 2047 encoded words are decoded
  (:func:`decode_subject`, ``header-decode-error`` on failure).
* The stdlib's defect objects become ``mime-defect`` warnings (:func:`defects_of`).

Pure functions on bytes and ``email.message.Message`` objects, no I/O; nothing raises on
bad input. The ``email`` package is imported by the steps that use it (a ``Message``, an
encoded word, a date of another shape, an RFC 2231 parameter), not with this module: the
common header block, Content-Type value and date are read without it, and a mail scan
that meets nothing else does not pay for its import (``socket``, ``urllib``, ``random``
and a dozen more modules come with ``email.utils``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

from .._model import Defect
from ..grammar.context import scheme_name
from .charsets import codec_name

if TYPE_CHECKING:
    from email.message import Message

_K = TypeVar("_K")
_V = TypeVar("_V")

KNOWN_TRANSFER_ENCODINGS = frozenset(
    {"", "7bit", "8bit", "binary", "quoted-printable", "base64"}
    | {"x-uuencode", "uuencode", "uue", "x-uue"}
)
"""Content-Transfer-Encoding values the stdlib decodes (others pass through as is)."""

_FOLD = re.compile(r"\r?\n(?=[ \t])")  # a folded header line's end (RFC 5322 §2.2.3)

# A header field (RFC 5322 §2.2: a field-name line plus its folded continuation lines)
# whose name is none that the sources read. Such fields are dropped from the top-level
# header block before parsing: Received, DKIM and X- headers are often a large share of a
# message's bytes, and the stdlib parser would otherwise handle each line in Python. Lines that are
# not well-formed fields are kept, so the parser still sees (and reports) them.
_READ_FIELDS = rb"content-type|content-transfer-encoding|message-id|date|from|subject"
_ROOT_FIELDS = frozenset(_READ_FIELDS.decode("ascii").split("|"))
_URL_FIELDS = rb"|list-[!-9;-~]*|archived-at|link"


def _unread_field_pattern(names: bytes) -> re.Pattern[bytes]:
    return re.compile(
        rb"^(?!(?:" + names + rb")[ \t]*:)[!-9;-~]+[ \t]*:.*\n(?:[ \t].*\n)*",
        re.IGNORECASE | re.MULTILINE,
    )


UNREAD_FIELD = _unread_field_pattern(_READ_FIELDS)
UNREAD_FIELD_KEEP_URLS = _unread_field_pattern(_READ_FIELDS + _URL_FIELDS)


def header_text(value: object, lossless: bool = False) -> str:
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
        value: the header value as text (see :func:`~.parts.message_units`).

    Returns:
        The decoded text and any ``header-decode-error`` defects; on failure the value is
        returned as written.
    """
    if "=?" not in value:
        return value, []
    from email.header import decode_header

    try:
        pieces = decode_header(value)
    except Exception as exc:  # HeaderParseError, binascii errors ...
        return value, [
            Defect("header-decode-error", f"Subject encoded words: {type(exc).__name__}", "warning")
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
        codec = codec_name(charset)
        if codec is None:
            defects.append(
                Defect(
                    "header-decode-error", f"Subject: unknown charset {charset[:80]!r}", "warning"
                )
            )
            codec = "utf-8"
        try:
            out.append(piece.decode(codec))
        except (UnicodeError, LookupError):
            defects.append(
                Defect(
                    "header-decode-error", f"Subject: bytes invalid in {charset[:80]!r}", "warning"
                )
            )
            out.append(piece.decode("utf-8", "replace"))
    return "".join(out), defects


def defects_of(part: Message, path: str) -> list[Defect]:
    # The stdlib's defect objects as stable "mime-defect" records.
    return [defect_record(defect, path) for defect in part.defects]


def defect_record(defect: object, path: str) -> Defect:
    # One stdlib defect object of part ``path`` as a "mime-defect" record.
    detail = str(defect)
    name = type(defect).__name__
    message = f"part {path}: {name}" + (f": {detail[:200]}" if detail else "")
    return Defect("mime-defect", message, "warning")


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
    url_line = _url_line(data, header)
    if url_line >= 0:
        return url_line, url_line
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
    return Defect(
        "url-in-header-block",
        "a line starting with a URL where a header field was expected (no blank line "
        "before it): read as the first body line",
        "warning",
    )


# A scheme name (RFC 1738 §2.1 scheme characters, lower or upper case), as bytes.
_SCHEME_NAME = re.compile(scheme_name(None).encode("ascii"))


_SCHEME_SEPARATOR = re.compile(rb"://")  # re finds a literal faster than bytes.find


def _url_line(data: bytes, end: int, start: int = 0) -> int:
    # The start of the first line of data[start:end] that starts with "scheme://", or -1
    # (``start`` is a line start). Found from each "://" (a fast search; header blocks
    # hold few) back to its line's start: a search for a scheme at every line start cost
    # a tenth of reading a generated mbox. Only a line's first "://" can follow a scheme
    # from the line's start (scheme characters hold no ":"), so after it the search goes
    # on from the next line: each character is read a bounded number of times.
    search = _SCHEME_SEPARATOR.search
    found = search(data, start, end)
    while found is not None:
        at = found.start()
        line = data.rfind(b"\n", start, at) + 1 or start
        if _SCHEME_NAME.fullmatch(data, line, at) is not None:
            return line
        newline = data.find(b"\n", at, end)
        if newline < 0:
            return -1
        found = search(data, newline, end)
    return -1


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


def cap_header(data: bytes, max_header_bytes: int) -> tuple[bytes, int, int, list[Defect]]:
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
    defect = Defect(
        "header-too-large", f"header block of {header_len} bytes cut to {cut} bytes", "warning"
    )
    data = data[:cut] + data[header_len:]
    return data, cut, body_start - (header_len - cut), [*defects, defect]


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
    # Each match is one whole field: group 1 when it is kept (named ``names``), else
    # None (another field is matched without a group: no copy of its bytes is made).
    # Anchored at line starts, so a long line that is no field costs one pass, not one per
    # position (the block is up to max_header_bytes long); backtracking stays within a
    # line, and cannot change a match: "." stops at LF, a name cannot hold the colon, and
    # nothing follows the continuation lines. (Not possessive: Python 3.10's re has no
    # "*+".)
    return re.compile(
        rb"^(?:((?i:" + names + rb"):.*\n(?:[ \t].*\n)*)|[!-9;-~]+:.*\n(?:[ \t].*\n)*)",
        re.MULTILINE,
    )


_FIELD = _field_pattern(_READ_FIELDS)
_FIELD_KEEP_URLS = _field_pattern(_READ_FIELDS + _URL_FIELDS)


def kept_fields(header: bytes, keep_url_headers: bool) -> list[bytes] | None:
    # The kept fields of a clean header block, as written; None if it is not clean.
    if b"\r" in header:
        return None
    # split() gives [gap, kept, gap, kept, ..., gap] (kept None for another field): the
    # fields tile the block when every gap is empty.
    pieces = (_FIELD_KEEP_URLS if keep_url_headers else _FIELD).split(header)
    if any(pieces[0::2]):
        return None  # some line is neither a field nor a continuation
    return list(filter(None, pieces[1::2]))


def raw_headers(fields: list[bytes]) -> list[tuple[str, str]]:
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


def message_of(headers: list[tuple[str, str]]) -> Message:
    from email.message import Message

    msg = Message()  # the default policy: compat32
    for name, value in headers:
        msg.set_raw(name, value)
    return msg


def first_values(headers: list[tuple[str, str]]) -> dict[str, str]:
    # The first value of each field the root is read for, by lower-case name, as
    # Message.get() finds it.
    values: dict[str, str] = {}
    for name, value in headers:
        key = name.lower()
        if key in _ROOT_FIELDS and key not in values:
            values[key] = value
    return values


# -- the clean block in one match --------------------------------------------------------
#
# clean_block reads a clean block and its first root values in one match, without
# cutting the block into fields: the block is one or more field lines, each with its
# continuation lines and its LF, then the empty line. Each line is read once through
# ".*" (re runs it at C speed to the line end). A field is read by one of three kinds of
# alternative, told apart by the name's first character (a class that re tests before
# it enters an alternative, so a line pays for one alternative's entry, not for each):
# a name that starts with no root name's first letter (Received, X-..., To: most lines)
# by the first, a root name by its own, capturing its value in that field's group unless
# the group already holds one (so each group keeps the field's first value, as
# Message.get() finds it), any other name starting with a root's first letter (DKIM-...,
# MIME-Version, a repeated root field) by the last. A field name followed by "//" is taken
# for no field: find_body ends a block at a line that starts with "scheme://"
# (_url_line), and a scheme is a field name, so such a block is left to find_body (a
# name that is no scheme, "a_b://", is left to it too: rare, and the same result).
#
# Two forms, the same matches. From Python 3.11 on, the repetition and the lines are
# possessive: at a line that is no field (a stray line, or the end of the range) the match
# fails at once, without backtracking; a repeated root field fails its own alternative
# (the conditional) and is read by the last. (A possessive repetition, "++", not an atomic
# group around a greedy one, "(?>...+)": re saves and restores the groups at every
# alternative inside a greedy repetition, a fifth of the match's cost.) Python 3.10's re
# has no possessive repetition: there each line has one way to be read (a repeated root
# field is read without capture by its own alternative, the last alternative refuses the
# root names), so a block that is not clean fails after one pass back over its lines,
# never trying a line two ways (which a block of repeated root fields would make endless).
_ROOT_KEYS = tuple(_READ_FIELDS.decode("ascii").split("|"))


def _clean_block_pattern(atomic: bool) -> re.Pattern[bytes]:
    many = rb"*+" if atomic else rb"*"  # possessive where re has it
    # A root field's value as raw_headers stores it: spaces and tabs after the colon and
    # the last line end left out, the continuation lines kept. (Without possessive
    # repetition, "(?![ \t])" ends the spaces where the value's ".*" cannot take them
    # back: one way to read the line, not one per space.)
    spaces = rb"[ \t]*+" if atomic else rb"[ \t]*(?![ \t])"
    value = rb"%s(.%s(?:\n[ \t].%s)%s)\n" % (spaces, many, many, many)
    skipped = rb".%s(?:\n[ \t].%s)%s\n" % (many, many, many)
    # the root names' first letters in both cases, and the other name characters
    letters = {ord(case(name[0])) for name in _ROOT_KEYS for case in (str.lower, str.upper)}
    others = set(range(0x21, 0x7F)) - {ord(":")} - letters
    plain = rb"[%s][!-9;-~]%s:(?!//)%s" % (re.escape(bytes(sorted(others))), many, skipped)
    roots = []
    for group, name in enumerate(_ROOT_KEYS, 1):
        first = name[0].upper() + name[0]
        if atomic:  # the group's first value, else the last alternative reads the field
            field = rb"(?(%d)(?!))%s" % (group, value)
        else:  # the group's first value, else the field read here without capture
            field = rb"(?(%d)%s|%s)" % (group, skipped, value)
        roots.append(
            b"[%s](?i:%s):(?!//)%s" % (first.encode(), re.escape(name[1:]).encode(), field)
        )
    # Python 3.10's form refuses the root names here: they have their own alternatives
    refused = b"" if atomic else rb"(?!(?i:%s):)" % _READ_FIELDS
    last = rb"%s[%s][!-9;-~]%s:(?!//)%s" % (refused, bytes(sorted(letters)), many, skipped)
    fields = b"|".join([plain, *roots, last])
    return re.compile((rb"(?:%s)++\n" if atomic else rb"(?:%s)+\n") % fields)


try:
    _CLEAN_BLOCK = _clean_block_pattern(True)
except re.error:  # pragma: no cover - Python 3.10's re: no possessive repetition
    _CLEAN_BLOCK = _clean_block_pattern(False)


RootFields = tuple[
    bytes | None, bytes | None, bytes | None, bytes | None, bytes | None, bytes | None
]
"""The first value of each root field as written (None where absent), in the order of
``content-type``, ``content-transfer-encoding``, ``message-id``, ``date``, ``from``,
``subject``."""


def clean_block(data: bytes, start: int, end: int) -> tuple[int, RootFields] | None:
    """:func:`clean_values`, the values as written (bytes, in :data:`RootFields`' order).

    For a caller that decodes only some of them (:func:`root_values` decodes them all).
    """
    block = _CLEAN_BLOCK.match(data, start, end)
    if block is None:
        return None
    header = block.end() - 1
    if data.find(b"\r", start, header) >= 0:
        return None  # a CR line end
    return header, block.groups()  # type: ignore[return-value]


def root_values(fields: RootFields) -> dict[str, str]:
    """The values of :func:`clean_block` as :func:`clean_values` gives them: by lower-case
    name, decoded as the stdlib stores them (ASCII, other bytes as surrogate escapes)."""
    return {
        key: value.decode("ascii", "surrogateescape")
        for key, value in zip(_ROOT_KEYS, fields, strict=True)
        if value is not None
    }


def clean_values(data: bytes, start: int, end: int) -> tuple[int, dict[str, str]] | None:
    """The end of the clean header block that starts ``data[start:end]``, and its values.

    A block of at least one field, clean as :func:`kept_fields` says (every line a field
    or a continuation, LF line ends, no CR), ended by an empty line within
    ``data[start:end]``, with no line that :func:`find_body` would end it at (a URL
    line). Then ``find_body`` gives the block's length as ``header - start`` (the body
    starts one byte later), and ``first_values(raw_headers(kept_fields(block, False)))``
    gives the values: the same as this, without the fields cut out one by one.

    Returns:
        ``(header, values)``: the offset just past the block's last line end (the empty
        line's LF) and the first value of each root field by lower-case name; ``None``
        for any other block (the caller reads it by those functions).
    """
    clean = clean_block(data, start, end)
    return None if clean is None else (clean[0], root_values(clean[1]))


def _param(params: Mapping[str, object], name: str) -> str | None:
    # A Content-Type parameter as text (RFC 2231 values collapsed), or None.
    value = params.get(name)
    if value is None:
        return None
    if isinstance(value, tuple):
        from email.utils import collapse_rfc2231_value

        value = collapse_rfc2231_value(value)
    return str(value).strip()


# -- what a part's headers say -------------------------------------------------------------
#
# The stdlib reads Content-Type and Content-Transfer-Encoding (``get_content_type``,
# ``get_params``); what it concludes depends on the header's value alone, and a few values
# ("text/plain; charset=us-ascii") make up most of an archive. So the conclusions are
# cached by value. A value in the common shape is read here as the stdlib reads it (a test
# holds the two together); any other is computed once by the stdlib on a message holding
# just that header. Values with 8-bit bytes (which the stdlib hands out as Header objects)
# are not cached.

TextParams = tuple[str | None, bool, bool]
"""(charset in lower case or None, format=flowed, DelSp=yes) of a text part."""

# A Content-Type value in the shape almost every part has: a type/subtype, then parameters
# "name=value" (value quoted without backslashes, or a token). On such a value the stdlib's
# get_params() (and get_param, get_boundary) come to each parameter's value as written,
# unquoted: no RFC 2231 name ("*"), no escape, nothing quoted twice. A value in angle
# brackets is left to it (its unquote strips them).
_SIMPLE_PARAMETERS = re.compile(
    r'\s*[^\s;="\\/]+/[^\s;="\\]+\s*(?:;\s*[A-Za-z0-9._-]+\s*=\s*(?:"[^"\\]*"|[^\s;"\\]+)\s*)*;?\s*'
)
_SIMPLE_PARAMETER = re.compile(r';\s*([A-Za-z0-9._-]+)\s*=\s*(?:"([^"\\]*)"|([^\s;"\\]+))')
# The same parameters after a type of any shape (none, no "/": the text up to the first
# ";", without '"'), a value possibly empty ("charset="): for text_params_of, whose
# answer does not depend on the type (see _parameters_after_type). Few values need them:
# compiled on first use (re's cache).
_TEXT_PARAMETERS = r'[^;"]*(?:;\s*[A-Za-z0-9._-]+\s*=\s*(?:"[^"\\]*"|[^\s;"\\]*)\s*)*;?\s*'
_TEXT_PARAMETER = r';\s*([A-Za-z0-9._-]+)\s*=\s*(?:"([^"\\]*)"|([^\s;"\\]*))'


def simple_parameters(value: str) -> dict[str, str] | None:
    """The parameters of a Content-Type value in the common shape, or None for another.

    Returns:
        Each parameter's first value by lower-case name, unquoted, as the stdlib's
        ``Message.get_params()`` gives it for such a value; ``None`` when the value is not
        in that shape (the caller asks the stdlib).
    """
    if not _SIMPLE_PARAMETERS.fullmatch(value):
        return None
    params: dict[str, str] = {}
    for name, quoted, token in _SIMPLE_PARAMETER.findall(value):
        given = quoted or token
        if given.startswith("<") and given.endswith(">"):
            return None
        params.setdefault(name.lower(), given)
    return params


@lru_cache(maxsize=512)
def content_type_of(value: str) -> str:
    # Message.get_content_type() of a part whose Content-Type is ``value``: for a value
    # without 8-bit characters, its own steps (the text before the first ";", stripped
    # and lower-cased; text/plain unless it holds exactly one "/"), else by the stdlib.
    if value.isascii():
        written = value.partition(";")[0].strip().lower()
        return written if written.count("/") == 1 else "text/plain"
    return message_of([("Content-Type", value)]).get_content_type()


def part_type(part: Message) -> tuple[str, object]:
    # (content type, the Content-Type value or None) of a parsed part.
    value = part.get("content-type")
    if isinstance(value, str):
        return content_type_of(value), value
    return part.get_content_type(), value


def _text_params(part: Message, plain: bool) -> TextParams:
    params: dict[str, object] = {}
    for key, value in part.get_params(failobj=[])[1:]:
        params.setdefault(key.lower(), value)
    return _text_params_in(params, plain)


def _text_params_in(params: Mapping[str, object], plain: bool) -> TextParams:
    # The charset, and for text/plain the format=flowed and DelSp parameters.
    charset = _param(params, "charset")
    flowed = plain and (_param(params, "format") or "").lower() == "flowed"
    delsp = flowed and (_param(params, "delsp") or "").lower() == "yes"
    return (charset.lower() if charset else None), flowed, delsp


def _parameters_after_type(value: str) -> dict[str, str] | None:
    # simple_parameters of a value not in the common shape for want of a common type
    # (none, no "/") or of a non-empty value ("charset="), for get_params()[1:]: that
    # does not depend on the type, which the stdlib's split ends at the first ";" when it
    # holds no '"' (which could hide a ";" from that split); an empty value is "" there.
    if not re.fullmatch(_TEXT_PARAMETERS, value):
        return None
    params: dict[str, str] = {}
    for name, quoted, token in re.findall(_TEXT_PARAMETER, value):
        given = quoted or token
        if given.startswith("<") and given.endswith(">"):
            return None
        params.setdefault(name.lower(), given)
    return params


@lru_cache(maxsize=512)
def text_params_of(value: str, plain: bool) -> TextParams:
    params = simple_parameters(value)
    if params is None:
        params = _parameters_after_type(value)
    if params is not None:
        return _text_params_in(params, plain)
    return _text_params(message_of([("Content-Type", value)]), plain)


def part_text_params(part: Message, value: object, plain: bool) -> TextParams:
    if isinstance(value, str):
        return text_params_of(value, plain)
    return _text_params(part, plain)


@lru_cache(maxsize=256)
def transfer_encoding_of(value: str) -> str:
    return header_text(value).lower()


def check_transfer_encoding(cte: str, path: str, own: list[Defect]) -> None:
    if cte not in KNOWN_TRANSFER_ENCODINGS:
        own.append(
            Defect(
                "unknown-transfer-encoding",
                f"part {path}: transfer encoding {cte[:80]!r} read as 8bit",
                "warning",
            )
        )


# get_payload(decode=True) decodes these; any other value gives the payload's bytes
# unchanged. It compares the value as written, lower-cased but not stripped, so
# "base64 " (RFC 2045 allows white space around the token) would pass undecoded: the
# value is stripped (unfolded) here first (decoded_encoding), and a part whose value
# differs is given the stripped one before the stdlib decodes it.
DECODED_TRANSFER_ENCODINGS = frozenset(
    {"quoted-printable", "base64", "x-uuencode", "uuencode", "uue", "x-uue"}
)


def decoded_encoding(value: object) -> str | None:
    # The transfer encoding get_payload(decode=True) is to decode, stripped, or None.
    name = transfer_encoding_of(value) if isinstance(value, str) else header_text(value).lower()
    return name if name in DECODED_TRANSFER_ENCODINGS else None


# The RFC 5322 date almost every message has ("Thu, 13 Sep 2001 12:30:05 -0700", day
# name optional, seconds optional, anything after the zone after a space: a comment such
# as "(PDT)"), read here in one match; parsedate_to_datetime reads any other. On these,
# its reading is this one: the day name dropped, a four-digit year taken as written, the
# zone "+hhmm"/"-hhmm" as hh hours and mm minutes, "-0000" as no zone, the words after the
# zone ignored (a test holds the two to the same result).
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTH_NUMBER = {name: number for number, name in enumerate(_MONTHS, 1)}
# Groups: 1 the day as written ("13 Sep 2001"), 2-4 its day, month and year, 5 the hour
# and minute ("12:30"), 6 the seconds, 7 the zone.
_COMMON_DATE = re.compile(
    r"(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?(([0-9][0-9]?) (" + "|".join(_MONTHS) + ") "
    r"([1-9][0-9]{3})) ([0-9]{2}:[0-9]{2})(?::([0-9]{2}))? ([+-][0-9]{4})(?: .*)?",
    re.DOTALL,
)
# What common_utc_date has worked out before, in dictionaries (an archive's dates share few
# days and zones; each is emptied when full): the ISO form of a day as written ("13 Sep
# 2001" -> "2001-09-13", None for one datetime refuses) and the seconds a zone adds to
# reach UTC ("-0700" -> 25200, None for a zone of a day or more).
_DAYS: dict[str, str | None] = {}
_ZONES: dict[str, int | None] = {}
_MAX_REMEMBERED = 4096
# "THH:MM:" for each minute of a day, "SSZ" for each second of a minute; the minute of
# the day of each valid "HH:MM", the second of each valid "SS".
_CLOCK = tuple(f"T{minute // 60:02d}:{minute % 60:02d}:" for minute in range(1440))
_SECONDS = tuple(f"{second:02d}Z" for second in range(60))
_MINUTE_OF = {clock[1:6]: minute for minute, clock in enumerate(_CLOCK)}
_SECOND_OF = {f"{second:02d}": second for second in range(60)}


def _remember(table: dict[_K, _V], key: _K, value: _V) -> _V:
    if len(table) >= _MAX_REMEMBERED:
        table.clear()
    table[key] = value
    return value


# The first day of each month seen ("Sep" "2001" -> ("2001-09-", 30)): its ISO prefix and
# its number of days; a day's two-digit form by its number as written.
_MONTH_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_MONTHS_SEEN: dict[str, tuple[str, int]] = {}
_DAY_NUMBER = {f"{day:02d}": day for day in range(1, 32)} | {str(day): day for day in range(1, 10)}
_TWO_DIGITS = tuple(f"{day:02d}" for day in range(32))
# The days before and after a day (ISO form), None where datetime stops (years 1, 9999).
_DAY_BEFORE: dict[str, str | None] = {}
_DAY_AFTER: dict[str, str | None] = {}


def _month_of(month: str, year: str) -> tuple[str, int]:
    number, year_number = _MONTH_NUMBER[month], int(year)
    days = _MONTH_DAYS[number]
    if number == 2 and year_number % 4 == 0 and (year_number % 100 or year_number % 400 == 0):
        days = 29
    return f"{year_number:04d}-{number:02d}-", days


def _iso_day(day: str, month: str, year: str) -> str | None:
    # date(year, month, day).isoformat(), or None for a day datetime refuses (31 February,
    # day 0), from the month's first day remembered.
    key = month + year
    seen = _MONTHS_SEEN.get(key)
    if seen is None:
        seen = _remember(_MONTHS_SEEN, key, _month_of(month, year))
    number = _DAY_NUMBER.get(day, 0)
    if 1 <= number <= seen[1]:
        return seen[0] + _TWO_DIGITS[number]
    return None


def _next_day(iso_day: str, step: int) -> str | None:
    # The day before (step -1) or after (step 1) an ISO day, or None past datetime's range.
    try:
        return (date.fromisoformat(iso_day) + timedelta(days=step)).isoformat()
    except OverflowError:
        return None


def _zone_shift(zone: str) -> int | None:
    offset = int(zone[1:3]) * 3600 + int(zone[3:5]) * 60
    if offset >= 86400:
        return None  # a zone of a day or more: datetime.timezone refuses it
    return offset if zone[0] == "-" else -offset


def common_utc_date(date: str | None) -> str | None:
    """:func:`utc_date`'s instant for a date in the common shape (most), else None (no
    date, or one that :func:`utc_date` must read: its instant, or its defect)."""
    # None as well when the datetime would not be built (a 31 February, an hour 24, a
    # zone of 24 hours...): parsedate_to_datetime then reports why. The instant is
    # written from the day's ISO form (or the day before or after it, where the zone
    # moves it there) and its second of the day, without a datetime: each day, month and
    # neighbouring day is worked out once and remembered.
    if date is None:
        return None
    common = _COMMON_DATE.fullmatch(date)
    if common is None:
        return None
    written_day, day, month, year, clock, second, zone = common.groups()
    shift = _ZONES.get(zone, 1)  # 1: not seen yet (a zone's shift is whole minutes)
    if shift == 1:
        shift = _remember(_ZONES, zone, _zone_shift(zone))
    if shift is None:
        return None
    iso_day = _DAYS.get(written_day, "")
    if iso_day == "":
        iso_day = _remember(_DAYS, written_day, _iso_day(day, month, year))
    if iso_day is None:
        return None  # a day datetime refuses (31 February)
    minute_of_day = _MINUTE_OF.get(clock)  # None: an hour or minute out of range
    seconds = 0 if second is None else _SECOND_OF.get(second)
    if minute_of_day is None or seconds is None:
        return None  # an hour 24, a minute or second 60: datetime refuses them
    instant = minute_of_day * 60 + seconds + shift
    if 0 <= instant < 86400:
        return iso_day + _CLOCK[instant // 60] + _SECONDS[instant % 60]
    # The zone moves it to the day before or after (a shift is less than a day).
    step = -1 if instant < 0 else 1
    table = _DAY_BEFORE if step < 0 else _DAY_AFTER
    other = table.get(iso_day, "")
    if other == "":
        other = _remember(table, iso_day, _next_day(iso_day, step))
    instant -= step * 86400
    if other is None:
        return None  # before year 1 or after 9999
    return other + _CLOCK[instant // 60] + _SECONDS[instant % 60]


def _parsedate_to_datetime(date: str) -> datetime:
    # email.utils.parsedate_to_datetime(date), without importing email.utils (which brings
    # socket, urllib.parse, random, ipaddress and a dozen more modules): that function is,
    # in every CPython from 3.10 to 3.13, this wrapper around email._parseaddr's
    # _parsedate_tz, whose module imports only time (and calendar before 3.13). Should the
    # private name be gone, the public function reads the date.
    try:
        from email._parseaddr import _parsedate_tz  # type: ignore[import-not-found]
    except ImportError:
        from email.utils import parsedate_to_datetime

        return parsedate_to_datetime(date)
    parsed = _parsedate_tz(date)
    if parsed is None:
        raise ValueError(f"Invalid date value or format {date!r}")
    *fields, zone = parsed
    if zone is None:
        return datetime(*fields[:6])
    tzinfo = timezone(timedelta(seconds=zone))  # evaluated first there too
    return datetime(*fields[:6]).replace(tzinfo=tzinfo)


def utc_date(date: str | None) -> tuple[str | None, list[Defect]]:
    """A ``Date`` header as an ISO 8601 instant in UTC (``1997-09-10T22:40:00Z``).

    RFC 5322 dates, with the obsolete forms :func:`email.utils.parsedate_to_datetime`
    reads (two-digit years: 50-99 are 19xx, 00-49 20xx; zone names such as ``BST``,
    ``EST``); a date without zone (``-0000``) is taken as UTC.

    Returns:
        The instant (None when there is no date, or it does not parse) and, for a date
        that does not parse, an ``unparseable-date`` warning.
    """
    if date is None:
        return None, []
    instant = common_utc_date(date)
    if instant is not None:
        return instant, []
    try:
        when = _parsedate_to_datetime(date)
        if when.tzinfo is not None:
            when = when.astimezone(timezone.utc).replace(tzinfo=None)
        return when.isoformat(timespec="seconds") + "Z", []
    except (ValueError, TypeError, OverflowError, IndexError):
        shown = date if len(date) <= 80 else date[:77] + "..."
        return None, [
            Defect("unparseable-date", f"Date {shown!r} is not an RFC 5322 date", "warning")
        ]
