"""Throughput of ``iter_results`` with one process and with worker processes (``--jobs``).

Usage::

    .venv/bin/python benchmarks/bench_parallel.py [--jobs 1 2] [--repeats N] [--batch-kib K]

For each shared mbox archive (``$URLSIFT_CORPORA/mbox``, default ``/work/shared/corpora``)
and each job count, the whole result stream is consumed and timed; the speed is the
decompressed archive bytes (``ArchiveStats.bytes_read``) per second, best of ``--repeats``
runs (worker start-up included). Every parallel run is checked against the one-process
run: same records, same statistics.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from urlsift import parallel
from urlsift.runner import Result, ScanConfig, iter_results
from urlsift.sources.archive import ArchiveStats

SHARED = Path(os.environ.get("URLSIFT_CORPORA", "/work/shared/corpora")) / "mbox"
ARCHIVES = ("usrp-users-2019.mbox.gz", "linux-mips-2001.mbox.gz")
MB = 1_000_000


def run(path: Path, jobs: int, batch_bytes: int) -> tuple[float, list[Result], ArchiveStats]:
    stats = ArchiveStats()
    config = ScanConfig()
    start = time.perf_counter()
    if jobs == 1:
        results = list(iter_results([str(path)], config, stats=stats))
    else:
        results = list(
            parallel.iter_results_parallel(
                [str(path)], config, stats=stats, jobs=jobs, batch_bytes=batch_bytes
            )
        )
    return time.perf_counter() - start, results, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-kib", type=int, default=parallel.DEFAULT_BATCH_BYTES >> 10)
    args = parser.parse_args()
    print(f"cpus: {os.cpu_count()}, batch: {args.batch_kib} KiB")
    print(f"{'archive':28} {'jobs':>4} {'MB':>7} {'results':>8} {'s':>7} {'MB/s':>7} {'x':>5}")
    for name in ARCHIVES:
        path = SHARED / name
        if not path.exists():
            print(f"{name:28} missing, skipped")
            continue
        reference: tuple[list[Result], ArchiveStats] | None = None
        base = 0.0
        for jobs in args.jobs:
            best = float("inf")
            for _ in range(args.repeats):
                seconds, results, stats = run(path, jobs, args.batch_kib << 10)
                best = min(best, seconds)
            if reference is None:
                reference, base = (results, stats), best
            elif (results, stats) != reference:
                raise SystemExit(f"{name}: jobs={jobs} differs from jobs={args.jobs[0]}")
            mb = stats.bytes_read / MB
            print(
                f"{name:28} {jobs:>4} {mb:>7.1f} {len(results):>8} {best:>7.2f} "
                f"{mb / best:>7.1f} {base / best:>5.2f}"
            )


if __name__ == "__main__":
    main()
