"""Flat memory: peak RSS of ``urlsift scan`` streaming generated text at two sizes.

Strategy: ``benchmarks/gen_text.py`` writes mail-like text (or an mbox archive) to a pipe
and ``urlsift scan - -q --format jsonl`` reads it from standard input, output discarded,
so neither side ever holds the input. The scan's peak resident memory is read two ways:

* ``VmHWM`` from ``/proc/<pid>/status``, polled while it runs (the kernel's high-water
  mark for that process image since its ``exec``; the last poll before exit is kept);
* ``ru_maxrss`` from ``os.wait4`` on that process alone (exact at exit, but Linux carries
  the forking parent's high-water mark over ``fork``/``exec``, so it is an upper bound
  that includes this small driver's own footprint).

Each input kind (``text``: plain mail text, ``--input-kind text``; ``mbox``: a generated
archive with MIME decoding, ``--input-kind mbox``) runs at a small and a big size (1 MB and
1 GB; ``--quick``: 1 MB and 100 MB). The check passes when every peak is under
:data:`LIMIT_MB` and the big run's peak is within :data:`FLAT_MB` of the small run's.

Prints a table, writes ``benchmarks/results/memory.json``, exits 1 when the check fails.

``--cap`` measures instead one message near the 64 MiB message cap (:func:`cap_message`:
an mbox holding a single message with a ~59 MB base64 ``text/plain`` body, one with a
quoted-printable body, and a ``multipart/mixed`` one whose second part is the base64 body),
written to a temporary file and scanned as a path (``urlsift scan FILE -q --format jsonl``):
peak RSS (VmHWM: this driver builds the message, so wait4's figure holds its footprint)
against :data:`CAP_LIMIT` times the cap (the check passes under it; it was about 9 times
before the large-body paths of ``sources.transfer`` and ``sources.parse``).

``--parquet`` measures ``urlsift scan FILE -q --format parquet -o DIR`` (issue 24 item 10:
the writer held up to a million rows, 1.19 GB from a 250 KB ``.gz``) on files of long URLs
(:func:`long_urls`: ~250-character URLs, one per line, in wrappers) of 1, 4 and 16 MiB on
disk, plain (``text``) and gzip-compressed (``gz``, about 6 times smaller than the text it
holds; the issue's was 25 times). The figure is the peak RSS above the same command's on an empty
file (the interpreter, pyarrow and pandas cost the same whatever the input), per input
byte on disk; the check passes when every case is under the smaller of 4 times the 64 MiB
message cap and 30 times the file size (:data:`PARQUET_CAP_TIMES`, :data:`PARQUET_FILE_TIMES`).

Run: ``.venv/bin/python benchmarks/bench_memory.py [--quick] [--big 1G] [--small 1M]``
or ``.venv/bin/python benchmarks/bench_memory.py --cap [--cap-size 59M]``
or ``.venv/bin/python benchmarks/bench_memory.py --parquet [--parquet-sizes 1,4,16]``
"""

from __future__ import annotations

import argparse
import base64
import gzip
import io
import os
import quopri
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _report import compile_bytecode, print_columns, run_meta, write_report  # noqa: E402
from gen_text import parse_size  # noqa: E402

RESULTS = HERE / "results" / "memory.json"
CAP_RESULTS = HERE / "results" / "memory-cap.json"
LIMIT_MB = 100.0
"""Largest allowed peak RSS of the scan, in MiB."""
FLAT_MB = 10.0
"""Largest allowed growth of the peak from the small to the big input, in MiB."""
POLL_S = 0.02
KINDS = {"text": ("mail", "text"), "mbox": ("mbox", "mbox")}  # kind -> (generator, input kind)
CAP_BYTES = 64 << 20
"""The message cap (``DEFAULT_MAX_MESSAGE_BYTES``)."""
CAP_LIMIT = 3.0
"""Largest allowed peak RSS for a message near the cap, in multiples of the cap."""
CAP_KINDS = ("base64", "quoted-printable", "multipart")
PARQUET_RESULTS = HERE / "results" / "memory-parquet.json"
PARQUET_CAP_TIMES = 4.0
"""Largest allowed peak (above the empty run's), in multiples of the message cap..."""
PARQUET_FILE_TIMES = 30.0
"""... or of the input file's size, whichever is smaller."""
PARQUET_KINDS = ("text", "gz")


