"""The README's Quick start: two commands, and the first prints what the README says."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from urlsift.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _quick_start() -> tuple[list[str], str]:
    section = README[README.index("## Quick start") :]
    section = section[: section.index("\n## ", 1)]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None
    return block.group(1).strip().splitlines(), section[block.end() :]


def test_two_commands() -> None:
    commands, _ = _quick_start()
    assert len(commands) == 2
    assert commands[1].endswith("&& .venv/bin/python -m pytest -n auto")


def test_the_first_prints_the_urls_it_promises(monkeypatch: pytest.MonkeyPatch) -> None:
    commands, words = _quick_start()
    last = commands[0].split("&&")[-1]
    program, *args = shlex.split(last)
    assert program == ".venv/bin/urlsift"
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    promised = re.search(r"prints the (\d+) URLs of RFC 1738 \((\w+) of them rejoined", words)
    assert promised is not None
    assert len(lines) == int(promised.group(1))
    jsonl = CliRunner().invoke(main, [*args, "--format", "jsonl"]).stdout
    # A rejoined URL's raw span holds a line break (written \n in JSON).
    rejoined = sum("\\n" in line for line in jsonl.splitlines())
    assert rejoined == {"six": 6}[promised.group(2)]
