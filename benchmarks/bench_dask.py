"""Scaling of the Dask engine: 1 vs 2 workers of a LocalCluster on big mbox archives.

Usage::

    .venv/bin/pip install -e '.[dask]'
    .venv/bin/python benchmarks/bench_dask.py [--mb 50 200] [--workers 1 2] [--range-mib 4]
        [--no-local]

For each size in ``--mb``, writes one uncompressed mbox of at least that many MB (the
shared archives of ``$URLSIFT_CORPORA/mbox`` decompressed and concatenated in turn) to a
temporary folder, then for each worker count starts a ``distributed.LocalCluster``
(worker processes, one thread each, loopback) and times: the cluster's start-up (until its
workers are up and a client is connected), the scan of the whole archive (every record
brought back to this process, as ``urlsift scan --engine dask`` does), the CPU time the
workers spent (all of them, from ``time.process_time`` in each worker before and after)
and each worker's peak resident memory (``VmHWM`` of ``/proc/self/status``, read in the
workers after the run; Linux): run at two sizes, the peak shows whether a worker's memory
grows with the file. (The local run's peak is not shown: this process also builds the
archive and holds every record.)
With ``--no-local`` the one-process run (``--engine local``) is skipped; otherwise it is
timed too (wall and CPU), and every Dask run is checked against it: same records, same
statistics.
"""

from __future__ import annotations

import argparse
import gzip
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import distributed

from urlsift.engines.dask import iter_results_dask, local_cluster
from urlsift.engines.plan import DEFAULT_RANGE_BYTES
from urlsift.engines.runner import Result, ScanConfig, iter_results
from urlsift.sources.archive import ArchiveStats

SHARED = Path(os.environ.get("URLSIFT_CORPORA", "/work/shared/corpora")) / "mbox"
MB = 1_000_000


def make_archive(path: Path, size: int) -> None:
    """Write the shared archives, decompressed, in turn until ``size`` bytes."""
    sources = [gzip.decompress(p.read_bytes()) for p in sorted(SHARED.glob("*.mbox.gz"))]
    if not sources:
        raise SystemExit(f"no archives in {SHARED}")
    written = 0
    turn = 0
    with path.open("wb") as out:
        while written < size:
            data = sources[turn % len(sources)]
            out.write(data)
            written += len(data)
            turn += 1


def _peak_kib() -> int:
    # VmHWM: this process's own peak. (ru_maxrss is not: a spawned worker inherits the
    # figure of the process that started it, here the client holding the records.)
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def _cpu() -> float:
    return time.process_time()


@dataclass(frozen=True, slots=True)
class DaskRun:
    """The figures of one Dask run, with what it gave."""

    startup: float
    seconds: float
    cpu: float
    """CPU seconds of all the workers."""
    peak_kib: int
    """The largest peak resident memory of a worker."""
    results: list[Result]
    stats: ArchiveStats


def run_dask(path: Path, workers: int, range_bytes: int) -> DaskRun:
    """Time one Dask run on a fresh LocalCluster."""
    start = time.perf_counter()
    with local_cluster(workers) as cluster, distributed.Client(cluster) as client:
        client.wait_for_workers(workers)
        startup = time.perf_counter() - start
        before = client.run(_cpu)
        stats = ArchiveStats()
        start = time.perf_counter()
        results = list(
            iter_results_dask(
                [str(path)], ScanConfig(), stats=stats, client=client, range_bytes=range_bytes
            )
        )
        seconds = time.perf_counter() - start
        after = client.run(_cpu)
        peaks = client.run(_peak_kib)
    cpu = sum(after.values()) - sum(before.values())
    return DaskRun(startup, seconds, cpu, max(peaks.values()), results, stats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--range-mib", type=int, default=DEFAULT_RANGE_BYTES >> 20)
    parser.add_argument("--no-local", action="store_true")
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}, range: {args.range_mib} MiB, load: {os.getloadavg()[0]:.2f}")
    print(f"{'MB':>4} {'engine':6} {'workers':>7} {'start s':>8} {'scan s':>7} {'cpu s':>6} "
          f"{'MB/s':>6} {'x':>5} {'peak MiB':>9} {'records':>8}")  # fmt: skip
    for mb in args.mb:
        with tempfile.TemporaryDirectory() as root:
            path = Path(root) / "big.mbox"
            make_archive(path, mb * MB)
            report(path, args)


def report(path: Path, args: argparse.Namespace) -> None:
    size = path.stat().st_size / MB
    reference: tuple[list[Result], ArchiveStats] | None = None
    base = 0.0
    if not args.no_local:
        stats = ArchiveStats()
        start, cpu = time.perf_counter(), time.process_time()
        results = list(iter_results([str(path)], ScanConfig(), stats=stats))
        base = time.perf_counter() - start
        cpu = time.process_time() - cpu
        reference = (results, stats)
        print(f"{size:>4.0f} {'local':6} {1:>7} {0:>8.2f} {base:>7.2f} {cpu:>6.2f} "
              f"{size / base:>6.1f} {1:>5.2f} {'-':>9} "
              f"{len(results):>8}")  # fmt: skip
    for workers in args.workers:
        run = run_dask(path, workers, args.range_mib << 20)
        if reference is None:
            reference, base = (run.results, run.stats), run.seconds
        elif (run.results, run.stats) != reference:
            raise SystemExit(f"dask with {workers} workers differs from the reference")
        print(f"{size:>4.0f} {'dask':6} {workers:>7} {run.startup:>8.2f} {run.seconds:>7.2f} "
              f"{run.cpu:>6.2f} {size / run.seconds:>6.1f} {base / run.seconds:>5.2f} "
              f"{run.peak_kib / 1024:>9.0f} {len(run.results):>8}")  # fmt: skip


if __name__ == "__main__":
    main()
