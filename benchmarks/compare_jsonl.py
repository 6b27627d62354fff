"""Compare two ``urlsift scan --format jsonl`` outputs of the same input: what a change found.

Strategy: URL records are counted by (message, part, url), so a URL that moved within
its part (a line number changed) is neither gained nor lost; defect records are counted
by code. Prints the totals, the URLs gained and lost with the messages they are in, and
the defect counts on each side.

Run, e.g. with the tree before a change unpacked in ``/tmp/before``::

    PYTHONPATH=/tmp/before/src .venv/bin/python -m urlsift scan -q --format jsonl \\
        ARCHIVE > before.jsonl
    .venv/bin/python -m urlsift scan -q --format jsonl ARCHIVE > after.jsonl
    .venv/bin/python benchmarks/compare_jsonl.py before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

Key = tuple[object, object, str]


def load(path: Path) -> tuple[Counter[Key], Counter[str]]:
    """Return the URL records by (message, part, url) and the defects by code."""
    urls: Counter[Key] = Counter()
    defects: Counter[str] = Counter()
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record.get("record") == "defects":
                defects.update(defect["code"] for defect in record["defects"])
            else:
                urls[(record.get("message"), record.get("part"), record["url"])] += 1
    return urls, defects


def main(argv: list[str] | None = None) -> int:
    """Command line; always exits 0."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--show", type=int, default=10, help="gained/lost URLs listed")
    args = parser.parse_args(argv)
    before, before_defects = load(args.before)
    after, after_defects = load(args.after)
    gained, lost = after - before, before - after
    messages = sorted({str(message) for message, _, _ in gained})
    print(
        f"URL records: {before.total()} before, {after.total()} after; "
        f"{gained.total()} gained in {len(messages)} messages, {lost.total()} lost"
    )
    print(f"messages gaining: {', '.join(messages)}")
    for name, counter in (("gained", gained), ("lost", lost)):
        for key in list(counter)[: args.show]:
            print(f"  {name}: message {key[0]} part {key[1]}: {key[2]}")
    print(f"defects before: {dict(sorted(before_defects.items()))}")
    print(f"defects after:  {dict(sorted(after_defects.items()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
