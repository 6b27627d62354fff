"""Hostile input, round two (issue 24): what reaches a terminal, and what CSV keeps.

Item 3: control characters from the input (an OSC 52 clipboard write or a window title
sequence inside a ``<...>`` wrapper, a file name holding ESC) never reach a terminal raw
from any human-readable output: ``scan``'s text lines, its stderr lines (defects, unreadable
paths), ``--count`` text, ``validate`` text, ``report``'s stderr. One definition
(:func:`urlsift.output.formats.visible`) does it for all of them and for lint's messages.
JSON Lines and CSV are data: they keep the exact value (JSON escapes controls its own way;
CSV quotes a field with a carriage return so that a record stays one row).
"""

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

URLSIFT = Path(sys.executable).with_name("urlsift")

OSC52 = "\x1b]52;c;aGVsbG8=\x07"  # set the clipboard
TITLE = "\x1b]0;pwned\x1b\\"  # set the window title (ST-terminated)
CSI = "\x9b31m"  # a C1 control sequence introducer
HOSTILE = (
    f"see <http://a.example/{OSC52}x> and <URL:http://b.example/{TITLE}> <http://c.example/{CSI}>\n"
)


def _controls(data: bytes) -> list[int]:
    """Terminal control bytes in ``data`` other than the line feed ending each line."""
    text = data.decode("utf-8", "surrogateescape")
    found = [ord(c) for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) < 0xA0]
    found += [ord(c) - 0xDC00 for c in text if 0xDC80 <= ord(c) < 0xDCA0]
    return found


def _run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(URLSIFT), *args], input=stdin, capture_output=True, check=False, timeout=60
    )


def test_visible_escapes_every_control_and_keeps_the_rest() -> None:
    from urlsift.output.formats import visible, visible_utf8

    assert visible(OSC52) == "\\x1b]52;c;aGVsbG8=\\x07"
    assert visible("a\x85b\x9bc\x7fd\te\r") == "a\\x85b\\x9bc\\x7fd\\x09e\\x0d"
    # Undecodable bytes 0x80..0x9F are C1 controls to an 8-bit terminal; others are kept
    # for a surrogateescape stream to write back.
    assert visible("x\udc9by\udcffz") == "x\\x9by\udcffz"
    assert visible("café €😀 http://h/") == "café €😀 http://h/"
    assert visible_utf8("x\udcff\x1b") == "x\\udcff\\x1b"


def test_visible_shows_bidi_controls_that_would_reorder_a_url() -> None:
    from urlsift.output.formats import visible

    # "http://evil.example/\u202egro.elpmaxe" reads as ".../example.org" once reordered.
    shown = visible("http://evil.example/\u202egro.elpmaxe\u2066x\u2069\u200f\u061c")
    assert shown == "http://evil.example/\\u202egro.elpmaxe\\u2066x\\u2069\\u200f\\u061c"
    # Other format characters (a soft hyphen, a zero-width joiner in an emoji) are kept.
    assert visible("a\u00adb\U0001f469\u200d\U0001f4bb") == "a\u00adb\U0001f469\u200d\U0001f4bb"
    done = _run("scan", "-", stdin="<http://a.example/\u202etxt.exe>\n".encode())
    assert "\u202e" not in done.stdout.decode()
    assert b"http://a.example/\\u202etxt.exe" in done.stdout


def test_scan_text_output_writes_no_control_character() -> None:
    done = _run("scan", "-", stdin=HOSTILE.encode())
    assert done.returncode == 0
    assert _controls(done.stdout) == []
    assert b"http://a.example/\\x1b]52;c;aGVsbG8=\\x07x" in done.stdout
    assert b"\\x9b31m" in done.stdout


def test_scan_count_text_writes_no_control_character() -> None:
    for by in ("url", "host"):
        done = _run("scan", "--count", by, "-", stdin=HOSTILE.encode())
        assert done.returncode == 0
        assert _controls(done.stdout) == [], by
    # host rows hold the host: one made of controls is escaped too
    done = _run("scan", "--count", "host", "-", stdin=b"<http://h\x1b[2Jx.example/>\n")
    assert _controls(done.stdout) == []


