"""Charsets: a part's bytes become text, never raising and never losing a byte.

Promises:

* Whole payloads (:func:`decode_text`). Text is decoded with the declared charset; when
  that is unknown (or not a text encoding) or the bytes do not fit it, UTF-8 is tried,
  and then the declared charset (or UTF-8) with ``surrogateescape``: bytes valid in no
  charset become U+DC80..U+DCFF, exactly as :mod:`urlsift.sources.text` does. A UTF-16 or
  UTF-32 charset declared on bytes that are plainly 8-bit text is not used
  (``charset-mismatch``). The defects (``unknown-charset``, ``charset-decode-error``,
  ``charset-mismatch``) are warnings and follow from the branch taken.
* Streamed payloads: the same text and the same defects for a body never held whole. A
  unit's defects must be known before its first URL is reported, so such a body is read
  twice:

  1. :class:`BodyCheck` sees every block and keeps nothing: it learns the same facts
     (:class:`BodyFacts`) with strict incremental decoders, dropping each at its first
     error.
  2. :func:`plan_decoding` takes decode_text's branches on those facts: the codec to use
     and the defects, before any text exists.
  3. :func:`decode_stream` decodes the blocks again with that codec, incrementally, and
     makes line ends LF as the whole path does (``\\r\\n`` and a lone ``\\r`` become
     ``\\n``).

  Equivalence rests on the codecs allowed (:func:`streamable_codec`, which
  :func:`stream_codec` applies to a declared charset): UTF-8 and the single-byte codecs
  that map each ASCII byte to itself (``ascii``, ``latin-1``, and the table-driven
  ``charmap`` codecs: ``iso8859-*``, ``cp125x``, ``koi8-*``...). For these an incremental
  decoder cut anywhere gives what one call on the whole gives, strictly or with
  ``surrogateescape``, and an ASCII block leaves it as it was (each ASCII byte is a whole
  character), so the check starts its decoders at the first block with an 8-bit byte.
  Decoding with ``surrogateescape`` never fails in them (no byte below 0x80 is
  undefined), so decode_text's last resort (the declared codec with ``surrogateescape``)
  always applies. Other codecs (UTF-16, UTF-7, the CJK multibyte codecs, EBCDIC) are not
  streamed.

Pure functions and objects, no I/O: the caller reads the blocks. Memory is one block.
"""

from __future__ import annotations

import codecs
import re
import sys
from collections.abc import Iterable, Iterator
from functools import lru_cache

from .._model import Defect
from .._record import record

LINE_END = re.compile(r"\r\n?|\n")
"""A line end as MIME text may hold it: CRLF (the canonical form), a lone CR, or LF."""

_ASCII = bytes(range(0x80))
_SLICE = 64 << 10  # bytes decoded at a time by BodyCheck
_SINGLE_BYTE_BUILTINS = frozenset({"ascii", "iso8859-1"})  # codecs.ascii/latin_1_decode


# Codecs Python knows but that are not character sets a message may declare.
_NOT_CHARSETS = frozenset({"unicode-escape", "raw-unicode-escape", "idna", "punycode", "undefined"})
_ASCII_PROBE = bytes(range(0x20, 0x7F)) + b"\t\n\r\x1b"


@lru_cache(maxsize=256)
def codec_name(charset: str) -> str | None:
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
    # The probe holds ESC: ISO-2022-JP, -KR and -CN write their text in 7-bit bytes
    # between escape sequences, so an all-ASCII body in them is no ASCII text.
    try:
        return _ASCII_PROBE.decode(codec) == _ASCII_PROBE.decode("ascii")
    except (UnicodeError, LookupError):
        return False


def _unknown_charset(charset: str) -> Defect:
    return Defect("unknown-charset", f"unknown charset {charset[:80]!r}; read as UTF-8", "warning")


def _charset_lies(charset: str | None) -> Defect:
    return Defect(
        "charset-decode-error",
        f"bytes invalid in declared charset {charset!r}; they are valid UTF-8",
        "warning",
    )


