"""MIME walking: one raw message in, one decoded text unit per text part out.

Strategy: the standard library's ``email`` package does all of MIME, with
``policy=compat32`` so that malformed input becomes ``msg.defects`` instead of exceptions.
This module only decides what to scan and how to turn bytes into ``str``:

* Parsing. The header block (up to the first empty line, capped at ``max_header_bytes``),
  less the fields this module never reads (``Received``, ``X-*``...: see
  ``_UNREAD_FIELD``), is parsed with ``headersonly=True``. A message that is not ``multipart/*`` or
  ``message/*`` then gets its body attached as the feed parser itself would attach it
  (bytes as ASCII with surrogate escapes), which skips the parser's line-by-line body loop;
  any other message, or a header block with a stray non-header line, is parsed in full.
  The stdlib decodes the transfer encoding (``get_payload(decode=True)``): quoted-printable
  soft line breaks vanish, so a URL broken by one comes out whole.
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
  module adds ``unknown-charset``, ``charset-decode-error``, ``unknown-transfer-encoding``,
  ``multipart-not-split``,
  ``html-parse-error``, ``header-too-large``, ``header-decode-error``, ``mime-too-deep``
  and, should the parser itself fail, ``message-parse-error`` (the raw message is then
  scanned as UTF-8 text so nothing is lost). All are warnings: they describe the input,
  and never by themselves make a URL invalid. Defects of a message or of a multipart
  container are attached to every unit beneath it.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from email.header import decode_header
from email.message import Message
from email.parser import BytesParser
from email.policy import compat32
from email.utils import collapse_rfc2231_value
from functools import lru_cache

from .._model import Defect, MessageContext, TextUnit
from .flowed import unflow
from .htmltext import html_to_text
from .options import MAX_CONTEXT_CHARS, MailOptions

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
_LINE_END = re.compile(r"\r\n?|\n")

_PARSER = BytesParser(policy=compat32)

# A header field (RFC 5322 §2.2: a field-name line plus its folded continuation lines)
# whose name is none that this module reads. Such fields are dropped from the top-level
# header block before parsing: Received, DKIM and X- headers are often half the bytes of a
# message, and the stdlib parser would otherwise handle each line in Python. Lines that are
# not well-formed fields are kept, so the parser still sees (and reports) them.
_READ_FIELDS = rb"content-type|content-transfer-encoding|message-id|date|from|subject"
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


def decode_text(payload: bytes, charset: str | None) -> tuple[str, list[Defect]]:
    """Decode a part's bytes to text, never raising and never losing a byte.

    Args:
        payload: the part's bytes after transfer decoding.
        charset: the declared ``charset`` parameter, or ``None``.

    Returns:
        The text and any ``unknown-charset`` / ``charset-decode-error`` defects. Bytes that
        fit no tried charset are kept as surrogate escapes (U+DC80..U+DCFF).
    """
    defects: list[Defect] = []
    codec: str | None = None
    if charset is not None:
        codec = _codec_name(charset)
        if codec is None:
            defects.append(
                _warning("unknown-charset", f"unknown charset {charset[:80]!r}; read as UTF-8")
            )
    if payload.isascii() and (codec is None or _ascii_compatible(codec)):
        return payload.decode("ascii"), defects
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
            defects.append(
                _warning(
                    "charset-decode-error",
                    f"bytes invalid in declared charset {charset!r}; they are valid UTF-8",
                )
            )
        return text, defects
    declared = f"declared charset {charset[:80]!r}" if charset is not None else "no charset"
    defects.append(
        _warning(
            "charset-decode-error",
            f"8-bit bytes invalid in {declared} and in UTF-8; kept as surrogate escapes",
        )
    )
    if codec is not None:
        try:
            return payload.decode(codec, "surrogateescape"), defects
        except (UnicodeError, LookupError):
            pass
    return payload.decode("utf-8", "surrogateescape"), defects


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


def _find_body(data: bytes) -> tuple[int, int]:
    # (length of the header block including its last line end, offset of the body).
    if data.startswith(b"\n"):
        return 0, 1
    if data.startswith(b"\r\n"):
        return 0, 2
    lf = data.find(b"\n\n")
    crlf = data.find(b"\n\r\n")
    if lf >= 0 and (crlf < 0 or lf < crlf):
        return lf + 1, lf + 2
    if crlf >= 0:
        return crlf + 1, crlf + 3
    return len(data), len(data)


def parse_message(
    data: bytes, max_header_bytes: int, keep_url_headers: bool = True
) -> tuple[Message, list[Defect]]:
    """Parse one message's bytes with the stdlib (``compat32``), capping the header block.

    Args:
        data: the message bytes (no ``From_`` line needed, but one is tolerated).
        max_header_bytes: header bytes kept; later header lines are dropped.
        keep_url_headers: keep ``List-*``, ``Archived-At`` and ``Link`` (for
            ``scan_headers``); other fields than context and MIME ones are dropped.

    Returns:
        The parsed message and any ``header-too-large`` defect.

    Raises:
        Exception: whatever the stdlib parser raises on pathological input (for example
            ``RecursionError`` on extreme nesting); :func:`message_units` catches it.
    """
    defects: list[Defect] = []
    header_len, body_start = _find_body(data)
    if header_len > max_header_bytes:
        cut = data.rfind(b"\n", 0, max_header_bytes) + 1
        defects.append(
            _warning(
                "header-too-large",
                f"header block of {header_len} bytes cut to {cut} bytes",
            )
        )
        data = data[:cut] + data[header_len:]
        body_start -= header_len - cut
        header_len = cut
    unread = _UNREAD_FIELD_KEEP_URLS if keep_url_headers else _UNREAD_FIELD
    header = unread.sub(b"", data[:header_len])
    msg = _PARSER.parsebytes(header, headersonly=True)
    if msg.get_payload() or msg.get_content_maintype() in ("multipart", "message"):
        # A stray non-header line in the header block, or a body with structure:
        # let the feed parser do everything.
        msg = _PARSER.parsebytes(header + data[header_len:])
    else:
        msg.set_payload(data[body_start:].decode("ascii", "surrogateescape"))
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
    base: MessageContext
    result: MessageResult
    root_type: str
    found: list[Defect]  # every defect seen, for the count


def _context(walk: _Walk, path: str, content_type: str) -> MessageContext:
    return replace(walk.base, part=path, content_type=content_type)


def _emit(walk: _Walk, path: str, content_type: str, text: str, defects: list[Defect]) -> None:
    unit = TextUnit(
        source=walk.source,
        chunks=(text,) if text else (),
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


def _leaf(walk: _Walk, part: Message, path: str, inherited: list[Defect]) -> None:
    content_type = part.get_content_type()
    own: list[Defect] = []
    if content_type.startswith("multipart/"):
        # The parser could not split it (no boundary, or none found): scan it as text.
        own.append(_warning("multipart-not-split", f"part {path}: {content_type} read as text"))
    elif not content_type.startswith("text/") and not walk.options.include_attachments:
        walk.result.skipped += 1
        return
    cte = _header_text(part.get("content-transfer-encoding", "")).lower()
    if cte not in KNOWN_TRANSFER_ENCODINGS:
        own.append(
            _warning(
                "unknown-transfer-encoding",
                f"part {path}: transfer encoding {cte[:80]!r} read as 8bit",
            )
        )
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        payload = b""
    if part.defects:
        own.extend(_defects_of(part, path))  # after decoding: base64 defects appear then
    params: dict[str, object] = {}
    for key, value in part.get_params(failobj=[])[1:]:
        params.setdefault(key.lower(), value)
    charset = _param(params, "charset")
    text, charset_defects = decode_text(payload, charset.lower() if charset else None)
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
    elif content_type == "text/plain" and (_param(params, "format") or "").lower() == "flowed":
        delsp = (_param(params, "delsp") or "").lower() == "yes"
        text = unflow(text, delsp)
    walk.found.extend(own)
    _emit(walk, path, content_type, text, inherited + own if own else inherited)


def _walk_part(walk: _Walk, part: Message, path: str, inherited: list[Defect], depth: int) -> None:
    # ``path`` is this part's number ("" for a multipart message's root).
    if depth > MAX_MIME_DEPTH:
        raise _TooDeepError(path)
    if not part.is_multipart():
        _leaf(walk, part, path or "1", inherited)
        return
    payload = part.get_payload()
    if not isinstance(payload, list):  # pragma: no cover - is_multipart() says it is
        return
    own = _defects_of(part, path or "0")
    walk.found.extend(own)
    defects = inherited + own
    if part.get_content_maintype() == "message":
        here = path or "1"
        inner = payload[0] if payload else None
        if part.get_content_type() not in ENCAPSULATED_TYPES or not isinstance(inner, Message):
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


def _context_fields(msg: Message) -> tuple[MessageContext, list[Defect]]:
    wanted = {"message-id": "", "date": "", "from": "", "subject": ""}
    values: dict[str, str] = {}
    for name, value in msg.raw_items():
        key = name.lower()
        if key in wanted and key not in values:
            values[key] = _header_text(value)[:MAX_CONTEXT_CHARS]
    defects: list[Defect] = []
    subject = values.get("subject")
    if subject is not None:
        subject, defects = decode_subject(subject)
        subject = subject[:MAX_CONTEXT_CHARS]
    context = MessageContext(
        number=0,
        offset=0,
        message_id=values.get("message-id"),
        date=values.get("date"),
        sender=values.get("from"),
        subject=subject,
    )
    return context, defects


def _header_unit(walk: _Walk, msg: Message, defects: list[Defect]) -> None:
    lines = []
    for name, value in msg.raw_items():
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


def message_units(
    data: bytes,
    *,
    source: str,
    number: int,
    offset: int,
    options: MailOptions,
    defects: Sequence[Defect] = (),
) -> MessageResult:
    """Turn one message's bytes into text units, one per scanned part. Never raises.

    Args:
        data: the message (header and body).
        source: path reported on the units.
        number: 1-based number of the message in its archive or folder.
        offset: byte offset of the message in its archive.
        options: what to scan and the header cap.
        defects: defects already known for the message (from splitting or reading).

    Returns:
        A :class:`MessageResult`. When the message yields no unit but has defects, one
        unit without text carries them, so no problem goes unreported.
    """
    result = MessageResult()
    known = list(defects)
    base = MessageContext(number=number, offset=offset)
    walk = _Walk(source, options, base, result, "message/rfc822", [])
    try:
        msg, header_defects = parse_message(data, options.max_header_bytes, options.scan_headers)
        fields, subject_defects = _context_fields(msg)
        walk.base = MessageContext(
            number=number,
            offset=offset,
            message_id=fields.message_id,
            date=fields.date,
            sender=fields.sender,
            subject=fields.subject,
        )
        known += header_defects + subject_defects
        walk.root_type = msg.get_content_type()
        if options.scan_headers:
            _header_unit(walk, msg, known)
        _walk_part(walk, msg, "", known, 0)
    except Exception as exc:  # too deep, or the stdlib parser failed: scan the raw bytes
        if isinstance(exc, _TooDeepError):
            problem = _warning(
                "mime-too-deep",
                f"parts nested deeper than {MAX_MIME_DEPTH} levels (at {exc}); "
                "message scanned as raw text",
            )
        else:
            problem = _warning(
                "message-parse-error",
                f"{type(exc).__name__} while parsing; message scanned as raw text",
            )
        walk.found.append(problem)
        result.units.clear()
        result.text_parts = result.header_units = result.skipped = 0
        text = data.decode("utf-8", "surrogateescape")
        if "\r" in text:
            text = _LINE_END.sub("\n", text)
        _emit(walk, "1", "text/plain", text, [*known, problem])
    result.defects = len(known) + len(walk.found)
    if not result.units and result.defects:
        result.units.append(
            TextUnit(
                source=source,
                chunks=(),
                context=_context(walk, "1", walk.root_type),
                defects=tuple(known + walk.found),
            )
        )
    return result
