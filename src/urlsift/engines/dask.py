"""Scan on a Dask cluster: the plan's items as tasks, the records as a bag or a data frame.

Needs the ``dask`` extra (``pip install 'urlsift[dask]'``: dask, distributed, pyarrow,
fsspec); a plain install never imports this module.

The engine adds execution only: the items are those of :func:`urlsift.engines.plan.plan_paths`,
the plan every engine runs (byte ranges of uncompressed mbox archives, a few ranges of a
compressed one's decompressed stream, batches of a folder's message files, pieces of a
plain-text file cut at blank lines, whole paths), each run by
:func:`urlsift.engines.work.run_item` in a worker, one partition per item, in plan order. The
plan is made here, on the client: it reads nothing but the first bytes of each file,
except plain text, which it reads and cuts into pieces (shipped with the tasks). The
partitions are merged as one pass gives them (a range's local message numbers become the
file's; a read error that ends a folder's scan in one pass ends it here too): by the
client with :class:`urlsift.engines.work.Merger` when the records come back to it
(:func:`iter_results_dask`, one task per item, a few per worker submitted ahead so that
the workers' memory stays bounded), or on the cluster when they do not (the bag, the
frame and the Parquet files: a small second task per item takes the message counts of
the file's earlier ranges, so every partition holds exactly the records one pass gives
for that piece).

Paths are local files and folders, or fsspec URLs (``memory://``, ``s3://``...). A
relative path is joined to the client's working folder before its task travels (a worker
has a working folder of its own), and the records still name it as given. An
uncompressed mbox behind a URL is cut into byte ranges as a local one (each worker opens
the URL and reads only its range); any other URL is one task that copies the file to the
worker's local disk and reads it there. Records name the URL. A worker killed mid-run
loses nothing: the scheduler runs its tasks again elsewhere (each task is a pure function
of its item).

* :func:`records_bag`: a :class:`dask.bag.Bag` of :class:`~urlsift.Url`,
  :class:`~urlsift.engines.work.UnitDefects` and :class:`~urlsift.engines.work.ReadFailure` records.
* :func:`records_frame`: a :class:`dask.dataframe.DataFrame` with the Parquet schema
  (:func:`urlsift.output.parquet.schema`, documented in ``docs/parquet.md``); read failures
  are not rows.
* :func:`iter_results_dask`: the records in output order, with the statistics merged
  as partitions arrive (``urlsift scan --engine dask`` with ``--unique`` or ``--count``).
* :func:`iter_rendered_dask`: the same, but each worker writes its partition's URLs in
  the command's format and sends back text (:mod:`urlsift.engines.render`): what
  ``urlsift scan --engine dask`` runs for text, JSON Lines and CSV. The client then does
  one write per partition instead of unpickling, renumbering and formatting every
  record, so it takes less of the CPU the workers share with it.
* :func:`write_parquet_dask`: each worker writes its partitions as Parquet files, one
  per partition (``urlsift scan --engine dask --format parquet --output DIR``); only a
  small summary per partition comes back.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import stat
import tempfile
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

import dask.bag
from dask.delayed import Delayed, delayed

from .._model import READ_ERROR_CODES, ReadFailure, Result, UnitDefects, Url
from ..errors import ConfigError
from ..sources.compress import sniff_compression
from ..sources.kinds import SNIFF_BYTES, sniff_kind
from ..sources.mbox import MMDF_DELIMITER
from ..sources.reading import ArchiveStats
from .plan import (
    DEFAULT_FOLDER_BATCH,
    DEFAULT_RANGE_BYTES,
    TAPER_PER_WORKER,
    TEXT_PIECE_DIVISOR,
    Cuts,
    FolderItem,
    PathItem,
    RangeItem,
    TextTailItem,
    WorkItem,
    add_stats,
    plan_ranges,
)
from .plan import plan_paths as _plan_paths
from .render import Rendered, RenderSpec, finish, render
from .work import (
    ItemResults,
    Merger,
    ScanConfig,
    is_url,
    run_item,
    shift,
)

_bag: Any = dask.bag  # dask's own functions are untyped: one typed entry point

__all__ = [
    "CLUSTER_CONFIG",
    "CLUSTER_RANGE_BYTES",
    "RANGES_PER_WORKER",
    "RemoteItem",
    "RootedItem",
    "Written",
    "check_protocol",
    "cluster_range_bytes",
    "iter_rendered_dask",
    "iter_results_dask",
    "local_cluster",
    "plan",
    "records_bag",
    "records_frame",
    "write_parquet_dask",
]

STREAM_RANGES = 2
"""A compressed mbox is cut into pieces of ``STREAM_RANGES * range_bytes`` decompressed
bytes (at most :data:`urlsift.engines.plan.DEFAULT_STREAM_PIECES` of them)."""

CLUSTER_RANGE_BYTES = 16 << 20
"""Most nominal bytes per range of an uncompressed mbox that :func:`cluster_range_bytes`
picks (16 MiB: about a quarter of a second of scanning)."""

RANGES_PER_WORKER = 8
"""Ranges per worker :func:`cluster_range_bytes` aims at, so the workers finish together
(the last range of one ends about an eighth of its share after the others, at worst)."""


def cluster_range_bytes(paths: Sequence[str], workers: int) -> int:
    """The nominal range size for a scan of ``paths`` on ``workers`` workers.

    Each task costs the cluster a fixed price besides its scan: the client (which on a
    ``LocalCluster`` also runs the scheduler) and the worker each spend a few
    milliseconds of CPU on it (update of the graph, task messages, results sent), CPU the
    workers share with the client on the same cores. At 4 MiB ranges (about 60 ms of
    scanning) cost about a sixth of the run's CPU (client and workers) at 205 MB; so
    ranges are as large as :data:`CLUSTER_RANGE_BYTES` when the input has enough of them
    for every worker (:data:`RANGES_PER_WORKER` each), and smaller, down to
    :data:`~urlsift.engines.plan.DEFAULT_RANGE_BYTES`, when it has not. The input's size is
    that of the local regular files among ``paths`` (a folder is cut into batches of
    files and a URL is not sized here, whatever the range size).
    """
    total = 0
    for path in paths:
        if is_url(path):
            continue
        with contextlib.suppress(OSError):
            found = os.stat(path)
            if stat.S_ISREG(found.st_mode):
                total += found.st_size
    share = total // (max(1, workers) * RANGES_PER_WORKER)
    return max(DEFAULT_RANGE_BYTES, min(CLUSTER_RANGE_BYTES, share))


def _workers(client: Any) -> int:
    # The workers of a connected client's cluster (at least 1).
    return len(client.scheduler_info().get("workers", {})) or 1


def _cluster_cuts(paths: Sequence[str], client: Any, range_bytes: int | None) -> tuple[int, int]:
    # The range size (the given one, or cluster_range_bytes for the client's workers) and
    # the taper of the ranges toward the end of each file, for those workers.
    workers = _workers(client)
    if range_bytes is None:
        range_bytes = cluster_range_bytes(paths, workers)
    return range_bytes, TAPER_PER_WORKER * workers


Piece = tuple[list[Result], ArchiveStats]
"""What one partition's task gives: its records and the statistics it counted."""


