"""How one work item runs: the records of a scan, and the scan of one planned item.

Every engine runs the items of a plan (:mod:`urlsift.engines.plan`) with :func:`run_item`, in this
process or another, and merges what they give back in plan order
(:class:`Renumbering`), so the records are those of one sequential pass wherever they ran.
The result stream holds three kinds of record:

* :class:`~urlsift.Url` for every URL found;
* :class:`UnitDefects` once per message (or file) whose text had problems (broken MIME,
  bad charset, truncation ...): the problems are reported once, not copied onto each URL;
* :class:`ReadFailure` for a path that could not be read (the other paths go on).

Each text unit is scanned from a fresh start (one scanner, reset per unit; a unit of one
piece in which it can find nothing is not scanned: :func:`~urlsift.api.scan_reset`), so a
URL never spans two parts or two messages, and every candidate goes through one
:class:`~urlsift.api.Judge` per policy and process (its validation cache only saves time,
so results do not depend on which process judged them).

**Ranges.** :func:`message_start` finds the first message boundary at or after a nominal
offset of an uncompressed mbox by the rules of the sequential splitter
(:class:`~urlsift.sources.mbox.MboxSplitter`: a ``From_`` line that looks like an envelope
and follows an empty line or the file's start; mboxo and mboxrd alike), so the ranges of a
file partition its messages exactly: a range holds the messages whose ``From_`` line starts
in ``[start, stop)``. Byte offsets in a range's records are those of the whole file.
Message numbers are not known without counting every ``From_`` line before the range, so a
range numbers its messages from 1 and reports how many it read (:class:`ItemResults`);
:class:`Renumbering` adds the count of the earlier ranges of the file when results are
merged in plan order (the first range's numbers are already the file's). The first range
of a file counts the file in ``ArchiveStats.files``; each range counts the bytes it reads,
so the totals equal those of one pass. A range of an uncompressed file is read by seeking
(a local file, or one behind an fsspec URL).

**Stream ranges** (a compressed mbox, ``RangeItem.stream``) follow the same rules on a
stream read from its start: :func:`stream_start` skips to the first boundary at or after
the nominal start, then the range's messages are read past its nominal end up to the
first message at or after it (that message is the next range's; it is read too, to find
where the last message ends). The range whose messages reach the end of the stream
handles it as one pass does (a read error joins its last message's defects, or makes a
unit of its own) and counts the file's stored bytes; a range that finds no boundary
before the end has no messages.

**Other items** run the sequential code on the planner's data: a batch of messages, a
piece of text with its ``origin`` (offset and line in the file), the tail of a text file
(decoded again from the start, then skipped to its origin), a failure.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, BinaryIO

from .._model import (
    Defect,
    Policy,
    ReadFailure,
    Result,
    TextUnit,
    UnitDefects,
    Url,
)
from .._record import field, record, replace
from ..api import Judge, scan_reset
from ..errors import failure_reason
from ..extraction.scanner import Scanner
from ..sources.archive import folder_units, messages_units, open_units, text_chunks
from ..sources.compress import open_counted
from ..sources.kinds import InputKind
from ..sources.mbox import MAX_SEPARATOR_LINE, MboxSplitter, RawMessage, is_envelope_line
from ..sources.options import MailOptions
from ..sources.reading import ArchiveStats, BlockReader
from ..sources.tree import expand_paths

if TYPE_CHECKING:  # the plan's items: imported where they are run (one scan in this process
    # plans nothing, and the plan module's records are a tenth of the CLI's start-up)
    from .plan import MessageBatchItem, RangeItem, TextTailItem, WorkItem

_BLOCK = 1 << 20
_NEEDLE = b"\nFrom "


@record
class ScanConfig:
    """Everything a scan needs besides the paths (picklable, for worker processes)."""

    kind: InputKind = "auto"
    """What the paths hold, or ``auto`` to detect it."""
    options: MailOptions = field(default_factory=MailOptions)
    """What the mail sources read, and their caps."""
    schemes: tuple[str, ...] | None = None
    """Schemes recognised in bare URLs (``None``: the default set)."""
    policy: Policy = field(default_factory=Policy)
    """Validation strictness."""
    exclude: tuple[str, ...] = ()
    """Gitignore-style globs of files and folders skipped when a folder of mixed files is
    walked (:mod:`urlsift.sources.tree`)."""
    respect_gitignore: bool = True
    """Skip what ``.gitignore`` files ignore when a folder is walked."""


def scan_text_units(
    units: Iterable[TextUnit], config: ScanConfig, judge: Judge
) -> Iterator[Url | UnitDefects]:
    """Scan units in order, reporting each defect of a message once, before the URLs after it.

    A message's first unit with defects gives a record of them (the message's own defects,
    which every unit of the message carries, and that part's); a later unit gives a record
    only of the defects not reported yet (its part's own: a bad charset in part 3), with
    its own context, so no defect is lost and none is repeated.

    Args:
        units: text units (their ``defects`` are reported as :class:`UnitDefects`).
        config: bare-URL schemes.
        judge: the shared rejoin-and-validate step.

    Returns:
        An iterator of URLs and defect records, in text order.
    """
    message: tuple[str, int] | None = None
    reported: set[Defect] = set()  # the defects of ``message`` already in a record
    scanner = Scanner(config.schemes)  # one for all units (see scan_reset)
    scan_whole = scanner.scan_whole
    judge_all = judge.judge_all
    for unit in units:
        if unit.defects:
            key = (unit.source, unit.context.message if unit.context else 0)
            if key != message:
                message, reported = key, set(unit.defects)
                yield UnitDefects(unit.source, unit.context, unit.defects)
            elif new := tuple(d for d in unit.defects if d not in reported):
                reported.update(new)
                yield UnitDefects(unit.source, unit.context, new)
        chunks = unit.chunks
        if type(chunks) is tuple and len(chunks) == 1:  # most mail parts: scan_reset's way
            found = scan_whole(chunks[0], unit.origin)
            if found:
                yield from judge_all(found, source=unit.source, context=unit.context)
        else:
            yield from scan_reset(unit, scanner, judge)


@lru_cache(maxsize=8)
def judge_for(policy: Policy) -> Judge:
    """Return this process's judge for ``policy`` (its validation cache stays warm)."""
    return Judge(policy=policy)


def iter_sequential(
    paths: Iterable[str], config: ScanConfig, stats: ArchiveStats
) -> Iterator[Result]:
    """Scan paths one after the other in this process, each path one :class:`PathItem`.

    Folders of mixed files are walked (:func:`urlsift.sources.tree.expand_paths`).
    """
    for path in expand_paths(list(paths), config, stats):
        yield from iter_path(path, config, stats)


def iter_path(path: str, config: ScanConfig, stats: ArchiveStats) -> Iterator[Result]:
    """Scan one path (a file, an archive folder or ``-``), streaming its records."""
    units = open_units(path, config.kind, config.options, stats)
    try:
        yield from scan_text_units(units, config, judge_for(config.policy))
    except OSError as exc:
        yield ReadFailure(path, failure_reason(exc))


def iter_folder(
    folder: str, files: list[str], first: int, config: ScanConfig, stats: ArchiveStats
) -> Iterator[Result]:
    """Scan message files of a folder, numbered from ``first``, as one pass does.

    A read error that escapes the per-file step ends the folder's scan with a
    :class:`ReadFailure` for the folder.
    """
    units = folder_units(files, config.options, stats, first)
    try:
        yield from scan_text_units(units, config, judge_for(config.policy))
    except OSError as exc:
        yield ReadFailure(folder, failure_reason(exc))


def iter_text_tail(item: TextTailItem, config: ScanConfig, stats: ArchiveStats) -> Iterator[Result]:
    """Scan the rest of a plain-text file from ``item.origin``, streaming its records.

    The file is decoded again from its start (as one pass decodes it) and counted whole
    in ``stats`` (the planner did not count it).
    """
    try:
        opened = open_counted(item.path)
    except OSError as exc:
        yield ReadFailure(item.path, failure_reason(exc))
        return
    chunks = text_chunks(opened, stats)
    skip = item.origin[0]

    def rest() -> Iterator[str]:
        nonlocal skip
        for chunk in chunks:
            if skip >= len(chunk):
                skip -= len(chunk)
                continue
            yield chunk[skip:]
            skip = 0

    unit = TextUnit(source=item.path, chunks=rest(), origin=item.origin)
    try:
        yield from scan_text_units([unit], config, judge_for(config.policy))
    except OSError as exc:
        yield ReadFailure(item.path, failure_reason(exc))


def _batch_units(
    item: MessageBatchItem, options: MailOptions, stats: ArchiveStats
) -> Iterator[TextUnit]:
    yield from messages_units(item.messages, item.source, options, stats)
    if item.defects:
        yield TextUnit(source=item.source, chunks=(), defects=item.defects)


def iter_item(item: WorkItem, config: ScanConfig, stats: ArchiveStats) -> Iterator[Result]:
    """Run one planned item here, streaming its records (a range's numbered from 1).

    What an engine calls for an item it runs where the output is written (a long
    message, the tail of a text file, standard input); :func:`run_item` collects them.
    """
    from .plan import (
        FailedItem,
        FolderItem,
        MessageBatchItem,
        PathItem,
        TextPieceItem,
        TextTailItem,
    )

    judge = judge_for(config.policy)
    if isinstance(item, PathItem):
        yield from iter_path(item.path, config, stats)
    elif isinstance(item, FolderItem):
        yield from iter_folder(item.folder, list(item.files), item.first, config, stats)
    elif isinstance(item, MessageBatchItem):
        yield from scan_text_units(_batch_units(item, config.options, stats), config, judge)
    elif isinstance(item, TextPieceItem):
        unit = TextUnit(source=item.source, chunks=(item.text,), origin=item.origin)
        yield from scan_text_units([unit], config, judge)
    elif isinstance(item, TextTailItem):
        yield from iter_text_tail(item, config, stats)
    elif isinstance(item, FailedItem):
        yield ReadFailure(item.path, item.reason)
    else:
        yield from run_range(item, config, stats).results


def run_item(item: WorkItem, config: ScanConfig, stats: ArchiveStats) -> ItemResults:
    """Run one planned item and return its records (ranges numbered from 1).

    ``stopped`` is set when a folder batch ended with a read failure (one pass stops
    the folder there, so later batches of that folder are dropped at merge).
    """
    from .plan import FolderItem, RangeItem

    if isinstance(item, RangeItem):
        return run_range(item, config, stats)
    results = list(iter_item(item, config, stats))
    stopped = (
        isinstance(item, FolderItem) and bool(results) and isinstance(results[-1], ReadFailure)
    )
    return ItemResults(results, 0, stopped)


@record
class ItemResults:
    """What running an item gives back: its records in order, and how it ended."""

    results: list[Result]
    messages: int
    """Messages a range read (0 for other items)."""
    stopped: bool = False
    """A folder's scan ended here with a ``ReadFailure``, as in one pass."""


def _is_separator(stream: BinaryIO, at: int) -> bool:
    # Is the line starting at ``at`` (just after a LF, or the file's start) an mbox
    # separator by MboxSplitter's rules: it follows an empty line and looks like an envelope.
    before_start = max(0, at - 3)
    stream.seek(before_start)
    before = (b"\n\n" + stream.read(at - before_start))[-3:]
    if not before.endswith((b"\n\n", b"\n\r\n")):
        return False
    line = stream.read(MAX_SEPARATOR_LINE + 2)
    end = line.find(b"\n")
    if end >= 0:
        line = line[:end]
    if line.endswith(b"\r"):
        line = line[:-1]
    return is_envelope_line(line)


def message_start(stream: BinaryIO, offset: int, size: int) -> int:
    """Return where the first message starting at or after ``offset`` begins.

    Args:
        stream: the uncompressed mbox, seekable.
        offset: a nominal position (0 is always a boundary: text before the first
            ``From_`` line is a message of its own, as in one pass).
        size: the file's size, returned when no message starts at or after ``offset``.

    Returns:
        The offset of the ``From_`` line, by the sequential splitter's rules.
    """
    if offset <= 0:
        return 0
    pos = offset - 1  # a line at or after ``offset`` starts right after a LF at >= pos
    while pos < size:
        stream.seek(pos)
        block = stream.read(_BLOCK)
        if len(block) < len(_NEEDLE):
            break
        found = block.find(_NEEDLE)
        while found >= 0:
            if _is_separator(stream, pos + found + 1):
                return pos + found + 1
            found = block.find(_NEEDLE, found + 1)
        pos += len(block) - (len(_NEEDLE) - 1)  # a needle across the seam is found next
    return size


def range_messages(
    item: RangeItem, max_message_bytes: int, stats: ArchiveStats
) -> Iterator[RawMessage]:
    """Yield the raw messages of a range of an uncompressed mbox (offsets in the whole file).

    Messages are numbered from 1.

    Raises:
        OSError: when the file cannot be opened or read.
    """
    stream, size = _open_seekable(item.path)
    with stream:
        begin = message_start(stream, item.start, size)
        stop = size if item.stop is None else item.stop
        end = message_start(stream, stop, size) if stop < size else size
        if item.start == 0:
            stats.files += 1
        if begin >= end:
            return
        stream.seek(begin)
        splitter = MboxSplitter(max_message_bytes, "mbox", offset=begin)
        left = end - begin
        while left > 0:
            block = stream.read(min(_BLOCK, left))
            if not block:
                break
            left -= len(block)
            stats.bytes_read += len(block)
            stats.stored_bytes_read += len(block)
            yield from splitter.feed(block)
        yield from splitter.close()


def is_url(path: str) -> bool:
    """Return whether ``path`` names a file through fsspec (``s3://...``), not a local path."""
    return "://" in path and not os.path.exists(path)


def _open_seekable(path: str) -> tuple[BinaryIO, int]:
    # A local file, or a file behind an fsspec URL (seekable: ranges read only their part).
    if not is_url(path):
        stream = open(path, "rb")  # noqa: SIM115 - closed by the caller
        return stream, os.fstat(stream.fileno()).st_size
    import fsspec  # the dask extra; only for URLs

    try:
        filesystem, target = fsspec.core.url_to_fs(path)
        size = int(filesystem.size(target))
        remote: BinaryIO = filesystem.open(target, "rb")
    except (OSError, ValueError) as exc:  # fsspec raises FileNotFoundError and the like
        raise OSError(failure_reason(exc) if isinstance(exc, OSError) else str(exc)) from exc
    return remote, size


def _plain_range_units(
    item: RangeItem, options: MailOptions, stats: ArchiveStats, counted: list[int]
) -> Iterator[TextUnit]:
    # The text units of an uncompressed range's messages, counted in ``counted[0]``.
    # The messages of about a block at a time, made into units together (messages_units).
    batch: list[RawMessage] = []
    size = 0
    for raw in range_messages(item, options.max_message_bytes, stats):
        batch.append(raw)
        size += len(raw.data)
        if size >= _BLOCK:
            counted[0] += len(batch)
            yield from messages_units(batch, item.path, options, stats)
            batch, size = [], 0
    counted[0] += len(batch)
    yield from messages_units(batch, item.path, options, stats)


def stream_start(reader: BlockReader, offset: int) -> tuple[int, bytes] | None:
    """Read a stream up to the first message boundary at or after ``offset``.

    The forward-only form of :func:`message_start`, by the same rules, for a compressed
    mbox read from its start.

    Returns:
        The boundary's offset and the bytes read from it on (the start of its ``From_``
        line); ``None`` when the stream ends (or fails) first.
    """
    if offset <= 0:
        return 0, b""
    buf = b""  # bytes of the stream from ``base`` on
    base = 0
    pos = offset - 1  # a line at or after ``offset`` starts right after a LF at >= pos
    while True:
        block = reader.read()
        ended = not block
        # Keep two bytes before ``pos`` (is the line after an empty line?) and what follows.
        buf += block
        drop = min(len(buf), max(0, pos - 2 - base))
        buf = buf[drop:]
        base += drop
        while True:
            found = buf.find(_NEEDLE, max(0, pos - base))
            if found < 0:
                pos = max(pos, base + len(buf) - (len(_NEEDLE) - 1))
                break
            line_at = found + 1
            line_end = buf.find(b"\n", line_at, line_at + MAX_SEPARATOR_LINE + 2)
            if line_end < 0 and len(buf) - line_at < MAX_SEPARATOR_LINE + 2 and not ended:
                pos = base + found  # decide when the line is there
                break
            before = (b"\n\n" + buf[:line_at])[-3:] if base == 0 else buf[line_at - 3 : line_at]
            line = buf[line_at : line_end if line_end >= 0 else line_at + MAX_SEPARATOR_LINE + 2]
            if line.endswith(b"\r"):
                line = line[:-1]
            if before.endswith((b"\n\n", b"\n\r\n")) and is_envelope_line(line):
                return base + line_at, buf[line_at:]
            pos = base + found + 1
        if ended:
            return None


def _stream_range_units(
    item: RangeItem, options: MailOptions, stats: ArchiveStats, counted: list[int]
) -> Iterator[TextUnit]:
    # The text units of a compressed mbox's stream range. The range reads past its end to
    # the end of its last message (up to the next range's first message, whose end is
    # read too); the range whose last message reaches the end of the stream handles it as
    # one pass does (a read error joins the last message's defects) and counts the stored
    # bytes of the file; the first range counts the file.
    opened = open_counted(item.path)
    scratch = ArchiveStats()  # the reader's own counters: the range counts its bytes below
    try:
        reader = BlockReader(opened, scratch)
        if item.start == 0:
            stats.files += 1
        found = stream_start(reader, item.start)
        if found is None:
            return
        begin, block = found
        splitter = MboxSplitter(options.max_message_bytes, "mbox", offset=begin)
        while block or (block := reader.read()):
            # The block's messages made into units together (messages_units).
            batch: list[RawMessage] = []
            ended = False
            for raw in splitter.feed(block):
                if item.stop is not None and raw.offset >= item.stop:
                    stats.bytes_read += raw.offset - begin
                    ended = True
                    break
                batch.append(raw)
            counted[0] += len(batch)
            yield from messages_units(batch, item.path, options, stats)
            if ended:
                return
            block = b""
        last = splitter.close()
        mine = [raw for raw in last if item.stop is None or raw.offset < item.stop]
        if len(mine) < len(last):  # the next range has the end of the stream
            stats.bytes_read += last[len(mine)].offset - begin
        else:
            stats.bytes_read += splitter.bytes_fed
            stats.stored_bytes_read += scratch.stored_bytes_read
            if reader.error is not None:
                if mine:
                    mine[-1] = replace(mine[-1], defects=(*mine[-1].defects, reader.error))
                else:
                    yield TextUnit(source=item.path, chunks=(), defects=(reader.error,))
        counted[0] += len(mine)
        yield from messages_units(mine, item.path, options, stats)
    finally:
        with contextlib.suppress(OSError):
            opened.stream.close()


def run_range(item: RangeItem, config: ScanConfig, stats: ArchiveStats) -> ItemResults:
    """Scan a range's messages (numbered from 1; see :class:`Renumbering`)."""
    judge = judge_for(config.policy)
    results: list[Result] = []
    counted = [0]

    if item.stream:
        units = _stream_range_units(item, config.options, stats, counted)
    else:
        units = _plain_range_units(item, config.options, stats, counted)
    try:
        results.extend(scan_text_units(units, config, judge))
    except OSError as exc:
        results.append(ReadFailure(item.path, failure_reason(exc)))
    return ItemResults(results, counted[0])


class Renumbering:
    """Turns the local message numbers of a file's ranges into the file's, in plan order."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: dict[object, int] = {}

    def merge(self, key: object, item: RangeItem, outcome: ItemResults) -> list[Result]:
        """Return ``outcome``'s records numbered as in one pass over the file.

        Args:
            key: one scan of the file (the same path given twice is two scans).
            item: the range, whose ranges before it were merged already.
            outcome: what running the range gave.
        """
        base = self.advance(key, item, outcome.messages)
        if base == 0:
            return outcome.results
        return [shift(result, base) for result in outcome.results]

    def advance(self, key: object, item: RangeItem, messages: int) -> int:
        """Return the number of the file's messages before ``item`` (its base), and count its own.

        For an outcome merged elsewhere (a rendered piece, :mod:`.render`).
        """
        base = 0 if item.start == 0 else self._seen.get(key, 0)
        self._seen[key] = base + messages
        return base


class Merger:
    """Merges what a plan's items gave, in plan order, into the records of one pass.

    Every engine that runs items apart merges with one: :meth:`group` is called for each
    item in plan order (as it is planned), :meth:`merge` for each outcome in plan order.
    Items of one scan of a file or folder form a group (a range at offset 0, or a folder
    batch from its first file, opens a new one: the same path given twice is two scans).
    A range's messages are renumbered (:class:`Renumbering`); a folder batch that ended
    with a read failure ends its folder's scan, as in one pass: the later batches of that
    scan give nothing.
    """

    __slots__ = ("_current", "_renumbering", "_stopped")

    def __init__(self) -> None:
        self._current: object | None = None
        self._renumbering = Renumbering()
        self._stopped: set[object] = set()

    def group(self, item: object) -> object | None:
        """Return the scan ``item`` belongs to (``None`` for an item on its own)."""
        from .plan import FolderItem, RangeItem

        if isinstance(item, RangeItem | FolderItem):
            if (item.start if isinstance(item, RangeItem) else item.first - 1) == 0:
                self._current = object()
            return self._current
        return None

    def dropped(self, group: object | None) -> bool:
        """Whether one pass never reads this group's later items (its scan has ended)."""
        return group is not None and group in self._stopped

    def stop(self, group: object | None) -> None:
        """End a folder's scan here (a read failure, as in one pass)."""
        if group is not None:
            self._stopped.add(group)

    def advance(
        self, item: object, group: object | None, messages: int, stopped: bool
    ) -> int | None:
        """Merge an outcome whose records are merged elsewhere (a rendered piece).

        Returns:
            The base to add to its message numbers (0 but for a range after the file's
            first), or ``None`` when one pass never reads it (its folder's scan ended).
        """
        if self.dropped(group):
            return None
        if stopped:
            self.stop(group)
        from .plan import RangeItem

        if isinstance(item, RangeItem):
            return self._renumbering.advance(group, item, messages)
        return 0

    def merge(self, item: object, group: object | None, outcome: ItemResults) -> list[Result]:
        """Return an item's records as one pass gives them (none when dropped)."""
        if self.dropped(group):
            return []
        if outcome.stopped:
            self.stop(group)
        from .plan import RangeItem

        if isinstance(item, RangeItem):
            return self._renumbering.merge(group, item, outcome)
        return outcome.results


def shift(result: Result, base: int) -> Result:
    """Return ``result`` with ``base`` added to its message number (if it has one)."""
    if isinstance(result, Url | UnitDefects) and result.context is not None:
        context = replace(result.context, message=result.context.message + base)
        return replace(result, context=context)
    return result