def _urlsift() -> str:
    exe = Path(sys.executable).with_name("urlsift")
    return str(exe) if exe.exists() else (shutil.which("urlsift") or "urlsift")


def _vm_hwm_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None  # gone, or a zombie (no memory left to report)


def wait_for_peak(process: subprocess.Popen[Any]) -> tuple[int, Any]:
    """Poll ``process``'s VmHWM until it exits, then reap it.

    Returns:
        Its peak RSS in KiB and its ``wait4`` resource usage; ``returncode`` is set.
    """
    hwm = 0
    while (value := _vm_hwm_kb(process.pid)) is not None:
        hwm = max(hwm, value)
        time.sleep(POLL_S)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return hwm, usage


def measure(kind: str, size: int, seed: int) -> dict[str, object]:
    """Stream ``size`` bytes of generated ``kind`` through the CLI; return its peak RSS."""
    generator, input_kind = KINDS[kind]
    gen_command = [sys.executable, str(HERE / "gen_text.py"), generator, "--size", str(size)]
    gen_command += ["--seed", str(seed)]
    scan_command = [_urlsift(), "scan", "-", "-q", "--input-kind", input_kind]
    scan_command += ["--format", "jsonl"]
    start = time.perf_counter()
    gen = subprocess.Popen(gen_command, stdout=subprocess.PIPE)
    assert gen.stdout is not None
    scan = subprocess.Popen(scan_command, stdin=gen.stdout, stdout=subprocess.DEVNULL)
    gen.stdout.close()  # the scan holds the pipe's read end now
    hwm, usage = wait_for_peak(scan)
    seconds = time.perf_counter() - start
    gen.wait()
    if scan.returncode != 0 or gen.returncode != 0:
        raise RuntimeError(f"{kind}: scan exit {scan.returncode}, generator exit {gen.returncode}")
    return {
        "kind": kind,
        "input_kind": input_kind,
        "bytes": size,
        "seconds": round(seconds, 2),
        "mb_per_s": round(size / 10**6 / seconds, 1),
        "peak_rss_mb": round(hwm / 1024, 1),
        "maxrss_wait4_mb": round(usage.ru_maxrss / 1024, 1),
    }


def cap_message(kind: str, size: int) -> bytes:
    """An mbox of one message about ``size`` bytes long, its body encoded as ``kind``.

    ``kind`` is ``base64`` or ``quoted-printable`` (a single ``text/plain`` part), or
    ``multipart`` (a small ``text/plain`` part, then the base64 one). The text is lines of
    mail-like words with a URL and a UTF-8 word each.
    """
    line = b"line %08d see http://h.example/p/%08d caf\xc3\xa9 ok\n"
    per_line = len(line % (0, 0))
    # base64 grows the text by 4/3 and a line end per 76 symbols; QP by "=C3=A9" per line.
    growth = 4 / 3 * 77 / 76 if kind != "quoted-printable" else (per_line + 4) / per_line
    text = b"".join(line % (n, n) for n in range(int(size / growth / per_line)))
    head = b"From a@b.example Thu Sep 13 12:30:05 2001\nFrom: a@b.example\nSubject: big\n"
    head += b"MIME-Version: 1.0\n"
    plain = b"Content-Type: text/plain; charset=utf-8\n"
    if kind == "quoted-printable":
        body = plain + b"Content-Transfer-Encoding: quoted-printable\n\n"
        return head + body + quopri.encodestring(text) + b"\n"
    encoded = plain + b"Content-Transfer-Encoding: base64\n\n" + base64.encodebytes(text)
    if kind == "base64":
        return head + encoded + b"\n"
    small = plain + b"\nsmall part http://small.example/\n"
    parts = b"--BB\n" + small + b"--BB\n" + encoded + b"--BB--\n"
    return head + b"Content-Type: multipart/mixed; boundary=BB\n\n" + parts + b"\n"


