"""The report of the linux-mips archives, opened in headless Chromium, shows the records' counts.

The page is rendered from ``../shared/corpora/mbox/linux-mips-*.mbox.gz`` (scanned as
``urlsift report`` scans), opened in Debian's Chromium through the DevTools protocol
(tests/_browser.py), and checked as a person would see it: no console error, no request
for anything but the file itself (it must open without a network), and every table read
from the DOM equal to counts computed here, independently and plainly, from the records
``urlsift scan --format jsonl`` writes for the same archives. The report made from those
JSONL records (``--from-jsonl``) must be the same page. The page and a full-page
screenshot are kept in the test artefacts folder ($PYTEST_ARTIFACTS, else tests/artifacts/).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from collections import Counter
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from _browser import PageVisit, chromium, visit
from urlsift.cli import main

ROOT = Path(__file__).resolve().parent.parent
ARCHIVES = sorted((ROOT.parent / "shared" / "corpora" / "mbox").glob("linux-mips-*.mbox.gz"))
ARTIFACTS = Path(os.environ.get("PYTEST_ARTIFACTS") or ROOT / "tests" / "artifacts")
BROWSER = chromium()

pytestmark = [
    pytest.mark.skipif(not ARCHIVES, reason="../shared/corpora/mbox/linux-mips-* not found"),
    pytest.mark.skipif(BROWSER is None, reason="no chromium (apt-get install chromium)"),
    pytest.mark.skipif(
        importlib.util.find_spec("matplotlib") is None,
        reason="the report extra is missing (pip install -e '.[report]')",
    ),
    pytest.mark.skipif(
        importlib.util.find_spec("websocket") is None,
        reason="websocket-client is missing (pip install -e '.[test]')",
    ),
    pytest.mark.timeout(300),
]


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.fixture(scope="module")
def records() -> list[dict[str, object]]:
    text = _run("scan", "--format", "jsonl", "-q", *map(str, ARCHIVES))
    (ARTIFACTS / "report.jsonl").parent.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "report.jsonl").write_text(text, encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


@pytest.fixture(scope="module")
def page() -> tuple[Path, PageVisit]:
    html = ARTIFACTS / "report.html"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    _run("report", "-q", "-j", "2", "-o", str(html), "--title", "linux-mips", *map(str, ARCHIVES))
    assert BROWSER is not None
    return html, visit(BROWSER, html, ARTIFACTS / "report.png")


def _month(record: dict[str, object]) -> str | None:
    try:
        when = parsedate_to_datetime(str(record["date"]))
    except (KeyError, TypeError, ValueError):
        return None
    return f"{when.year:04d}-{when.month:02d}"


def _host(record: dict[str, object]) -> str | None:
    parts = record.get("parts")
    host = parts.get("host") if isinstance(parts, dict) else None
    if host is None:
        return None
    host = host.lower()
    return host[4:] if host.startswith("www.") else host


def _share(part: int, whole: int) -> float:
    return 100 * part / whole


def _cells(visit_: PageVisit, table: str) -> list[list[str]]:
    return [[cell.strip() for cell in row] for row in visit_.tables[table]]


def test_page_opens_without_errors_or_network(page: tuple[Path, PageVisit]) -> None:
    html, seen = page
    assert seen.errors == []
    assert seen.title == "linux-mips"
    assert seen.requests[0] == html.resolve().as_uri()
    assert all(url.startswith("data:") for url in seen.requests[1:]), seen.requests
    text = html.read_text(encoding="utf-8")
    assert "<script" not in text
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:|//)""", text)
    assert (ARTIFACTS / "report.png").stat().st_size > 10_000


