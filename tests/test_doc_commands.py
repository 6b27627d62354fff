"""The command examples of README.md and docs/*.md run as written (issue 25).

* Every ```console block: each ``$ command`` is run by bash in a folder where
  ``corpora/`` is the repository's, with the installed ``urlsift`` first on PATH; its
  output (stdout, then stderr: the CLI writes its summary after its records) must be the
  lines shown under it, exactly.
* Every ```sh block runs and exits 0, except the few listed in :data:`RUN_ELSEWHERE`
  (they install packages or name archives the repository does not hold), each with the
  place that runs it.
* Every documented pre-commit ``rev:`` is a full commit hash or a tag the repository has:
  pre-commit refuses anything else.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(console|sh)\n(.*?)^```", re.S | re.M)

RUN_ELSEWHERE = {
    "python3 -m venv .venv": "the Quick start: .ci/run runs it; test_readme_quickstart.py "
    "checks what it promises",
    "urlsift scan -q --format parquet": "the DuckDB recipe: tests/test_parquet.py runs the "
    "block as written beside linux-mips-*.mbox.gz archives it builds",
}
"""First line of an ```sh block -> where it is run instead."""


def _blocks(kind: str) -> list[tuple[str, str]]:
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match.group(1) == kind:
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{document.relative_to(ROOT)}:{line}", match.group(2)))
    return found


def _run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONWARNINGS"] = ""
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=300,
    )


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "corpora").symlink_to(ROOT / "corpora")
    return tmp_path


def _sessions(block: str) -> list[tuple[str, list[str]]]:
    sessions: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            sessions.append((line[2:], []))
        else:
            assert sessions, f"output before any command: {line!r}"
            sessions[-1][1].append(line)
    return sessions


CONSOLE = _blocks("console")
SHELL = _blocks("sh")


def test_the_docs_have_console_examples() -> None:
    assert len(CONSOLE) >= 1
    assert sum(len(_sessions(block)) for _, block in CONSOLE) >= 4


@pytest.mark.parametrize(("where", "block"), CONSOLE, ids=[w for w, _ in CONSOLE])
def test_console_examples_print_what_they_show(where: str, block: str, workdir: Path) -> None:
    for command, shown in _sessions(block):
        done = _run(command, workdir)
        assert done.stdout.splitlines() == shown, f"{where}: $ {command}"


@pytest.mark.parametrize(("where", "block"), SHELL, ids=[w for w, _ in SHELL])
def test_shell_examples_run(where: str, block: str, workdir: Path) -> None:
    first = block.splitlines()[0]
    elsewhere = [reason for start, reason in RUN_ELSEWHERE.items() if first.startswith(start)]
    if elsewhere:
        pytest.skip(f"{where}: {elsewhere[0]}")
    if "urlsift report" in block:
        pytest.importorskip("matplotlib", reason="the report extra is missing")
    done = _run(block, workdir)
    assert done.returncode == 0, f"{where}:\n{done.stdout}"


def test_every_exception_names_a_block_that_exists() -> None:
    firsts = [block.splitlines()[0] for _, block in SHELL]
    for start in RUN_ELSEWHERE:
        assert any(first.startswith(start) for first in firsts), start


def test_documented_pre_commit_revisions_can_be_fetched() -> None:
    tags = subprocess.run(
        ["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    revisions = []
    for document in DOCUMENTS:
        revisions += re.findall(r"^\s*rev:\s*(\S+)", document.read_text(encoding="utf-8"), re.M)
    assert revisions
    for rev in revisions:
        assert re.fullmatch(r"[0-9a-f]{40}", rev) or rev in tags, rev
