"""Benchmark of the whole mail pipeline: archive in, URL records out.

Strategy: for each archive, time in one run, side by side,

* ``decode``: the source layer alone (decompress, split, MIME-decode every part) - the
  floor for anything that reads mail properly;
* ``scan -j1``: :func:`urlsift.engines.runner.iter_results` with one process (sources, scanner,
  rejoiner, validator), records rendered as JSON Lines into memory;
* ``scan -j2``: the same with two worker processes;
* ``cli -j1`` / ``cli -j2``: ``urlsift scan -q --format jsonl ARCHIVE`` as a subprocess,
  output discarded (start-up included).

Throughput is decompressed MB per second; each figure is the median of ``--repeat`` runs,
and each is also given as a ratio to ``decode`` (the machine is shared and noisy: ratios
move less than seconds). The target is 20 MB/s end to end on plain 1990s mail.

Run: ``.venv/bin/python benchmarks/bench_mail.py [ARCHIVE ...] [--repeat N]``
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from urlsift.engines.runner import ScanConfig, iter_results
from urlsift.output.formats import make_writer
from urlsift.sources.archive import ArchiveStats, open_units

CORPUS = os.environ.get("URLSIFT_CORPORA", "/work/shared/corpora")
DEFAULT_ARCHIVES = (
    os.path.join(CORPUS, "mbox", "linux-mips-2001.mbox.gz"),
    os.path.join(CORPUS, "mbox", "usrp-users-2019.mbox.gz"),
)


def _decode(path: str) -> int:
    stats = ArchiveStats()
    for unit in open_units(path, stats=stats):
        for _chunk in unit.chunks:
            pass
    return stats.bytes_read


def _scan(path: str, jobs: int) -> int:
    stats = ArchiveStats()
    writer = make_writer("jsonl", io.StringIO())
    for result in iter_results([path], ScanConfig(), stats=stats, jobs=jobs):
        if hasattr(result, "url"):
            writer.write(result)  # type: ignore[arg-type]
    return stats.bytes_read


def _cli(path: str, jobs: int) -> int:
    subprocess.run(
        [sys.executable, "-m", "urlsift", "scan", "-q", "--format", "jsonl", "-j", str(jobs), path],
        stdout=subprocess.DEVNULL,
        check=True,
    )
    return 0


def _median_seconds(run: Callable[[], int], repeat: int) -> tuple[float, int]:
    times: list[float] = []
    size = 0
    for _ in range(repeat):
        start = time.perf_counter()
        size = run() or size
        times.append(time.perf_counter() - start)
    return statistics.median(times), size


def main(argv: list[str] | None = None) -> int:
    """Benchmark each archive and print a table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("archives", nargs="*", default=list(DEFAULT_ARCHIVES))
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    args = parser.parse_args(argv)
    status = 0
    print(f"{'archive':<26} {'what':<10} {'seconds':>8} {'MB/s':>7} {'x decode':>9}")
    for path in args.archives:
        if not os.path.exists(path):
            print(f"{path}: missing, skipped", file=sys.stderr)
            status = 1
            continue
        name = os.path.basename(path)
        floor, size = _median_seconds(lambda p=path: _decode(p), args.repeat)  # type: ignore[misc]
        rows: list[tuple[str, float]] = [("decode", floor)]
        for jobs in (1, 2):
            seconds, _ = _median_seconds(lambda p=path, j=jobs: _scan(p, j), args.repeat)  # type: ignore[misc]
            rows.append((f"scan -j{jobs}", seconds))
        for jobs in (1, 2):
            seconds, _ = _median_seconds(lambda p=path, j=jobs: _cli(p, j), args.repeat)  # type: ignore[misc]
            rows.append((f"cli -j{jobs}", seconds))
        mb = size / 1e6
        for what, seconds in rows:
            print(
                f"{name:<26} {what:<10} {seconds:8.3f} {mb / seconds:7.1f} {seconds / floor:9.2f}"
            )
        print(f"{name:<26} {mb:.1f} MB decompressed, {os.path.getsize(path) / 1e6:.1f} MB stored")
    return status


if __name__ == "__main__":
    sys.exit(main())
