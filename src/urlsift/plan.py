"""The work plan as data: what to scan, cut into items that any engine can run alone.

A :data:`WorkItem` is a frozen, picklable record naming a piece of the input. Every engine
(one process, the process pool of :mod:`urlsift.parallel`) runs items with
:func:`urlsift.work.run_item` and merges their records in plan order
(:class:`urlsift.work.Renumbering`), so the output is that of one sequential pass.

* :class:`PathItem`: a whole path, read by the sequential sources
  (:func:`urlsift.sources.archive.open_units`). A compressed file is always one item: it
  cannot be entered in the middle.
* :class:`RangeItem`: the messages of an *uncompressed* mbox whose ``From_`` line starts in
  a byte range (see :mod:`urlsift.work` for how a range finds its first message and how
  its message numbers become the file's). :func:`plan_ranges` cuts a file into ranges of
  about ``range_bytes`` from its size alone: the item finds its own boundaries, so
  planning never reads the file.
* :class:`FolderItem`: consecutive message files of a Maildir, MH folder or news spool,
  numbered from the first file's place in the folder.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .sources.compress import MAGIC_LENGTH, sniff_compression
from .sources.kinds import SNIFF_BYTES, folder_files, sniff_kind
from .sources.mbox import MMDF_DELIMITER
from .sources.reading import ArchiveStats
from .sources.tree import WalkConfig, expand_paths

__all__ = [
    "DEFAULT_FOLDER_BATCH",
    "DEFAULT_RANGE_BYTES",
    "FolderItem",
    "PathItem",
    "RangeItem",
    "WorkItem",
    "plan_paths",
    "plan_ranges",
    "regular_size",
    "splittable_mbox",
]

DEFAULT_RANGE_BYTES = 4 << 20
"""Nominal bytes per range of an uncompressed mbox (4 MiB): a few seconds of work per
item, so shipping an item and its results costs little next to scanning it."""


DEFAULT_FOLDER_BATCH = 200
"""Message files per :class:`FolderItem` planned by :func:`plan_paths`."""


@dataclass(frozen=True, slots=True)
class PathItem:
    """A whole path, read by the sequential sources."""

    path: str


@dataclass(frozen=True, slots=True)
class RangeItem:
    """The messages of an uncompressed mbox whose ``From_`` line starts in ``[start, stop)``."""

    path: str
    start: int
    """Nominal start; the range begins at the first message boundary at or after it."""
    stop: int
    """Nominal end: the next range's ``start`` (the file's size for the last range)."""


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


def regular_size(path: str) -> int | None:
    """Return the size of a regular file; ``None`` for anything else or when stat fails."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _is_mbox(path: str, kind: str) -> bool:
    # An uncompressed mbox by the kind asked, or sniffed as one (``auto``).
    if kind not in ("auto", "mbox") or not splittable_mbox(path):
        return False
    if kind == "mbox":
        return True
    try:
        with open(path, "rb") as stream:
            return sniff_kind(stream.read(SNIFF_BYTES)) == "mbox"
    except OSError:
        return False


def plan_paths(
    paths: Iterable[str],
    walk: WalkConfig,
    stats: ArchiveStats,
    *,
    range_bytes: int = DEFAULT_RANGE_BYTES,
    folder_batch: int = DEFAULT_FOLDER_BATCH,
) -> Iterator[WorkItem]:
    """Plan local paths, in input order, for engines that run every item independently.

    Folders of mixed files are walked (:func:`urlsift.sources.tree.expand_paths`); a
    Maildir, MH folder or news spool becomes batches of ``folder_batch`` message files;
    an uncompressed mbox (asked, or sniffed with kind ``auto``) becomes byte ranges; any
    other path (a compressed archive, a single message, a text file, a path that cannot
    be read) is one :class:`PathItem`, whose run reports what one pass reports.

    Args:
        paths: local files and folders (not ``-``: an item must be readable anywhere).
        walk: the input kind, exclusions and ``.gitignore`` use (a ``ScanConfig``).
        stats: ``binaries_skipped`` is counted here, as the walk meets them.
        range_bytes: nominal bytes per range.
        folder_batch: message files per folder batch.

    Raises:
        ValueError: when ``range_bytes`` or ``folder_batch`` is less than 1.
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
        if size is not None and _is_mbox(path, kind):
            yield from plan_ranges(path, size, range_bytes)
        else:
            yield PathItem(path)
