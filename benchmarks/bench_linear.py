"""Linear time on adversarial inputs: growth per 4x, and a cap per megabyte.

Strategy: each *family* (see :data:`FAMILIES`) is a function ``make(n) -> str`` giving about
``n`` characters of one hostile pattern (a megabyte of ``<URL:``, a URL that never ends,
nested parentheses ...). For each family :func:`urlsift.extract` is timed at 1, 4 and
16 MiB (``--quick``: 256 KiB, 1 and 4 MiB); each figure is the minimum of several runs (at
least ``--repeats``, more for small sizes until ``MIN_SAMPLE_S`` of runs are spent, so timer
noise and load bursts on a shared machine do not make a ratio). A linear scan takes four
times as long when the input is four times as long, a quadratic one sixteen times; the limit
is :data:`MAX_GROWTH` per 4x and :data:`MAX_SECONDS_PER_MB` for every MiB of any family.
The command-line path (``urlsift scan - --input-kind text --format jsonl`` reading standard
input) is timed once at the largest size, and one 10 MB line of generated mail is timed
against its own cap.

The *report cardinality* families (:data:`REPORT_FAMILIES`, issue 24 item 14: 4,000
distinct schemes took 32 s) time ``urlsift report``'s work in this process (aggregating
JSON Lines records and rendering the page with its charts) on 1,000, 4,000 and 16,000
records that each bring a new scheme, a new month or a new host (``--quick``: 250, 1,000,
4,000), against the same :data:`MAX_GROWTH` per 4x. They need the ``report`` extra and are
skipped without it.

Prints a table, writes ``benchmarks/results/linear.json`` and exits 1 when a limit is broken.
``tests/test_linear_time.py`` runs a fast version of the same families.

Run: ``.venv/bin/python benchmarks/bench_linear.py [--quick] [--family NAME ...]``
"""

from __future__ import annotations

import argparse
import gc
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import urlsift

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gen_text  # noqa: E402
from _report import compile_bytecode, print_columns, run_meta, write_report  # noqa: E402

RESULTS = HERE / "results" / "linear.json"
KIB = 1 << 10
MIB = 1 << 20
SIZES = (1 * MIB, 4 * MIB, 16 * MIB)
QUICK_SIZES = (256 * KIB, 1 * MIB, 4 * MIB)
STEP = 4
"""Each size is this many times the one before it."""
MAX_GROWTH = 5.0
"""Largest allowed time ratio between an input and one a quarter its size (linear: 4)."""
MAX_SECONDS_PER_MB = 2.0
"""Largest allowed time for a MiB of any family."""
MIN_SAMPLE_S = 0.25
"""Runs at one size are repeated until at least this much time is spent (min of them)."""
LONG_LINE = 10 * 10**6


