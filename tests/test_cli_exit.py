"""Exit statuses of ``urlsift scan`` and ``urlsift lint`` when input or output fails.

* A path that cannot be read is reported, the other paths are still read, exit 2 (issue 13
  item 6). These tests run as root here, and root ignores file permissions: the CliRunner
  tests make a path unreadable by patching what opens it (and click's ``os.access``
  check, which is what used to turn it into a usage error), and one real subprocess runs
  as the unprivileged user ``nobody`` (through ``setpriv``) when that is possible, else
  (not root) as the current user; it is skipped when neither can be arranged.
* A compressed archive that ends early (read error part-way) exits 2 (item 9).
* A reader that closes standard output early (``| head``) gives 141, as a shell
  reports ``cat`` killed by SIGPIPE, not 1, which ``--check`` uses for "invalid URL"
  (item 10).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import urlsift.sources.compress as compress
from urlsift.cli import main

URLSIFT = Path(sys.executable).with_name("urlsift")
NOBODY = 65534


def _deny(monkeypatch: pytest.MonkeyPatch, secret: Path) -> None:
    """Make ``secret`` unreadable to click's check and to the sources and lint reader.

    Tests run as root, whom file modes do not stop, so the denial is patched in: in
    ``os.access``, the sources' ``open``, ``Path.open`` and ``os.open`` (lint's bounded
    reader). The subprocess test below denies it for real, as another user.
    """
    real_access = os.access
    real_open = open
    real_path_open = Path.open
    real_os_open = os.open

    def access(path: Any, mode: int, *args: Any, **kwargs: Any) -> bool:
        if os.path.abspath(path) == str(secret):
            return False
        return real_access(path, mode, *args, **kwargs)

    def opener(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, Path)) and os.path.abspath(file) == str(secret):
            raise PermissionError(13, "Permission denied", str(secret))
        return real_open(file, *args, **kwargs)

    def path_open(self: Path, *args: Any, **kwargs: Any) -> Any:
        if os.path.abspath(self) == str(secret):
            raise PermissionError(13, "Permission denied", str(secret))
        return real_path_open(self, *args, **kwargs)

    def os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if isinstance(path, (str, Path)) and os.path.abspath(path) == str(secret):
            raise PermissionError(13, "Permission denied", str(secret))
        return real_os_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(compress, "open", opener, raising=False)
    monkeypatch.setattr(Path, "open", path_open)


@pytest.fixture
def two_files(tmp_path: Path) -> tuple[Path, Path]:
    ok = tmp_path / "ok.txt"
    ok.write_text("see http://ok.example/a and http://bad.example:8x/\n", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("http://secret.example/\n", encoding="utf-8")
    return ok, secret


def test_scan_reports_an_unreadable_path_and_scans_the_others(
    two_files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    ok, secret = two_files
    _deny(monkeypatch, secret)
    result = CliRunner().invoke(main, ["scan", str(secret), str(ok)])
    assert result.exit_code == 2, result.output
    assert "http://ok.example/a" in result.stdout
    assert "secret.example" not in result.stdout
    assert f"urlsift: cannot read {secret}: Permission denied" in result.stderr
    assert "Usage" not in result.stderr


def test_lint_reports_an_unreadable_path_and_lints_the_others(
    two_files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    ok, secret = two_files
    monkeypatch.chdir(ok.parent)
    (ok.parent / "urlsift.toml").write_text("")
    _deny(monkeypatch, secret)
    result = CliRunner().invoke(main, ["lint", "secret.txt", "ok.txt"])
    assert result.exit_code == 2, result.output
    assert "ok.txt:1:" in result.stdout  # the bad port of ok.txt is still reported
    assert "secret.txt:1:1: URL010" in result.stdout  # as unreadable files always were
    assert "urlsift: cannot read secret.txt: Permission denied" in result.stderr
    assert "Usage" not in result.stderr


def test_scan_dangling_symlink_is_unreadable_not_a_usage_error(
    two_files: tuple[Path, Path],
) -> None:
    ok, _ = two_files
    link = ok.parent / "gone.txt"
    link.symlink_to(ok.parent / "nowhere.txt")
    result = CliRunner().invoke(main, ["scan", str(link), str(ok)])
    assert result.exit_code == 2
    assert "http://ok.example/a" in result.stdout


def _unprivileged_prefix() -> list[str] | None:
    """A command prefix that runs a program as a user who obeys file permissions."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    prefix = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    probe = subprocess.run(
        [*prefix, str(URLSIFT), "--version"], capture_output=True, check=False, timeout=60
    )
    return prefix if probe.returncode == 0 else None


