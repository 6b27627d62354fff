"""A plain install stays light: scanning never imports the ``dask`` extra's libraries."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HEAVY = ("pyarrow", "dask", "distributed", "fsspec", "duckdb")


def test_a_scan_imports_no_extra(tmp_path: Path) -> None:
    notes = tmp_path / "n.txt"
    notes.write_text("http://x.example/\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from urlsift.cli import main\n"
        f"try:\n    main(['scan', '-q', '-j', '2', {str(notes)!r}])\n"
        "except SystemExit:\n    pass\n"
        # The CLI closes its standard output at exit: the list goes to stderr.
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.splitlines()[-1] == "[]"
    assert "x.example" in done.stdout
