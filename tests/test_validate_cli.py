"""``urlsift validate`` through click's CliRunner: exit codes, formats, standard input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from urlsift.cli.validate import render_text, validate_command
from urlsift.validation.rules import validate


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_all_valid_exits_0(runner: CliRunner) -> None:
    result = runner.invoke(validate_command, ["http://h.example/", "news:*"])
    assert result.exit_code == 0
    assert result.output.splitlines() == ["VALID http://h.example/", "VALID news:*"]


def test_any_invalid_exits_1(runner: CliRunner) -> None:
    result = runner.invoke(validate_command, ["http://h.example/", "ftp://h:x/"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "VALID http://h.example/"
    assert lines[1].startswith("INVALID ftp://h:x/ (bad-port at 8: port = digits:")


def test_no_url_is_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(validate_command, [])
    assert result.exit_code == 2
    assert "Usage:" in result.output


def test_unknown_format_is_a_usage_error(runner: CliRunner) -> None:
    assert runner.invoke(validate_command, ["--format", "xml", "http://h/"]).exit_code == 2


def test_warnings_are_marked_in_text(runner: CliRunner) -> None:
    result = runner.invoke(validate_command, ["ftp://u:pw@h.example:2121/"])
    assert result.exit_code == 0
    line = result.output.strip()
    assert line.startswith("VALID ftp://u:pw@h.example:2121/ (warning password-in-url at 8:")
    assert "; warning non-default-port at 21:" in line


def test_strict_turns_lenient_findings_into_errors(runner: CliRunner) -> None:
    assert runner.invoke(validate_command, ["http://h/~u/"]).exit_code == 0
    result = runner.invoke(validate_command, ["--strict", "http://h/~u/"])
    assert result.exit_code == 1
    assert result.output.startswith("INVALID http://h/~u/ (unsafe-character at 9:")


def test_jsonl_shape(runner: CliRunner) -> None:
    result = runner.invoke(
        validate_command, ["--format", "jsonl", "ftp://u@H.example:21/a;type=d#f", "bogus"]
    )
    assert result.exit_code == 1
    first, second = (json.loads(line) for line in result.output.splitlines())
    assert list(first)[:2] == ["url", "normalized"]  # as in scan's records
    assert first == {
        "url": "ftp://u@H.example:21/a;type=d#f",
        "normalized": "ftp://u@h.example/a;type=d#f",
        "valid": True,
        "scheme": "ftp",
        "defects": [],
        "parts": {"user": "u", "host": "H.example", "port": "21", "path": "a", "type": "d"},
        "fragment": "f",
    }
    assert second["normalized"] == "bogus"
    assert second["valid"] is False
    assert second["scheme"] == ""
    assert "fragment" not in second
    (defect,) = second["defects"]
    assert set(defect) == {"code", "severity", "message", "offset"}
    assert defect["code"] == "missing-scheme"


def test_stdin_dash_reads_one_url_per_line(runner: CliRunner) -> None:
    text = "http://a.example/\r\n\n   \nnews:*\nhttp://h/a b\n"
    result = runner.invoke(validate_command, ["-"], input=text)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "VALID http://a.example/"
    assert lines[1] == "VALID news:*"
    assert lines[2].startswith("INVALID http://h/a b (unsafe-character at 10:")
    assert len(lines) == 3


def test_stdin_mixed_with_arguments(runner: CliRunner) -> None:
    result = runner.invoke(validate_command, ["news:*", "-", "mailto:a@b"], input="http://h/\n")
    assert result.exit_code == 0
    assert [line.split()[1] for line in result.output.splitlines()] == [
        "news:*",
        "http://h/",
        "mailto:a@b",
    ]


def test_stdin_undecodable_bytes_are_reported_not_fatal(runner: CliRunner) -> None:
    result = runner.invoke(validate_command, ["--format", "jsonl", "-"], input=b"http://h/\xff\n")
    assert result.exit_code == 1
    record = json.loads(result.output)
    assert record["url"] == "http://h/\udcff"
    assert record["defects"][0]["code"] == "non-ascii-character"


def test_empty_stdin_is_valid(runner: CliRunner) -> None:
    result = runner.invoke(validate_command, ["-"], input="")
    assert result.exit_code == 0
    assert result.output == ""


def test_text_line_shows_controls_visibly() -> None:
    line = render_text(validate("http://h/a\nb"))
    assert "\n" not in line
    assert line.startswith("INVALID http://h/a\\x0ab (control-character at 10:")


def test_help_mentions_exit_status(runner: CliRunner) -> None:
    result = runner.invoke(validate_command, ["--help"])
    assert result.exit_code == 0
    assert "--strict" in result.output
    assert "--format" in result.output
