"""Scan paths in worker processes and give back the same ordered stream as one process.

Strategy: the parent process plans the work (:func:`urlsift.engines.plan.plan_paths`, in input
order); worker processes (:class:`concurrent.futures.ProcessPoolExecutor`) run the items
with :func:`urlsift.engines.work.run_item`, and the parent yields their results strictly in plan
order, so the stream is the one :func:`urlsift.engines.runner.iter_results` gives with
``jobs=1``: same records, same order, ``ReadFailure`` and ``UnitDefects`` at the same
places, same message numbers and offsets. How paths are cut is the plan's business; this
module only decides where each item runs and keeps the window.

* **How this engine cuts.** Ranges of an uncompressed mbox of ``batch_bytes``; among
  several paths, a compressed mbox in at most two ranges of its stream of
  ``STREAM_BATCHES * batch_bytes`` (so archives of unequal sizes spread evenly over the
  workers); a compressed or MMDF archive given alone, read by the parent and cut into
  batches of ``batch_bytes`` or ``batch_messages`` messages; plain text in pieces of
  ``batch_bytes // TEXT_PIECE_DIVISOR`` characters; folders in batches of
  ``batch_messages`` files or ``batch_bytes`` bytes (:class:`urlsift.engines.plan.Cuts`).
* **Where items run.** In a worker, except what would make a worker return a long
  stream of records at once, or must be read once: standard input, a FIFO or device, a
  single message (or a folder's message file) longer than
  :data:`~urlsift.sources.archive.STREAM_MIN_BYTES`, the tail of a text file with no
  blank line to cut at. Those run in the parent, streaming, once every item before them
  is yielded (:func:`urlsift.engines.work.iter_item`).
* **How many workers.** ``-j N`` starts at most as many workers as this process may
  use CPUs (:func:`worker_count`), and, when the plan has fewer items than that, one per
  item a worker would run; a plan with one such item (a small file) runs in the parent
  with no pool at all. One plain-text file given alone is one item, not cut into pieces
  (a piece's records cost more to pickle back than to find), scanned where the output
  is written. (``-j 100000`` on a tiny file used to fork 100,000 processes.)
* **Bounded window.** At most ``window`` items (default ``2 * jobs``) are queued or
  running. Before a new item is submitted the oldest is waited for and yielded when the
  window is full, and every finished item at the head of the queue is yielded at once; so
  the parent reads an archive it splits no further ahead than ``window`` batches. Memory
  holds at most the records of ``window`` items: ranges and batches of about
  ``batch_bytes`` (plus one message), pieces of text, and the stream ranges of
  compressed archives among several paths (half an archive each at most).
* **Folders.** A read error that ends a folder's scan in one process ends it at the same
  place here: the later batches of that folder are dropped.
* **What comes back.** With ``render`` (the command's text, JSON Lines and CSV output),
  a worker writes its item's URLs itself and sends back a
  :class:`~urlsift.engines.render.Rendered` piece (text, with the item's defect records
  and read failures in place), which the parent writes as it is: pickling every record
  back, renumbering and formatting it here was most of the parent's work. Without it
  (``--unique``, ``--count``, Parquet, the library), the records.
* **Statistics.** The planner counts what the parent reads; each item returns the
  :class:`~urlsift.sources.archive.ArchiveStats` it counted, which the parent adds to the
  caller's ``stats`` when it yields that item's results, so a progress display advances
  with the output and the totals equal the sequential run's.
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

import itertools
import os
import warnings
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.context import BaseContext

from .._model import ReadFailure, Result
from ..sources.archive import STREAM_MIN_BYTES, open_units
from ..sources.kinds import INPUT_KINDS
from ..sources.reading import ArchiveStats
from .plan import (
    DEFAULT_BATCH_BYTES,
    DEFAULT_BATCH_MESSAGES,
    DEFAULT_TEXT_PIECES,
    TEXT_PIECE_DIVISOR,
    Cuts,
    FolderItem,
    PathItem,
    RangeItem,
    TextTailItem,
    WorkItem,
    add_stats,
    is_special,
    plan_paths,
    regular_size,
)
from .render import Rendered, RenderSpec, finish, render
from .work import ItemResults, Merger, ScanConfig, iter_item, run_item

__all__ = [
    "DEFAULT_BATCH_BYTES",
    "DEFAULT_BATCH_MESSAGES",
    "WINDOW_PER_JOB",
    "iter_results_parallel",
]

MAX_TEXT_PIECES = DEFAULT_TEXT_PIECES
"""Pieces' worth of plain text without a blank line before the rest runs in the parent."""

