"""Tests for the parallel scan (engines.processes): same records, same order, same totals."""

from __future__ import annotations

import base64
import gzip
import io
import multiprocessing
import os
import random
import sys
import threading
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypedDict

import pytest

from urlsift import Url
from urlsift.engines import processes as parallel
from urlsift.engines.plan import FolderItem
from urlsift.engines.runner import (
    ReadFailure,
    Result,
    ScanConfig,
    UnitDefects,
    iter_results,
)
from urlsift.errors import ConfigError
from urlsift.sources import archive
from urlsift.sources.archive import ArchiveStats, MailOptions

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "mail"
SHARED_MBOX = Path("/work/shared/corpora/mbox/linux-mips-1997.mbox.gz")
FORK = multiprocessing.get_context("fork") if sys.platform == "linux" else None


class _Batching(TypedDict):
    batch_bytes: int
    batch_messages: int


SMALL = _Batching(batch_bytes=2048, batch_messages=7)
"""Small batches, so that every archive here makes many."""


# -- inputs ---------------------------------------------------------------------------


def _message(i: int, rng: random.Random) -> bytes:
    """One message of a varied archive: URLs in many shapes, some broken MIME."""
    host = f"host{i % 13}.example.org"
    head = (
        f"From: Sender {i} <s{i}@example.org>\nTo: list@example.org\n"
        f"Subject: message {i}\nMessage-ID: <{i}.{rng.randrange(10**6)}@example.org>\n"
        f"Date: Thu, 13 Sep 2001 12:{i % 60:02d}:05 +0000\n"
    )
    url = f"http://{host}/path/{i}/page.html?q={rng.randrange(1000)}"
    shape = i % 8
    if shape == 0:  # plain, with a wrapped URL broken over two lines
        body = (
            f"See {url} and <URL:ftp://{host}/pub/\n  file{i}.tar.gz> please.\n"
            f"> quoted http://{host}/quoted-{i}\n"
        )
        msg = head + "\n" + body
    elif shape == 1:  # multipart/alternative with HTML
        msg = (
            head + 'MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="b"\n\n'
            f"--b\nContent-Type: text/plain\n\ntext {url}\n"
            f'--b\nContent-Type: text/html\n\n<p><a href="{url}x">link</a></p>\n--b--\n'
        )
    elif shape == 2:  # base64 text
        payload = base64.encodebytes(f"encoded {url}\n".encode()).decode()
        msg = (
            head + "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
            "Content-Transfer-Encoding: base64\n\n" + payload
        )
    elif shape == 3:  # quoted-printable, soft break inside the URL
        msg = (
            head + "MIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\n"
            f"Content-Transfer-Encoding: quoted-printable\n\ncaf=E9 http://{host}/a=\nb/{i}\n"
        )
    elif shape == 4:  # broken MIME: unknown charset, boundary never closed
        msg = (
            head + 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="zz"\n\n'
            f"--zz\nContent-Type: text/plain; charset=x-nonsense\n\nbroken {url}\n"
        )
    elif shape == 5:  # From-like body line not after an empty line, and >From quoting
        msg = (
            head
            + f"\nfirst line {url}\nFrom the desk of Mr {i} at 10:30 in 1999\n"
            ">From here: mailto:s{i}@example.org\n".replace("{i}", str(i))
        )
    elif shape == 6:  # attachment (skipped) and a text part
        msg = (
            head + 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="q"\n\n'
            f"--q\nContent-Type: text/plain\n\nsee attachment {url}\n"
            "--q\nContent-Type: application/octet-stream\n"
            "Content-Transfer-Encoding: base64\n\nAAECAwQF\n--q--\n"
        )
    else:  # long body (truncated with a small max_message_bytes), invalid UTF-8
        lines = "".join(f"line {n} news:group{n}.example\n" for n in range(rng.randrange(40, 120)))
        msg = head + f"\n{lines}bad byte \udcff here {url}\n"
    data = msg.encode("utf-8", "surrogateescape")
    if i % 5 == 0:
        data = data.replace(b"\n", b"\r\n")
    return data