def measure_cap(kind: str, size: int) -> dict[str, object]:
    """Scan one message of about ``size`` bytes encoded as ``kind``; return its peak RSS."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{kind}.mbox"
        data = cap_message(kind, size)
        path.write_bytes(data)
        del data
        command = [_urlsift(), "scan", str(path), "-q", "--format", "jsonl"]
        start = time.perf_counter()
        scan = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        hwm, usage = wait_for_peak(scan)
        seconds = time.perf_counter() - start
        if scan.returncode != 0:
            raise RuntimeError(f"{kind}: scan exit {scan.returncode}")
        message = path.stat().st_size
    return {
        "kind": kind,
        "message_bytes": message,
        "seconds": round(seconds, 2),
        "peak_rss_mb": round(hwm / 1024, 1),
        "maxrss_wait4_mb": round(usage.ru_maxrss / 1024, 1),
        "times_cap": round(hwm * 1024 / CAP_BYTES, 2),  # VmHWM: wait4 counts this driver
    }


def run_cap(size: int, output: Path) -> int:
    """Measure every CAP_KINDS message, print, write JSON; return the exit status."""
    started = time.time()
    compile_bytecode()
    rows = []
    for kind in CAP_KINDS:
        print(f"  {kind} {_size_text(size)}", file=sys.stderr, flush=True)
        rows.append(measure_cap(kind, size))
    about = f"one message of ~{_size_text(size)}"
    print(f"\nmemory near the cap: urlsift scan FILE -q --format jsonl, {about}")
    table = [("body", "message", "seconds", "peak RSS (VmHWM)", "ru_maxrss (wait4)", "x cap")]
    for row in rows:
        table.append(
            (
                str(row["kind"]),
                _size_text(int(str(row["message_bytes"]))),
                f"{row['seconds']}",
                f"{row['peak_rss_mb']} MiB",
                f"{row['maxrss_wait4_mb']} MiB",
                f"{row['times_cap']}",
            )
        )
    print_columns(table)
    passed = all(float(str(row["times_cap"])) < CAP_LIMIT for row in rows)
    print(f"\n  every peak < {CAP_LIMIT:g} x the 64 MiB cap: {'PASS' if passed else 'FAIL'}")
    report: dict[str, object] = {
        "meta": run_meta(started, size=size, cap_limit=CAP_LIMIT),
        "rows": rows,
        "passed": passed,
    }
    write_report(output, report)
    return 0 if passed else 1


# -- one big message per body shape and read path (issue 24 item 12) ----------------------

BODY_KINDS = ("flowed-emoji", "html", "ascii")
"""Body shapes of ``--bodies``: ``format=flowed`` lines with an emoji each (text of 4-byte
characters), an HTML part, plain ASCII lines."""
READ_PATHS = ("mbox", "eml")
"""How the message reaches urlsift: one message in an mbox file (read whole by the
splitter), or alone in an ``.eml`` file (read whole, or streamed when its header allows)."""
BODY_SIZES = (1 << 20, 4 << 20, 16 << 20)
BODY_TIMES_CAP = 4.0
BODY_TIMES_FILE = 30.0


def body_message(kind: str, size: int) -> bytes:
    """One message of about ``size`` bytes whose body is shaped as ``kind`` (BODY_KINDS)."""
    head = b"From: a@b.example\nSubject: big\nMIME-Version: 1.0\n"
    if kind == "flowed-emoji":
        line = "line %08d see http://h.example/p/%08d \U0001f600 soft \n".encode()
        head += b"Content-Type: text/plain; charset=utf-8; format=flowed\n\n"
    elif kind == "html":
        line = b'<p>line %08d see <a href="http://h.example/p/%08d">here</a> &amp; more</p>\n'
        head += b"Content-Type: text/html; charset=utf-8\n\n"
    else:
        line = b"line %08d see http://h.example/p/%08d and more words here\n"
        head += b"Content-Type: text/plain; charset=us-ascii\n\n"
    count = max(1, (size - len(head)) // len(line % (0, 0)))
    return head + b"".join(line % (n, n) for n in range(count))


def measure_body(kind: str, path_kind: str, size: int) -> dict[str, object]:
    """Scan one ``kind`` message of ``size`` bytes read as ``path_kind``; its peak RSS."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{kind}.{path_kind}"
        data = body_message(kind, size)
        envelope = b"From a@b.example Thu Sep 13 12:30:05 2001\n" if path_kind == "mbox" else b""
        path.write_bytes(envelope + data)
        del data
        file_bytes = path.stat().st_size
        command = [_urlsift(), "scan", str(path), "-q", "--format", "jsonl"]
        start = time.perf_counter()
        scan = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        hwm, _ = wait_for_peak(scan)
        seconds = time.perf_counter() - start
        if scan.returncode != 0:
            raise RuntimeError(f"{kind} {path_kind}: scan exit {scan.returncode}")
    peak = hwm * 1024
    limit = min(BODY_TIMES_CAP * CAP_BYTES, BODY_TIMES_FILE * file_bytes)
    return {
        "kind": kind,
        "read_path": path_kind,
        "file_bytes": file_bytes,
        "seconds": round(seconds, 2),
        "peak_rss_mb": round(peak / 2**20, 1),
        "peak_per_byte": round(peak / file_bytes, 2),
        "limit_mb": round(limit / 2**20, 1),
        "ok": peak <= limit,
    }


