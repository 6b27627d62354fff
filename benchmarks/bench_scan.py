"""Throughput of urlsift next to regex floors and peer libraries, on the same texts.

Usage::

    .venv/bin/python benchmarks/bench_scan.py [--quick] [--repeats N] [--timeout S]

Every measurement runs in a fresh worker process (this script with ``--worker``), so tools
do not share caches or garbage, and a peer that hangs on adversarial text is killed after
``--timeout`` seconds and reported as ``timeout >Ns``. A worker repeats its tool up to
``--repeats`` times but stops repeating once ``--budget`` seconds are spent (slow peers get
fewer runs; the ``runs`` column says how many). Speeds are medians over the runs.

Tools (see ``TOOLS``): two regex floors, urlsift's library (records only, and records
rendered as JSON Lines to an in-memory stream), urlsift's CLI end to end (process start-up
included), and the peers ``urlextract`` and ``linkify-it-py`` (``pip install -e '.[bench]'``).
Peers are slow, so they run on slices of the mail and RFC texts, never on the whole mail
text; every tool also runs on those slices, so the ratios compare like with like.

A memory check streams a 10 MB and a 30 MB mail file through :func:`urlsift.iter_urls` in
worker processes and reports peak RSS growth and the tracemalloc peak: the peak should not
grow with the input.

Results are printed as tables and written as JSON to ``benchmarks/results/latest.json``.
See ``benchmarks/README.md`` for how to read them.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("URLSIFT_CORPORA", "/work/shared/corpora"))
MBOXES = ("linux-mips-2001.mbox.gz", "usrp-users-2019.mbox.gz")
RFC_DIR = SHARED / "rfc-url-wrapper"
RESULTS = ROOT / "benchmarks" / "results" / "latest.json"
MB = 1_000_000
TARGET_TOOL = "urlsift+jsonl"
TARGET_TEXT = "mail"
TARGET_MBPS = 40.0

FLOOR_HTTP = r'https?://[^\s<>"]+'
FLOOR_SCHEMES = r'(?i)\b(?:https?|ftp|mailto|news):[^\s<>"]+'


@dataclass(frozen=True)
class Tool:
    name: str
    what: str
    peer: bool = False
    cli: bool = False


TOOLS = (
    Tool("floor-http", f"regex.finditer({FLOOR_HTTP!r})"),
    Tool("floor-schemes", f"regex.finditer({FLOOR_SCHEMES!r})"),
    Tool("urlsift", "list(urlsift.extract(text))"),
    Tool("urlsift+jsonl", "urlsift.extract(text) -> formats.make_writer('jsonl', StringIO())"),
    Tool("urlsift-cli", "urlsift scan --format jsonl FILE > /dev/null (with start-up)", cli=True),
    Tool("urlextract", "URLExtract(limit=10**9).find_urls(text)", peer=True),
    Tool("linkify-it-py", "LinkifyIt().match(text)", peer=True),
)
TOOL_BY_NAME = {tool.name: tool for tool in TOOLS}


@dataclass(frozen=True)
class Text:
    name: str
    path: Path
    what: str
    peers: bool  # run the peers on it
    size: int = 0

    @classmethod
    def of(cls, name: str, path: Path, what: str, peers: bool) -> Text:
        return cls(name, path, what, peers, path.stat().st_size)


@dataclass
class Result:
    tool: str
    text: str
    bytes: int
    status: str  # ok | timeout | error | skipped
    runs: int = 0
    seconds: list[float] = field(default_factory=list)
    median_s: float | None = None
    mb_per_s: float | None = None
    urls: int | None = None
    x_floor: float | None = None
    x_urlsift: float | None = None
    note: str = ""


# --------------------------------------------------------------------------- workers


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace", newline="") as stream:
        return stream.read()


def _make_runner(tool: str) -> Callable[[str], int]:
    """Return ``run(path) -> URLs found``; everything but the timed work is done here."""
    if tool in ("floor-http", "floor-schemes"):
        import regex

        pattern = regex.compile(FLOOR_HTTP if tool == "floor-http" else FLOOR_SCHEMES)
        return lambda text: sum(1 for _ in pattern.finditer(text))
    if tool == "urlsift":
        import urlsift

        return lambda text: len(urlsift.extract(text))
    if tool == "urlsift+jsonl":
        import urlsift
        from urlsift.formats import make_writer

        def run_jsonl(text: str) -> int:
            writer = make_writer("jsonl", io.StringIO())
            count = 0
            for url in urlsift.extract(text):
                writer.write(url)
                count += 1
            return count

        return run_jsonl
    if tool == "urlextract":
        from urlextract import URLExtract  # type: ignore[import-untyped]

        extractor = URLExtract(limit=10**9)  # default stops with an error at 10000 URLs
        return lambda text: len(extractor.find_urls(text))
    if tool == "linkify-it-py":
        from linkify_it import LinkifyIt  # type: ignore[import-untyped]

        linkify = LinkifyIt()
        linkify.match("warm up http://example.com")  # compiles its patterns lazily
        return lambda text: len(linkify.match(text) or ())
    raise SystemExit(f"unknown tool {tool!r}")


def _cli_command(path: str) -> list[str]:
    exe = Path(sys.executable).with_name("urlsift")
    program = str(exe) if exe.exists() else (shutil.which("urlsift") or "urlsift")
    return [program, "scan", "--input-kind", "text", "--format", "jsonl", path]


def worker(tool: str, path: str, repeats: int, budget: float) -> None:
    """Time ``tool`` on the file; print one JSON line per run (flushed, so partial
    results survive a kill)."""
    spent = 0.0
    if TOOL_BY_NAME[tool].cli:
        for _ in range(repeats):
            start = time.perf_counter()
            done = subprocess.run(_cli_command(path), capture_output=True, check=True)
            seconds = time.perf_counter() - start
            print(json.dumps({"seconds": seconds, "urls": done.stdout.count(b"\n")}), flush=True)
            spent += seconds
            if spent > budget:
                break
        return
    run = _make_runner(tool)
    text = _read_text(path)
    for _ in range(repeats):
        start = time.perf_counter()
        count = run(text)
        seconds = time.perf_counter() - start
        print(json.dumps({"seconds": seconds, "urls": count}), flush=True)
        spent += seconds
        if spent > budget:
            break


def _proc_status_kb(key: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak_rss() -> bool:
    """Reset the kernel's RSS high-water mark (Linux: VmHWM) so the peak is this run's."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")
    except OSError:
        return False
    return True


