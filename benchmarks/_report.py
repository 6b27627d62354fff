"""What every benchmark script does the same way: tables, run metadata, JSON, bytecode.

Kept apart so the scripts (``bench_scan``, ``bench_linear``, ``bench_memory``, ``run_all``)
describe their runs and lay out their tables alike.
"""

from __future__ import annotations

import compileall
import json
import os
import platform
import sys
import time
from collections.abc import Collection, Sequence
from pathlib import Path


def compile_bytecode() -> bool:
    """Write urlsift's bytecode (``__pycache__``) before timing its command line.

    ``pip install .`` compiles a package's modules when it installs them, so a user's
    ``urlsift`` starts from bytecode. The development install is editable and this machine
    sets ``PYTHONDONTWRITEBYTECODE``, so without this step every CLI run would compile
    urlsift's modules from source again (about 35 ms of each start-up, measured as CLI
    throughput). Returns whether every module compiled.
    """
    import urlsift

    return bool(compileall.compile_dir(Path(urlsift.__file__).parent, quiet=1))


def print_columns(table: Sequence[Sequence[str]], left: Collection[int] = ()) -> None:
    """Print rows as aligned columns (right-aligned but for ``left``), a rule under row 0."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for n, cells in enumerate(table):
        print(
            "  "
            + "  ".join(
                c.ljust(w) if i in left else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()
        )
        if n == 0:
            print("  " + "  ".join("-" * w for w in widths))


def run_meta(started: float, **extra: object) -> dict[str, object]:
    """Describe a run: when, how long, on what; then the script's own settings."""
    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
        "wall_seconds": round(time.time() - started, 1),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        **extra,
    }


def write_report(path: Path, report: dict[str, object], what: str = "results") -> None:
    """Write ``report`` as indented JSON (creating the folder) and say where."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"{what} written to {path}")
