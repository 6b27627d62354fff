"""Mail and news archive sources: paths in, one decoded text unit per message part out.

Promises (:func:`open_units`): every message of a file, folder or standard input, in
archive order, each bounded in memory by one message:

1. *Bytes*: :func:`~.compress.open_counted` opens a file or ``-`` and decompresses gzip,
   bzip2 or xz recognised by magic bytes; :class:`~.reading.BlockReader` reads it in blocks
   and counts them in :class:`~.reading.ArchiveStats` as the iterator advances.
2. *Kind*: :func:`~.kinds.sniff_kind` and :func:`~.kinds.detect_kind` decide what the path
   holds, unless the caller says. Plain text is one unit, decoded by :mod:`.text`
   (losslessly).
3. *Messages*: an mbox or MMDF archive is split as a stream by :class:`~.mbox.MboxSplitter`
   (never indexed, never read twice); a single message (``.eml``, a news article) or each
   file of a Maildir, MH or news spool folder (:func:`~.kinds.folder_files`) is one
   message, read whole up to ``max_message_bytes`` (beyond it: counted, skipped,
   ``message-truncated``), unless it is longer than :data:`STREAM_MIN_BYTES` and
   :mod:`.streamed` can read it in two passes.
4. *Parts*: :func:`~.parts.message_units` turns each message into one
   :class:`~urlsift.TextUnit` per scanned part with its :class:`~urlsift.MessageContext`.

Bad input never raises: it becomes defects on the units (``stream-read-error``,
``message-unreadable`` for a folder file that cannot be opened); only a path that cannot
be opened raises :class:`~urlsift.errors.SourceError` and an unknown kind
:class:`~urlsift.errors.ConfigError`.

Units' ``source`` is the path given for a file or stream, and the message file's own path
for a folder (so a reader can open the message); ``number`` counts messages from 1 in the
archive or folder, in folder order, and ``offset`` is 0 for a message that is a file of
its own.
"""

from __future__ import annotations

import stat
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from .._model import Defect, TextUnit
from .._record import replace
from ..errors import ConfigError, SourceError
from .compress import CountedStream, open_counted, stat_path
from .kinds import (
    INPUT_KINDS,
    SNIFF_BYTES,
    InputKind,
    detect_kind,
    folder_files,
    is_archive_folder,
    sniff_kind,
)
from .mbox import MboxSplitter, RawMessage
from .options import (
    DEFAULT_MAX_HEADER_BYTES,
    DEFAULT_MAX_MESSAGE_BYTES,
    MailOptions,
)
from .reading import ArchiveStats, BlockReader, count_message, count_one_part
from .text import decode_blocks

if TYPE_CHECKING:
    from .parts import MessageResult

__all__ = [
    "DEFAULT_MAX_HEADER_BYTES",
    "DEFAULT_MAX_MESSAGE_BYTES",
    "ArchiveStats",
    "InputKind",
    "MailOptions",
    "detect_kind",
    "folder_files",
    "is_archive_folder",
    "open_units",
    "sniff_kind",
]

STREAM_MIN_BYTES = 1 << 20
"""A single message longer than this (or than ``max_message_bytes``) is streamed when its
header allows (see :mod:`.streamed`); a shorter one is read whole."""


def message_units(data: bytes, **arguments: Any) -> MessageResult:
    """:func:`urlsift.sources.parts.message_units`, imported on the first message.

    The MIME layer (the stdlib's ``email`` package, the HTML reader) is imported only by
    the paths that read mail: a scan of a text file does not pay for it at start-up.
    The function is kept after the first message (an import statement per message cost
    about 1 us). This module's loops over messages call the MIME layer's functions
    directly: ``_units_of`` (this function, or what replaced it) and ``_reader``.
    """
    return _parts_units()(data, **arguments)


_LOADED: dict[str, Callable[..., Any]] = {}  # the MIME layer, once imported
_LAZY = message_units


def _parts_units() -> Callable[..., MessageResult]:
    units = _LOADED.get("message_units")
    if units is None:
        from .parts import message_units as loaded
        from .parts import read_message

        units = _LOADED["message_units"] = loaded
        _LOADED["read_message"] = read_message
    return units


def _units_of() -> Callable[..., MessageResult]:
    # The function that reads a message: parts.message_units itself, imported now, so that
    # a loop over messages calls it without the lazy wrapper above (its keywords packed
    # and unpacked again); or what replaced the wrapper (a benchmark's counter).
    return _parts_units() if message_units is _LAZY else message_units


def _reader() -> Callable[..., TextUnit | MessageResult] | None:
    # parts.read_message for the loops over messages, or None when message_units was
    # replaced (the replacement then reads every message).
    if message_units is not _LAZY:
        return None
    _parts_units()
    return _LOADED["read_message"]


