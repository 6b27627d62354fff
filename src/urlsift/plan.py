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

from dataclasses import dataclass

from .sources.compress import MAGIC_LENGTH, sniff_compression
from .sources.mbox import MMDF_DELIMITER

__all__ = [
    "DEFAULT_RANGE_BYTES",
    "FolderItem",
    "PathItem",
    "RangeItem",
    "WorkItem",
    "plan_ranges",
    "splittable_mbox",
]

DEFAULT_RANGE_BYTES = 4 << 20
"""Nominal bytes per range of an uncompressed mbox (4 MiB): a few seconds of work per
item, so shipping an item and its results costs little next to scanning it."""


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
