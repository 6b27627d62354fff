"""Scan paths in worker processes and give back the same ordered stream as one process.

Strategy: the parent process plans the work, in input order, as a queue of *work items*;
worker processes (:class:`concurrent.futures.ProcessPoolExecutor`) run them and the parent
yields their results strictly in queue order, so the stream is the one
:func:`urlsift.runner.iter_results` gives with ``jobs=1``: same records, same order,
``ReadFailure`` and ``UnitDefects`` at the same places, same message numbers and offsets.

* **Work items.** The items are those of the plan (:mod:`urlsift.plan`), run by
  :func:`urlsift.work.run_item` in a worker: a path read whole by the sequential code
  (:class:`~urlsift.plan.PathItem`); a byte range of an *uncompressed* mbox archive
  (:class:`~urlsift.plan.RangeItem`, about ``batch_bytes`` each, planned from the file's
  size: each worker finds its range's first message and reads its part of the file
  itself, so the parent reads nothing and renumbers the messages at merge); a batch of a
  folder's message files (:class:`~urlsift.plan.FolderItem`). A *compressed* mbox
  archive cannot be entered in the middle: among several paths it is one
  :class:`~urlsift.plan.PathItem` (every worker has work, and the parent, which would
  otherwise decompress and split every archive, does not become the bottleneck; the
  window then holds the records of up to ``window`` whole archives); given alone, it is
  read by the parent as a stream and split by :class:`~urlsift.sources.mbox.MboxSplitter`;
  consecutive messages are grouped into batches of about :data:`DEFAULT_BATCH_BYTES` (or
  :data:`DEFAULT_BATCH_MESSAGES` messages) and each batch is one item, scanned with the
  sources' own per-message step (:func:`urlsift.sources.archive.raw_message_units`). A
  message is never cut between two items, so per-message ``UnitDefects`` come out exactly
  once, as in one process.
* **Plain text.** A text file (kind ``text``, or ``auto`` sniffing as text) is read and
  decoded by the parent and cut into pieces of about ``batch_bytes // 4`` characters, each one
  item, at blank lines where no span can cross (:func:`urlsift.scanner.find_boundary`: not
  near a form feed, so never inside an RFC page break a wrapper may span). A worker scans
  a piece with a scanner whose ``origin`` is the piece's offset and line, so the records
  are exactly those of one scan. A file with no usable blank line within
  :data:`MAX_TEXT_PIECES` pieces' worth of text is finished in the parent, streaming
  (a piece's records wait in the window, so a piece must stay small: memory).
* **Folders.** A Maildir, MH folder or news spool is listed by the parent
  (:func:`urlsift.sources.archive.folder_files`) and its message files are grouped into
  batches like an archive's messages, each numbered from its first file's place in the
  folder (:func:`urlsift.sources.archive.folder_units`). A read error that ends a folder's
  scan in one process ends it at the same place here: the later batches of that folder
  are dropped.
* **Mixed folders.** A folder that is no archive is walked by the parent
  (:func:`urlsift.sources.tree.expand_paths`, as one process walks it) and each path found
  is planned as if it had been given.
* **Parent only.** Standard input (``-``), a path of kind ``auto`` that is not a regular
  file or directory (a FIFO, a device: sniffing it and reopening it in a worker would lose
  bytes), and a single-message file (or a folder's message file) longer than
  :data:`~urlsift.sources.archive.STREAM_MIN_BYTES` (which streams: a worker would return
  all its records at once) are scanned in the parent, sequentially, once every item before
  them is yielded.
  The parent also mirrors the archive reader's end of stream: a read error after the last
  message is added to that message's defects, or reported on its own, as
  :mod:`urlsift.sources.archive` does.
* **Bounded window.** At most ``window`` items (default ``2 * jobs``) are queued or
  running. Before a new item is submitted the oldest is waited for and yielded when the
  window is full, and every finished item at the head of the queue is yielded at once; so
  the parent reads an archive no further ahead than ``window`` batches and memory stays
  bounded whatever the archive size.
* **Statistics.** The parent's reader counts ``files`` and bytes of the archives it splits
  as it reads them; each item returns the :class:`~urlsift.sources.archive.ArchiveStats` it
  counted (messages, parts, defects...), which the parent adds to the caller's ``stats``
  when it yields that item's results, so a progress display advances with the output and
  the totals equal the sequential run's.
* **Worker crash.** When a worker process dies (``BrokenProcessPool``: killed, out of
  memory, a crash in native code), nothing is lost: a :class:`RuntimeWarning` is issued
  and that item and every later one are run in the parent, with the same code, so the
  output is still complete and identical (it is what ``jobs=1`` would have done). An
  ordinary exception raised by a worker is not a crash: it propagates to the caller, as it
  would in one process.

The validation cache of :class:`~urlsift.api.Judge` is per process (one judge per policy,
kept for the process's lifetime); a cache only saves time, so results do not depend on
which process judged them. Worker entry points are module-level functions taking picklable
frozen records, so any start method (``fork``, ``forkserver``, ``spawn``) works.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
import warnings
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from multiprocessing.context import BaseContext

from ._model import TextUnit
from .plan import (
    FolderItem,
    PathItem,
    RangeItem,
    WorkItem,
    estimated_size,
    plan_ranges,
    plan_stream_ranges,
    regular_size,
)
from .scanner import find_boundary
from .sources.archive import (
    INPUT_KINDS,
    SNIFF_BYTES,
    STREAM_MIN_BYTES,
    ArchiveStats,
    CountingReader,
    folder_files,
    open_units,
    raw_message_units,
    sniff_kind,
    text_chunks,
)
from .sources.compress import CountedStream, open_counted
from .sources.mbox import MMDF_DELIMITER, MboxSplitter, RawMessage
from .sources.tree import expand_paths
from .work import (
    ItemResults,
    ReadFailure,
    Renumbering,
    Result,
    ScanConfig,
    add_stats,
    failure_reason,
    iter_folder,
    iter_sequential,
    judge_for,
    run_item,
    scan_text_units,
)

__all__ = [
    "DEFAULT_BATCH_BYTES",
    "DEFAULT_BATCH_MESSAGES",
    "WINDOW_PER_JOB",
    "iter_results_parallel",
]

DEFAULT_BATCH_BYTES = 1 << 20
"""Message bytes per batch sent to a worker (1 MiB): big enough that the cost of shipping
a batch and its results is small next to scanning it, small enough that a modest archive
still makes several batches per worker."""

DEFAULT_BATCH_MESSAGES = 1000
"""Most messages per batch, whatever their size (bounds the results of one batch)."""

TEXT_PIECE_DIVISOR = 4
"""Plain text is cut into pieces of ``batch_bytes // TEXT_PIECE_DIVISOR`` characters."""

