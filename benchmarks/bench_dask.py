"""Scaling of the Dask engine: 1 vs 2 workers of a LocalCluster on one big mbox.

Usage::

    .venv/bin/pip install -e '.[dask]'
    .venv/bin/python benchmarks/bench_dask.py [--mb 200] [--workers 1 2] [--range-mib 4]
        [--no-local]

Writes one uncompressed mbox of at least ``--mb`` MB (the shared archives of
``$URLSIFT_CORPORA/mbox`` decompressed and concatenated in turn) to a temporary folder, then
for each worker count starts a ``distributed.LocalCluster`` (worker processes, one thread
each, loopback) and times: the cluster's start-up (until its workers are up and a client is
connected), the scan of the whole archive (every record brought back to this process, as
``urlsift scan --engine dask`` does), and each worker's peak resident memory (``ru_maxrss``,
read in the workers after the run). With ``--no-local`` the one-process run
(``--engine local``) is skipped; otherwise it is timed too, and every Dask run is checked
against it: same records, same statistics.
"""

from __future__ import annotations

import argparse
import gzip
import os
import resource
import tempfile
import time
from pathlib import Path

import distributed

from urlsift.dask import iter_results_dask, local_cluster
from urlsift.plan import DEFAULT_RANGE_BYTES
from urlsift.runner import Result, ScanConfig, iter_results
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
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def run_dask(
    path: Path, workers: int, range_bytes: int
) -> tuple[float, float, int, list[Result], ArchiveStats]:
    """Return (start-up s, scan s, largest worker peak KiB, records, statistics)."""
    start = time.perf_counter()
    with local_cluster(workers) as cluster, distributed.Client(cluster) as client:
        client.wait_for_workers(workers)
        startup = time.perf_counter() - start
        stats = ArchiveStats()
        start = time.perf_counter()
        results = list(
            iter_results_dask(
                [str(path)], ScanConfig(), stats=stats, client=client, range_bytes=range_bytes
            )
        )
        seconds = time.perf_counter() - start
        peaks = client.run(_peak_kib)
    return startup, seconds, max(peaks.values()), results, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--range-mib", type=int, default=DEFAULT_RANGE_BYTES >> 20)
    parser.add_argument("--no-local", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        path = Path(root) / "big.mbox"
        make_archive(path, args.mb * MB)
        size = path.stat().st_size / MB
        print(f"cpus: {os.cpu_count()}, archive: {size:.0f} MB, range: {args.range_mib} MiB")
        print(f"{'engine':10} {'workers':>7} {'start s':>8} {'scan s':>7} {'MB/s':>6} "
              f"{'x':>5} {'peak MiB':>9} {'records':>8}")  # fmt: skip
        reference: tuple[list[Result], ArchiveStats] | None = None
        base = 0.0
        if not args.no_local:
            stats = ArchiveStats()
            start = time.perf_counter()
            results = list(iter_results([str(path)], ScanConfig(), stats=stats))
            base = time.perf_counter() - start
            reference = (results, stats)
            print(f"{'local':10} {1:>7} {0:>8.2f} {base:>7.2f} {size / base:>6.1f} "
                  f"{1:>5.2f} {_peak_kib() / 1024:>9.0f} {len(results):>8}")  # fmt: skip
        for workers in args.workers:
            startup, seconds, peak, results, stats = run_dask(path, workers, args.range_mib << 20)
            if reference is None:
                reference, base = (results, stats), seconds
            elif (results, stats) != reference:
                raise SystemExit(f"dask with {workers} workers differs from the reference")
            print(f"{'dask':10} {workers:>7} {startup:>8.2f} {seconds:>7.2f} "
                  f"{size / seconds:>6.1f} {base / seconds:>5.2f} {peak / 1024:>9.0f} "
                  f"{len(results):>8}")  # fmt: skip


if __name__ == "__main__":
    main()