def _charset_mismatch(charset: str | None) -> Defect:
    return Defect(
        "charset-mismatch",
        f"declared charset {charset!r} does not fit: the bytes are NUL-free 8-bit text "
        "(ASCII or UTF-8) without a byte-order mark; read as UTF-8",
        "warning",
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
    return Defect(
        "charset-decode-error",
        f"8-bit bytes invalid in {declared} and in UTF-8; kept as surrogate escapes",
        "warning",
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
    codec, defects = _declared(charset)
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


@lru_cache(maxsize=256)
def plain_codec(charset: str | None) -> str | None:
    """The codec :func:`decode_text` reads a payload declared in ``charset`` in, when its
    reading is that codec's, without a defect, for every payload the codec decodes (and
    an ASCII payload as ASCII): UTF-8 for no charset, a known codec that reads ASCII as
    ASCII and is not UTF-16 or UTF-32; else None (an unknown charset, a wide or
    ASCII-incompatible codec: ask decode_text).
    """
    if charset is None:
        return "utf-8"
    codec = codec_name(charset)
    if codec is None or codec in _WIDE_CODECS or not _ascii_compatible(codec):
        return None
    return codec


def _declared(charset: str | None) -> tuple[str | None, list[Defect]]:
    # The codec of a declared charset (None for none or an unknown one) and the defects
    # so far: ``unknown-charset`` for a name no codec answers to.
    if charset is None:
        return None, []
    codec = codec_name(charset)
    return codec, [] if codec is not None else [_unknown_charset(charset)]


def stream_codec(charset: str | None) -> tuple[bool, str | None]:
    """Whether a body declared in ``charset`` can be decoded as a stream, and its codec.

    Returns:
        ``(streamable, codec)``: the codec is ``None`` for no charset or an unknown one
        (read as UTF-8 by :func:`decode_text`); a known codec must be a
        :func:`streamable_codec`.
    """
    codec = None if charset is None else codec_name(charset)
    return codec is None or streamable_codec(codec), codec


def plan_decoding(facts: BodyFacts, charset: str | None) -> tuple[str, list[Defect]]:
    """Decide as :func:`decode_text` would, from facts learned about a payload not held.

    The branches of decode_text, in its order, on :class:`BodyFacts`; with
    the codec returned, :func:`decode_stream` (``surrogateescape``) then
    gives decode_text's text, since the branch's decoding succeeds on this payload and
    agrees with ``surrogateescape`` wherever it succeeds.

    decode_text's ``charset-mismatch`` branch needs no fact: it is for UTF-16 and UTF-32
    only, which are never streamable.

    Args:
        facts: what a :class:`BodyCheck` for this charset's codec learned.
        charset: the declared charset, for which :func:`stream_codec` says streamable.

    Returns:
        The codec to decode with, and decode_text's defects in its order.
    """
    codec, defects = _declared(charset)
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


@lru_cache(maxsize=256)
def streamable_codec(codec: str) -> bool:
    """Whether a body in ``codec`` (a :func:`codecs.lookup` name) may be decoded as a stream.

    True for UTF-8, ASCII, Latin-1 and the table-driven single-byte codecs whose module
    defines a 256-character ``decoding_table`` (decoded by ``codecs.charmap_decode``, one
    byte at a time) and that map every ASCII byte to itself.
    """
    if codec == "utf-8" or codec in _SINGLE_BYTE_BUILTINS:
        return True
    try:
        info = codecs.lookup(codec)
    except LookupError:
        return False
    decoder = info.incrementaldecoder
    module = sys.modules.get(getattr(decoder, "__module__", ""))
    table = getattr(module, "decoding_table", None)
    if info.name != codec or not isinstance(table, str) or len(table) != 256:
        return False
    try:
        return _ASCII.decode(codec) == _ASCII.decode("ascii")
    except UnicodeError:
        return False


@record
class BodyFacts:
    """What :func:`decode_text` needs to know about a whole payload."""

    size: int
    """Bytes in the body."""
    ascii: bool
    """Every byte is below 0x80."""
    codec_valid: bool
    """The body decodes strictly in the checked codec (False when there is none)."""
    utf8_valid: bool
    """The body decodes strictly as UTF-8."""


class BodyCheck:
    """The first pass over a body: feed every block, then :meth:`close` for the facts.

    Args:
        codec: the declared charset's codec (a :func:`streamable_codec`), or ``None``.
    """

    def __init__(self, codec: str | None) -> None:
        self._codec = codec
        self._size = 0
        self._ascii = True
        # Strict decoders still without an error, by codec name ("utf-8" checked once).
        self._alive: dict[str, codecs.IncrementalDecoder] = {}

    def feed(self, block: bytes) -> None:
        """Take the body's next block."""
        self._size += len(block)
        if self._ascii:
            if block.isascii():
                return
            self._ascii = False  # decoders start here: the ASCII before left them unchanged
            for name in dict.fromkeys((self._codec or "utf-8", "utf-8")):
                self._alive[name] = codecs.getincrementaldecoder(name)()
        self._decode(block, final=False)

    def _decode(self, block: bytes, final: bool) -> None:
        view = memoryview(block)
        for name, decoder in list(self._alive.items()):
            try:
                # In slices: the text made (and dropped) stays small whatever the block.
                for start in range(0, len(view), _SLICE):
                    decoder.decode(view[start : start + _SLICE])
                if final:
                    decoder.decode(b"", True)
            except UnicodeDecodeError:
                del self._alive[name]

    def close(self) -> BodyFacts:
        """Return the facts about every block fed (an incomplete UTF-8 end is invalid)."""
        self._decode(b"", final=True)
        ascii_ = self._ascii
        return BodyFacts(
            size=self._size,
            ascii=ascii_,
            codec_valid=self._codec is not None and (ascii_ or self._codec in self._alive),
            utf8_valid=ascii_ or "utf-8" in self._alive,
        )


def decode_stream(blocks: Iterable[bytes], codec: str) -> Iterator[str]:
    """Decode blocks with ``codec`` (``surrogateescape``), line ends made LF, lazily.

    The concatenated result is ``LINE_END.sub("\\n", b"".join(blocks).decode(codec,
    "surrogateescape"))`` for any cutting of the bytes into blocks: the incremental decoder
    holds back an unfinished character, and a CR that ends a piece is held back until the
    next piece shows whether an LF follows.

    Args:
        blocks: the body's bytes, in blocks of any sizes.
        codec: a :func:`streamable_codec` (others give their incremental decoder's result).

    Returns:
        An iterator of non-empty text pieces.
    """
    decoder = codecs.getincrementaldecoder(codec)("surrogateescape")
    held = ""  # a CR that ended the previous piece
    for block in blocks:
        text = decoder.decode(block)
        if held:
            text, held = held + text, ""
        if text.endswith("\r"):
            text, held = text[:-1], "\r"
        if "\r" in text:
            text = LINE_END.sub("\n", text)
        if text:
            yield text
    text = held + decoder.decode(b"", final=True)
    if "\r" in text:
        text = LINE_END.sub("\n", text)
    if text:
        yield text