def test_undecodable_c1_bytes_are_escaped_other_bytes_written_back() -> None:
    done = _run("scan", "-", stdin=b"<http://a.example/\x9b2J\xff>\n")
    assert _controls(done.stdout) == []
    assert done.stdout == b"-:1:1: http://a.example/\\x9b2J\xff\n"


def test_a_file_name_with_controls_is_escaped_in_every_line(tmp_path: Path) -> None:
    name = tmp_path / "evil\x1b]0;x\x07.txt"
    name.write_text("<http://a.example/>\n")
    done = _run("scan", str(name))
    assert _controls(done.stdout) == []
    assert b"evil\\x1b]0;x\\x07.txt:1:1:" in done.stdout
    missing = tmp_path / "gone\x1b[2J.txt"
    done = _run("scan", str(missing))
    assert done.returncode == 2
    assert _controls(done.stderr) == []
    assert b"gone\\x1b[2J.txt" in done.stderr


def test_stderr_defect_lines_write_no_control_character(tmp_path: Path) -> None:
    # A message whose charset is unknown, in a file whose name holds controls: the defect
    # line names the file and quotes the header's value.
    message = tmp_path / "m\x1b]0;t\x07.eml"
    message.write_bytes(
        b"From: a@example.com\nSubject: x\nMIME-Version: 1.0\n"
        b'Content-Type: text/plain; charset="x\x1b]0;t\x07"\n\n<http://a.example/>\n'
    )
    done = _run("scan", "--input-kind", "mail", str(message))
    assert b"unknown-charset" in done.stderr  # a defect line was written
    assert _controls(done.stderr) == []


def test_validate_text_writes_no_control_character() -> None:
    done = _run("validate", f"http://a.example/{OSC52}", f"http://b.example/{CSI}")
    assert done.returncode == 1
    assert _controls(done.stdout) == []


def test_report_stderr_writes_no_control_character(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    missing = tmp_path / "gone\x1b]0;x\x07.mbox"
    done = _run("report", "-q", str(missing), "-o", str(tmp_path / "r.html"))
    assert done.returncode == 2
    assert b"gone" in done.stderr
    assert _controls(done.stderr) == []


def test_jsonl_keeps_the_exact_value() -> None:
    done = _run("scan", "--format", "jsonl", "-", stdin=HOSTILE.encode())
    urls = [json.loads(line)["url"] for line in done.stdout.splitlines()]
    assert urls[0] == f"http://a.example/{OSC52}x"
    assert _controls(done.stdout) == []  # JSON escapes controls itself


def test_csv_keeps_the_exact_value_and_one_row_per_record() -> None:
    # A carriage return alone in a field (a raw span broken at an old Mac line end) was
    # written unquoted: csv readers split the record in two.
    text = f"<URL:http://a.example/\r  rest> <http://b.example/{OSC52}>\n"
    result = CliRunner().invoke(main, ["scan", "--format", "csv", "-"], input=text)
    rows = list(csv.DictReader(io.StringIO(result.stdout, newline="")))
    assert [row["url"] for row in rows] == ["http://a.example/rest", f"http://b.example/{OSC52}"]
    assert rows[0]["raw"] == "<URL:http://a.example/\r  rest>"


def test_lint_text_output_shows_a_control_character_in_a_file_name(tmp_path: Path) -> None:
    # A file name is input too: an escape sequence in it must not reach the terminal.
    doc = tmp_path / "bad\x1b]0;title\x07.md"
    doc.write_text("see [x](missing.md)\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["lint", "--no-cache", str(tmp_path)])
    assert "\x1b" not in result.stdout
    assert "bad\\x1b]0;title\\x07.md:1:9: URL015" in result.stdout
