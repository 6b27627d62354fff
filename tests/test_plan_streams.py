"""Tests for the ranges of a compressed mbox's decompressed stream (urlsift.engines.plan, .work).

A compressed archive cut into stream ranges (``RangeItem(stream=True)``: each run
decompresses from the start, skips to its first message and reads past its nominal end to
the end of its last message) gives, merged in plan order, the records and totals of one
sequential pass, wherever the nominal starts fall, with a truncated stream too.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
from pathlib import Path

import pytest

from test_plan import _mbox, _one_pass, run_merged
from urlsift.engines.plan import (
    Cuts,
    RangeItem,
    estimated_size,
    plan_paths,
    plan_stream_ranges,
)
from urlsift.engines.work import (
    Result,
    ScanConfig,
    message_start,
    stream_start,
)
from urlsift.sources.compress import open_counted
from urlsift.sources.options import MailOptions
from urlsift.sources.reading import ArchiveStats, BlockReader

SHARED_MBOX = Path("/work/shared/corpora/mbox/linux-mips-1997.mbox.gz")


def _by_stream_ranges(
    path: str, config: ScanConfig, starts: list[int]
) -> tuple[list[Result], ArchiveStats]:
    items = [
        RangeItem(path, start, starts[i + 1] if i + 1 < len(starts) else None, stream=True)
        for i, start in enumerate(starts)
    ]
    return run_merged(items, config)


@pytest.mark.parametrize("crlf", [False, True])
@pytest.mark.parametrize("step", [1, 97, 1000, 4096, 50_000])
def test_stream_ranges_give_the_records_of_one_pass(tmp_path: Path, crlf: bool, step: int) -> None:
    data = _mbox(60, seed=step, crlf=crlf)
    path = tmp_path / "a.mbox.gz"
    path.write_bytes(gzip.compress(data))
    capped = MailOptions(max_message_bytes=700)
    # Nominal starts everywhere, some past the end of the stream.
    starts = list(range(0, len(data) + 3 * step, step))[:40]
    for config in (ScanConfig(kind="mbox"), ScanConfig(kind="mbox", options=capped)):
        expected, expected_stats = _one_pass(str(path), config)
        got, got_stats = _by_stream_ranges(str(path), config, starts)
        assert got == expected
        assert got_stats == expected_stats


@pytest.mark.parametrize("compress", [bz2.compress, lzma.compress])
def test_other_compressions(tmp_path: Path, compress: object) -> None:
    data = _mbox(30, seed=5)
    path = tmp_path / "a.mbox.x"
    path.write_bytes(compress(data))  # type: ignore[operator]
    config = ScanConfig(kind="mbox")
    expected, expected_stats = _one_pass(str(path), config)
    got, got_stats = _by_stream_ranges(str(path), config, [0, 500, 3000, 3001, 9000])
    assert (got, got_stats) == (expected, expected_stats)


@pytest.mark.parametrize("cut", [0.3, 0.6, 0.95])
def test_a_truncated_stream_is_reported_once(tmp_path: Path, cut: float) -> None:
    packed = gzip.compress(_mbox(60, seed=9))
    path = tmp_path / "a.mbox.gz"
    path.write_bytes(packed[: int(len(packed) * cut)])
    config = ScanConfig(kind="mbox")
    expected, expected_stats = _one_pass(str(path), config)
    assert any("stream-read-error" in repr(r) for r in expected)
    for step in (500, 4000, 20_000):
        got, got_stats = _by_stream_ranges(str(path), config, list(range(0, 60_000, step)))
        assert (got, got_stats) == (expected, expected_stats)


def test_stream_start_agrees_with_message_start(tmp_path: Path) -> None:
    data = _mbox(40, seed=11, crlf=True)
    path = tmp_path / "a.mbox.gz"
    path.write_bytes(gzip.compress(data))
    for offset in [0, 1, 2, 3, *range(5, len(data) + 5, 37)]:
        expected = message_start(io.BytesIO(data), offset, len(data))
        opened = open_counted(str(path))
        try:
            found = stream_start(BlockReader(opened, ArchiveStats()), offset)
        finally:
            opened.stream.close()
        if expected == len(data):
            assert found is None
        else:
            assert found is not None
            assert found[0] == expected
            assert data[expected:].startswith(found[1])


@pytest.mark.skipif(not SHARED_MBOX.exists(), reason="shared corpus not present")
def test_a_real_compressed_archive_in_stream_ranges() -> None:
    expected, expected_stats = _one_pass(str(SHARED_MBOX), ScanConfig())
    size = estimated_size(str(SHARED_MBOX), "gzip", SHARED_MBOX.stat().st_size)
    assert size == len(gzip.decompress(SHARED_MBOX.read_bytes()))
    items = plan_stream_ranges(str(SHARED_MBOX), size, 1 << 20, 3)
    assert len(items) == 3
    assert items[-1].stop is None
    got, got_stats = _by_stream_ranges(str(SHARED_MBOX), ScanConfig(), [i.start for i in items])
    assert (got, got_stats) == (expected, expected_stats)


def test_plan_stream_ranges_and_the_estimate(tmp_path: Path) -> None:
    items = plan_stream_ranges("x", 100, 30, 2)
    assert [(i.start, i.stop, i.stream) for i in items] == [(0, 50, True), (50, None, True)]
    assert len(plan_stream_ranges("x", 100, 30, 8)) == 4
    assert len(plan_stream_ranges("x", 0, 30, 8)) == 1
    with pytest.raises(ValueError, match="pieces"):
        plan_stream_ranges("x", 10, 5, 0)
    packed = tmp_path / "a.bz2"
    packed.write_bytes(bz2.compress(b"x" * 1000))
    assert estimated_size(str(packed), "bzip2", 50) == 200


def test_plan_paths_cuts_compressed_mbox_archives(tmp_path: Path) -> None:
    data = _mbox(30, seed=2)
    data = data[data.index(b"From s1@") :]
    (tmp_path / "a.mbox.gz").write_bytes(gzip.compress(data))
    (tmp_path / "b.mmdf.gz").write_bytes(gzip.compress(b"\x01\x01\x01\x01\nFrom: a@b\n\nx\n"))
    (tmp_path / "c.txt.gz").write_bytes(gzip.compress(b"just text http://x.example/\n"))
    items = list(
        plan_paths(
            [str(tmp_path / n) for n in ("a.mbox.gz", "b.mmdf.gz", "c.txt.gz")],
            ScanConfig(),
            ArchiveStats(),
            Cuts(stream_range_bytes=1000, stream_pieces=3),
        )
    )
    names = ["RangeItem"] * 3 + ["PathItem", "TextPieceItem"]
    assert [type(i).__name__ for i in items] == names
    assert [getattr(i, "stop", 0) is None for i in items[:3]] == [False, False, True]
