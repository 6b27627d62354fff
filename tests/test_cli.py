"""`urlsift scan` through click's CliRunner and as a real subprocess."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from urlsift.cli import main

from _fixtures import CORPORA

RFC1738 = CORPORA / "rfc" / "rfc1738.txt"
EXPECTED = [
    line.replace(" ", ": ", 1)
    for line in (CORPORA / "rfc" / "rfc1738.expected").read_text(encoding="utf-8").splitlines()
]
SAMPLE = "see <URL:http://a.example/x-\n  y> and http://b.example/, then http://b.example/\n"


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    path = tmp_path / "sample.txt"
    path.write_text(SAMPLE, encoding="utf-8")
    return path


def test_text_format_is_path_line_column_url() -> None:
    result = CliRunner().invoke(main, ["scan", str(RFC1738)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"{RFC1738}:{line}" for line in EXPECTED]


def test_jsonl_has_every_record_field(sample: Path) -> None:
    result = CliRunner().invoke(main, ["scan", "--format", "jsonl", str(sample)])
    assert result.exit_code == 0
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["url"] for r in records] == [
        "http://a.example/x-y",
        "http://b.example/",
        "http://b.example/",
    ]
    first = records[0]
    assert set(first) >= {
        "url",
        "alternatives",
        "raw",
        "kind",
        "scheme",
        "start",
        "end",
        "line",
        "column",
        "end_line",
        "source",
        "defects",
        "valid",
    }
    assert first["alternatives"] == ["http://a.example/xy"]
    assert first["raw"] == "<URL:http://a.example/x-\n  y>"
    assert first["kind"] == "wrapped"
    assert (first["line"], first["column"], first["end_line"]) == (1, 5, 2)
    assert first["source"] == str(sample)
    assert first["defects"][0]["code"] == "ambiguous-hyphen"
    assert first["valid"] is True


def test_csv_has_a_header_and_rows(sample: Path) -> None:
    result = CliRunner().invoke(main, ["scan", "--format", "csv", str(sample)])
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["url"] for r in rows][:1] == ["http://a.example/x-y"]
    assert rows[0]["alternatives"] == "http://a.example/xy"
    assert rows[0]["defects"] == "ambiguous-hyphen"


def test_unique_reports_first_occurrence_only(sample: Path) -> None:
    result = CliRunner().invoke(main, ["scan", "--unique", str(sample), str(sample)])
    assert result.stdout.splitlines() == [
        f"{sample}:1:5: http://a.example/x-y",
        f"{sample}:2:10: http://b.example/",
    ]


def test_scheme_option_replaces_the_bare_set(sample: Path) -> None:
    text = "ftp://a.example/ http://b.example/ gopher://c.example/ <http://d.example/>\n"
    sample.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["scan", "--scheme", "ftp,gopher", str(sample)])
    urls = [line.split(": ", 1)[1] for line in result.stdout.splitlines()]
    # Wrapped and angle forms do not depend on the bare set.
    assert urls == ["ftp://a.example/", "gopher://c.example/", "http://d.example/"]
    result = CliRunner().invoke(main, ["scan", "--scheme", "FTP", "--scheme", "http", str(sample)])
    assert len(result.stdout.splitlines()) == 3


def test_bad_scheme_option_is_a_usage_error(sample: Path) -> None:
    result = CliRunner().invoke(main, ["scan", "--scheme", "1bad", str(sample)])
    assert result.exit_code == 2
    assert "--scheme" in result.output


def test_unreadable_path_is_reported_and_others_still_scanned(sample: Path, tmp_path: Path) -> None:
    # (A folder of no archive layout is walked now: tests/test_archives_walk.py.)
    missing = tmp_path / "missing.txt"
    gone = tmp_path / "gone"
    result = CliRunner().invoke(main, ["scan", str(missing), str(gone), str(sample)])
    assert result.exit_code == 2
    assert f"cannot read {missing}" in result.stderr
    assert f"cannot read {gone}" in result.stderr
    assert len(result.stdout.splitlines()) == 3


def test_stdin_when_no_path_or_dash() -> None:
    for args in (["scan"], ["scan", "-"]):
        result = CliRunner().invoke(main, args, input=SAMPLE)
        assert result.exit_code == 0
        assert result.stdout.splitlines()[0] == "-:1:5: http://a.example/x-y"


def test_help_lists_the_options() -> None:
    result = CliRunner().invoke(main, ["scan", "--help"])
    for option in ("--format", "--unique", "--scheme", "--input-kind"):
        assert option in result.output


def _run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "urlsift", *args],
        input=stdin,
        capture_output=True,
        check=False,
        timeout=60,
    )


def test_subprocess_scans_the_rfc() -> None:
    done = _run("scan", str(RFC1738))
    assert done.returncode == 0
    assert done.stdout.decode().splitlines() == [f"{RFC1738}:{line}" for line in EXPECTED]


def test_subprocess_round_trips_invalid_utf8_and_nul() -> None:
    done = _run("scan", stdin=b"x http://a.example/\xff\xfe y\x00 http://b.example/\n")
    assert done.returncode == 0
    assert done.stdout == b"-:1:3: http://a.example/\xff\xfe\n-:1:26: http://b.example/\n"
    done = _run("scan", "--format", "jsonl", stdin=b"http://a.example/\xff\n")
    record = json.loads(done.stdout)
    assert record["url"] == "http://a.example/\udcff"
    assert record["valid"] is False


def test_subprocess_unreadable_path_exit_status(tmp_path: Path) -> None:
    done = _run("scan", str(tmp_path / "nope"), str(RFC1738))
    assert done.returncode == 2
    assert b"cannot read" in done.stderr
    assert len(done.stdout.splitlines()) == len(EXPECTED)


def test_subprocess_closed_pipe_is_quiet() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "urlsift", "scan", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    assert proc.stdin is not None
    proc.stdout.close()
    _, err = proc.communicate(b"http://a.example/ " * 200000, timeout=60)
    assert b"Traceback" not in err


def test_check_and_invalid_only_for_linting(tmp_path: Path) -> None:
    doc = tmp_path / "doc.txt"
    doc.write_text("ok http://a.example/ bad http://b.example:8x/ and ftp://c.example/\n")
    plain = CliRunner().invoke(main, ["scan", str(doc)])
    assert plain.exit_code == 0
    assert len(plain.stdout.splitlines()) == 3
    lint = CliRunner().invoke(main, ["scan", "--check", "--invalid-only", str(doc)])
    assert lint.exit_code == 1
    assert lint.stdout.splitlines() == [
        f"{doc}:1:26: http://b.example:8x/  [bad-port: port = digits: 'x' is not a digit]"
    ]
    clean = tmp_path / "clean.txt"
    clean.write_text("http://a.example/\n")
    assert CliRunner().invoke(main, ["scan", "--check", str(clean)]).exit_code == 0
    missing = str(tmp_path / "missing")
    assert CliRunner().invoke(main, ["scan", "--check", str(doc), missing]).exit_code == 2
