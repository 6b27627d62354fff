"""Tests for the Dask engine (urlsift.engines.dask, ``urlsift scan --engine dask``).

They need the ``dask`` extra and skip without it. The cluster is a LocalCluster of two
worker processes on the loopback interface, started once for the module.
"""

from __future__ import annotations

import functools
import gzip
import io
import os
import random
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("dask", reason="the Dask engine needs the dask extra")
distributed = pytest.importorskip("distributed", reason="the Dask engine needs the dask extra")
pytest.importorskip("pyarrow", reason="the Dask engine needs the dask extra")

import dask  # noqa: E402

from _output import command_bytes  # noqa: E402
from urlsift.cli import main  # noqa: E402
from urlsift.engines import dask as udask  # noqa: E402
from urlsift.engines import plan as plan_module  # noqa: E402
from urlsift.engines.plan import FolderItem, RangeItem  # noqa: E402
from urlsift.engines.render import RenderSpec  # noqa: E402
from urlsift.engines.runner import (  # noqa: E402
    ReadFailure,
    Result,
    ScanConfig,
    iter_results,
)
from urlsift.engines.work import message_start  # noqa: E402
from urlsift.output.formats import JsonlWriter  # noqa: E402
from urlsift.output.parquet import schema  # noqa: E402
from urlsift.sources.archive import ArchiveStats  # noqa: E402

SHARED = Path("/work/shared/corpora/mbox")
SHARED_MBOXES = sorted(str(p) for p in SHARED.glob("*.mbox.gz")) if SHARED.is_dir() else []
RANGE_SOURCE = SHARED / "linux-mips-1997.mbox.gz"


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # The command's own cluster: free ports only (test_dask_ports.py holds it to that).
    with udask.local_cluster(2) as cluster, distributed.Client(cluster) as connected:
        yield connected


def _message(n: int, rng: random.Random) -> bytes:
    words = " ".join(f"http://h{n}-{i}.example/p{rng.randrange(99)}" for i in range(3))
    return f"From: s{n}@example.org\nSubject: m{n}\n\n{words}\nFrom here, a body line\n".encode()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("dask")
    rng = random.Random(5)
    maildir = root / "maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    for n in range(40):
        (maildir / ("cur" if n % 3 else "new") / f"{1000 + n}.M{n}:2,S").write_bytes(
            _message(n, rng)
        )
    if RANGE_SOURCE.exists():
        data = gzip.decompress(RANGE_SOURCE.read_bytes())
    else:
        data = b"".join(
            f"From s{n}@x Thu Sep 13 12:30:05 2001\n".encode() + _message(n, rng) + b"\n"
            for n in range(2000)
        )
    plain = root / "plain.mbox"
    plain.write_bytes(data)
    return {"maildir": str(maildir), "plain": str(plain)}


def _jsonl_sorted(results: list[Result]) -> list[str]:
    # Records as JSON Lines, sorted by (source, message offset, start) as the issue asks.
    lines = []
    for result in results:
        if isinstance(result, ReadFailure):
            continue
        out = io.StringIO()
        writer = JsonlWriter(out)
        if hasattr(result, "url"):
            writer.write(result)  # type: ignore[arg-type]
        else:
            writer.write_defects(result)  # type: ignore[arg-type]
        context = result.context
        key = (result.source, context.message_offset if context else -1)
        lines.append((key, getattr(result, "start", -1), out.getvalue()))
    return [line for _, _, line in sorted(lines, key=lambda t: (t[0], t[1]))]


def _local(paths: list[str]) -> tuple[list[Result], ArchiveStats]:
    stats = ArchiveStats()
    return list(iter_results(paths, ScanConfig(), stats=stats)), stats


def test_cli_dask_and_local_give_the_same_records(
    client: Any, inputs: dict[str, str], tmp_path: Path
) -> None:
    paths = [*SHARED_MBOXES, inputs["maildir"], inputs["plain"], str(tmp_path / "missing")]
    address = client.scheduler.address
    runner = CliRunner()
    local = runner.invoke(main, ["scan", "--format", "jsonl", *paths])
    dasked = runner.invoke(
        main, ["scan", "--engine", "dask", "--scheduler", address, "--format", "jsonl", *paths]
    )
    assert local.exit_code == dasked.exit_code == 2  # the missing path, in both
    assert "cannot read" in dasked.output
    assert sorted(local.output.splitlines()) == sorted(dasked.output.splitlines())
    assert local.output == dasked.output  # the same order, too


