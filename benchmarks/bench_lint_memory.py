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

``--per-byte`` (issue 24 item 11) measures instead every lint format on mail-like text and
the hostile families (Markdown ``a`` paragraphs, ``# H`` headings and links, reST targets,
HTML paragraphs and links, roff ``.UR`` links: one construct every few bytes; and one
Markdown block as big as the file: a list, a blockquote, nested containers, lazy lines, a
fence, indented code, an HTML block, one paragraph) at 1, 4 and
16 MiB (``--sizes``), with ``max-file-size`` raised so each is linted: the peak RSS above
that of linting an empty file, per input byte, against the target of issue 24 (as
``bench_memory.py --bodies``): at most :data:`PER_BYTE_LIMIT` times the file or
:data:`CAP_TIMES` times the 64 MiB message cap, whichever is smaller.

Run: ``.venv/bin/python benchmarks/bench_lint_memory.py [--md 200M,10M] [--txt 50M,10M]``
or ``.venv/bin/python benchmarks/bench_lint_memory.py --per-byte [--sizes 1048576,4194304]
[--case md-paragraphs ...]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _report import compile_bytecode, print_columns, run_meta, write_report  # noqa: E402
from bench_memory import _urlsift, wait_for_peak  # noqa: E402
from gen_text import parse_size  # noqa: E402

RESULTS = HERE / "results" / "lint_memory.json"
LIMIT_MB = 1024.0
"""Largest allowed peak RSS of one lint run, in MiB."""
PER_BYTE_LIMIT = 30.0
"""Target of ``--per-byte``: peak RSS above an empty run, per input byte..."""
CAP_TIMES = 4.0
"""... and at most this many times the message cap, whichever is smaller."""
CAP_BYTES = 64 << 20
"""The message cap (``DEFAULT_MAX_MESSAGE_BYTES``)."""


