"""Hostile input, round two (issue 24), on the Dask engine.

* Item 5: a relative path was opened by the worker in its own working folder (a different
  file of the same name was scanned, exit 0); it is now joined to the client's working
  folder before its task travels, and the records still name it as given.
* Item 9 (engine part): ``s3://`` without s3fs, ``http://`` without aiohttp, or an unknown
  protocol gave a traceback; it is a usage error that names the protocol.
* Item 4 (the workers' writer): Parquet parts are written under temporary names and made
  final, with a completion marker, only when every partition is written; a non-empty
  output folder is refused unless ``--overwrite``.

Needs the ``dask`` extra (skips without it); one LocalCluster of one worker process,
started in another folder than the one the client scans from.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("dask", reason="the Dask engine needs the dask extra")
distributed = pytest.importorskip("distributed", reason="the Dask engine needs the dask extra")
pytest.importorskip("pyarrow", reason="Parquet output needs the dask extra")

import pyarrow.parquet as pq  # noqa: E402

from urlsift.cli import main  # noqa: E402
from urlsift.engines import dask as udask  # noqa: E402
from urlsift.engines.runner import ScanConfig  # noqa: E402
from urlsift.errors import ConfigError  # noqa: E402
from urlsift.sources.reading import ArchiveStats  # noqa: E402


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("dask-hostile")
    worker, client = root / "worker", root / "client"
    # mbox archives: a worker opens them (plain text is read by the planner, on the client)
    for folder, host in ((worker, "wrong"), (client, "right")):
        (folder / "docs").mkdir(parents=True)
        (folder / "doc.mbox").write_text(_mbox(f"see http://{host}.example/a"))
        (folder / "docs" / "n.mbox").write_text(_mbox(f"and <URL:http://{host}.example/b>"))
    return {"worker": worker, "client": client}


def _mbox(body: str) -> str:
    return f"From a@example.org Thu Sep 13 12:30:05 2001\nFrom: a@example.org\n\n{body}\n\n"


@pytest.fixture(scope="module")
def client(folders: dict[str, Path]) -> Iterator[Any]:
    # The worker process starts in "worker": its working folder is not the client's.
    here = os.getcwd()
    os.chdir(folders["worker"])
    try:
        # A dashboard on a free port: another cluster on this machine may hold 8787.
        cluster = distributed.LocalCluster(
            n_workers=1,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
        )
        with cluster, distributed.Client(cluster) as connected:
            os.chdir(here)
            yield connected
    finally:
        os.chdir(here)


def test_relative_paths_are_the_clients(
    client: Any, folders: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(folders["client"])
    paths = ["doc.mbox", "./docs", "../client/doc.mbox"]
    found = udask.iter_results_dask(paths, ScanConfig(), stats=ArchiveStats(), client=client)
    records = [(r.source, r.url) for r in found]  # type: ignore[union-attr]
    assert records == [
        ("doc.mbox", "http://right.example/a"),
        ("./docs/n.mbox", "http://right.example/b"),
        ("../client/doc.mbox", "http://right.example/a"),
    ]
    bag = udask.records_bag(paths).compute(scheduler=client)
    assert [(r.source, r.url) for r in bag] == records


def test_relative_paths_for_the_workers_parquet(
    client: Any, folders: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(folders["client"])
    written = list(
        udask.write_parquet_dask(
            ["doc.mbox"], ScanConfig(), "out-rel", stats=ArchiveStats(), client=client
        )
    )
    assert [w.urls for w in written] == [1]
    table = pq.read_table(folders["client"] / "out-rel" / "part-00000.parquet")
    assert table.column("url").to_pylist() == ["http://right.example/a"]
    assert table.column("source").to_pylist() == ["doc.mbox"]


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("s3://bucket/list.mbox", "s3"),
        ("http://archive.example/list.mbox", "http"),
        ("foo://x/y.mbox", "foo"),
    ],
)
def test_a_protocol_fsspec_cannot_serve_is_a_usage_error(path: str, says: str) -> None:
    pytest.importorskip("fsspec")
    import fsspec

    protocol = path.split(":")[0]
    try:
        fsspec.get_filesystem_class(protocol)
    except (ImportError, ValueError):
        pass
    else:
        pytest.skip(f"this installation serves {protocol}://")
    with pytest.raises(ConfigError, match=f"{says}://"):
        udask.plan([path], ScanConfig())
    result = CliRunner().invoke(main, ["scan", "--engine", "dask", path])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert f"cannot serve {says}://" in result.output


def test_the_workers_parts_are_final_only_when_the_run_is(
    client: Any, folders: dict[str, Path]
) -> None:
    out = folders["client"] / "out-dask"
    paths = [str(folders["client"] / "doc.mbox"), str(folders["client"] / "docs")]

    def run(overwrite: bool = False) -> list[Any]:
        return list(
            udask.write_parquet_dask(
                paths,
                ScanConfig(),
                str(out),
                stats=ArchiveStats(),
                client=client,
                overwrite=overwrite,
            )
        )

    written = run()
    names = sorted(p.name for p in out.iterdir())
    assert names == ["_SUCCESS", "part-00000.parquet", "part-00001.parquet"]
    assert [Path(w.path).name for w in written] == names[1:]
    with pytest.raises(ConfigError, match="not empty"):
        run()
    (out / "mine.txt").write_text("keep me\n")
    with pytest.raises(ConfigError, match="did not write"):
        run(overwrite=True)
    assert (out / "mine.txt").read_text() == "keep me\n"
    (out / "mine.txt").unlink()
    run(overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == names
    urls = [u for n in names[1:] for u in pq.read_table(out / n).column("url").to_pylist()]
    assert urls == ["http://right.example/a", "http://right.example/b"]
