"""The message date as an instant (issue 25, item 6): ``date_utc`` beside ``date``.

RFC 5322 dates with the obsolete forms (two-digit years, zone names, no day of week) are
read as :func:`email.utils.parsedate_to_datetime` reads them and given in UTC; a date that
does not parse gives null and an ``unparseable-date`` defect; no ``Date`` gives null and no
defect. JSON Lines records validate against the schema with the new key.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from urlsift import Url
from urlsift.cli import main
from urlsift.engines.runner import iter_results
from urlsift.sources.headers import utc_date

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("written", "instant"),
    [
        ("Thu, 13 Sep 2001 12:30:05 +0000", "2001-09-13T12:30:05Z"),
        ("Mon, 3 Mar 1997 16:50:51 -0800 (PST)", "1997-03-04T00:50:51Z"),
        ("Wed, 10 Sep 97 23:40 EDT", "1997-09-11T03:40:00Z"),  # two-digit year, zone name
        ("10 Sep 97 23:40:00 GMT", "1997-09-10T23:40:00Z"),  # no day of week
        ("Fri, 1 Jan 21 00:00:00 +0100", "2020-12-31T23:00:00Z"),  # 00-49 are 20xx
        ("Thu, 13 Sep 2001 12:30:05 -0000", "2001-09-13T12:30:05Z"),  # no zone: UTC
        ("Thu, 13 Sep 2001 12:30:05", "2001-09-13T12:30:05Z"),
    ],
)
def test_rfc5322_dates_and_their_obsolete_forms(written: str, instant: str) -> None:
    assert utc_date(written) == (instant, [])


@pytest.mark.parametrize("written", ["yesterday", "", "Thu, 31 Feb 2001 12:00:00 +0000", "13"])
def test_unparseable_dates_are_null_with_a_defect(written: str) -> None:
    instant, defects = utc_date(written)
    assert instant is None
    assert [d.code for d in defects] == ["unparseable-date"]
    assert defects[0].severity == "warning"


def test_no_date_is_null_without_a_defect() -> None:
    assert utc_date(None) == (None, [])


def _mbox(tmp_path: Path) -> Path:
    path = tmp_path / "dates.mbox"
    path.write_bytes(
        b"From a@b Wed Sep 10 23:40:00 1997\nFrom: a@b\nDate: Wed, 10 Sep 97 23:40 GMT\n\n"
        b"http://one.example/\n\n"
        b"From a@b Wed Sep 10 23:40:00 1997\nFrom: a@b\nDate: some day\n\n"
        b"http://two.example/\n\n"
        b"From a@b Wed Sep 10 23:40:00 1997\nFrom: a@b\n\nhttp://three.example/\n"
    )
    return path


def test_records_carry_date_utc_and_the_defect(tmp_path: Path) -> None:
    path = _mbox(tmp_path)
    urls = [r for r in iter_results([str(path)]) if isinstance(r, Url)]
    assert [(u.context.date, u.context.date_utc) for u in urls if u.context] == [
        ("Wed, 10 Sep 97 23:40 GMT", "1997-09-10T23:40:00Z"),
        ("some day", None),
        (None, None),
    ]
    result = CliRunner().invoke(main, ["scan", "--format", "jsonl", str(path)])
    records = [json.loads(line) for line in result.stdout.splitlines()]
    defects = [r for r in records if r.get("record") == "defects"]
    assert [(r["message"], [d["code"] for d in r["defects"]]) for r in defects] == [
        (2, ["unparseable-date"])
    ]
    assert [r["date_utc"] for r in records if "url" in r] == ["1997-09-10T23:40:00Z", None, None]
    assert "unparseable-date 1" in result.stderr


def test_jsonl_with_date_utc_validates_against_the_schema(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "scan-jsonl.schema.json").read_text(encoding="utf-8"))
    result = CliRunner().invoke(main, ["scan", "--format", "jsonl", str(_mbox(tmp_path))])
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    for line in result.stdout.splitlines():
        validator.validate(json.loads(line))
    props = schema["$defs"]["url"]["properties"]["date_utc"]
    assert props["format"] == "date-time"
