"""Plain-text source: a file or standard input, decoded as UTF-8 without ever failing.

Strategy: read bytes in fixed blocks and decode them with an incremental UTF-8 decoder
(``utf-8-sig`` drops a leading BOM) using ``surrogateescape``: invalid bytes become lone
surrogates U+DC80..U+DCFF, so the decoding is lossless (the original bytes can be written
back) and never raises, whatever the input holds. Memory is one block at a time.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from typing import BinaryIO

from .._model import TextUnit
from .compress import open_binary

DEFAULT_BLOCK_SIZE = 1 << 16
"""Bytes read from a file per chunk."""


def decode_blocks(stream: BinaryIO, block_size: int = DEFAULT_BLOCK_SIZE) -> Iterator[str]:
    """Decode a binary stream into text chunks, losslessly and without raising on bad bytes.

    Args:
        stream: a binary file object, read until EOF (not closed here).
        block_size: bytes to read at a time.

    Returns:
        An iterator of decoded text chunks (possibly empty strings are skipped).
    """
    decoder = codecs.getincrementaldecoder("utf-8-sig")(errors="surrogateescape")
    while True:
        block = stream.read(block_size)
        if not block:
            break
        text = decoder.decode(block)
        if text:
            yield text
    tail = decoder.decode(b"", final=True)
    if tail:
        yield tail


def _read_path(path: str, block_size: int) -> Iterator[str]:
    # ``-`` is standard input; gzip, bzip2 and xz are decompressed (see .compress).
    with open_binary(path) as stream:
        yield from decode_blocks(stream, block_size)


def open_text(path: str, block_size: int = DEFAULT_BLOCK_SIZE) -> TextUnit:
    """Return the text unit for a plain-text file, or standard input when ``path`` is ``-``.

    The file is opened lazily, when the unit's chunks are first iterated, so an unreadable
    path raises :class:`OSError` at that point.
    """
    return TextUnit(source=path, chunks=_read_path(path, block_size))
