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

import sys
from functools import partial
from pathlib import Path

# ab_share puts the checkout named on the command line first on sys.path.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ab_share import ROOT, best, texts

from urlsift import Scanner


def _scan(text: str, chunk: int) -> int:
    scanner = Scanner()
    found = 0
    for i in range(0, len(text), chunk):
        found += len(scanner.feed(text[i : i + chunk]))
    return found + len(scanner.close())


def main() -> None:
    """Print the best scanning times per text and chunk size."""
    for name, text in texts().items():
        whole = best(partial(_scan, text, 1 << 16), 7)
        small = best(partial(_scan, text[: 1 << 20], 16), 5)
        print(
            f"{ROOT.name:14s} {name:9s} 64K chunks {whole * 1000:7.1f} ms  "
            f"1 MiB by 16 chars {small * 1000:7.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
