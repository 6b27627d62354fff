"""`urlsift scan` on mail and news: input kinds, context, defects, --count, progress."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from urlsift.cli import main
from urlsift.cli.scan import _Progress, _total_size
from urlsift.sources.archive import ArchiveStats

from _fixtures import CORPORA

MAIL = CORPORA / "mail"
MBOX = MAIL / "two-messages.mbox"


def _jsonl(args: list[str]) -> list[dict[str, object]]:
    result = CliRunner().invoke(main, ["scan", "--format", "jsonl", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_mbox_records_carry_message_context() -> None:
    everything = _jsonl([str(MBOX)])
    assert everything[0]["record"] == "defects"  # a From_-like line inside the first body
    assert everything[0]["defects"][0]["code"] == "mbox-from-in-body"  # type: ignore[index]
    records = [r for r in everything if "url" in r]
    assert [r["url"] for r in records] == ["http://one.example.com/", "http://two.example.com/path"]
    first, second = records
    assert first["message"] == 1
    assert first["message_id"] == "<one@example.com>"
    assert first["date"] == "Thu, 13 Sep 2001 12:30:05 +0000"
    assert first["from"] == "Alice <alice@example.com>"
    assert first["subject"] == "first"
    assert first["part"] == "1"
    assert first["content_type"] == "text/plain"
    assert second["message"] == 2
    assert second["kind"] == "wrapped"
    data = MBOX.read_bytes()
    for record in records:
        assert data[int(str(record["message_offset"])) :].startswith(b"From ")


def test_text_format_names_message_and_part() -> None:
    result = CliRunner().invoke(main, ["scan", str(MBOX)])
    assert result.stdout.splitlines() == [
        f"{MBOX}#1/1:1:17: http://one.example.com/",
        f"{MBOX}#2/1:1:18: http://two.example.com/path",
    ]
    assert result.stderr.splitlines() == [
        "urlsift: 2 URLs (0 invalid) from 1 file; 2 messages, 2 parts, 1 with defects",
        "urlsift: 1 defect: mbox-from-in-body 1; --show-defects to list",
    ]
    listed = CliRunner().invoke(main, ["scan", "--show-defects", str(MBOX)])
    assert f"{MBOX}#1/1: warning: mbox-from-in-body: " in listed.stderr


def test_input_kind_override_reads_mbox_as_text() -> None:
    result = CliRunner().invoke(main, ["scan", "-qq", "--input-kind", "text", str(MBOX)])
    assert result.stdout.splitlines()[0] == f"{MBOX}:7:17: http://one.example.com/"
    assert result.stderr == ""


def test_gzip_archive_via_cli(tmp_path: Path) -> None:
    packed = tmp_path / "archive.mbox.gz"
    packed.write_bytes(gzip.compress(MBOX.read_bytes()))
    assert [r["url"] for r in _jsonl([str(packed)]) if "url" in r] == [
        "http://one.example.com/",
        "http://two.example.com/path",
    ]


def test_qp_soft_breaks_do_not_break_urls() -> None:
    urls = [r["url"] for r in _jsonl([str(MAIL / "qp-soft-break.eml")])]
    assert "http://www.example.org/very/long/path/to/some/document.html" in urls


def test_hostile_message_gives_urls_and_one_defect_record() -> None:
    # A NUL byte in its headers: named with --input-kind auto it would be skipped as binary.
    records = _jsonl(["--input-kind", "mail", str(MAIL / "hostile-headers.eml")])
    defects = [r for r in records if r.get("record") == "defects"]
    urls = [r["url"] for r in records if "url" in r]
    assert len(defects) == 1
    assert defects[0]["message_id"] == "<<<<>>>>"
    codes = {d["code"] for d in defects[0]["defects"]}  # type: ignore[union-attr]
    assert "mime-defect" in codes
    assert urls == ["http://noboundary.example.com/", "http://after-nul.example.com/"]
    assert all("defects" in r for r in records)


def test_defects_go_to_stderr_in_text_format_unless_quiet() -> None:
    path = str(MAIL / "hostile-headers.eml")
    loud = CliRunner().invoke(main, ["scan", "-v", "--input-kind", "mail", path])
    assert ": warning: mime-defect: " in loud.stderr
    assert "1 with defects" in loud.stderr
    quiet = CliRunner().invoke(main, ["scan", "-qq", "--input-kind", "mail", path])
    assert quiet.stderr == ""
    assert quiet.stdout == loud.stdout


def test_headers_option_scans_list_headers() -> None:
    path = str(MAIL / "list-headers.eml")
    plain = [r["url"] for r in _jsonl([path])]
    with_headers = _jsonl(["--headers", path])
    assert plain == ["http://body.example.com/"]
    header_urls = [r["url"] for r in with_headers if r["content_type"] == "header"]
    assert "http://archive.example.com/msg/1" in header_urls
    assert "http://not-scanned.example.com/" not in header_urls


def test_attachments_are_skipped_unless_asked() -> None:
    path = str(MAIL / "nested-rfc822.eml")
    without = CliRunner().invoke(main, ["scan", path])
    with_all = CliRunner().invoke(main, ["scan", "--include-attachments", path])
    assert "part skipped" in without.stderr
    assert len(with_all.stdout.splitlines()) >= len(without.stdout.splitlines())


def test_count_reports_occurrences_and_date_range(tmp_path: Path) -> None:
    archive = tmp_path / "list.mbox"
    messages = []
    for day, url in [(3, "http://a.example/"), (1, "http://a.example/"), (2, "http://b.example/")]:
        messages.append(
            f"From x@example.com Mon Jan  {day} 00:00:00 2001\n"
            f"From: x@example.com\nDate: Mon, {day} Jan 2001 00:00:00 +0000\n\n"
            f"see {url}\n\n"
        )
    archive.write_text("".join(messages), encoding="utf-8")
    rows = _jsonl(["--count", str(archive)])
    assert rows == [
        {
            "url": "http://a.example/",
            "count": 2,
            "first_date": "Mon, 1 Jan 2001 00:00:00 +0000",
            "last_date": "Mon, 3 Jan 2001 00:00:00 +0000",
            "normalized": "http://a.example/",
            "variants": [],
        },
        {
            "url": "http://b.example/",
            "count": 1,
            "first_date": "Mon, 2 Jan 2001 00:00:00 +0000",
            "last_date": "Mon, 2 Jan 2001 00:00:00 +0000",
            "normalized": "http://b.example/",
            "variants": [],
        },
    ]
    text = CliRunner().invoke(main, ["scan", "--count", str(archive)]).stdout.splitlines()
    assert text[0].split()[:2] == ["2", "http://a.example/"]
    csv_out = CliRunner().invoke(main, ["scan", "--count", "--format", "csv", str(archive)])
    assert csv_out.stdout.splitlines()[0] == "url,count,first_date,last_date,normalized,variants"


def test_maildir_folder(tmp_path: Path) -> None:
    folder = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (folder / sub).mkdir(parents=True)
    shutil.copy(MAIL / "qp-soft-break.eml", folder / "cur" / "1.host:2,S")
    shutil.copy(MAIL / "base64-text.eml", folder / "new" / "2.host")
    urls = [r["url"] for r in _jsonl([str(folder)])]
    assert "http://base64.example.com/path?x=1" in urls
    assert "ftp://ftp.example.org/pub/rfc/rfc1738.txt" in urls


def test_news_article() -> None:
    records = _jsonl([str(MAIL / "news-article.txt")])
    assert records
    assert all(r["message"] == 1 for r in records)


def test_progress_display_draws_and_clears() -> None:
    stream = io.StringIO()
    stats = ArchiveStats()
    stats.messages = 12
    stats.stored_bytes_read = 50
    progress = _Progress(stats, stream, enabled=True, total=200)
    progress.tick(True)
    progress.close()
    drawn = stream.getvalue()
    assert "[#####---------------]  25% " in drawn
    assert "12 messages, 1 URLs" in drawn
    assert drawn.endswith("\r")
    unknown = io.StringIO()
    _Progress(stats, unknown, enabled=True).tick(False)
    assert "[" not in unknown.getvalue()
    silent = io.StringIO()
    _Progress(stats, silent, enabled=False).tick(True)
    assert silent.getvalue() == ""


def test_total_size_only_for_regular_files(tmp_path: Path) -> None:
    assert _total_size((str(MBOX),)) == MBOX.stat().st_size
    assert _total_size((str(MBOX), str(tmp_path))) is None
    assert _total_size(("-",)) is None


def test_subprocess_progress_is_silent_when_not_a_terminal() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "urlsift", "scan", "-qq", str(MBOX)],
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stderr == b""
    assert len(done.stdout.splitlines()) == 2
