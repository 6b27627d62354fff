"""Tests for the Parquet output (urlsift.output.parquet, ``--format parquet --output DIR``).

They need the ``dask`` extra (pyarrow; duckdb for the README's query) and skip without it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from urlsift import Url
from urlsift.cli import main

pa = pytest.importorskip("pyarrow", reason="Parquet output needs the dask extra (pyarrow)")
pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs the dask extra")

from urlsift.engines.runner import ScanConfig, UnitDefects, iter_results  # noqa: E402
from urlsift.output.parquet import ParquetWriter, records_table, schema  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _mail_inputs(tmp_path: Path) -> list[str]:
    archive = tmp_path / "list.mbox"
    archive.write_bytes(
        b"From a@b Thu Sep 13 12:30:05 2001\nFrom: a@b\nDate: Thu, 13 Sep 2001 12:30:05\n"
        b"Subject: one\nContent-Type: text/plain; charset=nonsense\n\n"
        b"see <URL:http://one.example/a-\nb> and http://two.example/%zz\n\n"
        b"From c@d Fri Sep 14 12:30:05 2002\nFrom: c@d\nDate: 14 Sep 2002\n\n"
        b"ftp://three.example/file\n"
    )
    text = tmp_path / "notes.txt"
    text.write_text("plain http://four.example/#frag\n", encoding="utf-8")
    return [str(archive), str(text)]


def _jsonl(paths: list[str]) -> list[dict[str, object]]:
    result = CliRunner().invoke(main, ["scan", "-q", "--format", "jsonl", *paths])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.output.splitlines()]


def _rows_as_jsonl(table: pa.Table) -> list[dict[str, object]]:
    # Each row in the shape of its JSON Lines record (absent keys instead of nulls).
    out = []
    for row in table.to_pylist():
        record = row.pop("record")
        for defect in row["defects"]:
            if defect["offset"] is None:
                del defect["offset"]
        if record == "defects":
            shaped = {"record": "defects", "source": row["source"]}
            shaped.update(_context(row))
            shaped["defects"] = row["defects"]
        else:
            shaped = {k: v for k, v in row.items() if v is not None and k not in CONTEXT}
            if shaped.get("parts") is not None:
                shaped["parts"] = dict(shaped["parts"])
            shaped.update(_context(row))
        out.append(shaped)
    return out


def _context(row: dict[str, object]) -> dict[str, object]:
    # JSON Lines has every context key (nulls included) for mail, none for plain text.
    return {k: row[k] for k in CONTEXT} if row["message"] is not None else {}


CONTEXT = ("message", "message_offset", "message_id", "date", "from", "subject", "part")
CONTEXT += ("content_type",)


def test_cli_parquet_holds_the_jsonl_records(tmp_path: Path) -> None:
    paths = _mail_inputs(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["scan", "-q", "--format", "parquet", "--output", str(out), *paths]
    )
    assert result.exit_code == 0, result.output
    assert result.output == ""
    files = sorted(out.glob("*.parquet"))
    assert [f.name for f in files] == ["part-00000.parquet"]
    table = pq.read_table(files[0])
    assert table.schema.equals(schema())
    expected = _jsonl(paths)
    assert any(r.get("record") == "defects" for r in expected)
    assert any(r.get("alternatives") for r in expected)
    assert _rows_as_jsonl(table) == expected


def test_the_writer_rotates_files_and_always_writes_one(tmp_path: Path) -> None:
    records = list(iter_results(_mail_inputs(tmp_path), ScanConfig()))
    writer = ParquetWriter(str(tmp_path / "rotated"), rows_per_file=2)
    for record in records:
        if isinstance(record, Url):
            writer.write(record)
        else:
            assert isinstance(record, UnitDefects)
            writer.write_defects(record)
    writer.close()
    assert len(writer.files) == (len(records) + 1) // 2
    back = pa.concat_tables([pq.read_table(f) for f in writer.files])
    assert back.equals(records_table(records))
    empty = ParquetWriter(str(tmp_path / "empty"))
    empty.close()
    assert pq.read_table(empty.files[0]).num_rows == 0
    with pytest.raises(ValueError, match="rows_per_file"):
        ParquetWriter(str(tmp_path / "x"), rows_per_file=0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "parquet"], "needs --output"),
        (["--output", "x"], "--output is for --format parquet"),
        (["--format", "parquet", "--output", "x", "--count"], "no Parquet form"),
    ],
)
def test_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    notes = tmp_path / "n.txt"
    notes.write_text("http://x.example/\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["scan", *args, str(notes)])
    assert result.exit_code == 2
    assert message in result.output


def test_the_schema_is_documented() -> None:
    doc = (ROOT / "docs" / "parquet.md").read_text(encoding="utf-8")
    documented = re.findall(r"^\| `([a-z_]+)` \| ([^|]+) \|", doc, re.MULTILINE)
    actual = [(f.name, str(f.type)) for f in schema()]
    assert [name for name, _ in documented] == sorted(
        (name for name, _ in actual), key=[n for n, _ in documented].index
    )
    assert {name for name, _ in documented} == {name for name, _ in actual}
    types = dict(documented)
    for name, arrow_type in actual:
        simple = arrow_type.replace("<item: ", "<").replace("large_", "")
        assert re.sub(r"\s+", "", types[name]) == re.sub(r"\s+|element:|item:", "", simple), name


def test_the_readme_duckdb_query_runs(tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb", reason="the README query needs duckdb (dask extra)")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    query = re.search(r'duckdb -c "(.*?)"\n```', readme, re.DOTALL)
    assert query is not None
    out = tmp_path / "out"
    archive = _mail_inputs(tmp_path)[0]
    command = ["scan", "-q", "--format", "parquet", "-o", str(out), archive]
    subprocess.run([sys.executable, "-m", "urlsift", *command], check=True)
    sql = query.group(1).replace("out/*.parquet", str(out / "*.parquet"))
    rows = duckdb.sql(sql).fetchall()
    assert rows
    years = [year for year, _, _ in rows]
    assert years == sorted(years)
    assert all(count > 0 for _, _, count in rows)


# --- issue 24 items 4, 8 and 10: a run owns its folder; full disks; memory by bytes ----


def _scan_parquet(out: Path, *paths: str, overwrite: bool = False) -> Any:
    args = ["scan", "-q", "--format", "parquet", "-o", str(out), *paths]
    return CliRunner().invoke(main, [*args, "--overwrite"] if overwrite else args)


def _folder_rows(out: Path) -> list[str]:
    # What read_parquet('out/*.parquet') reads: every *.parquet file, in name order.
    files = sorted(out.glob("*.parquet"))
    return [url for f in files for url in pq.read_table(f).column("url").to_pylist() if url]


def test_a_second_run_into_the_same_folder_is_refused(tmp_path: Path) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text("http://first.example/\n")
    second.write_text("http://second.example/\n")
    out = tmp_path / "out"
    assert _scan_parquet(out, str(first)).exit_code == 0
    refused = _scan_parquet(out, str(second))
    assert refused.exit_code == 2
    assert "not empty" in refused.output
    assert "--overwrite" in refused.output
    assert _folder_rows(out) == ["http://first.example/"]  # untouched
    replaced = _scan_parquet(out, str(second), overwrite=True)
    assert replaced.exit_code == 0, replaced.output
    assert _folder_rows(out) == ["http://second.example/"]
    assert sorted(p.name for p in out.iterdir()) == ["_SUCCESS", "part-00000.parquet"]
    marker = json.loads((out / "_SUCCESS").read_text())
    assert marker == {"writer": "urlsift", "files": ["part-00000.parquet"], "rows": 1}


@pytest.mark.parametrize("foreign", ["notes.txt", "part-00007.parquet", "_SUCCESS", "sub/"])
def test_overwrite_never_removes_a_file_urlsift_did_not_write(tmp_path: Path, foreign: str) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("http://a.example/\n")
    out = tmp_path / "out"
    assert _scan_parquet(out, str(doc)).exit_code == 0
    target = out / foreign.rstrip("/")
    if foreign.endswith("/"):
        target.mkdir()
    elif foreign.endswith(".parquet"):  # a Parquet file of another tool, named as ours
        pq.write_table(pa.table({"url": ["http://other.example/"]}), target)
    else:
        target.write_text('{"writer": "someone else"}\n')
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    refused = _scan_parquet(out, str(doc), overwrite=True)
    assert refused.exit_code == 2
    assert "urlsift did not write" in refused.output
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == before


def test_a_killed_run_leaves_no_parquet_file_and_no_marker(tmp_path: Path) -> None:
    records = list(iter_results(_mail_inputs(tmp_path), ScanConfig()))
    out = tmp_path / "out"
    writer = ParquetWriter(str(out), rows_per_file=2)
    for record in records:
        assert isinstance(record, Url | UnitDefects)
        writer.write(record) if isinstance(record, Url) else writer.write_defects(record)
    # ... and the process dies before close(): nothing looks complete.
    assert list(out.glob("*.parquet")) == []
    assert not (out / "_SUCCESS").exists()
    assert sorted(p.name for p in out.iterdir())[0] == "part-00000.parquet.urlsift-partial"
    # Its parts are urlsift's: --overwrite may replace them.
    again = ParquetWriter(str(out), overwrite=True)
    again.close()
    assert sorted(p.name for p in out.iterdir()) == ["_SUCCESS", "part-00000.parquet"]


def test_a_full_disk_under_parquet_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pq.ParquetWriter, "write_table", full)
    doc = tmp_path / "a.txt"
    doc.write_text("http://a.example/\n")
    result = _scan_parquet(tmp_path / "out", str(doc))
    assert result.exit_code == 2
    assert "No space left on device" in result.output
    assert not (tmp_path / "out" / "_SUCCESS").exists()


def test_the_writer_holds_bytes_not_rows(tmp_path: Path) -> None:
    # 4,000 URLs of about 3,000 characters: the writer used to hold up to a million rows,
    # here every record (about 40 MB of Python strings) until close().
    import dataclasses
    import tracemalloc

    from urlsift import extract

    (template,) = extract("<URL:http://h.example/>")

    def records() -> Iterator[Url]:
        path = "x" * 3000
        for n in range(4_000):
            url = f"http://h{n}.example/{path}"
            yield dataclasses.replace(template, url=url, normalized=url + "/", raw=f"<{url}>")

    warm = ParquetWriter(str(tmp_path / "warm"))  # imports (pyarrow loads pandas) first
    warm.write(template)
    warm.close()
    writer = ParquetWriter(str(tmp_path / "out"))
    tracemalloc.start()
    try:
        for url in records():
            writer.write(url)
        writer.close()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert pq.read_metadata(writer.files[0]).num_rows == 4_000
    assert pq.read_metadata(writer.files[0]).num_row_groups > 1
    assert peak < 16 << 20, f"{peak / 2**20:.0f} MiB held"  # (main: 46 MiB)
