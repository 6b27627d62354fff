"""The Dask engine runs the same plan as the process pool (engines.dask, engines.plan).

A big plain-text file spreads over the workers in pieces cut at blank lines, a compressed
mbox given alone in ranges of its stream; ``--format parquet`` is written by the workers,
one file per partition, and reads back as the local engine's output. Needs the ``dask``
extra (skips without it); the cluster is a LocalCluster of two worker processes on the
loopback interface.
"""

from __future__ import annotations

import gzip
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("dask", reason="the Dask engine needs the dask extra")
distributed = pytest.importorskip("distributed", reason="the Dask engine needs the dask extra")
pytest.importorskip("pyarrow", reason="Parquet output needs the dask extra")

import pyarrow  # noqa: E402
import pyarrow.parquet  # noqa: E402

from urlsift.cli import main  # noqa: E402
from urlsift.engines import dask as udask  # noqa: E402
from urlsift.engines.plan import RangeItem, TextPieceItem  # noqa: E402
from urlsift.engines.runner import Result, ScanConfig, iter_results  # noqa: E402
from urlsift.sources.archive import ArchiveStats  # noqa: E402

RFC = Path(__file__).resolve().parent.parent / "corpora" / "rfc" / "rfc1738.txt"


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with udask.local_cluster(2) as cluster, distributed.Client(cluster) as connected:
        yield connected


def _mbox(count: int, seed: int) -> bytes:
    rng = random.Random(seed)
    out = []
    for n in range(1, count + 1):
        out.append(f"From s{n}@example.org Thu Sep 13 12:30:05 2001\n".encode())
        words = " ".join(f"http://h{n}-{i}.example/{rng.randrange(99)}" for i in range(3))
        out.append(f"From: s{n}@example.org\nSubject: m{n}\n\n{words}\n".encode())
        out.append(f"and <URL:http://h{n}.example/a{{b}}> (invalid)\n\n".encode())
    return b"".join(out)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("dask-items")
    text = root / "big.txt"
    text.write_text(RFC.read_text(encoding="utf-8") * 6, encoding="utf-8")
    packed = root / "list.mbox.gz"
    packed.write_bytes(gzip.compress(_mbox(3000, seed=1)))
    return {"text": str(text), "packed": str(packed)}


def _local(paths: list[str]) -> tuple[list[Result], ArchiveStats]:
    stats = ArchiveStats()
    return list(iter_results(paths, ScanConfig(), stats=stats)), stats


@pytest.mark.parametrize("which", ["text", "packed"])
def test_one_big_file_spreads_over_the_workers(
    client: Any, inputs: dict[str, str], which: str
) -> None:
    paths = [inputs[which]]
    items = udask.plan(paths, ScanConfig(), range_bytes=100_000)
    kind = TextPieceItem if which == "text" else RangeItem
    assert len(items) >= 2
    assert all(isinstance(item, kind) for item in items)
    expected, expected_stats = _local(paths)
    stats = ArchiveStats()
    got = list(
        udask.iter_results_dask(
            paths, ScanConfig(), stats=stats, client=client, range_bytes=100_000
        )
    )
    assert got == expected
    assert stats == expected_stats
    # The work ran on both workers.
    assert len(client.run(lambda: 0)) == 2


def _table(folder: Path) -> Any:
    files = sorted(folder.glob("part-*.parquet"))
    return files, pyarrow.concat_tables([pyarrow.parquet.read_table(f) for f in files])


@pytest.mark.parametrize("options", [[], ["--invalid-only", "--check"]])
def test_cli_parquet_is_written_by_the_workers(
    client: Any, inputs: dict[str, str], tmp_path: Path, options: list[str]
) -> None:
    paths = [inputs["packed"], inputs["text"], str(tmp_path / "missing")]
    runner = CliRunner()
    local = runner.invoke(
        main, ["scan", "--format", "parquet", "--output", str(tmp_path / "l"), *options, *paths]
    )
    address = client.scheduler.address
    dasked = runner.invoke(
        main,
        [
            *("scan", "--engine", "dask", "--scheduler", address, "--format", "parquet"),
            *("--output", str(tmp_path / "d"), *options, *paths),
        ],
    )
    assert dasked.exit_code == local.exit_code == 2, dasked.output
    assert f"cannot read {tmp_path / 'missing'}" in dasked.output
    assert dasked.output == local.output
    _, expected = _table(tmp_path / "l")
    files, written = _table(tmp_path / "d")
    items = udask.plan(paths, ScanConfig())
    assert len(files) == len(items) > 2  # one file per partition
    assert written.schema.equals(expected.schema)
    assert written.equals(expected)
    assert expected.num_rows > 1000


