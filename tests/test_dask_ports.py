"""Dask beside another Dask service on the host (issue 25, item 2).

A scheduler elsewhere on the machine holds the default ports (8786 for the scheduler, 8787
for its HTTP server and dashboard). The clusters urlsift starts, in the library, the
command line and the tests, must then neither warn ("Port 8787 is already in use", an error
under the test suite's warnings filter) nor print distributed's warning on stderr. The
ports are taken first, by listening sockets here (or already, by a real scheduler).
"""

from __future__ import annotations

import errno
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("dask", reason="the Dask engine needs the dask extra")
distributed = pytest.importorskip("distributed", reason="the Dask engine needs the dask extra")
pytest.importorskip("pyarrow", reason="the Dask engine needs the dask extra")

from urlsift.engines import dask as udask  # noqa: E402

RFC = Path(__file__).resolve().parent.parent / "corpora" / "rfc" / "rfc1738.txt"
DASK_PORTS = (8786, 8787)


def _taken(port: int) -> bool:
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.bind(("127.0.0.1", port))
    except OSError as exc:
        return exc.errno == errno.EADDRINUSE
    finally:
        probe.close()
    return False


@pytest.fixture
def ports_taken() -> Iterator[None]:
    """Listen on 8786 and 8787 (unless something already does) for the test's duration."""
    held = []
    for port in DASK_PORTS:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.bind(("", port))
            sock.listen()
            held.append(sock)
        except OSError as exc:
            sock.close()
            if exc.errno != errno.EADDRINUSE:
                raise
    try:
        assert all(_taken(port) for port in DASK_PORTS)
        yield
    finally:
        for sock in held:
            sock.close()


@pytest.mark.usefixtures("ports_taken")
def test_local_cluster_starts_quietly_beside_another_scheduler(
    recwarn: pytest.WarningsRecorder,
) -> None:
    # Under filterwarnings=error a port warning would raise here; recwarn records the rest.
    with udask.local_cluster(1) as cluster, distributed.Client(cluster) as client:
        assert client.submit(sum, [1, 2]).result() == 3
        address = cluster.scheduler.address
        http = cluster.scheduler.http_server.port
    assert not address.endswith((":8786", ":8787"))
    assert http not in DASK_PORTS
    assert [str(w.message) for w in recwarn if "already in use" in str(w.message)] == []


@pytest.mark.usefixtures("ports_taken")
def test_cli_engine_dask_prints_no_port_warning() -> None:
    command = [sys.executable, "-m", "urlsift", "scan", "--engine", "dask", "-j", "2", str(RFC)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 30  # the 30 URLs of RFC 1738
    assert "already in use" not in done.stderr
    assert done.stderr.splitlines() == ["urlsift: 30 URLs (0 invalid) from 1 file"]
