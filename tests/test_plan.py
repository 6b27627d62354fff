"""Tests for the work plan (urlsift.engines.plan) and how items run (urlsift.engines.work).

Byte ranges of an uncompressed mbox, run one after the other and merged with
``Renumbering``, give the records and totals of one sequential pass, wherever the nominal
range starts fall (inside headers, bodies, envelope lines, CRLF pairs).
"""

from __future__ import annotations

import gzip
import io
import itertools
import os
import random
from pathlib import Path

import pytest

from urlsift import Url
from urlsift.engines import plan as plan_module
from urlsift.engines import processes as parallel
from urlsift.engines.plan import (
    Cuts,
    FolderItem,
    PathItem,
    RangeItem,
    WorkItem,
    plan_paths,
    plan_ranges,
)
from urlsift.engines.runner import iter_results
from urlsift.engines.work import (
    ItemResults,
    Renumbering,
    Result,
    ScanConfig,
    message_start,
    run_item,
)
from urlsift.sources.archive import ArchiveStats
from urlsift.sources.options import MailOptions

SHARED_MBOX = Path("/work/shared/corpora/mbox/linux-mips-1997.mbox.gz")


def _mbox(count: int, seed: int, crlf: bool = False) -> bytes:
    """An mbox with the lines that make splitting hard: unescaped and quoted ``From ``
    lines in bodies (mboxo and mboxrd), envelope-like lines not after an empty line, stray
    text before the first envelope, long and tiny messages."""
    rng = random.Random(seed)
    out = [b"stray text http://stray.example/ before the first envelope\n\n"]
    for i in range(1, count + 1):
        out.append(f"From s{i}@example.org Thu Sep 13 12:{i % 60:02d}:05 2001\n".encode())
        out.append(f"From: s{i}@example.org\nSubject: m{i}\nMessage-ID: <{i}@x>\n\n".encode())
        for j in range(rng.randrange(0, 30)):
            shape = rng.randrange(6)
            if shape == 0:
                out.append(b"From here we go, Thu Sep 13 12:30:05 2001 is a date\n")
            elif shape == 1:
                out.append(b">From the quoted line http://quoted.example/\n")
            elif shape == 2:
                out.append(b"\nFrom nowhere, no date at all\n")
            elif shape == 3:
                out.append(f"see http://h{i}-{j}.example/p{'x' * rng.randrange(200)}\n".encode())
            else:
                out.append(b"plain body text\n")
        out.append(b"\n")
    data = b"".join(out)
    return data.replace(b"\n", b"\r\n") if crlf else data


def _one_pass(path: str, config: ScanConfig) -> tuple[list[Result], ArchiveStats]:
    stats = ArchiveStats()
    return list(iter_results([path], config, stats=stats)), stats


def _by_ranges(
    path: str, config: ScanConfig, range_bytes: int
) -> tuple[list[Result], ArchiveStats, list[RangeItem]]:
    items = plan_ranges(path, os.path.getsize(path), range_bytes)
    results, stats = run_merged(items, config)
    return results, stats, items


def run_merged(items: list[RangeItem], config: ScanConfig) -> tuple[list[Result], ArchiveStats]:
    """Run a file's ranges one after the other and merge them in plan order."""
    stats = ArchiveStats()
    renumbering = Renumbering()
    key = object()
    results: list[Result] = []
    for item in items:
        done = run_item(item, config, stats)
        assert isinstance(done, ItemResults)
        results.extend(renumbering.merge(key, item, done))
    return results, stats


@pytest.mark.parametrize("crlf", [False, True])
@pytest.mark.parametrize("range_bytes", [1, 97, 1000, 4096, 1 << 20])
def test_ranges_give_the_records_of_one_pass(tmp_path: Path, crlf: bool, range_bytes: int) -> None:
    path = tmp_path / "a.mbox"
    path.write_bytes(_mbox(60, seed=range_bytes, crlf=crlf))
    capped = MailOptions(max_message_bytes=700)
    # kind mbox: the stray text first would make the file sniff as plain text.
    for config in (ScanConfig(kind="mbox"), ScanConfig(kind="mbox", options=capped)):
        expected, expected_stats = _one_pass(str(path), config)
        got, got_stats, items = _by_ranges(str(path), config, range_bytes)
        assert got == expected
        assert got_stats == expected_stats
    numbers = {r.context.message for r in expected if isinstance(r, Url) and r.context}
    assert max(numbers) > 60  # the stray text is message 1; some body lines split too
    if range_bytes <= 1000:
        assert len(items) >= 8


