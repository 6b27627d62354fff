"""Count the URL classes of issue 12 in the shared corpora, tree by tree.

For each source tree given (``--tree LABEL=SRC``: the ``src`` folder of a checkout, put
first on ``PYTHONPATH``), runs ``python -m urlsift scan -q --format jsonl`` on the mail
archives (``corpora/mbox/*.mbox.gz``) and, as text, on the RFC corpora
(``corpora/rfc-url-wrapper``, ``corpora/rfc-multiline-angle``) and any ``--text`` folder,
then counts in each tree's records:

* **A wrapped joins** (item 1): bare URLs joined across a line a mail client wrapped (a
  ``continued-line`` defect).
* **B glued**: bare URLs glued to a ``-``, ``.``, ``+`` or digit before them.
* **C unsafe kept**: bare or prefixed URLs holding an RFC 1738 §2.2 unsafe character
  (``{ } | \\ ^ [ ]`` or the backtick; the brackets of an IP literal host are not counted);
  **C stopped**: bare or prefixed URLs that end right before one.
* **D pseudo**: URLs whose scheme is ``javascript``, ``vbscript`` or ``about``.
* **E doubtful joins**: bare URLs joined across a line break after a run of two or more
  hyphens, or after punctuation and a hyphen with a capitalised word next; **E joins**: all
  hyphen joins of bare URLs.
* **G unique rows** (item 7): the rows ``--unique`` and ``--count`` give, that is the
  distinct ``normalized`` forms (``url`` in a tree without that field).

Item 6 (MIME: transfer encodings with white space, ``text/calendar`` unfolding, CSS
``url(...)``) has no mark on a record; its changes show in the list of differences, where a
record outside every class above is tallied as ``other`` with its part's content type.

The character before and after each URL is read from the decoded text of its unit
(message part or file), opened with the ``urlsift.sources`` of the interpreter running
this script (the same in every tree compared). With two trees or more it then lists every
record that differs between the first two (keyed by source, message, part and start), each
with the classes it falls in, so that changes outside the intended classes show.

Run: ``.venv/bin/python benchmarks/count_classes.py --tree main=../main/src --tree
branch=src [--python PY] [--text DIR] [--output FILE.json]``. Needs ``../shared/corpora``
(or ``URLSIFT_CORPORA``); exits 0 with a note when it is missing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("URLSIFT_CORPORA", ROOT.parent / "shared" / "corpora"))
RFC_DIRS = ("rfc-url-wrapper", "rfc-multiline-angle")

GLUE = frozenset("-.+0123456789")
UNSAFE = frozenset("{}|\\^[]`")
PSEUDO = frozenset({"javascript", "vbscript", "about"})
PUNCT = frozenset(".,;:!?'")
_IP_LITERAL_HOST = re.compile(
    r"^[A-Za-z][A-Za-z0-9+.\-]*://\[(?:[0-9A-Fa-f:.]{2,45}|v[^\]/]{1,80})\]"
)
_PROSE_WORD = re.compile(r"[ \t>]*[A-Z][a-z]{0,30}[ \t\r\n,;:!?]")
CLASSES = (
    "A wrapped joins",
    "B glued",
    "C unsafe kept",
    "C stopped",
    "D pseudo",
    "E doubtful joins",
    "E joins",
)

Record = dict[str, Any]
Key = tuple[str, int, str, int]


Run = tuple[str, str, list[str]]  # corpus name, input kind, paths


def corpus_runs(text_dirs: Iterable[Path]) -> list[Run]:
    """The scans to run: the mail archives, the RFC corpora, the extra text folders."""
    mboxes = sorted(str(p) for p in (SHARED / "mbox").glob("*.mbox.gz"))
    rfcs = [str(p) for d in RFC_DIRS for p in _files(SHARED / d)]
    texts = [str(p) for d in text_dirs for p in _files(d)]
    return [("mbox", "auto", mboxes), ("rfc", "text", rfcs), ("text", "text", texts)]


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def scan(python: str, src: str | None, runs: list[Run]) -> list[Record]:
    """Records of ``urlsift scan --format jsonl`` run with ``src`` first on the path."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    records: list[Record] = []
    for corpus, kind, paths in runs:
        if not paths:
            continue
        command = [python, "-m", "urlsift", "scan", "-q", "--format", "jsonl"]
        command += ["--input-kind", kind, *paths]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command[:8])} ...: exit {done.returncode}\n{done.stderr}")
        for line in done.stdout.splitlines():
            record = json.loads(line)
            if "url" in record:  # not a per-message defects record
                record["corpus"] = corpus
                records.append(record)
    return records


def key(record: Record) -> Key:
    return (record["source"], record.get("message") or 0, record.get("part") or "", record["start"])


def unit_texts(keys: set[tuple[str, int, str]], runs: list[Run]) -> dict:
    """Decoded text of every unit named in ``keys`` (source, message, part)."""
    from urlsift.sources.archive import open_units  # this interpreter's sources

    wanted_sources = {k[0] for k in keys}
    texts: dict[tuple[str, int, str], str] = {}
    for _, kind, paths in runs:
        for path in paths:
            if path not in wanted_sources:
                continue
            for unit in open_units(path, kind):  # type: ignore[arg-type]
                context = unit.context
                k = (
                    unit.source,
                    context.message if context else 0,
                    context.part if context else "",
                )
                if k in keys:
                    texts[k] = "".join(unit.chunks)
                else:
                    for _ in unit.chunks:
                        pass
    return texts


