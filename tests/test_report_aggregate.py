"""The report's figures: each a count of records, in bounded memory (report/aggregate.py)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urlsift import Url
from urlsift.engines.runner import ScanConfig, UnitDefects, iter_results
from urlsift.output.formats import url_json
from urlsift.report.aggregate import (
    Aggregator,
    MessageFacts,
    MessageRef,
    RecordError,
    UrlFacts,
    facts_from_defects,
    facts_from_record,
    facts_from_url,
    fold_host,
    month_of,
)
from urlsift.sources.options import MailOptions

ROOT = Path(__file__).resolve().parent.parent
MAIL = ROOT / "corpora" / "mail"


def _url(
    source: str = "a.mbox",
    number: int | None = 1,
    date: str | None = "Mon, 5 Mar 2001 10:00:00 -0800",
    scheme: str = "http",
    host: str | None = "example.org",
    valid: bool = True,
    defects: tuple[tuple[str, str], ...] = (),
) -> UrlFacts:
    return UrlFacts(MessageRef(source, number, None, date, None), scheme, host, valid, defects)


def test_month_is_the_date_as_written_not_utc() -> None:
    # 23:30 on 31 January at UTC-8 is 1 February in UTC: the sender's month is kept.
    assert month_of("Wed, 31 Jan 2001 23:30:00 -0800") == "2001-01"
    assert month_of("1 Feb 99 00:00 GMT") == "1999-02"
    assert month_of("not a date") is None
    assert month_of("") is None
    assert month_of(None) is None


def test_host_folding() -> None:
    assert fold_host("WWW.Example.ORG") == "example.org"
    assert fold_host("www.") == "www."
    assert fold_host("www2.example.org") == "www2.example.org"
    assert fold_host("ftp.www.example.org") == "ftp.www.example.org"


def test_counts_per_month_scheme_host_and_defect() -> None:
    records = [
        _url(host="www.Example.org"),
        _url(host="example.org", valid=False, defects=(("bad-port", "error"),) * 2),
        _url(number=2, date="Tue, 1 May 2001 09:00:00 +0200", scheme="ftp", host="ftp.x.org"),
        _url(number=3, date=None, scheme="mailto", host=None, defects=(("x", "warning"),)),
        MessageFacts(MessageRef("a.mbox", 3), ("unknown-charset", "unknown-charset")),
    ]
    data = Aggregator().add_all(records).result()
    assert (data.urls, data.invalid, data.messages, data.undated) == (4, 1, 3, 1)
    assert [(m.month, m.urls, m.invalid) for m in data.months] == [
        ("2001-03", 2, 1),
        ("2001-04", 0, 0),
        ("2001-05", 1, 0),
    ]
    assert data.schemes == (("http", 2), ("ftp", 1), ("mailto", 1))
    # A record with a code twice counts once for that code.
    assert [(d.code, d.severities, d.urls) for d in data.defects] == [
        ("bad-port", ("error",), 1),
        ("x", ("warning",), 1),
    ]
    assert data.message_defects == (("unknown-charset", 2),)
    assert data.periods == ("2001-03", "2001-04", "2001-05")
    assert [(h.host, h.total, h.per_period) for h in data.hosts] == [
        ("example.org", 2, (2, 0, 0)),
        ("ftp.x.org", 1, (0, 0, 1)),
    ]
    assert (data.distinct_hosts, data.hostless) == (2, 1)
    # Message 3: one URL defect and two message defects; message 1: two URL defects.
    top = [
        (m.ref.number, m.urls, m.invalid, m.url_defects, m.message_defects)
        for m in data.top_messages
    ]
    assert top == [(3, 1, 0, 1, 2), (1, 2, 1, 2, 0)]


def test_long_spans_count_hosts_per_year() -> None:
    records = [
        _url(date="1 Jan 1998 00:00 GMT", host="a.org"),
        _url(number=2, date="1 Dec 2000 00:00 GMT", host="a.org"),
        _url(number=3, date="2 Dec 2000 00:00 GMT", host="b.org"),
    ]
    data = Aggregator(top_hosts=1).add_all(records).result()
    assert data.periods == ("1998", "1999", "2000")
    assert len(data.months) == 36
    assert [(h.host, h.per_period) for h in data.hosts] == [("a.org", (1, 0, 1))]


def test_a_forged_date_does_not_fill_ten_thousand_years() -> None:
    records = [
        _url(date="1 Jan 0100 00:00 GMT"),
        _url(number=2, date="1 Mar 2001 00:00 GMT"),
        _url(number=3, date="1 Dec 9999 00:00 GMT"),
    ]
    data = Aggregator().add_all(records).result()
    assert [m.month for m in data.months] == ["0100-01", "2001-03", "9999-12"]
    assert data.periods == ("0100", "2001", "9999")


def test_empty_input() -> None:
    data = Aggregator().result()
    assert (data.urls, data.months, data.hosts, data.top_messages) == (0, (), (), ())


_messages = st.lists(
    st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(1, 3)), max_size=40
)


@given(_messages, st.integers(1, 6))
def test_top_messages_equal_a_full_sort(messages: list[tuple[int, int, int]], top: int) -> None:
    # Each message: (URL defects, message defects, URLs); the bounded heap must keep what
    # sorting every message would.
    records: list[UrlFacts | MessageFacts] = []
    for number, (url_defects, message_defects, urls) in enumerate(messages, 1):
        if message_defects:
            records.append(MessageFacts(MessageRef("m", number), ("d",) * message_defects))
        for i in range(urls):
            records.append(_url("m", number, defects=(("c", "error"),) * url_defects * (i == 0)))
    data = Aggregator(top_messages=top).add_all(records).result()
    expected = sorted(
        ((-(u + d), number) for number, (u, d, _) in enumerate(messages, 1) if u + d)
    )[:top]
    assert [(-m.defects, m.ref.number) for m in data.top_messages] == expected


def test_records_from_jsonl_and_from_the_runner_agree() -> None:
    # The two ways in (a Url from the runner, its JSONL record) give the same facts.
    config = ScanConfig(options=MailOptions(scan_headers=True))
    paths = sorted(str(p) for p in MAIL.glob("*.eml"))
    seen = 0
    for result in iter_results(paths, config):
        if isinstance(result, UnitDefects):
            record = json.loads(json.dumps(result.to_dict()))
            expected = facts_from_defects(result.source, result.context, result.defects)
            assert facts_from_record(record) == expected
        elif isinstance(result, Url):
            record = json.loads(url_json(result))
            assert facts_from_record(record) == facts_from_url(result)
            seen += 1
    assert seen > 20


@pytest.mark.parametrize(
    "record",
    [
        {"url": "http://a", "count": 3, "first_date": None, "last_date": None},  # --count row
        {"record": "summary", "source": "x"},
        {"url": "http://a", "scheme": "http", "valid": True},  # no source
        {"url": "http://a", "scheme": "http", "valid": True, "source": "x", "defects": [1]},
        {"url": "http://a", "scheme": "http", "valid": True, "source": "x", "message": "1"},
    ],
)
def test_records_that_are_not_scan_records_are_refused(record: dict[str, object]) -> None:
    with pytest.raises(RecordError):
        facts_from_record(record)


def test_aggregation_is_pure() -> None:
    # Like the scanner core: no files, sockets or processes; the standard library only.
    tree = ast.parse((ROOT / "src" / "urlsift" / "report" / "aggregate.py").read_text())
    modules = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert modules <= {
        "__future__",
        "heapq",
        "collections",
        "collections.abc",
        "dataclasses",
        "email.utils",
        "_model",
        "errors",  # check_limit: one check of every limit (imports operator only)
        "output.summary",  # fold_host: one definition of how hosts are grouped
    }


def test_memory_does_not_grow_with_records() -> None:
    # 40,000 messages of two URLs each, most with defects: after the first 4,000 the
    # counters have seen every key, so the next 36,000 may add only noise (allocator and
    # interpreter caches, under 0.2 MB); holding their 72,000 records, or a row per
    # message, would add more than 10 MB.
    import tracemalloc

    def records(first: int, last: int) -> list[UrlFacts]:
        return [
            _url("m", n, host=f"h{n % 50}.org", defects=(("c", "error"),) * (n % 4))
            for n in range(first, last)
            for _ in range(2)
        ]

    aggregator = Aggregator(top_messages=10)
    aggregator.add_all(records(0, 4_000))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for start in range(4_000, 40_000, 4_000):
            aggregator.add_all(records(start, start + 4_000))
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 1_000_000
    assert len(aggregator.result().top_messages) == 10
