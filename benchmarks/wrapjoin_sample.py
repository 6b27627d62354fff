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
import hashlib
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from urlsift import Scanner, Url, extract
from urlsift.grammar.context import TRAILING_PUNCT
from urlsift.sources.archive import open_units

_CONTEXT_LINES = 3
_TRIMMED = "".join(sorted(TRAILING_PUNCT))


def line_end_cases(path: str, label: str | None = None) -> Iterator[dict[str, object]]:
    """Yield one record per bare URL ending its line, with a following non-blank line.

    A URL the scanner already joined across lines counts by its first line. ``label``
    names the source in the records (default: the file's name).
    """
    for unit in open_units(path):
        text = "".join(unit.chunks)
        scanner = Scanner()
        candidates = scanner.feed(text) + scanner.close()
        if not candidates:
            continue
        lines = text.split("\n")
        for cand in candidates:
            if cand.kind != "bare" or cand.line >= len(lines):
                continue
            line = lines[cand.line - 1]
            first = cand.raw.split("\n", 1)[0]
            url_end_col = cand.column - 1 + len(first)
            if line[url_end_col:].strip().strip(_TRIMMED):
                continue  # more text on the line (what the scanner trimmed does not count)
            nxt = lines[cand.line]
            if not nxt.strip():
                continue
            ctx = unit.context
            yield {
                "archive": label or Path(path).name,
                "message_id": ctx.message_id if ctx else None,
                "date": ctx.date if ctx else None,
                "part": ctx.part if ctx else None,
                "line": cand.line,
                "url": first,
                "before": lines[max(0, cand.line - 1 - _CONTEXT_LINES) : cand.line - 1],
                "url_line": line,
                "next_line": nxt,
                "after": lines[cand.line + 1 : cand.line + 1 + _CONTEXT_LINES],
            }


def case_key(case: dict[str, object]) -> str:
    """The stable name of a listed case: its source, message, part and line."""
    return f"{case['archive']} {case['message_id']} {case['part']} {case['line']}"


def case_hash(case: dict[str, object]) -> str:
    """A hash of :func:`case_key`: orders the draw and decides the half."""
    return hashlib.sha256(case_key(case).encode("utf-8", "surrogatepass")).hexdigest()


def half_of(digest: str) -> str:
    """``tune`` or ``held-out``, from a case's hash alone (fixed before any tuning)."""
    return "tune" if int(digest[:8], 16) % 2 == 0 else "held-out"


# The next line starts with a token that could be a URL's rest: URL characters only, and
# URL signs, a file name or a hex run in it; or the URL line ends where a URL rarely ends.
_SUSPECT_NEXT = re.compile(r"[>| \t]*([A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+)(?:\s|$)")
_HAS_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,31}:")
_SUSPECT_TOKEN = re.compile(r".*[/%#?=&~]|[A-Za-z0-9_-]+\.[A-Za-z0-9]{1,5}[.,]?$|.*[0-9a-f]{6}")


def suspect(case: dict[str, object]) -> bool:
    """Is the case worth drawing in the "suspect" stratum (a wrap is plausible)?"""
    url = str(case["url"])
    m = _SUSPECT_NEXT.match(str(case["next_line"]))
    if m is None or m.group(1).endswith(":") or _HAS_SCHEME.match(m.group(1)):
        return False  # a label, or a list of URLs
    if not any(c.isalnum() for c in m.group(1)):
        return False  # a rule
    return _SUSPECT_TOKEN.match(m.group(1)) is not None or url[-1:] in "-_?&=%"


def wide(case: dict[str, object]) -> bool:
    """Is the URL's line wide enough to have been wrapped (60 columns or more without its
    quote prefix) and the next line's first word free of spaces and of a scheme?"""
    line = str(case["url_line"]).lstrip("> \t:|")
    m = _SUSPECT_NEXT.match(str(case["next_line"]))
    if len(line.expandtabs(8)) < _WIDE or m is None or _HAS_SCHEME.match(m.group(1)):
        return False
    return any(c.isalnum() for c in m.group(1))


_WIDE = 60


def draw(
    cases: list[dict[str, object]], random_n: int, suspect_n: int, wide_n: int = 0
) -> list[dict[str, object]]:
    """Draw a reproducible sample: the first ``random_n`` cases in hash order, then the
    first ``suspect_n`` further cases in hash order that :func:`suspect` keeps (a URL
    and next line repeated elsewhere are drawn once), then the first ``wide_n`` further
    cases that :func:`wide` keeps. Each record gains its ``key``, ``hash``, ``stratum``
    and ``half``."""
    seen: set[tuple[str, str]] = set()
    ordered: list[dict[str, object]] = []
    for case in sorted(cases, key=case_hash):
        # A signature or a quoted paragraph repeated in many messages is drawn once.
        pair = (str(case["url"]), str(case["next_line"]).lstrip("> \t"))
        if pair not in seen:
            seen.add(pair)
            ordered.append(case)
    chosen: list[dict[str, object]] = []
    for case in ordered[:random_n]:
        chosen.append({**case, "stratum": "random"})
    rest = [case for case in ordered[random_n:] if suspect(case)]
    for case in rest[:suspect_n]:
        chosen.append({**case, "stratum": "suspect"})
    taken = {case_key(case) for case in chosen}
    rest = [case for case in ordered if case_key(case) not in taken and wide(case)]
    for case in rest[:wide_n]:
        chosen.append({**case, "stratum": "wide"})
    for case in chosen:
        digest = case_hash(case)
        case.update(key=case_key(case), hash=digest[:12], half=half_of(digest))
    return chosen


