"""The common RFC 5322 date is read in one match, as ``parsedate_to_datetime`` reads it.

``utc_date`` reads ``Thu, 13 Sep 2001 12:30:05 -0700`` (day name and seconds optional,
words after the zone ignored) itself (issue 26: the stdlib's date parser was 8 % of
reading the shared archives) and leaves every other form to
:func:`email.utils.parsedate_to_datetime`. The tests hold the two to the same instant, or
the same refusal, on dates built near the edges (days 0-40, hours 24, zones of a day,
years 1000 and 9999, two-digit years).
"""

from __future__ import annotations

import email.utils
from datetime import timezone
from email.utils import parsedate_to_datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift.sources import headers
from urlsift.sources.headers import utc_date


def _stdlib(date: str) -> str | None:
    try:
        when = parsedate_to_datetime(date)
    except (ValueError, TypeError, OverflowError, IndexError):
        return None
    try:
        if when.tzinfo is not None:
            when = when.astimezone(timezone.utc).replace(tzinfo=None)
    except OverflowError:
        return None
    return when.isoformat(timespec="seconds") + "Z"


def _two(top: int) -> st.SearchStrategy[str]:
    return st.integers(0, top).map("{:02d}".format)


DATES = st.tuples(
    st.sampled_from(["", "Thu, ", "Sun, ", "Thu,", "Xyz, "]),
    st.one_of(st.integers(0, 40).map(str), st.just("07")),
    st.sampled_from(["Jan", "Feb", "Sep", "Dec", "sep", "Foo"]),
    st.one_of(st.integers(0, 9999).map(str), st.sampled_from(["0099", "1000", "9999", "97"])),
    _two(25),
    _two(61),
    st.one_of(st.just(""), _two(61).map(":{}".format)),
    st.sampled_from(["+", "-", ""]),
    _two(30),
    _two(99),
    st.sampled_from(["", " (PDT)", " +0100", "(PDT)", "  x"]),
).map(lambda p: f"{p[0]}{p[1]} {p[2]} {p[3]} {p[4]}:{p[5]}{p[6]} {p[7]}{p[8]}{p[9]}{p[10]}")


@settings(max_examples=1500, deadline=None)
@given(DATES)
def test_common_dates_read_as_the_stdlib_reads_them(date: str) -> None:
    instant, defects = utc_date(date)
    assert instant == _stdlib(date)
    assert bool(defects) == (instant is None)


@pytest.mark.parametrize(
    "date",
    [
        "Fri, 31 Dec 9999 23:59:59 -0100",  # past the last datetime
        "Mon, 1 Jan 1000 00:00:00 +0100",
        "Thu, 13 Sep 2001 12:30:05 +2400",  # a zone of a day
        "Thu, 13 Sep 2001 12:30:05 -2359",
        "Thu, 31 Feb 2001 12:30:05 +0000",
        "Thu, 13 Sep 2001 24:00:00 +0000",
        "Thu, 13 Sep 2001 12:30:60 +0000",
        "13 Sep 2001 12:30 -0000",
        "Thu, 13 Sep 2001 12:30:05 +0099",
        "Tue, 29 Feb 2000 23:30:00 -0100",  # a leap year by 400, into 1 March
        "29 Feb 1900 12:00:00 +0000",  # no leap year (by 100)
        "29 Feb 2004 00:10:00 +0100",  # a leap year, into 28 February
        "1 Mar 2001 00:10:00 +0100",  # into 28 February
        "1 Mar 2004 00:10:00 +0100",  # into 29 February
        "31 Dec 2001 23:30:00 -0100",  # into the next year
        "1 Jan 2002 00:30:00 +0100",  # into the year before
        "30 Apr 2001 23:59:59 -1159",
        "31 Apr 2001 12:00:00 +0000",  # no 31 April
        "0 Apr 2001 12:00:00 +0000",
        "09 Apr 2001 12:00:00 +0000",
    ],
)
def test_edges(date: str) -> None:
    assert utc_date(date)[0] == _stdlib(date)


def test_the_common_form_needs_no_stdlib_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(date: str) -> None:
        raise AssertionError(date)

    monkeypatch.setattr(email.utils, "parsedate_to_datetime", refuse)
    assert utc_date("Thu, 13 Sep 2001 12:30:05 -0700 (PDT)") == ("2001-09-13T19:30:05Z", [])


ZONES = ("-0700", "+0100", "+0000", "-0100", "+1200")


def test_remembered_days_and_zones_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(headers, "_MAX_REMEMBERED", 3)
    monkeypatch.setattr(headers, "_DAYS", {})
    monkeypatch.setattr(headers, "_ZONES", {})
    monkeypatch.setattr(headers, "_MONTHS_SEEN", {})
    monkeypatch.setattr(headers, "_DAY_BEFORE", {})
    monkeypatch.setattr(headers, "_DAY_AFTER", {})
    dates = [
        f"{day} {month} {year} {clock} {zone}"
        for day in (1, 2, 28, 29, 30, 31)
        for month in ("Feb", "Sep", "Dec")
        for year in (2001, 2004)
        for clock in ("23:30:05", "00:10:00")
        for zone in ZONES
    ]
    first = [utc_date(date)[0] for date in dates]
    assert first == [utc_date(date)[0] for date in dates] == [_stdlib(date) for date in dates]
    for table in ("_DAYS", "_ZONES", "_MONTHS_SEEN", "_DAY_BEFORE", "_DAY_AFTER"):
        assert 0 < len(getattr(headers, table)) <= 3