def test_ranges_on_the_cluster_give_the_numbers_of_one_pass(
    client: Any, inputs: dict[str, str]
) -> None:
    paths = [inputs["plain"], inputs["maildir"]]
    range_bytes = 40_003  # not a message boundary: most ranges start inside a message
    items = udask.plan(paths, ScanConfig(), range_bytes=range_bytes, folder_batch=7)
    ranges = [item for item in items if isinstance(item, RangeItem)]
    assert len(ranges) >= 8
    with open(inputs["plain"], "rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        inside = [r for r in ranges if message_start(stream, r.start, size) != r.start]
    assert len(inside) >= 4
    assert sum(isinstance(item, FolderItem) for item in items) >= 5
    expected, expected_stats = _local(paths)
    stats = ArchiveStats()
    got = list(
        udask.iter_results_dask(
            paths,
            ScanConfig(),
            stats=stats,
            client=client,
            range_bytes=range_bytes,
            folder_batch=7,
        )
    )
    assert _jsonl_sorted(got) == _jsonl_sorted(expected)
    assert got == expected
    assert stats == expected_stats


def test_tapered_ranges_on_the_cluster_write_what_one_process_writes(
    client: Any, inputs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The client plans (and tapers) the ranges: with the floor made small here, the ranges
    # of this small file shrink toward its end as those of a big one do, and the
    # workers' rendered pieces (bytes, numbers cut out and filled in) are one pass's text.
    monkeypatch.setattr(plan_module, "DEFAULT_RANGE_BYTES", 5_000)
    paths = [inputs["plain"]]
    assert udask._cluster_cuts(paths, client, 40_003) == (40_003, 2 * plan_module.TAPER_PER_WORKER)
    items = udask.plan(paths, ScanConfig(), range_bytes=40_003, taper=4)
    sizes = [item.stop - item.start for item in items if isinstance(item, RangeItem)]
    assert sizes[0] == 40_003 > sizes[-2] >= 5_000
    stats = ArchiveStats()
    pieces = list(
        udask.iter_rendered_dask(
            paths,
            ScanConfig(),
            RenderSpec("jsonl"),
            stats=stats,
            client=client,
            range_bytes=40_003,
        )
    )
    assert len(pieces) == len(items)
    expected, expected_stats = _local(paths)
    assert command_bytes(pieces, "jsonl") == command_bytes(expected, "jsonl")
    assert stats == expected_stats


def test_a_killed_worker_loses_nothing(client: Any, inputs: dict[str, str]) -> None:
    paths = [inputs["plain"], inputs["maildir"]]
    expected, _ = _local(paths)
    pids = client.run(os.getpid)
    stream = udask.iter_results_dask(
        paths, ScanConfig(), stats=ArchiveStats(), client=client, range_bytes=10_000
    )
    got = [next(stream)]  # the tasks are submitted and the first partition is back
    os.kill(sorted(pids.values())[0], signal.SIGKILL)
    got.extend(stream)
    assert got == expected
    client.wait_for_workers(2, timeout=60)  # the nanny restarts it for the next tests


def test_bag_and_frame(client: Any, inputs: dict[str, str]) -> None:
    paths = [inputs["plain"], inputs["maildir"]]
    expected, _ = _local(paths)
    bag = udask.records_bag(paths, range_bytes=100_000, folder_batch=10)
    assert bag.npartitions >= 8
    assert bag.compute() == expected
    frame = udask.records_frame(paths, range_bytes=100_000)
    table = frame.compute()
    assert list(table.columns) == schema().names
    assert len(table) == sum(not isinstance(r, ReadFailure) for r in expected)
    assert set(table["record"]) == {"url", "defects"} or set(table["record"]) == {"url"}


def test_memory_paths_through_fsspec(inputs: dict[str, str]) -> None:
    fsspec = pytest.importorskip("fsspec", reason="remote paths need fsspec (dask extra)")
    data = Path(inputs["plain"]).read_bytes()[:200_000]
    with fsspec.open("memory://urlsift-test/list.mbox", "wb") as target:
        target.write(data)
    local_copy = Path(inputs["plain"]).with_name("memory-copy.mbox")
    local_copy.write_bytes(data)
    expected, _ = _local([str(local_copy)])
    # memory:// lives in this process: the synchronous scheduler runs the task here.
    with dask.config.set(scheduler="sync"):
        got = udask.records_bag(["memory://urlsift-test/list.mbox"]).compute()
    renamed = [
        r.source.replace("memory://urlsift-test/list.mbox", str(local_copy))
        for r in got
        if not isinstance(r, ReadFailure)
    ]
    assert renamed == [r.source for r in expected if not isinstance(r, ReadFailure)]
    assert [getattr(r, "url", None) for r in got] == [getattr(r, "url", None) for r in expected]
    with dask.config.set(scheduler="sync"):
        missing = udask.records_bag(["memory://urlsift-test/none"]).compute()
    assert [type(r).__name__ for r in missing] == ["ReadFailure"]


def test_standard_input_is_refused() -> None:
    with pytest.raises(ValueError, match="standard input"):
        udask.plan(["-"], ScanConfig())
    result = CliRunner().invoke(main, ["scan", "--scheduler", "tcp://127.0.0.1:1", "x"])
    assert result.exit_code == 2
    assert "--scheduler is for --engine dask" in result.output


def test_the_frame_writes_parquet_from_the_workers(
    client: Any, inputs: dict[str, str], tmp_path: Path
) -> None:
    import pyarrow
    import pyarrow.parquet

    from urlsift.output.parquet import records_table

    paths = [inputs["plain"], inputs["maildir"]]
    frame = udask.records_frame(paths, range_bytes=300_000, folder_batch=15)
    frame.to_parquet(str(tmp_path / "out"), write_index=False)  # on the cluster's workers
    files = sorted((tmp_path / "out").glob("part.*.parquet"), key=lambda p: int(p.stem[5:]))
    assert len(files) == frame.npartitions
    written = pyarrow.concat_tables([pyarrow.parquet.read_table(f) for f in files])
    expected = records_table(_local(paths)[0])
    assert written.schema.equals(expected.schema)
    assert written.equals(expected)


@pytest.fixture
def odd_inputs(inputs: dict[str, str], tmp_path: Path) -> list[str]:
    # Besides the module's inputs: a message with a source defect and one whose subject
    # holds the noncharacter the workers' marks use (engines.render), past the first range.
    odd = tmp_path / "odd.mbox"
    marks = "odd \ufdd0 1 \ufdd1"
    odd.write_bytes(
        b"".join(
            f"From s{n}@x Thu Sep 13 12:30:05 2001\nFrom: s{n}@x\n"
            f"Subject: {marks if n == 250 else n}\nMIME-Version: 1.0\n"
            f"Content-Type: text/plain; charset={'x-nonsense' if n % 40 == 0 else 'utf-8'}\n\n"
            f"http://h{n}.example/ and <URL:http://h{n}.example/a{{b}}>\n\n".encode()
            for n in range(1, 400)
        )
    )
    return [inputs["plain"], str(odd), inputs["maildir"], str(tmp_path / "missing")]


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
@pytest.mark.parametrize("options", [[], ["--invalid-only", "-v", "--check"]], ids=" ".join)
def test_cli_workers_write_what_one_process_writes(
    client: Any,
    odd_inputs: list[str],
    monkeypatch: pytest.MonkeyPatch,
    fmt: str,
    options: list[str],
) -> None:
    # Small ranges: most start past their file's first message (their numbers are the
    # client's to fill in); the workers write the text (engines.render).
    rendered = udask.iter_rendered_dask
    monkeypatch.setattr(
        udask,
        "iter_rendered_dask",
        functools.partial(rendered, range_bytes=40_003, folder_batch=7),
    )
    runner = CliRunner()
    local = runner.invoke(main, ["scan", "--format", fmt, *options, *odd_inputs])
    address = client.scheduler.address
    dasked = runner.invoke(
        main,
        [
            *("scan", "--engine", "dask", "--scheduler", address),
            *("--format", fmt, *options, *odd_inputs),
        ],
    )
    assert local.exit_code == 2
    assert "charset" in local.output
    assert dasked.output == local.output
    assert dasked.exit_code == local.exit_code


def _settings() -> tuple[object, ...]:
    return tuple(dask.config.get(key) for key in udask.CLUSTER_CONFIG)


def test_the_local_clusters_workers_run_with_its_settings(client: Any) -> None:
    # The timers local_cluster slows down are slowed in the workers too (a worker process
    # gets the configuration its nanny was made with).
    assert set(client.run(_settings).values()) == {tuple(udask.CLUSTER_CONFIG.values())}


def test_cluster_ranges_grow_with_the_input_and_shrink_with_the_workers(tmp_path: Path) -> None:
    # cluster_range_bytes: RANGES_PER_WORKER ranges a worker where the input allows,
    # between DEFAULT_RANGE_BYTES and CLUSTER_RANGE_BYTES. Sizes from sparse files.
    least, most = udask.DEFAULT_RANGE_BYTES, udask.CLUSTER_RANGE_BYTES
    per = udask.RANGES_PER_WORKER
    mib = 1 << 20
    assert least == 4 * mib
    assert most == 16 * mib

    def sized(name: str, size: int) -> str:
        path = tmp_path / name
        with path.open("wb") as out:
            out.truncate(size)
        return str(path)

    six = sized("six.mbox", 2 * per * 6 * mib)  # six MiB a range for two workers
    huge = sized("huge.mbox", 2 * per * 40 * mib)
    small = sized("small.mbox", 3 * mib)
    assert udask.cluster_range_bytes([six], 2) == 6 * mib
    assert udask.cluster_range_bytes([six], 1) == 12 * mib
    assert udask.cluster_range_bytes([six], 4) == least  # 3 MiB: the least
    assert udask.cluster_range_bytes([huge], 2) == most  # 40 MiB: the most
    assert udask.cluster_range_bytes([huge], 10) == 8 * mib
    assert udask.cluster_range_bytes([small], 1) == least
    assert udask.cluster_range_bytes([], 2) == least
    # The sizes of several files add up; folders, URLs and missing paths count nothing.
    assert udask.cluster_range_bytes([six, six], 2) == 12 * mib
    others = [str(tmp_path), "memory://x.mbox", str(tmp_path / "missing")]
    assert udask.cluster_range_bytes([six, *others], 2) == 6 * mib
    assert udask.cluster_range_bytes([six], 0) == 12 * mib  # no worker known: taken as one
