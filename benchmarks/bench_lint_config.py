"""Configuration discovery of ``urlsift lint``: cost per folder, not per file.

Builds a tree of FOLDERS x FILES small Markdown files and lints it through
:class:`urlsift.lint.config.SettingsResolver` (as the CLI does) twice: with no
configuration file, then with a ``pyproject.toml`` holding ``[tool.urlsift]`` in every
folder. Prints the files linted, the configuration files parsed (counted at
``config._read_toml``) and the best of five wall times. PASS when the parses are at most
two per configuration file (one to see the ``[tool.urlsift]`` table, one to read it),
whatever the number of files.

Usage: ``.venv/bin/python benchmarks/bench_lint_config.py [--folders 80] [--files 10]``
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import urlsift.lint.config as config
from urlsift.lint.config import SettingsResolver
from urlsift.lint.engine import lint_paths

TEXT = "See <http://a.example/x> and http://b.example:81/.\n"
CONFIG = '[tool.urlsift]\nignore = ["URL007"]\nexclude = ["f0.md"]\n'


def _measure(root: Path) -> tuple[int, int, float]:
    reads: list[Path] = []
    original = config._read_toml

    def counting(path: Path) -> dict[str, object]:
        reads.append(path)
        return original(path)

    config._read_toml = counting
    best = float("inf")
    files = 0
    try:
        for _ in range(5):
            reads.clear()
            start = time.perf_counter()
            files = lint_paths([str(root)], SettingsResolver(root), cwd=root).files
            best = min(best, time.perf_counter() - start)
    finally:
        config._read_toml = original
    return files, len(reads), best


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return 0 when it passes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folders", type=int, default=80)
    parser.add_argument("--files", type=int, default=10)
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="urlsift-bench-config-"))
    try:
        folders = [root / f"d{i // 10}" / f"s{i % 10}" for i in range(args.folders)]
        for folder in folders:
            folder.mkdir(parents=True)
            for k in range(args.files):
                (folder / f"f{k}.md").write_text(TEXT, encoding="utf-8")
        plain = _measure(root)
        for folder in folders:
            (folder / "pyproject.toml").write_text(CONFIG, encoding="utf-8")
        configured = _measure(root)
    finally:
        shutil.rmtree(root)
    print(f"{'tree':<40} {'files':>6} {'parses':>7} {'best s':>7}")
    for name, (files, parses, best) in [
        ("no configuration file", plain),
        (f"a pyproject.toml in each of {len(folders)} folders", configured),
    ]:
        print(f"{name:<40} {files:>6} {parses:>7} {best:>7.3f}")
    ok = plain[1] == 0 and configured[1] <= 2 * len(folders)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
