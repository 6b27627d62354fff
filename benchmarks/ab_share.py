"""A/B of urlsift's share of the regex floor's speed, for two checkouts run in turn.

Usage::

    python benchmarks/ab_share.py /work/main            # with /work/main/.venv/bin/python
    python benchmarks/ab_share.py /work/wt-NAME         # with that checkout's python
    python benchmarks/ab_share.py /work/wt-NAME --cpu   # process CPU time, not wall time
    python benchmarks/ab_share.py /work/wt-NAME --cpu --only mail   # one text only

``--only NAME`` measures one of the texts (``gen-mail``, ``mail``, ``rfc``); ``--runs N``
takes urlsift's best of N runs (default 5). ``--cpu`` times
each run by the process's CPU time (``time.process_time``): on a machine
that other jobs share, wall time counts their turns too, CPU time much less so.

Run it alternately for the two checkouts, a few rounds: on a shared machine a single
``bench_scan.py`` run swings by a factor of two, while the best of several runs taken
close together in time is stable to a few per cent. Prints, per text, the best time of
the ``floor-schemes`` regex of ``bench_scan.py``, the best time of ``bench_scan.py``'s
``urlsift+jsonl`` tool (``urlsift.extract`` then the JSON Lines writer of
``urlsift.output.formats``, into a sink that discards), and the share (floor time / urlsift
time). Texts: ``gen_text.py mail`` (20 MB, seed 1), the two real archives
``bench_scan.py`` uses, decompressed, and its RFC text (the RFCs of ``rfc-url-wrapper``
concatenated).
"""

from __future__ import annotations

import gc
import gzip
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TextIO, cast

_ONLY = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv[1:-1] else None
_RUNS = sys.argv[sys.argv.index("--runs") + 1] if "--runs" in sys.argv[1:-1] else None
_ARGS = [arg for arg in sys.argv[1:] if arg not in ("--cpu", "--only", _ONLY, "--runs", _RUNS)]
ROOT = Path(_ARGS[0] if _ARGS else Path(__file__).resolve().parent.parent)
CLOCK = time.process_time if "--cpu" in sys.argv[1:] else time.perf_counter
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "src")]

import gen_text  # noqa: E402
import regex  # noqa: E402

import urlsift  # noqa: E402

try:
    from urlsift.output.formats import make_writer
except ModuleNotFoundError:  # a checkout from before the stage packages (993a25e)
    from urlsift.formats import make_writer  # type: ignore[no-redef]

FLOOR = regex.compile(r'(?i)\b(?:https?|ftp|mailto|news):[^\s<>"]+')
MBOXES = ("linux-mips-2001.mbox.gz", "usrp-users-2019.mbox.gz")
SHARED = Path("/work/shared/corpora/mbox")


def best(run: Callable[[], object], runs: int) -> float:
    """Return the fastest of ``runs`` runs, in seconds (no collection inside a run)."""
    fastest = float("inf")
    for _ in range(runs):
        gc.collect()
        gc.disable()
        start = CLOCK()
        run()
        fastest = min(fastest, CLOCK() - start)
        gc.enable()
    return fastest


def _floor(text: str) -> int:
    return sum(1 for _ in FLOOR.finditer(text))


class _Sink:
    # Discards what the writer writes (as bench_scan.py's sink).
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def _library(text: str) -> None:
    writer = make_writer("jsonl", cast(TextIO, _Sink()))
    for url in urlsift.extract(text):
        writer.write(url)


def texts() -> dict[str, str]:
    """The texts measured, by name: generated mail, and the real archives when present."""
    found = {}
    if _ONLY in (None, "gen-mail"):
        found["gen-mail"] = gen_text.generate("mail", 20_000_000, 1)[0]
    if SHARED.is_dir():
        raw = b"".join(gzip.decompress((SHARED / name).read_bytes()) for name in MBOXES)
        found["mail"] = raw.decode("utf-8", "surrogateescape")
    rfcs = sorted((SHARED.parent / "rfc-url-wrapper").glob("*.txt"))
    if rfcs:
        found["rfc"] = b"".join(path.read_bytes() for path in rfcs).decode(
            "utf-8", "surrogateescape"
        )
    return found


def main() -> None:
    """Print the floor's and urlsift's best times and the share, per text."""
    for name, text in texts().items():
        if _ONLY is not None and name != _ONLY:
            continue
        floor = best(partial(_floor, text), 7)
        seconds = best(partial(_library, text), int(_RUNS or 5))
        print(
            f"{ROOT.name:12s} {name:9s} floor {floor * 1000:7.1f} ms  "
            f"urlsift+jsonl {seconds * 1000:7.1f} ms  share {floor / seconds:.3f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
