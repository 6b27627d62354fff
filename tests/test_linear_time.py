"""Linear time on adversarial inputs: the fast version of benchmarks/bench_linear.py.

Each family of hostile text (a run of ``<URL:``, a URL that never ends, nested
parentheses, 16 quote levels ...; the table lives in the benchmark) is timed at 32 KiB and
at 256 KiB. Eight times the input may take at most 2.5**3 (about 15.6) times as long: the
issue's limit of 2.5x per doubling, compounded. A linear scan takes about 8x; a quadratic
one 64x, so the margin is wide while any super-linear code still fails.

These are timings, so they are marked ``slow``: the default test run leaves them out and
``.ci/run`` runs them on their own, with one retry. The default run keeps a hang guard
(:func:`test_every_family_finishes`), which asserts no duration: a family that hangs or
goes badly quadratic trips pytest-timeout.

Robust on a noisy shared machine: both sizes are large enough that the scan, not a fixed
start-up cost, is what is timed; every size is warmed up once and then run many times and
the *fastest* run counts (load from other processes only ever adds time); and the absolute
cap (2 s for 256 KiB, four times the issue's 2 s per MB) only catches hangs.
"""

from __future__ import annotations

import gc
import importlib.util
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import urlsift

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
SMALL = 32 << 10
LARGE = 256 << 10
MAX_RATIO = 2.5**3
MAX_LARGE_SECONDS = 2.0


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


bench_linear = _load("bench_linear")
FAMILIES: dict[str, tuple[str, Callable[[int], str]]] = bench_linear.FAMILIES


def _fastest(text: str, min_runs: int = 3, min_total: float = 0.05) -> float:
    """Fastest of at least ``min_runs`` runs (more, up to 100, for fast inputs)."""
    urlsift.extract(text)  # warm-up
    best = float("inf")
    spent = 0.0
    runs = 0
    gc.collect()
    gc.disable()  # a collection of the test session's heap would land in one run
    try:
        while runs < min_runs or (spent < min_total and runs < 100):
            start = time.perf_counter()
            urlsift.extract(text)
            seconds = time.perf_counter() - start
            best = min(best, seconds)
            spent += seconds
            runs += 1
    finally:
        gc.enable()
    return best


@pytest.mark.timeout(60)
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_finishes(family: str) -> None:
    """Hang guard of the default run: 256 KiB of each family is scanned, with no timing."""
    text = FAMILIES[family][1](LARGE)
    assert 0.9 * LARGE <= len(text) <= 1.1 * LARGE
    assert isinstance(urlsift.extract(text), list)


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_eight_times_the_input_takes_at_most_15_6_times_as_long(family: str) -> None:
    make = FAMILIES[family][1]
    small, large = make(SMALL), make(LARGE)
    assert 0.9 * SMALL <= len(small) <= 1.1 * SMALL
    assert 0.9 * LARGE <= len(large) <= 1.1 * LARGE
    small_s = _fastest(small)
    large_s = _fastest(large)
    if large_s / small_s > MAX_RATIO:  # one more try before failing: load bursts happen
        small_s = min(small_s, _fastest(small))
        large_s = min(large_s, _fastest(large, min_runs=5))
    assert large_s < MAX_LARGE_SECONDS, f"{large_s:.2f} s for 256 KiB"
    # A family the scanner skips in a few searches takes tens of microseconds at 32 KiB,
    # where the clock's and the call's noise decide the ratio: 0.1 ms is the floor (a
    # quadratic family takes far longer than that at 32 KiB).
    small_s = max(small_s, 1e-4)
    assert large_s / small_s <= MAX_RATIO, (
        f"{family}: {small_s * 1000:.2f} ms at 32 KiB, {large_s * 1000:.2f} ms at 256 KiB"
    )


@pytest.mark.slow
def test_a_quadratic_scan_would_fail_the_ratio() -> None:
    """The check itself can fail: a scan that rescans from the start does."""

    def quadratic(text: str) -> int:
        return sum(text.count("<", 0, i) for i in range(0, len(text), 64))

    small, large = "<" * SMALL, "<" * LARGE
    timings = []
    for text in (small, large):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            quadratic(text)
            best = min(best, time.perf_counter() - start)
        timings.append(best)
    assert timings[1] / timings[0] > MAX_RATIO