def messages_units(
    messages: Iterable[RawMessage], source: str, options: MailOptions, stats: ArchiveStats
) -> list[TextUnit]:
    """Turn messages split from an archive into their text units, counting them in ``stats``.

    The step of :func:`open_units` for the messages one block of an mbox or MMDF archive
    completes, and of the parallel engine for a batch's messages or a block of a range's:
    all the messages' units are made before any is returned (see ``_split_units``: the
    mail layer and the scanner then each run in a stretch). Never raises on bad content.
    """
    return _split_units(messages, source, options, stats)


def _split_units(
    messages: Iterable[RawMessage], source: str, options: MailOptions, stats: ArchiveStats
) -> list[TextUnit]:
    # messages_units: each of a block's messages read in one loop, all of them before
    # the first unit is handed on. The mail layer's code then runs for a block's messages
    # (a few hundred) in one stretch, and the scanner for their units in the next, rather
    # than the two taking turns at every message: on this host's CPUs the mbox scan took
    # 5-10 % less CPU time for the same instructions (benchmarks/README.md, "Issue 26,
    # seventh pass: a block's units at once"). The units held at once are those of the
    # messages one block of the archive completes: about the block's size in text,
    # beside the block itself.
    # A message that parts.read_message reads in one step (its one unit, no
    # MessageResult) is counted by count_one_part.
    units: list[TextUnit] = []
    read = _reader()
    if read is None:  # message_units was replaced: it reads every message
        for raw in messages:
            result = message_units(
                raw.data,
                source=source,
                number=raw.number,
                offset=raw.offset,
                options=options,
                defects=raw.defects,
            )
            count_message(result, stats, raw.truncated)
            units += result.units
        return units
    for raw in messages:
        got = read(raw.data, source, raw.number, raw.offset, options, raw.defects)
        if isinstance(got, TextUnit):
            count_one_part(stats, raw.truncated)
            units.append(got)
        else:
            count_message(got, stats, raw.truncated)
            units += got.units
    return units


def _mbox_units(
    path: str, opened: CountedStream, options: MailOptions, stats: ArchiveStats
) -> Iterator[TextUnit]:
    reader = BlockReader(opened, stats)
    splitter = MboxSplitter(options.max_message_bytes)
    while block := reader.read():
        yield from _split_units(splitter.feed(block), path, options, stats)
    last = splitter.close()
    if reader.error is not None:
        if last:
            last[-1] = replace(last[-1], defects=(*last[-1].defects, reader.error))
        else:
            yield TextUnit(source=path, chunks=(), defects=(reader.error,))
    yield from _split_units(last, path, options, stats)


def _single_units(
    path: str,
    opened: CountedStream,
    number: int,
    options: MailOptions,
    stats: ArchiveStats,
) -> list[TextUnit]:
    # One message per file: streamed when long and its header allows, else read whole.
    reader = BlockReader(opened, stats)
    cap = max(0, options.max_message_bytes)
    blocks: list[bytes] = []
    size = 0
    eof = False

    def read_block(wanted: int | None = None) -> None:
        nonlocal size, eof
        block = reader.read(wanted)
        if block:
            blocks.append(block)
            size += len(block)
        else:
            eof = True

    while size <= min(STREAM_MIN_BYTES, cap) and not eof:
        read_block()
    prefix = b"".join(blocks)
    if not eof:
        # The header block's end, as message_units finds it, is in the prefix once it
        # holds max_header_bytes + 3 bytes, if it ends within max_header_bytes: when not
        # found yet, read up to there at once (one more search, not one per block).
        from .headers import find_body
        from .streamed import read_streamed

        header_len, body_start = find_body(prefix)
        if body_start == header_len and size <= options.max_header_bytes + 2:
            read_block(options.max_header_bytes + 3 - size)
            prefix = b"".join(blocks)
            header_len, body_start = find_body(prefix)
        if header_len < len(prefix) and not eof:  # the block's end is known
            units = read_streamed(
                path, opened, reader, prefix, header_len, body_start, number, options, stats
            )
            if units is not None:
                return units
    # Whole: keep up to the cap, count (and skip) the rest. The bytes grow in one buffer
    # (resized in place) rather than as a list of blocks joined at the end, whose freed
    # blocks the allocator keeps (figures: benchmarks/README.md, bench_memory.py --cap).
    kept_bytes = bytearray(prefix[:cap])
    del prefix
    blocks.clear()
    while not eof and (block := reader.read()):
        size += len(block)
        if len(kept_bytes) < cap:
            kept_bytes += block[: cap - len(kept_bytes)]
    defects: list[Defect] = []
    truncated = size > cap
    if truncated:
        defects.append(
            Defect("message-truncated", f"message of {size} bytes cut at {cap} bytes", "warning")
        )
    if reader.error is not None:
        defects.append(reader.error)
    data = bytes(kept_bytes)
    del kept_bytes  # one copy held while the message is parsed, not two
    result = _units_of()(
        data, source=path, number=number, offset=0, options=options, defects=tuple(defects)
    )
    count_message(result, stats, truncated)
    return result.units


