"""A single-part body decoded as a stream, to exactly the text of decoding it whole.

Strategy: :func:`~.mime.decode_text` chooses how to decode a part by looking at the whole
payload (is it ASCII? does it decode in the declared charset? in UTF-8?), and the defects it
reports follow from that choice. A unit's defects must be known before its first URL is
reported, so a body too large to hold is read twice instead of once:

1. :class:`BodyCheck` sees every block and keeps nothing: it learns the same facts
   (:class:`BodyFacts`) with strict incremental decoders, dropping each at its first error.
2. :func:`~.mime.plan_decoding` takes decode_text's branches on those facts: the codec to
   use and the defects, before any text exists.
3. :func:`decode_stream` decodes the blocks again with that codec, incrementally, and makes
   line ends LF as the whole path does (``\\r\\n`` and a lone ``\\r`` become ``\\n``).

Equivalence rests on the codecs allowed (:func:`streamable_codec`): UTF-8 and the
single-byte codecs that map each ASCII byte to itself (``ascii``, ``latin-1``, and the
table-driven ``charmap`` codecs: ``iso8859-*``, ``cp125x``, ``koi8-*``...). For these an
incremental decoder cut anywhere gives what one call on the whole gives, strictly or with
``surrogateescape``, and an ASCII block leaves it as it was (each ASCII byte is a whole
character), so the check starts its decoders at the first block with an 8-bit byte.
Decoding with ``surrogateescape`` never fails in them (no byte below 0x80 is undefined), so
decode_text's last resort (the declared codec with ``surrogateescape``) always applies.
Other codecs (UTF-16, UTF-7, the CJK multibyte codecs, EBCDIC) are not streamed.

Pure functions and objects, no I/O: the caller reads the blocks. Memory is one block.
"""

from __future__ import annotations

import codecs
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

LINE_END = re.compile(r"\r\n?|\n")
"""A line end as MIME text may hold it: CRLF (the canonical form), a lone CR, or LF."""

_ASCII = bytes(range(0x80))
_SLICE = 64 << 10  # bytes decoded at a time by BodyCheck
_SINGLE_BYTE_BUILTINS = frozenset({"ascii", "iso8859-1"})  # codecs.ascii/latin_1_decode


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


@dataclass(frozen=True, slots=True)
class BodyFacts:
    """What :func:`~.mime.decode_text` needs to know about a whole payload."""

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
