"""Tests for transparent decompression (urlsift.sources.compress) and its use by text.py."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from urlsift.errors import SourceError
from urlsift.sources.compress import open_binary, open_counted, sniff_compression
from urlsift.sources.text import open_text

PAYLOAD = b"line one http://example.com/a\n" * 500

COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": gzip.compress,
    "bzip2": bz2.compress,
    "xz": lzma.compress,
}


@pytest.mark.parametrize("name", sorted(COMPRESSORS))
def test_sniff_recognises_magic_bytes(name: str) -> None:
    assert sniff_compression(COMPRESSORS[name](b"x")[:6]) == name


@pytest.mark.parametrize("prefix", [b"", b"From ", b"BZ", b"BZhx", b"\x1f", b"hello world"])
def test_sniff_plain(prefix: bytes) -> None:
    assert sniff_compression(prefix) == "none"


@pytest.mark.parametrize("name", sorted(COMPRESSORS))
def test_open_binary_decompresses_whatever_the_name(tmp_path: Path, name: str) -> None:
    # The file name says nothing: the magic bytes decide.
    path = tmp_path / "archive.txt"
    path.write_bytes(COMPRESSORS[name](PAYLOAD))
    with open_binary(str(path)) as stream:
        assert stream.read() == PAYLOAD


def test_open_binary_plain_and_short_files(tmp_path: Path) -> None:
    for data in (b"", b"a", b"abcde", PAYLOAD):
        path = tmp_path / "plain.gz"  # misleading extension on purpose
        path.write_bytes(data)
        with open_binary(str(path)) as stream:
            assert stream.read() == data


def test_counters(tmp_path: Path) -> None:
    path = tmp_path / "a.gz"
    packed = gzip.compress(PAYLOAD)
    path.write_bytes(packed)
    opened = open_counted(str(path))
    assert opened.compression == "gzip"
    assert opened.stream.read() == PAYLOAD
    assert opened.decoded.count == len(PAYLOAD)
    assert opened.stored.count == len(packed)
    opened.stream.close()


def test_multi_member_gzip(tmp_path: Path) -> None:
    path = tmp_path / "two.gz"
    path.write_bytes(gzip.compress(b"first\n") + gzip.compress(b"second\n"))
    with open_binary(str(path)) as stream:
        assert stream.read() == b"first\nsecond\n"


@pytest.mark.parametrize("name", sorted(COMPRESSORS))
def test_truncated_stream_raises_source_error(tmp_path: Path, name: str) -> None:
    path = tmp_path / "cut"
    packed = COMPRESSORS[name](PAYLOAD * 20)
    path.write_bytes(packed[: len(packed) - 30])
    stream = open_binary(str(path))
    data = stream.read()  # the bytes before the damage come first ...
    assert PAYLOAD.startswith(data[: len(PAYLOAD)])
    with pytest.raises(SourceError):  # ... then the next read or the close raises
        stream.read()
    stream.close()  # the error was reported once; closing is quiet now
    with pytest.raises(SourceError):
        _read_then_close(str(path))


def _read_then_close(path: str) -> None:
    # Small reads: the damage surfaces from a read() or, at the latest, from close().
    stream = open_binary(path)
    try:
        while stream.read(1000):
            pass
    finally:
        stream.close()


def test_text_source_reports_a_truncated_stream(tmp_path: Path) -> None:
    path = tmp_path / "cut.gz"
    packed = gzip.compress(PAYLOAD * 20)
    path.write_bytes(packed[:-30])
    chunks: list[str] = []
    iterator = iter(open_text(str(path)).chunks)
    with pytest.raises(SourceError):  # noqa: PT012 - the error ends the iteration
        for chunk in iterator:
            chunks.append(chunk)
    assert "".join(chunks).startswith("line one http://example.com/a\n")


def test_missing_path_raises_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError) as info:
        open_binary(str(tmp_path / "nope"))
    assert isinstance(info.value, OSError)


def _fake_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(data)))


def test_stdin_is_decompressed_and_not_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    buffer = io.BytesIO(gzip.compress(PAYLOAD))
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=buffer))
    stream = open_binary("-")
    assert stream.read() == PAYLOAD
    stream.close()
    assert not buffer.closed


@pytest.mark.parametrize("name", sorted(COMPRESSORS))
def test_text_source_reads_compressed_files(tmp_path: Path, name: str) -> None:
    path = tmp_path / "notes"
    path.write_bytes(COMPRESSORS[name]("café http://example.com/ \xff".encode("latin-1")))
    text = "".join(open_text(str(path)).chunks)
    assert "http://example.com/" in text
    assert "\udce9" in text  # the lossless decoder still runs after decompression


def test_text_source_reads_compressed_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_stdin(monkeypatch, bz2.compress(b"from stdin http://stdin.example/\n"))
    assert "".join(open_text("-").chunks) == "from stdin http://stdin.example/\n"


def test_plain_file_read_into_the_callers_buffer_and_counted(tmp_path: Path) -> None:
    data = b"From a@b Thu Sep 13 12:30:05 2001\n" + b"x" * 300_000
    path = tmp_path / "a.mbox"
    path.write_bytes(data)
    opened = open_counted(str(path))
    try:
        assert opened.stored._readinto is not None  # the file's own readinto
        got = b"".join(iter(lambda: opened.stream.read(70_000), b""))
    finally:
        opened.stream.close()
    assert got == data
    assert opened.stored.count == opened.decoded.count == len(data)


def test_a_read_error_of_readinto_ends_the_data_then_is_raised() -> None:
    from urlsift.sources.compress import CountingReader

    def failing(buffer: memoryview | bytearray) -> int:
        raise OSError(5, "Input/output error")

    reader = CountingReader("p", lambda n: b"", None, b"head", readinto=failing)
    buffer = bytearray(10)
    assert reader.readinto(buffer) == 4  # the prefix first
    assert reader.readinto(buffer) == 0  # then the end of the data ...
    with pytest.raises(SourceError, match="cannot read file"):
        reader.readinto(buffer)  # ... and the error
