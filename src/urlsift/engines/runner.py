"""Run a scan over paths and give one ordered stream of results, whatever the engine.

The layers read in one direction: :mod:`urlsift.engines.plan` (what to scan, as data) ->
:mod:`urlsift.engines.work` (the records, and how one item is opened, cut into units, scanned and
judged; :class:`~urlsift.engines.work.Merger` puts items back together) -> the engines that run
the items: this process (:func:`iter_sequential`, each path one item), a pool of worker
processes (:mod:`.processes`, ``jobs > 1``) or a Dask cluster (:mod:`.dask`,
with the ``dask`` extra). Every engine gives the same records in the same order. The
record types are defined in :mod:`urlsift.engines.work` and re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, overload

from .._model import READ_ERROR_CODES, ReadFailure, Result, UnitDefects
from ..errors import failure_reason
from ..sources.reading import ArchiveStats
from .work import ScanConfig, iter_sequential, scan_text_units

if TYPE_CHECKING:
    from .render import Rendered, RenderSpec

__all__ = [
    "READ_ERROR_CODES",
    "ReadFailure",
    "Result",
    "ScanConfig",
    "UnitDefects",
    "failure_reason",
    "iter_results",
    "iter_sequential",
    "scan_text_units",
]


@overload
def iter_results(
    paths: Sequence[str],
    config: ScanConfig | None = None,
    *,
    stats: ArchiveStats | None = None,
    jobs: int = 1,
    render: None = None,
) -> Iterator[Result]: ...


@overload
def iter_results(
    paths: Sequence[str],
    config: ScanConfig | None = None,
    *,
    stats: ArchiveStats | None = None,
    jobs: int = 1,
    render: RenderSpec | None,
) -> Iterator[Result | Rendered]: ...


def iter_results(
    paths: Sequence[str],
    config: ScanConfig | None = None,
    *,
    stats: ArchiveStats | None = None,
    jobs: int = 1,
    render: RenderSpec | None = None,
) -> Iterator[Result | Rendered]:
    """Scan paths (``-`` is standard input) and yield every result in input order.

    Args:
        paths: files, folders or ``-``. A Maildir, MH folder or news spool is one
            archive; any other folder is walked, each file read by its own kind, binary
            files skipped (:func:`urlsift.sources.tree.expand_paths`).
        config: input kind, mail options, schemes and policy.
        stats: counters updated as messages are read (for progress and the summary).
        jobs: worker processes; with more than one, files and large mbox archives are
            scanned in parallel and the results come back in the same order.
        render: with ``jobs`` > 1, the workers write their items' URLs in this format
            and give back :class:`~urlsift.engines.render.Rendered` pieces in their
            place (:mod:`urlsift.engines.render`); what runs in this process still gives
            records.

    Returns:
        An iterator of :data:`Result` records.
    """
    config = config if config is not None else ScanConfig()
    stats = stats if stats is not None else ArchiveStats()
    if jobs > 1:
        # Imported here only to keep a one-process scan's start-up light (the pool brings
        # multiprocessing); parallel never imports this module, so this is no cycle.
        from .processes import iter_results_parallel

        return iter_results_parallel(paths, config, stats=stats, jobs=jobs, render=render)
    return iter_sequential(paths, config, stats)
