"""What the records cost: the derived fields ``Url.normalized`` and ``Url.parts``, and
making a record.

Usage::

    .venv/bin/python benchmarks/bench_records.py normalized [--quick] [--rounds N]
    .venv/bin/python benchmarks/bench_records.py parts [--rounds N] [--size BYTES]
    PYTHONPATH=/path/to/other/src .venv/bin/python benchmarks/bench_records.py parts
    .venv/bin/python benchmarks/bench_records.py construct [--rounds N]

``normalized``: for each text (generated mail and URL-dense text from ``gen_text.py``; the
real mail of ``bench_scan.py`` when ``/work/shared/corpora`` is there) it reports:

* the URLs found, the share that ``normalize`` decides by its one-match shortcut, and the
  share it changes;
* ``normalize`` alone: CPU time per URL over the URLs found (each distinct URL once, as
  the judge's verdict cache makes it: a repeated URL is normalized once);
* ``extract`` + JSON Lines to a discarding sink, with ``normalize`` as it is and with
  ``normalize`` replaced by the identity, alternating in one process (best CPU time of
  ``--rounds`` each): the difference is what normalization costs the pipeline. The JSONL
  ``normalized`` field is written either way.

``parts`` (:class:`urlsift.Parts`, a mapping since it replaced a tuple): on URL-dense text
(the worst case: a record per few dozen bytes), ``extract`` and JSON Lines to a discarding
sink; a pickle round trip of the records (what ``--jobs`` workers send back); and
``dict(url.parts)`` over the records. Run it on two trees, interleaved, to compare them.

CPU time (``time.process_time``), best of the rounds: on a shared machine wall time
mostly measures the neighbours. Figures: ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import gzip
import io
import pickle
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
from urlsift.output.formats import url_json  # noqa: E402
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


def _best(step: Callable[[], object], rounds: int) -> float:
    """Best CPU time of ``rounds`` calls, in seconds."""
    return min(_cpu(step) for _ in range(rounds))


def normalized(args: argparse.Namespace) -> None:
    """One row per text: what normalization costs (see the module notes)."""
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


def parts(args: argparse.Namespace) -> None:
    """What ``Url.parts`` costs the pipeline, a worker's pickles and a reader."""
    rounds = args.rounds or 9
    text, _ = gen_text.generate("dense", args.size, seed=5)
    urls = urlsift.extract(text)
    per = 1e6 / len(urls)
    print(f"urlsift from {Path(urlsift.__file__).parent}; {len(urls):,} URLs")

    def scan() -> None:
        for url in urlsift.extract(text):
            url_json(url)

    rows = [
        ("extract + JSON Lines", _best(scan, rounds)),
        ("pickle round trip", _best(lambda: pickle.loads(pickle.dumps(urls)), rounds)),
        ("dict(url.parts)", _best(lambda: [dict(u.parts) for u in urls], rounds)),
    ]
    for name, seconds in rows:
        print(f"{name:22} {seconds:7.3f} s  {seconds * per:6.2f} us per URL")


def construct(args: argparse.Namespace) -> None:
    """Print the CPU time of making a record (Url, Defect), beside the
    ``@dataclass(frozen=True, slots=True)`` of the same fields (the ratio is what to
    compare across machines)."""
    import dataclasses
    import timeit

    url = urlsift.extract("see http://example.com/a?b=1 now")[0]
    defect = urlsift.Defect("code", "message", "warning", 3)
    for record in (url, defect):
        cls = type(record)
        names = [spec.name for spec in dataclasses.fields(cls)]
        twin = dataclasses.dataclass(frozen=True, slots=True)(
            type(cls.__name__, (), {"__annotations__": dict.fromkeys(names, object)})
        )
        values = tuple(getattr(record, name) for name in names)
        made: dict[str, float] = {}
        for _ in range(args.rounds):  # in turn, best of the rounds
            for label, maker in (("record", cls), ("dataclass", twin)):
                seconds = min(
                    timeit.repeat(
                        lambda m=maker, v=values: m(*v),
                        number=100_000,
                        repeat=1,
                        timer=time.process_time,
                    )
                )
                made[label] = min(made.get(label, seconds), seconds)
        ratio = made["record"] / made["dataclass"]
        print(
            f"{cls.__name__:8s} {len(names):2d} fields: record {made['record'] * 1e4:6.0f} ns, "
            f"dataclass {made['dataclass'] * 1e4:6.0f} ns, ratio {ratio:.2f}"
        )


def main() -> int:
    """Measure the field named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    fields = parser.add_subparsers(dest="field", required=True)
    one = fields.add_parser("normalized", help="normalize() alone and in the pipeline")
    one.add_argument("--quick", action="store_true", help="2 MB texts, 3 rounds")
    one.add_argument("--rounds", type=int, help="runs per mode (default 7; quick 3)")
    one.set_defaults(run=normalized)
    two = fields.add_parser("parts", help="Url.parts in JSON Lines, pickles and dict()")
    two.add_argument("--rounds", type=int, help="runs per step (default 9)")
    two.add_argument("--size", type=int, default=1_000_000)
    two.set_defaults(run=parts)
    three = fields.add_parser("construct", help="making a Url or Defect, beside a dataclass")
    three.add_argument("--rounds", type=int, default=7, help="runs of 100,000 each")
    three.set_defaults(run=construct)
    args = parser.parse_args()
    args.run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