STREAM_BATCHES = 8
"""Nominal bytes of a piece of a compressed mbox among several paths, in batches (8 MiB
by default; see :func:`urlsift.engines.plan.plan_stream_ranges`)."""

WINDOW_PER_JOB = 2
"""Items queued or running per worker process (the default window is ``2 * jobs``)."""


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - systems without affinity
        return os.cpu_count() or 1


def worker_count(jobs: int, cpus: int | None = None) -> int:
    """Worker processes for ``-j jobs``: never more than the CPUs (issue 24 item 16).

    More processes than CPUs only share the same cores, each paying its start-up and
    memory; the plan can then cap them further by the work (see ``_Scheduler.run``).
    """
    return max(1, min(jobs, usable_cpus() if cpus is None else cpus))


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What an item gives back: its records in order (or its rendered piece) and the
    statistics it counted."""

    results: list[Result] | Rendered
    stats: ArchiveStats
    stopped: bool = False  # a folder's scan ended here with a ReadFailure, as in one process
    messages: int = 0  # messages a range read (its records are numbered from 1)


def _run(work: WorkItem, config: ScanConfig, spec: RenderSpec | None = None) -> _Outcome:
    """Run one item (in a worker, or in the parent after a worker crash).

    With ``spec``, the item's records are rendered (:mod:`.render`).
    """
    stats = ArchiveStats()
    done = run_item(work, config, stats)
    local = isinstance(work, RangeItem) and work.start > 0
    results = done.results if spec is None else render(done.results, spec, local)
    return _Outcome(results, stats, done.stopped, done.messages)


def _worker_main(work: WorkItem, config: ScanConfig, spec: RenderSpec | None) -> _Outcome:
    """Entry point of a worker process (module level, so every start method can find it)."""
    return _run(work, config, spec)


@dataclass(slots=True)
class _Entry:
    """A queued item: running in a worker (``future``), or to run here."""

    work: WorkItem
    future: Future[_Outcome] | None = None
    group: object | None = None  # the folder or file scan the item belongs to, if any


class _Scheduler:
    """Keeps the window over the plan's items and yields results in order."""

    def __init__(
        self,
        config: ScanConfig,
        stats: ArchiveStats,
        jobs: int,
        window: int,
        mp_context: BaseContext | None,
        spec: RenderSpec | None = None,
    ) -> None:
        self.config = config
        self.spec = spec
        self.stats = stats
        self.jobs = jobs
        self.window = window
        self.mp_context = mp_context
        self.queue: deque[_Entry] = deque()
        self.executor: ProcessPoolExecutor | None = None
        self.broken = False
        self.local = False  # the plan has work for one worker at most: no pool at all
        self.merger = Merger()  # renumbers ranges, ends folder scans as one pass does

    # -- the queue -------------------------------------------------------------------

    def push(self, entry: _Entry) -> Iterator[Result | Rendered]:
        """Queue an item (submitting it), yielding older results to keep the window."""
        while len(self.queue) >= self.window:
            yield from self.pop()
        if not self.broken and not self.local:
            entry.future = self.submit(entry.work)
        self.queue.append(entry)
        # Whatever is finished at the head goes out now: the output streams, memory drops.
        while self.queue and self.ready(self.queue[0]):
            yield from self.pop()

    def submit(self, work: WorkItem) -> Future[_Outcome] | None:
        if self.executor is None:
            self.executor = ProcessPoolExecutor(max_workers=self.jobs, mp_context=self.mp_context)
        try:
            return self.executor.submit(_worker_main, work, self.config, self.spec)
        except BrokenProcessPool as exc:
            self.crashed(exc)
            return None

    @staticmethod
    def ready(entry: _Entry) -> bool:
        return entry.future is not None and entry.future.done()

    def pop(self) -> Iterator[Result | Rendered]:
        """Wait for the oldest item and yield its results (merging its statistics)."""
        entry = self.queue.popleft()
        if self.merger.dropped(entry.group):
            # One process stopped this folder at an earlier item's read failure.
            if entry.future is not None:
                entry.future.cancel()
            return
        outcome = None
        if entry.future is not None:
            try:
                outcome = entry.future.result()
            except BrokenProcessPool as exc:
                self.crashed(exc)
        if outcome is None:
            outcome = _run(entry.work, self.config)
        if isinstance(outcome.results, Rendered):
            base = self.merger.advance(entry.work, entry.group, outcome.messages, outcome.stopped)
            if base is not None:
                add_stats(self.stats, outcome.stats)
                yield finish(outcome.results, base)
            return
        add_stats(self.stats, outcome.stats)
        done = ItemResults(outcome.results, outcome.messages, outcome.stopped)
        yield from self.merger.merge(entry.work, entry.group, done)

    def drain(self) -> Iterator[Result | Rendered]:
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

    # -- running the plan ------------------------------------------------------------

    def run(self, paths: Sequence[str], cuts: Cuts) -> Iterator[Result | Rendered]:
        planned = plan_paths(paths, self.config, self.stats, cuts, self.config.options)
        # The first ``jobs`` items decide how many workers start: when the plan ends
        # within them, one per item a worker would run, and none for a single one (it
        # runs here: a pool costs more than it saves). A few items of about a batch each
        # are held for that look.
        ahead = list(itertools.islice(planned, self.jobs))
        if self.jobs == 1:
            self.local = True  # one CPU: the parent does the one worker's work
        elif len(ahead) < self.jobs:
            pooled = sum(not _runs_here(item) for item in ahead)
            self.local = pooled <= 1
            self.jobs = max(1, min(self.jobs, pooled))
        for item in itertools.chain(ahead, planned):
            group = self.merger.group(item)
            if not _runs_here(item):
                yield from self.push(_Entry(item, group=group))
                continue
            yield from self.drain()
            if self.merger.dropped(group):
                continue  # one process stopped this folder at an earlier read failure
            for result in iter_item(item, self.config, self.stats):
                yield result
                if isinstance(result, ReadFailure) and isinstance(item, FolderItem):
                    self.merger.stop(group)  # the folder's scan ends here, as in one pass
        yield from self.drain()