@pytest.mark.skipif(not SHARED_MBOX.exists(), reason="shared corpus not present")
def test_a_real_archive_cut_into_ranges(tmp_path: Path) -> None:
    path = tmp_path / "linux-mips-1997.mbox"
    path.write_bytes(gzip.decompress(SHARED_MBOX.read_bytes()))
    expected, expected_stats = _one_pass(str(path), ScanConfig())
    got, got_stats, items = _by_ranges(str(path), ScanConfig(), 200_000)
    assert len(items) >= 8
    assert got == expected
    assert got_stats == expected_stats
    assert expected_stats.messages > 1000


def test_message_start_follows_the_splitter_rules() -> None:
    data = (
        b"From a@b Thu Sep 13 12:30:05 2001\nSubject: x\n\n"
        b"body\nFrom me, no empty line Thu Sep 13 12:30:05 2001\n"
        b"\nFrom nobody, no date\n"
        b"\nFrom c@d Thu Sep 13 12:31:05 2001\n\nlast\n"
    )
    second = data.index(b"From c@d")
    stream = io.BytesIO(data)
    assert message_start(stream, 0, len(data)) == 0
    for offset in range(1, second + 1):
        assert message_start(stream, offset, len(data)) == second
    assert message_start(stream, second + 1, len(data)) == len(data)


