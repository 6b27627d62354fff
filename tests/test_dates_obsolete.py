"""Dates of other shapes are read as ``email.utils.parsedate_to_datetime`` reads them.

``utc_date`` leaves the dates that are not in the common shape (two- and three-digit
years, zone names, no zone, odd separators...) to ``email._parseaddr._parsedate_tz``,
building the datetime as ``parsedate_to_datetime`` does, so that a mail scan does not
import ``email.utils`` (and ``socket``, ``urllib.parse``, ``random``...) for them (issue
26). These tests hold the result, instant or exception, to the running stdlib's public
function, on a table of obsolete and odd forms and on generated date-like strings.
"""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift.sources import headers
from urlsift.sources.headers import utc_date

_ERRORS = (ValueError, TypeError, OverflowError, IndexError)


def _outcome(read: object, date: str) -> tuple[str, object]:
    # ("ok", (datetime, its offset)) or ("error", exception type) for one reading.
    try:
        when = read(date)  # type: ignore[operator]
    except _ERRORS as error:
        return "error", type(error)
    assert isinstance(when, datetime)
    return "ok", (when, when.utcoffset(), when.tzinfo is None)


def _stdlib_instant(date: str) -> str | None:
    try:
        when = parsedate_to_datetime(date)
        if when.tzinfo is not None:
            when = when.astimezone(timezone.utc).replace(tzinfo=None)
    except _ERRORS:
        return None
    return when.isoformat(timespec="seconds") + "Z"


OBSOLETE = [
    "Wed, 10 Sep 97 23:40 EDT",  # two-digit year, zone name, no seconds
    "Wed, 10 Sep 49 23:40 EDT",
    "Wed, 10 Sep 50 23:40 EDT",
    "10 Sep 097 23:40:00 GMT",  # three-digit year
    "10 Sep 999 23:40:00 GMT",
    "Tue, 11 Nov 03 10:20:30 EST",
    "Tue, 11 Nov 2003 10:20:30 PDT",
    "Tue, 11 Nov 2003 10:20:30 UT",
    "Tue, 11 Nov 2003 10:20:30 GMT",
    "Tue, 11 Nov 2003 10:20:30 Z",
    "Tue, 11 Nov 2003 10:20:30 z (GMT)",
    "Tue, 11 Nov 2003 10:20:30 BST",
    "Tue, 11 Nov 2003 10:20:30 XYZ",  # an unknown zone name
    "Mon, 7 Jul 2003 10:20:30",  # no zone
    "Mon, 7 Jul 2003 10:20:30 -0000",
    "Mon, 7 Jul 2003 10:20:30 +0000",
    "Mon, 7 Jul 2003 10:20:30 -07",  # a two-digit zone
    "Mon, 7 jul 2003 10:20:30 +0100",  # lower-case month
    "Mon, 7 JULY 2003 10:20:30 +0100",
    "7 Jul 2003 10:20:30 +0100",  # no weekday
    "Monday, 7 Jul 2003 10:20:30 +0100",
    "Jul 7 2003 10:20:30 +0100",  # month first
    "Mon Jul  7 10:20:30 2003",  # ctime
    "Mon, 7-Jul-2003 10:20:30 +0100",  # dashes
    "Mon, 7 Jul 2003 10.20.30 +0100",  # dotted clock
    "Mon, 7 Jul 2003 10:20:30.25 +0100",
    "Mon,  7 Jul 2003 9:2:3 +0100",  # one-digit fields
    "Mon, 7 Jul 2003 10:20:30 +0100 (CET)",
    "Mon,7 Jul 2003 10:20:30 +0100",
    "7 Jul 2003 10:20 +0100 extra words here",
    "Mon, 7 Jul 2003 24:00:00 +0000",
    "Mon, 31 Feb 2003 10:20:30 +0000",
    "Mon, 7 Jul 2003 10:20:30 +2400",  # a zone of a day
    "Mon, 7 Jul 99999999999999999999 10:20:30 +0000",  # huge numbers
    "Mon, 99999999999999999999 Jul 2003 10:20:30 +0000",
    "Mon, 7 Jul 2003 99999999999999999999:20:30 +0000",
    "Mon, 7 Jul 2003 10:20:30 +99999999999999999999",
    "Mon, 7 Jul 0 10:20:30 +0000",
    "1 Jan 1 00:00:00 +0100",  # before the first datetime in UTC
    "31 Dec 9999 23:59:59 -0100",  # after the last
    "",
    " ",
    "garbage",
    "13",
    "Mon, 7 Jul",
    "7 Jul 2003",
    "7 Jul 2003 10",
    "Mon, 7 Jul 2003 10:20:30 +01:00",
    "\x00 7 Jul 2003 10:20:30",
    "Mon, 7 Jul 2003 ten:20:30 +0100",
]


@pytest.mark.parametrize("date", OBSOLETE)
def test_obsolete_forms_read_as_the_stdlib_reads_them(date: str) -> None:
    assert _outcome(headers._parsedate_to_datetime, date) == _outcome(parsedate_to_datetime, date)
    instant, defects = utc_date(date)
    assert instant == _stdlib_instant(date)
    assert [d.code for d in defects] == ([] if instant is not None else ["unparseable-date"])


_WORDS = ["Mon,", "Jul", "jul", "JUNE", "EST", "PDT", "UT", "GMT", "Z", "BST", "+0100", "-0000"]
DATE_LIKE = st.lists(
    st.one_of(
        st.sampled_from(_WORDS),
        st.integers(-10, 100000).map(str),
        st.from_regex(r"[0-9]{1,3}[:.][0-9]{1,3}([:.][0-9]{1,3})?", fullmatch=True),
        st.from_regex(r"[+-][0-9]{1,5}", fullmatch=True),
        st.text(alphabet=" ,:-.()+0123456789JanSepTue", max_size=6),
    ),
    max_size=8,
).flatmap(lambda parts: st.sampled_from([" ", ",", ", ", "  "]).map(lambda sep: sep.join(parts)))


@settings(max_examples=600, deadline=None)
@given(DATE_LIKE)
def test_date_like_strings_read_as_the_stdlib_reads_them(date: str) -> None:
    assert _outcome(headers._parsedate_to_datetime, date) == _outcome(parsedate_to_datetime, date)
    assert utc_date(date)[0] == _stdlib_instant(date)


def test_without_the_private_parser_the_public_function_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "email._parseaddr", None)  # its import now fails
    assert utc_date("Wed, 10 Sep 97 23:40 EDT") == ("1997-09-11T03:40:00Z", [])
    assert utc_date("garbage")[0] is None


def test_an_obsolete_date_does_not_import_email_utils() -> None:
    code = (
        "import sys\n"
        "from urlsift.sources.headers import utc_date\n"
        "assert utc_date('Wed, 10 Sep 97 23:40 EDT')[0] == '1997-09-11T03:40:00Z'\n"
        "assert utc_date('yesterday')[0] is None\n"
        "print('email.utils' in sys.modules, 'socket' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "False"]