def make_mbox(count: int, *, junk_prefix: bool = False, seed: int = 7) -> bytes:
    rng = random.Random(seed)
    parts: list[bytes] = []
    if junk_prefix:
        parts.append(b"stray text before the first envelope http://stray.example/\n\n")
    for i in range(1, count + 1):
        envelope = f"From s{i}@example.org Thu Sep 13 12:{i % 60:02d}:05 2001\n".encode()
        parts.append(envelope + _message(i, rng) + b"\n")
    return b"".join(parts)


def make_maildir(root: Path, count: int) -> Path:
    rng = random.Random(3)
    for sub in ("cur", "new", "tmp"):
        (root / sub).mkdir(parents=True)
    for i in range(count):
        sub = "cur" if i % 3 else "new"
        (root / sub / f"{1000 + i}.M{i}.host:2,S").write_bytes(_message(i, rng))
    (root / "tmp" / "inprogress").write_bytes(b"From: x\n\nhttp://tmp.example/\n")
    return root


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("parallel")
    mbox = make_mbox(300)
    paths: dict[str, str] = {}

    def put(name: str, data: bytes) -> None:
        (root / name).write_bytes(data)
        paths[name] = str(root / name)

    put("big.mbox", mbox)
    put("big.mbox.gz", gzip.compress(mbox))
    put("junk.mbox", make_mbox(60, junk_prefix=True, seed=9))  # sniffs as text
    packed = gzip.compress(make_mbox(40, seed=11))
    put("cut.mbox.gz", packed[: len(packed) * 2 // 3])  # corrupt: a read error at the end
    put("garbage.gz", gzip.compress(b"x")[:10] + b"\x00garbage" * 50)
    put("notes.txt", b"Plain notes: http://notes.example/a and <URL:gopher://g.example/1>\n")
    put("notes.txt.gz", gzip.compress(b"compressed http://gz.example/text\n" * 30))
    put("empty.txt", b"")
    paths["maildir"] = str(make_maildir(root / "maildir", 25))
    return paths


def scan(
    paths: Sequence[str], config: ScanConfig | None = None, jobs: int = 1, **kwargs: Any
) -> tuple[list[Result], ArchiveStats]:
    config = config or ScanConfig()
    stats = ArchiveStats()
    if jobs == 1:
        results = list(iter_results(paths, config, stats=stats, jobs=1))
    else:
        kwargs.setdefault("mp_context", FORK)
        results = list(
            parallel.iter_results_parallel(paths, config, stats=stats, jobs=jobs, **kwargs)
        )
    return results, stats


def assert_same(
    paths: Sequence[str], config: ScanConfig | None = None, jobs: int = 3, **kwargs: Any
) -> list[Result]:
    expected, expected_stats = scan(paths, config)
    got, got_stats = scan(paths, config, jobs, **{**SMALL, **kwargs})
    assert got == expected
    assert got_stats == expected_stats
    return expected


# -- same output, same order, same totals -----------------------------------------------


def test_mail_corpus_with_a_missing_path_in_the_middle() -> None:
    files = sorted(str(p) for p in CORPUS.iterdir() if p.name != "PROVENANCE.md")
    paths = [*files[:5], str(CORPUS / "no-such-file.mbox"), *files[5:]]
    results = assert_same(paths)
    failures = [r for r in results if isinstance(r, ReadFailure)]
    assert failures == [ReadFailure(paths[5], "No such file or directory")]
    assert results.index(failures[0]) > 0
    assert any(isinstance(r, UnitDefects) for r in results)


def test_generated_mbox(inputs: dict[str, str]) -> None:
    results = assert_same([inputs["big.mbox"]])
    urls = [r for r in results if isinstance(r, Url)]
    assert {r.context.message for r in urls if r.context} == set(range(1, 301))
    codes = {d.code for r in results if isinstance(r, UnitDefects) for d in r.defects}
    assert "mbox-from-in-body" in codes
    # Text before the first envelope: auto reads it as text, kind mbox as a message.
    assert_same([inputs["junk.mbox"]])
    results = assert_same([inputs["junk.mbox"]], ScanConfig(kind="mbox"))
    codes = {d.code for r in results if isinstance(r, UnitDefects) for d in r.defects}
    assert "missing-separator" in codes


def test_generated_mbox_gzip_truncation_headers_and_many_files(inputs: dict[str, str]) -> None:
    config = ScanConfig(options=MailOptions(max_message_bytes=1500, scan_headers=True))
    paths = [
        inputs["notes.txt"],
        inputs["big.mbox.gz"],
        inputs["maildir"],
        inputs["empty.txt"],
        inputs["big.mbox"],
        inputs["notes.txt.gz"],
    ]
    results = assert_same(paths, config, jobs=2)
    codes = {d.code for r in results if isinstance(r, UnitDefects) for d in r.defects}
    assert "message-truncated" in codes


def test_default_batches_through_iter_results(inputs: dict[str, str]) -> None:
    paths = [inputs["big.mbox.gz"], inputs["notes.txt"], inputs["maildir"]]
    expected, expected_stats = scan(paths)
    stats = ArchiveStats()
    assert list(iter_results(paths, ScanConfig(), stats=stats, jobs=3)) == expected
    assert stats == expected_stats


def test_read_errors_at_the_end_of_an_archive(inputs: dict[str, str]) -> None:
    results = assert_same([inputs["cut.mbox.gz"], inputs["garbage.gz"], inputs["notes.txt"]])
    codes = [d.code for r in results if isinstance(r, UnitDefects) for d in r.defects]
    assert "stream-read-error" in codes
    # Forced kind mbox on a stream that fails before any message: a defect-only record.
    config = ScanConfig(kind="mbox")
    results = assert_same([inputs["garbage.gz"], inputs["cut.mbox.gz"]], config)
    first = results[0]
    assert isinstance(first, UnitDefects)
    assert first.context is None
    assert [d.code for d in first.defects] == ["stream-read-error"]


def test_explicit_kinds_and_wrong_kinds(inputs: dict[str, str]) -> None:
    for kind in ("mbox", "text", "mail", "maildir"):
        paths = [inputs["big.mbox"], inputs["maildir"], inputs["notes.txt"], "/no/such"]
        results = assert_same(paths, ScanConfig(kind=kind))
        assert any(isinstance(r, ReadFailure) for r in results)


def test_mh_and_mmdf(tmp_path: Path) -> None:
    mh = tmp_path / "mh"
    mh.mkdir()
    rng = random.Random(5)
    for n in (3, 1, 10, 2):
        (mh / str(n)).write_bytes(_message(n, rng))
    mmdf = tmp_path / "box.mmdf"
    mmdf.write_bytes(
        b"".join(
            b"\x01\x01\x01\x01\n" + _message(i, rng) + b"\x01\x01\x01\x01\n" for i in range(30)
        )
    )
    assert_same([str(mh), str(mmdf), str(CORPUS / "real-ietf-mailbox.mmdf")])


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    # A real text stream: forked workers close standard input when they start.
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))