def test_library_parquet_without_records(client: Any, tmp_path: Path) -> None:
    stats = ArchiveStats()
    written = list(
        udask.write_parquet_dask([], ScanConfig(), str(tmp_path / "e"), stats=stats, client=client)
    )
    assert [w.rows for w in written] == [0]
    files, table = _table(tmp_path / "e")
    assert len(files) == 1
    assert table.num_rows == 0


def test_an_mbox_behind_a_url_is_cut_into_ranges(tmp_path: Path) -> None:
    import dask
    import fsspec

    data = _mbox(2000, seed=2)
    url = "memory://urlsift-items/list.mbox"
    with fsspec.open(url, "wb") as target:
        target.write(data)
    local_copy = tmp_path / "list.mbox"
    local_copy.write_bytes(data)
    expected, expected_stats = _local([str(local_copy)])
    items = udask.plan([url], ScanConfig(), range_bytes=20_003)
    assert len(items) >= 8
    assert all(isinstance(item, RangeItem) and item.path == url for item in items)
    stats = ArchiveStats()
    # memory:// lives in this process: the synchronous scheduler runs the tasks here.
    with dask.config.set(scheduler="sync"):
        pieces = dask.compute(*udask._pieces(items, ScanConfig()))
    got = [r for results, delta in pieces for r in results]
    for _, delta in pieces:
        udask.add_stats(stats, delta)
    renamed = [replace(r, source=str(local_copy)) for r in got]  # type: ignore[type-var]
    assert renamed == expected
    assert stats == expected_stats
    assert sum(1 for r in got if getattr(r, "context", None)) > 4000


def test_workers_drop_the_partitions_the_client_has(
    client: Any, inputs: dict[str, str], tmp_path: Path
) -> None:
    # Worker memory stays bounded: once a partition's records are with the client, the
    # workers forget them (they held every partition to the end of the run before).
    import time

    path = tmp_path / "list.mbox"
    path.write_bytes(gzip.decompress(Path(inputs["packed"]).read_bytes()))
    held: list[int] = []

    def keys_held() -> int:
        counts = client.run(lambda dask_worker: len(dask_worker.data))
        return int(sum(counts.values()))

    def on_task(done: int, total: int) -> None:
        if done == total:  # every partition is computed; all but this one are consumed
            deadline = time.monotonic() + 10
            while keys_held() > 4 and time.monotonic() < deadline:
                time.sleep(0.05)
            held.append(keys_held())

    items = udask.plan([str(path)], ScanConfig(), range_bytes=20_000)
    assert len(items) >= 10
    got = list(
        udask.iter_results_dask(
            [str(path)],
            ScanConfig(),
            stats=ArchiveStats(),
            client=client,
            range_bytes=20_000,
            on_task=on_task,
        )
    )
    assert got == _local([str(path)])[0]
    assert held
    assert held[0] <= 4


def test_cli_refuses_standard_input_before_starting_a_cluster() -> None:
    result = CliRunner().invoke(
        main, ["scan", "--engine", "dask", "-"], input="http://x.example/\n"
    )
    assert result.exit_code == 2
    assert "--engine dask cannot read standard input" in result.output


def test_text_without_blank_lines_is_a_tail_task(tmp_path: Path) -> None:
    import dask

    from urlsift.engines.plan import TextTailItem

    path = tmp_path / "tail.txt"
    lines = "".join(f"line {i} http://h{i}.example/p\n" for i in range(3000))
    path.write_text("intro http://a.example/\n\n" + lines, encoding="utf-8")
    items = udask.plan([str(path)], ScanConfig(), range_bytes=4000)
    assert [type(item) for item in items] == [TextTailItem]
    with dask.config.set(scheduler="sync"):
        got = udask.records_bag([str(path)], range_bytes=4000).compute()
    assert got == _local([str(path)])[0]
    assert len(got) == 3001


def test_cli_parquet_summary_counts_the_defects(client: Any, tmp_path: Path) -> None:
    # The workers write the defect rows; the client's summary still counts them by code.
    archive = tmp_path / "defects.mbox"
    archive.write_bytes(
        b"".join(
            f"From s{n}@x Thu Sep 13 12:30:05 2001\nFrom: s{n}@x\nMIME-Version: 1.0\n"
            f"Content-Type: text/plain; charset={'x-nonsense' if n % 3 else 'utf-8'}\n\n"
            f"http://h{n}.example/\n\n".encode()
            for n in range(1, 30)
        )
    )
    runner = CliRunner()
    local = runner.invoke(
        main, ["scan", "--format", "parquet", "--output", str(tmp_path / "l"), str(archive)]
    )
    dasked = runner.invoke(
        main,
        [
            *("scan", "--engine", "dask", "--scheduler", client.scheduler.address),
            *("--format", "parquet", "--output", str(tmp_path / "d"), str(archive)),
        ],
    )
    assert local.exit_code == dasked.exit_code == 0
    assert "20 defects: unknown-charset 20;" in local.output
    assert dasked.output == local.output
