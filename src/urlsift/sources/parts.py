"""The part walk: one message's bytes in, one text unit per scanned part out.

Promises (:func:`message_units`, which never raises):

* Numbering. Parts are numbered like IMAP body parts: ``1`` for a single-part message,
  ``1``, ``2``, ``2.1``... inside multiparts; an encapsulated ``message/rfc822`` at ``n``
  has its parts at ``n.1``, ``n.2``... Part ``0`` is the header unit (``scan_headers``).
* What is scanned. Every ``text/*`` part; other parts are skipped and counted unless
  ``include_attachments``. A ``multipart/*`` whose body could not be split (missing
  boundary) is scanned as text (``multipart-not-split``). Nesting deeper than
  :data:`MAX_MIME_DEPTH` makes the whole message be scanned as raw text
  (``mime-too-deep``), as does a parser failure (``message-parse-error``); nothing is
  lost.
* Text. A part's bytes are transfer-decoded as the stdlib's ``get_payload(decode=True)``
  does (quoted-printable soft line breaks vanish, so a URL broken by one comes out whole;
  :mod:`.transfer` decodes clean base64 and quoted-printable itself), then decoded by
  :mod:`.charsets`, line ends made LF (CRLF is MIME's canonical
  form, not content). ``text/html`` becomes visible text plus attribute URLs
  (:mod:`.htmltext`); ``text/plain; format=flowed`` is unwrapped (:mod:`.flowed`);
  ``text/calendar`` is unfolded (RFC 5545 §3.1, :func:`unfold_calendar`), its lines and
  columns those of the unfolded content lines. A long text reaches the scanner in pieces
  of :data:`TEXT_PIECE_CHARS` (the results are the same wherever they are cut).
* Context: every unit carries the message's number, offset, ``Message-ID``, ``Date``,
  ``From`` and decoded ``Subject`` (:mod:`.headers`), cut at
  :data:`~.options.MAX_CONTEXT_CHARS`, with its part number and content type.
* Defects. Those of a message or of a multipart container are attached to every unit
  beneath it; all are warnings (they describe the input and never by themselves make a
  URL invalid). When a message yields no unit but has defects, one unit without text
  (the root's content type, part ``1``) carries them.
* Two ways, one result: the fast path (a clean header block cut by :mod:`.headers`; a
  single-part message then needs no ``Message`` unless its body is uuencoded, see
  :func:`_fast_leaf`; a multipart whose delimiter lines and part header blocks are clean
  is cut at its boundaries by :func:`.parse.split_parts`, each leaf read the same way,
  see :func:`_plan_multipart` (without its close delimiter too: the feed parser's
  ``CloseBoundaryNotFoundDefect`` goes to the parts beneath it); a ``message/rfc822``
  part's message is read like a part, see :func:`_plan_message`; a single-part
  ``text/plain`` message written as sent, with nothing to report, in one step, see
  :func:`_plain_message`) and the reference path (``fast=False``: the stdlib parse of
  :mod:`.parse`) give the same units; tests compare them. Where the fast path cannot be
  sure of the feed parser's result (a boundary inside a line, an empty last part, a part
  header that is not clean, a ``message/*`` part other than an encapsulated message
  whose header blocks name a Content-Type...) it declines before emitting anything, says
  why in :attr:`MessageResult.declined`, and the stdlib parses the message.

The streamed path (:mod:`.streamed`) builds its units with this module's steps. No I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from .._model import Defect, MessageContext, TextUnit
from .._record import field, maker, record
from .charsets import LINE_END, decode_text, plain_codec
from .flowed import unflow, unflow_chunks
from .headers import (
    DECODED_TRANSFER_ENCODINGS,
    KNOWN_TRANSFER_ENCODINGS,
    RootFields,
    TextParams,
    cap_header,
    check_transfer_encoding,
    clean_block,
    clean_values,
    common_utc_date,
    content_type_of,
    decode_subject,
    decoded_encoding,
    defect_record,
    defects_of,
    find_body,
    first_values,
    header_text,
    kept_fields,
    message_of,
    part_text_params,
    part_type,
    raw_headers,
    root_values,
    text_params_of,
    transfer_encoding_of,
    utc_date,
)
from .htmltext import html_to_text
from .options import MAX_CONTEXT_CHARS, MailOptions
from .parse import (
    MAX_LIFTED_HEADER,
    attach_body,
    boundary_of,
    parse_stdlib,
    parse_structured,
    split_parts,
)
from .transfer import LARGE_BODY_BYTES, decode_body

if TYPE_CHECKING:
    from email.message import Message

MAX_MIME_DEPTH = 64
"""Deepest MIME nesting walked; a deeper message is scanned as raw text (``mime-too-deep``)."""

ENCAPSULATED_TYPES = frozenset({"message/rfc822", "message/news", "message/global"})
"""``message/*`` types whose body is a whole message, walked for its parts."""

URL_HEADER_NAMES = frozenset({"archived-at", "link"})
"""Headers scanned with ``scan_headers``, besides every ``List-*`` header (RFC 2369)."""
LINE_END = LINE_END


@record(frozen=False)
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
    declined: str = ""
    """Why the fast paths handed the message to the stdlib's feed parser, "" when they did
    not (for benchmarks): ``header`` (a root header block that is not clean),
    ``8bit-header`` or ``message`` (a structured root they do not take), ``multipart`` (a
    digest, no boundary, a reported encoding), ``boundary`` (a delimiter inside a line, no
    close delimiter...), ``part-header``, ``part-8bit-header``, ``part-multipart``,
    ``message-part`` (a ``message/*`` part other than an encapsulated message, whose
    header blocks name a Content-Type) or ``deep`` (a part they cannot be sure of)."""


class _TooDeepError(Exception):
    """MIME nesting beyond MAX_MIME_DEPTH: the message is scanned as raw text instead."""


@record(frozen=False)
class Walk:
    """One message as it is read: where it comes from, what it has given so far."""

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
    date_utc: str | None = None


def _context(walk: Walk, path: str, content_type: str) -> MessageContext:
    return MessageContext(
        message=walk.number,
        message_offset=walk.offset,
        message_id=walk.message_id,
        date=walk.date,
        from_=walk.sender,
        subject=walk.subject,
        part=path,
        content_type=content_type,
        date_utc=walk.date_utc,
    )


# A part's context and unit (_emit_text, _plain_message) and a message's result, made from
# all their fields (record.maker: no call through the class): once or more per message.
_new_context = maker(MessageContext)
_new_unit = maker(TextUnit)
_new_result = maker(MessageResult)


# A part's text longer than this is handed to the scanner in pieces of this many
# characters: the scanner's work on one chunk makes copies of it, so a whole long text
# would cost several times its size at once (the results are the same wherever the
# chunks are cut).
TEXT_PIECE_CHARS = 1 << 16


def _pieces(text: str) -> Iterator[str]:
    # The text in pieces of TEXT_PIECE_CHARS, lazily (it is released when they are done).
    for start in range(0, len(text), TEXT_PIECE_CHARS):
        yield text[start : start + TEXT_PIECE_CHARS]


def _emit(walk: Walk, path: str, content_type: str, text: str, defects: list[Defect]) -> None:
    chunks: Iterable[str] = (text,) if text else ()
    if len(text) > TEXT_PIECE_CHARS:
        chunks = _pieces(text)
    emit_chunks(walk, path, content_type, chunks, defects)


def _emit_text(walk: Walk, path: str, content_type: str, text: str, defects: list[Defect]) -> None:
    # _emit for a text of one piece (most): its unit and context built here, positionally
    # (one call per part instead of four; the fields in their declared order).
    if len(text) > TEXT_PIECE_CHARS:
        emit_chunks(walk, path, content_type, _pieces(text), defects)
        return
    context = _new_context(
        walk.number,
        walk.offset,
        walk.message_id,
        walk.date,
        walk.sender,
        walk.subject,
        path,
        content_type,
        walk.date_utc,
    )
    result = walk.result
    result.units.append(
        _new_unit(walk.source, (text,) if text else (), context, tuple(defects), (0, 1))
    )
    result.text_parts += 1


def emit_chunks(
    walk: Walk, path: str, content_type: str, chunks: Iterable[str], defects: list[Defect]
) -> None:
    unit = TextUnit(
        source=walk.source,
        chunks=chunks,
        context=_context(walk, path, content_type),
        defects=tuple(defects),
    )
    walk.result.units.append(unit)
    walk.result.text_parts += 1


def part_is_scanned(walk: Walk, path: str, content_type: str, own: list[Defect]) -> bool:
    # Whether a leaf part of this type is scanned (counting it as skipped if not).
    if content_type.startswith("multipart/"):
        # The parser could not split it (no boundary, or none found): scan it as text.
        own.append(
            Defect("multipart-not-split", f"part {path}: {content_type} read as text", "warning")
        )
    elif not content_type.startswith("text/") and not walk.options.include_attachments:
        walk.result.skipped += 1
        return False
    return True


def _leaf(
    walk: Walk, part: Message, path: str, inherited: list[Defect], content_type: str | None
) -> None:
    value: object  # the Content-Type value, for the parameters
    if content_type is None:
        content_type, value = part_type(part)
    else:
        value = part.get("content-type")
    own: list[Defect] = []
    if not part_is_scanned(walk, path, content_type, own):
        return
    cte_value = part.get("content-transfer-encoding", "")
    if isinstance(cte_value, str):
        check_transfer_encoding(transfer_encoding_of(cte_value), path, own)
    else:  # a Header object: the value has 8-bit bytes
        check_transfer_encoding(header_text(cte_value).lower(), path, own)
    decoded = decoded_encoding(cte_value)
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
                attach_body(part, walk.data[start:stop])
    elif decoded is not None and isinstance(body, str) and len(body) > LARGE_BODY_BYTES:
        payload = decode_body(body, 0, decoded)  # in slices (.transfer), as the stdlib would
    del body
    if payload is None:
        got = part.get_payload(decode=True)
        payload = got if isinstance(got, bytes) else b""
    if part.defects:
        own.extend(defects_of(part, path))  # after decoding: base64 defects appear then
    params = part_text_params(part, value, content_type == "text/plain")
    _text_unit(walk, path, inherited, content_type, payload, params, own)


# RFC 5545 §3.1: a content line is folded by inserting CRLF and one space or tab; the
# line ends are LF by the time this applies.
_CALENDAR_FOLD = re.compile(r"\n[ \t]")
# Content types whose text needs a step over the whole text (not streamed).
WHOLE_TEXT_TYPES = frozenset({"text/html", "text/calendar"})


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
    walk: Walk,
    path: str,
    inherited: list[Defect],
    content_type: str,
    payload: bytes,
    params: TextParams,
    own: list[Defect],
) -> None:
    # A scanned leaf's bytes (after transfer decoding) as text, into a unit.
    charset, flowed, delsp = params
    text, charset_defects = decode_text(payload, charset)
    own.extend(charset_defects)
    if "\r" in text:
        text = LINE_END.sub("\n", text)
    if content_type == "text/html":
        try:
            text = html_to_text(text)
        except Exception as exc:  # the stdlib tokenizer is lenient; be safe anyway
            own.append(
                Defect(
                    "html-parse-error", f"part {path}: {type(exc).__name__}; raw markup", "warning"
                )
            )
    elif flowed:
        if len(text) > TEXT_PIECE_CHARS:
            # Unwrapped piece by piece as the scanner reads it: no list of lines, no
            # joined copy (a long part of 4-byte characters cost ten times its size).
            walk.found.extend(own)
            chunks = unflow_chunks(text, delsp, TEXT_PIECE_CHARS)
            emit_chunks(walk, path, content_type, chunks, inherited + own if own else inherited)
            return
        text = unflow(text, delsp)
    elif content_type == "text/calendar" and "\n" in text:
        text = unfold_calendar(text)
    if own:
        walk.found.extend(own)
        _emit_text(walk, path, content_type, text, inherited + own)
    else:
        _emit_text(walk, path, content_type, text, inherited)


def _fast_leaf(
    walk: Walk,
    data: bytes,
    body_start: int,
    inherited: list[Defect],
    content_type: str,
    ct_value: str | None,
    cte_value: str | None,
    path: str = "1",
    body_end: int | None = None,
    parsed: tuple[Defect, ...] = (),
) -> None:
    # _leaf for a leaf from the fast path (its body is data[body_start:body_end]), its
    # Content-Type and Content-Transfer-Encoding values ASCII (the first of each, as
    # Message.get() finds them): the same steps, without a Message unless the stdlib has a
    # uuencoded body to decode (base64 .transfer does not take, which the stdlib reports
    # defects for, is decoded as it would be: _base64_payload). A body is decoded in
    # slices (.transfer), without a copy. ``parsed``: the defects the feed parser would
    # have given the part (before any of decoding).
    own: list[Defect] = []
    if not content_type.startswith("text/") and not part_is_scanned(walk, path, content_type, own):
        return
    end = len(data) if body_end is None else body_end
    decoded_cte = None
    if cte_value is not None:  # as check_transfer_encoding and decoded_encoding read it
        cte = transfer_encoding_of(cte_value)
        if cte not in KNOWN_TRANSFER_ENCODINGS:
            check_transfer_encoding(cte, path, own)
        elif cte in DECODED_TRANSFER_ENCODINGS:
            decoded_cte = cte
    payload: bytes | None = None
    if decoded_cte is not None:  # clean base64 and any quoted-printable: binascii directly
        payload = decode_body(data, body_start, decoded_cte, end)
    if payload is not None:
        pass  # decoded as the stdlib would, without defects
    elif decoded_cte is not None:
        read = _base64_payload(data[body_start:end]) if decoded_cte == "base64" else None
        own.extend(parsed)
        parsed = ()
        if read is not None:
            payload = read[0]
            own.extend(defect_record(defect, path) for defect in read[1])
        else:
            part = message_of([("Content-Transfer-Encoding", decoded_cte)])
            attach_body(part, data[body_start:end])
            decoded = part.get_payload(decode=True)
            payload = decoded if isinstance(decoded, bytes) else b""
            if part.defects:
                own.extend(defects_of(part, path))
    else:
        payload = data[body_start:end]
    own.extend(parsed)
    params = (
        text_params_of(ct_value, content_type == "text/plain")
        if ct_value is not None
        else (None, False, False)
    )
    _text_unit(walk, path, inherited, content_type, payload, params, own)


def _base64_payload(body: bytes) -> tuple[bytes, list[object]] | None:
    # get_payload(decode=True) of a base64 part whose body (not clean base64: .transfer
    # declined it) is ``body``, and the defects it gives the part, without a Message
    # (email.message brings email.utils, socket, urllib.parse...): in CPython 3.10 to
    # 3.13, that method decodes such a body, which the feed parser attached as ASCII with
    # surrogate escapes, as email._encoded_words.decode_b of its bytes' lines joined, and
    # hands each defect decode_b reports to the part. None should the private name be
    # gone (the caller asks a Message).
    try:
        from email._encoded_words import decode_b  # type: ignore[import-not-found]
    except ImportError:
        return None
    value, defects = decode_b(b"".join(body.splitlines()))
    return value, list(defects)


# A leaf found by the multipart fast path: (part number, body start, body end, content
# type, Content-Type value, Content-Transfer-Encoding value, the feed parser's defects of
# the part); a body start of -1 for a part counted as skipped.
_Leaf = tuple[str, int, int, str, str | None, str | None, tuple[Defect, ...]]
# The body start of a _Leaf that stands for a multipart without its close delimiter: its
# defects (the feed parser's CloseBoundaryNotFoundDefect) go to the walk's when it comes,
# and to every leaf beneath it.
_CONTAINER = -2
# Multipart encodings the feed parser accepts without a defect (compared as written).
_MULTIPART_ENCODINGS = ("7bit", "8bit", "binary")


def _multipart_boundary(content_type: str, ct_value: str, cte_value: str | None) -> str | None:
    # The boundary of a multipart the fast path can split, or None (a digest, whose parts
    # default to message/rfc822; an encoding the parser reports; no boundary).
    if content_type == "multipart/digest":
        return None
    if cte_value is not None and cte_value.lower() not in _MULTIPART_ENCODINGS:
        return None
    return boundary_of(ct_value)


def _plan_multipart(
    data: bytes, start: int, end: int, boundary: str, path: str, depth: int, leaves: list[_Leaf]
) -> str:
    # The leaves of the multipart whose body is data[start:end], in walk order, into
    # ``leaves``; "" when done, else why the stdlib must parse the message instead. A part
    # is taken only when the feed parser's result is certain: a clean header block (as
    # the root's, .headers.kept_fields) ended by a blank line, ASCII Content-Type and
    # Content-Transfer-Encoding values, and a leaf, a multipart that is split the same
    # way (or holds no delimiter at all, see _unsplit) or a message/* part (_plan_message).
    if depth >= MAX_MIME_DEPTH:
        return "deep"
    spans = split_parts(data, start, end, boundary)
    if spans is None:
        return "boundary"
    if spans[-1][1] == end:  # no close delimiter
        # The feed parser's defect for the container, in walk order (before its parts'),
        # inherited by every leaf beneath it (see _inherited).
        from email.errors import CloseBoundaryNotFoundDefect

        defect = defect_record(CloseBoundaryNotFoundDefect(), path or "0")
        leaves.append((path, _CONTAINER, _CONTAINER, "", None, None, (defect,)))
    for index, (span_start, span_end) in enumerate(spans, 1):
        read = _entity_values(data, span_start, span_end)
        if isinstance(read, str):
            return read
        body, values, content_type = read
        child = f"{path}.{index}" if path else str(index)
        why = _plan_entity(data, body, span_end, content_type, values, child, depth + 1, leaves)
        if why:
            return why
    return ""


_SHORT_HEADER = 2048  # bytes of a part first searched for its header block's end


def _entity_values(data: bytes, start: int, end: int) -> tuple[int, dict[str, str], str] | str:
    # (body start, first header values, content type) of the entity data[start:end] (a part, or the
    # message a message/rfc822 part holds) whose header block is clean, as the root's
    # (.headers.kept_fields), ended by a blank line, with ASCII Content-Type and
    # Content-Transfer-Encoding values; else why the fast path declines it. The block is
    # read by clean_values in place (most), else cut from a prefix (_entity_values_cut):
    # in both, its end must lie within MAX_LIFTED_HEADER bytes.
    clean = clean_values(data, start, min(end, start + MAX_LIFTED_HEADER))
    if clean is not None:
        header, values = clean
        body_start = header + 1 - start
    else:
        read = _entity_values_cut(data, start, end)
        if isinstance(read, str):
            return read
        body_start, values = read
    ct_value = values.get("content-type")
    cte_value = values.get("content-transfer-encoding")
    if not (ct_value is None or ct_value.isascii()) or not (
        cte_value is None or cte_value.isascii()
    ):
        return "part-8bit-header"
    content_type = "text/plain" if ct_value is None else content_type_of(ct_value)
    return start + body_start, values, content_type


def _entity_values_cut(data: bytes, start: int, end: int) -> tuple[int, dict[str, str]] | str:
    # _entity_values's block when clean_values does not take it: found by find_body and
    # cut by kept_fields (body start in the entity, values), or why the fast path
    # declines it. A part's header block is short: it is looked for in a short prefix
    # first (a result before the prefix's end is the whole entity's, see find_body), in
    # the longest one only when it is not found there, so that a part is not copied
    # whole for it.
    prefix = data[start : min(end, start + _SHORT_HEADER)]
    header_len, body_start = find_body(prefix)
    if header_len == len(prefix) and end - start > _SHORT_HEADER:
        prefix = data[start : min(end, start + MAX_LIFTED_HEADER)]
        header_len, body_start = find_body(prefix)
    if header_len == body_start and (
        header_len == 0 or header_len < len(prefix) or start + header_len < end
    ):
        return "part-header"  # no blank line within reach, or a URL line ends it
    # Else the block is the blank line's, or it runs to the entity's end (no blank line:
    # a last part cut short after its header block, a part with no body), where the
    # parser reads it all as fields, with an empty body and no defect.
    fields = kept_fields(prefix[:header_len], False)
    if fields is None:
        return "part-header"
    return body_start, first_values(raw_headers(fields))


def _plan_entity(
    data: bytes,
    body: int,
    end: int,
    content_type: str,
    values: dict[str, str],
    path: str,
    depth: int,
    leaves: list[_Leaf],
) -> str:
    # The leaves of one part (its header read, its body data[body:end], which ends where
    # a delimiter line starts) into ``leaves``, at ``depth`` as the walk counts it; ""
    # when done, else why the stdlib must parse the message instead.
    ct_value = values.get("content-type")
    cte_value = values.get("content-transfer-encoding")
    if content_type.startswith("message/"):
        return _plan_message(data, body, end, content_type, path, depth, leaves)
    parsed: tuple[Defect, ...] = ()
    if content_type.startswith("multipart/"):
        inner = None if ct_value is None else _multipart_boundary(content_type, ct_value, cte_value)
        if inner is None:
            return "part-multipart"
        if not _unsplit(data, body, end, inner):
            return _plan_multipart(data, body, end, inner, path, depth, leaves)
        from email.errors import StartBoundaryNotFoundDefect

        parsed = (defect_record(StartBoundaryNotFoundDefect(), path),)
    if depth > MAX_MIME_DEPTH:
        return "deep"
    body_end = end
    # The line end before the delimiter belongs to it (RFC 2046 §5.1.1): the feed parser
    # takes it off the payload of the last leaf it made, this one (an unsplit multipart
    # keeps it). So too for the last part of a multipart without a close delimiter, at
    # the end of the message: there the line end may be a lone CR (the parser's lines end
    # at CRLF, CR or LF); before a delimiter line it is LF or CRLF.
    if not parsed and body_end > body and data[body_end - 1] == 0x0A:
        body_end -= 1
        if body_end > body and data[body_end - 1] == 0x0D:
            body_end -= 1
    elif not parsed and body_end > body and data[body_end - 1] == 0x0D:
        body_end -= 1
    leaves.append((path, body, body_end, content_type, ct_value, cte_value, parsed))
    return ""


def _unsplit(data: bytes, body: int, end: int, boundary: str) -> bool:
    # Whether a multipart part whose body is data[body:end] (ended by its parent's
    # delimiter line) holds no delimiter line of its own boundary (no "--boundary" at
    # all). The feed parser then reads the whole body as the part's preamble: it reports
    # StartBoundaryNotFoundDefect, stores the body (line end and all: its last part is
    # the multipart, whose epilogue is trimmed, not its payload) as a string payload, and
    # the walk reads the part as a leaf (multipart-not-split), as _plan_entity does. A
    # bounce's copy of a message's header block ends so.
    return data.find(b"--" + boundary.encode("ascii", "surrogateescape"), body, end) < 0


def _plan_message(
    data: bytes,
    body: int,
    end: int,
    content_type: str,
    path: str,
    depth: int,
    leaves: list[_Leaf],
) -> str:
    # A message/* part of a multipart (see _plan_entity). The feed parser reads its body
    # as a message (its header block, then a body by its own Content-Type), which the
    # walk (_walk_part) enters for message/rfc822, news and global: a multipart one in
    # its place (its parts numbered path.1, path.2...), any other at path.1. Any other
    # message/* part is counted as skipped; the parser reads its body as header blocks,
    # so it is taken only when no Content-Type there gives those blocks structure (and
    # the parser nothing to recurse into).
    if depth > MAX_MIME_DEPTH:
        return "deep"
    if content_type not in ENCAPSULATED_TYPES:
        if b"content-type" in data[body:end].lower():
            return "message-part"
        leaves.append((path, -1, -1, content_type, None, None, ()))  # skipped
        return ""
    read = _entity_values(data, body, end)
    if isinstance(read, str):
        return read
    inner_body, values, inner_type = read
    ct_value = values.get("content-type")
    here = path + ".1"
    if inner_type.startswith("multipart/") and ct_value is not None:
        # Walked in the part's place when the parser made it a multipart (split).
        boundary = _multipart_boundary(
            inner_type, ct_value, values.get("content-transfer-encoding")
        )
        if boundary is not None and not _unsplit(data, inner_body, end, boundary):
            here = path
    return _plan_entity(data, inner_body, end, inner_type, values, here, depth + 1, leaves)


def _walk_part(
    walk: Walk,
    part: Message,
    path: str,
    inherited: list[Defect],
    depth: int,
    content_type: str | None = None,
) -> None:
    # ``path`` is this part's number ("" for a multipart message's root); ``content_type``
    # is the part's, when the caller already has it. (``part`` comes from the stdlib's
    # parser: email.message is imported.)
    from email.message import Message

    if depth > MAX_MIME_DEPTH:
        raise _TooDeepError(path)
    if not part.is_multipart():
        _leaf(walk, part, path or "1", inherited, content_type)
        return
    payload = part.get_payload()
    if not isinstance(payload, list):  # pragma: no cover - is_multipart() says it is
        return
    own = defects_of(part, path or "0")
    walk.found.extend(own)
    defects = inherited + own
    if content_type is None:
        content_type = part_type(part)[0]
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


def _context_text(value: str | None) -> str | None:
    # header_text(value) cut at MAX_CONTEXT_CHARS; an ASCII value on one line (most)
    # without its steps.
    if value is None:
        return None
    if value.isascii() and "\n" not in value:
        return value.strip()[:MAX_CONTEXT_CHARS]
    return header_text(value)[:MAX_CONTEXT_CHARS]


def _set_context(walk: Walk, values: dict[str, str]) -> list[Defect]:
    # The message context from the first Message-ID, Date, From and Subject values.
    get = values.get
    walk.message_id = _context_text(get("message-id"))
    walk.date = date = _context_text(get("date"))
    walk.sender = _context_text(get("from"))
    walk.date_utc, defects = utc_date(date)
    subject = _context_text(get("subject"))
    if subject is None:
        return defects
    if "=?" not in subject:  # decode_subject's own test: nothing to decode
        walk.subject = subject
        return defects
    subject, subject_defects = decode_subject(subject)
    walk.subject = subject[:MAX_CONTEXT_CHARS]
    return defects + subject_defects


def _header_unit(walk: Walk, headers: list[tuple[str, str]], defects: list[Defect]) -> None:
    lines = []
    for name, value in headers:
        key = name.lower()
        if key.startswith("list-") or key in URL_HEADER_NAMES:
            lines.append(f"{name}: {header_text(value, lossless=True)}")
    if lines:
        unit = TextUnit(
            source=walk.source,
            chunks=("\n".join(lines) + "\n",),
            context=_context(walk, "0", "header"),
            defects=tuple(defects),
        )
        walk.result.units.append(unit)
        walk.result.header_units += 1


def start_message(
    walk: Walk,
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


def _read_message(
    walk: Walk,
    data: bytes,
    known: list[Defect],
    fast: bool,
    clean: tuple[int, dict[str, str]] | None,
) -> None:
    # Parse and walk one message, adding its units to ``walk.result``; may raise.
    # ``clean``: clean_values of the root's header block (_root_block), or None.
    options = walk.options
    fields: list[bytes] | None
    headers: list[tuple[str, str]] = []  # the kept fields (read only when needed)
    if clean is not None:  # a clean block within the cap, and no header unit to write
        header_len, values = clean
        body_start = header_len + 1
        header_defects: list[Defect] = []
        fields = None
    else:
        data, header_len, body_start, header_defects = cap_header(data, options.max_header_bytes)
        fields = kept_fields(data[:header_len], options.scan_headers) if fast else None
        if fields is None:
            walk.result.declined = "header" if fast else ""
            msg = parse_stdlib(data, header_len, body_start, options.scan_headers, walk.lifted)
            walk.data = data
            headers = list(msg.raw_items())
            start_message(
                walk, known, header_defects, first_values(headers), headers, msg.get_content_type()
            )
            _walk_part(walk, msg, "", known, 0, walk.root_type)
            return
        headers = raw_headers(fields)
        values = first_values(headers)
    ct_value = values.get("content-type")
    cte_value = values.get("content-transfer-encoding")
    if (ct_value is None or ct_value.isascii()) and (cte_value is None or cte_value.isascii()):
        content_type = "text/plain" if ct_value is None else content_type_of(ct_value)
        structured = content_type.startswith(("multipart/", "message/"))
        if not structured:
            start_message(walk, known, header_defects, values, headers, content_type)
            _fast_leaf(walk, data, body_start, known, content_type, ct_value, cte_value)
            return
        if content_type.startswith("multipart/") and ct_value is not None:
            boundary = _multipart_boundary(content_type, ct_value, cte_value)
            leaves: list[_Leaf] = []
            why = (
                "multipart"
                if boundary is None
                else _plan_multipart(data, body_start, len(data), boundary, "", 0, leaves)
            )
            if not why:
                start_message(walk, known, header_defects, values, headers, content_type)
                containers: list[tuple[str, tuple[Defect, ...]]] = []
                for path, start, stop, part_type_, part_ct, part_cte, parsed in leaves:
                    if start < 0:
                        if start == _CONTAINER:
                            walk.found.extend(parsed)
                            containers.append((path + "." if path else "", parsed))
                        else:  # a message/* part the walk does not enter
                            walk.result.skipped += 1
                        continue
                    _fast_leaf(
                        walk,
                        data,
                        start,
                        known if not containers else _inherited(known, containers, path),
                        part_type_,
                        part_ct,
                        part_cte,
                        path=path,
                        body_end=stop,
                        parsed=parsed,
                    )
                return
            walk.result.declined = why
        else:
            walk.result.declined = "message"
    if fields is None:  # the clean block's fields, for the stdlib
        fields = kept_fields(data[:header_len], False)
        assert fields is not None  # clean_values found the block clean
    if not headers:
        headers = raw_headers(fields)
    if (ct_value is None or ct_value.isascii()) and (cte_value is None or cte_value.isascii()):
        msg = parse_structured(fields, headers, data, header_len, walk.lifted)
        walk.data = data
    else:  # 8-bit bytes in a value: the stdlib reads it through a Header object
        msg = message_of(headers)
        if msg.get_content_maintype() in ("multipart", "message"):
            walk.result.declined = "8bit-header"
            msg = parse_structured(fields, headers, data, header_len, walk.lifted)
            walk.data = data
        else:
            attach_body(msg, data[body_start:])
    start_message(walk, known, header_defects, values, headers, msg.get_content_type())
    _walk_part(walk, msg, "", known, 0, walk.root_type)


def _inherited(
    known: list[Defect], containers: list[tuple[str, tuple[Defect, ...]]], path: str
) -> list[Defect]:
    # The defects a fast-path leaf at ``path`` inherits, as _walk_part passes them down:
    # the message's, then those of each container above it (outermost first), each
    # container given by the prefix of its parts' numbers ("" for the root).
    return known + [
        defect for prefix, defects in containers if path.startswith(prefix) for defect in defects
    ]


def _root_block(data: bytes, options: MailOptions) -> tuple[int, RootFields] | None:
    # clean_block of the root's header block within the cap, when the fast path reads
    # it so (no header unit to write: those want every kept field), else None.
    if options.scan_headers:
        return None
    return clean_block(data, 0, min(len(data), options.max_header_bytes + 1))


# Transfer encodings a single text part is read under as it is written (no decoding, no
# defect): what transfer_encoding_of makes of them.
_AS_WRITTEN_ENCODINGS = frozenset({"", "7bit", "8bit", "binary"})


def _text_of(value: bytes | None) -> str | None:
    # A root value as written, as clean_values decodes it.
    return None if value is None else value.decode("ascii", "surrogateescape")


# What _plain_message makes of a message's (Content-Type, Content-Transfer-Encoding)
# values: (charset, format=flowed, DelSp=yes, transfer encoding to decode or None, the
# codec a body that is not ASCII is read in when decode_text would read it so without a
# defect, or None), or None for a message it does not take. An archive has few distinct
# pairs taken; the table is emptied when full.
_PlainPlan = tuple[str | None, bool, bool, str | None, str | None]
_PLAIN_PLANS: dict[tuple[bytes | None, bytes | None], _PlainPlan] = {}
_MAX_PLANS = 1024


def _plain_plan(ct_value: str | None, cte_value: str | None) -> _PlainPlan | None:
    if ct_value is None:
        params: TextParams = (None, False, False)
    elif ct_value.isascii() and content_type_of(ct_value) == "text/plain":
        params = text_params_of(ct_value, True)
    else:
        return None
    encoded = None  # the transfer encoding to decode, if any
    if cte_value is not None:
        if not cte_value.isascii():
            return None
        encoded = transfer_encoding_of(cte_value)
        if encoded in _AS_WRITTEN_ENCODINGS:
            encoded = None
        elif encoded not in DECODED_TRANSFER_ENCODINGS:
            return None  # an unknown encoding: the walk reports it
    charset = params[0]
    return (charset, params[1], params[2], encoded, plain_codec(charset))


def _plain_message(
    data: bytes, clean: tuple[int, RootFields], source: str, number: int, offset: int
) -> TextUnit | None:
    # message_units of the most common message, in one step: a clean header block, a
    # text/plain body written as it is sent or in quoted-printable or base64 that
    # .transfer decodes (as the stdlib would, without a defect), and nothing to report
    # (no defect of its date, Subject or charset, no defect given by the caller); the
    # text in one piece (format=flowed unwrapped). What the walk (_read_message,
    # start_message, _fast_leaf, _text_unit, _emit_text, finish_message) gives such a
    # message: its one unit (with its context; the result counts one text part and
    # nothing else). None for any other message, before anything is made.
    header, (ct_value, cte_value, message_id, date, sender, subject) = clean
    key = (ct_value, cte_value)
    plan = _PLAIN_PLANS.get(key)
    if plan is None:
        plan = _plain_plan(_text_of(ct_value), _text_of(cte_value))
        if plan is None:
            return None  # not remembered: a multipart's Content-Type is its own
        if len(_PLAIN_PLANS) >= _MAX_PLANS:
            _PLAIN_PLANS.clear()
        _PLAIN_PLANS[key] = plan
    charset, flowed, delsp, encoded, codec = plan
    # The four context fields: when all are there, ASCII, on one line and together no
    # longer than a context field may be, each is its value stripped (_context_text's
    # common step, without its calls).
    if (
        message_id is not None
        and date is not None
        and sender is not None
        and subject is not None
        and len(joined := message_id + date + sender + subject) <= MAX_CONTEXT_CHARS
        and joined.isascii()
        and b"\n" not in joined
    ):
        message_id_text: str | None = message_id.decode("ascii").strip()
        date_text: str | None = date.decode("ascii").strip()
        sender_text: str | None = sender.decode("ascii").strip()
        subject_text: str | None = subject.decode("ascii").strip()
    else:
        message_id_text = _context_text(_text_of(message_id))
        date_text = _context_text(_text_of(date))
        sender_text = _context_text(_text_of(sender))
        subject_text = _context_text(_text_of(subject))
    date_utc = common_utc_date(date_text)
    if date_utc is None and date_text is not None:
        date_utc, date_defects = utc_date(date_text)
        if date_defects:
            return None
    if subject_text is not None and "=?" in subject_text:
        subject_text, subject_defects = decode_subject(subject_text)
        if subject_defects:
            return None
        subject_text = subject_text[:MAX_CONTEXT_CHARS]
    body = data[header + 1 :] if encoded is None else decode_body(data, header + 1, encoded)
    if body is None:
        return None  # the stdlib decodes it (base64 that is not clean, uuencode)
    if codec is None:
        text, charset_defects = decode_text(body, charset)
        if charset_defects:
            return None
    elif body.isascii():
        text = body.decode("ascii")
    else:
        try:
            text = body.decode(codec)
        except UnicodeError:
            return None  # decode_text reports it
    if "\r" in text:
        text = LINE_END.sub("\n", text)
    if len(text) > TEXT_PIECE_CHARS:
        return None
    if flowed:
        text = unflow(text, delsp)
        if len(text) > TEXT_PIECE_CHARS:
            return None  # longer (">a" is written "> a"): the walk gives it in pieces
    context = _new_context(
        number,
        offset,
        message_id_text,
        date_text,
        sender_text,
        subject_text,
        "1",
        "text/plain",
        date_utc,
    )
    return _new_unit(source, (text,) if text else (), context, (), (0, 1))


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
    if not fast:
        return _walk_message(data, source, number, offset, options, defects, False, None)
    read = read_message(data, source, number, offset, options, defects)
    return read if isinstance(read, MessageResult) else _new_result([read], 1, 0, 0, 0, "")


def read_message(
    data: bytes,
    source: str,
    number: int,
    offset: int,
    options: MailOptions,
    defects: Sequence[Defect],
) -> TextUnit | MessageResult:
    """:func:`message_units` (fast), but a message read in one step is its one unit.

    For the loops over messages (:mod:`.archive`): a :class:`TextUnit` stands for the
    result of that unit alone, one text part and no defect, which the caller counts
    itself; any other message gives ``message_units``' result. Never raises.
    """
    clean = _root_block(data, options)
    if clean is not None and not defects:
        try:
            plain = _plain_message(data, clean, source, number, offset)
        except Exception:  # pragma: no cover - the walk below meets it again
            plain = None
        if plain is not None:
            return plain
    values = None if clean is None else (clean[0], root_values(clean[1]))
    return _walk_message(data, source, number, offset, options, defects, True, values)


def _walk_message(
    data: bytes,
    source: str,
    number: int,
    offset: int,
    options: MailOptions,
    defects: Sequence[Defect],
    fast: bool,
    clean: tuple[int, dict[str, str]] | None,
) -> MessageResult:
    # message_units of a message not read in one step (its root block's clean_values, or
    # None).
    result = MessageResult()
    known = list(defects)
    walk = Walk(source, options, number, offset, result)
    try:
        _read_message(walk, data, known, fast, clean)
    except Exception as exc:  # too deep, or the stdlib parser failed: scan the raw bytes
        problem = raw_scan_defect(exc)
        walk.found.append(problem)
        result.units.clear()
        result.text_parts = result.header_units = result.skipped = 0
        text = data.decode("utf-8", "surrogateescape")
        if "\r" in text:
            text = LINE_END.sub("\n", text)
        _emit(walk, "1", "text/plain", text, [*known, problem])
    return finish_message(walk, known)


def raw_scan_defect(exc: Exception) -> Defect:
    # The defect of a message whose parse or walk raised: it is then scanned as raw text.
    if isinstance(exc, _TooDeepError):
        return Defect(
            "mime-too-deep",
            f"parts nested deeper than {MAX_MIME_DEPTH} levels (at {exc}); "
            "message scanned as raw text",
            "warning",
        )
    return Defect(
        "message-parse-error",
        f"{type(exc).__name__} while parsing; message scanned as raw text",
        "warning",
    )


def finish_message(walk: Walk, known: list[Defect]) -> MessageResult:
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
