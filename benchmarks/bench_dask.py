"""Scaling of the Dask engine: 1 vs 2 workers of a LocalCluster on big mbox archives.

Usage (one command; the ``dask`` extra installed)::

    .venv/bin/python benchmarks/bench_dask.py --mb 200
    .venv/bin/python benchmarks/bench_dask.py [--mb 50 200] [--workers 1 2] [--range-mib N]
        [--format jsonl] [--records] [--no-local] [--rounds N]

For each size in ``--mb``, writes one uncompressed mbox of at least that many MB (the
shared archives of ``$URLSIFT_CORPORA/mbox`` decompressed and concatenated in turn) to a
temporary folder, then for each worker count starts a ``distributed.LocalCluster``
(worker processes, one thread each, loopback) and runs what ``urlsift scan --engine dask
--format FMT`` runs: the workers scan and write their items' URLs
(:func:`urlsift.engines.dask.iter_rendered_dask`), this process (the client, which on a
LocalCluster also runs the scheduler) fills in range numbers and writes the output to a
file. Timed: the cluster's start-up (until its workers are up and a client is
connected), the scan (wall), the CPU time of the client process and of all the workers
(``time.process_time`` in each, before and after), and each worker's peak resident
memory (``VmHWM``; Linux). With ``--records`` each worker count is also run the way it
was before the workers wrote (every record sent to the client, which renumbers and
writes it): the client's share of the CPU time is what that change cuts.

The one-process run (``--engine local``) is timed too (unless ``--no-local``), and every
run's output must be byte-identical to it (and its statistics equal). The last lines
print, for each size, the wall-time ratio of two workers against one and the client's
share of all the CPU time: on two cores, two workers can give at most about
``2 * W / (W + C)`` times one worker (``W`` the workers' CPU, ``C`` the client's).
With ``--rounds N`` the worker counts run in turn N times (one worker, two workers, then
two workers, one worker...): a line per round, then the median of the rounds' ratios and
the ratio of their summed times, which a drift of the host's speed between minutes moves
less than any one round.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import distributed
from bench_parallel import digest, write_stream

from urlsift.engines.dask import (
    cluster_range_bytes,
    iter_rendered_dask,
    iter_results_dask,
    local_cluster,
)
from urlsift.engines.render import Rendered, RenderSpec
from urlsift.engines.runner import Result, ScanConfig, iter_results
from urlsift.output.formats import WRITERS
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
class Run:
    """The figures of one run, with what it wrote."""

    label: str
    workers: int
    startup: float
    seconds: float
    client_cpu: float
    """CPU seconds of this process (on a LocalCluster it runs the scheduler too)."""
    workers_cpu: float
    """CPU seconds of all the workers (0 for the local run)."""
    peak_kib: int
    """The largest peak resident memory of a worker."""
    digest: str
    stats: ArchiveStats
    range_bytes: int = 0
    """The nominal range size the run used (0: one process)."""

    @property
    def share(self) -> float:
        """The client's share of all the CPU time of the run."""
        total = self.client_cpu + self.workers_cpu
        return self.client_cpu / total if total else 1.0


def run_local(path: Path, fmt: str, target: Path) -> Run:
    """Time one run in this process (``--engine local``)."""
    stats = ArchiveStats()
    start, cpu = time.perf_counter(), time.process_time()
    write_stream(iter_results([str(path)], ScanConfig(), stats=stats), fmt, target)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return Run("local", 1, 0.0, seconds, cpu, 0.0, 0, digest(target), stats)