@dataclass
class JudgedCase:
    """One hand-judged case of ``corpora/wrapjoin/judged.txt`` or ``drawn.txt``."""

    name: str
    source: str
    judged: str  # "wrapped" or "not-wrapped"
    expect: str  # "join", "both" or "keep": urlsift's pinned decision
    reason: str
    text: str  # the verbatim lines, joined with line breaks
    url_line: int  # 1-based line of the URL in ``text``
    half: str = "tune"  # "tune" or "held-out" (judged.txt: all tune, tuned on before)
    url: str = ""  # the URL as a reader rebuilds it ("" when not written down)


def read_judged(path: Path) -> list[JudgedCase]:
    """Read a judged fixture (format: its header comment)."""
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
                    fields.get("half", "tune"),
                    fields.get("url", ""),
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


_JOINED = frozenset({"continued-line", "ambiguous-hyphen"})


def found_url(case: JudgedCase) -> Url:
    """The URL urlsift reports at the end of the case's URL line (the last one on it)."""
    found = [
        url
        for url in extract(case.text)
        if url.line == case.url_line and url.kind in ("bare", "prefixed")
    ]
    if not found:
        raise ValueError(f"{case.name}: no bare URL on line {case.url_line}")
    return found[-1]


def decide(case: JudgedCase) -> str:
    """urlsift's decision on a case: ``join`` (the joined reading is the URL), ``both``
    (the cut reading is, the joined one is offered: ``possible-wrap``) or ``keep``."""
    codes = {d.code for d in found_url(case).defects}
    if codes & _JOINED:
        return "join"
    return "both" if "possible-wrap" in codes else "keep"


def joined_reading(case: JudgedCase) -> str | None:
    """The joined reading urlsift offers (the URL, or its first alternative), if any."""
    url = found_url(case)
    codes = {d.code for d in url.defects}
    if codes & _JOINED:
        return url.url
    if "possible-wrap" in codes and url.alternatives:
        return url.alternatives[0]
    return None


def score(cases: list[JudgedCase]) -> dict[str, int]:
    """Count the decisions against the hand judgement: ``wrapped`` and ``not`` cases;
    ``join_ok`` / ``join_bad``: joins of wrapped / unwrapped URLs; ``both_ok`` /
    ``both_bad``: joined readings offered as an alternative; ``missed``: wrapped, kept."""
    counts = dict.fromkeys(
        ("wrapped", "not", "join_ok", "join_bad", "both_ok", "both_bad", "missed"), 0
    )
    for case in cases:
        got = decide(case)
        wrapped = case.judged == "wrapped"
        counts["wrapped" if wrapped else "not"] += 1
        if got == "keep":
            counts["missed"] += wrapped
        else:
            counts[f"{got}_{'ok' if wrapped else 'bad'}"] += 1
    return counts


def figures(counts: dict[str, int]) -> tuple[float, float, float]:
    """(primary-join precision, recall as primary or alternative, share of unwrapped
    URLs given a needless alternative or join)."""
    joins = counts["join_ok"] + counts["join_bad"]
    precision = counts["join_ok"] / joins if joins else 1.0
    found = counts["join_ok"] + counts["both_ok"]
    recall = found / counts["wrapped"] if counts["wrapped"] else 1.0
    needless = counts["join_bad"] + counts["both_bad"]
    share = needless / counts["not"] if counts["not"] else 0.0
    return precision, recall, share


def main(argv: list[str] | None = None) -> int:
    """Print the cases of the given archives as JSON lines, or score the judged sample."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument(
        "--judge", type=Path, nargs="+", help="score the judged fixture files (by half)"
    )
    parser.add_argument(
        "--draw",
        nargs=3,
        type=int,
        metavar=("RANDOM", "SUSPECT", "WIDE"),
        help="print only a reproducible draw: RANDOM cases in hash order, then SUSPECT more "
        "that look like a wrap, then WIDE more on a wide line before a spaceless word (each "
        "with its stratum and half)",
    )
    args = parser.parse_args(argv)
    if args.judge:
        cases = [case for path in args.judge for case in read_judged(path)]
        for case in cases:
            got = decide(case)
            # Right: a wrapped URL joined or offered, an unwrapped one kept.
            ok = (got != "keep") == (case.judged == "wrapped")
            print(
                f"{'ok ' if ok else 'ERR'} {case.name} [{case.half}]: judged {case.judged}, "
                f"urlsift {got}: {case.reason}"
            )
        for half in ("tune", "held-out", "all"):
            part = [case for case in cases if half in ("all", case.half)]
            c = score(part)
            precision, recall, share = figures(c)
            print(
                f"{half}: {len(part)} cases ({c['wrapped']} wrapped, {c['not']} not): "
                f"joins {c['join_ok']} right, {c['join_bad']} wrong; both {c['both_ok']} "
                f"right, {c['both_bad']} needless; {c['missed']} missed; primary-join "
                f"precision {precision:.3f}, recall (primary or alternative) {recall:.3f}, "
                f"needless alternatives {share:.1%}"
            )
        return 0
    listed = [
        case
        for path in args.paths
        for case in line_end_cases(path, path.partition("/corpora/")[2] or None)
    ]
    if args.draw:
        listed = draw(listed, *args.draw)
    for case in listed:
        sys.stdout.write(json.dumps(case, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