MAX_TEXT_PIECES = 4
"""Pieces' worth of plain text held while looking for a blank line to cut at; beyond it, the
rest of the file is scanned in the parent."""

STREAM_BATCHES = 8
"""Nominal bytes of a piece of a compressed mbox among several paths, in batches (8 MiB
by default; see :func:`urlsift.plan.plan_stream_ranges`)."""

WINDOW_PER_JOB = 2
"""Items queued or running per worker process (the default window is ``2 * jobs``)."""


@dataclass(frozen=True, slots=True)
class _BatchWork:
    """Consecutive messages of a compressed mbox archive, split by the parent."""

    source: str
    messages: tuple[RawMessage, ...]


@dataclass(frozen=True, slots=True)
class _TextWork:
    """A piece of a plain-text file, cut at a blank line (see ``scanner.find_boundary``)."""

    source: str
    text: str
    origin: tuple[int, int]  # (offset, line) of the piece's first character in the file


_Work = WorkItem | _BatchWork | _TextWork


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What an item gives back: its records in order and the statistics it counted."""

    results: list[Result]
    stats: ArchiveStats
    stopped: bool = False  # a folder's scan ended here with a ReadFailure, as in one process
    messages: int = 0  # messages a range read (its records are numbered from 1)


def _run(work: _Work, config: ScanConfig) -> _Outcome:
    """Run one item (in a worker, or in the parent after a worker crash)."""
    stats = ArchiveStats()
    if isinstance(work, _TextWork):
        unit = TextUnit(source=work.source, chunks=(work.text,), origin=work.origin)
        judge = judge_for(config.policy)
        return _Outcome(list(scan_text_units([unit], config, judge)), stats)
    if isinstance(work, _BatchWork):
        units = (
            unit
            for raw in work.messages
            for unit in raw_message_units(raw, work.source, config.options, stats)
        )
        return _Outcome(list(scan_text_units(units, config, judge_for(config.policy))), stats)
    done = run_item(work, config, stats)
    return _Outcome(done.results, stats, done.stopped, done.messages)


def _worker_main(work: _Work, config: ScanConfig) -> _Outcome:
    """Entry point of a worker process (module level, so every start method can find it)."""
    return _run(work, config)


@dataclass(slots=True)
class _Entry:
    """A queued item: running in a worker (``future``), to run here, or already done."""

    work: _Work | None = None
    future: Future[_Outcome] | None = None
    outcome: _Outcome | None = None
    group: object | None = None  # the folder or file scan the item belongs to, if any


class _Scheduler:
    """Plans the items of one scan, keeps the window, and yields results in order."""

    def __init__(
        self,
        config: ScanConfig,
        stats: ArchiveStats,
        jobs: int,
        window: int,
        batch_bytes: int,
        batch_messages: int,
        mp_context: BaseContext | None,
    ) -> None:
        self.config = config
        self.stats = stats
        self.jobs = jobs
        self.window = window
        self.batch_bytes = batch_bytes
        self.batch_messages = batch_messages
        self.mp_context = mp_context
        self.queue: deque[_Entry] = deque()
        self.executor: ProcessPoolExecutor | None = None
        self.broken = False
        self.stopped: set[object] = set()  # folder scans ended by a ReadFailure
        self.renumbering = Renumbering()  # message numbers of a file's ranges
        self.whole_files = False  # several paths: a compressed archive is one item

    # -- the queue -------------------------------------------------------------------

    def push(self, entry: _Entry) -> Iterator[Result]:
        """Queue an item (submitting it), yielding older results to keep the window."""
        while len(self.queue) >= self.window:
            yield from self.pop()
        if entry.work is not None and entry.outcome is None and not self.broken:
            entry.future = self.submit(entry.work)
        self.queue.append(entry)
        # Whatever is finished at the head goes out now: the output streams, memory drops.
        while self.queue and self.ready(self.queue[0]):
            yield from self.pop()

    def push_work(self, work: _Work, group: object | None = None) -> Iterator[Result]:
        return self.push(_Entry(work=work, group=group))

    def push_results(self, results: list[Result]) -> Iterator[Result]:
        return self.push(_Entry(outcome=_Outcome(results, ArchiveStats())))

    def submit(self, work: _Work) -> Future[_Outcome] | None:
        if self.executor is None:
            self.executor = ProcessPoolExecutor(max_workers=self.jobs, mp_context=self.mp_context)
        try:
            return self.executor.submit(_worker_main, work, self.config)
        except BrokenProcessPool as exc:
            self.crashed(exc)
            return None

    @staticmethod
    def ready(entry: _Entry) -> bool:
        return entry.outcome is not None or (entry.future is not None and entry.future.done())

    def pop(self) -> Iterator[Result]:
        """Wait for the oldest item and yield its results (merging its statistics)."""
        entry = self.queue.popleft()
        if entry.group is not None and entry.group in self.stopped:
            # One process stopped this folder at an earlier item's read failure.
            if entry.future is not None:
                entry.future.cancel()
            return
        outcome = entry.outcome
        if outcome is None:
            if entry.future is not None:
                try:
                    outcome = entry.future.result()
                except BrokenProcessPool as exc:
                    self.crashed(exc)
            if outcome is None:
                assert entry.work is not None
                outcome = _run(entry.work, self.config)
        if outcome.stopped:
            self.stopped.add(entry.group)
        add_stats(self.stats, outcome.stats)
        if isinstance(entry.work, RangeItem):
            done = ItemResults(outcome.results, outcome.messages)
            yield from self.renumbering.merge(entry.group, entry.work, done)
        else:
            yield from outcome.results

    def drain(self) -> Iterator[Result]:
        while self.queue:
            yield from self.pop()

    def crashed(self, exc: BaseException) -> None:
        if not self.broken:
            self.broken = True
            warnings.warn(
                f"urlsift: a worker process died ({exc}); "
                "the rest of the scan runs in the main process",
                RuntimeWarning,
                stacklevel=2,
            )

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)
            self.executor = None

    # -- planning --------------------------------------------------------------------

    def run(self, paths: Sequence[str]) -> Iterator[Result]:
        # With several paths there is work for every worker without cutting a compressed
        # archive in the parent (which then becomes the bottleneck).
        self.whole_files = len(paths) > 1
        # Folders of mixed files are walked here, as one process walks them.
        for path in expand_paths(paths, self.config, self.stats):
            yield from self.plan(path)
        yield from self.drain()

    def plan(self, path: str) -> Iterator[Result]:
        kind = self.config.kind
        if path == "-" or (kind == "auto" and _is_special(path)):
            yield from self.drain()
            yield from iter_sequential([path], self.config, self.stats)
        elif os.path.isdir(path):
            yield from self.plan_folder(path)
        elif kind not in ("auto", "mbox", "text"):
            yield from self.single(path)
        else:
            yield from self.plan_file(path)

    def plan_folder(self, path: str) -> Iterator[Result]:
        """Cut a folder's message files into batches, as an mbox into batches of messages.

        A batch ends at ``batch_messages`` files or once its files reach ``batch_bytes``.
        A file long enough to stream is scanned here, after every earlier item (a worker
        would return all its records at once). When the folder cannot be listed (or is
        not a folder of the kind asked), one worker meets the error the sequential way.
        """
        try:
            files = folder_files(path, self.config.kind)
        except OSError:
            yield from self.single(path)
            return
        group = object()  # this scan of the folder (a path may be given twice)
        batch: list[str] = []
        first = size = 0
        for number, file in enumerate(files, 1):
            file_size = regular_size(file)  # one stat per file
            if _is_long(file_size):
                if batch:
                    yield from self.push_folder(path, batch, first, group)
                    batch, size = [], 0
                yield from self.drain()
                if group in self.stopped:
                    return
                for result in iter_folder(path, [file], number, self.config, self.stats):
                    yield result
                    if isinstance(result, ReadFailure):
                        return  # the folder's scan ends here, as in one process
                continue
            if not batch:
                first = number
            batch.append(file)
            size += file_size or 0
            if len(batch) >= self.batch_messages or size >= self.batch_bytes:
                yield from self.push_folder(path, batch, first, group)
                batch, size = [], 0
        if batch:
            yield from self.push_folder(path, batch, first, group)

    def push_folder(
        self, path: str, files: list[str], first: int, group: object
    ) -> Iterator[Result]:
        return self.push_work(FolderItem(path, tuple(files), first), group)

    def plan_file(self, path: str) -> Iterator[Result]:
        # Kind auto or mbox, not a directory: the parent opens it, as open_units would.
        try:
            opened = open_counted(path)
        except OSError as exc:
            yield from self.push_results([ReadFailure(path, failure_reason(exc))])
            return
        kind = self.config.kind
        if kind == "auto":
            try:
                kind = sniff_kind(opened.stream.peek(SNIFF_BYTES)[:SNIFF_BYTES])
            except OSError:
                kind = "auto"  # the worker meets the same error, and reports it the same way
        if kind == "text":
            yield from self.plan_text(path, opened)
            return
        if kind != "mbox":  # a single message or article, or a sniffing error
            with contextlib.suppress(OSError):  # likewise
                opened.stream.close()
            yield from self.single(path)
            return
        # A worker reads its own part: ranges of an uncompressed mbox (planned from the
        # size alone), or, among several paths, a few ranges of a compressed one's stream
        # (an MMDF archive is one item). Otherwise this process splits it into batches.
        size = regular_size(path)
        try:
            mmdf = opened.stream.peek(len(MMDF_DELIMITER)).startswith(MMDF_DELIMITER)
        except OSError:
            mmdf = True  # the worker meets the same error, and reports it the same way
        cut = size is not None and not mmdf
        if (cut and opened.compression == "none") or self.whole_files:
            with contextlib.suppress(OSError):
                opened.stream.close()
            group = object()  # this scan of the file (a path may be given twice)
            if not cut or size is None:
                yield from self.push_work(PathItem(path))
            elif opened.compression == "none":
                for piece in plan_ranges(path, size, self.batch_bytes):
                    yield from self.push_work(piece, group)
            else:
                estimate = estimated_size(path, opened.compression, size)
                stream_bytes = STREAM_BATCHES * self.batch_bytes
                for piece in plan_stream_ranges(path, estimate, stream_bytes):
                    yield from self.push_work(piece, group)
            return
        for item in self.split(path, opened):
            if isinstance(item, ReadFailure):
                yield from self.push_results([item])
            elif isinstance(item, TextUnit):
                judge = judge_for(self.config.policy)
                yield from self.push_results(list(scan_text_units([item], self.config, judge)))
            else:
                yield from self.push_work(_BatchWork(path, item))

    def single(self, path: str) -> Iterator[Result]:
        """A path read whole by the sequential code: in a worker, unless it streams."""
        if _is_long(regular_size(path)):
            yield from self.drain()
            yield from iter_sequential([path], self.config, self.stats)
        else:
            yield from self.push_work(PathItem(path))

    def plan_text(self, path: str, opened: CountedStream) -> Iterator[Result]:
        """Cut a plain-text file at blank lines into pieces of about a quarter batch.

        Pieces are cut only where :func:`~urlsift.scanner.find_boundary` says no span can
        cross, and each is scanned with its ``origin``, so the records are those of one
        scan. When no such point comes within ``MAX_TEXT_PIECES`` pieces (a file with
        no blank line), the rest of the file is scanned here, after every earlier item,
        so memory stays bounded. A read error ends the path with a ``ReadFailure`` (the
        text read since the last piece is scanned first).
        """
        chunks = text_chunks(opened, self.stats)
        # A quarter of a message batch: text can be nothing but URLs, and a piece's records
        # wait in the window until their turn, so they must stay few (memory).
        piece_size = max(1, self.batch_bytes // TEXT_PIECE_DIVISOR)
        parts: list[str] = []  # text read since the last piece, joined only to cut it
        size = 0
        retry_at = piece_size  # size at which to look for a cut again
        pending = ""
        offset, line = 0, 1
        try:
            for chunk in chunks:
                parts.append(chunk)
                size += len(chunk)
                if size < retry_at:
                    continue
                pending = "".join(parts)
                while len(pending) >= piece_size:
                    cut = find_boundary(pending, piece_size - 1)
                    if cut is None:
                        break
                    piece, pending = pending[:cut], pending[cut:]
                    yield from self.push_work(_TextWork(path, piece, (offset, line)))
                    offset += len(piece)
                    line += piece.count("\n")
                parts, size = [pending], len(pending)
                # When no cut was found, wait for another batch's worth before joining and
                # searching again, so a file with rare blank lines is not copied quadratically.
                retry_at = size + piece_size if size >= piece_size else piece_size
                if size > MAX_TEXT_PIECES * piece_size:  # no blank line: finish here
                    yield from self.drain()
                    rest = itertools.chain((pending,), chunks)
                    unit = TextUnit(path, rest, origin=(offset, line))
                    judge = judge_for(self.config.policy)
                    yield from scan_text_units([unit], self.config, judge)
                    return
        except OSError as exc:
            if pending := "".join(parts):
                yield from self.push_work(_TextWork(path, pending, (offset, line)))
            yield from self.push_results([ReadFailure(path, failure_reason(exc))])
            return
        if pending := "".join(parts):
            yield from self.push_work(_TextWork(path, pending, (offset, line)))

    def split(
        self, path: str, opened: CountedStream
    ) -> Iterator[tuple[RawMessage, ...] | TextUnit | ReadFailure]:
        """Read an mbox archive, yielding batches of messages in order.

        The end of the stream is handled as :func:`urlsift.sources.archive._mbox_units`
        does (a read error becomes a defect of the last message, or a unit of its own) and
        an ``OSError`` ends the path with a ``ReadFailure`` after the messages before it.
        """
        options = self.config.options
        batch: list[RawMessage] = []
        size = 0
        try:
            try:
                reader = CountingReader(opened, self.stats)
                splitter = MboxSplitter(options.max_message_bytes)
                while block := reader.read():
                    for raw in splitter.feed(block):
                        batch.append(raw)
                        size += len(raw.data)
                        if size >= self.batch_bytes or len(batch) >= self.batch_messages:
                            yield tuple(batch)
                            batch, size = [], 0
                last = splitter.close()
                if reader.error is not None:
                    if last:
                        last[-1] = replace(last[-1], defects=(*last[-1].defects, reader.error))
                    else:
                        if batch:
                            yield tuple(batch)
                            batch, size = [], 0
                        yield TextUnit(source=path, chunks=(), defects=(reader.error,))
                batch.extend(last)
                if batch:
                    yield tuple(batch)
                    batch, size = [], 0
            except GeneratorExit:  # closed early: there is no one left to report to
                with contextlib.suppress(OSError):
                    opened.stream.close()
                raise
            finally:
                opened.stream.close()  # a no-op when already closed
        except OSError as exc:
            if batch:
                yield tuple(batch)
            yield ReadFailure(path, failure_reason(exc))


def _is_long(size: int | None) -> bool:
    # A regular file of this size may stream as one long message (see STREAM_MIN_BYTES).
    return size is not None and size > STREAM_MIN_BYTES


def _is_special(path: str) -> bool:
    # A FIFO, a device...: something that cannot be opened twice for the same bytes.
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False  # the open reports it
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def iter_results_parallel(
    paths: Sequence[str],
    config: ScanConfig,
    *,
    stats: ArchiveStats,
    jobs: int,
    batch_bytes: int = DEFAULT_BATCH_BYTES,
    batch_messages: int = DEFAULT_BATCH_MESSAGES,
    window: int | None = None,
    mp_context: BaseContext | None = None,
) -> Iterator[Result]:
    """Scan paths in ``jobs`` worker processes; yield what one process would, in order.

    Nothing runs until the iterator is first advanced; worker processes start with the
    first item sent to them and stop when the iterator ends or is closed.

    Args:
        paths: files, folders (Maildir, MH, news spool) or ``-`` (read in this process).
        config: input kind, mail options, schemes and policy.
        stats: counters, updated as results are yielded; their totals at the end equal
            those of a sequential scan.
        jobs: worker processes (at least 1).
        batch_bytes: message bytes per mbox batch (a batch ends after the message that
            reaches it).
        batch_messages: most messages per mbox batch.
        window: most items queued or running at once (default ``2 * jobs``); it bounds
            how far ahead of the output an archive is read.
        mp_context: multiprocessing context (start method) of the workers; default the
            platform's.

    Returns:
        An iterator of :data:`~urlsift.runner.Result` records, in the order of
        ``iter_results(paths, config, jobs=1)``.

    Raises:
        ValueError: when ``jobs``, ``batch_bytes``, ``batch_messages`` or ``window`` is
            less than 1 (raised by the first ``next``).
        ConfigError: when ``config.kind`` is unknown (raised by the first ``next``, as in
            a sequential scan).
    """
    for name, value in (
        ("jobs", jobs),
        ("batch_bytes", batch_bytes),
        ("batch_messages", batch_messages),
        ("window", WINDOW_PER_JOB * jobs if window is None else window),
    ):
        if value < 1:
            raise ValueError(f"{name} must be at least 1, not {value}")
    if paths and config.kind not in INPUT_KINDS:
        open_units(paths[0], config.kind)  # raises the ConfigError a sequential scan raises
    scheduler = _Scheduler(
        config,
        stats,
        jobs,
        WINDOW_PER_JOB * jobs if window is None else window,
        batch_bytes,
        batch_messages,
        mp_context,
    )
    try:
        yield from scheduler.run(paths)
    finally:
        scheduler.close()
