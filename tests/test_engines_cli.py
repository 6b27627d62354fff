"""``urlsift scan --engine local|processes``: the same output as one process, in order."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from urlsift.cli import main


def _inputs(tmp_path: Path) -> list[str]:
    archive = tmp_path / "list.mbox"
    archive.write_bytes(
        b"".join(
            f"From s{n}@x Thu Sep 13 12:30:05 2001\nFrom: s{n}@x\n\n"
            f"http://h{n}.example/ and <URL:ftp://f{n}.example/a-\nb>\n\n".encode()
            for n in range(300)
        )
    )
    notes = tmp_path / "notes.txt"
    notes.write_text("see http://notes.example/\n", encoding="utf-8")
    return [str(archive), str(notes), str(tmp_path / "missing")]


def test_engines_give_the_same_output(tmp_path: Path) -> None:
    paths = _inputs(tmp_path)
    runner = CliRunner()
    local = runner.invoke(main, ["scan", "--format", "jsonl", *paths])
    assert local.exit_code == 2  # the missing path
    assert local.output.count('"url": "http://h299.example/"') == 1
    for args in (["--engine", "processes", "-j", "2"], ["--engine", "processes"], ["-j", "2"]):
        other = runner.invoke(main, ["scan", "--format", "jsonl", *args, *paths])
        assert other.exit_code == 2
        assert other.output == local.output, args
