"""Throughput of ``iter_results`` with one process and with worker processes (``--jobs``).

Usage::

    .venv/bin/python benchmarks/bench_parallel.py [--jobs 1 2] [--repeats N] [--batch-kib K]
        [--sets-only] [--records]

For each shared mbox archive (``$URLSIFT_CORPORA/mbox``, default ``/work/shared/corpora``)
and each job count, the scan is written as ``urlsift scan --format jsonl -j N`` writes it
(with more than one job the workers write their items' URLs and send the text back:
``urlsift.engines.render``) to a file, and timed; the speed is the decompressed archive
bytes (``ArchiveStats.bytes_read``) per second, best of ``--repeats`` runs (worker
start-up included). ``parent`` and ``workers`` are the CPU seconds of this process and
of the worker processes in that best run, ``parent %`` the parent's share. Every
parallel run's output is checked against the one-process run: the same bytes, the same
statistics. ``--records`` also times ``-j N`` the way it was before the workers wrote
(every record pickled to the parent, which writes it).

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
import hashlib
import os
import resource
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from urlsift._model import UnitDefects, Url
from urlsift.engines import processes as parallel
from urlsift.engines.render import Rendered, RenderSpec
from urlsift.engines.runner import Result, ScanConfig, iter_results
from urlsift.output.formats import make_writer
from urlsift.sources.archive import ArchiveStats

SHARED = Path(os.environ.get("URLSIFT_CORPORA", "/work/shared/corpora")) / "mbox"
ARCHIVES = ("usrp-users-2019.mbox.gz", "linux-mips-2001.mbox.gz")
MB = 1_000_000


SET_FILES = 8
SET_FILE_BYTES = 5 * MB


def write_stream(stream: Iterable[Result | Rendered], fmt: str, target: Path) -> None:
    """Write what a scan gave as ``urlsift scan --format fmt`` writes it.

    Rendered pieces are written as they are; records through the format's writer (the
    defect records too, for JSON Lines). Standard output's encoding: UTF-8, lone
    surrogates as the bytes they stand for. The output's digest (:func:`digest`) is taken
    after the timed run: the command hashes nothing.
    """
    with target.open("w", encoding="utf-8", errors="surrogateescape", newline="") as out:
        writer = make_writer(fmt, out)
        for item in stream:
            if isinstance(item, Rendered):
                for part in item.parts:
                    if isinstance(part, bytes):  # as the command: after what the stream holds
                        out.flush()
                        out.buffer.write(part)
                    elif isinstance(part, str):
                        out.write(part)
                    elif isinstance(part, Url):
                        writer.write(part)
                    elif isinstance(part, UnitDefects):
                        writer.write_defects(part)
            elif isinstance(item, Url):
                writer.write(item)
            elif isinstance(item, UnitDefects):
                writer.write_defects(item)


def digest(target: Path) -> str:
    """The digest of what :func:`write_stream` wrote (outside the timed window)."""
    return hashlib.sha256(target.read_bytes()).hexdigest()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(
    paths: list[Path], jobs: int, batch_bytes: int, target: Path, records: bool = False
) -> tuple[float, float, float, str, ArchiveStats]:
    """One timed run: wall s, this process's CPU s, the workers' CPU s, digest, statistics."""
    stats = ArchiveStats()
    config = ScanConfig()
    names = [str(path) for path in paths]
    spec = None if records else RenderSpec("jsonl")
    start, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    stream: Iterable[Result | Rendered]
    if jobs == 1:
        stream = iter_results(names, config, stats=stats)
    else:
        stream = parallel.iter_results_parallel(
            names, config, stats=stats, jobs=jobs, batch_bytes=batch_bytes, render=spec
        )
    write_stream(stream, "jsonl", target)
    seconds = time.perf_counter() - start
    cpu, children = time.process_time() - cpu, _children_cpu() - children
    return seconds, cpu, children, digest(target), stats


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


def report(name: str, paths: list[Path], args: argparse.Namespace, target: Path) -> None:
    reference: tuple[str, ArchiveStats] | None = None
    base = 0.0
    modes = [(jobs, False) for jobs in args.jobs]
    if args.records:
        modes += [(jobs, True) for jobs in args.jobs if jobs > 1]
    for jobs, records in modes:
        best = (float("inf"), 0.0, 0.0)
        for _ in range(args.repeats):
            seconds, cpu, workers, digest, stats = run(
                paths, jobs, args.batch_kib << 10, target, records
            )
            best = min(best, (seconds, cpu, workers))
        if reference is None:
            reference, base = (digest, stats), best[0]
        elif (digest, stats) != reference:
            raise SystemExit(f"{name}: jobs={jobs} differs from jobs={args.jobs[0]}")
        mb = stats.bytes_read / MB
        seconds, cpu, workers = best
        label = f"{jobs}{' rec' if records else ''}"
        print(
            f"{name:20} {label:>5} {mb:>7.1f} {seconds:>7.2f} {mb / seconds:>7.1f} "
            f"{base / seconds:>5.2f} {cpu:>7.2f} {workers:>7.2f} {cpu / (cpu + workers):>8.1%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--batch-kib", type=int, default=parallel.DEFAULT_BATCH_BYTES >> 10)
    parser.add_argument("--sets-only", action="store_true", help="only the sets of files")
    parser.add_argument(
        "--records", action="store_true", help="also -j N with every record sent to the parent"
    )
    args = parser.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    print(f"{when}, cpus: {os.cpu_count()}, batch: {args.batch_kib} KiB, load: {load}")
    print(f"{'archive':20} {'jobs':>5} {'MB':>7} {'s':>7} {'MB/s':>7} {'x':>5} "
          f"{'parent':>7} {'workers':>7} {'parent %':>8}")  # fmt: skip
    if not args.sets_only:
        for name in ARCHIVES:
            path = SHARED / name
            if not path.exists():
                print(f"{name:28} missing, skipped")
                continue
            with tempfile.TemporaryDirectory() as root:
                report(name, [path], args, Path(root) / "out.jsonl")
    if not SHARED.exists():
        print("shared archives missing: sets skipped")
        return
    with tempfile.TemporaryDirectory() as root:
        for name, paths in make_sets(Path(root)).items():
            report(name, paths, args, Path(root) / "out.jsonl")
    print(f"load at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