@dataclasses.dataclass(frozen=True, slots=True)
class RemoteItem:
    """A file behind an fsspec URL, read whole by a worker."""

    url: str


CLUSTER_CONFIG: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "500ms",
}
"""Dask settings of the LocalCluster :func:`local_cluster` starts (see there)."""


def local_cluster(workers: int) -> Any:
    """Start a ``distributed.LocalCluster`` of ``workers`` worker processes on this machine.

    One thread each (the scan is pure Python: threads would share one interpreter lock),
    on the loopback interface, without a dashboard, and so without the workers'
    statistical profiler, which only feeds it (about 2 % of their CPU time). Every port is
    a free one the system picks: the scheduler's, and its HTTP server's, which
    ``distributed`` otherwise tries on 8787 even without a dashboard (and warns when
    another cluster on the host holds it). Close it (or use ``with``) when done.

    Two timers run less often than ``distributed``'s defaults (:data:`CLUSTER_CONFIG`):
    every server's event-loop health tick (20 ms: it only feeds the "event loop was
    unresponsive" warning, which still comes after 3 s) and the nannies' poll of their
    worker's memory (100 ms; the memory limit is still enforced, half a second later at
    most). Idle, they cost this process (where the scheduler and the nannies of a
    LocalCluster run) about 6 % of a core, and each worker 2 %; with these, 1.4 % and
    0.5 %. That is CPU time the client takes from the workers on the same cores.
    """
    import dask
    import distributed

    cluster: Any = distributed.LocalCluster
    # Set here for this process (scheduler, nannies), and given to every nanny for its
    # worker process (a worker it starts again after a crash gets them too). Dotted keys:
    # the nanny merges them into a copy of the whole configuration one level deep, and
    # the worker sets each key at its place.
    with dask.config.set(CLUSTER_CONFIG):
        return cluster(
            config=dict(CLUSTER_CONFIG),
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            scheduler_port=0,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        )


