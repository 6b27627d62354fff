"""Linear time of ``urlsift lint``'s extractors and of HTML mail parts on hostile input.

Strategy: each *family* (see :data:`FAMILIES`) is ``(path, make)``: ``make(n)`` gives about
``n`` characters of one hostile pattern, linted as a document named ``path`` (the name
picks the format) through :func:`urlsift.lint.engine.lint_text` (extraction and every text
rule), or, for the ``mail-html`` families, turned into text by
:func:`urlsift.sources.htmltext.html_to_text` (the MIME layer's ``text/html`` path). Each
is timed at 64 KiB, 256 KiB and 1 MiB (fastest of several runs, as ``bench_linear.py``
does); a linear scan grows 4x per step, and a family fails above :data:`MAX_GROWTH` (a
quadratic one grows 16x) when the step's larger time is at least :data:`MIN_JUDGED_S`.
Issue 13 items 2 and 3 gave the families.

Prints a table, writes ``benchmarks/results/lint_linear.json``, exits 1 when a limit is
broken. ``--sizes 16384,65536`` measures other sizes (e.g. an older checkout, run with
``PYTHONPATH=old/src``, whose quadratic families take minutes at 1 MiB).

Run: ``.venv/bin/python benchmarks/bench_lint_linear.py [--family NAME ...]``
"""

from __future__ import annotations

import argparse
import atexit
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _report import print_columns, run_meta, write_report  # noqa: E402
from bench_linear import time_min  # noqa: E402

from urlsift.engines.runner import ScanConfig, iter_results  # noqa: E402
from urlsift.lint.config import LintSettings, SettingsResolver  # noqa: E402
from urlsift.lint.engine import lint_paths, lint_text  # noqa: E402
from urlsift.lint.walk import WalkOptions, iter_documents  # noqa: E402
from urlsift.sources.htmltext import html_to_text  # noqa: E402
from urlsift.sources.reading import ArchiveStats  # noqa: E402
from urlsift.sources.tree import expand_paths  # noqa: E402

RESULTS = HERE / "results" / "lint_linear.json"
KIB = 1 << 10
SIZES = (64 * KIB, 256 * KIB, 1024 * KIB)
MAX_GROWTH = 6.0
"""Largest allowed time ratio between an input and one a quarter its size (linear: 4)."""
MIN_JUDGED_S = 0.05
"""A step is judged only when its larger time is at least this: below it, allocator and
cache effects on megabyte strings (not the algorithm) make the ratios."""
MAIL_HTML = "<mail text/html part>"
DOCUTILS = "doc.rst (--rst-parser docutils)"
"""Linted as ``doc.rst`` with docutils deciding (issue 24 item 13): a document over
``DOCUTILS_MAX_BYTES`` falls back to the extractor, so the 1 MiB step is bounded."""
LINT_WALK = "<lint walk>"
SCAN_WALK = "<scan walk>"
LINT_RUN = "<lint run>"
SCAN_RUN = "<scan run>"
"""Tree families (issue 24 item 15): ``make(n)`` gives a depth (``n // 1024`` folders, one
in another, each with a ``.gitignore`` and a document: files and folders grow as the
depth, path characters as its square); the folder walk alone is timed (lint's
:func:`~urlsift.lint.walk.iter_documents`, scan's :func:`~urlsift.sources.tree.expand_paths`),
or the whole run (:func:`~urlsift.lint.engine.lint_paths` with each folder's
configuration looked for, as the CLI does; scan's :func:`~urlsift.engines.runner.iter_results`:
each file read)."""


