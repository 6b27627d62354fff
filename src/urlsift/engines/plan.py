"""The work plan as data: what to scan, cut into items that any engine can run alone.

:func:`plan_paths` turns paths into :data:`WorkItem` records, in output order: frozen,
picklable records naming a piece of the input. Every engine (one process, the process
pool of :mod:`.processes`, a Dask cluster in :mod:`.dask`) runs items with
:func:`.work.run_item` (or :func:`.work.iter_item`, streaming) and merges
their records in plan order (:class:`urlsift.engines.work.Renumbering`), so the output is that of
one sequential pass. How a path is cut is decided here, once, for every engine; an engine
only chooses where an item runs.

* :class:`PathItem`: a whole path, read by the sequential sources
  (:func:`urlsift.sources.archive.open_units`): a single message or article, an MMDF
  archive among several paths, standard input, a FIFO, a path that cannot be opened
  (its run reports what one pass reports).
* :class:`RangeItem`: the messages of an mbox whose ``From_`` line starts in a byte range
  (see :mod:`urlsift.engines.work` for how a range finds its first message and how its message
  numbers become the file's). :func:`plan_ranges` cuts an *uncompressed* file into ranges
  of about ``range_bytes`` from its size alone: the item finds its own boundaries, so
  planning never reads the file. A *compressed* mbox cannot be entered in the middle, so
  its ranges (``stream=True``) are ranges of the decompressed stream: a worker
  decompresses from the start and skips to its range, which costs a decompression of the
  bytes before it (about a fourteenth of the cost of scanning them). So
  :func:`plan_stream_ranges` cuts a compressed file into few pieces, at most
  ``stream_pieces``, from an estimate of its decompressed size (:func:`estimated_size`);
  the last piece runs to the end whatever the estimate. That is enough to spread a set
  of archives of unequal sizes evenly over the workers, at a bounded cost: at most
  ``(pieces - 1) / 2`` decompressions of the file.
* :class:`MessageBatchItem`: consecutive messages of an archive that ranges cannot cut
  well, read and split here by the planner (:func:`message_batches`): a compressed or
  MMDF archive given alone to the process pool (``Cuts.batches``), which then spreads
  over every worker in batches of about ``batch_bytes``, whatever its size.
* :class:`TextPieceItem`: a piece of a plain-text file, read and decoded by the planner
  and cut at a blank line where no span can cross (:func:`text_pieces`), scanned with its
  ``origin`` so the records are those of one scan. When no such line comes within
  ``text_pieces`` pieces' worth of text, the rest of the file is one
  :class:`TextTailItem` (read again from the start by its run, which skips to the
  offset).
* :class:`FolderItem`: consecutive message files of a Maildir, MH folder or news spool,
  numbered from the first file's place in the folder; a batch ends at ``folder_files``
  files or ``folder_bytes`` bytes, and a file long enough to stream is a batch of its own
  (an engine may then stream it where the output is written).
* :class:`FailedItem`: a path that stopped being readable while the planner read it (what
  was read before is in the items before it).

**Statistics.** The planner counts what it reads: the files, bytes and stored bytes of
the archives and text it splits itself (not of a text file that ends in a tail item,
whose run counts the whole file). Every other count is made by the item's run.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields, replace

from .._model import Defect
from ..errors import failure_reason as failure_reason  # re-exported (defined with the errors)
from ..extraction.scanner import find_boundary
from ..sources.archive import STREAM_MIN_BYTES, text_chunks
from ..sources.compress import (
    CountedStream,
    open_counted,
    stat_path,
)
from ..sources.kinds import SNIFF_BYTES, InputKind, folder_files, sniff_kind
from ..sources.mbox import MMDF_DELIMITER, MboxSplitter, RawMessage
from ..sources.options import MailOptions
from ..sources.reading import ArchiveStats, BlockReader
from ..sources.tree import WalkConfig, expand_paths

__all__ = [
    "DEFAULT_FOLDER_BATCH",
    "DEFAULT_RANGE_BYTES",
    "DEFAULT_STREAM_PIECES",
    "DEFAULT_STREAM_RANGE_BYTES",
    "TAPER_PER_WORKER",
    "TEXT_PIECE_DIVISOR",
    "Cuts",
    "FailedItem",
    "FolderItem",
    "MessageBatchItem",
    "PathItem",
    "RangeItem",
    "TextPieceItem",
    "TextTailItem",
    "WorkItem",
    "add_stats",
    "estimated_size",
    "failure_reason",
    "is_special",
    "message_batches",
    "plan_paths",
    "plan_ranges",
    "plan_stream_ranges",
    "regular_size",
    "text_pieces",
]

DEFAULT_RANGE_BYTES = 4 << 20
"""Nominal bytes per range of an uncompressed mbox (4 MiB): a few seconds of work per
item, so shipping an item and its results costs little next to scanning it."""

TAPER_PER_WORKER = 2
"""A cluster's ranges shrink once what remains of the file is less than this many ranges
per worker (:func:`plan_ranges`' ``taper``: this times the workers)."""

DEFAULT_STREAM_RANGE_BYTES = 8 << 20
"""Nominal decompressed bytes per piece of a compressed mbox (8 MiB): a piece costs a
decompression of the bytes before it, so pieces are larger than ranges of a plain file."""

DEFAULT_STREAM_PIECES = 2
"""Most pieces a compressed mbox is cut into: what a piece after the first costs (the
decompression of what comes before it) grows with their number."""

COMPRESSION_RATIO_GUESS = 4
"""Decompressed bytes per stored byte assumed when the format does not say (bzip2, xz)."""

DEFAULT_FOLDER_BATCH = 200
"""Message files per :class:`FolderItem`."""

DEFAULT_BATCH_BYTES = 1 << 20
"""Message bytes per :class:`MessageBatchItem` (and folder bytes per :class:`FolderItem`)."""

DEFAULT_BATCH_MESSAGES = 1000
"""Most messages per :class:`MessageBatchItem`, whatever their size."""

DEFAULT_TEXT_CHARS = 1 << 18
"""Characters per :class:`TextPieceItem` (a piece's records wait in an engine's window
until their turn, and text can be nothing but URLs, so pieces stay small)."""

TEXT_PIECE_DIVISOR = 4
"""Engines cut plain text into pieces of a quarter of their range or batch size (in
characters): text can be nothing but URLs, so a piece's records stay few."""

DEFAULT_TEXT_PIECES = 4
"""Pieces' worth of text held while looking for a blank line to cut at, before the rest
of the file becomes one :class:`TextTailItem`."""


@dataclass(frozen=True, slots=True)
class Cuts:
    """How :func:`plan_paths` cuts what it finds (every size is nominal, at least 1)."""

    range_bytes: int = DEFAULT_RANGE_BYTES
    """Bytes per range of an uncompressed mbox."""
    stream_range_bytes: int = DEFAULT_STREAM_RANGE_BYTES
    """Decompressed bytes per piece of a compressed mbox."""
    stream_pieces: int = DEFAULT_STREAM_PIECES
    """Most pieces per compressed mbox."""
    folder_files: int = DEFAULT_FOLDER_BATCH
    """Most message files per folder batch."""
    folder_bytes: int | None = None
    """Bytes after which a folder batch ends (``None``: count files only)."""
    long_bytes: int = STREAM_MIN_BYTES
    """A folder's message file longer than this is a batch of its own (it may stream)."""
    text_chars: int = DEFAULT_TEXT_CHARS
    """Characters per piece of a plain-text file."""
    text_pieces: int = DEFAULT_TEXT_PIECES
    """Pieces' worth of text without a blank line before the rest is one tail item."""
    batches: bool = False
    """Read a compressed or MMDF mbox here and cut it into message batches, rather than
    into stream ranges (or one item for MMDF): for one archive given alone."""
    batch_bytes: int = DEFAULT_BATCH_BYTES
    """Message bytes per batch (a batch ends after the message that reaches it)."""
    batch_messages: int = DEFAULT_BATCH_MESSAGES
    """Most messages per batch."""
    taper: int = 0
    """Ranges of an uncompressed mbox shrink toward its end (see :func:`plan_ranges`;
    0: all of ``range_bytes``)."""
    whole_text: bool = False
    """A plain-text file is one :class:`PathItem`, not cut into pieces: for one file given
    alone to the process pool, where a piece's records cost more to send back than to
    find (issue 26), so the file is scanned where the output is written."""

    def __post_init__(self) -> None:
        for name in (f.name for f in fields(self)):
            value = getattr(self, name)
            least = 0 if name in ("long_bytes", "taper") else 1
            if isinstance(value, int) and not isinstance(value, bool) and value < least:
                raise ValueError(f"{name} must be at least {least}, not {value}")


@dataclass(frozen=True, slots=True)
class PathItem:
    """A whole path, read by the sequential sources."""

    path: str


@dataclass(frozen=True, slots=True)
class RangeItem:
    """The messages of an mbox whose ``From_`` line starts in ``[start, stop)``."""

    path: str
    start: int
    """Nominal start; the range begins at the first message boundary at or after it."""
    stop: int | None
    """Nominal end: the next range's ``start`` (``None``: the end of the file)."""
    stream: bool = False
    """A range of a compressed file's decompressed stream (read from the start)."""


@dataclass(frozen=True, slots=True)
class FolderItem:
    """Consecutive message files of a Maildir, MH folder or news spool."""

    folder: str
    """The folder's path, as given (for a ``ReadFailure``)."""
    files: tuple[str, ...]
    first: int
    """The number of the first file's message in the folder."""


@dataclass(frozen=True, slots=True)
class MessageBatchItem:
    """Consecutive messages of an archive, split by the planner."""

    source: str
    messages: tuple[RawMessage, ...]
    defects: tuple[Defect, ...] = ()
    """Problems of the end of the stream with no message left to carry them, reported
    after the messages as a unit of their own (as one pass does)."""


@dataclass(frozen=True, slots=True)
class TextPieceItem:
    """A piece of a plain-text file, cut at a blank line (``scanner.find_boundary``)."""

    source: str
    text: str
    origin: tuple[int, int]
    """(offset, line) of the piece's first character in the file."""


@dataclass(frozen=True, slots=True)
class TextTailItem:
    """The rest of a plain-text file from ``origin`` on (no blank line came to cut at)."""

    path: str
    origin: tuple[int, int]
    """(offset, line) of the rest's first character in the file."""


@dataclass(frozen=True, slots=True)
class FailedItem:
    """A path whose reading failed while the planner read it."""

    path: str
    reason: str


WorkItem = (
    PathItem | RangeItem | FolderItem | MessageBatchItem | TextPieceItem | TextTailItem | FailedItem
)
"""One piece of planned work."""


def add_stats(total: ArchiveStats, delta: ArchiveStats) -> None:
    """Add the counters of ``delta`` (an item's statistics) to ``total``."""
    for f in fields(ArchiveStats):
        setattr(total, f.name, getattr(total, f.name) + getattr(delta, f.name))


def plan_ranges(
    path: str, size: int, range_bytes: int = DEFAULT_RANGE_BYTES, taper: int = 0
) -> list[RangeItem]:
    """Cut an uncompressed mbox of ``size`` bytes into nominal ranges of ``range_bytes``.

    With ``taper`` (the engine's workers times :data:`TAPER_PER_WORKER`), the ranges
    shrink toward the end of the file: each is at most ``1 / taper`` of what remains, down
    to :data:`DEFAULT_RANGE_BYTES` (ranges no larger than that are not tapered). The
    workers take ranges in order, so the last ones they run are short, and they finish
    nearly together: with equal ranges one of them may still run a whole range when the
    others are done (half a range on average: a sixteenth of a two-worker run at the
    cluster's eight ranges a worker). The end of the file is not left as a sliver: a
    range that would leave less than half of itself after it takes the rest.

    Raises:
        ValueError: when ``range_bytes`` is less than 1 or ``taper`` less than 0.
    """
    if range_bytes < 1:
        raise ValueError(f"range_bytes must be at least 1, not {range_bytes}")
    if taper < 0:
        raise ValueError(f"taper must be at least 0, not {taper}")
    end = max(size, 1)
    if taper and range_bytes > DEFAULT_RANGE_BYTES:
        starts = []
        start = 0
        while start < end:
            starts.append(start)
            step = max(DEFAULT_RANGE_BYTES, min(range_bytes, (end - start) // taper))
            start = end if end - start - step < step // 2 else start + step
    else:
        starts = list(range(0, end, range_bytes))
    return [
        RangeItem(path, start, starts[i + 1] if i + 1 < len(starts) else max(size, 1))
        for i, start in enumerate(starts)
    ]


def plan_stream_ranges(
    path: str,
    estimate: int,
    range_bytes: int = DEFAULT_STREAM_RANGE_BYTES,
    pieces: int = DEFAULT_STREAM_PIECES,
) -> list[RangeItem]:
    """Cut a compressed mbox of about ``estimate`` decompressed bytes into stream ranges.

    ``ceil(estimate / range_bytes)`` pieces, at most ``pieces``, of equal nominal size;
    the last one runs to the end of the stream (the estimate may be short).

    Raises:
        ValueError: when ``range_bytes`` or ``pieces`` is less than 1.
    """
    if range_bytes < 1:
        raise ValueError(f"range_bytes must be at least 1, not {range_bytes}")
    if pieces < 1:
        raise ValueError(f"stream pieces must be at least 1, not {pieces}")
    count = max(1, min(pieces, -(-estimate // range_bytes)))
    starts = [estimate * i // count for i in range(count)]
    return [
        RangeItem(path, start, starts[i + 1] if i + 1 < count else None, stream=True)
        for i, start in enumerate(starts)
    ]


def estimated_size(path: str, compression: str, stored: int) -> int:
    """Return about how many bytes a compressed file of ``stored`` bytes decompresses to.

    gzip says it in its last four bytes (modulo 4 GiB, of the last member only: taken
    when it is no smaller than the stored size); otherwise
    :data:`COMPRESSION_RATIO_GUESS` times the stored size.
    """
    if compression == "gzip" and stored >= 18:
        try:
            with open(path, "rb") as stream:
                stream.seek(-4, os.SEEK_END)
                size = int.from_bytes(stream.read(4), "little")
        except OSError:
            size = 0
        if size >= stored:
            return size
    return stored * COMPRESSION_RATIO_GUESS


def regular_size(path: str) -> int | None:
    """Return the size of a regular file; ``None`` for anything else or when stat fails."""
    try:
        info = stat_path(path)  # (by name in the folder a walk holds open)
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _is_dir(path: str) -> bool:
    # os.path.isdir, by name in the folder a walk holds open.
    try:
        return stat.S_ISDIR(stat_path(path).st_mode)
    except (OSError, ValueError):
        return False


def is_special(path: str) -> bool:
    """Return whether ``path`` is a FIFO, a device...: not to be opened twice for its bytes."""
    try:
        mode = stat_path(path).st_mode
    except OSError:
        return False  # the open reports it
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def plan_paths(
    paths: Iterable[str],
    walk: WalkConfig,
    stats: ArchiveStats,
    cuts: Cuts | None = None,
    options: MailOptions | None = None,
) -> Iterator[WorkItem]:
    """Plan paths, in input order, into items that any engine can run.

    Folders of mixed files are walked (:func:`urlsift.sources.tree.expand_paths`), as one
    pass walks them; each path found is planned as if it had been given. See the module
    notes for what each kind of path becomes.

    Args:
        paths: files, folders, ``-`` (one :class:`PathItem`).
        walk: the input kind, exclusions and ``.gitignore`` use (a ``ScanConfig``).
        stats: counts what the planner reads itself (and ``binaries_skipped``).
        cuts: how to cut (default :class:`Cuts()`).
        options: the mail options (the message cap of batches split here).
    """
    cuts = cuts if cuts is not None else Cuts()
    options = options if options is not None else MailOptions()
    for path in expand_paths(paths, walk, stats):
        yield from _plan_path(path, walk.kind, options, stats, cuts)


def _plan_path(
    path: str, kind: InputKind, options: MailOptions, stats: ArchiveStats, cuts: Cuts
) -> Iterator[WorkItem]:
    if path == "-" or is_special(path):
        yield PathItem(path)  # a pipe, a device: read once, as a stream, by one run
    elif _is_dir(path):
        yield from _plan_folder(path, kind, cuts)
    elif kind not in ("auto", "mbox", "text"):
        yield PathItem(path)
    else:
        yield from _plan_file(path, kind, options, stats, cuts)


def _plan_folder(path: str, kind: InputKind, cuts: Cuts) -> Iterator[WorkItem]:
    try:
        files = folder_files(path, kind)
    except OSError:
        yield PathItem(path)  # its run meets the error, as one pass does
        return
    batch: list[str] = []
    first = size = 0
    for number, file in enumerate(files, 1):
        file_size = regular_size(file)
        if file_size is not None and file_size > cuts.long_bytes:  # it may stream: alone
            if batch:
                yield FolderItem(path, tuple(batch), first)
                batch, size = [], 0
            yield FolderItem(path, (file,), number)
            continue
        if not batch:
            first = number
        batch.append(file)
        size += file_size or 0
        full = cuts.folder_bytes is not None and size >= cuts.folder_bytes
        if full or len(batch) >= cuts.folder_files:
            yield FolderItem(path, tuple(batch), first)
            batch, size = [], 0
    if batch:
        yield FolderItem(path, tuple(batch), first)


def _plan_file(
    path: str, kind: InputKind, options: MailOptions, stats: ArchiveStats, cuts: Cuts
) -> Iterator[WorkItem]:
    # Kind auto, mbox or text, not a directory: opened once to sniff, as open_units does.
    try:
        opened = open_counted(path)
    except OSError:
        yield PathItem(path)  # its run meets the same error, and reports it the same way
        return
    try:
        head = opened.stream.peek(SNIFF_BYTES)[:SNIFF_BYTES]
    except OSError:
        head = None  # likewise
    if head is not None and kind == "auto":
        kind = sniff_kind(head)
    if head is not None and kind == "text":
        if cuts.whole_text:
            opened.stream.close()
            yield PathItem(path)
            return
        yield from text_pieces(path, opened, stats, cuts.text_chars, cuts.text_pieces)
        return
    size = regular_size(path)
    mbox = head is not None and kind == "mbox" and not head.startswith(MMDF_DELIMITER)
    if kind == "mbox" and cuts.batches and not (mbox and opened.compression == "none"):
        # A compressed or MMDF archive alone: read here, handed out in batches.
        yield from message_batches(
            path, opened, options, stats, cuts.batch_bytes, cuts.batch_messages
        )
        return
    with contextlib.suppress(OSError):
        opened.stream.close()
    if not mbox or size is None:
        yield PathItem(path)  # a single message, an MMDF archive, a sniffing error
    elif opened.compression == "none":
        yield from plan_ranges(path, size, cuts.range_bytes, cuts.taper)
    else:
        estimate = estimated_size(path, opened.compression, size)
        yield from plan_stream_ranges(path, estimate, cuts.stream_range_bytes, cuts.stream_pieces)


def message_batches(
    path: str,
    opened: CountedStream,
    options: MailOptions,
    stats: ArchiveStats,
    batch_bytes: int = DEFAULT_BATCH_BYTES,
    batch_messages: int = DEFAULT_BATCH_MESSAGES,
) -> Iterator[MessageBatchItem | FailedItem]:
    """Read an opened mbox or MMDF archive and cut it into batches of messages, in order.

    The end of the stream is handled as :mod:`urlsift.sources.archive` handles it (a read
    error becomes a defect of the last message, or of a unit of its own); an ``OSError``
    ends the path with a :class:`FailedItem` after the messages before it. Closes
    ``opened``.
    """
    batch: list[RawMessage] = []
    size = 0
    try:
        try:
            reader = BlockReader(opened, stats)
            splitter = MboxSplitter(options.max_message_bytes)
            while block := reader.read():
                for raw in splitter.feed(block):
                    batch.append(raw)
                    size += len(raw.data)
                    if size >= batch_bytes or len(batch) >= batch_messages:
                        yield MessageBatchItem(path, tuple(batch))
                        batch, size = [], 0
            last = splitter.close()
            defects: tuple[Defect, ...] = ()
            if reader.error is not None:
                if last:
                    last[-1] = replace(last[-1], defects=(*last[-1].defects, reader.error))
                else:
                    defects = (reader.error,)
            batch.extend(last)
            if batch or defects:
                yield MessageBatchItem(path, tuple(batch), defects)
                batch = []
        finally:
            with contextlib.suppress(OSError):
                opened.stream.close()
    except OSError as exc:
        if batch:
            yield MessageBatchItem(path, tuple(batch))
        yield FailedItem(path, failure_reason(exc))


def text_pieces(
    path: str,
    opened: CountedStream,
    stats: ArchiveStats,
    piece_chars: int = DEFAULT_TEXT_CHARS,
    max_pieces: int = DEFAULT_TEXT_PIECES,
) -> Iterator[TextPieceItem | TextTailItem | FailedItem]:
    """Read and decode an opened plain-text file, cutting it at blank lines into pieces.

    Pieces are cut only where :func:`~urlsift.extraction.scanner.find_boundary` says no span can
    cross. When no such point comes within ``max_pieces`` pieces' worth of text (a file
    with no blank line), the rest is one :class:`TextTailItem` and the file is left
    unread here (memory stays bounded; the tail's run counts the file). A read error
    ends the path with a :class:`FailedItem` (the text read since the last piece is a
    piece first). Closes ``opened``.
    """
    counted = ArchiveStats()  # added to ``stats`` unless the file ends in a tail item
    chunks = text_chunks(opened, counted)
    parts: list[str] = []  # text read since the last piece, joined only to cut it
    size = 0
    retry_at = piece_chars  # size at which to look for a cut again
    pending = ""
    offset, line = 0, 1
    try:
        for chunk in chunks:
            parts.append(chunk)
            size += len(chunk)
            if size < retry_at:
                continue
            pending = "".join(parts)
            while len(pending) >= piece_chars:
                cut = find_boundary(pending, piece_chars - 1)
                if cut is None:
                    break
                piece, pending = pending[:cut], pending[cut:]
                yield TextPieceItem(path, piece, (offset, line))
                offset += len(piece)
                line += piece.count("\n")
            parts, size = [pending], len(pending)
            # When no cut was found, wait for another piece's worth before joining and
            # searching again, so a file with rare blank lines is not copied quadratically.
            retry_at = size + piece_chars if size >= piece_chars else piece_chars
            if size > max_pieces * piece_chars:  # no blank line: the rest is one item
                close = getattr(chunks, "close", None)
                if close is not None:
                    close()  # stop reading: the tail's run reads the file again
                yield TextTailItem(path, (offset, line))
                return
    except OSError as exc:
        add_stats(stats, counted)
        if pending := "".join(parts):
            yield TextPieceItem(path, pending, (offset, line))
        yield FailedItem(path, failure_reason(exc))
        return
    add_stats(stats, counted)
    if pending := "".join(parts):
        yield TextPieceItem(path, pending, (offset, line))
