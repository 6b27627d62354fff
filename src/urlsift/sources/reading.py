"""Reading one opened source in blocks, and the counters a caller sees advance.

Promises: :class:`ArchiveStats` counts files, bytes (as stored and decompressed),
messages, parts and defects as the iterators of :mod:`.archive` advance, so a caller can
show progress; :class:`BlockReader` reads an opened stream (:func:`~.compress.open_counted`,
whose readers count the bytes) in blocks, carries those counts into the statistics, and
turns a read error (a damaged compressed stream) into a ``stream-read-error`` defect after
every byte read before it; :func:`count_message` counts one message's result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._model import Defect
from .._record import record
from ..errors import SourceError
from .compress import CountedStream

if TYPE_CHECKING:
    from .parts import MessageResult

READ_BLOCK_SIZE = 1 << 20
"""Bytes read from an archive at a time."""


@record(frozen=False)
class ArchiveStats:
    """Counters updated while :func:`~.archive.open_units` iterates (over one path or many).

    Every message read is counted once in ``messages``, whether it produced units or not.
    """

    files: int = 0
    """Files (or streams) opened: an archive, a single message, each folder message."""
    bytes_read: int = 0
    """Bytes consumed after decompression."""
    stored_bytes_read: int = 0
    """Bytes consumed as stored (the compressed size so far, for a progress bar)."""
    messages: int = 0
    """Messages read."""
    parts: int = 0
    """Text parts scanned (units yielded for parts)."""
    header_units: int = 0
    """Header units yielded (with ``MailOptions.scan_headers``)."""
    units_skipped: int = 0
    """Parts not scanned: attachments and other non-text parts."""
    messages_with_defects: int = 0
    """Messages with at least one defect (bad MIME, charset, truncation ...)."""
    messages_truncated: int = 0
    """Messages longer than ``max_message_bytes``, cut there."""
    binaries_skipped: int = 0
    """Binary files met while walking a folder of mixed files, and not scanned."""

    def summary(self) -> str:
        """Return a one-line summary, e.g. ``3 messages, 4 parts, 1 with defects``."""
        text = (
            f"{plural(self.messages, 'message')}, {plural(self.parts, 'part')}, "
            f"{self.messages_with_defects} with defects"
        )
        if self.units_skipped:
            text += f", {plural(self.units_skipped, 'part')} skipped"
        if self.binaries_skipped:
            text += f", {plural(self.binaries_skipped, 'binary file')} skipped"
        return text


def plural(count: int, noun: str) -> str:
    """``1 file``, ``2 files``: a count and its noun, for the summary lines on stderr."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


class BlockReader:
    """Reads an opened stream in blocks, keeping the statistics and any read error.

    The bytes are counted by the stream's own readers (:class:`~.compress.CountingReader`);
    this only adds what each block moved to ``stats``.
    """

    def __init__(self, opened: CountedStream, stats: ArchiveStats) -> None:
        self.opened = opened
        self.stats = stats
        self.error: Defect | None = None
        self._stored = 0  # bytes peeked for detection are counted with the first read
        stats.files += 1

    def read(self, size: int | None = None) -> bytes:
        """Return the next block (``b""`` at the end or after a read error).

        Args:
            size: bytes wanted (fewer only at the end); default :data:`READ_BLOCK_SIZE`.
        """
        if self.error is not None:
            return b""
        try:
            block = self.opened.stream.read(READ_BLOCK_SIZE if size is None else size)
            error = None if block else self.opened.decoded.take_error()
        except SourceError as exc:
            block, error = b"", exc
        if error is not None:
            self.error = Defect("stream-read-error", error.reason, "error")
        self.stats.bytes_read += len(block)
        stored = self.opened.stored.count
        self.stats.stored_bytes_read += stored - self._stored
        self._stored = stored
        return block


def count_message(result: MessageResult, stats: ArchiveStats, truncated: bool) -> None:
    """Count one message read: its parts, header unit, skipped parts, defects, truncation."""
    stats.messages += 1
    stats.parts += result.text_parts
    stats.header_units += result.header_units
    stats.units_skipped += result.skipped
    if result.defects:
        stats.messages_with_defects += 1
    if truncated:
        stats.messages_truncated += 1


def count_one_part(stats: ArchiveStats, truncated: bool) -> None:
    """:func:`count_message` of a message read as one text part: no header unit, nothing
    skipped, no defect (``parts.read_message``'s one-step message, which gives its unit
    without a result)."""
    stats.messages += 1
    stats.parts += 1
    if truncated:
        stats.messages_truncated += 1