def _peak_rss_kb() -> int:
    # ru_maxrss is not used when VmHWM is available: Linux carries it over from the parent
    # process across fork+exec, so it would show the driver's memory, not the worker's.
    hwm = _proc_status_kb("VmHWM")
    return hwm if hwm is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def memory_worker(path: str, mode: str) -> None:
    """Stream a file through iter_urls; print peak memory as JSON."""
    import urlsift

    list(urlsift.iter_urls(["warm up <URL:http://example.com/> http://x.org/\n" * 100]))
    _reset_peak_rss()
    before = _peak_rss_kb()
    if mode == "tracemalloc":
        tracemalloc.start()
    start = time.perf_counter()
    count = 0
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as stream:
        for _ in urlsift.iter_urls(stream):
            count += 1
    seconds = time.perf_counter() - start
    if mode == "tracemalloc":
        peak = tracemalloc.get_traced_memory()[1]
        report: dict[str, object] = {"tracemalloc_peak_kb": peak // 1024}
    else:
        after = _peak_rss_kb()
        report = {
            "urls": count,
            "seconds": round(seconds, 3),
            "rss_before_kb": before,
            "peak_rss_kb": after,
            "peak_rss_growth_kb": after - before,
        }
    print(json.dumps(report), flush=True)


# --------------------------------------------------------------------------- driver


def _spawn(args: list[str], timeout: float) -> tuple[str, str, bool]:
    """Run this script as a worker; return (stdout, stderr, timed_out)."""
    command = [sys.executable, str(Path(__file__).resolve()), *args]
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout or b""
        err = expired.stderr or b""
        return (
            out.decode() if isinstance(out, bytes) else out,
            err.decode() if isinstance(err, bytes) else err,
            True,
        )
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise RuntimeError(message[-1] if message else f"exit {done.returncode}")
    return done.stdout.decode(), done.stderr.decode(), False


def measure(tool: Tool, text: Text, args: argparse.Namespace) -> Result:
    result = Result(tool=tool.name, text=text.name, bytes=text.size, status="ok")
    worker_args = ["--worker", tool.name, str(text.path), str(args.repeats), str(args.budget)]
    try:
        out, _, timed_out = _spawn(worker_args, args.timeout)
    except RuntimeError as error:
        result.status, result.note = "error", str(error)[:200]
        return result
    runs = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    if timed_out and not runs:
        result.status, result.note = "timeout", f"timeout >{args.timeout:g}s"
        return result
    if timed_out:
        result.note = f"killed after {len(runs)} run(s) at {args.timeout:g}s"
    result.runs = len(runs)
    result.seconds = [round(run["seconds"], 6) for run in runs]
    result.median_s = statistics.median(result.seconds)
    result.mb_per_s = text.size / MB / result.median_s if result.median_s else None
    result.urls = runs[0]["urls"]
    return result


def _write_slice(source: Path, target: Path, size: int) -> None:
    with source.open("rb") as src, target.open("wb") as dst:
        dst.write(src.read(size))


def build_texts(workdir: Path, quick: bool) -> tuple[list[Text], Path]:
    """Write the benchmark texts into ``workdir``; return them and the full mail file."""
    mail = workdir / "mail.txt"
    with mail.open("wb") as out:
        for name in MBOXES:
            with gzip.open(SHARED / "mbox" / name, "rb") as src:
                shutil.copyfileobj(src, out, 1 << 20)
    rfc = workdir / "rfc.txt"
    with rfc.open("wb") as out:
        for path in sorted(RFC_DIR.glob("*.txt")):
            out.write(path.read_bytes())
    mail_size = 4 * MB if quick else mail.stat().st_size
    slice_size = MB // 5 if quick else MB
    adversarial_size = MB // 4 if quick else MB
    texts: list[Text] = []
    if quick:
        _write_slice(mail, workdir / "mail-head.txt", mail_size)
        what = f"first {mail_size // MB} MB of the mail text"
        texts.append(Text.of("mail", workdir / "mail-head.txt", what, False))
    else:
        texts.append(Text.of("mail", mail, " + ".join(MBOXES) + ", decompressed", False))
    _write_slice(mail, workdir / "mail-slice.txt", slice_size)
    texts.append(
        Text.of("mail-slice", workdir / "mail-slice.txt", "first bytes of the mail text", True)
    )
    texts.append(Text.of("rfc", rfc, f"{RFC_DIR.name}/*.txt concatenated", False))
    _write_slice(rfc, workdir / "rfc-slice.txt", slice_size)
    texts.append(
        Text.of("rfc-slice", workdir / "rfc-slice.txt", "first bytes of the RFC text", True)
    )
    dense_line = "see http://example.com/path?q=1 and <URL:ftp://ftp.x.org/pub/f.txt>.\n"
    generated = {
        "dense-urls": ("two URLs per 70-character line", dense_line),
        "adv-a-dots": ('"a." repeated', "a."),
        "adv-url-open": ('"<URL:" repeated', "<URL:"),
    }
    for name, (what, unit) in generated.items():
        path = workdir / f"{name}.txt"
        path.write_text(unit * (adversarial_size // len(unit)), encoding="ascii")
        texts.append(Text.of(name, path, what, True))
    path = workdir / "adv-http-unterminated.txt"
    path.write_text("http://" + "a" * adversarial_size, encoding="ascii")
    texts.append(Text.of("adv-http-unterminated", path, '"http://" then "a" repeated', True))
    return texts, mail


def memory_check(mail: Path, workdir: Path, args: argparse.Namespace) -> list[dict[str, object]]:
    small, big = (5 * MB, 15 * MB) if args.quick else (10 * MB, 30 * MB)
    data = mail.read_bytes()
    big_path = workdir / "memory-big.txt"
    with big_path.open("wb") as out:
        written = 0
        while written < big:
            chunk = data[: big - written]
            out.write(chunk)
            written += len(chunk)
    small_path = workdir / "memory-small.txt"
    _write_slice(big_path, small_path, small)
    rows: list[dict[str, object]] = []
    for path, size in ((small_path, small), (big_path, big)):
        row: dict[str, object] = {"input_mb": size / MB}
        for mode in ("rss", "tracemalloc"):
            report, _, timed_out = _spawn(["--memory-worker", str(path), mode], args.timeout * 4)
            if timed_out:
                row[mode] = "timeout"
                continue
            row.update(json.loads(report.strip().splitlines()[-1]))
        rows.append(row)
    return rows


def add_ratios(results: list[Result]) -> None:
    by_text: dict[str, dict[str, Result]] = {}
    for result in results:
        by_text.setdefault(result.text, {})[result.tool] = result
    for tools in by_text.values():
        floor = tools.get("floor-http")
        ours = tools.get("urlsift")
        for result in tools.values():
            if result.median_s is None:
                continue
            if floor and floor.median_s:
                result.x_floor = result.median_s / floor.median_s
            if ours and ours.median_s:
                result.x_urlsift = result.median_s / ours.median_s


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def print_tables(texts: list[Text], results: list[Result]) -> None:
    header = ("tool", "MB/s", "median s", "runs", "URLs", "x floor", "x urlsift", "note")
    for text in texts:
        rows = [r for r in results if r.text == text.name]
        if not rows:
            continue
        print(f"\n{text.name}: {text.size / MB:.2f} MB ({text.what})")
        table = [header]
        for r in rows:
            mbps = r.note if r.status != "ok" else _fmt(r.mb_per_s, ".2f")
            table.append(
                (
                    r.tool,
                    mbps,
                    _fmt(r.median_s, ".4f"),
                    str(r.runs),
                    "-" if r.urls is None else str(r.urls),
                    _fmt(r.x_floor, ".1f"),
                    _fmt(r.x_urlsift, ".2f"),
                    r.note if r.status == "ok" else "",
                )
            )
        widths = [max(len(row[i]) for row in table) for i in range(len(header))]
        for n, row in enumerate(table):
            cells = [
                cell.ljust(w) if i in (0, len(row) - 1) else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ]
            print("  " + "  ".join(cells).rstrip())
            if n == 0:
                print("  " + "  ".join("-" * w for w in widths))


def print_memory(rows: list[dict[str, object]]) -> None:
    print("\nmemory: urlsift.iter_urls over a file stream (fresh process per measurement)")
    header = (
        "input MB",
        "URLs",
        "seconds",
        "RSS before",
        "peak RSS",
        "growth",
        "tracemalloc",
    )
    table = [header]
    for row in rows:
        table.append(
            (
                f"{row['input_mb']:.0f}",
                str(row.get("urls", "-")),
                str(row.get("seconds", "-")),
                f"{row.get('rss_before_kb', '-')} KiB",
                f"{row.get('peak_rss_kb', '-')} KiB",
                f"{row.get('peak_rss_growth_kb', '-')} KiB",
                f"{row.get('tracemalloc_peak_kb', row.get('tracemalloc', '-'))} KiB peak",
            )
        )
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for n, cells in enumerate(table):
        print("  " + "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)))
        if n == 0:
            print("  " + "  ".join("-" * w for w in widths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="urlsift throughput next to floors and peers")
    parser.add_argument("--quick", action="store_true", help="small texts, 2 runs, 15 s limit")
    parser.add_argument("--repeats", type=int, help="runs per measurement (default 5; quick 2)")
    parser.add_argument("--budget", type=float, help="stop repeating after this many seconds")
    parser.add_argument("--timeout", type=float, help="kill a worker after this many seconds")
    parser.add_argument("--tools", help="comma-separated subset of: " + ", ".join(TOOL_BY_NAME))
    parser.add_argument("--no-memory", action="store_true", help="skip the memory check")
    parser.add_argument("--output", type=Path, default=RESULTS, help="JSON results file")
    parser.add_argument("--worker", nargs=4, metavar=("TOOL", "FILE", "N", "BUDGET"))
    parser.add_argument("--memory-worker", nargs=2, metavar=("FILE", "MODE"))
    args = parser.parse_args(argv)
    if args.worker:
        tool, path, repeats, budget = args.worker
        worker(tool, path, int(repeats), float(budget))
        return 0
    if args.memory_worker:
        memory_worker(*args.memory_worker)
        return 0
    args.repeats = args.repeats or (2 if args.quick else 5)
    args.timeout = args.timeout or (15.0 if args.quick else 60.0)
    args.budget = args.budget or args.timeout / 2
    selected = [TOOL_BY_NAME[name] for name in args.tools.split(",")] if args.tools else TOOLS

    started = time.time()
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="urlsift-bench-") as tmp:
        workdir = Path(tmp)
        texts, mail = build_texts(workdir, args.quick)
        empty = workdir / "empty.txt"
        empty.write_text("")
        for text in texts:
            for tool in selected:
                if tool.peer and not text.peers:
                    continue
                print(f"  {text.name:<22} {tool.name:<14}", end="", flush=True, file=sys.stderr)
                result = measure(tool, text, args)
                print(f" {result.note or _fmt(result.mb_per_s, '.2f')}", file=sys.stderr)
                results.append(result)
        startup = None
        if any(tool.cli for tool in selected):
            startup = measure(
                TOOL_BY_NAME["urlsift-cli"], Text.of("empty", empty, "empty file", False), args
            )
        add_ratios(results)
        memory = [] if args.no_memory else memory_check(mail, workdir, args)

    print(f"\nurlsift benchmark ({'quick' if args.quick else 'full'}): median of up to")
    print(
        f"{args.repeats} runs; 'x floor' = time / floor-http time, 'x urlsift' = time /"
        " urlsift time, on the same text (lower is faster)."
    )
    print_tables(texts, results)
    if startup is not None and startup.median_s is not None:
        print(f"\nurlsift CLI start-up (empty file): {startup.median_s * 1000:.0f} ms")
    if memory:
        print_memory(memory)
    target = next((r for r in results if r.tool == TARGET_TOOL and r.text == TARGET_TEXT), None)
    verdict = None
    if target is not None and target.mb_per_s is not None:
        verdict = target.mb_per_s >= TARGET_MBPS
        print(
            f"\ntarget: {TARGET_TOOL} on {TARGET_TEXT} >= {TARGET_MBPS:g} MB/s: "
            f"{target.mb_per_s:.1f} MB/s -> {'met' if verdict else 'NOT met'}"
        )

    report = {
        "meta": {
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
            "wall_seconds": round(time.time() - started, 1),
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "quick": args.quick,
            "repeats": args.repeats,
            "budget_s": args.budget,
            "timeout_s": args.timeout,
        },
        "tools": {tool.name: tool.what for tool in selected},
        "texts": [{"name": t.name, "bytes": t.size, "what": t.what} for t in texts],
        "results": [asdict(r) for r in results],
        "cli_startup_s": None if startup is None else startup.median_s,
        "memory": memory,
        "target": {
            "tool": TARGET_TOOL,
            "text": TARGET_TEXT,
            "mb_per_s": TARGET_MBPS,
            "met": verdict,
        },
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nresults written to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