def _runs_here(item: WorkItem) -> bool:
    # Items the parent runs itself, streaming (see the module notes).
    if isinstance(item, TextTailItem):
        return True
    if isinstance(item, PathItem):
        return item.path == "-" or is_special(item.path) or _is_long(regular_size(item.path))
    if isinstance(item, FolderItem) and len(item.files) == 1:
        return _is_long(regular_size(item.files[0]))
    return False


def _is_long(size: int | None) -> bool:
    # A regular file of this size may stream as one long message (see STREAM_MIN_BYTES).
    return size is not None and size > STREAM_MIN_BYTES


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
    render: RenderSpec | None = None,
) -> Iterator[Result | Rendered]:
    """Scan paths in ``jobs`` worker processes; yield what one process would, in order.

    Nothing runs until the iterator is first advanced; worker processes start with the
    first item sent to them and stop when the iterator ends or is closed.

    Args:
        paths: files, folders (Maildir, MH, news spool) or ``-`` (read in this process).
        config: input kind, mail options, schemes and policy.
        stats: counters, updated as results are yielded; their totals at the end equal
            those of a sequential scan.
        jobs: worker processes (at least 1).
        batch_bytes: bytes per range, batch or folder batch (see the module notes).
        batch_messages: most messages per mbox batch, and files per folder batch.
        window: most items queued or running at once (default ``2 * jobs``); it bounds
            how far ahead of the output the input is read.
        mp_context: multiprocessing context (start method) of the workers; default the
            platform's.
        render: the workers write their items' URLs in this format and give back
            :class:`~urlsift.engines.render.Rendered` pieces instead of the records
            (:mod:`.render`); items run here still give records.

    Returns:
        An iterator of :data:`~urlsift.engines.runner.Result` records, in the order of
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
    cuts = Cuts(
        range_bytes=batch_bytes,
        stream_range_bytes=STREAM_BATCHES * batch_bytes,
        folder_files=batch_messages,
        folder_bytes=batch_bytes,
        long_bytes=STREAM_MIN_BYTES,
        text_chars=max(1, batch_bytes // TEXT_PIECE_DIVISOR),
        text_pieces=MAX_TEXT_PIECES,
        # One archive alone: the parent cuts it into batches, so it spreads over every
        # worker; among several paths every worker has work without that.
        batches=len(paths) == 1,
        whole_text=len(paths) == 1,
        batch_bytes=batch_bytes,
        batch_messages=batch_messages,
    )
    workers = worker_count(jobs)
    scheduler = _Scheduler(
        config,
        stats,
        workers,
        WINDOW_PER_JOB * workers if window is None else window,
        mp_context,
        render,
    )
    try:
        yield from scheduler.run(paths, cuts)
    finally:
        scheduler.close()