def run_bodies(sizes: tuple[int, ...], output: Path) -> int:
    """Measure every body shape on every read path at each size; print, write JSON."""
    started = time.time()
    compile_bytecode()
    rows = []
    for kind in BODY_KINDS:
        for path_kind in READ_PATHS:
            for size in sizes:
                print(f"  {kind} {path_kind} {size >> 20} MiB", file=sys.stderr, flush=True)
                rows.append(measure_body(kind, path_kind, size))
    print("\nmemory of one big message: urlsift scan FILE -q --format jsonl (VmHWM)")
    table = [("body", "read as", "file", "seconds", "peak RSS", "per input byte", "limit", "")]
    for row in rows:
        table.append(
            (
                str(row["kind"]),
                str(row["read_path"]),
                f"{int(str(row['file_bytes'])) / 2**20:.1f} MiB",
                f"{row['seconds']}",
                f"{row['peak_rss_mb']} MiB",
                f"{row['peak_per_byte']}",
                f"{row['limit_mb']} MiB",
                "ok" if row["ok"] else "OVER",
            )
        )
    print_columns(table)
    passed = all(bool(row["ok"]) for row in rows)
    print(
        f"\n  every peak <= min({BODY_TIMES_CAP:g} x the cap, {BODY_TIMES_FILE:g} x the file): "
        f"{'PASS' if passed else 'FAIL'}"
    )
    write_report(output, {"meta": run_meta(started, sizes=list(sizes)), "rows": rows})
    return 0 if passed else 1


def long_urls(size: int, compressed: bool, seed: int = 1) -> bytes:
    """Lines of long URLs in ``<URL:...>`` wrappers, about ``size`` bytes on disk.

    Paths are words drawn from a small vocabulary, so gzip packs the text about 6 times
    (``compressed``: written through gzip until the packed size reaches ``size``).
    """
    rng = random.Random(seed)
    words = [f"{rng.choice('abcdefgh')}{n:02d}seg" for n in range(40)]
    buffer = io.BytesIO()
    sink: Any = gzip.GzipFile(fileobj=buffer, mode="wb", compresslevel=6) if compressed else buffer
    n = 0
    while buffer.tell() < size:
        block = []
        for _ in range(200):
            path = "/".join(rng.choice(words) for _ in range(40))
            block.append(f"see <URL:http://h{n % 997}.example/{path}?id={n}> here\n")
            n += 1
        sink.write("".join(block).encode())
    if compressed:
        sink.close()
    return buffer.getvalue()


