"""The work plan as data: what to scan, cut into items that any engine can run alone.

A :data:`WorkItem` is a frozen, picklable record naming a piece of the input. Every engine
(one process, the process pool of :mod:`urlsift.parallel`) runs items with
:func:`urlsift.work.run_item` and merges their records in plan order
(:class:`urlsift.work.Renumbering`), so the output is that of one sequential pass.

* :class:`PathItem`: a whole path, read by the sequential sources
  (:func:`urlsift.sources.archive.open_units`). A compressed file is always one item: it
  cannot be entered in the middle.
* :class:`RangeItem`: the messages of an mbox whose ``From_`` line starts in a byte range
  (see :mod:`urlsift.work` for how a range finds its first message and how its message
  numbers become the file's). :func:`plan_ranges` cuts an *uncompressed* file into ranges
  of about ``range_bytes`` from its size alone: the item finds its own boundaries, so
  planning never reads the file. A *compressed* mbox cannot be entered in the middle, so
  its ranges (``stream=True``) are ranges of the decompressed stream: a worker
  decompresses from the start and skips to its range, which costs a decompression of the
  bytes before it (about a fourteenth of the cost of scanning them). So
  :func:`plan_stream_ranges` cuts a compressed file into few pieces, at most
  ``stream_pieces`` (by default :data:`DEFAULT_STREAM_PIECES`), from an estimate of its
  decompressed size (:func:`estimated_size`); the last piece runs to the end whatever the
  estimate. That is enough to spread a set of archives of unequal sizes evenly over the
  workers, at a bounded cost: at most ``(pieces - 1) / 2`` decompressions of the file.
* :class:`FolderItem`: consecutive message files of a Maildir, MH folder or news spool,
  numbered from the first file's place in the folder.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .sources.archive import SNIFF_BYTES, ArchiveStats, folder_files, sniff_kind
from .sources.compress import MAGIC_LENGTH, Compression, open_counted, sniff_compression
from .sources.mbox import MMDF_DELIMITER
from .sources.tree import WalkConfig, expand_paths

__all__ = [
    "DEFAULT_FOLDER_BATCH",
    "DEFAULT_RANGE_BYTES",
    "DEFAULT_STREAM_PIECES",
    "DEFAULT_STREAM_RANGE_BYTES",
    "FolderItem",
    "PathItem",
    "RangeItem",
    "WorkItem",
    "estimated_size",
    "mbox_compression",
    "plan_paths",
    "plan_ranges",
    "plan_stream_ranges",
    "regular_size",
    "splittable_mbox",
]

DEFAULT_RANGE_BYTES = 4 << 20
"""Nominal bytes per range of an uncompressed mbox (4 MiB): a few seconds of work per
item, so shipping an item and its results costs little next to scanning it."""


DEFAULT_STREAM_RANGE_BYTES = 8 << 20
"""Nominal decompressed bytes per piece of a compressed mbox (8 MiB): a piece costs a
decompression of the bytes before it, so pieces are larger than ranges of a plain file."""

DEFAULT_STREAM_PIECES = 2
"""Most pieces a compressed mbox is cut into: what a piece after the first costs (the
decompression of what comes before it) grows with their number."""

COMPRESSION_RATIO_GUESS = 4
"""Decompressed bytes per stored byte assumed when the format does not say (bzip2, xz)."""


DEFAULT_FOLDER_BATCH = 200
"""Message files per :class:`FolderItem` planned by :func:`plan_paths`."""


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


WorkItem = PathItem | RangeItem | FolderItem
"""One piece of planned work."""


def splittable_mbox(path: str) -> bool:
    """Return whether ``path`` is an uncompressed mbox (not MMDF) that ranges may cut."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(max(MAGIC_LENGTH, len(MMDF_DELIMITER)))
    except OSError:
        return False
    return sniff_compression(head) == "none" and not head.startswith(MMDF_DELIMITER)


def plan_ranges(path: str, size: int, range_bytes: int = DEFAULT_RANGE_BYTES) -> list[RangeItem]:
    """Cut an uncompressed mbox of ``size`` bytes into nominal ranges of ``range_bytes``.

    Raises:
        ValueError: when ``range_bytes`` is less than 1.
    """
    if range_bytes < 1:
        raise ValueError(f"range_bytes must be at least 1, not {range_bytes}")
    starts = list(range(0, max(size, 1), range_bytes))
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
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def mbox_compression(path: str, kind: str) -> Compression | None:
    """Return how ``path`` is compressed when it is an mbox that ranges may cut, else ``None``.

    An mbox by the kind asked (``mbox``), or sniffed as one from its decompressed first
    bytes (``auto``); never an MMDF archive (its messages are not cut by ``From_`` lines).
    """
    if kind not in ("auto", "mbox"):
        return None
    try:
        opened = open_counted(path)
    except OSError:
        return None
    try:
        head = opened.stream.peek(SNIFF_BYTES)[:SNIFF_BYTES]
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):
            opened.stream.close()
    if head.startswith(MMDF_DELIMITER) or (kind == "auto" and sniff_kind(head) != "mbox"):
        return None
    return opened.compression


def plan_paths(
    paths: Iterable[str],
    walk: WalkConfig,
    stats: ArchiveStats,
    *,
    range_bytes: int = DEFAULT_RANGE_BYTES,
    folder_batch: int = DEFAULT_FOLDER_BATCH,
    stream_range_bytes: int = DEFAULT_STREAM_RANGE_BYTES,
    stream_pieces: int = DEFAULT_STREAM_PIECES,
) -> Iterator[WorkItem]:
    """Plan local paths, in input order, for engines that run every item independently.

    Folders of mixed files are walked (:func:`urlsift.sources.tree.expand_paths`); a
    Maildir, MH folder or news spool becomes batches of ``folder_batch`` message files;
    an mbox (asked, or sniffed with kind ``auto``) becomes byte ranges, few of them
    when it is compressed (:func:`plan_stream_ranges`); any other path (an MMDF archive,
    a single message, a text file, a path that cannot be read) is one :class:`PathItem`,
    whose run reports what one pass reports.

    Args:
        paths: local files and folders (not ``-``: an item must be readable anywhere).
        walk: the input kind, exclusions and ``.gitignore`` use (a ``ScanConfig``).
        stats: ``binaries_skipped`` is counted here, as the walk meets them.
        range_bytes: nominal bytes per range of an uncompressed mbox.
        folder_batch: message files per folder batch.
        stream_range_bytes: nominal decompressed bytes per piece of a compressed mbox.
        stream_pieces: most pieces per compressed mbox.

    Raises:
        ValueError: when a size or count is less than 1.
    """
    if folder_batch < 1:
        raise ValueError(f"folder_batch must be at least 1, not {folder_batch}")
    kind = walk.kind
    for path in expand_paths(paths, walk, stats):
        if os.path.isdir(path):
            try:
                files = folder_files(path, kind)
            except OSError:
                yield PathItem(path)  # its run meets the error, as one pass does
                continue
            for first in range(0, len(files), folder_batch):
                batch = tuple(files[first : first + folder_batch])
                yield FolderItem(path, batch, first + 1)
            continue
        size = regular_size(path)
        compression = None if size is None else mbox_compression(path, kind)
        if size is None or compression is None:
            yield PathItem(path)
        elif compression == "none":
            yield from plan_ranges(path, size, range_bytes)
        else:
            estimate = estimated_size(path, compression, size)
            yield from plan_stream_ranges(path, estimate, stream_range_bytes, stream_pieces)
