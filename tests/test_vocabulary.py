"""Issue 15: one vocabulary for the message context: Python fields, JSONL keys, CSV
columns, the JSON schema, the report's reader and the README use the same names."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
from pathlib import Path

from click.testing import CliRunner

from urlsift import MessageContext, Url
from urlsift._model import CONTEXT_KEYS, output_name
from urlsift.cli import main
from urlsift.engines.runner import UnitDefects, iter_results
from urlsift.output.formats import CSV_FIELDS, url_json
from urlsift.report.aggregate import facts_from_record, facts_from_url

ROOT = Path(__file__).resolve().parent.parent
MAIL = ROOT / "corpora" / "mail" / "list-headers.eml"
SCHEMA = json.loads((ROOT / "docs" / "scan-jsonl.schema.json").read_text(encoding="utf-8"))

CONTEXT = MessageContext(
    message=3,
    message_offset=120,
    message_id="<m@x>",
    date="Mon, 1 Jan 2001 00:00:00 +0000",
    from_="a@b.example",
    subject="s",
    part="2.1",
    content_type="text/html",
)


def test_the_keys_are_the_field_names() -> None:
    names = [f.name for f in dataclasses.fields(MessageContext)]
    assert names == [
        "message",
        "message_offset",
        "message_id",
        "date",
        "from_",
        "subject",
        "part",
        "content_type",
    ]
    assert tuple(output_name(n) for n in names) == CONTEXT_KEYS
    assert "from" in CONTEXT_KEYS
    assert CONTEXT.to_dict() == {output_name(n): getattr(CONTEXT, n) for n in names}


def test_the_old_names_still_read() -> None:
    assert CONTEXT.number == CONTEXT.message == 3
    assert CONTEXT.offset == CONTEXT.message_offset == 120
    assert CONTEXT.sender == CONTEXT.from_ == "a@b.example"


def _mail_urls() -> list[Url]:
    return [r for r in iter_results([str(MAIL)]) if isinstance(r, Url)]


def test_jsonl_and_csv_name_the_context_as_the_record_does() -> None:
    urls = _mail_urls()
    assert urls
    for url in urls:
        assert url.context is not None
        record = json.loads(url_json(url))
        for name, key in zip(
            (f.name for f in dataclasses.fields(MessageContext)), CONTEXT_KEYS, strict=True
        ):
            assert record[key] == getattr(url.context, name)
    assert CSV_FIELDS[-len(CONTEXT_KEYS) :] == CONTEXT_KEYS
    out = CliRunner().invoke(main, ["scan", "-q", "--format", "csv", str(MAIL)]).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(urls)
    for row, url in zip(rows, urls, strict=True):
        assert url.context is not None
        assert row["message"] == str(url.context.message)
        assert row["message_offset"] == str(url.context.message_offset)
        assert row["from"] == (url.context.from_ or "")


def test_the_schema_and_the_report_reader_use_the_same_keys() -> None:
    defs = SCHEMA["$defs"]
    assert set(CONTEXT_KEYS) <= set(defs["url"]["properties"])
    assert set(CONTEXT_KEYS) <= set(defs["defects"]["properties"])
    for url in _mail_urls():
        assert facts_from_record(json.loads(url_json(url))) == facts_from_url(url)
    record = UnitDefects("x.mbox", CONTEXT, ()).to_dict()
    assert set(CONTEXT_KEYS) <= set(record)


def test_the_readme_lists_the_context_keys() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("Every record then carries the message context") :]
    paragraph = paragraph[: paragraph.index("\n\n")]
    named = re.findall(r"`([a-z_]+)`", paragraph)
    assert [key for key in named if key in CONTEXT_KEYS][: len(CONTEXT_KEYS)] == list(CONTEXT_KEYS)
    assert "`from_`" in paragraph
