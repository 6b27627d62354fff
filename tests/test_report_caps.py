"""Hostile input, round two (issue 24 item 14): the report's charts and tables are capped.

4,000 distinct schemes made a 4.6 MB page from 55 KB of records in 32 s (a bar and a row
each); dates forged in every month of centuries did the same for the months. Like the
hosts (the top ten, and the number of distinct hosts), the schemes are the top
:data:`~urlsift.report.aggregate.DEFAULT_TOP_SCHEMES` plus one "+N more schemes" row and
bar, and the months at most :data:`~urlsift.report.aggregate.MAX_MONTHS` (those with most
records) plus a "+N more months" row. Every record is still counted. The growth of the
report's time with the number of distinct schemes and months is measured in
``benchmarks/bench_linear.py --family report-schemes --family report-months``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from urlsift.cli import main
from urlsift.report.aggregate import (
    DEFAULT_TOP_SCHEMES,
    MAX_MONTHS,
    Aggregator,
    MessageRef,
    UrlFacts,
)

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _facts(scheme: str, date: str | None, number: int = 1) -> UrlFacts:
    return UrlFacts(MessageRef("a.mbox", number, None, date, None), scheme, "h.example", True, ())


def _date(index: int) -> str:
    # A different month for each index: January of year 1000, February, ...
    year, month = divmod(index, 12)
    return f"1 {MONTHS[month]} {1000 + year:04d} 00:00 GMT"


def test_schemes_are_the_top_ones_and_the_rest_together() -> None:
    facts = [_facts(f"x-s{n:04d}", None, n) for n in range(4000)]
    facts += [_facts("http", None, 5000 + n) for n in range(3)]
    data = Aggregator().add_all(facts).result()
    assert len(data.schemes) == DEFAULT_TOP_SCHEMES
    assert data.schemes[0] == ("http", 3)
    assert data.distinct_schemes == 4001
    assert data.other_schemes == 4003 - sum(n for _, n in data.schemes)


def test_months_past_the_cap_are_the_busiest_and_the_rest_together() -> None:
    count = MAX_MONTHS + 300
    facts = [_facts("http", _date(n), n) for n in range(count)]
    facts += [_facts("http", _date(7), count + n) for n in range(5)]  # a busy month
    data = Aggregator().add_all(facts).result()
    assert len(data.months) == MAX_MONTHS
    assert data.distinct_months == count
    assert "1000-08" in {m.month for m in data.months}
    assert sum(m.urls for m in data.months) + data.other_months == count + 5
    assert data.other_months == 300
    assert len(data.periods) <= MAX_MONTHS


def _jsonl(path: Path, schemes: int, months: int) -> Path:
    lines = []
    for n in range(max(schemes, months)):
        record = {
            "url": f"x{n}:a",
            "normalized": f"x{n}:a",
            "alternatives": [],
            "raw": f"x{n}:a",
            "kind": "angle",
            "scheme": f"x-s{n % schemes:05d}" if schemes else "http",
            "start": 0,
            "end": 1,
            "line": 1,
            "column": 1,
            "end_line": 1,
            "source": "a.mbox",
            "defects": [],
            "valid": True,
            "message": n + 1,
            "message_offset": 0,
            "message_id": None,
            "date": _date(n % months) if months else None,
            "from": None,
            "subject": None,
            "part": "1",
            "content_type": "text/plain",
        }
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_page_of_thousands_of_schemes_and_months_stays_small(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the report needs the report extra")
    records = _jsonl(tmp_path / "r.jsonl", schemes=3000, months=3000)
    page = tmp_path / "r.html"
    result = CliRunner().invoke(
        main, ["report", "-q", "--from-jsonl", str(records), "-o", str(page)]
    )
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    schemes = re.search(r'<table id="t-schemes">.*?</table>', html, re.DOTALL)
    assert schemes is not None
    assert schemes.group().count("<tr>") == 1 + DEFAULT_TOP_SCHEMES + 1  # head, top, "+N more"
    assert "+2,980 more schemes" in html
    assert "more months" in html
    assert len(html) < 1_500_000  # it was 4.6 MB for 4,000 schemes
