"""Run the atheris harnesses, each for a fixed time, one after the other or side by side.

Usage::

    python fuzz/run.py [--seconds N] [--parallel N] [--corpus-dir DIR]
                       [--artifact-dir DIR] [HARNESS ...]

HARNESS is ``scanner``, ``validator`` or ``mail`` (default: all three). Each harness runs
in its own process with one worker, its seeds from ``fuzz/seeds/<harness>/`` and its
dictionary ``fuzz/<harness>.dict``; new inputs go to ``DIR/<harness>/`` (a temporary
folder by default, never the seed folder). On a finding libFuzzer writes the input to
``--artifact-dir`` (default: a ``fuzz-artifacts`` folder in the temporary directory) and
this script exits 1 after running the remaining harnesses; it exits 2 when atheris is not
installed. The last status line of each run (executions, ``cov:``, ``ft:``) is printed.
With ``--parallel N``, up to N harnesses run at a time (each still a process with one
worker: CI runs two on its two cores; the long local runs in fuzz/README.md ran alone).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent

MAX_LEN = {"scanner": 4096, "validator": 512, "mail": 8192}
"""libFuzzer ``-max_len`` per harness: long enough for every rule's bound to be reachable
with the scanner's tiny-bounds option, small enough to keep executions fast."""

_STATUS = re.compile(r"^#(\d+)\s+(?:DONE|pulse|NEW|REDUCE|INITED).*$", re.M)


def run_one(name: str, seconds: int, corpus: Path, artifacts: Path) -> tuple[int, str]:
    """Fuzz one harness for ``seconds``; return libFuzzer's exit status and last status line."""
    corpus.mkdir(parents=True, exist_ok=True)
    artifacts.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable,
        str(HERE / f"fuzz_{name}.py"),
        str(corpus),
        str(HERE / "seeds" / name),
        f"-dict={HERE / f'{name}.dict'}",
        f"-max_total_time={seconds}",
        f"-max_len={MAX_LEN[name]}",
        "-rss_limit_mb=2048",
        "-timeout=10",
        "-print_final_stats=1",
        f"-artifact_prefix={artifacts}/{name}-",
    ]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, errors="replace", check=False)
    elapsed = time.monotonic() - started
    last = [m.group() for m in _STATUS.finditer(done.stderr)]
    summary = last[-1] if last else "(no status line)"
    print(f"fuzz {name}: exit {done.returncode} after {elapsed:.0f} s: {summary}", flush=True)
    if done.returncode != 0:
        print(done.stderr[-6000:], file=sys.stderr, flush=True)
    return done.returncode, summary


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the harnesses, and return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("harness", nargs="*", help=f"one of {', '.join(MAX_LEN)} (default: all)")
    parser.add_argument("--seconds", type=int, default=20, help="fuzzing time per harness")
    parser.add_argument(
        "--parallel", type=int, default=1, help="harnesses run at a time (default: 1)"
    )
    parser.add_argument("--corpus-dir", type=Path, help="keep generated inputs here")
    parser.add_argument("--artifact-dir", type=Path, help="write findings here")
    args = parser.parse_args(argv)
    names = args.harness or list(MAX_LEN)
    unknown = sorted(set(names) - set(MAX_LEN))
    if unknown:
        parser.error(f"unknown harness {', '.join(unknown)}; choose from {', '.join(MAX_LEN)}")
    if args.parallel < 1:
        parser.error("--parallel takes a number of harnesses of at least 1")
    try:
        import atheris  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        print("atheris is not installed: pip install -e '.[fuzz]'", file=sys.stderr)
        return 2
    artifacts = args.artifact_dir or Path(tempfile.gettempdir()) / "fuzz-artifacts"
    with tempfile.TemporaryDirectory(prefix="urlsift-fuzz-") as temporary:
        corpus_root = args.corpus_dir or Path(temporary)
        # Threads only wait for the harnesses' processes; each prints its line when done.
        with ThreadPoolExecutor(max_workers=args.parallel) as pool:
            codes = list(
                pool.map(
                    lambda name: run_one(name, args.seconds, corpus_root / name, artifacts)[0],
                    names,
                )
            )
    failed = [name for name, code in zip(names, codes, strict=True) if code != 0]
    if failed:
        print(f"fuzz: findings in {', '.join(failed)}; inputs in {artifacts}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