def classes(record: Record, text: str | None) -> list[str]:
    """The classes of issue 12 a record falls in."""
    found = []
    kind, raw, url = record["kind"], record["raw"], record["url"]
    start, end = record["start"], record["end"]
    before = text[start - 1] if text and start > 0 else ""
    after = text[end] if text and end < len(text) else ""
    if any(d.get("code") == "continued-line" for d in record.get("defects", ())):
        found.append("A wrapped joins")
    if kind == "bare" and before in GLUE and before:
        found.append("B glued")
    if kind in ("bare", "prefixed"):
        host = _IP_LITERAL_HOST.match(url)
        if any(c in UNSAFE for c in url[host.end() if host else 0 :]):
            found.append("C unsafe kept")
        if after and after in UNSAFE:
            found.append("C stopped")
    if url.split(":", 1)[0].lower() in PSEUDO:
        found.append("D pseudo")
    if kind == "bare" and "-\n" in raw:
        found.append("E joins")
        lines = raw.split("\n")
        for line, nxt in itertools.pairwise(lines):
            head = line.rstrip()
            if not head.endswith("-"):
                continue
            if head.endswith("--") or (
                len(head) > 1 and head[-2] in PUNCT and _PROSE_WORD.match(nxt + " ")
            ):
                found.append("E doubtful joins")
                break
    return found


def measure(label: str, python: str, src: str | None, runs: list) -> dict[str, Any]:
    records = scan(python, src, runs)
    needed = {key(r)[:3] for r in records}
    texts = unit_texts(needed, runs)
    counts: Counter[tuple[str, str]] = Counter()
    labelled = []
    distinct: set[tuple[str, str]] = set()
    for record in records:
        found = classes(record, texts.get(key(record)[:3]))
        counts.update((record["corpus"], name) for name in [*found, "all records"])
        labelled.append((record, found))
        distinct.add((record["corpus"], record.get("normalized", record["url"])))
    counts.update((corpus, "G unique rows") for corpus, _ in distinct)
    return {"label": label, "records": labelled, "counts": counts, "texts": texts}


def _brief(record: Record) -> str:
    where = f"{Path(record['source']).name}"
    if record.get("message"):
        where += f" msg {record['message']} part {record['part']}"
    return f"{where} {record['line']}:{record['column']} {record['kind']} {record['url']!r}"


def diff(first: dict[str, Any], second: dict[str, Any]) -> list[str]:
    """Lines describing every record that differs between two trees' results."""
    a = {key(r): (r, c) for r, c in first["records"]}
    b = {key(r): (r, c) for r, c in second["records"]}
    out = []
    tally: Counter[str] = Counter()
    for k in sorted(a.keys() | b.keys()):
        ra, ca = a.get(k, (None, []))
        rb, cb = b.get(k, (None, []))
        if (
            ra
            and rb
            and (ra["url"], ra["raw"], ra["alternatives"])
            == (
                rb["url"],
                rb["raw"],
                rb["alternatives"],
            )
        ):
            continue
        either = ra or rb
        assert either is not None
        why = ", ".join(sorted(set(ca) | set(cb))) or f"other {either.get('content_type', 'text')}"
        if ra is None:
            change = "added"
        elif rb is None:
            change = "removed"
        else:
            change = "changed"
        tally[f"{change}: {why}"] += 1
        out.append(f"  [{why}] {change}")
        if ra:
            out.append(f"    {first['label']}: {_brief(ra)}")
        if rb:
            out.append(f"    {second['label']}: {_brief(rb)}")
    summary = [f"  {n:5d}  {what}" for what, n in sorted(tally.items())]
    return ["by kind of change:", *summary, "", "records:", *out]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--tree", action="append", default=[], metavar="LABEL=SRC", help="repeatable"
    )
    parser.add_argument("--python", default=sys.executable, help="interpreter to run urlsift")
    parser.add_argument("--text", action="append", default=[], type=Path, help="extra text dir")
    parser.add_argument("--output", type=Path, help="write counts and differences as JSON")
    args = parser.parse_args(argv)
    if not (SHARED / "mbox").is_dir():
        print(f"no corpora at {SHARED}: nothing to count")
        return 0
    trees = [t.split("=", 1) if "=" in t else [t, t] for t in args.tree] or [["current", ""]]
    runs = corpus_runs(args.text)
    results = [measure(label, args.python, src or None, runs) for label, src in trees]
    corpora = [corpus for corpus, _, paths in runs if paths]
    heads = [f"{corpus} {r['label']}" for corpus in corpora for r in results]
    width = max(len(c) for c in CLASSES)
    print(f"| {'class':{width}} | " + " | ".join(heads) + " |")
    print(f"| {'-' * width} | " + " | ".join("-" * len(h) for h in heads) + " |")
    for name in (*CLASSES, "G unique rows", "all records"):
        cells = [
            f"{r['counts'][(corpus, name)]:>{len(h)}d}"
            for h, (corpus, r) in zip(
                heads, [(c, r) for c in corpora for r in results], strict=True
            )
        ]
        print(f"| {name:{width}} | " + " | ".join(cells) + " |")
    lines: list[str] = []
    if len(results) > 1:
        lines = diff(results[0], results[1])
        print(f"\ndifferences, {results[0]['label']} -> {results[1]['label']}:")
        print("\n".join(lines))
    if args.output:
        report = {
            "trees": dict(trees),
            "counts": {
                r["label"]: {f"{c} {n}": v for (c, n), v in r["counts"].items()} for r in results
            },
            "records": {r["label"]: len(r["records"]) for r in results},
            "differences": lines,
        }
        args.output.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
