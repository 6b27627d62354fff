"""List bare URLs that end at a line end in mail archives, with the next line.

Used to build and re-check the hand-judged sample in ``corpora/wrapjoin/``: each bare URL
whose line holds nothing after it and whose next line is not blank is printed with the
evidence a person needs to judge whether a mail client wrapped it (the line lengths of
the paragraph around it, the quote prefixes, the next line).

Usage::

    python benchmarks/wrapjoin_sample.py ../shared/corpora/mbox/*.mbox.gz > cases.jsonl
    python benchmarks/wrapjoin_sample.py --judge corpora/wrapjoin/judged.txt

With ``--judge`` it reads the judged fixture instead and prints the precision and recall
of urlsift's wrap evidence (:func:`urlsift.extraction.wrap.continuation_end`) on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from urlsift import Scanner, extract
from urlsift.sources.archive import open_units

_CONTEXT_LINES = 3


def line_end_cases(path: str) -> Iterator[dict[str, object]]:
    """Yield one record per bare URL ending its line, with a following non-blank line."""
    for unit in open_units(path):
        text = "".join(unit.chunks)
        scanner = Scanner()
        candidates = scanner.feed(text) + scanner.close()
        if not candidates:
            continue
        lines = text.split("\n")
        for cand in candidates:
            if cand.kind != "bare" or cand.end_line != cand.line:
                continue
            line = lines[cand.line - 1]
            url_end_col = cand.column - 1 + len(cand.raw)
            if line[url_end_col:].strip() or cand.line >= len(lines):
                continue
            nxt = lines[cand.line]
            if not nxt.strip():
                continue
            ctx = unit.context
            yield {
                "archive": Path(path).name,
                "message_id": ctx.message_id if ctx else None,
                "date": ctx.date if ctx else None,
                "part": ctx.part if ctx else None,
                "line": cand.line,
                "url": cand.raw,
                "before": lines[max(0, cand.line - 1 - _CONTEXT_LINES) : cand.line - 1],
                "url_line": line,
                "next_line": nxt,
                "after": lines[cand.line + 1 : cand.line + 1 + _CONTEXT_LINES],
            }


@dataclass
class JudgedCase:
    """One hand-judged case of ``corpora/wrapjoin/judged.txt``."""

    name: str
    source: str
    judged: str  # "wrapped" or "not-wrapped"
    expect: str  # "join" or "keep": urlsift's pinned decision
    reason: str
    text: str  # the verbatim lines, joined with line breaks
    url_line: int  # 1-based line of the URL in ``text``


def read_judged(path: Path) -> list[JudgedCase]:
    """Read the judged fixture (format: its header comment)."""
    cases: list[JudgedCase] = []
    fields: dict[str, str] = {}
    lines: list[str] = []
    url_line = 0

    def flush() -> None:
        if fields:
            cases.append(
                JudgedCase(
                    fields["name"],
                    fields["source"],
                    fields["judged"],
                    fields.get("expect", ""),
                    fields["reason"],
                    "\n".join(lines) + "\n",
                    url_line,
                )
            )

    for raw in path.read_text(encoding="utf-8").split("\n"):
        if raw.startswith("#") or not raw:
            continue
        if raw.startswith("=== "):
            flush()
            fields, lines, url_line = {"name": raw[4:]}, [], 0
        elif raw[2:3] == "|":
            if raw[0] == "U":
                url_line = len(lines) + 1
            lines.append(raw[3:])
        else:
            key, _, value = raw.partition(": ")
            fields[key] = value
    flush()
    return cases


def decide(case: JudgedCase) -> str:
    """Return urlsift's decision on a case: ``join`` or ``keep``."""
    for url in extract(case.text):
        if url.line == case.url_line and url.kind == "bare":
            joined = any(d.code == "continued-line" for d in url.defects)
            return "join" if joined else "keep"
    raise ValueError(f"{case.name}: no bare URL on line {case.url_line}")


def score(cases: list[JudgedCase]) -> dict[str, int]:
    """Count true and false joins and keeps against the hand judgement."""
    counts = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    for case in cases:
        joined = decide(case) == "join"
        wrapped = case.judged == "wrapped"
        counts[("t" if joined == wrapped else "f") + ("p" if joined else "n")] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    """Print the cases of the given archives as JSON lines, or score the judged sample."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--judge", type=Path, help="score the judged fixture file")
    args = parser.parse_args(argv)
    if args.judge:
        cases = read_judged(args.judge)
        for case in cases:
            got = decide(case)
            mark = "ok " if (got == "join") == (case.judged == "wrapped") else "ERR"
            print(f"{mark} {case.name}: judged {case.judged}, urlsift {got}: {case.reason}")
        c = score(cases)
        precision = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 1.0
        recall = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 1.0
        wrapped = c["tp"] + c["fn"]
        print(
            f"{len(cases)} cases ({wrapped} wrapped, {len(cases) - wrapped} not): "
            f"{c['tp']} right joins, {c['fp']} wrong joins, {c['fn']} missed; "
            f"precision {precision:.3f}, recall {recall:.3f}"
        )
        return 0
    for path in args.paths:
        for case in line_end_cases(path):
            sys.stdout.write(json.dumps(case, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
