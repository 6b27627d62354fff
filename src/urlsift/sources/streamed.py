"""The streamed path: a single message too large to hold, read in two passes.

Promises:

* Which messages. A message file of its own (not one split from an mbox), longer than
  ``archive.STREAM_MIN_BYTES`` or than ``max_message_bytes``, whose header block (found
  within ``max_header_bytes``) shows one part with a body used as is
  (:func:`single_part_head`): not ``multipart/*`` or ``message/*``, no stray line in the
  block, a transfer encoding that ``get_payload(decode=True)`` leaves alone (8-bit or
  unknown ones included), no whole-text step (not ``text/html``, ``text/calendar`` or
  ``format=flowed``), a charset :mod:`.charsets` can decode as a stream; or a part that
  is skipped. Anything else gets ``None`` and is read whole by :mod:`.archive`.
* Same units. :func:`streamed_message_units` gives the units, contexts, defects and
  counts that :func:`~.parts.message_units` gives for the whole message (tests compare
  both, at many block sizes), built by the part walk's own steps; the units' defects
  come first as always, since :func:`~.charsets.plan_decoding` decides from the facts of
  a first pass (:class:`~.charsets.BodyCheck`) before any text exists.
* Two readings (:func:`read_streamed`). The first pass reads the body once and keeps
  nothing; the body unit's text is a second reading (:class:`SecondReading`), decoded as
  it is scanned: of the file itself (through a duplicated descriptor, see
  :class:`~.compress.Rereader`), or, for standard input and pipes, of a temporary copy
  made during the first pass. Memory is a few blocks, with no cap on the body (so no
  ``message-truncated``). A file that shrinks between the readings raises
  :class:`~urlsift.errors.SourceError`; bad content never raises.
"""

from __future__ import annotations

import contextlib
import itertools
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import IO, TYPE_CHECKING

from .._model import Defect, TextUnit
from ..errors import SourceError
from .charsets import BodyCheck, BodyFacts, decode_stream, plan_decoding, stream_codec
from .compress import CountedStream, Rereader, rereader
from .headers import (
    TextParams,
    check_transfer_encoding,
    content_type_of,
    decoded_encoding,
    defects_of,
    first_values,
    header_text,
    kept_fields,
    message_of,
    part_text_params,
    raw_headers,
    text_params_of,
    transfer_encoding_of,
    url_line_defect,
)
from .options import MailOptions
from .parse import needs_full_parse, parse_header_stdlib
from .parts import (
    WHOLE_TEXT_TYPES,
    MessageResult,
    Walk,
    emit_chunks,
    finish_message,
    part_is_scanned,
    raw_scan_defect,
    start_message,
)
from .reading import ArchiveStats, BlockReader, count_message

if TYPE_CHECKING:
    from email.message import Message

