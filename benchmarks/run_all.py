"""One command for every benchmark of issue 6: throughput, linear time, flat memory.

Strategy: run, in this order and in one go, ``bench_scan.py`` (throughput next to the regex
floors and the peers, on generated and real texts, with the issue's throughput and memory
targets), ``bench_linear.py`` (adversarial families at 1, 4 and 16 MiB, growth per 4x, cap
per MiB) and ``bench_memory.py`` (peak RSS of the CLI streaming 1 MB and 1 GB of generated
input). Each prints its own tables; this script then prints one PASS/FAIL list and writes
everything to ``benchmarks/results/all.json`` (each script also writes its own file there).

Run: ``.venv/bin/python benchmarks/run_all.py [--quick] [--big 1G]``; about 2 minutes with
``--quick``, 15 or more without. Exit status 1 when any target or limit is not met.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench_linear  # noqa: E402
import bench_memory  # noqa: E402
import bench_scan  # noqa: E402
from _report import write_report  # noqa: E402
from gen_text import parse_size  # noqa: E402

RESULTS = HERE / "results"


def _section(title: str) -> None:
    print(f"\n{'=' * 30} {title} {'=' * (60 - len(title))}", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the three benchmarks; print the verdicts; exit 1 when one fails."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes everywhere")
    parser.add_argument("--big", help="big input of the memory check (default 1G; quick 100M)")
    parser.add_argument("--output", type=Path, default=RESULTS / "all.json")
    args = parser.parse_args(argv)
    started = time.time()
    quick = ["--quick"] if args.quick else []

    _section("throughput (bench_scan.py)")
    scan_args = bench_scan.parse_args([*quick, "--output", str(RESULTS / "latest.json")])
    scan: dict[str, Any] = bench_scan.run(scan_args)[1]

    _section("linear time (bench_linear.py)")
    families = list(bench_linear.FAMILIES)
    linear: dict[str, Any] = bench_linear.run(args.quick, families, 3, RESULTS / "linear.json")[1]

    _section("memory (bench_memory.py)")
    big = parse_size(args.big or ("100M" if args.quick else "1G"))
    kinds = list(bench_memory.KINDS)
    memory: dict[str, Any] = bench_memory.run((10**6, big), kinds, 1, RESULTS / "memory.json")[1]

    verdicts: list[tuple[str, bool | None, str]] = []
    for check in scan["targets"]:
        value = check["value"]
        shown = "-" if value is None else f"{value:.3f} {check['unit']}"
        if check["limit"] is not None:  # information rows have no limit
            verdicts.append((check["target"], check["passed"], shown))
    failed = linear["failed"]
    verdicts.append(
        (
            f"time grows <= x{bench_linear.MAX_GROWTH:g} per 4x and <= "
            f"{bench_linear.MAX_SECONDS_PER_MB:g} s per MiB, {len(families)} families",
            not failed,
            "failed: " + ", ".join(failed) if failed else "all within limits",
        )
    )
    for check in memory["checks"]:
        verdicts.append(
            (
                f"memory flat and < {bench_memory.LIMIT_MB:g} MiB, {check['kind']} "
                f"{big / 10**6:g} MB vs 1 MB",
                check["ok"],
                f"{check['small_mb']} -> {check['big_mb']} MiB",
            )
        )

    _section("verdicts")
    for target, passed, shown in verdicts:
        verdict = "n/a" if passed is None else "PASS" if passed else "FAIL"
        print(f"  {verdict:<4}  {target}: {shown}")
    report = {
        "meta": {"wall_seconds": round(time.time() - started, 1), "quick": args.quick},
        "verdicts": [{"target": t, "passed": p, "value": v} for t, p, v in verdicts],
        "scan": scan,
        "linear": linear,
        "memory": memory,
    }
    print()
    write_report(args.output, report, "all results")
    return 1 if any(passed is False for _, passed, _ in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
