"""Check that two checkouts write byte-identical ``urlsift scan --format jsonl`` output.

For a change meant to alter speed and nothing else. Runs ``python -m urlsift scan -q
--format jsonl`` of each checkout (its ``src`` first on ``PYTHONPATH``, this interpreter)
on the same inputs and compares the outputs byte for byte:

* each group of files of the shared corpora (``mbox/*.mbox.gz`` one archive at a time,
  ``mail-samples``, ``rfc-url-wrapper``, ``rfc-multiline-angle``, ``docs``), all files of a
  group in one run, in sorted order;
* the outputs of ``gen_text.py`` (``mail``, ``dense`` and ``mbox``, seeds 1 and 2);
* the mail options and the engine: ``mail-samples`` and this checkout's ``corpora/mail``
  with ``--headers --include-attachments``, and every ``mbox/*.mbox.gz`` with ``-j 2``.

Usage::

    python benchmarks/same_records.py BEFORE_CHECKOUT [AFTER_CHECKOUT]

(``AFTER_CHECKOUT`` defaults to this checkout.) Prints one line per input with the record
count and ``same`` or the first differing line of each side; exits 1 when any differs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = Path("/work/shared/corpora")
GROUPS = ("mail-samples", "rfc-url-wrapper", "rfc-multiline-angle", "docs")
GENERATED = (("mail", "3M"), ("dense", "1M"), ("mbox", "3M"))
MAIL_OPTIONS = ("--headers", "--include-attachments")


def inputs(scratch: Path) -> list[tuple[str, list[Path], tuple[str, ...]]]:
    """The inputs to scan, by name, with extra options: corpus groups, archives, generated
    texts."""
    found: list[tuple[str, list[Path], tuple[str, ...]]] = []
    archives = sorted((CORPORA / "mbox").glob("*.mbox.gz"))
    for archive in archives:
        found.append((f"mbox/{archive.name}", [archive], ()))
    for group in GROUPS:
        files = sorted(p for p in (CORPORA / group).rglob("*") if p.is_file())
        found.append((group, files, ()))
    samples = sorted(p for p in (CORPORA / "mail-samples").rglob("*") if p.is_file())
    found.append(("mail-samples --headers --include-attachments", samples, MAIL_OPTIONS))
    ours = sorted(p for p in (HERE.parent / "corpora" / "mail").iterdir() if p.suffix != ".md")
    found.append(("corpora/mail --headers --include-attachments", ours, MAIL_OPTIONS))
    found.append(("mbox/*.mbox.gz -j 2", archives, ("-j", "2")))
    for kind, size in GENERATED:
        for seed in (1, 2):
            path = scratch / f"gen-{kind}-{seed}.txt"
            command = [sys.executable, str(HERE / "gen_text.py"), kind, "--size", size]
            with path.open("w", encoding="utf-8") as out:
                subprocess.run([*command, "--seed", str(seed)], stdout=out, check=True)
            found.append((path.name, [path], ()))
    return found


def scan(checkout: Path, files: list[Path], options: tuple[str, ...] = ()) -> bytes:
    """The JSON Lines output of ``checkout``'s urlsift on ``files``."""
    env = dict(os.environ, PYTHONPATH=str(checkout / "src"))
    command = [sys.executable, "-m", "urlsift", "scan", "-q", "--format", "jsonl", *options]
    done = subprocess.run(
        [*command, *map(str, files)],
        capture_output=True,
        env=env,
        check=False,
    )
    return done.stdout


def first_difference(before: bytes, after: bytes) -> str:
    """The first differing line of each side, shortened."""
    for a, b in zip(before.splitlines(), after.splitlines(), strict=False):
        if a != b:
            return f"\n  before: {a[:300]!r}\n  after:  {b[:300]!r}"
    lines = (before.count(b"\n"), after.count(b"\n"))
    return f"\n  one output is longer ({lines[0]} vs {lines[1]} lines)"


def main() -> int:
    """Compare the two checkouts on every input; 1 when any output differs."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path, nargs="?", default=HERE.parent)
    args = parser.parse_args()
    differ = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name, files, options in inputs(Path(scratch)):
            before = scan(args.before, files, options)
            after = scan(args.after, files, options)
            records = after.count(b"\n")
            if before == after:
                print(f"{name:46s} {records:7d} records  same", flush=True)
            else:
                differ += 1
                print(f"{name:46s} {records:7d} records  DIFFER{first_difference(before, after)}")
    print("all outputs identical" if not differ else f"{differ} outputs differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
