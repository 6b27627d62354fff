"""Start-up: a scan imports only the layers its input needs (issue 26).

``urlsift scan notes.txt`` must not pay for the mail layer (the stdlib's ``email``
package, the MIME part walk, the HTML reader), the worker pools, lint or Arrow (the
Parquet writer's module itself is light and imported by the command module); a scan
of an mbox does import the mail layer (so the check below can fail).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

NOT_FOR_TEXT = (
    "email",
    "urlsift.sources.parts",
    "urlsift.sources.headers",
    "urlsift.sources.htmltext",
    "urlsift.engines.processes",
    "urlsift.engines.dask",
    "urlsift.lint",
    "pyarrow",
    "multiprocessing",
    "csv",
    "importlib.abc",
)


def _imported_after_scan(path: Path) -> set[str]:
    code = (
        "import sys\n"
        "from urlsift.cli import main\n"
        f"try:\n    main(['scan', '-q', {str(path)!r}])\n"
        "except SystemExit:\n    pass\n"
        # The CLI closes its standard output at exit: the list goes to stderr.
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(done.stderr.splitlines()[-1].split())


def _hits(modules: set[str]) -> list[str]:
    return sorted(
        name for name in modules if any(name == m or name.startswith(m + ".") for m in NOT_FOR_TEXT)
    )


def test_a_text_scan_imports_no_mail_pool_lint_or_parquet_layer(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("see http://x.example/ now\n", encoding="utf-8")
    assert _hits(_imported_after_scan(notes)) == []


@pytest.mark.parametrize("layer", ["email", "urlsift.sources.parts"])
def test_an_mbox_scan_imports_the_mail_layer(tmp_path: Path, layer: str) -> None:
    archive = tmp_path / "a.mbox"
    archive.write_bytes(
        b"From a@b Mon Jan  1 00:00:00 2001\nSubject: s\n\nsee http://x.example/ now\n"
    )
    assert layer in _imported_after_scan(archive)