def run_dask(
    path: Path, workers: int, range_bytes: int | None, fmt: str, target: Path, records: bool
) -> Run:
    """Time one Dask run on a fresh LocalCluster (workers writing, or every record sent)."""
    start = time.perf_counter()
    with local_cluster(workers) as cluster, distributed.Client(cluster) as client:
        client.wait_for_workers(workers)
        startup = time.perf_counter() - start
        before = client.run(_cpu)
        stats = ArchiveStats()
        paths, config = [str(path)], ScanConfig()
        stream: Iterable[Result | Rendered]
        if records:
            stream = iter_results_dask(
                paths, config, stats=stats, client=client, range_bytes=range_bytes
            )
        else:
            spec = RenderSpec(fmt)
            stream = iter_rendered_dask(
                paths, config, spec, stats=stats, client=client, range_bytes=range_bytes
            )
        start, cpu = time.perf_counter(), time.process_time()
        write_stream(stream, fmt, target)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        after = client.run(_cpu)
        peaks = client.run(_peak_kib)
    workers_cpu = sum(after.values()) - sum(before.values())
    label = "records" if records else "dask"
    used = cluster_range_bytes(paths, workers) if range_bytes is None else range_bytes
    return Run(
        label,
        workers,
        startup,
        seconds,
        cpu,
        workers_cpu,
        max(peaks.values()),
        digest(target),
        stats,
        used,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--range-mib",
        type=int,
        default=None,
        help="range size (default: the engine's, cluster_range_bytes for the workers)",
    )
    parser.add_argument("--format", default="jsonl", choices=sorted(WRITERS))
    parser.add_argument(
        "--records", action="store_true", help="also run with every record sent to the client"
    )
    parser.add_argument("--no-local", action="store_true")
    parser.add_argument(
        "--control",
        action="store_true",
        help="each round, also time two plain `urlsift scan` processes at once against one "
        "alone: what the host gives two processes in the same minute",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run the worker counts in turn this many times (ratios round by round)",
    )
    args = parser.parse_args()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, cpus: {os.cpu_count()}, "
        f"range: {'the engine default' if args.range_mib is None else f'{args.range_mib} MiB'}, "
        f"format: {args.format}, "
        f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(f"{'MB':>4} {'engine':8} {'workers':>7} {'start s':>8} {'scan s':>7} "
          f"{'client cpu':>10} {'workers cpu':>11} {'client %':>8} {'MB/s':>6} "
          f"{'peak MiB':>9} {'range MiB':>9}")  # fmt: skip
    summary: list[str] = []
    for mb in args.mb:
        with tempfile.TemporaryDirectory() as root:
            path = Path(root) / "big.mbox"
            make_archive(path, mb * MB)
            summary += report(path, Path(root), args)
    print(f"load at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for line in summary:
        print(line)


def report(path: Path, root: Path, args: argparse.Namespace) -> list[str]:
    size = path.stat().st_size / MB
    reference: Run | None = None
    runs: list[Run] = []
    modes = [False, True] if args.records else [False]
    if not args.no_local:
        reference = run_local(path, args.format, root / "out")
        runs.append(reference)
        _row(size, reference)
    rounds: list[list[Run]] = []
    controls: list[float] = []
    for turn in range(max(1, args.rounds)):
        this_round: list[Run] = []
        # Every other round in the reverse order (1, 2, then 2, 1): a steady drift of the
        # host's speed over a pair of rounds falls on both worker counts alike.
        counts = args.workers if turn % 2 == 0 else args.workers[::-1]
        for records in modes:
            for workers in counts:
                range_bytes = None if args.range_mib is None else args.range_mib << 20
                run = run_dask(path, workers, range_bytes, args.format, root / "out", records)
                if reference is None:
                    reference = run
                elif (run.digest, run.stats) != (reference.digest, reference.stats):
                    raise SystemExit(
                        f"{run.label} with {workers} workers differs from {reference.label}"
                    )
                this_round.append(run)
                _row(size, run)
        rounds.append(this_round)
        if args.control:
            controls.append(host_pair(path, args.format))
            print(f"{size:>4.0f} control: two plain processes at once {controls[-1]:.2f}x one")
    lines = []
    for label in ("dask", "records"):
        ratios = []
        for this_round in rounds:
            timed = {run.workers: run for run in this_round if run.label == label}
            if 1 in timed and 2 in timed:
                one, two = timed[1], timed[2]
                ratios.append(one.seconds / two.seconds)
                control = f" (host {controls[len(ratios) - 1]:.2f}x)" if controls else ""
                lines.append(
                    f"{size:.0f} MB, {label}: 2 workers vs 1: {ratios[-1]:.2f}x wall{control}; "
                    f"client share of CPU {one.share:.1%} (1 worker), {two.share:.1%} "
                    f"(2 workers); CPU s client+workers {one.client_cpu + one.workers_cpu:.2f} / "
                    f"{two.client_cpu + two.workers_cpu:.2f}"
                )
        if len(ratios) > 1:
            # Round by round (one worker, then two, in the same minute): a drift of the
            # host's speed between minutes falls on both counts of a round. Beside the
            # median, the ratio of the summed times of all rounds.
            walls = {
                count: sum(run.seconds for r in rounds for run in r if run.label == label
                           and run.workers == count)
                for count in (1, 2)
            }  # fmt: skip
            lines.append(
                f"{size:.0f} MB, {label}: 2 workers vs 1 by round: median "
                f"{statistics.median(ratios):.2f}x (min {min(ratios):.2f}, "
                f"max {max(ratios):.2f}, {len(ratios)} rounds); all rounds' time "
                f"{walls[1] / walls[2]:.2f}x"
            )
            if controls:
                lines.append(
                    f"{size:.0f} MB, {label}: two plain processes at once vs one, same rounds: "
                    f"median {statistics.median(controls):.2f}x (min {min(controls):.2f}, "
                    f"max {max(controls):.2f}); 2 workers' ratio over the host's, median "
                    f"{statistics.median(r / c for r, c in zip(ratios, controls, strict=True)):.2f}"
                )
    return lines


def host_pair(path: Path, fmt: str) -> float:
    """What the host gives two processes now: ``urlsift scan`` of ``path`` alone, then two
    at once; the throughput of the two against the one (2.0: two free cores)."""
    command = [sys.executable, "-m", "urlsift", "scan", "-q", "--format", fmt, str(path)]

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    begin = time.perf_counter()
    start().wait()
    alone = time.perf_counter() - begin
    begin = time.perf_counter()
    pair = [start(), start()]
    for process in pair:
        process.wait()
    return 2 * alone / (time.perf_counter() - begin)


def _row(size: float, run: Run) -> None:
    print(f"{size:>4.0f} {run.label:8} {run.workers:>7} {run.startup:>8.2f} {run.seconds:>7.2f} "
          f"{run.client_cpu:>10.2f} {run.workers_cpu:>11.2f} {run.share:>8.1%} "
          f"{size / run.seconds:>6.1f} "
          f"{run.peak_kib / 1024 if run.peak_kib else float('nan'):>9.0f} "
          f"{run.range_bytes / (1 << 20) if run.range_bytes else float('nan'):>9.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