def _units(unit: str) -> Callable[[Path, int], None]:
    def write(path: Path, size: int) -> None:
        path.write_text(unit * max(1, size // len(unit)), encoding="utf-8")

    return write


def _mail_like(suffix: str, wrap: Callable[[str], str]) -> Callable[[Path, int], None]:
    def write(path: Path, size: int) -> None:
        raw = path.with_suffix(".raw")
        _generate(raw, size)
        path.write_text(wrap(raw.read_text(encoding="utf-8", errors="replace")), encoding="utf-8")
        raw.unlink()

    return write


PER_BYTE_CASES: dict[str, tuple[str, Callable[[Path, int], None]]] = {
    "txt-mail": ("txt", _mail_like("txt", lambda t: t)),
    "md-mail": ("md", _mail_like("md", lambda t: t)),
    "md-paragraphs": ("md", _units("a\n\n")),
    "md-headings": ("md", _units("# H\n")),
    "md-links": ("md", _units("[a](http://a.example/)\n\n")),
    "rst-mail": ("rst", _mail_like("rst", lambda t: t)),
    "rst-targets": ("rst", _units(".. _t: http://a.example/\n\n")),
    "html-mail": ("html", _mail_like("html", lambda t: "<p>" + t.replace("<", "&lt;") + "</p>")),
    "html-paragraphs": ("html", _units("<p>a</p>\n")),
    "html-links": ("html", _units('<a href="http://a.example/">a</a>\n')),
    "man-mail": ("1", _mail_like("1", lambda t: ".TH X 1\n" + t)),
    "man-links": ("1", _units(".UR http://a.example/\n.UE\n")),
}
"""Case -> (file suffix, writer of a file of about the given size)."""
OPEN_CASES: tuple[str, ...] = ()
"""Cases left out unless asked for with ``--case`` (none since one Markdown block as big as
the file is parsed in stretches too, see ``benchmarks/README.md``)."""


def _block(opening: str, unit: str) -> Callable[[Path, int], None]:
    """One Markdown block as big as the file: ``opening``, then ``unit`` repeated."""

    def write(path: Path, size: int) -> None:
        path.write_text(opening + unit * max(1, size // len(unit)), encoding="utf-8")

    return write


# One container or leaf block as big as the file (issue 24 item 11).
PER_BYTE_CASES["md-list"] = ("md", _units("- a\n\n"))
PER_BYTE_CASES["md-quote"] = ("md", _units("> a\n"))
PER_BYTE_CASES["md-ordered"] = ("md", _units("1. a\n\n"))
PER_BYTE_CASES["md-quote-list"] = ("md", _units("> - a\n>\n"))
PER_BYTE_CASES["md-item-paragraphs"] = ("md", _block("- a\n\n", "  b\n\n"))
PER_BYTE_CASES["md-item-quote"] = ("md", _block("- > a\n", "  > a\n"))
PER_BYTE_CASES["md-lazy"] = ("md", _block("> a\n", "b\n"))
PER_BYTE_CASES["md-fence"] = ("md", _block("```\n", "a\n"))
PER_BYTE_CASES["md-item-fence"] = ("md", _block("- ```\n", "  a\n"))
PER_BYTE_CASES["md-indented"] = ("md", _units("    a\n"))
PER_BYTE_CASES["md-html-block"] = ("md", _block("<div>\n", "a\n"))
PER_BYTE_CASES["md-one-paragraph"] = ("md", _units("a\n"))


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


def per_byte(sizes: list[int], cases: list[str], output: Path) -> int:
    """``--per-byte``: every case at every size; exit status 1 above the target."""
    started = time.time()
    compile_bytecode()
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="urlsift-lint-memory-") as tmp:
        folder = Path(tmp)
        limit = 2 * max(sizes) + (1 << 20)
        (folder / "urlsift.toml").write_text(f"max-file-size = {limit}\n", encoding="utf-8")
        (folder / "empty.md").write_text("", encoding="utf-8")
        baseline = float(str(measure(folder, "empty.md")["peak_rss_mb"]))
        for case in cases:
            suffix, write = PER_BYTE_CASES[case]
            for size in sizes:
                name = f"{case}-{size}.{suffix}"
                print(f"  {name}", file=sys.stderr, flush=True)
                write(folder / name, size)
                row = measure(folder, name)
                extra = (float(str(row["peak_rss_mb"])) - baseline) * (1 << 20)
                size_bytes = int(str(row["bytes"]))
                limit_bytes = min(CAP_TIMES * CAP_BYTES, PER_BYTE_LIMIT * size_bytes)
                row["case"] = case
                row["above_empty_mb"] = round(extra / (1 << 20), 1)
                row["per_byte"] = round(extra / size_bytes, 1)
                row["limit_per_byte"] = round(limit_bytes / size_bytes, 1)
                row["ok"] = extra <= limit_bytes
                rows.append(row)
                (folder / name).unlink()
    print(f"\nlint memory per input byte (peak RSS above an empty run: {baseline} MiB)")
    table = [("case", "MiB", "seconds", "peak RSS", "above empty", "per byte", "limit", "")]
    for row in rows:
        table.append(
            (
                str(row["case"]),
                f"{int(str(row['bytes'])) / (1 << 20):.1f}",
                str(row["seconds"]),
                f"{row['peak_rss_mb']} MiB",
                f"{row['above_empty_mb']} MiB",
                f"{float(str(row['per_byte'])):g}x",
                f"{float(str(row['limit_per_byte'])):g}x",
                "ok" if row["ok"] else "OVER",
            )
        )
    print_columns(table, left=(0, 7))
    over = [f"{row['case']}@{row['bytes']}" for row in rows if not row["ok"]]
    print(
        f"\nlint memory per byte (target: above the empty run <= min({PER_BYTE_LIMIT:g} x the "
        f"file, {CAP_TIMES:g} x the 64 MiB cap)): "
        + ("OVER: " + ", ".join(over) if over else "PASS")
    )
    write_report(
        output,
        {
            "meta": run_meta(
                started,
                sizes=sizes,
                baseline_mb=baseline,
                limit=PER_BYTE_LIMIT,
                cap_times=CAP_TIMES,
            ),
            "rows": rows,
            "over": over,
        },
    )
    return 1 if over else 0


def main(argv: list[str] | None = None) -> int:
    """Command line; exit status 1 when a peak is over the limit."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--per-byte", action="store_true", help="peak RSS per byte, every format")
    parser.add_argument(
        "--sizes", default="1048576,4194304,16777216", help="sizes for --per-byte (1, 4, 16 MiB)"
    )
    parser.add_argument(
        "--case", action="append", choices=sorted(PER_BYTE_CASES), help="repeatable (--per-byte)"
    )
    parser.add_argument("--md", default="200M,10M", help="sizes of .md files")
    parser.add_argument("--txt", default="50M,10M", help="sizes of .txt files")
    parser.add_argument("--max-file-size", help="write urlsift.toml with this max-file-size")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if args.per_byte:
        sizes = [parse_size(s) for s in args.sizes.split(",") if s]
        output = (
            args.output
            if args.output != RESULTS
            else RESULTS.with_name("lint_memory_per_byte.json")
        )
        cases = args.case or [case for case in PER_BYTE_CASES if case not in OPEN_CASES]
        return per_byte(sizes, cases, output)
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