def test_a_compressed_or_mmdf_file_is_not_cut_by_size(tmp_path: Path) -> None:
    plain = tmp_path / "a.mbox"
    plain.write_bytes(_mbox(3, seed=1)[data_start(_mbox(3, seed=1)) :])
    packed = tmp_path / "a.mbox.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    mmdf = tmp_path / "a.mmdf"
    mmdf.write_bytes(b"\x01\x01\x01\x01\nFrom: a@b\n\nhttp://x.example/\n\x01\x01\x01\x01\n")
    paths = [str(p) for p in (plain, packed, mmdf, tmp_path / "missing")]
    items = list(plan_paths(paths, ScanConfig(), ArchiveStats(), Cuts(range_bytes=100)))
    assert [(type(i).__name__, getattr(i, "stream", None)) for i in items] == [
        *[("RangeItem", False)] * -(-plain.stat().st_size // 100),
        ("RangeItem", True),  # one piece of the stream: a small file
        ("PathItem", None),
        ("PathItem", None),  # its run reports the error
    ]


def test_plan_ranges_covers_the_file() -> None:
    items = plan_ranges("x", 10, 3)
    assert [(i.start, i.stop) for i in items] == [(0, 3), (3, 6), (6, 9), (9, 10)]
    assert plan_ranges("x", 0, 3) == [RangeItem("x", 0, 1)]
    with pytest.raises(ValueError, match="range_bytes"):
        plan_ranges("x", 10, 0)


@pytest.mark.parametrize("taper", [1, 2, 4, 16])
@pytest.mark.parametrize("size", [1, 5_000, 123_457, 1_000_000])
def test_tapered_ranges_cover_the_file_and_shrink_toward_its_end(
    monkeypatch: pytest.MonkeyPatch, taper: int, size: int
) -> None:
    monkeypatch.setattr(plan_module, "DEFAULT_RANGE_BYTES", 1_000)  # the floor, made small
    items = plan_ranges("x", size, 40_000, taper)
    assert items[0].start == 0
    assert items[-1].stop == size
    assert all(a.stop == b.start for a, b in itertools.pairwise(items))
    sizes = [i.stop - i.start for i in items]

    def step(left: int) -> int:
        return max(1_000, min(40_000, left // taper))

    assert sizes[:-1] == [step(size - i.start) for i in items[:-1]]  # never grows
    # The last takes the rest: less than one and a half of its step, and no sliver (at
    # least half of the step before it).
    assert sizes[-1] < step(size - items[-1].start) * 3 // 2 or len(items) == 1
    if len(items) > 1:
        assert sizes[-1] >= sizes[-2] // 2
    # Never below the range size itself when that is under the floor: as without a taper.
    assert plan_ranges("x", size, 300, taper) == plan_ranges("x", size, 300)


def test_tapered_ranges_give_the_records_of_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plan_module, "DEFAULT_RANGE_BYTES", 500)
    path = tmp_path / "a.mbox"
    path.write_bytes(_mbox(60, seed=5))
    config = ScanConfig(kind="mbox")
    expected, expected_stats = _one_pass(str(path), config)
    items = plan_ranges(str(path), path.stat().st_size, 6_000, 4)
    assert len({i.stop - i.start for i in items}) > 3  # shrinking sizes, down to the floor
    got, got_stats = run_merged(items, config)
    assert got == expected
    assert got_stats == expected_stats


def test_a_taper_is_planned_per_file_and_checked() -> None:
    with pytest.raises(ValueError, match="taper"):
        plan_ranges("x", 10, 3, -1)
    with pytest.raises(ValueError, match="taper"):
        Cuts(taper=-1)
    assert Cuts().taper == 0


def test_every_item_kind_runs(tmp_path: Path) -> None:
    message = tmp_path / "1"
    message.write_bytes(b"From: a@b\n\nhttp://one.example/\n")
    config = ScanConfig()
    items: list[WorkItem] = [PathItem(str(message)), FolderItem(str(tmp_path), (str(message),), 5)]
    for item in items:
        done = run_item(item, config, ArchiveStats())
        urls = [r for r in done.results if isinstance(r, Url)]
        assert [u.url for u in urls] == ["http://one.example/"]
    folder = run_item(items[1], config, ArchiveStats()).results[0]
    assert isinstance(folder, Url)
    assert folder.context is not None
    assert folder.context.message == 5
    missing = run_item(RangeItem(str(tmp_path / "missing"), 0, 10), config, ArchiveStats())
    assert [type(r).__name__ for r in missing.results] == ["ReadFailure"]


def _submitted(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    # Every item the process pool's scheduler submits, in order (recorded in the parent).
    items: list[object] = []
    submit = parallel._Scheduler.submit

    def spy(self: parallel._Scheduler, work: object) -> object:
        items.append(work)
        return submit(self, work)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel._Scheduler, "submit", spy)
    return items


def test_the_process_pool_items_per_kind_of_archive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    items = _submitted(monkeypatch)
    data = _mbox(60, seed=3)[data_start(_mbox(60, seed=3)) :]
    plain = tmp_path / "a.mbox"
    plain.write_bytes(data)
    packed = tmp_path / "a.mbox.gz"
    packed.write_bytes(gzip.compress(data))
    mmdf = tmp_path / "a.mmdf"
    mmdf.write_bytes(
        b"".join(
            b"\x01\x01\x01\x01\nFrom: a@b\n\nhttp://m%d.example/\n\x01\x01\x01\x01\n" % n
            for n in range(200)
        )
    )

    def run(paths: list[Path]) -> list[str]:
        items.clear()
        got = list(
            parallel.iter_results_parallel(
                [str(p) for p in paths],
                ScanConfig(),
                stats=ArchiveStats(),
                jobs=2,
                batch_bytes=2000,
            )
        )
        assert got == list(iter_results([str(p) for p in paths], ScanConfig()))
        return sorted({type(item).__name__ for item in items})

    assert run([plain]) == ["RangeItem"]  # cut by the workers, whatever the number of paths
    assert run([packed]) == ["MessageBatchItem"]  # alone: split by the parent into batches
    assert run([mmdf]) == ["MessageBatchItem"]  # an MMDF archive is not cut into ranges
    # Among several paths: a compressed mbox in a few ranges of its stream, MMDF whole.
    assert run([packed, mmdf]) == ["PathItem", "RangeItem"]
    assert [(i.start > 0, i.stream) for i in items if isinstance(i, RangeItem)] == [
        (False, True),
        (True, True),
    ]
    assert run([plain, packed]) == ["RangeItem"]


def data_start(data: bytes) -> int:
    """Where the first envelope is (the generator's stray text before it makes the file
    sniff as plain text)."""
    return data.index(b"From s1@")