@pytest.mark.parametrize("command", ["scan", "lint"])
def test_real_permission_denied_as_an_unprivileged_user(command: str) -> None:
    prefix = _unprivileged_prefix()
    if prefix is None or not URLSIFT.exists():
        pytest.skip("no unprivileged user to run as (root without setpriv/nobody)")
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        base.chmod(0o755)
        (base / "urlsift.toml").write_text("")
        ok = base / "ok.txt"
        ok.write_text("see http://ok.example/a and http://bad.example:8x/\n")
        ok.chmod(0o644)
        secret = base / "secret.txt"
        secret.write_text("http://secret.example/\n")
        secret.chmod(0o000)
        done = subprocess.run(
            [*prefix, str(URLSIFT), command, "secret.txt", "ok.txt"],
            capture_output=True,
            text=True,
            cwd=base,
            check=False,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr
    assert "ok.txt:1:" in done.stdout
    assert "cannot read secret.txt: Permission denied" in done.stderr


def _mbox(count: int) -> bytes:
    return b"".join(
        b"From a@b Thu Sep 13 12:30:05 2001\nSubject: m%d\n\nsee http://m%d.example/page\n\n"
        % (n, n)
        for n in range(count)
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_truncated_compressed_archive_exits_2(tmp_path: Path, jobs: str) -> None:
    data = _mbox(200)
    packed = gzip.compress(data)
    path = tmp_path / "cut.mbox.gz"
    path.write_bytes(packed[: len(packed) * 3 // 4])
    result = CliRunner().invoke(main, ["scan", "--format", "jsonl", "-j", jobs, str(path)])
    assert result.exit_code == 2, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    urls = [r["url"] for r in records if r.get("record") != "defects"]
    assert urls[:3] == [f"http://m{n}.example/page" for n in range(3)]
    codes = {d["code"] for r in records if r.get("record") == "defects" for d in r["defects"]}
    assert "stream-read-error" in codes
    whole = tmp_path / "whole.mbox.gz"
    whole.write_bytes(packed)
    assert CliRunner().invoke(main, ["scan", "-q", str(whole)]).exit_code == 0


def test_truncated_compressed_single_message_exits_2(tmp_path: Path) -> None:
    message = b"Subject: one\n\n" + b"see http://one.example/\n" * 20_000
    packed = gzip.compress(message)
    path = tmp_path / "cut.eml.gz"
    path.write_bytes(packed[: len(packed) // 2])
    result = CliRunner().invoke(main, ["scan", "-q", str(path)])
    assert result.exit_code == 2
    assert "http://one.example/" in result.stdout


def _many_urls(tmp_path: Path) -> Path:
    # Far more output than a pipe holds (64 KiB), so the writer meets the closed pipe.
    path = tmp_path / "many.txt"
    path.write_text("".join(f"http://bad.example:8x/{n}\n" for n in range(30_000)))
    return path


@pytest.mark.parametrize(
    "args",
    [["scan"], ["scan", "--check"], ["scan", "--format", "jsonl"], ["lint"]],
    ids=["scan", "scan-check", "scan-jsonl", "lint"],
)
def test_reader_closing_early_gives_141(tmp_path: Path, args: list[str]) -> None:
    if not URLSIFT.exists():
        pytest.skip("the urlsift program is not installed next to this interpreter")
    path = _many_urls(tmp_path)
    (tmp_path / "urlsift.toml").write_text("")
    with subprocess.Popen(
        [str(URLSIFT), *args, path.name],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None
        assert proc.stderr is not None
        first = proc.stdout.readline()  # what "| head -1" reads, and then it goes away
        proc.stdout.close()
        error = proc.stderr.read()
        status = proc.wait(timeout=120)
    assert first
    assert status == 141
    assert b"Traceback" not in error
    assert b"BrokenPipe" not in error


# --- issue 24 item 8: an output that cannot be written exits 2 in every command ---------

FULL = Path("/dev/full")


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["validate", "http://a.example/", "http://b.example/x y"],
        ["scan", "--check", "{doc}"],
        ["scan", "{doc}"],
        ["scan", "--count", "{doc}"],
        ["scan", "--count", "host", "--format", "csv", "{doc}"],
        ["scan", "--format", "jsonl", "{doc}"],
        ["lint", "{doc}"],
    ],
    ids=lambda args: "-".join(a for a in args if a != "{doc}"),
)
def test_a_full_disk_on_output_exits_2(tmp_path: Path, args: list[str]) -> None:
    # Before: 1, the "invalid URL found" status (or 0 for lint when the report was the only
    # output), with a traceback.
    doc = tmp_path / "doc.md"
    doc.write_text("<http://a.example/a b> http://[::1/x <http://c.example/>\n" * 2000)
    with FULL.open("wb") as full:
        done = subprocess.run(
            [str(URLSIFT), *(str(doc) if a == "{doc}" else a for a in args)],
            stdout=full,
            stderr=subprocess.PIPE,
            check=False,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"No space left on device" in done.stderr
