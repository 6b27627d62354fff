"""Throughput of ``iter_results`` with one process and with worker processes (``--jobs``).

Usage::

    .venv/bin/python benchmarks/bench_parallel.py [--jobs 1 2] [--repeats N] [--batch-kib K]
        [--sets-only]

For each shared mbox archive (``$URLSIFT_CORPORA/mbox``, default ``/work/shared/corpora``)
and each job count, the whole result stream is consumed and timed; the speed is the
decompressed archive bytes (``ArchiveStats.bytes_read``) per second, best of ``--repeats``
runs (worker start-up included). Every parallel run is checked against the one-process
run: same records, same statistics.

Then three *sets of files* are timed the same way: the ten shared archives as given
(gzip), and eight archives of at least 5 MB each (the shared archives decompressed and
concatenated in turn), once uncompressed (cut into byte ranges by the workers) and once
gzip-compressed (each file at most two ranges of its decompressed stream, see
``urlsift.engines.plan.plan_stream_ranges``). The load average is printed first: on a shared
machine the ratios mean something only when two cores are free.
"""

from __future__ import annotations

import argparse
import gzip
import os
import tempfile
import time
from pathlib import Path

from urlsift.engines import processes as parallel
from urlsift.engines.runner import Result, ScanConfig, iter_results
from urlsift.sources.archive import ArchiveStats

SHARED = Path(os.environ.get("URLSIFT_CORPORA", "/work/shared/corpora")) / "mbox"
ARCHIVES = ("usrp-users-2019.mbox.gz", "linux-mips-2001.mbox.gz")
MB = 1_000_000


SET_FILES = 8
SET_FILE_BYTES = 5 * MB


def run(paths: list[Path], jobs: int, batch_bytes: int) -> tuple[float, list[Result], ArchiveStats]:
    stats = ArchiveStats()
    config = ScanConfig()
    names = [str(path) for path in paths]
    start = time.perf_counter()
    if jobs == 1:
        results = list(iter_results(names, config, stats=stats))
    else:
        results = list(
            parallel.iter_results_parallel(
                names, config, stats=stats, jobs=jobs, batch_bytes=batch_bytes
            )
        )
    return time.perf_counter() - start, results, stats


def make_sets(root: Path) -> dict[str, list[Path]]:
    """Write the eight-archive sets under ``root``; return every set to time."""
    shared = sorted(SHARED.glob("*.mbox.gz"))
    sources = [gzip.decompress(path.read_bytes()) for path in shared]
    plain: list[Path] = []
    packed: list[Path] = []
    turn = 0
    for n in range(SET_FILES):
        parts: list[bytes] = []
        while sum(map(len, parts)) < SET_FILE_BYTES:
            parts.append(sources[turn % len(sources)])
            turn += 1
        data = b"".join(parts)
        plain.append(root / f"set{n}.mbox")
        plain[-1].write_bytes(data)
        packed.append(root / f"set{n}.mbox.gz")
        packed[-1].write_bytes(gzip.compress(data, compresslevel=1))
    return {"shared ten (gz)": shared, "8 x 5 MB mbox": plain, "8 x 5 MB mbox.gz": packed}


def report(name: str, paths: list[Path], args: argparse.Namespace) -> None:
    reference: tuple[list[Result], ArchiveStats] | None = None
    base = 0.0
    for jobs in args.jobs:
        best = float("inf")
        for _ in range(args.repeats):
            seconds, results, stats = run(paths, jobs, args.batch_kib << 10)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-kib", type=int, default=parallel.DEFAULT_BATCH_BYTES >> 10)
    parser.add_argument("--sets-only", action="store_true", help="only the sets of files")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"cpus: {os.cpu_count()}, batch: {args.batch_kib} KiB, load: {load:.2f}")
    print(f"{'archive':28} {'jobs':>4} {'MB':>7} {'results':>8} {'s':>7} {'MB/s':>7} {'x':>5}")
    if not args.sets_only:
        for name in ARCHIVES:
            path = SHARED / name
            if not path.exists():
                print(f"{name:28} missing, skipped")
                continue
            report(name, [path], args)
    if not SHARED.exists():
        print("shared archives missing: sets skipped")
        return
    with tempfile.TemporaryDirectory() as root:
        for name, paths in make_sets(Path(root)).items():
            report(name, paths, args)


if __name__ == "__main__":
    main()