def test_standard_input_is_read_in_order(
    inputs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = make_mbox(30, seed=2)
    paths = [inputs["notes.txt"], "-", inputs["big.mbox"]]
    _stdin(monkeypatch, data)
    expected, expected_stats = scan(paths)
    _stdin(monkeypatch, data)
    got, got_stats = scan(paths, jobs=2, **SMALL)
    assert got == expected
    assert got_stats == expected_stats
    assert any(isinstance(r, Url) and r.source == "-" for r in got)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_read_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    data = make_mbox(20, seed=4)

    def run(jobs: int) -> tuple[list[Result], ArchiveStats]:
        writer = threading.Thread(target=fifo.write_bytes, args=(data,), daemon=True)
        writer.start()
        try:
            return scan([str(fifo)], jobs=jobs, **SMALL)  # (jobs=1 ignores the batching)
        finally:
            writer.join(10)

    assert run(2) == run(1)


def test_spawn_start_method(inputs: dict[str, str]) -> None:
    paths = [inputs["cut.mbox.gz"], inputs["notes.txt"], inputs["maildir"]]
    assert_same(paths, jobs=2, mp_context=multiprocessing.get_context("spawn"))


@pytest.mark.skipif(not SHARED_MBOX.exists(), reason="shared corpus not present")
def test_shared_linux_mips_1997() -> None:
    expected, expected_stats = scan([str(SHARED_MBOX)])
    got, got_stats = scan([str(SHARED_MBOX)], jobs=2, batch_bytes=64 << 10)
    assert got == expected
    assert got_stats == expected_stats
    assert expected_stats.messages > 1000


# -- bounded window, streaming statistics -----------------------------------------------


class _CountingExecutor(ProcessPoolExecutor):
    submitted = 0

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        type(self).submitted += 1
        return super().submit(*args, **kwargs)


def test_window_bounds_how_far_ahead_the_archive_is_read(
    inputs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "ProcessPoolExecutor", _CountingExecutor)
    monkeypatch.setattr(_CountingExecutor, "submitted", 0)
    window = 3
    stats = ArchiveStats()
    stream = parallel.iter_results_parallel(
        [inputs["big.mbox.gz"]],  # one compressed archive: batches split by the parent
        ScanConfig(),
        stats=stats,
        jobs=2,
        batch_messages=1,
        window=window,
        mp_context=FORK,
    )
    seen = 0
    for result in stream:
        if isinstance(result, Url) and result.context is not None:
            number = result.context.message
            seen = max(seen, number)
            # Batches 1..n-1 are out, so at most `window` more were submitted.
            assert _CountingExecutor.submitted <= number + window - 1
            # Statistics advance with the output: message n's batch has been merged.
            assert stats.messages == number
    assert seen == 300
    assert _CountingExecutor.submitted == 300


def test_closing_early_stops_the_workers(inputs: dict[str, str]) -> None:
    stream = parallel.iter_results_parallel(
        [inputs["big.mbox"]] * 3, ScanConfig(), stats=ArchiveStats(), jobs=2, mp_context=FORK
    )
    first = next(stream)
    assert isinstance(first, Url | UnitDefects)
    assert isinstance(stream, Generator)
    stream.close()  # must not hang or leak the pool
    assert not multiprocessing.active_children()


# -- failures ---------------------------------------------------------------------------


def _crash_on_message_50(work: Any, config: ScanConfig, spec: Any) -> Any:
    # Message 50 of a batch split by the parent, or the range of an uncompressed archive
    # that starts past its first 10 kB.
    messages = getattr(work, "messages", ())
    if any(m.number == 50 for m in messages) or getattr(work, "start", 0) > 10_000:
        os._exit(3)
    return parallel._run(work, config, spec)


@pytest.mark.skipif(FORK is None, reason="the crash hook reaches workers through fork")
# Python 3.12+ warns at a fork from a process with threads: pytest-xdist's workers have
# them (execnet). pytest.warns below records that warning and gives it back at its end.
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_a_worker_crash_loses_nothing(
    inputs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "_worker_main", _crash_on_message_50)
    paths = [inputs["notes.txt"], inputs["big.mbox"], inputs["maildir"], inputs["big.mbox.gz"]]
    with pytest.warns(RuntimeWarning, match="worker process died"):
        assert_same(paths, jobs=2)


def test_worker_exceptions_propagate(
    inputs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "_worker_main", _raise_value_error)
    with pytest.raises(ValueError, match="boom"):  # two paths: the pool is used
        scan([inputs["notes.txt"], inputs["big.mbox"]], jobs=2)


def _raise_value_error(work: Any, config: ScanConfig, spec: Any) -> Any:
    raise ValueError("boom")


def test_bad_arguments(inputs: dict[str, str]) -> None:
    bad = ScanConfig(kind="nonsense")  # type: ignore[arg-type]
    stream: Iterator[Result] = iter_results([inputs["notes.txt"]], bad, jobs=2)
    with pytest.raises(ConfigError):
        next(stream)
    with pytest.raises(ValueError, match="batch_bytes"):
        scan([inputs["notes.txt"]], jobs=2, batch_bytes=0)
    assert scan([], jobs=2) == ([], ArchiveStats())


# -- plain text cut into pieces at blank lines --------------------------------------------

RFC_DIR = Path(__file__).resolve().parent.parent / "corpora" / "rfc"


def test_plain_text_pieces_are_scanned_as_one_text(tmp_path: Path) -> None:
    # The RFC has page breaks (form feeds between blank lines) that wrappers cross; the
    # generated text has wrappers left open at blank lines and hyphen breaks before them.
    rng = random.Random(7)
    lines = []
    for i in range(3000):
        shape = rng.randrange(6)
        if shape == 0:
            lines.append(f"see <URL:http://h{i}.example/a-")
        elif shape == 1:
            lines.append(f"bare http://h{i}.example/x- ")
        elif shape == 2:
            lines.append("")
        elif shape == 3:
            lines.append(f"> <http://q{i}.example/{'p' * rng.randrange(80)}")
        else:
            lines.append(f"word {i} more words ftp://f{i}.example/file.txt.")
    generated = tmp_path / "generated.txt"
    generated.write_text("\n".join(lines) + "\n", encoding="utf-8")
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes(generated.read_bytes().replace(b"\n", b"\r\n"))
    paths = [str(RFC_DIR / "rfc1738.txt"), str(generated), str(crlf)]
    for config in (ScanConfig(kind="text"), ScanConfig()):
        results = assert_same(paths, config, jobs=2, batch_bytes=600)
        assert sum(isinstance(r, Url) for r in results) > 1000


def test_plain_text_without_blank_lines_is_finished_in_the_parent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "MAX_TEXT_PIECES", 3)
    text = "".join(f"line {i} http://h{i}.example/p\n" for i in range(2000))
    blank_at_start = "intro\n\n" + text
    paths = []
    for name, content in (("no-blank.txt", text), ("blank-then-none.txt", blank_at_start)):
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        paths.append(str(path))
    results = assert_same(paths, ScanConfig(kind="text"), jobs=2, batch_bytes=600)
    assert sum(isinstance(r, Url) for r in results) == 4000


