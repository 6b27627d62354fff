"""A/B of the scanner alone (``Scanner.feed`` and ``close``), for two checkouts run in turn.

Usage::

    python benchmarks/ab_scanner.py /work/main         # that checkout's src, this python
    python benchmarks/ab_scanner.py /work/wt-NAME

Run it alternately for the two checkouts, a few rounds, and compare the best times (the
machine is shared: see ``ab_share.py``). Prints, per text, the best time of scanning it
fed in 64 KiB chunks, and of scanning its first MiB fed 16 characters at a time (the cost
of ``feed`` itself). Texts: ``gen_text.py mail`` (20 MB, seed 1) and the two real archives
``bench_scan.py`` uses, decompressed, when the shared corpora are there.
"""

from __future__ import annotations

import gc
import gzip
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "src")]

import gen_text  # noqa: E402

from urlsift import Scanner  # noqa: E402

MBOXES = ("linux-mips-2001.mbox.gz", "usrp-users-2019.mbox.gz")
SHARED = Path("/work/shared/corpora/mbox")


def best(run: Callable[[], object], runs: int) -> float:
    """Return the fastest of ``runs`` runs, in seconds (no collection inside a run)."""
    fastest = float("inf")
    for _ in range(runs):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        run()
        fastest = min(fastest, time.perf_counter() - start)
        gc.enable()
    return fastest


def _scan(text: str, chunk: int) -> int:
    scanner = Scanner()
    found = 0
    for i in range(0, len(text), chunk):
        found += len(scanner.feed(text[i : i + chunk]))
    return found + len(scanner.close())


def main() -> None:
    """Print the best scanning times per text and chunk size."""
    texts = {"gen-mail": gen_text.generate("mail", 20_000_000, 1)[0]}
    if SHARED.is_dir():
        raw = b"".join(gzip.decompress((SHARED / name).read_bytes()) for name in MBOXES)
        texts["mail"] = raw.decode("utf-8", "surrogateescape")
    for name, text in texts.items():
        whole = best(partial(_scan, text, 1 << 16), 7)
        small = best(partial(_scan, text[: 1 << 20], 16), 5)
        print(
            f"{ROOT.name:14s} {name:9s} 64K chunks {whole * 1000:7.1f} ms  "
            f"1 MiB by 16 chars {small * 1000:7.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