# The header block is read by the part walk's steps (parts._read_message: the fast path
# when clean, else the stdlib's header-only parse), and a head made only when the stdlib
# would hand the one leaf's body over unchanged; the unit is then built by the steps of
# parts._fast_leaf/_leaf and _text_unit, with decode_text's decision taken from the body's
# facts (plan_decoding) and the text left as a lazy stream.

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
    """The codec a :class:`~.charsets.BodyCheck` checks (``None``: UTF-8 only)."""
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
            header block (where :func:`~.parts.message_units` would find it:
            :func:`~.headers.find_body`), or up to the URL line that ends it.
        header_len: bytes of ``raw`` before that blank line (all of ``raw`` when the block
            ends at a URL line).
        options: as for :func:`~.parts.message_units`.
        fast: as for :func:`~.parts.message_units`.

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
    fields = kept_fields(header, options.scan_headers) if fast else None
    msg: Message | None = None
    if fields is None:  # _read_message's reference path (parse_stdlib)
        msg = parse_header_stdlib(header, options.scan_headers)[0]
        if needs_full_parse(msg):
            return None
        headers = list(msg.raw_items())
    else:
        headers = raw_headers(fields)
    values = first_values(headers)
    ct_value = values.get("content-type")
    cte_value = values.get("content-transfer-encoding")
    if msg is None and not (
        (ct_value is None or ct_value.isascii()) and (cte_value is None or cte_value.isascii())
    ):
        msg = message_of(headers)  # 8-bit bytes in a value: as _read_message, a Message
    if msg is None:  # _read_message's fast path
        content_type = "text/plain" if ct_value is None else content_type_of(ct_value)
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
        return head  # skipped before its body is looked at (part_is_scanned)
    own: list[Defect] = []
    params: TextParams
    if msg is None:  # _fast_leaf before its payload
        check_transfer_encoding(transfer_encoding_of(cte_value or ""), "1", own)
        if cte_value is not None and decoded_encoding(cte_value) is not None:
            return None
        plain = content_type == "text/plain"
        params = (None, False, False) if ct_value is None else text_params_of(ct_value, plain)
    else:  # _leaf on the root (as _walk_part calls it) before its payload
        cte = msg.get("content-transfer-encoding", "")
        check_transfer_encoding(
            transfer_encoding_of(cte) if isinstance(cte, str) else header_text(cte).lower(),
            "1",
            own,
        )
        if decoded_encoding(cte) is not None:  # as _leaf decides
            return None
        if msg.defects:
            own.extend(defects_of(msg, "1"))
        params = part_text_params(msg, msg.get("content-type"), content_type == "text/plain")
    charset, flowed, _ = params
    streamable, codec = stream_codec(charset)
    if content_type in WHOLE_TEXT_TYPES or flowed or not streamable:
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
    """Turn a streamed single-part message into units: :func:`~.parts.message_units`' result.

    The units, contexts, defects and counts are those :func:`~.parts.message_units` gives for the
    whole message; the body unit's chunks decode ``body()`` lazily, so its text is only
    read when the chunks are iterated. Never raises on bad content.

    Args:
        head: from :func:`single_part_head`.
        facts: from a :class:`~.charsets.BodyCheck` of ``head.codec`` fed the whole body;
            may be ``None`` when ``head.scanned`` is false.
        body: gives the body's bytes (after the blank line) again, in blocks.
        source: path reported on the units.
        number: 1-based number of the message in its archive or folder.
        offset: byte offset of the message in its archive.
        options: as for :func:`~.parts.message_units`.
        defects: defects already known for the message (from reading it).

    Returns:
        A :class:`~.parts.MessageResult`.

    Raises:
        ValueError: ``facts`` is ``None`` for a scanned part.
    """
    if facts is None and head.scanned:
        raise ValueError("a scanned part needs the facts of its body")
    result = MessageResult()
    known = list(defects)
    walk = Walk(source, options, number, offset, result)
    try:
        start_message(
            walk,
            known,
            list(head.header_defects),
            dict(head.values),
            list(head.headers),
            head.content_type,
        )
        own: list[Defect] = []
        if part_is_scanned(walk, "1", head.content_type, own) and facts is not None:
            # _fast_leaf/_leaf after the payload, then _text_unit for a text without
            # whole-text step.
            own.extend(head.own)
            codec, charset_defects = plan_decoding(facts, head.charset)
            own.extend(charset_defects)
            walk.found.extend(own)
            chunks = _decoded(body, codec)
            emit_chunks(walk, "1", head.content_type, chunks, known + own if own else known)
    except Exception as exc:  # as message_units: the raw bytes as UTF-8 text
        problem = raw_scan_defect(exc)
        walk.found.append(problem)
        result.units.clear()
        result.text_parts = result.header_units = result.skipped = 0
        raw_text = _decoded(body, "utf-8", head.raw)
        emit_chunks(walk, "1", "text/plain", raw_text, [*known, problem])
    return finish_message(walk, known)


TEXT_BLOCK_SIZE = 64 << 10
"""Bytes of a streamed body decoded at a time for the scanner (as for a text file)."""


