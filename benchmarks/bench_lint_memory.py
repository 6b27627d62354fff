"""Peak memory of ``urlsift lint`` on big documents, with and without the size limit.

Strategy: ``benchmarks/gen_text.py`` writes mail-like text (one URL per couple of KB, every
appendix form) to a ``.md`` and a ``.txt`` file in a temporary folder, and ``urlsift lint
FILE -q --exit-zero`` runs on each from that folder; its peak resident memory is read as
``bench_memory.py`` does (``VmHWM`` polled, and ``ru_maxrss`` from ``os.wait4``). The
default cases are issue 13's (a 200 MB ``.md`` and a 50 MB ``.txt``: skipped with
``URL011`` under the default ``max-file-size``) and 10 MB files, just under the default
limit of 10 MiB (the most a default run reads). ``--max-file-size N`` writes a
``urlsift.toml`` raising the limit, to measure what linting a big file costs; without it
no configuration is written (so a checkout older than the setting can be measured too,
with ``PYTHONPATH=old/src``).

The check passes when every peak is under :data:`LIMIT_MB` (which only the default
settings are expected to meet).

Run: ``.venv/bin/python benchmarks/bench_lint_memory.py [--md 200M,10M] [--txt 50M,10M]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _report import compile_bytecode, print_columns, run_meta, write_report  # noqa: E402
from bench_memory import _urlsift, wait_for_peak  # noqa: E402
from gen_text import parse_size  # noqa: E402

RESULTS = HERE / "results" / "lint_memory.json"
LIMIT_MB = 1024.0
"""Largest allowed peak RSS of one lint run, in MiB."""


def _generate(path: Path, size: int) -> None:
    with path.open("wb") as out:
        subprocess.run(
            [sys.executable, str(HERE / "gen_text.py"), "mail", "--size", str(size)],
            stdout=out,
            check=True,
        )


def measure(folder: Path, name: str) -> dict[str, object]:
    """Lint ``folder/name``; return its peak RSS, time and the codes reported."""
    command = [_urlsift(), "lint", name, "-q", "--exit-zero", "--statistics"]
    start = time.perf_counter()
    lint = subprocess.Popen(command, cwd=folder, stdout=subprocess.PIPE, text=True)
    hwm, usage = wait_for_peak(lint)  # its output is small (-q --statistics): the pipe holds it
    assert lint.stdout is not None
    output = lint.stdout.read()
    seconds = time.perf_counter() - start
    codes = sorted({line.split()[1] for line in output.splitlines() if line.strip()})
    return {
        "file": name,
        "bytes": (folder / name).stat().st_size,
        "exit": lint.returncode,
        "seconds": round(seconds, 2),
        "peak_rss_mb": round(hwm / 1024, 1),
        "maxrss_wait4_mb": round(usage.ru_maxrss / 1024, 1),
        "codes": codes,
    }


def main(argv: list[str] | None = None) -> int:
    """Command line; exit status 1 when a peak is over the limit."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--md", default="200M,10M", help="sizes of .md files")
    parser.add_argument("--txt", default="50M,10M", help="sizes of .txt files")
    parser.add_argument("--max-file-size", help="write urlsift.toml with this max-file-size")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    started = time.time()
    compile_bytecode()
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="urlsift-lint-memory-") as tmp:
        folder = Path(tmp)
        if args.max_file_size:
            limit = parse_size(args.max_file_size)
            (folder / "urlsift.toml").write_text(f"max-file-size = {limit}\n", encoding="utf-8")
        for suffix, sizes in (("md", args.md), ("txt", args.txt)):
            for size in (parse_size(s) for s in sizes.split(",") if s):
                name = f"doc-{size}.{suffix}"
                print(f"  {name}", file=sys.stderr, flush=True)
                _generate(folder / name, size)
                rows.append(measure(folder, name))
                (folder / name).unlink()
    setting = f"max-file-size = {args.max_file_size}" if args.max_file_size else "default settings"
    print(f"\nlint memory: urlsift lint FILE -q --exit-zero --statistics ({setting})")
    table = [("file", "MB", "seconds", "peak RSS (VmHWM)", "ru_maxrss (wait4)", "codes")]
    for row in rows:
        table.append(
            (
                str(row["file"]),
                f"{int(str(row['bytes'])) / 10**6:.1f}",
                str(row["seconds"]),
                f"{row['peak_rss_mb']} MiB",
                f"{row['maxrss_wait4_mb']} MiB",
                " ".join(str(code) for code in row["codes"]),  # type: ignore[attr-defined]
            )
        )
    print_columns(table, left=(0, 5))
    over = [str(row["file"]) for row in rows if float(str(row["peak_rss_mb"])) > LIMIT_MB]
    print(f"\nlint memory check (every peak < {LIMIT_MB:g} MiB): {'FAIL' if over else 'PASS'}")
    report = {
        "meta": run_meta(started, max_file_size=args.max_file_size, limit_mb=LIMIT_MB),
        "rows": rows,
        "passed": not over,
    }
    write_report(args.output, report)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
