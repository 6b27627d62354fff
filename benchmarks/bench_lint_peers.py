"""Local-link findings of ``urlsift lint`` beside its peers on the real documentation trees.

Strategy: the peers users compare with, markdown-link-check and remark-validate-links
(with remark-cli), are installed from npm into a cache folder (``--cache``, default
``<tmp>/urlsift-bench-peers``; never a runtime dependency of urlsift) and run offline on
local links only: markdown-link-check with every ``scheme:`` and ``//`` link ignored, one
run per Markdown file; remark-validate-links with ``repository: false`` (no Git host
lookups) over the folder. Each tree of ``../shared/corpora/docs`` is linted from its root
as a user would (the folder of :data:`LINTED_FOLDER`, e.g. ``docs``), and the counts are
printed side by side: urlsift's default run (every rule; ``URL015``/``URL016`` the local
ones) and its opt-in ``EXPLAIN`` listing (links it cannot judge), then each peer's
complaints. The peers read Markdown only (``.md``); urlsift also reads reST and HTML.
Writes ``benchmarks/results/lint_peers.json``.

Run: ``.venv/bin/python benchmarks/bench_lint_peers.py [--cache DIR] [TREE ...]``
(needs ``node`` and ``npm``; prints a note and exits 0 without them).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from _report import print_columns, run_meta, write_report  # noqa: E402

from test_lint_docs_precision import LINTED_FOLDER  # noqa: E402
from urlsift.lint.config import build_settings  # noqa: E402
from urlsift.lint.engine import lint_paths  # noqa: E402

RESULTS = HERE / "results" / "lint_peers.json"
DOCS = HERE.parent.parent / "shared" / "corpora" / "docs"
PACKAGES = ("markdown-link-check", "remark-cli", "remark-validate-links")
MARKDOWN = (".md", ".markdown")
_MLC_CONFIG = {"ignorePatterns": [{"pattern": "^[a-zA-Z][a-zA-Z0-9+.-]*:"}, {"pattern": "^//"}]}
_REMARK_SUMMARY = re.compile(r"(\d+) warnings?")


def install(cache: Path) -> Path | None:
    """Install the peers into ``cache`` (once); return its ``node_modules`` or None."""
    modules = cache / "node_modules"
    if all((modules / name / "package.json").is_file() for name in PACKAGES):
        return modules
    if shutil.which("npm") is None or shutil.which("node") is None:
        return None
    cache.mkdir(parents=True, exist_ok=True)
    if not (cache / "package.json").is_file():
        (cache / "package.json").write_text('{"private": true}\n', encoding="utf-8")
    done = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--silent", *PACKAGES],
        cwd=cache,
        capture_output=True,
        text=True,
        check=False,
    )
    return modules if done.returncode == 0 else None


def version(modules: Path, name: str) -> str:
    """The installed version of an npm package."""
    data = json.loads((modules / name / "package.json").read_text(encoding="utf-8"))
    return str(data.get("version", "?"))


def markdown_link_check(modules: Path, folder: Path, config: Path) -> int:
    """Dead local links markdown-link-check reports over the Markdown files of ``folder``."""
    tool = modules / ".bin" / "markdown-link-check"
    dead = 0
    for path in sorted(p for p in folder.rglob("*") if p.suffix in MARKDOWN and p.is_file()):
        done = subprocess.run(
            [str(tool), "-q", "-c", str(config), str(path)],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "NO_COLOR": "1"},
        )
        dead += sum("[✖]" in line for line in (done.stdout + done.stderr).splitlines())
    return dead


def remark_validate_links(modules: Path, folder: Path) -> int:
    """Warnings remark-validate-links gives over ``folder`` (local links only)."""
    plugin = modules / "remark-validate-links" / "index.js"
    done = subprocess.run(
        [
            str(modules / ".bin" / "remark"),
            "--no-config",
            "--no-color",
            "--quiet",
            "--no-stdout",
            "--use",
            f"{plugin}=repository:false",
            ".",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    found = _REMARK_SUMMARY.findall(done.stderr)
    return int(found[-1]) if found else 0


def urlsift_counts(tree: Path, folder: str) -> tuple[int, int, int, float]:
    """urlsift's default findings, local-link findings, EXPLAIN listing, and seconds."""
    base = {"respect-gitignore": True}
    start = time.perf_counter()
    default = lint_paths([folder], build_settings(base), cwd=tree).diagnostics
    seconds = time.perf_counter() - start
    explained = lint_paths([folder], build_settings({**base, "select": ["URL017"]}), cwd=tree)
    local = sum(d.code in ("URL015", "URL016") for d in default)
    return len(default), local, len(explained.diagnostics), seconds


def main(argv: list[str] | None = None) -> int:
    """Count each tree's findings, urlsift's and the peers', and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*")
    parser.add_argument(
        "--cache", type=Path, default=Path(tempfile.gettempdir()) / "urlsift-bench-peers"
    )
    args = parser.parse_args(argv)
    if not DOCS.is_dir():
        print("no tree to measure (../shared/corpora/docs is absent)")
        return 0
    trees = args.trees or sorted(LINTED_FOLDER)
    modules = install(args.cache)
    if modules is None:
        print("node/npm missing or the npm install failed: peers not run")
    started = time.time()
    config = args.cache / "mlc-local-only.json"
    args.cache.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps(_MLC_CONFIG), encoding="utf-8")
    table = [["tree", "folder", "urlsift", "URL015/016", "EXPLAIN", "md-link-check", "remark-vl"]]
    rows: list[dict[str, object]] = []
    totals = [0, 0, 0, 0, 0]
    for name in trees:
        tree, folder = DOCS / name, LINTED_FOLDER[name]
        found, local, explained, seconds = urlsift_counts(tree, folder)
        mlc = markdown_link_check(modules, tree / folder, config) if modules else -1
        remark = remark_validate_links(modules, tree / folder) if modules else -1
        for i, value in enumerate((found, local, explained, mlc, remark)):
            totals[i] += max(value, 0)
        rows.append(
            {
                "tree": name,
                "folder": folder,
                "urlsift": found,
                "urlsift_local": local,
                "urlsift_explain": explained,
                "urlsift_seconds": round(seconds, 3),
                "markdown_link_check": mlc,
                "remark_validate_links": remark,
            }
        )
        table.append([name, folder, *(str(v) for v in (found, local, explained, mlc, remark))])
    table.append(["total", "", *(str(v) for v in totals)])
    print_columns(table, left={0, 1})
    versions = {name: version(modules, name) for name in PACKAGES} if modules else {}
    if versions:
        print("peers: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    write_report(RESULTS, {"meta": run_meta(started, peers=versions), "trees": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