def folder_units(
    files: list[str], options: MailOptions, stats: ArchiveStats, first: int = 1
) -> Iterator[TextUnit]:
    """Yield the text units of a folder's message files, numbering them from ``first``.

    The per-file step of :func:`open_units` for folders, also used by the parallel engine
    on batches of files (``first`` is then the number of the batch's first message). A
    file that cannot be opened gives a defect-only unit (``message-unreadable``).
    """
    for number, file in enumerate(files, first):
        try:
            opened = open_counted(file)
        except SourceError as exc:
            stats.messages += 1
            stats.messages_with_defects += 1
            yield TextUnit(
                source=file,
                chunks=(),
                defects=(Defect("message-unreadable", exc.reason, "error"),),
            )
            continue
        try:
            units = _single_units(file, opened, number, options, stats)
        finally:
            opened.stream.close()
        yield from units


def text_chunks(opened: CountedStream, stats: ArchiveStats) -> Iterator[str]:
    """Decode an opened plain-text stream losslessly, counting it; closes it at the end.

    Args:
        opened: the (decompressed) stream from ``open_counted``.
        stats: counters (``files``, ``bytes_read``, ``stored_bytes_read``).

    Returns:
        An iterator of text chunks (:func:`urlsift.sources.text.decode_blocks`).
    """
    stats.files += 1
    decoded = stored = 0
    try:
        for chunk in decode_blocks(opened.stream):
            stats.bytes_read += opened.decoded.count - decoded
            stats.stored_bytes_read += opened.stored.count - stored
            decoded, stored = opened.decoded.count, opened.stored.count
            yield chunk
    finally:
        stats.bytes_read += opened.decoded.count - decoded
        stats.stored_bytes_read += opened.stored.count - stored
        opened.stream.close()


def open_units(
    path: str,
    kind: InputKind = "auto",
    options: MailOptions | None = None,
    stats: ArchiveStats | None = None,
) -> Iterator[TextUnit]:
    """Yield the text units of a file, folder or standard input (``-``).

    Text files become one unit (decoded by :mod:`.text`, losslessly); mail and news give
    one unit per scanned MIME part of each message, plus a header unit per message with
    ``options.scan_headers``. Compressed files (gzip, bzip2, xz) are read transparently.
    Nothing is opened until the iterator is first advanced.

    Args:
        path: a file, a Maildir/MH/news folder, or ``-`` for standard input.
        kind: what ``path`` holds, or ``auto`` to detect it (see :func:`detect_kind`).
        options: what to scan and the size caps; defaults to :class:`MailOptions()`.
        stats: counters to update as units are produced (see :class:`ArchiveStats`).

    Returns:
        An iterator of :class:`~urlsift.TextUnit`, in archive order.

    Raises:
        ConfigError: when ``kind`` is not an :data:`InputKind`.
        SourceError: when ``path`` cannot be opened, or is a directory for a file kind,
            or a file for a folder kind. Bad content never raises.
    """
    if kind not in INPUT_KINDS:
        raise ConfigError("kind", kind, f"expected one of {', '.join(INPUT_KINDS)}")
    return _open_units(path, kind, options or MailOptions(), stats or ArchiveStats())


def _open_units(
    path: str, kind: InputKind, options: MailOptions, stats: ArchiveStats
) -> Iterator[TextUnit]:
    if path != "-" and _is_dir(path):
        yield from folder_units(folder_files(path, kind), options, stats)
        return
    if kind in ("maildir", "mh"):
        raise SourceError(path, f"is not a directory, so not a {kind} folder")
    opened = open_counted(path)
    try:
        if kind == "auto":
            kind = sniff_kind(opened.stream.peek(SNIFF_BYTES)[:SNIFF_BYTES])
        if kind == "text":
            yield TextUnit(source=path, chunks=text_chunks(opened, stats))
        elif kind == "mbox":
            yield from _mbox_units(path, opened, options, stats)
        else:
            yield from _single_units(path, opened, 1, options, stats)
    finally:
        if kind != "text":
            opened.stream.close()


def _is_dir(path: str) -> bool:
    # os.path.isdir, by name in the folder a walk holds open (compress.stat_path).
    try:
        return stat.S_ISDIR(stat_path(path).st_mode)
    except (OSError, ValueError):
        return False