def read_streamed(
    path: str,
    opened: CountedStream,
    reader: BlockReader,
    prefix: bytes,
    header_len: int,
    body_start: int,
    number: int,
    options: MailOptions,
    stats: ArchiveStats,
) -> list[TextUnit] | None:
    """Read one message file by the streamed path; ``None``: read it whole instead.

    Args:
        path: the file (or ``-``), for the units and the second reading.
        opened: its opened stream, whose first bytes ``reader`` has read as ``prefix``.
        reader: reads the rest of the file, counting it in ``stats``.
        prefix: the bytes read so far, the whole header block among them.
        header_len: :func:`~.headers.find_body`'s results on ``prefix``.
        body_start: the offset of the body in ``prefix``.
        number: the message's number.
        options: as for :func:`~.parts.message_units`.
        stats: the message is counted there.

    Returns:
        The units (the body unit's text read again lazily), or ``None`` when the header
        does not allow the streamed path (nothing more was read then).

    Raises:
        SourceError: a temporary copy of standard input cannot be written.
    """
    head = single_part_head(prefix[:body_start], header_len, options)
    if head is None:
        return None
    second: SecondReading | None = None
    if head.scanned:
        again = rereader(path, opened)
        if again is not None:
            second = SecondReading(path, again, body_start)
        else:
            import tempfile  # here: only standard input and pipes need it (and it is heavy)

            try:
                spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed by SecondReading
            except OSError:
                return None
            second = SecondReading(path, spool, 0)
    check = BodyCheck(head.codec) if head.scanned else None
    block = prefix[body_start:]  # may be empty: the prefix can end where the body starts
    del prefix
    size = 0
    while True:
        size += len(block)
        if check is not None:
            check.feed(block)
        if second is not None:
            second.keep(block)
        block = reader.read()
        if not block:
            break
    defects = () if reader.error is None else (reader.error,)
    if second is None:
        body = _no_body
    else:
        second.finish(size, reader.error is not None)
        body = second.blocks
    result = streamed_message_units(
        head,
        None if check is None else check.close(),
        body,
        source=path,
        number=number,
        offset=0,
        options=options,
        defects=defects,
    )
    count_message(result, stats, False)
    return result.units


def _no_body() -> Iterator[bytes]:
    # The body of a skipped part, never read again: no unit holds its text. (Only the raw
    # fallback of streamed_message_units would, were a step to raise; none is known to.)
    return iter(())


def _close_quietly(source: Rereader | IO[bytes]) -> None:
    with contextlib.suppress(OSError):
        source.close()


class SecondReading:
    """A streamed body's bytes, read a second time (for its text).

    From the file itself through a :class:`~.compress.Rereader`, skipping the header, or
    from a temporary copy written during the first reading (:meth:`keep`). It owns that
    source and closes it when :meth:`blocks` ends, on :meth:`close`, or when collected.

    Args:
        path: the path, for errors.
        source: a rereader of the file, or an empty temporary file to copy the body into.
        skip: decompressed bytes before the body in what ``source`` gives.
    """

    def __init__(self, path: str, source: Rereader | IO[bytes], skip: int) -> None:
        self.path = path
        self._source = source
        self._skip = skip
        self._size = 0
        self._lenient = False
        self._closer = weakref.finalize(self, _close_quietly, source)

    def keep(self, block: bytes) -> None:
        """Copy a block of the first reading, when the source is a temporary file.

        Raises:
            SourceError: the temporary file cannot be written (the source is then closed).
        """
        if isinstance(self._source, Rereader):
            return
        try:
            self._source.write(block)
        except OSError as exc:
            self.close()
            reason = exc.strerror or str(exc)
            raise SourceError(self.path, f"cannot keep a temporary copy: {reason}") from exc

    def finish(self, size: int, read_error: bool) -> None:
        """Record the body's size, and whether the first reading ended on a read error."""
        self._size = size
        self._lenient = read_error

    def close(self) -> None:
        """Release the source (idempotent)."""
        self._closer()

    def blocks(self) -> Iterator[bytes]:
        """Yield the body's bytes again, as many as the first reading saw, then close.

        Raises:
            SourceError: the file gives fewer bytes than the first time (it changed), or
                cannot be read; not when the first reading itself ended on a read error
                (already a defect), as a damaged compressed stream may end a little
                earlier when read in other steps.
        """
        try:
            yield from self._read()
        finally:
            self.close()

    def _read(self) -> Iterator[bytes]:
        source = self._source
        stream: IO[bytes] = source.open().stream if isinstance(source, Rereader) else source
        try:
            if stream is source:
                stream.seek(0)  # the temporary copy, written to its end
            skip, left = self._skip, self._size
            while skip > 0 and (data := stream.read(min(TEXT_BLOCK_SIZE, skip))):
                skip -= len(data)
            while left > 0 and not skip:
                block = stream.read(min(TEXT_BLOCK_SIZE, left))
                if not block:
                    break
                left -= len(block)
                yield block
        except OSError as exc:
            if not self._lenient:
                raise SourceError(self.path, f"second reading failed: {exc}") from exc
            return
        finally:
            if stream is not source:
                _close_quietly(stream)
        if left > 0 and not self._lenient:
            raise SourceError(self.path, "the file changed while it was read (now shorter)")
