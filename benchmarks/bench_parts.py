"""What ``Url.parts`` as a mapping (:class:`urlsift.Parts`) costs, next to the tuple it was.

Usage::

    .venv/bin/python benchmarks/bench_parts.py [--rounds N] [--size BYTES]
    PYTHONPATH=/path/to/other/src .venv/bin/python benchmarks/bench_parts.py   # another tree

On URL-dense text from ``gen_text.py`` (the worst case: a record per few dozen bytes) it
reports the best CPU time of ``--rounds`` for: ``extract`` and JSON Lines to a discarding
sink; a pickle round trip of the records (what ``--jobs`` workers send back); and
``dict(url.parts)`` over the records. Run it on two trees, interleaved, to compare them.
Figures: ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import gen_text  # noqa: E402

import urlsift  # noqa: E402
from urlsift.output.formats import url_json  # noqa: E402


def best(step: Callable[[], object], rounds: int) -> float:
    """Best CPU time of ``rounds`` calls, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        step()
        times.append(time.process_time() - start)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--size", type=int, default=1_000_000)
    args = parser.parse_args(argv)
    text, _ = gen_text.generate("dense", args.size, seed=5)
    urls = urlsift.extract(text)
    per = 1e6 / len(urls)
    print(f"urlsift from {Path(urlsift.__file__).parent}; {len(urls):,} URLs")

    def scan() -> None:
        for url in urlsift.extract(text):
            url_json(url)

    rows = [
        ("extract + JSON Lines", best(scan, args.rounds)),
        ("pickle round trip", best(lambda: pickle.loads(pickle.dumps(urls)), args.rounds)),
        ("dict(url.parts)", best(lambda: [dict(u.parts) for u in urls], args.rounds)),
    ]
    for name, seconds in rows:
        print(f"{name:22} {seconds:7.3f} s  {seconds * per:6.2f} us per URL")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
