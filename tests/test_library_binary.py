"""Issue 15: binary input to the library is decoded as the CLI decodes it, or refused at once."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from urlsift import Scanner, extract, iter_urls
from urlsift.engines.runner import iter_results

TEXT = "caf\u00e9 <URL:http://\u00e9.example/a\n b> and ftp://f.example/x\u2013y\n"
DATA = "\ufeff".encode() + TEXT.encode() + b"bad \xff\xfe http://bytes.example/\xff\n"


def _key(urls: object) -> list[tuple[str, int, int, int, int, tuple[str, ...]]]:
    return [
        (u.url, u.start, u.end, u.line, u.column, tuple(d.code for d in u.defects))
        for u in urls  # type: ignore[attr-defined]
    ]


def test_a_binary_stream_is_decoded_as_the_cli_decodes_a_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(DATA)
    cli = [r for r in iter_results([str(path)]) if hasattr(r, "url")]
    assert len(cli) == 3
    assert _key(iter_urls(io.BytesIO(DATA))) == _key(cli)
    with path.open("rb") as stream:
        assert _key(iter_urls(stream)) == _key(cli)
    assert _key(iter_urls([DATA])) == _key(cli)


def test_bytes_chunks_split_anywhere_give_the_same_urls() -> None:
    whole = _key(iter_urls([DATA]))
    assert _key(iter_urls([DATA[i : i + 1] for i in range(len(DATA))])) == whole
    assert _key(iter_urls([bytearray(DATA[:7]), memoryview(DATA[7:])])) == whole
    # Undecodable bytes survive as lone surrogates, as in the CLI.
    (*_, last) = iter_urls(io.BytesIO(DATA))
    assert last.url == "http://bytes.example/\udcff"


def test_text_input_is_unchanged() -> None:
    assert _key(iter_urls(io.StringIO(TEXT))) == _key(extract(TEXT))
    assert _key(iter_urls([TEXT[:5], TEXT[5:]])) == _key(extract(TEXT))


@pytest.mark.parametrize(
    ("chunks", "message"),
    [
        (["text http://a.example/ ", b"bytes"], "a bytes chunk among str chunks"),
        ([b"bytes http://a.example/ ", "text"], "a str chunk among bytes chunks"),
        ([1, 2], "chunks must be str or bytes, not int"),
    ],
)
def test_other_chunks_are_refused_when_met(chunks: list[object], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        list(iter_urls(chunks))  # type: ignore[arg-type]


def test_scanner_feed_refuses_bytes_at_once() -> None:
    scanner = Scanner()
    with pytest.raises(TypeError, match=r"Scanner.feed\(\) takes decoded text \(str\), not bytes"):
        scanner.feed(b"see http://a.example/")  # type: ignore[arg-type]
    # Nothing was taken: the scanner goes on with text.
    found = scanner.feed("see http://a.example/ ") + scanner.close()
    assert [c.body for c in found] == ["http://a.example/"]
