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
included), the CLI on mbox archives (MIME decoding), and the peers ``urlextract`` and
``linkify-it-py`` (``pip install -e '.[bench]'``). Peers are slow, so they run on slices of
the texts, never on the whole mail text; every tool also runs on those slices, so the
ratios compare like with like.

Texts: generated ones from ``gen_text.py`` (seeded: mail-like text with about one URL per
2 KB in every appendix form, URL-dense lines, an mbox archive) are always there; the real
corpora in ``/work/shared/corpora`` (``URLSIFT_CORPORA``) are added when present. Every
worker also reports its process's peak RSS, next to its RSS once the input is read.

A memory check streams a 10 MB and a 30 MB mail file through :func:`urlsift.iter_urls` in
worker processes and reports peak RSS growth and the tracemalloc peak: the peak should not
grow with the input. The end of the report checks the issue's targets (PASS/FAIL).

Results are printed as tables and written as JSON to ``benchmarks/results/latest.json``.
See ``benchmarks/README.md`` for how to read them.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
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
from typing import IO, TextIO, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import gen_text  # noqa: E402
from _report import compile_bytecode, print_columns, run_meta, write_report  # noqa: E402

SHARED = Path(os.environ.get("URLSIFT_CORPORA", "/work/shared/corpora"))
MBOXES = ("linux-mips-2001.mbox.gz", "usrp-users-2019.mbox.gz")
RFC_DIR = SHARED / "rfc-url-wrapper"
RESULTS = ROOT / "benchmarks" / "results" / "latest.json"
MB = 1_000_000
TARGET_TOOL = "urlsift+jsonl"
TARGET_TEXT = "gen-mail"
TARGET_MBPS = 40.0
TARGET_FLOOR_SHARE = 1 / 3  # at least a third of the floor's speed (the issue aims for 1/2)
# "The floor" of the target: the simple pattern that finds the schemes urlsift reports
# (see benchmarks/README.md, "Which floor"). floor-http's share is printed for information.
TARGET_FLOOR = "floor-schemes"
TARGET_MBOX_MBPS = 20.0
TARGET_PEAK_RSS_MB = 100.0
SEED = 1

FLOOR_HTTP = r'https?://[^\s<>"]+'
FLOOR_SCHEMES = r'(?i)\b(?:https?|ftp|mailto|news):[^\s<>"]+'


@dataclass(frozen=True)
class Tool:
    name: str
    what: str
    peer: bool = False
    cli: bool = False
    mbox: bool = False  # runs on the mbox texts only (and the others never do)
    jobs: int = 1  # the CLI's --jobs


