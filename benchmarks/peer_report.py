"""Per-peer conformance counts: cases, passes, RFC disagreements, bugs.

Usage::

    .venv/bin/python benchmarks/peer_report.py [--verbose]

Reads the same fixtures and disagreement list as ``tests/test_peers.py`` (it imports that
module), runs every case through :func:`urlsift.extract` and prints one row per peer.
``--verbose`` also lists each disagreement with what urlsift found. A case that disagrees
but is not listed, or is listed but agrees, is counted as *unlisted*/*stale*: the test
suite fails on those.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import test_peers  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", "-v", action="store_true", help="list each disagreement")
    args = parser.parse_args(argv)

    listed = test_peers.load_disagreements()
    columns = ("peer", "cases", "pass", "RFC", "BUG", "unlisted", "stale")
    rows: list[tuple[object, ...]] = []
    details: list[str] = []
    totals = [0] * (len(columns) - 1)
    for peer in test_peers.PEERS:
        counts = dict.fromkeys(columns[1:], 0)
        for case in test_peers.load_cases(peer):
            counts["cases"] += 1
            outcome = test_peers.run_case(case)
            entry = listed.get(case.id)
            if outcome.agrees:
                counts["stale" if entry else "pass"] += 1
                continue
            counts[entry.kind if entry else "unlisted"] += 1
            kind = entry.kind if entry else "UNLISTED"
            reason = entry.reason if entry else "not in disagreements.txt"
            details.append(
                f"{kind:8} {case.id}\n"
                f"         input:    {case.text!r}\n"
                f"         peer:     {outcome.expected!r}\n"
                f"         urlsift:  {outcome.found!r}\n"
                f"         reason:   {reason}"
            )
        rows.append((peer, *counts.values()))
        totals = [t + c for t, c in zip(totals, counts.values(), strict=True)]
    rows.append(("total", *totals))

    widths = [max(len(str(row[i])) for row in (columns, *rows)) for i in range(len(columns))]
    line = "  ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths))
    print(line.format(*columns))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line.format(*row))
    if args.verbose and details:
        print()
        print("\n".join(details))
    return 1 if totals[-1] or totals[-2] else 0


if __name__ == "__main__":
    sys.exit(main())