def plan(
    paths: Sequence[str],
    config: ScanConfig,
    stats: ArchiveStats | None = None,
    *,
    range_bytes: int = DEFAULT_RANGE_BYTES,
    folder_batch: int = DEFAULT_FOLDER_BATCH,
    taper: int = 0,
) -> list[WorkItem | RemoteItem]:
    """Return the items of a scan, in output order (see :func:`urlsift.engines.plan.plan_paths`).

    ``taper``: the ranges of an uncompressed mbox shrink toward its end (see
    :func:`urlsift.engines.plan.plan_ranges`); the client's functions below pass
    :data:`~urlsift.engines.plan.TAPER_PER_WORKER` times the cluster's workers.

    Raises:
        ValueError: for ``-`` (standard input cannot be read by a worker).
        ConfigError: an fsspec URL whose protocol cannot be served (:func:`check_protocol`).
    """
    if "-" in paths:
        raise ValueError("the dask engine cannot read standard input ('-')")
    stats = stats if stats is not None else ArchiveStats()
    items: list[WorkItem | RemoteItem] = []
    local: list[str] = []

    cuts = Cuts(
        range_bytes=range_bytes,
        stream_range_bytes=STREAM_RANGES * range_bytes,
        folder_files=folder_batch,
        text_chars=max(1, range_bytes // TEXT_PIECE_DIVISOR),
        taper=taper,
    )

    def flush() -> None:
        items.extend(_plan_paths(local, config, stats, cuts, config.options))
        local.clear()

    for path in paths:
        if is_url(path):
            check_protocol(path)
        if is_url(path):
            flush()
            items.extend(_plan_url(path, config.kind, range_bytes, taper))
        else:
            local.append(path)
    flush()
    return items


def check_protocol(url: str) -> None:
    """Refuse an fsspec URL whose protocol fsspec cannot serve here, before any task runs.

    Raises:
        ConfigError: the protocol is unknown (``foo://``), or its backend is not installed
            (``s3://`` without s3fs, ``http://`` without aiohttp): the message says which.
    """
    import fsspec

    for link in url.split("::"):  # a chained URL (simplecache::s3://...) needs each one
        protocol = fsspec.core.split_protocol(link)[0] or "file"
        try:
            fsspec.get_filesystem_class(protocol)
        except (ImportError, ValueError) as exc:
            reason = f"fsspec cannot serve {protocol}:// here ({exc})"
            raise ConfigError("path", url, reason) from None


def _plan_url(url: str, kind: str, range_bytes: int, taper: int) -> list[WorkItem | RemoteItem]:
    # An uncompressed mbox behind a URL is cut into byte ranges, as a local one (a worker
    # reads only its range); anything else is one item, copied whole by a worker.
    import fsspec

    try:
        filesystem, target = fsspec.core.url_to_fs(url)
        size = int(filesystem.size(target))
        with filesystem.open(target, "rb") as stream:
            head = stream.read(SNIFF_BYTES)
    except (OSError, ValueError):
        return [RemoteItem(url)]  # its run reports the error
    mbox = kind == "mbox" or (kind == "auto" and sniff_kind(head) == "mbox")
    if mbox and sniff_compression(head) == "none" and not head.startswith(MMDF_DELIMITER):
        return list(plan_ranges(url, size, range_bytes, taper))
    return [RemoteItem(url)]


def _run_remote(item: RemoteItem, config: ScanConfig, stats: ArchiveStats) -> ItemResults:
    import fsspec

    folder = tempfile.mkdtemp(prefix="urlsift-")
    try:
        local = os.path.join(folder, os.path.basename(item.url.rstrip("/")) or "file")
        try:
            with fsspec.open(item.url, "rb") as source, open(local, "wb") as target:
                shutil.copyfileobj(source, target)
        except OSError as exc:
            return ItemResults([ReadFailure(item.url, exc.strerror or str(exc))], 0)
        except (ImportError, ValueError) as exc:  # this worker lacks the protocol's backend
            return ItemResults([ReadFailure(item.url, str(exc))], 0)
        done = run_item(PathItem(local), config, stats)
        return ItemResults([_rename(r, local, item.url) for r in done.results], 0)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _rename(result: Result, local: str, url: str) -> Result:
    if isinstance(result, ReadFailure):
        return replace(result, path=url) if result.path == local else result
    return replace(result, source=url) if result.source == local else result


@dataclasses.dataclass(frozen=True, slots=True)
class RootedItem:
    """A planned item whose relative paths were joined to the client's working folder.

    A worker has a working folder of its own (on a cluster, another machine's): it opens
    the joined paths, and its records name the paths as given, as one process names them.
    """

    item: WorkItem
    root: str
    """The client's working folder."""


def _relative(path: str) -> bool:
    return not os.path.isabs(path) and not is_url(path)


def _rooted(item: WorkItem | RemoteItem, root: str) -> WorkItem | RemoteItem | RootedItem:
    # The item a worker can run wherever it is: relative paths joined to ``root`` (not
    # normalised, so that taking the prefix off again gives the path exactly as given).
    if isinstance(item, PathItem | RangeItem | TextTailItem) and _relative(item.path):
        return RootedItem(replace(item, path=os.path.join(root, item.path)), root)
    if isinstance(item, FolderItem) and _relative(item.folder):
        files = tuple(os.path.join(root, name) for name in item.files)
        return RootedItem(replace(item, folder=os.path.join(root, item.folder), files=files), root)
    return item


def _unrooted(result: Result, prefix: str) -> Result:
    if isinstance(result, ReadFailure):
        path = result.path
        return replace(result, path=path[len(prefix) :]) if path.startswith(prefix) else result
    source = result.source
    return replace(result, source=source[len(prefix) :]) if source.startswith(prefix) else result


def _run(
    item: WorkItem | RemoteItem | RootedItem, config: ScanConfig
) -> tuple[ItemResults, ArchiveStats]:
    stats = ArchiveStats()
    if isinstance(item, RemoteItem):
        return _run_remote(item, config, stats), stats
    if isinstance(item, RootedItem):
        done = run_item(item.item, config, stats)
        prefix = os.path.join(item.root, "")
        results = [_unrooted(result, prefix) for result in done.results]
        return dataclasses.replace(done, results=results), stats
    return run_item(item, config, stats), stats


def _messages(done: tuple[ItemResults, ArchiveStats]) -> int:
    return done[0].messages


def _stopped(done: tuple[ItemResults, ArchiveStats]) -> bool:
    return done[0].stopped


def _finish(done: tuple[ItemResults, ArchiveStats], base: int, dropped: bool) -> Piece:
    # The partition's records numbered as in one pass; none when one pass never reads it.
    results, stats = done
    if dropped:
        return [], ArchiveStats()
    if base:
        return [shift(r, base) for r in results.results], stats
    return results.results, stats


def _pieces(items: list[WorkItem | RemoteItem], config: ScanConfig) -> list[Delayed]:
    """One delayed :data:`Piece` per item, in order, merged on the cluster.

    What :class:`urlsift.engines.work.Merger` does on a client, as tasks: a range's base number
    is the sum of the message counts of its group's earlier ranges; a folder batch gives
    nothing when an earlier batch of its group stopped the folder's scan.
    """
    pieces: list[Delayed] = []
    merger = Merger()  # only its grouping: the tasks merge
    counts: list[Delayed] = []  # message counts of the current group's earlier ranges
    stops: list[Delayed] = []  # whether an earlier batch of the current group stopped it
    current: object | None = None
    root = os.getcwd()
    for item in items:
        done = delayed(_run, pure=True)(_rooted(item, root), config)
        group = merger.group(item)
        if group is None or group is not current:
            counts, stops, current = [], [], group
        base = delayed(sum, pure=True)(counts) if counts else 0
        dropped = delayed(any, pure=True)(stops) if stops else False
        pieces.append(delayed(_finish, pure=True)(done, base, dropped))
        if isinstance(item, RangeItem):
            counts = [*counts, delayed(_messages, pure=True)(done)]
        if isinstance(item, FolderItem):
            stops = [*stops, delayed(_stopped, pure=True)(done)]
    return pieces


def _records(piece: Piece) -> list[Result]:
    return piece[0]


def records_bag(
    paths: Sequence[str],
    config: ScanConfig | None = None,
    *,
    range_bytes: int = DEFAULT_RANGE_BYTES,
    folder_batch: int = DEFAULT_FOLDER_BATCH,
) -> Any:
    """Return a ``dask.bag.Bag`` of the records of ``paths``, one partition per item, in order.

    Planning (listing folders, sniffing and sizing files) happens now, in this process;
    scanning happens when the bag is computed, on whatever scheduler is active.
    """
    config = config if config is not None else ScanConfig()
    items = plan(paths, config, range_bytes=range_bytes, folder_batch=folder_batch)
    parts = [delayed(_records, pure=True)(piece) for piece in _pieces(items, config)]
    if not parts:
        return _bag.from_sequence([], npartitions=1)
    return _bag.from_delayed(parts)


def _pandas(table: Any) -> Any:
    # Arrow-backed columns: lists, maps and nullable columns keep their types.
    import pandas

    return table.to_pandas(types_mapper=pandas.ArrowDtype)


def _frame(records: list[Result]) -> Any:
    from ..output.parquet import records_table

    return _pandas(records_table(records))


def records_frame(
    paths: Sequence[str],
    config: ScanConfig | None = None,
    *,
    range_bytes: int = DEFAULT_RANGE_BYTES,
    folder_batch: int = DEFAULT_FOLDER_BATCH,
) -> Any:
    """Return a :class:`dask.dataframe.DataFrame` of the records (the Parquet schema).

    One partition per planned item; ``record`` is ``url`` or ``defects``; read failures
    are left out (use :func:`records_bag` to see them).
    """
    import dask.dataframe

    dd: Any = dask.dataframe

    from ..output.parquet import schema

    bag = records_bag(paths, config, range_bytes=range_bytes, folder_batch=folder_batch)
    meta = _pandas(schema().empty_table())
    return dd.from_delayed(
        [delayed(_frame, pure=True)(part) for part in bag.to_delayed()], meta=meta
    )


TASKS_PER_WORKER = 4
"""Tasks submitted ahead per worker: enough to keep every worker busy while the client
takes the results in order; it bounds what the workers hold for the client."""


def _in_order(
    client: Any,
    tasks: list[Delayed],
    on_task: Callable[[int, int], None] | None,
    windowed: bool = True,
) -> Iterator[Any]:
    # Give back the tasks' values in order, releasing each future once its value is here.
    # Windowed (independent tasks with large values): at most TASKS_PER_WORKER tasks per
    # worker are submitted ahead of the one the client waits for, so what the workers hold
    # for the client stays bounded whatever the number of tasks (submitted at once, a
    # worker could hold every partition's records until the client took them). Not
    # windowed: every task at once, for tasks that share dependencies (which a later
    # submission would compute again once released) and give small values.
    ahead = max(2, TASKS_PER_WORKER * _workers(client)) if windowed else len(tasks)
    pending: deque[Any] = deque()
    submitted = 0
    try:
        for index in range(len(tasks)):
            if submitted < len(tasks) and len(pending) < ahead:
                batch = tasks[submitted : submitted + ahead - len(pending)]
                pending.extend(client.compute(batch))
                submitted += len(batch)
            future = pending.popleft()
            value = future.result()
            future.release()
            del future
            if on_task is not None:
                on_task(index + 1, len(tasks))
            yield value
    finally:
        with contextlib.suppress(Exception):
            client.cancel(list(pending))


def iter_results_dask(
    paths: Sequence[str],
    config: ScanConfig,
    *,
    stats: ArchiveStats,
    client: Any,
    range_bytes: int | None = None,
    folder_batch: int = DEFAULT_FOLDER_BATCH,
    on_task: Callable[[int, int], None] | None = None,
) -> Iterator[Result]:
    """Scan on the cluster of a ``distributed.Client``; yield the records in output order.

    Tasks are submitted a few per worker ahead of the output (:data:`TASKS_PER_WORKER`);
    records are yielded partition by partition in plan order as they arrive, each
    partition's statistics merged into ``stats`` then.

    Args:
        paths: local paths (readable by the workers at the same names) or fsspec URLs.
        config: input kind, mail options, schemes and policy.
        stats: counters, updated as partitions are yielded.
        client: a connected ``distributed.Client``.
        range_bytes: nominal bytes per range of an uncompressed mbox (default:
            :func:`cluster_range_bytes` of ``paths`` for the client's workers); the last
            ranges of each file shrink for the workers to finish together
            (:func:`urlsift.engines.plan.plan_ranges`).
        folder_batch: message files per folder batch.
        on_task: called with (partitions done, partitions) as each one is yielded.
    """
    range_bytes, taper = _cluster_cuts(paths, client, range_bytes)
    items = plan(
        paths, config, stats, range_bytes=range_bytes, folder_batch=folder_batch, taper=taper
    )
    # One task per item; the client merges (renumbers ranges, ends folder scans), which
    # keeps the graph small: no second task per item.
    merger = Merger()
    groups = [merger.group(item) for item in items]
    root = os.getcwd()
    tasks = [delayed(_run, pure=True)(_rooted(item, root), config) for item in items]
    for item, group, (done, delta) in zip(
        items, groups, _in_order(client, tasks, on_task), strict=True
    ):
        if not merger.dropped(group):
            add_stats(stats, delta)
        yield from merger.merge(item, group, done)


Outcome = tuple[Rendered, ArchiveStats, int, bool]
"""What a rendering task gives: its piece, the statistics it counted, the messages a range
read, whether a folder's scan ended."""


def _run_rendered(
    item: WorkItem | RemoteItem | RootedItem, config: ScanConfig, spec: RenderSpec, local: bool
) -> Outcome:
    # Runs on a worker: the item's records laid out as the command writes them.
    done, stats = _run(item, config)
    return render(done.results, spec, local), stats, done.messages, done.stopped


def iter_rendered_dask(
    paths: Sequence[str],
    config: ScanConfig,
    spec: RenderSpec,
    *,
    stats: ArchiveStats,
    client: Any,
    range_bytes: int | None = None,
    folder_batch: int = DEFAULT_FOLDER_BATCH,
    on_task: Callable[[int, int], None] | None = None,
) -> Iterator[Rendered]:
    """As :func:`iter_results_dask`, but each worker writes its item's URLs itself.

    Yields :class:`~urlsift.engines.render.Rendered` pieces (the text ``spec`` asks for,
    with the defect records and read failures in place; message numbers final), in
    output order (see :mod:`urlsift.engines.render`). Writing the pieces as the command
    does writes the bytes it writes from :func:`iter_results_dask`'s records.
    """
    range_bytes, taper = _cluster_cuts(paths, client, range_bytes)
    items = plan(
        paths, config, stats, range_bytes=range_bytes, folder_batch=folder_batch, taper=taper
    )
    merger = Merger()
    groups = [merger.group(item) for item in items]
    root = os.getcwd()
    tasks = [
        delayed(_run_rendered, pure=True)(_rooted(item, root), config, spec, _local(item))
        for item in items
    ]
    for item, group, (out, delta, messages, stopped) in zip(
        items, groups, _in_order(client, tasks, on_task), strict=True
    ):
        base = merger.advance(item, group, messages, stopped)
        if base is not None:
            add_stats(stats, delta)
            yield finish(out, base)


def _local(item: WorkItem | RemoteItem) -> bool:
    # A range after the file's first numbers its messages from 1 (see engines.render).
    return isinstance(item, RangeItem) and item.start > 0


@dataclasses.dataclass(frozen=True, slots=True)
class Written:
    """What writing one partition's Parquet file gave back to the client."""

    path: str
    """The file written."""
    rows: int
    """Rows written (URLs and defect records)."""
    urls: int
    """URLs found (written or not: ``invalid_only`` leaves the valid ones out)."""
    invalid: int
    """URLs found that break RFC 1738."""
    read_errors: int
    """Defect records saying that part of the input could not be read."""
    failures: tuple[ReadFailure, ...]
    """Paths that could not be read (not rows, as with every writer)."""
    stats: ArchiveStats
    """The statistics the partition counted."""
    defects: tuple[tuple[str, int], ...] = ()
    """Source defects of the partition's defect records by code, in order of first
    appearance (for the summary line: what one process counts from the records)."""


def _write_part(piece: Piece, path: str, invalid_only: bool) -> Written:
    # Runs on a worker: the partition's records to one Parquet file at ``path``.
    from ..output.parquet import PARTIAL_SUFFIX, write_partition

    results, stats = piece
    rows: list[Result] = []
    urls = invalid = read_errors = 0
    defects: dict[str, int] = {}
    for record in results:
        if isinstance(record, Url):
            urls += 1
            invalid += not record.valid
            if invalid_only and record.valid:
                continue
        elif isinstance(record, UnitDefects):
            read_errors += any(d.code in READ_ERROR_CODES for d in record.defects)
            for defect in record.defects:
                defects[defect.code] = defects.get(defect.code, 0) + 1
        else:
            continue
        rows.append(record)
    # Under its temporary name: the client gives the parts their final names when every
    # partition is written (output.parquet.finish_folder).
    partial = path + PARTIAL_SUFFIX
    if is_url(path):
        import fsspec

        filesystem, target = fsspec.core.url_to_fs(partial)
        write_partition(rows, target, filesystem)
    else:
        write_partition(rows, partial)
    failures = tuple(r for r in results if isinstance(r, ReadFailure))
    return Written(
        path, len(rows), urls, invalid, read_errors, failures, stats, tuple(defects.items())
    )


def write_parquet_dask(
    paths: Sequence[str],
    config: ScanConfig,
    directory: str,
    *,
    stats: ArchiveStats,
    client: Any,
    invalid_only: bool = False,
    range_bytes: int | None = None,
    folder_batch: int = DEFAULT_FOLDER_BATCH,
    on_task: Callable[[int, int], None] | None = None,
    overwrite: bool = False,
) -> Iterator[Written]:
    """Scan on the cluster, each worker writing its partitions as Parquet files.

    One file per partition (one partition per planned item), ``part-NNNNN.parquet`` in
    plan order, with the schema of :func:`urlsift.output.parquet.schema`: read in name order,
    the rows are those one process writes, in the same order. Nothing but a small
    :class:`Written` summary comes back to the client. An empty plan writes one empty
    file, so the schema is always there. The folder must be new or empty (or hold an
    earlier urlsift run, with ``overwrite``: :func:`urlsift.output.parquet.prepare_folder`);
    the workers write their parts under temporary names, and once the last is written the
    client gives them their final names and writes the completion marker
    (:func:`urlsift.output.parquet.finish_folder`).

    Args:
        paths: local paths (readable by the workers at the same names) or fsspec URLs.
        config: input kind, mail options, schemes and policy.
        directory: a local folder the workers can write (on one machine, or shared
            storage), or an fsspec URL (``s3://bucket/run``); created if missing.
        stats: counters, updated as partitions are written.
        client: a connected ``distributed.Client``.
        invalid_only: write only the URLs that break RFC 1738 (and the defect records).
        range_bytes: nominal bytes per range of an uncompressed mbox (default:
            :func:`cluster_range_bytes` of ``paths`` for the client's workers); the last
            ranges of each file shrink for the workers to finish together
            (:func:`urlsift.engines.plan.plan_ranges`).
        folder_batch: message files per folder batch.
        on_task: called with (partitions done, partitions) as each one is written.
        overwrite: replace an earlier urlsift run in ``directory`` (only its files).

    Raises:
        ConfigError: the folder is not empty, or holds files urlsift did not write.
        OSError: when the directory cannot be created or written.
    """
    from ..output.parquet import finish_folder, part_name, prepare_folder

    if is_url(directory):
        check_protocol(directory)
    else:
        directory = os.path.abspath(directory)
    prepare_folder(directory, overwrite=overwrite)
    range_bytes, taper = _cluster_cuts(paths, client, range_bytes)
    items = plan(
        paths, config, stats, range_bytes=range_bytes, folder_batch=folder_batch, taper=taper
    )
    pieces = _pieces(items, config)
    if not pieces:
        pieces = [delayed(_empty, pure=True)()]
    names = [part_name(index) for index in range(len(pieces))]
    tasks = [
        delayed(_write_part, pure=True)(piece, f"{directory.rstrip('/')}/{name}", invalid_only)
        for name, piece in zip(names, pieces, strict=True)
    ]
    rows = 0
    for written in _in_order(client, tasks, on_task, windowed=False):
        add_stats(stats, written.stats)
        rows += written.rows
        yield written
    finish_folder(directory, names, rows)


def _empty() -> Piece:
    return [], ArchiveStats()
