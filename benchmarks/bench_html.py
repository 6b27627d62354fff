"""Benchmark of ``html_to_text`` on the HTML parts of real mail, A/B against another tree.

Strategy: read the archives with urlsift's own source layer (every message MIME-decoded),
keeping each ``text/html`` part's text as the MIME layer hands it to
:func:`urlsift.sources.htmltext.html_to_text` (decoded, line ends LF). Then, round by
round, time ``html_to_text`` over all the parts in a child process of each tree (this
tree's ``src``, then ``--base``'s, alternating so both see the same load), ``--inner``
passes in each child; CPU seconds of the child's timing loop, parts read from a
temporary JSON file. Two columns, each the best over the rounds: the child's first pass
(the tables of markup readings html_to_text keeps start empty, as in one ``urlsift
scan``) and its best pass. Each child also writes the SHA-256 of its texts: the two trees
must give the same texts (exit 1 otherwise), and this tree's ``html_to_text`` must give
what its ``html_to_text_general`` (the tokenizer's own steps) gives on every part.

Run: ``.venv/bin/python benchmarks/bench_html.py [ARCHIVE ...] [--real] [--rounds N]
[--base /path/to/other/src]``. ``--real`` reads the ten shared mbox archives (574 HTML
parts, 6.5 M characters); archives may be ``.gz``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
CORPUS = os.environ.get("URLSIFT_CORPORA", "/work/shared/corpora")


def collect(paths: list[str]) -> list[str]:
    """The text of every ``text/html`` part of ``paths``, as the MIME layer reads it."""
    from urlsift.sources import parts
    from urlsift.sources.archive import ArchiveStats, open_units

    seen: list[str] = []
    real = parts.html_to_text

    def keeping(markup: str) -> str:
        seen.append(markup)
        return real(markup)

    parts.html_to_text = keeping
    try:
        for path in paths:
            for unit in open_units(path, stats=ArchiveStats()):
                for _chunk in unit.chunks:
                    pass
    finally:
        parts.html_to_text = real
    return seen


def time_parts(parts_file: str, inner: int, check: bool) -> None:
    """Child: print the best CPU time of ``inner`` passes and the texts' digest as JSON."""
    from urlsift.sources.htmltext import html_to_text

    with open(parts_file, encoding="utf-8") as handle:
        markups: list[str] = json.load(handle)
    passes = []
    for _ in range(inner):
        start = time.process_time()
        for markup in markups:
            html_to_text(markup)
        passes.append(time.process_time() - start)
    digest = hashlib.sha256()
    for markup in markups:
        digest.update(html_to_text(markup).encode("utf-8", "surrogatepass") + b"\0")
    differing = -1
    if check:
        from urlsift.sources.htmltext import html_to_text_general

        differing = sum(html_to_text(m) != html_to_text_general(m) for m in markups)
    result = {"first": passes[0], "seconds": min(passes), "sha256": digest.hexdigest()}
    print(json.dumps({**result, "differing": differing}))


def _child(src: Path | str, parts_file: str, inner: int, check: bool) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, __file__, "--time-parts", parts_file, "--inner", str(inner)]
    if check:
        command.append("--check")
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    """Collect the parts, time both trees round by round, print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("archives", nargs="*")
    parser.add_argument("--real", action="store_true", help="the ten shared mbox archives")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--inner", type=int, default=3, help="passes per child, best kept")
    parser.add_argument("--base", help="another tree's src, timed in turn")
    parser.add_argument("--time-parts", help=argparse.SUPPRESS)
    parser.add_argument("--check", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.time_parts:
        time_parts(args.time_parts, args.inner, args.check)
        return 0
    paths = list(args.archives)
    if args.real:
        folder = os.path.join(CORPUS, "mbox")
        paths += sorted(os.path.join(folder, n) for n in os.listdir(folder) if ".mbox" in n)
    if not paths:
        parser.error("give archives or --real")
    markups = collect(paths)
    print(f"{len(markups)} HTML parts, {sum(map(len, markups)):,} characters")
    trees: list[tuple[str, Path | str]] = [("this tree", SRC)]
    if args.base:
        trees.append((f"base {args.base}", args.base))
    best = {name: float("inf") for name, _ in trees}
    first = dict(best)
    digests: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as folder:
        parts_file = os.path.join(folder, "parts.json")
        with open(parts_file, "w", encoding="utf-8") as handle:
            json.dump(markups, handle)
        for round_ in range(args.rounds):
            for name, src in trees:
                got = _child(src, parts_file, args.inner, check=round_ == 0 and src == SRC)
                best[name] = min(best[name], float(str(got["seconds"])))
                first[name] = min(first[name], float(str(got["first"])))
                digests[name] = got["sha256"]
                if got["differing"] not in (-1, 0):
                    print(f"html_to_text differs from html_to_text_general: {got['differing']}")
                    return 1
    load = os.getloadavg()[0]
    print(f"{args.rounds} rounds x {args.inner} passes, CPU s, load {load:.1f} at the end")
    print(f"  {'tree':<40} {'first pass':>10} {'ratio':>6} {'best pass':>10} {'ratio':>6}")
    base = trees[-1][0]
    for name, _ in trees:
        cold, warm = first[name], best[name]
        cold_ratio, warm_ratio = first[base] / cold, best[base] / warm
        print(f"  {name:<40} {cold:>10.4f} {cold_ratio:>6.2f} {warm:>10.4f} {warm_ratio:>6.2f}")
    if len(set(digests.values())) > 1:
        print("the trees give different texts")
        return 1
    print("same texts in every tree; this tree's fast path gives its general path's text")
    return 0


if __name__ == "__main__":
    sys.exit(main())
