"""urlsift lint on the command line: golden output, every format, exit codes, link wiring."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import urlsift.lint.engine as engine
from urlsift.cli import main
from urlsift.lint.model import Diagnostic, Finding
from urlsift.lint.report import REPORTERS

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "corpora" / "lint"


def _run(args: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.chdir(cwd)
    return CliRunner().invoke(main, ["lint", *args])


def test_golden_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run([], GOLDEN, monkeypatch)
    expected = (GOLDEN / "expected.txt").read_text(encoding="utf-8")
    assert result.stdout == expected
    assert result.exit_code == 1
    problems = expected.count("\n")
    assert result.stderr.startswith(f"Found {problems} problems (")


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_every_format_runs(fmt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    result = _run(["--format", fmt, "docs/notes.txt"], GOLDEN, monkeypatch)
    assert result.exit_code == 1, result.output
    assert result.stdout
    clean = _run(["--format", fmt, "README.md"], GOLDEN, monkeypatch)
    assert clean.exit_code == 0, clean.output


def test_exit_codes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "urlsift.toml").write_text("")
    (tmp_path / "ok.md").write_text("See <http://ok.example/>.\n")
    (tmp_path / "bad.md").write_text("See http://bad.example:8x/.\n")
    ok = _run(["ok.md"], tmp_path, monkeypatch)
    assert (ok.exit_code, ok.stdout) == (0, "")
    assert ok.stderr == "All checked: 1 file, 1 URL, no problems.\n"
    bad = _run(["bad.md"], tmp_path, monkeypatch)
    assert bad.exit_code == 1
    assert bad.stdout.startswith("bad.md:1:25: URL012 ")
    assert bad.stderr == "Found 1 problem (1 error, 0 warnings) in 1 of 1 file.\n"
    assert _run(["--exit-zero", "bad.md"], tmp_path, monkeypatch).exit_code == 0
    assert _run(["--ignore", "URL012", "bad.md"], tmp_path, monkeypatch).exit_code == 0
    assert _run(["-q", "bad.md"], tmp_path, monkeypatch).stderr == ""
    stats = _run(["--statistics", "bad.md"], tmp_path, monkeypatch)
    assert stats.stdout == "    1  URL012  bad-host\n"
    assert _run(["--select", "NOPE"], tmp_path, monkeypatch).exit_code == 2
    assert _run(["missing.md"], tmp_path, monkeypatch).exit_code == 2
    (tmp_path / "urlsift.toml").write_text("bogus = 1\n")
    broken = _run(["ok.md"], tmp_path, monkeypatch)
    assert broken.exit_code == 2
    assert "unknown key" in broken.stderr


def test_unreadable_and_binary_explicit_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "urlsift.toml").write_text("")
    (tmp_path / "blob.txt").write_bytes(b"\0\1")
    result = _run(["blob.txt"], tmp_path, monkeypatch)
    assert result.exit_code == 1
    assert result.stdout.startswith("blob.txt:1:1: URL010 binary file")
    assert _run(["."], tmp_path, monkeypatch).exit_code == 0  # skipped silently in folders


def test_internal_error_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "urlsift.toml").write_text("")
    (tmp_path / "a.md").write_text("x\n")

    def boom(*args: object, **kwargs: object) -> list[Finding]:
        raise RuntimeError("bug")

    monkeypatch.setattr(engine, "extract_document", boom)
    result = _run(["a.md"], tmp_path, monkeypatch)
    assert result.exit_code == 2
    assert "urlsift: internal error: RuntimeError: bug" in result.stderr


def test_check_links_wiring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import urlsift.lint.links as links

    (tmp_path / "urlsift.toml").write_text("[links]\n")
    (tmp_path / "a.md").write_text(
        "[a](http://a.example/) <!-- urlsift: ignore[URL102] -->\nhttp://b.example/\n"
    )
    seen: dict[str, object] = {}

    def fake(findings: list[Finding], options: links.LinkOptions) -> list[Diagnostic]:
        seen["urls"] = [f.url for f in findings]
        seen["options"] = options
        return [
            Diagnostic(f.path, f.line, f.column, code, "error", "m", f.url)
            for f in findings
            for code in ("URL101", "URL102")
        ]

    monkeypatch.setattr(links, "diagnose_links", fake)
    args = ["--check-links", "--timeout", "3", "--no-cache", "--exclude-link", "x\\.y", "a.md"]
    result = _run([*args, "--ignore", "URL101"], tmp_path, monkeypatch)
    assert seen["urls"] == ["http://a.example/", "http://b.example/"]
    options = seen["options"]
    assert isinstance(options, links.LinkOptions)
    assert (options.timeout, options.cache_path, options.exclude[-1]) == (3.0, None, "x\\.y")
    assert result.stdout == "a.md:2:1: URL102 m\n"  # URL101 ignored, line 1 suppressed
    seen.clear()
    _run(["a.md"], tmp_path, monkeypatch)
    assert not seen  # no link checking without --check-links


def test_real_subprocess() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "urlsift", "lint", "docs/notes.txt"],
        cwd=GOLDEN,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    expected = [
        line
        for line in (GOLDEN / "expected.txt").read_text(encoding="utf-8").splitlines()
        if line.startswith("docs/notes.txt:")
    ]
    assert proc.stdout.splitlines() == expected
    assert proc.stderr.startswith("Found ")
