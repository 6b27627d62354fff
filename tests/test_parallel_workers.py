"""How many worker processes ``-j N`` starts: capped by the CPUs and by the work.

Issue 24 item 16: ``-j 100000`` on one tiny file forked 100,000 processes. Issue 26: one
text file alone is scanned where the output is written, not pickled back piece by piece.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from urlsift.engines import processes
from urlsift.engines.runner import ScanConfig, iter_results
from urlsift.sources.reading import ArchiveStats


class _NoPool:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("no worker pool should start")


class _CountingPool:
    started: list[int] = []  # noqa: RUF012 - a test's record of the pools started

    def __init__(self, max_workers: int, mp_context: Any = None) -> None:
        self.started.append(max_workers)
        self._real = ProcessPoolExecutor(max_workers=max_workers)

    def submit(self, *args: Any) -> Any:
        return self._real.submit(*args)

    def shutdown(self, **kwargs: Any) -> None:
        self._real.shutdown(**kwargs)


def _scan(paths: list[str], jobs: int) -> list[object]:
    return list(iter_results(paths, ScanConfig(), stats=ArchiveStats(), jobs=jobs))


def test_workers_never_outnumber_the_cpus() -> None:
    assert processes.worker_count(100_000, cpus=2) == 2
    assert processes.worker_count(3, cpus=8) == 3
    assert processes.worker_count(5, cpus=1) == 1
    assert 1 <= processes.worker_count(100_000) <= processes.usable_cpus()


def test_a_tiny_file_starts_no_pool_whatever_the_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("see http://a.example/ now\n", encoding="utf-8")
    expected = _scan([str(tiny)], 1)
    monkeypatch.setattr(processes, "ProcessPoolExecutor", _NoPool)
    assert _scan([str(tiny)], 100_000) == expected


def test_one_text_file_alone_stays_in_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = tmp_path / "big.txt"
    paragraph = "".join(f"line {i} http://h{i}.example/p\n" for i in range(40))
    text.write_text((paragraph + "\n") * 2000, encoding="utf-8")  # about 2 MB, blank lines
    expected = _scan([str(text)], 1)
    monkeypatch.setattr(processes, "ProcessPoolExecutor", _NoPool)
    assert _scan([str(text)], 2) == expected


def test_the_pool_is_as_large_as_the_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if processes.usable_cpus() < 2:
        pytest.skip("one CPU: every scan runs in the parent")
    paths = []
    for name in ("a.txt", "b.txt"):
        path = tmp_path / name
        path.write_text(f"see http://{name}.example/ now\n", encoding="utf-8")
        paths.append(str(path))
    expected = _scan(paths, 1)
    _CountingPool.started = []
    monkeypatch.setattr(processes, "ProcessPoolExecutor", _CountingPool)
    assert _scan(paths, 64) == expected
    assert _CountingPool.started == [2]  # two items: two workers, not 64