def _repeat(unit: str, n: int) -> str:
    return unit * max(1, n // len(unit))


def _nested_targets(n: int) -> str:
    # Lines indented one more each time, each a reST target: every target's block holds
    # all the lines after it.
    out: list[str] = []
    size = k = 0
    while size < n:
        line = " " * (k % 200) + "__ http://a.example/\n"
        out.append(line)
        size += len(line)
        k += 1
    return "".join(out)


_HTML: dict[str, tuple[str, Callable[[int], str]]] = {
    "tag-open": ('"<a" repeated', lambda n: _repeat("<a", n)),
    "comment-open": ('"<!--" repeated', lambda n: _repeat("<!--", n)),
    "lt": ('"<" repeated', lambda n: "<" * n),
    "charref-open": ('"&#" repeated', lambda n: _repeat("&#", n)),
    "unclosed-attribute": ('<a href=" then "x" to the end', lambda n: '<a href="' + "x" * n),
    "deep-nesting": ('"<div>" repeated', lambda n: _repeat("<div>", n)),
    "end-tag-open": ('"</a" repeated', lambda n: _repeat("</a", n)),
    "attributes": ('"<a " then "b " repeated', lambda n: "<a " + _repeat("b ", n)),
}

# name -> (document path, what, make). Each make(n) gives about n characters.
FAMILIES: dict[str, tuple[str, str, Callable[[int], str]]] = {
    **{f"html-{name}": ("doc.html", what, make) for name, (what, make) in _HTML.items()},
    **{f"mail-html-{name}": (MAIL_HTML, what, make) for name, (what, make) in _HTML.items()},
    "md-reference-title": (
        "doc.md",
        "[a]: http://x.example/, n/2 spaces, ' and n/2 letters",
        lambda n: "[a]: http://x.example/" + " " * (n // 2) + "'" + "b" * (n // 2),
    ),
    "md-link-open": ("doc.md", '"](" repeated', lambda n: _repeat("](", n)),
    "md-nested-links": (
        "doc.md",
        '"[x](" n/8 times, a URL, ")" n/8 times',
        lambda n: "[x](" * (n // 8) + "http://a.example/" + ")" * (n // 8),
    ),
    "md-titles": (
        "doc.md",
        '[x](http://a.example/ "t") repeated on one line',
        lambda n: _repeat('[x](http://a.example/ "t") ', n),
    ),
    "md-html-block": (
        "doc.md",
        'an HTML block of "<a" repeated',
        lambda n: "<div>\n" + _repeat("<a", n),
    ),
    "rst-embedded-ends": ("doc.rst", '">`_" repeated', lambda n: _repeat(">`_", n)),
    "rst-embedded-many": (
        "doc.rst",
        '"<" then 600 ">`_", repeated',
        lambda n: "`" + _repeat("<" + ">`_" * 600, n),
    ),
    "rst-nested-targets": ("doc.rst", "targets indented one more per line", _nested_targets),
    "rst-literal-open": ("doc.rst", '"``a" lines', lambda n: _repeat("``a\n", n)),
    "rst-backtick-words": ("doc.rst", '"`a " repeated', lambda n: _repeat("`a ", n)),
    "rst-role-opens": ("doc.rst", '":a:`x " repeated', lambda n: _repeat(":a:`x ", n)),
    "rst-reference-labels": ("doc.rst", '"`a <b>`_ " repeated', lambda n: _repeat("`a <b>`_ ", n)),
    "rst-directive-options": (
        "doc.rst",
        "a directive with an option, repeated",
        lambda n: _repeat(".. d:: x\n   :o: v\n", n),
    ),
    "rst-comments": ("doc.rst", "indented comment lines", lambda n: _repeat(".. c\n ", n)),
    "rst-titles": ("doc.rst", "title and underline lines", lambda n: _repeat("T\n==\n", n)),
    "rst-local-links": (
        "doc.rst",
        '":doc:`a` :ref:`b`" repeated',
        lambda n: _repeat(":doc:`a` :ref:`b` ", n),
    ),
    "md-headings": ("doc.md", '"# h" lines', lambda n: _repeat("# h\n", n)),
    "md-local-links": ("doc.md", '"[a](b.md#c)" repeated', lambda n: _repeat("[a](b.md#c) ", n)),
    "man-escapes": ("doc.1", '"\\-" repeated', lambda n: _repeat("\\-", n)),
    "man-verbatim-open": ("doc.1", '".nf" lines', lambda n: _repeat(".nf\n", n)),
    "text-urls-one-line": (
        "doc.txt",
        "a line of URLs, then a line",
        lambda n: _repeat("http://a.example/x ", n) + "\nx\n",
    ),
    "text-suppressions": (
        "doc.txt",
        "one suppression comment listing URL0 over and over",
        lambda n: "urlsift: ignore[" + _repeat("URL0,", n) + "]",
    ),
}


def _docutils_family(unit: Callable[[int], str]) -> Callable[[int], str]:
    def make(n: int) -> str:
        out: list[str] = []
        size = k = 0
        while size < n:
            out.append(unit(k))
            size += len(out[-1])
            k += 1
        return "".join(out)

    return make


def _depth(n: int) -> str:
    return str(max(1, n // 1024))


FAMILIES.update(
    {
        "docutils-anonymous": (
            DOCUTILS,
            "anonymous references and targets",
            _docutils_family(
                lambda k: f"`l{k} <http://x{k}.example/>`__\n\n__ http://y{k}.example/\n\n"
            ),
        ),
        "docutils-substitutions": (
            DOCUTILS,
            "substitution definitions and uses",
            _docutils_family(lambda k: f"|s{k}| t\n\n.. |s{k}| replace:: http://s{k}.example/\n\n"),
        ),
        "docutils-pep-roles": (
            DOCUTILS,
            ":pep: and :rfc: roles",
            _docutils_family(lambda k: f":pep:`{k % 9000 + 1}` and :rfc:`{k % 9000 + 1}`\n\n"),
        ),
        "lint-walk-nested-gitignore": (
            LINT_WALK,
            "n/1024 nested folders, a .gitignore each",
            _depth,
        ),
        "scan-walk-nested-gitignore": (
            SCAN_WALK,
            "n/1024 nested folders, a .gitignore each",
            _depth,
        ),
        "lint-run-nested-gitignore": (
            LINT_RUN,
            "n/1024 nested folders, a .gitignore each",
            _depth,
        ),
        "scan-run-nested-gitignore": (
            SCAN_RUN,
            "n/1024 nested folders, a .gitignore each",
            _depth,
        ),
    }
)


def _nested_tree(depth: int) -> Path:
    root = Path(tempfile.mkdtemp(prefix="bench-gitignore-"))
    folder = str(root)
    for level in range(depth):  # os.mkdir level by level: os.makedirs recurses
        Path(folder, ".gitignore").write_text(f"*.log\nbuild{level}/\n!keep{level}.md\n")
        Path(folder, f"f{level}.md").write_text("x\n")
        folder = os.path.join(folder, "d")
        os.mkdir(folder)
    return root


def _runner(path: str, text: str) -> Callable[[], object]:
    if path == MAIL_HTML:
        return lambda: html_to_text(text)
    if path == DOCUTILS:
        settings = LintSettings(rst_parser="docutils")
        return lambda: lint_text(text, "doc.rst", settings)
    if path in (LINT_WALK, SCAN_WALK, LINT_RUN, SCAN_RUN):
        root = _nested_tree(int(text))
        atexit.register(subprocess.run, ["rm", "-rf", str(root)], check=False)  # rmtree recurses
        if path == LINT_WALK:
            return lambda: sum(1 for _ in iter_documents([str(root)], WalkOptions(), root))
        if path == LINT_RUN:
            return lambda: lint_paths([str(root)], SettingsResolver(root), cwd=root)
        config = ScanConfig()
        if path == SCAN_RUN:
            return lambda: sum(1 for _ in iter_results([str(root)], config))
        return lambda: sum(1 for _ in expand_paths([str(root)], config, ArchiveStats()))
    return lambda: lint_text(text, path)


def measure(name: str, sizes: tuple[int, ...], repeats: int) -> dict[str, object]:
    """Time one family at every size; return its row."""
    path, what, make = FAMILIES[name]
    seconds: dict[str, float] = {}
    growth: list[float] = []
    problems: list[str] = []
    previous: float | None = None
    prev_size = 0
    for size in sizes:
        best = time_min(_runner(path, make(size)), repeats)
        seconds[str(size)] = best
        if previous is not None:
            ratio = best / previous if previous > 0 else 0.0
            growth.append(ratio)
            step = size / prev_size
            if ratio > MAX_GROWTH * step / 4 and best >= MIN_JUDGED_S:
                problems.append(f"x{ratio:.1f} from {prev_size // KIB} to {size // KIB} KiB")
        previous, prev_size = best, size
    return {
        "family": name,
        "path": path,
        "what": what,
        "seconds": seconds,
        "growth": growth,
        "problems": problems,
    }


def _shown(path: str) -> str:
    return {
        MAIL_HTML: "mail",
        DOCUTILS: "rst/docutils",
        LINT_WALK: "lint walk",
        SCAN_WALK: "scan walk",
        LINT_RUN: "lint run",
        SCAN_RUN: "scan run",
    }.get(path, path)


def main(argv: list[str] | None = None) -> int:
    """Command line; exit status 1 when a family grows faster than allowed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES), help="repeatable")
    parser.add_argument("--sizes", help="comma-separated sizes in characters")
    parser.add_argument("--repeats", type=int, default=3, help="runs per size (fastest counts)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    sizes = tuple(int(s) for s in args.sizes.split(",")) if args.sizes else SIZES
    started = time.time()
    rows = []
    for name in args.family or list(FAMILIES):
        print(f"  {name}", file=sys.stderr, flush=True)
        row = measure(name, sizes, args.repeats)
        if row["problems"]:  # a burst of load on the shared machine: measure once more
            row = measure(name, sizes, args.repeats)
        rows.append(row)
    table = [["family", "as", *(f"{s // KIB}K ms" for s in sizes), "growth per step", "verdict"]]
    for row in rows:
        seconds = row["seconds"]
        assert isinstance(seconds, dict)
        growth = row["growth"]
        assert isinstance(growth, list)
        problems = row["problems"]
        assert isinstance(problems, list)
        table.append(
            [
                str(row["family"]),
                _shown(str(row["path"])),
                *(f"{seconds[str(s)] * 1000:.1f}" for s in sizes),
                " ".join(f"{g:.2f}" for g in growth),
                "FAIL: " + "; ".join(problems) if problems else "ok",
            ]
        )
    print(f"\nlint linear time: fastest of >= {args.repeats} runs; limit x{MAX_GROWTH:g} per 4x")
    print_columns(table, left=(0, 1, len(table[0]) - 1))
    failed = [str(row["family"]) for row in rows if row["problems"]]
    print(f"\nlint linear-time check: {'FAIL: ' + ', '.join(failed) if failed else 'PASS'}")
    report = {
        "meta": run_meta(started, sizes=list(sizes), repeats=args.repeats, max_growth=MAX_GROWTH),
        "families": rows,
        "failed": failed,
        "passed": not failed,
    }
    write_report(args.output, report)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