TOOLS = (
    Tool("floor-http", f"regex.finditer({FLOOR_HTTP!r})"),
    Tool("floor-schemes", f"regex.finditer({FLOOR_SCHEMES!r})"),
    Tool("urlsift", "list(urlsift.extract(text))"),
    Tool(
        "urlsift+jsonl", "urlsift.extract(text) -> formats.make_writer('jsonl', <discarding sink>)"
    ),
    Tool(
        "urlsift-cli",
        "urlsift scan --input-kind text --format jsonl FILE > /dev/null (with start-up)",
        cli=True,
    ),
    Tool(
        "urlsift-mbox-cli",
        "urlsift scan -q --input-kind mbox --format jsonl FILE > /dev/null (MIME decoding)",
        cli=True,
        mbox=True,
    ),
    Tool(
        "urlsift-cli-j2",
        "urlsift scan -j2 --input-kind text --format jsonl FILE > /dev/null (two workers)",
        cli=True,
        jobs=2,
    ),
    Tool(
        "urlsift-mbox-cli-j2",
        "urlsift scan -q -j2 --input-kind mbox --format jsonl FILE > /dev/null (two workers)",
        cli=True,
        mbox=True,
        jobs=2,
    ),
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
    mbox: bool = False  # an mbox archive: only the mbox tool runs on it

    @classmethod
    def of(cls, name: str, path: Path, what: str, peers: bool, mbox: bool = False) -> Text:
        return cls(name, path, what, peers, path.stat().st_size, mbox)


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
    x_floor: float | None = None  # time / floor-http time (lower is faster)
    x_floor_schemes: float | None = None  # time / floor-schemes time
    share_floor: float | None = None  # floor-http time / time: share of the floor's speed
    share_floor_schemes: float | None = None
    x_urlsift: float | None = None
    rss_ready_kb: int | None = None  # worker RSS after imports and reading the input
    peak_rss_kb: int | None = None  # worker peak RSS (for the CLI: its children's peak)
    note: str = ""


# --------------------------------------------------------------------------- workers


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace", newline="") as stream:
        return stream.read()


class _Sink(io.TextIOBase):
    """A text stream that counts what is written and keeps nothing (like ``/dev/null``:
    an in-memory buffer would hold every record and show up as the tool's memory)."""

    def __init__(self) -> None:
        super().__init__()
        self.chars = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.chars += len(text)
        return len(text)


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
        from urlsift.output.formats import make_writer

        def run_jsonl(text: str) -> int:
            writer = make_writer("jsonl", cast(TextIO, _Sink()))
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


def _cli_command(tool: str, path: str) -> list[str]:
    exe = Path(sys.executable).with_name("urlsift")
    program = str(exe) if exe.exists() else (shutil.which("urlsift") or "urlsift")
    spec = TOOL_BY_NAME[tool]
    kind = "mbox" if spec.mbox else "text"
    jobs = ["-j", str(spec.jobs)] if spec.jobs > 1 else []
    return [program, "scan", "-q", *jobs, "--input-kind", kind, "--format", "jsonl", path]


def _count_lines(stream: IO[bytes]) -> int:
    lines = 0
    while block := stream.read(1 << 16):
        lines += block.count(b"\n")
    return lines


def worker(tool: str, path: str, repeats: int, budget: float) -> None:
    """Time ``tool`` on the file; print one JSON line per run (flushed, so partial
    results survive a kill), then one line with the memory figures."""
    spent = 0.0
    if TOOL_BY_NAME[tool].cli:
        for _ in range(repeats):
            start = time.perf_counter()
            # Lines are counted as they come: holding the output here would raise this
            # worker's peak, which Linux then counts into the next child's ru_maxrss.
            with subprocess.Popen(
                _cli_command(tool, path), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
            ) as child:
                assert child.stdout is not None
                lines = _count_lines(child.stdout)
            seconds = time.perf_counter() - start
            if child.returncode != 0:
                raise SystemExit(f"{tool}: exit {child.returncode}")
            print(json.dumps({"seconds": seconds, "urls": lines}), flush=True)
            spent += seconds
            if spent > budget:
                break
        # The children's peak; Linux counts the forking worker's own peak in (a small
        # Python process), so this is an upper bound of the CLI's peak RSS.
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(json.dumps({"memory": {"peak_rss_kb": peak}}), flush=True)
        return
    run = _make_runner(tool)
    text = _read_text(path)
    ready = _proc_status_kb("VmRSS")
    _reset_peak_rss()
    for _ in range(repeats):
        start = time.perf_counter()
        count = run(text)
        seconds = time.perf_counter() - start
        print(json.dumps({"seconds": seconds, "urls": count}), flush=True)
        spent += seconds
        if spent > budget:
            break
    memory = {"rss_ready_kb": ready, "peak_rss_kb": _peak_rss_kb()}
    print(json.dumps({"memory": memory}), flush=True)


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
    records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    runs = [record for record in records if "seconds" in record]
    for record in records:
        if "memory" in record:
            result.rss_ready_kb = record["memory"].get("rss_ready_kb")
            result.peak_rss_kb = record["memory"].get("peak_rss_kb")
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


def _generate(kind: str, size: int, path: Path) -> Path:
    with path.open("w", encoding="utf-8", newline="\n") as out:
        gen_text.write(kind, size, SEED, out)
    return path


def build_texts(workdir: Path, quick: bool) -> tuple[list[Text], Path]:
    """Write the benchmark texts into ``workdir``; return them and the memory check's text.

    The generated texts are always there; the real corpora only when they are present.
    """
    slice_size = MB // 5 if quick else MB
    adversarial_size = MB // 4 if quick else MB
    texts: list[Text] = []
    gen_mail = _generate("mail", 4 * MB if quick else 20 * MB, workdir / "gen-mail.txt")
    what = f"gen_text.py mail, seed {SEED}: prose, quotes, headers, ~1 URL per 2 KB"
    texts.append(Text.of("gen-mail", gen_mail, what, False))
    path = _generate("mail", slice_size, workdir / "gen-mail-slice.txt")
    texts.append(Text.of("gen-mail-slice", path, "the same generator, smaller", True))
    path = _generate("dense", MB if quick else 5 * MB, workdir / "gen-dense.txt")
    what = "gen_text.py dense: 2-6 URLs per line, every form"
    texts.append(Text.of("gen-dense", path, what, False))
    path = _generate("dense", slice_size, workdir / "gen-dense-slice.txt")
    texts.append(Text.of("gen-dense-slice", path, "the same generator, smaller", True))
    path = _generate("mbox", 4 * MB if quick else 20 * MB, workdir / "gen.mbox")
    what = "gen_text.py mbox: multipart/alternative, QP, base64, format=flowed"
    texts.append(Text.of("mbox-gen", path, what, False, mbox=True))
    memory_source = gen_mail

    mboxes = [SHARED / "mbox" / name for name in MBOXES]
    if all(path.exists() for path in mboxes):
        mail = workdir / "mail.txt"
        with mail.open("wb") as out:
            for source in mboxes:
                with gzip.open(source, "rb") as src:
                    shutil.copyfileobj(src, out, 1 << 20)
        memory_source = mail
        if quick:
            head = workdir / "mail-head.txt"
            _write_slice(mail, head, 4 * MB)
            texts.append(Text.of("mail", head, "first 4 MB of the mail text", False))
            # Cut at a message boundary, so the archive stays an archive.
            data = head.read_bytes()
            archive = workdir / "mail-head.mbox"
            archive.write_bytes(data[: data.rfind(b"\nFrom ") + 1])
            texts.append(Text.of("mbox-real", archive, "the same, as an mbox", False, True))
        else:
            texts.append(Text.of("mail", mail, " + ".join(MBOXES) + ", decompressed", False))
            what = "the same file read as an mbox archive"
            texts.append(Text.of("mbox-real", mail, what, False, mbox=True))
        _write_slice(mail, workdir / "mail-slice.txt", slice_size)
        what = "first bytes of the mail text"
        texts.append(Text.of("mail-slice", workdir / "mail-slice.txt", what, True))
    else:
        print(f"  {SHARED / 'mbox'}: missing, real mail skipped", file=sys.stderr)
    rfc_files = sorted(RFC_DIR.glob("*.txt"))
    if rfc_files:
        rfc = workdir / "rfc.txt"
        with rfc.open("wb") as out:
            for path in rfc_files:
                out.write(path.read_bytes())
        texts.append(Text.of("rfc", rfc, f"{RFC_DIR.name}/*.txt concatenated", False))
        _write_slice(rfc, workdir / "rfc-slice.txt", slice_size)
        what = "first bytes of the RFC text"
        texts.append(Text.of("rfc-slice", workdir / "rfc-slice.txt", what, True))
    else:
        print(f"  {RFC_DIR}: missing, RFC text skipped", file=sys.stderr)

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
    return texts, memory_source


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
    """Fill in each result's ratios to the floors and to the urlsift library (same text)."""
    by_text: dict[str, dict[str, Result]] = {}
    for result in results:
        by_text.setdefault(result.text, {})[result.tool] = result
    for tools in by_text.values():
        floor = tools.get("floor-http")
        schemes = tools.get("floor-schemes")
        ours = tools.get("urlsift")
        for result in tools.values():
            if not result.median_s:
                continue
            if floor and floor.median_s:
                result.x_floor = result.median_s / floor.median_s
                result.share_floor = floor.median_s / result.median_s
            if schemes and schemes.median_s:
                result.x_floor_schemes = result.median_s / schemes.median_s
                result.share_floor_schemes = schemes.median_s / result.median_s
            if ours and ours.median_s:
                result.x_urlsift = result.median_s / ours.median_s


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _mib(kb: int | None) -> str:
    return "-" if kb is None else f"{kb / 1024:.1f}"


def print_tables(texts: list[Text], results: list[Result]) -> None:
    header = (
        "tool",
        "MB/s",
        "median s",
        "runs",
        "URLs",
        "x floor-http",
        "x floor-schemes",
        "share http",
        "share schemes",
        "x urlsift",
        "RSS ready",
        "peak RSS",
        "note",
    )
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
                    _fmt(r.x_floor_schemes, ".1f"),
                    _fmt(r.share_floor, ".3f"),
                    _fmt(r.share_floor_schemes, ".3f"),
                    _fmt(r.x_urlsift, ".2f"),
                    _mib(r.rss_ready_kb),
                    _mib(r.peak_rss_kb),
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
    print_columns(table)


def check_targets(
    results: list[Result], memory: list[dict[str, object]], *, quick: bool = False
) -> list[dict[str, object]]:
    """Compare the figures with the issue's targets; return one record per target.

    In a quick run the speed targets are shown but not judged (``passed`` None): its
    texts are a fifth of the size, so the CLI's start-up weighs five times more.
    """
    by_key = {(r.tool, r.text): r for r in results}
    checks: list[dict[str, object]] = []

    def add(target: str, value: float | None, limit: float, unit: str, below: bool = False) -> None:
        passed = None if value is None else (value < limit if below else value >= limit)
        if quick and unit != "MiB":
            passed = None
            target += " [quick run: not judged]"
        checks.append(
            {"target": target, "value": value, "limit": limit, "unit": unit, "passed": passed}
        )

    for text in (TARGET_TEXT, "mail"):
        for tool in (TARGET_TOOL, "urlsift-cli", "urlsift-cli-j2"):
            result = by_key.get((tool, text))
            if result is not None:
                add(
                    f"{tool} on {text} >= {TARGET_MBPS:g} MB/s",
                    result.mb_per_s,
                    TARGET_MBPS,
                    "MB/s",
                )
        result = by_key.get((TARGET_TOOL, text))
        if result is not None:
            add(
                f"{TARGET_TOOL} on {text} >= 1/3 of {TARGET_FLOOR} speed (aim 1/2)",
                result.share_floor_schemes,
                TARGET_FLOOR_SHARE,
                "share",
            )
            if result.share_floor is not None:
                checks.append(
                    {
                        "target": f"(information) {TARGET_TOOL} on {text}: share of "
                        "floor-http speed (a literal-prefix search for http(s) only)",
                        "value": result.share_floor,
                        "limit": None,
                        "unit": "share",
                        "passed": None,
                    }
                )
    for text in ("mbox-gen", "mbox-real"):
        for tool, jobs in (("urlsift-mbox-cli", ""), ("urlsift-mbox-cli-j2", " -j2")):
            result = by_key.get((tool, text))
            if result is not None:
                add(
                    f"urlsift scan{jobs} --format jsonl on {text} >= {TARGET_MBOX_MBPS:g} MB/s",
                    result.mb_per_s,
                    TARGET_MBOX_MBPS,
                    "MB/s",
                )
    # The target is about streaming: the CLI rows and the iter_urls memory table. The
    # library rows hold every record in the list extract() returns; shown for information.
    streaming = [
        r.peak_rss_kb / 1024
        for r in results
        if TOOL_BY_NAME[r.tool].cli and r.peak_rss_kb is not None
    ]
    streaming += [int(str(row["peak_rss_kb"])) / 1024 for row in memory if "peak_rss_kb" in row]
    add(
        f"peak RSS of the streaming runs (CLI rows, memory table) < {TARGET_PEAK_RSS_MB:g} MiB",
        max(streaming, default=None),
        TARGET_PEAK_RSS_MB,
        "MiB",
        below=True,
    )
    library = [
        r.peak_rss_kb / 1024
        for r in results
        if r.tool.startswith("urlsift") and not TOOL_BY_NAME[r.tool].cli and r.peak_rss_kb
    ]
    if library:
        checks.append(
            {
                "target": "(information) peak RSS of the library rows, every record in a list",
                "value": max(library),
                "limit": None,
                "unit": "MiB",
                "passed": None,
            }
        )
    return checks


def print_targets(checks: list[dict[str, object]]) -> None:
    print("\ntargets (issue 6), this machine, this run:")
    for check in checks:
        value = check["value"]
        shown = "-" if value is None else f"{float(str(value)):.3f} {check['unit']}"
        passed = check["passed"]
        verdict = (
            ("info" if check["limit"] is None else "n/a")
            if passed is None
            else ("PASS" if passed else "FAIL")
        )
        print(f"  {verdict:<4}  {check['target']}: {shown}")
    print(
        "  (share = floor time / urlsift time on the same text: 1 is floor speed; the\n"
        "   peak RSS of the CLI rows is an upper bound, see benchmarks/README.md)"
    )


def run(args: argparse.Namespace) -> tuple[int, dict[str, object]]:
    """Measure, print the tables and targets, write the JSON; return (status, report)."""
    selected = [TOOL_BY_NAME[name] for name in args.tools.split(",")] if args.tools else TOOLS
    started = time.time()
    compile_bytecode()  # the CLI starts as installed, from bytecode
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="urlsift-bench-") as tmp:
        workdir = Path(tmp)
        texts, mail = build_texts(workdir, args.quick)
        empty = workdir / "empty.txt"
        empty.write_text("")
        for text in texts:
            for tool in selected:
                if (tool.peer and not text.peers) or tool.mbox != text.mbox:
                    continue
                print(f"  {text.name:<22} {tool.name:<16}", end="", flush=True, file=sys.stderr)
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
        f"{args.repeats} runs; 'x floor-*' = time / floor time, 'x urlsift' = time /"
        " urlsift time, on the same text (lower is faster); 'share *' = floor time / time;"
        " RSS in MiB."
    )
    print_tables(texts, results)
    if startup is not None and startup.median_s is not None:
        print(f"\nurlsift CLI start-up (empty file): {startup.median_s * 1000:.0f} ms")
    if memory:
        print_memory(memory)
    targets = check_targets(results, memory, quick=args.quick)
    print_targets(targets)

    report: dict[str, object] = {
        "meta": run_meta(
            started,
            quick=args.quick,
            repeats=args.repeats,
            budget_s=args.budget,
            timeout_s=args.timeout,
            seed=SEED,
            corpora=str(SHARED) if SHARED.exists() else None,
        ),
        "tools": {tool.name: tool.what for tool in selected},
        "texts": [{"name": t.name, "bytes": t.size, "what": t.what, "mbox": t.mbox} for t in texts],
        "results": [asdict(r) for r in results],
        "cli_startup_s": None if startup is None else startup.median_s,
        "memory": memory,
        "targets": targets,
    }
    print()
    write_report(args.output, report)
    return 0, report


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the options and fill in the defaults that depend on ``--quick``."""
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
    args.repeats = args.repeats or (2 if args.quick else 5)
    args.timeout = args.timeout or (15.0 if args.quick else 60.0)
    args.budget = args.budget or args.timeout / 2
    return args


def main(argv: list[str] | None = None) -> int:
    """Command line (and the worker entry points)."""
    args = parse_args(argv)
    if args.worker:
        tool, path, repeats, budget = args.worker
        worker(tool, path, int(repeats), float(budget))
        return 0
    if args.memory_worker:
        memory_worker(*args.memory_worker)
        return 0
    status, _ = run(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
