"""Benchmark of the mail source layer: MB/s of ``open_units`` (decoding only, no scanning).

Strategy: for each archive, run :func:`urlsift.sources.archive.open_units` to the end,
consuming every chunk, a few times, and report the best run (the machine may be shared).
Throughput is decompressed bytes per second; the compressed size is shown beside it. The
whole pipeline targets 20 MB/s on plain 1990s mail, so this layer must stay well above.

Run: ``.venv/bin/python benchmarks/bench_sources.py [ARCHIVE ...] [--repeat N]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from urlsift.sources.archive import ArchiveStats, open_units

CORPUS = "/work/shared/corpora/mbox"
DEFAULT_ARCHIVES = (
    os.path.join(CORPUS, "linux-mips-2001.mbox.gz"),
    os.path.join(CORPUS, "usrp-users-2019.mbox.gz"),
)


def run_once(path: str) -> tuple[float, ArchiveStats]:
    """Read ``path`` to the end; return the elapsed seconds and the statistics."""
    stats = ArchiveStats()
    start = time.perf_counter()
    for unit in open_units(path, stats=stats):
        for _chunk in unit.chunks:
            pass
    return time.perf_counter() - start, stats


def main(argv: list[str] | None = None) -> int:
    """Benchmark each archive and print one line per archive."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archives", nargs="*", default=list(DEFAULT_ARCHIVES))
    parser.add_argument("--repeat", type=int, default=3, help="runs per archive (best kept)")
    args = parser.parse_args(argv)
    status = 0
    for path in args.archives:
        if not os.path.exists(path):
            print(f"{path}: missing, skipped", file=sys.stderr)
            status = 1
            continue
        best, stats = min((run_once(path) for _ in range(max(1, args.repeat))), key=lambda r: r[0])
        mb = stats.bytes_read / 1e6
        print(
            f"{os.path.basename(path)}: {mb:.1f} MB decompressed "
            f"({os.path.getsize(path) / 1e6:.1f} MB compressed) in {best:.3f} s = "
            f"{mb / best:.1f} MB/s; {stats.summary()}"
        )
    return status


if __name__ == "__main__":
    sys.exit(main())
