"""docs/scan-jsonl.schema.json describes every line ``urlsift scan --format jsonl`` writes."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from urlsift import MessageContext, Url
from urlsift.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "scan-jsonl.schema.json").read_text(encoding="utf-8"))
INPUTS = [*sorted((ROOT / "corpora" / "mail").glob("*")), ROOT / "corpora" / "rfc" / "rfc1738.txt"]


def _validator() -> Any:
    cls = jsonschema.validators.validator_for(SCHEMA)
    cls.check_schema(SCHEMA)
    return cls(SCHEMA)


def _lines(*args: str) -> list[dict[str, object]]:
    paths = [str(p) for p in INPUTS if p.suffix not in (".md",)]
    result = CliRunner().invoke(main, ["scan", "-q", "--format", "jsonl", *args, *paths])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_schema_lists_the_record_fields() -> None:
    url_fields = {f.name for f in dataclasses.fields(Url)} - {"context"}
    context = set(MessageContext(1, 0).to_dict())
    assert set(SCHEMA["$defs"]["url"]["properties"]) == url_fields | context


@pytest.mark.parametrize("options", [(), ("--headers", "--include-attachments"), ("--count",)])
def test_every_line_is_valid(options: tuple[str, ...]) -> None:
    validator = _validator()
    lines = _lines(*options)
    assert len(lines) > 50
    for line in lines:
        validator.validate(line)
    kinds = {"count" if "count" in line else line.get("record", "url") for line in lines}
    assert kinds == ({"count"} if options == ("--count",) else {"url", "defects"})


def test_the_schema_is_not_vacuous() -> None:
    validator = _validator()
    url, *_ = _lines()
    del url["normalized"]
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(url)
    (count, *_) = _lines("--count")
    count["variants"] = "not a list"
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(count)
