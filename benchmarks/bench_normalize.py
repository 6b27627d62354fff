"""What ``Url.normalized`` costs: normalize() per URL, and the scan with and without it.

Usage::

    .venv/bin/python benchmarks/bench_normalize.py [--quick] [--rounds N]

For each text (generated mail and URL-dense text from ``gen_text.py``; the real mail of
``bench_scan.py`` when ``/work/shared/corpora`` is there) it reports:

* the URLs found, the share that ``normalize`` decides by its one-match shortcut, and the
  share it changes;
* ``normalize`` alone: CPU time per URL over the URLs found (each distinct URL once, as
  the judge's verdict cache makes it: a repeated URL is normalized once);
* ``extract`` + JSON Lines to a discarding sink, with ``normalize`` as it is and with
  ``normalize`` replaced by the identity, alternating in one process (best CPU time of
  ``--rounds`` each): the difference is what normalization costs the pipeline. The JSONL
  ``normalized`` field is written either way.

CPU time (``time.process_time``), best of the rounds: on a shared machine wall time
mostly measures the neighbours. Figures: ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import gzip
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import gen_text  # noqa: E402
from bench_scan import MBOXES, SEED, SHARED  # noqa: E402

import urlsift  # noqa: E402
import urlsift.api  # noqa: E402
from urlsift.output import formats  # noqa: E402
from urlsift.validation.normalize import _PLAIN, normalize  # noqa: E402

MB = 1_000_000


class _Sink(io.StringIO):
    def write(self, text: str) -> int:
        return len(text)


def _texts(quick: bool) -> dict[str, str]:
    size = 2 * MB if quick else 10 * MB
    texts = {}
    for kind in ("mail", "dense"):
        out = io.StringIO()
        gen_text.write(kind, size if kind == "mail" else size // 4, SEED, out)
        texts[f"gen-{kind}"] = out.getvalue()
    mboxes = [SHARED / "mbox" / name for name in MBOXES]
    if all(path.exists() for path in mboxes):
        data = b""
        for path in mboxes:
            with gzip.open(path, "rb") as archive:
                data += archive.read()
        texts["mail"] = data[: size * 2].decode("utf-8", "surrogateescape")
    return texts


def _jsonl(text: str) -> None:
    writer = formats.make_writer("jsonl", _Sink())
    for url in urlsift.extract(text):
        writer.write(url)


def _identity(url: str) -> str:
    return url


def measure(text: str, rounds: int) -> dict[str, float]:
    """Return the figures of one text (see the module notes)."""
    urls = [u.url for u in urlsift.extract(text)]
    distinct = list(dict.fromkeys(urls))
    shortcut = sum(1 for u in distinct if _PLAIN.fullmatch(u) and "/." not in u)
    changed = sum(1 for u in distinct if normalize(u) != u)
    alone = min(_cpu(lambda: [normalize(u) for u in distinct]) for _ in range(rounds))
    real = urlsift.api.normalize  # type: ignore[attr-defined]
    best = {"with": float("inf"), "without": float("inf")}
    try:
        for _ in range(rounds):
            for mode in ("with", "without"):
                urlsift.api.normalize = real if mode == "with" else _identity  # type: ignore[attr-defined]
                best[mode] = min(best[mode], _cpu(lambda: _jsonl(text)))
    finally:
        urlsift.api.normalize = real  # type: ignore[attr-defined]
    size = len(text.encode("utf-8", "surrogateescape")) / MB
    return {
        "MB": size,
        "urls": len(urls),
        "distinct": len(distinct),
        "shortcut": shortcut / max(1, len(distinct)),
        "changed": changed / max(1, len(distinct)),
        "us_per_url": alone / max(1, len(distinct)) * 1e6,
        "with_mbps": size / best["with"],
        "without_mbps": size / best["without"],
        "cost": best["with"] / best["without"] - 1,
    }


def _cpu(run: Callable[[], object]) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def main() -> int:
    """Measure and print one row per text."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 MB texts, 3 rounds")
    parser.add_argument("--rounds", type=int, help="runs per mode (default 7; quick 3)")
    args = parser.parse_args()
    rounds = args.rounds or (3 if args.quick else 7)
    texts = _texts(args.quick)
    header = (
        f"{'text':<10} {'MB':>5} {'URLs':>7} {'distinct':>8} {'shortcut':>8} {'changed':>7} "
        f"{'us/URL':>6} {'MB/s with':>9} {'without':>8} {'cost':>6}"
    )
    print(header)
    for name, text in texts.items():
        r = measure(text, rounds)
        print(
            f"{name:<10} {r['MB']:5.1f} {r['urls']:7.0f} {r['distinct']:8.0f} "
            f"{r['shortcut']:8.1%} {r['changed']:7.1%} {r['us_per_url']:6.2f} "
            f"{r['with_mbps']:9.1f} {r['without_mbps']:8.1f} {r['cost']:6.1%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