def measure_parquet(path: Path) -> tuple[int, float, int]:
    """Run ``urlsift scan PATH -q --format parquet -o DIR``; return (VmHWM KiB, s, rows)."""
    with tempfile.TemporaryDirectory() as folder:
        command = [_urlsift(), "scan", str(path), "-q", "--format", "parquet"]
        command += ["-o", str(Path(folder) / "out")]
        start = time.perf_counter()
        scan = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        hwm, _ = wait_for_peak(scan)
        seconds = time.perf_counter() - start
        if scan.returncode != 0:
            raise RuntimeError(f"{path.name}: scan exit {scan.returncode}")
        import pyarrow.parquet as pq

        rows = sum(pq.read_metadata(p).num_rows for p in (Path(folder) / "out").glob("*.parquet"))
    return hwm, seconds, rows


def run_parquet(sizes_mib: list[int], output: Path) -> int:
    """Measure every PARQUET_KINDS file at every size, print, write JSON; return the status."""
    started = time.time()
    compile_bytecode()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        empty = Path(folder) / "empty.txt"
        empty.write_bytes(b"")
        base_kib = min(measure_parquet(empty)[0] for _ in range(2))
        for kind in PARQUET_KINDS:
            for mib in sizes_mib:
                size = mib << 20
                print(f"  parquet {kind} {mib} MiB", file=sys.stderr, flush=True)
                path = Path(folder) / f"urls-{mib}.txt{'.gz' if kind == 'gz' else ''}"
                data = long_urls(size, kind == "gz")
                path.write_bytes(data)
                text_bytes = len(gzip.decompress(data)) if kind == "gz" else len(data)
                del data
                hwm, seconds, count = measure_parquet(path)
                above = max(0, hwm - base_kib) * 1024
                limit = min(PARQUET_CAP_TIMES * CAP_BYTES, PARQUET_FILE_TIMES * size)
                rows.append(
                    {
                        "kind": kind,
                        "file_bytes": path.stat().st_size,
                        "text_bytes": text_bytes,
                        "rows": count,
                        "seconds": round(seconds, 2),
                        "peak_rss_mb": round(hwm / 1024, 1),
                        "above_empty_mb": round(above / 2**20, 1),
                        "per_input_byte": round(above / path.stat().st_size, 2),
                        "limit_mb": round(limit / 2**20, 1),
                        "ok": above < limit,
                    }
                )
                path.unlink()
    print(
        "\nmemory: urlsift scan FILE -q --format parquet -o DIR, files of long URLs "
        f"(empty file: {base_kib / 1024:.1f} MiB)"
    )
    table = [("kind", "file", "text", "rows", "s", "peak RSS", "above empty", "/ byte", "limit")]
    for row in rows:
        table.append(
            (
                str(row["kind"]),
                f"{int(str(row['file_bytes'])) / 2**20:.1f} MiB",
                f"{int(str(row['text_bytes'])) / 2**20:.1f} MiB",
                f"{row['rows']:,}",
                f"{row['seconds']}",
                f"{row['peak_rss_mb']} MiB",
                f"{row['above_empty_mb']} MiB",
                f"{row['per_input_byte']}",
                f"{row['limit_mb']} MiB {'PASS' if row['ok'] else 'FAIL'}",
            )
        )
    print_columns(table)
    passed = all(bool(row["ok"]) for row in rows)
    print(
        f"\n  every peak above the empty run < min({PARQUET_CAP_TIMES:g} x 64 MiB cap, "
        f"{PARQUET_FILE_TIMES:g} x file size): {'PASS' if passed else 'FAIL'}"
    )
    report: dict[str, object] = {
        "meta": run_meta(started, sizes_mib=sizes_mib, empty_peak_mb=round(base_kib / 1024, 1)),
        "rows": rows,
        "passed": passed,
    }
    write_report(output, report)
    return 0 if passed else 1


def _size_text(size: int) -> str:
    return f"{size / 10**9:g} GB" if size >= 10**9 else f"{size / 10**6:g} MB"