def _repeat(unit: str, n: int) -> str:
    return unit * max(1, n // len(unit))


def _one_line(n: int) -> str:
    """Generated mail text with every line break replaced by a space: one long line."""
    text = "".join(gen_text.iter_text("mail", n, seed=1))[:n]
    return text.replace("\n", " ")


def _nested(n: int) -> str:
    return "http://x.example/" + "(" * (n // 2) + ")" * (n // 2)


def _spans(unit: str, n: int, span: int = 4090) -> str:
    """``unit`` repeated to ``span`` characters and a space (one bare-URL token just under
    the scanner's cap), the whole repeated to about ``n`` characters."""
    one = (unit * (span // len(unit) + 1))[:span] + " "
    return one * max(1, n // len(one))


# name -> (what, make). Each make(n) gives about n characters.
FAMILIES: dict[str, tuple[str, Callable[[int], str]]] = {
    "url-open": ('"<URL:" repeated', lambda n: _repeat("<URL:", n)),
    "angle-open": ('"<" repeated', lambda n: "<" * n),
    "angle-scheme-open": ('"<http:" repeated', lambda n: _repeat("<http:", n)),
    "a-dots": ('"a." repeated', lambda n: _repeat("a.", n)),
    "mail-addresses": ('"a@b.com\\n" repeated', lambda n: _repeat("a@b.com\n", n)),
    "http-unterminated": ('"http://" then "a" to the end', lambda n: "http://" + "a" * n),
    "one-line": ("generated mail with no line break", _one_line),
    "nested-parens-url": ('"http://x.example/" then n/2 "(" and n/2 ")"', _nested),
    "parens": ('"(" repeated', lambda n: "(" * n),
    "close-open-url": (
        '"http://x.example/" then ")(" repeated',
        lambda n: "http://x/" + ")(" * (n // 2),
    ),
    "wrapper-unclosed": ('"<URL:http://" then "b" to the end', lambda n: "<URL:http://" + "b" * n),
    "wrapper-unclosed-lines": (
        '"<URL:http://a/" then indented 70-character lines, never closed',
        lambda n: "<URL:http://a/" + _repeat("b" * 70 + "\n  ", n),
    ),
    "dots": ('"." repeated', lambda n: "." * n),
    "url-trailing-dots": (
        '"http://a.example/" then "." to the end',
        lambda n: "http://a.example/" + "." * n,
    ),
    "hyphen-breaks": (
        '"http://a-\\n" then "b-\\n" repeated',
        lambda n: "http://a-\n" + _repeat("b-\n", n),
    ),
    "quote-levels": (
        "16 quote levels, a wrapper, a line at another depth, repeated",
        lambda n: _repeat(">" * 16 + " <URL:http://a.example/x-\n> > y\n", n),
    ),
    "quote-prefixes": ('"> " repeated on one line', lambda n: _repeat("> ", n)),
    "url-prefix": ('"URL:" repeated', lambda n: _repeat("URL:", n)),
    "url-prefix-spaced": ('"URL: " repeated', lambda n: _repeat("URL: ", n)),
    "scheme-word": ('"a" repeated, then ":"', lambda n: "a" * n + ":"),
    "scheme-words": ('"aaaa...a:" (60 letters) repeated', lambda n: _repeat("a" * 60 + ":", n)),
    "http-colons": ('"http:" repeated', lambda n: _repeat("http:", n)),
    "http-slashes": ('"http://" repeated', lambda n: _repeat("http://", n)),
    "short-urls": ('"http://a.b/ " repeated', lambda n: _repeat("http://a.b/x ", n)),
    "angle-urls": ('"<http://a.b/>" repeated', lambda n: _repeat("<http://a.b/>", n)),
    # A bare URL refused or cut short after a walk, with a trigger every few characters
    # of the same span: each trigger walked the span again (issue 13).
    "double-colon-hyphen-chain": (
        '580 lines of "ftp::-" and one "ftp::", then a blank line, repeated',
        lambda n: ("ftp::-\n" * 580 + "ftp::\n\n") * max(1, n // 4066),
    ),
    "double-colon-openers": ('4 KB tokens of "ftp::(" repeated', lambda n: _spans("ftp::(", n)),
    "double-colon-tokens": ('4 KB tokens of "ftp::" repeated', lambda n: _spans("ftp::", n)),
    "url-prefix-double-colon": (
        '4 KB tokens of "URL:ftp::" repeated',
        lambda n: _spans("URL:ftp::", n),
    ),
    "closer-cuts-url": ('4 KB tokens of "http://a)" repeated', lambda n: _spans("http://a)", n)),
    "closer-cuts-empty-url": (
        '4 KB tokens of "http://)" repeated',
        lambda n: _spans("http://)", n),
    ),
    "hyphen-chain-of-urls": (
        '400 lines of "http://a-" then a blank line, repeated',
        lambda n: ("http://a-\n" * 400 + "\n") * max(1, n // 4001),
    ),
    "wrapped-chain": (
        '"http://a.example/" filling a 76-column line, then 76-column "c/c/..." lines',
        lambda n: "http://a.example/" + "b" * 59 + "\n" + _repeat("c/" * 38 + "\n", n),
    ),
    "wrapped-candidates": (
        "a full line ending in a URL, then a line starting with URL material, repeated",
        lambda n: _repeat("t" * 40 + " http://a.example/b/c/d/e/f/g\nh/i.j k\n", n),
    ),
    # Issue 23: joins over three lines, possible wraps (another quote depth, a space after
    # a half-written query) one after another, and a possible wrap that never ends.
    "wrapped-three-lines": (
        "a URL over three full lines, a blank line, repeated",
        lambda n: _repeat(
            "http://a.example/" + "b" * 59 + "\n" + "c/" * 38 + "\n" + "d/" * 30 + "e.html\n\n", n
        ),
    ),
    "possible-wraps": (
        "a quoted full line ending in a URL, then URL signs at another depth, repeated",
        lambda n: _repeat("> " + "t" * 40 + " http://a.example/b/c/d? \n>> e=f&g k\n", n),
    ),
    "possible-wrap-chain": (
        '"> http://a.example/...?" then ">> &c=ddd..." lines to the end',
        lambda n: "> http://a.example/" + "b" * 50 + "?\n" + _repeat(">> &c=" + "d" * 60 + "\n", n),
    ),
    "page-breaks": (
        "a wrapper broken by RFC page breaks, repeated",
        lambda n: _repeat("<URL:http://a.example/\n\nX [Page 1]\n\fRFC 1 Y\n\nb>\n", n),
    ),
}


REPORT_COUNTS = (1000, 4000, 16000)
QUICK_REPORT_COUNTS = (250, 1000, 4000)
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov")
_MONTH_NAMES += ("Dec",)


def _report_record(n: int, scheme: str, date: str | None, host: str) -> dict[str, object]:
    # One URL record as ``urlsift scan --format jsonl`` writes it (the fields report reads).
    return {
        "url": f"{scheme}://{host}/",
        "scheme": scheme,
        "valid": True,
        "defects": [],
        "parts": {"host": host},
        "source": "a.mbox",
        "message": n + 1,
        "date": date,
    }


def _forged_date(n: int) -> str:
    year, month = divmod(n, 12)
    return f"1 {_MONTH_NAMES[month]} {1000 + year:04d} 00:00 GMT"


# name -> (what, make). Each make(n) gives n records.
REPORT_FAMILIES: dict[str, tuple[str, Callable[[int], list[dict[str, object]]]]] = {
    "report-schemes": (
        "records with n distinct schemes",
        lambda n: [_report_record(i, f"x-s{i:05d}", None, "h.example") for i in range(n)],
    ),
    "report-months": (
        "records dated in n distinct months (forged years 1000 on)",
        lambda n: [_report_record(i, "http", _forged_date(i), "h.example") for i in range(n)],
    ),
    "report-hosts": (
        "records on n distinct hosts, each dated",
        lambda n: [
            _report_record(i, "http", _forged_date(i % 36), f"h{i}.example") for i in range(n)
        ],
    ),
}


def time_report(records: list[dict[str, object]], repeats: int) -> float:
    """Fastest run of report's work on ``records``: aggregate, then render the page."""
    from urlsift.report.aggregate import Aggregator, facts_from_record
    from urlsift.report.render import render_html

    def run() -> None:
        aggregator = Aggregator()
        for record in records:
            aggregator.add(facts_from_record(record))
        render_html(aggregator.result(), title="t", inputs="i")

    return time_min(run, repeats, 0.0)


@dataclass
class Row:
    family: str
    what: str
    seconds: dict[str, float] = field(default_factory=dict)  # size in bytes -> min seconds
    growth: list[float] = field(default_factory=list)  # t(4n) / t(n)
    urls_at_max: int = 0
    cli_seconds: float | None = None
    problems: list[str] = field(default_factory=list)
    first_problems: list[str] = field(default_factory=list)  # a failed first measurement


def time_min(run: Callable[[], object], repeats: int, min_total: float = MIN_SAMPLE_S) -> float:
    """Return the fastest of at least ``repeats`` runs, running on until ``min_total`` s."""
    best = float("inf")
    spent = 0.0
    runs = 0
    gc.collect()
    gc.disable()  # a collection would land in one run and not the others
    try:
        while runs < repeats or (spent < min_total and runs < 50):
            start = time.perf_counter()
            run()
            seconds = time.perf_counter() - start
            best = min(best, seconds)
            spent += seconds
            runs += 1
    finally:
        gc.enable()
    return best


def _cli() -> list[str]:
    exe = Path(sys.executable).with_name("urlsift")
    program = str(exe) if exe.exists() else (shutil.which("urlsift") or "urlsift")
    return [program, "scan", "-", "-q", "--input-kind", "text", "--format", "jsonl"]


def time_cli(data: bytes, repeats: int) -> float:
    """Fastest run of the CLI reading ``data`` on standard input (start-up included)."""

    def run() -> None:
        subprocess.run(_cli(), input=data, stdout=subprocess.DEVNULL, check=True)

    return time_min(run, repeats, 0.0)


def measure(name: str, sizes: tuple[int, ...], repeats: int, cli: bool) -> Row:
    what, make = FAMILIES[name]
    row = Row(name, what)
    previous = None
    for size in sizes:
        text = make(size)
        seconds = time_min(lambda text=text: urlsift.extract(text), repeats)  # type: ignore[misc]
        row.seconds[str(size)] = seconds
        if previous is not None:
            ratio = seconds / previous if previous > 0 else 0.0
            row.growth.append(ratio)
            if ratio > MAX_GROWTH:
                row.problems.append(f"x{ratio:.2f} from {size // STEP // KIB} to {size // KIB} KiB")
        previous = seconds
        limit = MAX_SECONDS_PER_MB * size / MIB
        if seconds > limit:
            row.problems.append(f"{seconds:.2f} s for {size // KIB} KiB (limit {limit:.2f} s)")
    big = make(sizes[-1])
    row.urls_at_max = len(urlsift.extract(big))
    if cli:
        row.cli_seconds = time_cli(big.encode("utf-8", "surrogateescape"), 1)
        limit = MAX_SECONDS_PER_MB * sizes[-1] / MIB
        if row.cli_seconds > limit:
            row.problems.append(f"CLI {row.cli_seconds:.2f} s (limit {limit:.2f} s)")
    return row


def measure_report(name: str, counts: tuple[int, ...], repeats: int) -> Row:
    """Time a :data:`REPORT_FAMILIES` family at each count of records."""
    what, make = REPORT_FAMILIES[name]
    row = Row(name, what)
    previous = None
    for count in counts:
        seconds = time_report(make(count), repeats)
        row.seconds[str(count)] = seconds
        if previous is not None:
            ratio = seconds / previous if previous > 0 else 0.0
            row.growth.append(ratio)
            if ratio > MAX_GROWTH:
                row.problems.append(f"x{ratio:.2f} from {count // STEP} to {count} records")
        previous = seconds
    row.urls_at_max = counts[-1]
    return row


def print_report_table(rows: list[Row], counts: tuple[int, ...]) -> None:
    header = ["family", *(f"{c:,} s" for c in counts), f"growth per {STEP}x", "verdict"]
    table = [header]
    for row in rows:
        table.append(
            [
                row.family,
                *(f"{row.seconds[str(c)]:.2f}" for c in counts),
                " ".join(f"{g:.2f}" for g in row.growth),
                _verdict(row),
            ]
        )
    print_columns(table, left=(0, len(header) - 1, len(counts) + 1))


def long_line(size: int, repeats: int) -> dict[str, Any]:
    """Time one ``size``-character line of generated mail, library and CLI."""
    text = _one_line(size)
    seconds = time_min(lambda: urlsift.extract(text), repeats, 0.0)
    cli_seconds = time_cli(text.encode("utf-8"), 1)
    limit = MAX_SECONDS_PER_MB * size / 10**6
    return {
        "bytes": len(text.encode("utf-8")),
        "seconds": seconds,
        "cli_seconds": cli_seconds,
        "limit_s": limit,
        "ok": seconds <= limit and cli_seconds <= limit,
    }


def _verdict(row: Row) -> str:
    verdict = "FAIL: " + "; ".join(row.problems) if row.problems else "ok"
    if row.first_problems:
        verdict += f" (measured twice; first: {'; '.join(row.first_problems)})"
    return verdict


def print_table(rows: list[Row], sizes: tuple[int, ...]) -> None:
    heads = [f"{s // KIB}K ms" for s in sizes]
    header = ["family", *heads, f"growth per {STEP}x", "max", "s/MiB", "CLI ms", "URLs", "verdict"]
    table = [header]
    for row in rows:
        table.append(
            [
                row.family,
                *(f"{row.seconds[str(s)] * 1000:.1f}" for s in sizes),
                " ".join(f"{g:.2f}" for g in row.growth),
                f"{max(row.growth, default=0):.2f}",
                f"{max(row.seconds[str(s)] * MIB / s for s in sizes):.3f}",
                "-" if row.cli_seconds is None else f"{row.cli_seconds * 1000:.0f}",
                str(row.urls_at_max),
                _verdict(row),
            ]
        )
    print_columns(table, left=(0, len(header) - 1, len(sizes) + 1))


def run(
    quick: bool, families: list[str], repeats: int, output: Path
) -> tuple[int, dict[str, object]]:
    """Measure, print and write the JSON; return (exit status, report)."""
    sizes = QUICK_SIZES if quick else SIZES
    started = time.time()
    compile_bytecode()  # the CLI starts as installed, from bytecode
    rows = []
    report_rows = []
    counts = QUICK_REPORT_COUNTS if quick else REPORT_COUNTS
    for name in [f for f in families if f in REPORT_FAMILIES]:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print(f"  {name}: skipped (needs the report extra)", file=sys.stderr)
            continue
        print(f"  {name}", file=sys.stderr, flush=True)
        report_rows.append(measure_report(name, counts, min(repeats, 2)))
    families = [f for f in families if f not in REPORT_FAMILIES]
    for name in families:
        print(f"  {name}", file=sys.stderr, flush=True)
        row = measure(name, sizes, repeats, cli=True)
        if row.problems:
            # The machine is shared: a burst of load from another process can slow every
            # run of one size. Measure once more; a family fails when both measurements
            # fail (growth that is really superlinear does not come and go).
            print(f"  {name}: measuring again ({'; '.join(row.problems)})", file=sys.stderr)
            again = measure(name, sizes, repeats, cli=True)
            again.first_problems = row.problems
            row = again
        rows.append(row)
    print(
        f"\nlinear time: urlsift.extract, fastest of >= {repeats} runs per size; "
        f"limits: x{MAX_GROWTH:g} per {STEP}x, {MAX_SECONDS_PER_MB:g} s per MiB"
    )
    line: dict[str, Any] = {"ok": True}
    if rows:
        print_table(rows, sizes)
        worst_growth = max((max(row.growth, default=0.0), row.family) for row in rows)
        worst_rate = max(
            (max(row.seconds[str(s)] * MIB / s for s in sizes), row.family) for row in rows
        )
        print(
            f"worst growth per {STEP}x: {worst_growth[0]:.2f} ({worst_growth[1]}); "
            f"worst seconds per MiB: {worst_rate[0]:.3f} ({worst_rate[1]})"
        )
        line_size = LONG_LINE // 5 if quick else LONG_LINE
        line = long_line(line_size, repeats)
        print(
            f"\none {line['bytes'] / 10**6:.0f} MB line of generated mail: library "
            f"{line['seconds']:.2f} s, CLI {line['cli_seconds']:.2f} s "
            f"(limit {line['limit_s']:.0f} s) -> {'ok' if line['ok'] else 'FAIL'}"
        )
    if report_rows:
        print(
            f"\nreport cardinality: aggregate and render, fastest of "
            f">= {min(repeats, 2)} runs; limit x{MAX_GROWTH:g} per {STEP}x"
        )
        print_report_table(report_rows, counts)
    failed = [row.family for row in [*rows, *report_rows] if row.problems]
    if not line["ok"]:
        failed.append("long-line")
    print(f"\nlinear-time check: {'FAIL: ' + ', '.join(failed) if failed else 'PASS'}")
    report: dict[str, object] = {
        "meta": run_meta(
            started,
            quick=quick,
            repeats=repeats,
            sizes=list(sizes),
            max_growth=MAX_GROWTH,
            max_seconds_per_mb=MAX_SECONDS_PER_MB,
        ),
        "families": [asdict(row) for row in rows],
        "report_families": [asdict(row) for row in report_rows],
        "long_line": line,
        "failed": failed,
        "passed": not failed,
    }
    write_report(output, report)
    return (1 if failed else 0), report


def main(argv: list[str] | None = None) -> int:
    """Command line; exit status 1 when a limit is broken."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="up to 4 MiB, 2 MB long line")
    parser.add_argument(
        "--family",
        action="append",
        choices=sorted([*FAMILIES, *REPORT_FAMILIES]),
        help="repeatable",
    )
    parser.add_argument("--repeats", type=int, default=3, help="runs per size (fastest counts)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    families = args.family or [*FAMILIES, *REPORT_FAMILIES]
    status, _ = run(args.quick, families, args.repeats, args.output)
    return status


if __name__ == "__main__":
    sys.exit(main())
