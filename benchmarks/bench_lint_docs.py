"""Speed and precision of ``urlsift lint`` on real documentation trees (issue 17).

Strategy: for each tree of ``../shared/corpora/docs`` and for the whole folder (the last
row, ``docs``: every tree in one run; or the folders given), lint it as
the command line does (:func:`urlsift.lint.engine.lint_paths`, default settings, no
network), fastest of ``--repeats`` runs, and report the size, the time, the seconds per MB
and the number of findings with the default rules and with the opt-in ``RFC1738`` group,
and the share of a lint's CPU time spent finding and asking the site generators
(``sites %``, :mod:`urlsift.lint.sites`).
``--rst-parser docutils`` (repeatable: ``--rst-parser urlsift --rst-parser docutils`` gives
a row for each) lints with docutils deciding what is a link in reST (``rst-parser``).
With ``--docutils`` it also times docutils alone parsing every ``.rst`` file of the tree,
for the choice written in ``docs/lint.md``. Writes ``benchmarks/results/lint_docs.json``;
exits 1 when a tree of at least 1 MB takes more than :data:`MAX_SECONDS_PER_MB` with the
default ``rst-parser`` (the docutils mode is measured, not held to it).

Run: ``.venv/bin/python benchmarks/bench_lint_docs.py [--rst-parser P] [--docutils] [TREE ...]``
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _report import print_columns, run_meta, write_report  # noqa: E402

from urlsift.lint.config import build_settings  # noqa: E402
from urlsift.lint.engine import lint_paths  # noqa: E402
from urlsift.lint.sites import Site, SiteFinder  # noqa: E402

RESULTS = HERE / "results" / "lint_docs.json"
DOCS = HERE.parent.parent / "shared" / "corpora" / "docs"
MAX_SECONDS_PER_MB = 0.5
"""Slowest acceptable lint, in seconds per MB of documents ("well under a second")."""
MB = 1_000_000


def _size(tree: Path) -> int:
    return sum(p.stat().st_size for p in tree.rglob("*") if p.is_file())


def _lint_seconds(tree: Path, repeats: int, rst_parser: str) -> tuple[float, int, int]:
    base = {"respect-gitignore": False, "rst-parser": rst_parser}
    settings = build_settings(base)
    strict = build_settings({**base, "extend-select": ["RFC1738"]})
    best = float("inf")
    found = 0
    for _ in range(repeats):
        start = time.perf_counter()
        found = len(lint_paths([str(tree)], settings, cwd=tree).diagnostics)
        best = min(best, time.perf_counter() - start)
    with_group = len(lint_paths([str(tree)], strict, cwd=tree).diagnostics)
    return best, found, with_group


def _sites_share(tree: Path) -> float:
    """Share of one lint's CPU time spent finding and asking site generators (issue 22).

    :class:`~urlsift.lint.sites.SiteFinder` and :class:`~urlsift.lint.sites.Site` are
    wrapped for one run with a process-time counter (the wrapping is undone after).
    """
    spent = [0.0]
    depth = [0]  # only the outermost call is counted (judge_missing calls page_source)
    originals = {
        (SiteFinder, "site_of"): SiteFinder.site_of,
        (Site, "judge_missing"): Site.judge_missing,
        (Site, "page_source"): Site.page_source,
    }

    def counted(function: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            depth[0] += 1
            start = time.process_time()
            try:
                return function(*args)
            finally:
                depth[0] -= 1
                if not depth[0]:
                    spent[0] += time.process_time() - start

        return run

    for (owner, name), function in originals.items():
        setattr(owner, name, counted(function))
    try:
        start = time.process_time()
        lint_paths([str(tree)], build_settings({"respect-gitignore": False}), cwd=tree)
        total = time.process_time() - start
    finally:
        for (owner, name), function in originals.items():
            setattr(owner, name, function)
    return spent[0] / total if total else 0.0


def _docutils_seconds(tree: Path) -> float | None:
    try:
        from docutils.frontend import get_default_settings
        from docutils.parsers.rst import Parser
        from docutils.utils import new_document
    except ImportError:
        return None
    settings = get_default_settings(Parser)
    settings.report_level = 5
    settings.halt_level = 5
    settings.warning_stream = False
    parser = Parser()
    start = time.perf_counter()
    for path in sorted(tree.rglob("*.rst")):
        document = new_document(str(path), settings)
        parser.parse(path.read_text(encoding="utf-8"), document)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Measure each tree and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", type=Path)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--docutils", action="store_true", help="also time docutils parsing")
    parser.add_argument(
        "--rst-parser",
        action="append",
        choices=["urlsift", "docutils"],
        help="rst-parser setting (repeatable: one row each; default urlsift)",
    )
    args = parser.parse_args(argv)
    rst_parsers = args.rst_parser or ["urlsift"]
    trees = [tree.resolve() for tree in args.trees] or (
        [*sorted(p for p in DOCS.iterdir() if p.is_dir()), DOCS] if DOCS.is_dir() else []
    )
    if not trees:
        print("no tree to measure (../shared/corpora/docs is absent)")
        return 0
    started = time.time()
    rows: list[dict[str, object]] = []
    table = [
        [
            "tree",
            "rst-parser",
            "MB",
            "lint s",
            "s/MB",
            "findings",
            "+RFC1738",
            "sites %",
            "docutils s",
        ]
    ]
    failed = False
    for tree, rst_parser in ((tree, p) for tree in trees for p in rst_parsers):
        size = _size(tree)
        seconds, found, with_group = _lint_seconds(tree, args.repeats, rst_parser)
        parse = _docutils_seconds(tree) if args.docutils else None
        share = _sites_share(tree)
        per_mb = seconds / (size / MB)
        # Small trees: start-up costs. The docutils mode is measured, not held to the budget.
        failed |= rst_parser == "urlsift" and size >= MB and per_mb > MAX_SECONDS_PER_MB
        rows.append(
            {
                "tree": tree.name,
                "rst_parser": rst_parser,
                "bytes": size,
                "lint_seconds": round(seconds, 3),
                "seconds_per_mb": round(per_mb, 3),
                "findings": found,
                "findings_with_rfc1738": with_group,
                "sites_cpu_share": round(share, 4),
                "docutils_parse_seconds": None if parse is None else round(parse, 3),
            }
        )
        table.append(
            [
                tree.name,
                rst_parser,
                f"{size / MB:.1f}",
                f"{seconds:.2f}",
                f"{per_mb:.3f}",
                str(found),
                str(with_group),
                f"{100 * share:.1f}",
                "-" if parse is None else f"{parse:.2f}",
            ]
        )
    print_columns(table, left={0})
    write_report(RESULTS, {"meta": run_meta(started, repeats=args.repeats), "trees": rows})
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
