"""Tests for the plan items that the planner reads itself (engines.plan, engines.work).

Message batches of an archive, pieces and the tail of a plain-text file, and a failure
met while reading are plan items like ranges and folder batches: run one after the
other with ``run_item``, they give the records and totals of one sequential pass.
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from test_plan import _mbox
from urlsift import Url
from urlsift.engines.plan import (
    Cuts,
    FailedItem,
    MessageBatchItem,
    TextPieceItem,
    TextTailItem,
    WorkItem,
    plan_paths,
)
from urlsift.engines.runner import iter_results
from urlsift.engines.work import ReadFailure, Renumbering, Result, ScanConfig, iter_item, run_item
from urlsift.sources.archive import ArchiveStats

RFC = Path(__file__).resolve().parent.parent / "corpora" / "rfc" / "rfc1738.txt"


def _run_plan(
    paths: list[str], config: ScanConfig, cuts: Cuts
) -> tuple[list[Result], ArchiveStats, list[WorkItem]]:
    """Plan, then run every item here in plan order (as an engine would, one at a time)."""
    stats = ArchiveStats()
    items = list(plan_paths(paths, config, stats, cuts, config.options))
    renumbering = Renumbering()
    results: list[Result] = []
    key = object()
    for item in items:
        done = run_item(item, config, stats)
        if hasattr(item, "start"):
            results.extend(renumbering.merge(key, item, done))  # type: ignore[arg-type]
        else:
            results.extend(done.results)
    return results, stats, items


def _one_pass(paths: list[str], config: ScanConfig) -> tuple[list[Result], ArchiveStats]:
    stats = ArchiveStats()
    return list(iter_results(paths, config, stats=stats)), stats


def _text(lines: int, seed: int, blank_every: int | None) -> str:
    rng = random.Random(seed)
    out = []
    for i in range(lines):
        if blank_every and i % blank_every == 0:
            out.append("")
        elif rng.randrange(3) == 0:
            out.append(f"see <URL:http://h{i}.example/a-")
        else:
            out.append(f"word {i} http://w{i}.example/{'p' * rng.randrange(40)}")
    return "\n".join(out) + "\n"


def test_text_pieces_and_tail_give_one_pass(tmp_path: Path) -> None:
    cut = tmp_path / "cut.txt"
    cut.write_text(_text(3000, 1, 7), encoding="utf-8")
    # Blank lines at first, then none: pieces, then the tail of the file.
    tail = tmp_path / "tail.txt"
    tail.write_text(_text(300, 2, 5) + _text(3000, 3, None), encoding="utf-8")
    packed = tmp_path / "packed.txt.gz"
    packed.write_bytes(gzip.compress(cut.read_bytes()))
    paths = [str(cut), str(tail), str(packed), str(RFC)]
    cuts = Cuts(text_chars=2000, text_pieces=3)
    for config in (ScanConfig(), ScanConfig(kind="text")):
        got, stats, items = _run_plan(paths, config, cuts)
        expected, expected_stats = _one_pass(paths, config)
        assert got == expected
        assert stats == expected_stats
        kinds = [type(i).__name__ for i in items]
        assert kinds.count("TextTailItem") == 1
        assert kinds.count("TextPieceItem") > 20
        tail_item = next(i for i in items if isinstance(i, TextTailItem))
        assert tail_item.path == str(tail)
        assert tail_item.origin[0] > 0


def test_message_batches_give_one_pass(tmp_path: Path) -> None:
    data = _mbox(80, seed=4)
    data = data[data.index(b"From s1@") :]
    packed = tmp_path / "a.mbox.gz"
    packed.write_bytes(gzip.compress(data))
    truncated = tmp_path / "b.mbox.gz"
    truncated.write_bytes(gzip.compress(data)[:-400])
    for path in (packed, truncated):
        cuts = Cuts(batches=True, batch_bytes=1500, batch_messages=5)
        got, stats, items = _run_plan([str(path)], ScanConfig(), cuts)
        expected, expected_stats = _one_pass([str(path)], ScanConfig())
        assert got == expected
        assert stats == expected_stats
        assert all(isinstance(i, MessageBatchItem) for i in items)
        assert len(items) > 10
        assert all(len(i.messages) <= 5 for i in items if isinstance(i, MessageBatchItem))
    assert any("stream-read-error" in repr(r) for r in got)


def test_failed_item_and_streaming_run() -> None:
    failed = FailedItem("x.mbox", "Input/output error")
    assert run_item(failed, ScanConfig(), ArchiveStats()).results == [
        ReadFailure("x.mbox", "Input/output error")
    ]
    piece = TextPieceItem("t.txt", "\n\nsee http://a.example/ now\n", (100, 7))
    (url,) = list(iter_item(piece, ScanConfig(), ArchiveStats()))
    assert isinstance(url, Url)
    assert (url.start, url.line) == (106, 9)


def test_cuts_are_checked() -> None:
    with pytest.raises(ValueError, match="text_chars"):
        Cuts(text_chars=0)
    assert Cuts(long_bytes=0).long_bytes == 0


@pytest.mark.parametrize("kind", ["mbox", "text", "auto"])
def test_a_fifo_of_any_kind_is_read_once(tmp_path: Path, kind: str) -> None:
    # A pipe is one item that the engine reads itself, whatever kind is asked: the planner
    # must not open it (what it read would be lost to the item's run).
    import os
    import threading

    from urlsift.engines import processes as parallel

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    data = _mbox(20, seed=4)
    data = data[data.index(b"From s1@") :]
    other = tmp_path / "other.mbox"
    other.write_bytes(data)
    config = ScanConfig(kind=kind)  # type: ignore[arg-type]

    def run(jobs: int) -> list[Result]:
        writer = threading.Thread(target=fifo.write_bytes, args=(data,), daemon=True)
        writer.start()
        try:
            paths = [str(fifo), str(other)]
            if jobs == 1:
                return list(iter_results(paths, config))
            return list(
                parallel.iter_results_parallel(
                    paths, config, stats=ArchiveStats(), jobs=jobs, batch_bytes=500
                )
            )
        finally:
            writer.join(10)

    assert run(2) == run(1)
    items = list(plan_paths([str(fifo)], config, ArchiveStats()))
    assert [type(i).__name__ for i in items] == ["PathItem"]


def test_the_merger_groups_renumbers_and_stops() -> None:
    from urlsift import MessageContext
    from urlsift.engines.plan import FolderItem, PathItem, RangeItem
    from urlsift.engines.work import ItemResults, Merger, UnitDefects

    def record(message: int) -> UnitDefects:
        return UnitDefects("a", MessageContext(message=message, message_offset=0), ())

    merger = Merger()
    plan: list[WorkItem] = [
        RangeItem("a", 0, 10),
        RangeItem("a", 10, None),
        RangeItem("a", 0, 10),  # the same file again: a new scan, numbered afresh
        RangeItem("a", 10, None),
        FolderItem("f", ("1", "2"), 1),
        FolderItem("f", ("3",), 3),  # dropped: the batch before it stopped the folder
        PathItem("p"),
        FolderItem("f", ("1",), 1),  # the folder again: read
    ]
    groups = [merger.group(item) for item in plan]
    assert groups[0] is groups[1] is not groups[2]
    assert groups[4] is groups[5] is not groups[7]
    assert groups[6] is None
    outcomes = [
        ItemResults([record(1), record(2)], 2),
        ItemResults([record(1)], 1),
        ItemResults([record(1)], 1),
        ItemResults([record(1)], 1),
        ItemResults([record(1), ReadFailure("f", "x")], 0, stopped=True),
        ItemResults([record(3)], 0),
        ItemResults([], 0),
        ItemResults([record(1)], 0),
    ]
    merged = [merger.merge(i, g, o) for i, g, o in zip(plan, groups, outcomes, strict=True)]
    numbers = [
        [r.context.message for r in m if isinstance(r, UnitDefects) and r.context] for m in merged
    ]
    assert numbers == [[1, 2], [3], [1], [2], [1], [], [], [1]]