def run(
    sizes: tuple[int, int], kinds: list[str], seed: int, output: Path
) -> tuple[int, dict[str, object]]:
    """Measure every kind at both sizes, print, write JSON; return (exit status, report)."""
    started = time.time()
    compile_bytecode()  # the CLI starts as installed, from bytecode
    rows: list[dict[str, object]] = []
    checks: list[dict[str, object]] = []
    for kind in kinds:
        pair = []
        for size in sizes:
            print(f"  {kind} {_size_text(size)}", file=sys.stderr, flush=True)
            pair.append(measure(kind, size, seed))
        rows += pair
        small, big = (float(str(row["peak_rss_mb"])) for row in pair)
        ok = max(small, big) < LIMIT_MB and big - small <= FLAT_MB
        checks.append(
            {"kind": kind, "small_mb": small, "big_mb": big, "ratio": big / small, "ok": ok}
        )
    print(f"\nmemory: urlsift scan - --format jsonl, input piped from gen_text.py (seed {seed})")
    header = ("kind", "input", "seconds", "MB/s", "peak RSS (VmHWM)", "ru_maxrss (wait4)")
    table = [header]
    for row in rows:
        table.append(
            (
                str(row["kind"]),
                _size_text(int(str(row["bytes"]))),
                f"{row['seconds']}",
                f"{row['mb_per_s']}",
                f"{row['peak_rss_mb']} MiB",
                f"{row['maxrss_wait4_mb']} MiB",
            )
        )
    print_columns(table)
    print()
    for check in checks:
        print(
            f"  {check['kind']}: peak {check['small_mb']} MiB at {_size_text(sizes[0])}, "
            f"{check['big_mb']} MiB at {_size_text(sizes[1])} (x{check['ratio']:.2f}); "
            f"< {LIMIT_MB:g} MiB and flat (growth <= {FLAT_MB:g} MiB): "
            f"{'PASS' if check['ok'] else 'FAIL'}"
        )
    passed = all(bool(check["ok"]) for check in checks)
    report: dict[str, object] = {
        "meta": run_meta(started, sizes=list(sizes), limit_mb=LIMIT_MB, flat_mb=FLAT_MB),
        "rows": rows,
        "checks": checks,
        "passed": passed,
    }
    write_report(output, report)
    return (0 if passed else 1), report


def main(argv: list[str] | None = None) -> int:
    """Command line; exit status 1 when memory is not flat or not under the limit."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 MB and 100 MB")
    parser.add_argument("--small", default="1M", help="small input size (default 1M)")
    parser.add_argument("--big", help="big input size (default 1G; quick 100M)")
    parser.add_argument("--kind", action="append", choices=sorted(KINDS), help="repeatable")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--cap", action="store_true", help="one message near the 64 MiB cap")
    parser.add_argument("--cap-size", default="59M", help="its size (default 59M)")
    parser.add_argument("--parquet", action="store_true", help="--format parquet, long URLs")
    parser.add_argument("--parquet-sizes", default="1,4,16", help="MiB on disk (default 1,4,16)")
    parser.add_argument(
        "--bodies", action="store_true", help="flowed/HTML/ASCII messages, mbox and .eml"
    )
    parser.add_argument("--body-sizes", default="1,4,16", help="MiB, comma-separated")
    args = parser.parse_args(argv)
    if args.bodies:
        sizes_mib = tuple(int(x) << 20 for x in args.body_sizes.split(","))
        return run_bodies(sizes_mib, args.output or RESULTS.with_name("memory-bodies.json"))
    if args.parquet:
        sizes = [int(size) for size in args.parquet_sizes.split(",")]
        return run_parquet(sizes, args.output or PARQUET_RESULTS)
    if args.cap:
        return run_cap(parse_size(args.cap_size), args.output or CAP_RESULTS)
    big = parse_size(args.big or ("100M" if args.quick else "1G"))
    sizes = (parse_size(args.small), big)
    status, _ = run(sizes, args.kind or list(KINDS), args.seed, args.output or RESULTS)
    return status


if __name__ == "__main__":
    sys.exit(main())