def test_a_long_single_message_streams_in_the_parent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A single-message file that streams is scanned by the parent (a worker would return
    # all its records at once); the output is the same, with files around it in order.
    body = "".join(f"line {n} http://h{n}.example/p\n" for n in range(2000))
    long_message = tmp_path / "long.eml"
    long_message.write_bytes(f"From: a@b.example\nSubject: long\n\n{body}".encode())
    monkeypatch.setattr(parallel, "STREAM_MIN_BYTES", 1024)
    ran_in_parent: list[str] = []
    run_here = parallel.iter_item

    def spy(item: Any, *args: Any) -> Any:
        ran_in_parent.append(item.path)
        return run_here(item, *args)

    monkeypatch.setattr(parallel, "iter_item", spy)
    small = tmp_path / "small.eml"
    small.write_bytes(b"From: a@b.example\n\nhttp://small.example/\n")
    for kind in ("auto", "mail"):
        paths = [str(small), str(long_message), str(small)]
        results = assert_same(paths, ScanConfig(kind=kind))
        assert sum(1 for r in results if isinstance(r, Url)) == 2002
    assert ran_in_parent == [str(long_message), str(long_message)]


# -- folders in batches ------------------------------------------------------------------


def _work_items(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    # Every item the scheduler submits, in order (recorded in the parent).
    items: list[Any] = []
    submit = parallel._Scheduler.submit

    def spy(self: Any, work: Any) -> Any:
        items.append(work)
        return submit(self, work)

    monkeypatch.setattr(parallel._Scheduler, "submit", spy)
    return items


def test_a_folder_is_scanned_in_batches_of_files(
    inputs: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    items = _work_items(monkeypatch)
    mh = tmp_path / "mh"
    mh.mkdir()
    rng = random.Random(8)
    for n in range(1, 31):
        (mh / str(n)).write_bytes(_message(n, rng))
    for config in (ScanConfig(), ScanConfig(kind="maildir"), ScanConfig(kind="mh")):
        items.clear()
        results = assert_same([inputs["maildir"], str(mh)], config)
        folders = [w for w in items if isinstance(w, FolderItem)]
        for folder, kind in ((inputs["maildir"], "maildir"), (str(mh), "mh")):
            batches = [w for w in folders if w.folder == folder]
            if config.kind in ("auto", kind):
                # Batches of at most 7 files or about 2 KB (SMALL), together the folder's
                # files in order, each numbered on from the one before.
                listed = archive.folder_files(folder, config.kind)
                assert len(batches) > 3
                assert all(len(w.files) <= SMALL["batch_messages"] for w in batches)
                assert [f for w in batches for f in w.files] == listed
                starts = [1]
                for w in batches[:-1]:
                    starts.append(starts[-1] + len(w.files))
                assert [w.first for w in batches] == starts
            else:  # read as the other kind, the folder lists no message file
                assert not batches
        if config.kind == "auto":  # every message keeps its number in the folder
            numbers = {
                r.context.message
                for r in results
                if isinstance(r, Url) and r.context and r.source.startswith(str(mh))
            }
            assert numbers == set(range(1, 31))


def test_a_long_message_file_in_a_folder_streams_in_the_parent(
    inputs: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    items = _work_items(monkeypatch)
    folder = tmp_path / "maildir"
    for sub in ("cur", "new", "tmp"):
        (folder / sub).mkdir(parents=True)
    body = "".join(f"line {n} http://h{n}.example/p\n" for n in range(2000))
    (folder / "cur" / "1.a").write_bytes(b"From: a@b.example\n\nhttp://first.example/\n")
    (folder / "cur" / "2.b").write_bytes(f"From: a@b.example\n\n{body}".encode())
    (folder / "cur" / "3.c").write_bytes(b"From: a@b.example\n\nhttp://last.example/\n")
    monkeypatch.setattr(parallel, "STREAM_MIN_BYTES", 1024)
    results = assert_same([str(folder)])
    assert sum(isinstance(r, Url) for r in results) == 2002
    files = [w.files for w in items if isinstance(w, FolderItem)]
    assert files == [(str(folder / "cur" / "1.a"),), (str(folder / "cur" / "3.c"),)]


def test_a_read_error_ends_a_folder_where_one_process_ends_it(
    inputs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # An OSError escaping the per-file step (here: the 10th file) ends the folder's scan in
    # one process with a ReadFailure for the folder; batches after it must not be reported.
    files = archive.folder_files(inputs["maildir"], "auto")
    single_units = archive._single_units

    def failing(path: str, *args: Any) -> Any:
        if path == files[9]:
            raise OSError(5, "Input/output error")
        return single_units(path, *args)

    monkeypatch.setattr(archive, "_single_units", failing)
    # In worker batches, then with every file counted as long, so read in the parent.
    for stream_min_bytes in (parallel.STREAM_MIN_BYTES, 0):
        monkeypatch.setattr(parallel, "STREAM_MIN_BYTES", stream_min_bytes)
        results = assert_same([inputs["maildir"], inputs["notes.txt"]])
        failures = [r for r in results if isinstance(r, ReadFailure)]
        assert failures == [ReadFailure(inputs["maildir"], "Input/output error")]
        numbers = {r.context.message for r in results if isinstance(r, Url) and r.context}
        assert max(numbers, default=0) == 9
        assert any(isinstance(r, Url) and r.source == inputs["notes.txt"] for r in results)
