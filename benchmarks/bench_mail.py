"""Benchmark of the whole mail pipeline: archive in, URL records out.

Strategy: for each archive, time in one run, side by side,

* ``stdlib``: the standard library alone reading the same archive - ``mailbox.mbox``
  and ``email`` (every message parsed, every ``text/*`` leaf decoded with
  ``get_payload(decode=True)`` and its charset): what a hand-written reader costs;
* ``decode``: urlsift's source layer alone (decompress, split, MIME-decode every part);
* ``scan -j1``: :func:`urlsift.engines.runner.iter_results` with one process (sources,
  scanner, rejoiner, validator), records rendered as JSON Lines into memory;
* ``cli -j1`` (and ``cli -j2`` with ``--jobs``): ``urlsift scan -q --format jsonl
  ARCHIVE`` as a subprocess, output discarded (start-up included);
* ``cli text``: the same bytes scanned as text (``--input-kind text``): the mail layer's
  cost is ``cli -j1`` less this;
* with ``--base SRC``: ``cli -j1`` and ``cli text`` again with another tree's ``src``
  first on ``PYTHONPATH`` (A/B in the same run: the CLI rows run in turn, round by round).

Each figure is the best (``--best``, default) or median of ``--repeat`` runs, in CPU
seconds (user + system of this process or of the child: on a shared machine a
neighbour's load lengthens wall time, much less CPU time; ``--wall`` for wall time).
MB/s is decompressed MB per second. The ratios: ``x stdlib`` (how many times the stdlib
reader's time; below 0.5 is the issue 26 target of twice its speed) and ``x text`` (the
archive's time over the same bytes as text; the target is 2 or less). A last line counts
the messages the multipart fast path declined (:attr:`~urlsift.sources.parts.
MessageResult.declined`), by reason; one before it the ratio ``x text`` round by round
(each round's archive run over the text run right after it: median, least and most),
which a drift of the host's load between rounds moves less than the best of each row.

Run: ``.venv/bin/python benchmarks/bench_mail.py [ARCHIVE ...] [--real] [--generated 20M]
[--repeat N] [--base /path/to/other/src] [--jobs] [--instructions]``. ``--real``
concatenates the ten shared archives, decompressed, into one temporary mbox (47 MB);
``--generated SIZE`` adds ``gen_text.py mbox`` of that size (seed 1). ``--instructions``
adds a line per archive: the instructions of one run of the stdlib reader (its process
less one on an empty file) and of each CLI row, under valgrind's cachegrind (about fifty
times slower), with the same ratios: on a machine whose CPU times swing with a
neighbour's load, a count that does not move.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import io
import mailbox
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _report import compile_bytecode

from urlsift.engines.runner import ScanConfig, iter_results
from urlsift.output.formats import make_writer
from urlsift.sources import archive as source_archive
from urlsift.sources.archive import ArchiveStats, open_units

HERE = Path(__file__).resolve().parent
CORPUS = os.environ.get("URLSIFT_CORPORA", "/work/shared/corpora")
DEFAULT_ARCHIVES = (
    os.path.join(CORPUS, "mbox", "linux-mips-2001.mbox.gz"),
    os.path.join(CORPUS, "mbox", "usrp-users-2019.mbox.gz"),
)
WALL = False


def _cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return time.perf_counter() if WALL else usage.ru_utime + usage.ru_stime


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _stdlib(path: str) -> None:
    # The standard library alone: every message parsed, every text leaf decoded.
    box = mailbox.mbox(path, create=False)
    try:
        for message in box:
            for part in message.walk():
                if part.is_multipart() or part.get_content_maintype() != "text":
                    continue
                payload = part.get_payload(decode=True)
                if not isinstance(payload, bytes):
                    continue
                charset = part.get_content_charset() or "us-ascii"
                try:
                    payload.decode(charset, "replace")
                except LookupError:
                    payload.decode("latin-1")
    finally:
        box.close()


def _decode(path: str) -> None:
    for unit in open_units(path, stats=ArchiveStats()):
        for _chunk in unit.chunks:
            pass


def _scan(path: str, jobs: int = 1) -> None:
    writer = make_writer("jsonl", io.StringIO())
    for result in iter_results([path], ScanConfig(), stats=ArchiveStats(), jobs=jobs):
        if hasattr(result, "url"):
            writer.write(result)  # type: ignore[arg-type]


def _cli(path: str, extra: list[str], src: str | None = None) -> float:
    command, env = _cli_command(path, extra, src)
    before = time.perf_counter() if WALL else _cpu_children()
    run = subprocess.run
    run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    return (time.perf_counter() if WALL else _cpu_children()) - before


def _instructions(command: list[str], env: dict[str, str] | None = None) -> int | None:
    # Instructions one run of ``command`` executes (valgrind's cachegrind, no cache
    # simulation; the program's output discarded), or None without valgrind. Unlike CPU
    # time, the count does not move with a neighbour's load.
    if shutil.which("valgrind") is None:
        return None
    counter = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    done = subprocess.run(
        [*counter, *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    return int(found.group(1).replace(",", "")) if found else None


def _cli_command(path: str, extra: list[str], src: str | None) -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    command = [sys.executable, "-m", "urlsift", "scan", "-q", "--format", "jsonl", *extra, path]
    return command, env


def _counted(path: str, cli_rows: list[tuple[str, list[str], str | None]]) -> str:
    # One line of instruction counts: the stdlib reader and each CLI row, with the ratios.
    # The stdlib reader's own work: less a run of its process on an empty file (start-up
    # and imports), as its CPU row times the reading alone.
    stdlib = _instructions([sys.executable, __file__, "--stdlib-child", path])
    empty = _instructions([sys.executable, __file__, "--stdlib-child", os.devnull])
    if stdlib is None or empty is None:
        return "instructions: valgrind not found"
    stdlib -= empty
    counts = {"stdlib": stdlib}
    for what, extra, src in cli_rows:
        counts[what] = _instructions(*_cli_command(path, extra, src)) or 0
    shown = ", ".join(f"{what} {count / 1e6:,.0f}" for what, count in counts.items())
    ratios = []
    for prefix in ("", "base "):
        mbox, text = counts.get(prefix + "cli -j1"), counts.get(prefix + "cli text")
        if mbox and text:
            tree = prefix or "this "
            ratios.append(f"{tree}mbox/text {mbox / text:.2f} x stdlib {stdlib / mbox:.2f}")
    return f"instructions (M): {shown}; " + "; ".join(ratios)


def _timed(run: Callable[[], object], repeat: int, best: bool) -> float:
    times: list[float] = []
    for _ in range(repeat):
        start = _cpu_self()
        got = run()
        times.append(got if isinstance(got, float) else _cpu_self() - start)
    return min(times) if best else statistics.median(times)


def declines(path: str) -> collections.Counter[str]:
    """How many messages of ``path`` took each way (``fast`` or why it was declined)."""
    counts: collections.Counter[str] = collections.Counter()
    real = source_archive.message_units

    def counting(data: bytes, **arguments: object) -> object:
        result = real(data, **arguments)
        counts[result.declined or "fast"] += 1
        return result

    source_archive.message_units = counting  # type: ignore[assignment]
    try:
        _decode(path)
    finally:
        source_archive.message_units = real
    return counts


def _real_archive(folder: str) -> str:
    target = os.path.join(folder, "shared-ten.mbox")
    with open(target, "wb") as out:
        for name in sorted(os.listdir(os.path.join(CORPUS, "mbox"))):
            if name.endswith(".mbox.gz"):
                with gzip.open(os.path.join(CORPUS, "mbox", name)) as archive:
                    out.write(archive.read())
    return target


def _generated(folder: str, size: str) -> str:
    target = os.path.join(folder, f"gen-{size}.mbox")
    command = [sys.executable, str(HERE / "gen_text.py"), "mbox", "--size", size]
    subprocess.run([*command, "--seed", "1", "-o", target], check=True)
    return target


def _size(path: str) -> int:
    if path.endswith(".gz"):
        with gzip.open(path) as archive:
            return len(archive.read())
    return os.path.getsize(path)


def main(argv: list[str] | None = None) -> int:
    """Benchmark each archive and print a table."""
    global WALL
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("archives", nargs="*")
    parser.add_argument("--real", action="store_true", help="the ten shared archives as one")
    parser.add_argument("--generated", metavar="SIZE", help="a generated mbox of SIZE")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure")
    parser.add_argument("--median", action="store_true", help="median, not best, of runs")
    parser.add_argument("--wall", action="store_true", help="wall time, not CPU time")
    parser.add_argument("--jobs", action="store_true", help="add -j2 rows")
    parser.add_argument("--base", metavar="SRC", help="another tree's src for A/B CLI rows")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count the instructions of the stdlib reader and of each CLI row, once "
        "each (valgrind's cachegrind: the same count whatever the machine's load)",
    )
    parser.add_argument("--stdlib-child", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.stdlib_child:  # the stdlib reader alone, in a process of its own (--instructions)
        _stdlib(args.stdlib_child)
        return 0
    WALL = args.wall
    compile_bytecode()
    status = 0
    with tempfile.TemporaryDirectory() as folder:
        archives = list(args.archives)
        if args.real:
            archives.append(_real_archive(folder))
        if args.generated:
            archives.append(_generated(folder, args.generated))
        if not archives:
            archives = list(DEFAULT_ARCHIVES)
        print(f"load average at start: {os.getloadavg()}; {'wall' if WALL else 'CPU'} seconds")
        header = f"{'archive':<22} {'what':<16} {'seconds':>8} {'MB/s':>7} {'x stdlib':>9}"
        print(header + f" {'x text':>7}")
        for path in archives:
            if not os.path.exists(path):
                print(f"{path}: missing, skipped", file=sys.stderr)
                status = 1
                continue
            best = not args.median
            name = os.path.basename(path)[:22]
            text = ["--input-kind", "text"]
            rows: list[tuple[str, float]] = []
            rows.append(("stdlib", _timed(lambda p=path: _stdlib(p), args.repeat, best)))  # type: ignore[misc]
            rows.append(("decode", _timed(lambda p=path: _decode(p), args.repeat, best)))  # type: ignore[misc]
            rows.append(("scan -j1", _timed(lambda p=path: _scan(p), args.repeat, best)))  # type: ignore[misc]
            cli_rows = [("cli -j1", [], None), ("cli text", text, None)]
            if args.jobs:
                cli_rows.append(("cli -j2", ["-j", "2"], None))
            if args.base:
                cli_rows += [("base cli -j1", [], args.base), ("base cli text", text, args.base)]
            # The CLI rows alternate (this tree, the base, this tree...) round by round, so
            # a neighbour's load falls on both trees alike.
            runs: dict[str, list[float]] = {what: [] for what, _, _ in cli_rows}
            for _ in range(args.repeat):
                for what, extra, src in cli_rows:
                    runs[what].append(_cli(path, extra, src))
            for what, _, _ in cli_rows:
                rows.append((what, min(runs[what]) if best else statistics.median(runs[what])))
            times = dict(rows)
            mb = _size(path) / 1e6
            for what, seconds in rows:
                text_time = times["base cli text" if what.startswith("base") else "cli text"]
                ratio = f"{seconds / text_time:7.2f}" if what.startswith(("cli", "base")) else ""
                print(
                    f"{name:<22} {what:<16} {seconds:8.3f} {mb / seconds:7.1f} "
                    f"{seconds / times['stdlib']:9.2f} {ratio}"
                )
            # The same ratio round by round (each round's mbox run against the text run
            # right after it): a drift of the host's load between rounds falls on both.
            for prefix in ("", "base "):
                pairs = [
                    mbox / text
                    for mbox, text in zip(
                        runs.get(f"{prefix}cli -j1", []),
                        runs.get(f"{prefix}cli text", []),
                        strict=True,
                    )
                ]
                if pairs:
                    print(
                        f"{name:<22} {prefix}mbox/text by round: median "
                        f"{statistics.median(pairs):.2f} (min {min(pairs):.2f}, "
                        f"max {max(pairs):.2f}, {len(pairs)} rounds)"
                    )
            counts = declines(path)
            shown = ", ".join(f"{k} {v}" for k, v in counts.most_common())
            print(f"{name:<22} {mb:.1f} MB decompressed; messages: {shown}")
            if args.instructions:
                print(f"{name:<22} {_counted(path, cli_rows)}")
            print(f"{name:<22} load average after: {os.getloadavg()}")
    return status


if __name__ == "__main__":
    sys.exit(main())