def test_figures_equal_the_records(
    page: tuple[Path, PageVisit], records: list[dict[str, object]]
) -> None:
    _, seen = page
    urls = [r for r in records if "record" not in r]
    total = len(urls)
    assert total > 3000  # the archives hold about 3,200 URLs

    invalid = [r for r in urls if not r["valid"]]
    months = Counter(_month(r) for r in urls)
    dated = sorted(m for m in months if m)
    hosts = Counter(h for h in map(_host, urls) if h)
    messages = {(r["source"], r.get("message")) for r in records}
    assert _cells(seen, "t-summary") == [
        ["URL records", str(total)],
        ["invalid URL records", str(len(invalid))],
        ["messages (or files) with records", str(len(messages))],
        ["undated URL records", str(months[None])],
        ["distinct hosts (folded)", str(len(hosts))],
        ["URL records without a host", str(sum(_host(r) is None for r in urls))],
    ]

    # Months: every month from the first to the last, empty ones included.
    invalid_months = Counter(_month(r) for r in invalid)
    shown = _cells(seen, "t-months")
    assert (shown[0][0], shown[-1][0]) == (dated[0], dated[-1])
    assert all(row == [row[0], str(months[row[0]]), str(invalid_months[row[0]])] for row in shown)
    assert sum(int(row[1]) for row in shown) + months[None] == total
    assert len(shown) == len({row[0] for row in shown})

    schemes = Counter(str(r["scheme"]) for r in urls)
    shown = _cells(seen, "t-schemes")
    assert [(s, int(n)) for s, n, _ in shown] == sorted(
        schemes.items(), key=lambda i: (-i[1], i[0])
    )
    for _, count, share in shown:
        assert float(share.rstrip("%")) == pytest.approx(_share(int(count), total), abs=0.05)

    codes = Counter(code for r in urls for code in {d["code"] for d in r["defects"]})  # type: ignore[attr-defined]
    shown = _cells(seen, "t-defects")
    assert shown[0][0] == "invalid (any error)"
    assert int(shown[0][2]) == len(invalid)
    assert [(row[0], int(row[2])) for row in shown[1:]] == sorted(
        codes.items(), key=lambda i: (-i[1], i[0])
    )
    message_codes = Counter(
        d["code"]
        for r in records
        if r.get("record") == "defects"
        for d in r["defects"]  # type: ignore[attr-defined]
    )
    assert {code: int(n) for code, n in _cells(seen, "t-message-defects")} == message_codes

    # Hosts over time: the ten hosts with most records, per year (the span is > 24 months).
    top = sorted(hosts.items(), key=lambda i: (-i[1], i[0]))[:10]
    years = sorted({m[:4] for m in dated})
    per_year = Counter((_host(r), (_month(r) or "")[:4]) for r in urls)
    assert _cells(seen, "t-hosts") == [
        [host, str(count), *(str(per_year[host, y]) for y in years)] for host, count in top
    ]

    # The messages with most defects (URL defects + defect-record defects), first ones first.
    tally: dict[tuple[object, object], list[int]] = {}
    for r in records:
        row = tally.setdefault((r["source"], r.get("message")), [0, 0, 0, 0])
        if r.get("record") == "defects":
            row[3] += len(r["defects"])  # type: ignore[arg-type]
        else:
            row[0] += 1
            row[1] += not r["valid"]
            row[2] += len(r["defects"])  # type: ignore[arg-type]
    order = {key: i for i, key in enumerate(tally)}
    worst = sorted(
        (k for k, v in tally.items() if v[2] + v[3]), key=lambda k: (-sum(tally[k][2:]), order[k])
    )
    shown = _cells(seen, "t-messages")
    assert [row[0] for row in shown] == [f"{Path(str(s)).name}#{n}" for s, n in worst[:15]]
    for row, key in zip(shown, worst, strict=False):
        counts = tally[key]
        assert row[3:] == [*map(str, counts), str(counts[2] + counts[3])]


def test_report_from_jsonl_is_the_same_page(
    page: tuple[Path, PageVisit], records: list[dict[str, object]]
) -> None:
    html, _ = page
    del records  # the fixture wrote report.jsonl
    from_jsonl = ARTIFACTS / "report-from-jsonl.html"
    _run(
        "report",
        "-q",
        "--from-jsonl",
        str(ARTIFACTS / "report.jsonl"),
        "-o",
        str(from_jsonl),
        "--title",
        "linux-mips",
    )
    header = re.compile(r"<header>.*?</header>", re.S)
    scanned = header.sub("", html.read_text(encoding="utf-8"))
    assert header.sub("", from_jsonl.read_text(encoding="utf-8")) == scanned
