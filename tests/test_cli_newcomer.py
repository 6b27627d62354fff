"""What a new user meets first on the command line (issue 25, items 3, 4, 5 and 8).

stderr ends with a summary that counts URLs by outcome and source defects by code (one line
each, as ruff and pytest end a run), with ``-q``/``-qq``/``-v`` levels; stdout is the same at
every level. A binary file named on the command line is skipped with a note, as in a folder
walk. ``--count`` followed by a misspelt mode is a usage error, not a path. A truncated
compressed archive, which makes the exit status 2, is labelled an error.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from urlsift.cli import main

ROOT = Path(__file__).resolve().parent.parent
RFC = ROOT / "corpora" / "rfc" / "rfc1738.txt"
MBOX = ROOT / "corpora" / "mail" / "two-messages.mbox"


def _scan(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["scan", *args])
    return result.exit_code, result.stdout, result.stderr


def test_plain_text_scan_ends_with_url_counts() -> None:
    code, out, err = _scan(str(RFC))
    assert code == 0
    assert len(out.splitlines()) == 30
    assert err.splitlines() == ["urlsift: 30 URLs (0 invalid) from 1 file"]


def test_invalid_urls_are_counted(tmp_path: Path) -> None:
    text = tmp_path / "t.txt"
    text.write_text(
        "see http://a.example/ and <URL:http://bad_host.example/> and ftp://b.example/\n"
    )
    code, _, err = _scan(str(text))
    assert code == 0
    assert err.splitlines() == ["urlsift: 3 URLs (1 invalid) from 1 file"]


def test_defects_are_grouped_by_code_and_listed_on_demand() -> None:
    _, out, err = _scan(str(MBOX))
    assert err.splitlines() == [
        "urlsift: 2 URLs (0 invalid) from 1 file; 2 messages, 2 parts, 1 with defects",
        "urlsift: 1 defect: mbox-from-in-body 1; --show-defects to list",
    ]
    for flag in ("-v", "--show-defects"):
        _, listed_out, listed = _scan(flag, str(MBOX))
        assert listed_out == out  # stdout never changes with the stderr level
        lines = listed.splitlines()
        assert lines[0].startswith(f"{MBOX}#1/1: warning: mbox-from-in-body: ")
        assert lines[1:] == err.splitlines()


def test_quiet_levels() -> None:
    _, out, err = _scan(str(MBOX))
    _, quiet_out, quiet = _scan("-q", str(MBOX))
    _, silent_out, silent = _scan("-qq", str(MBOX))
    assert out == quiet_out == silent_out
    assert quiet.splitlines() == err.splitlines()[:1]  # the summary line, no defect counts
    assert silent == ""


def test_jsonl_defect_records_stay_on_stdout() -> None:
    _, out, err = _scan("--format", "jsonl", str(MBOX))
    records = [json.loads(line) for line in out.splitlines()]
    assert [r.get("record") for r in records if "url" not in r] == ["defects"]
    assert "mbox-from-in-body 1" in err


def test_truncated_archive_is_an_error(tmp_path: Path) -> None:
    packed = gzip.compress(MBOX.read_bytes())
    path = tmp_path / "cut.mbox.gz"
    path.write_bytes(packed[: len(packed) - 12])
    code, _, err = _scan("-v", str(path))
    assert code == 2
    assert ": error: stream-read-error: " in err
    assert ": warning: stream-read-error" not in err


BINARY = b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 40 + b"file://%s%s%s http://in.binary.example/\n"


def test_a_binary_file_named_is_skipped_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "tool"
    path.write_bytes(BINARY)
    code, out, err = _scan(str(path), str(RFC))
    assert code == 0
    assert len(out.splitlines()) == 30  # only the RFC's URLs
    assert err.splitlines() == [
        f"urlsift: {path}: binary file skipped (--input-kind text reads it)",
        "urlsift: 30 URLs (0 invalid) from 1 file; 1 binary file skipped",
    ]
    # In a folder walk the same file is skipped the same way.
    _, walked_out, walked = _scan(str(tmp_path))
    assert walked_out == ""
    assert walked.splitlines() == [
        "urlsift: 0 URLs (0 invalid) from 0 files; 1 binary file skipped"
    ]
    # An explicit kind reads it.
    _, forced, _ = _scan("--input-kind", "text", str(path))
    assert "http://in.binary.example/" in forced


def test_count_with_a_misspelt_mode_is_a_usage_error() -> None:
    code, out, err = _scan("--count", "hosts", str(RFC))
    assert code == 2
    assert out == ""
    assert "Did you mean 'host'?" in err
    code, _, err = _scan("--count", "URL", str(RFC))
    assert code == 2
    assert "Did you mean 'url'?" in err


def test_count_alone_before_a_path_still_counts_urls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = _scan("--count", str(RFC))
    assert code == 0
    assert out.splitlines()
    # A file that happens to be called like a misspelt mode is a path.
    monkeypatch.chdir(tmp_path)
    Path("hosts").write_text("http://a.example/ http://a.example/\n")
    code, out, _ = _scan("--count", "hosts")
    assert code == 0
    assert [line.split() for line in out.splitlines()] == [["2", "http://a.example/"]]
