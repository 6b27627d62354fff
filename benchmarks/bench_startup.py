"""Start-up of the command line: what a run on a tiny input costs above a bare interpreter.

Strategy: the same interpreter runs, in rounds, each command below once per tree (this
tree's ``src`` and, with ``--base``, another tree's ``src`` first on ``PYTHONPATH``),
alternating, so that a neighbour's load falls on both alike. Each figure is the best
(and the median) of ``--rounds`` runs, in CPU milliseconds (user + system of the child)
and wall milliseconds. Rows:

* ``python -c pass``: the interpreter alone (the floor the issue 26 target is above);
* ``import click``: the command-line library alone (its stdlib imports included), the
  part of every command's start-up that is not urlsift's (the same in every tree);
* ``import urlsift``: the library's import;
* ``scan one-line``: ``urlsift scan FILE`` on a one-line text file (the issue's target:
  at most 60 ms above ``python -c pass``);
* ``--version``: ``urlsift --version``;
* ``lint one .md``: ``urlsift lint FILE`` on a small Markdown file (no network).

The commands run the installed ``urlsift`` console script (as a user does). Bytecode:
each tree's modules are compiled once into a per-tree ``PYTHONPYCACHEPREFIX`` before the
rounds (the machine sets ``PYTHONDONTWRITEBYTECODE``; an installed package starts from
bytecode), and no tree's own folder is written.

``--importtime N`` adds ``python -X importtime`` of the scan, N runs per tree (the trees
alternating): each module's best self time, one column per tree, for the ``--top``
largest of each tree, and the sum of all self times.

Run: ``.venv/bin/python benchmarks/bench_startup.py [--rounds 20] [--base /work/wt-s9base]
[--importtime 5]``.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import print_columns

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SCRIPT = Path(sys.executable).parent / "urlsift"
SHARED_ROWS = ("python -c pass", "import click")  # the same in every tree: run once a round
IMPORTTIME = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def _env(src: Path | None, cache: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return env


def _commands(workdir: Path) -> dict[str, list[str]]:
    one = workdir / "one-line.txt"
    one.write_text("see http://x.example/ now\n", encoding="utf-8")
    page = workdir / "page.md"
    page.write_text(
        "# Title\n\nSee [the spec](https://example.org/spec) and [below](#title).\n",
        encoding="utf-8",
    )
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import click": [sys.executable, "-c", "import click"],
        "import urlsift": [sys.executable, "-c", "import urlsift"],
        "scan one-line": [str(SCRIPT), "scan", str(one)],
        "--version": [str(SCRIPT), "--version"],
        "lint one .md": [str(SCRIPT), "lint", str(page)],
    }


def _time(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return cpu * 1000, wall * 1000


def importtime(
    command: list[str], envs: dict[str, dict[str, str]], runs: int
) -> dict[str, dict[str, int]]:
    """Per tree, each module's best self time (us) over ``runs`` runs of ``command`` (a
    script and its arguments) under ``python -X importtime``, the trees alternating."""
    best: dict[str, dict[str, int]] = {tree: {} for tree in envs}
    for _ in range(runs):
        for tree, env in envs.items():
            done = subprocess.run(
                [sys.executable, "-X", "importtime", *command],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            seen: dict[str, int] = {}
            for m in map(IMPORTTIME.match, done.stderr.splitlines()):
                if m:  # a module may be listed twice (a package's submodule named again)
                    seen[m[4]] = seen.get(m[4], 0) + int(m[1])
            times = best[tree]
            for name, self_us in seen.items():
                times[name] = min(times.get(name, self_us), self_us)
            for name in set(times) - set(seen):  # not imported in one run: left out
                del times[name]
    return best


def measure(
    commands: dict[str, list[str]], envs: dict[str, dict[str, str]], rounds: int
) -> dict[tuple[str, str], tuple[list[float], list[float]]]:
    """CPU and wall milliseconds of each (command, tree), alternating, ``rounds`` times."""
    for env in envs.values():  # bytecode into the tree's cache prefix
        for command in commands.values():
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
    for _ in range(rounds):
        for row, command in commands.items():
            for tree, env in envs.items():
                if row in SHARED_ROWS and tree != "this tree":
                    continue
                cpu, wall = _time(command, env)
                cpu_list, wall_list = times.setdefault((row, tree), ([], []))
                cpu_list.append(cpu)
                wall_list.append(wall)
    return times


def print_times(times: dict[tuple[str, str], tuple[list[float], list[float]]]) -> None:
    floor = min(times["python -c pass", "this tree"][0])
    table = [
        ["command", "tree", "CPU best", "CPU median", "above pass", "wall best", "wall median"]
    ]
    for (row, tree), (cpu, wall) in times.items():
        above = "" if row == "python -c pass" else f"{min(cpu) - floor:.1f}"
        table.append(
            [
                row,
                tree,
                f"{min(cpu):.1f}",
                f"{statistics.median(cpu):.1f}",
                above,
                f"{min(wall):.1f}",
                f"{statistics.median(wall):.1f}",
            ]
        )
    print_columns(table, left={0, 1})


def print_importtime(best: dict[str, dict[str, int]], runs: int, top: int) -> None:
    """One table: the modules among each tree's ``top`` self times, a column per tree."""
    print(f"\n-X importtime of scan one-line: best self time (us) of {runs} runs per module")
    for tree, times in best.items():
        print(f"  {tree}: sum {sum(times.values()) / 1000:.1f} ms, {len(times)} modules")
    shown: dict[str, int] = {}
    for times in best.values():
        for name, us in sorted(times.items(), key=lambda item: -item[1])[:top]:
            shown[name] = max(shown.get(name, 0), us)
    rows = [["module", *best]]
    for name in sorted(shown, key=lambda n: -shown[n]):
        rows.append(
            [name, *(str(times[name]) if name in times else "-" for times in best.values())]
        )
    print_columns(rows, left={0})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--base", type=Path, help="another checkout (its src goes first)")
    parser.add_argument("--importtime", type=int, default=0, metavar="N")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)

    trees = {"this tree": ROOT / "src"}
    if args.base is not None:
        trees[f"base {args.base.name}"] = args.base / "src"
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        workdir = Path(tmp)
        commands = _commands(workdir)
        envs = {
            name: _env(src, workdir / f"pycache-{i}") for i, (name, src) in enumerate(trees.items())
        }
        load_before = os.getloadavg()[0]
        times = measure(commands, envs, args.rounds)
        load_after = os.getloadavg()[0]
        print(f"milliseconds, {args.rounds} rounds; load {load_before:.1f} -> {load_after:.1f}")
        print_times(times)
        if args.importtime:
            best = importtime(commands["scan one-line"], envs, args.importtime)
            print_importtime(best, args.importtime, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
