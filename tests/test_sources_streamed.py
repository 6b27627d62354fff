"""Streamed single messages give exactly what reading them whole gives.

A single message file longer than ``archive.STREAM_MIN_BYTES`` whose header shows one part
with a body used as is is read in two passes (see ``sources.archive``): a check of the body,
then its text decoded as a stream. Here the threshold is set to 0 (every eligible message
streams) and the read blocks are made tiny, so that every chunk boundary (inside UTF-8
sequences, CRLF pairs, URLs, ``<URL:...>`` wrappers) is met; each message is compared, unit
by unit (text, context, defects) and in its statistics, with the whole-message path, which
is the code as it was before streaming (a threshold above the message's size).
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import itertools
import lzma
import os
import sys
import tempfile
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_sources_mime_fastpath import CORPUS, OPTION_SETS
from test_sources_mime_fastpath import MESSAGES as FASTPATH_MESSAGES
from urlsift import _model
from urlsift.api import scan_units
from urlsift.errors import SourceError
from urlsift.sources import archive, charsets, headers, parts, reading, streamed
from urlsift.sources.archive import ArchiveStats, open_units
from urlsift.sources.charsets import (
    LINE_END,
    BodyCheck,
    decode_stream,
    streamable_codec,
)
from urlsift.sources.compress import open_counted, rereader
from urlsift.sources.options import MailOptions

HEAD = (
    b"From: Ann Lee <ann@example.org>\n"
    b"Subject: =?utf-8?q?caf=C3=A9?= notes\n"
    b"Date: Mon, 2 Jan 1995 10:00:00 +0000\n"
    b"Message-ID: <1@example.org>\n"
    b"List-Archive: <http://list.example.org/archive/>\n"
    b"MIME-Version: 1.0\n"
)
URLS = (
    b"See http://www.example.org/a/long/path/to/a/page.html for more.\n"
    b"<URL:ftp://ftp.example.org/pub/a/very/\n      long/file-name.txt> and\n"
    b"<URL:http://www.ex-\n   ample.com/split-by-hyphen/> too.\n"
    b"http://last.example.org/end"
)
MULTIBYTE = "caf\xe9 \u20ac \U0001d11e \u00fc\u00df ".encode()


def ct(value: bytes) -> bytes:
    return HEAD + b"Content-Type: " + value + b"\n"


# name -> (message, streamed with the first option set)
MESSAGES: dict[str, tuple[bytes, bool]] = {
    "plain us-ascii": (ct(b"text/plain; charset=us-ascii") + b"\n" + URLS + b"\n", True),
    "no content-type": (HEAD + b"\n" + URLS, True),
    "utf-8 multibyte everywhere": (
        ct(b"text/plain; charset=utf-8")
        + b"\n"
        + MULTIBYTE * 3
        + URLS.replace(b" ", b" " + MULTIBYTE)
        + MULTIBYTE,
        True,
    ),
    "utf-8 url with multibyte path": (
        ct(b"text/plain; charset=UTF-8") + b"\nhttp://h.example/caf\xc3\xa9/\xe2\x82\xac\n",
        True,
    ),
    "latin-1": (
        ct(b"text/plain; charset=iso-8859-1") + b"\ncaf\xe9 http://latin.example/\xe9t\xe9\n",
        True,
    ),
    "windows-1252 valid": (
        ct(b"text/plain; charset=windows-1252") + b"\n\x93quoted\x94 http://w.example/\n",
        True,
    ),
    "windows-1252 undefined byte, valid utf-8": (
        ct(b"text/plain; charset=windows-1252") + b"\n\xc2\x81 caf\xc3\xa9 http://w.example/\n",
        True,
    ),
    "windows-1252 undefined byte, invalid utf-8": (
        ct(b"text/plain; charset=windows-1252") + b"\n\x81\xe9 http://w.example/\n",
        True,
    ),
    "iso-8859-7 undefined byte": (
        ct(b"text/plain; charset=iso-8859-7") + b"\n\xae\xe1 http://g.example/\n",
        True,
    ),
    "koi8-r": (ct(b"text/plain; charset=koi8-r") + b"\n\xf0\xd2\xc9 http://k.example/\n", True),
    "unknown charset, valid utf-8": (
        ct(b"text/plain; charset=x-nonsense") + b"\ncaf\xc3\xa9 http://u.example/\n",
        True,
    ),
    "unknown charset, invalid utf-8": (
        ct(b"text/plain; charset=x-nonsense") + b"\ncaf\xe9 http://u.example/\n",
        True,
    ),
    "unknown charset, ascii": (ct(b"text/plain; charset=bogus") + b"\n" + URLS, True),
    "charset that is no text encoding": (
        ct(b"text/plain; charset=rot13") + b"\n\xff" + URLS,
        True,
    ),
    "us-ascii lying, utf-8 bytes": (
        ct(b"text/plain; charset=us-ascii") + b"\ncaf\xc3\xa9 http://l.example/\n",
        True,
    ),
    "us-ascii lying, invalid bytes": (
        ct(b"text/plain; charset=us-ascii") + b"\ncaf\xe9 \xff http://l.example/\n",
        True,
    ),
    "no charset, invalid utf-8": (HEAD + b"\n\xff\xfe http://n.example/ \xc3(\n", True),
    "utf-8 declared, invalid bytes": (
        ct(b"text/plain; charset=utf-8") + b"\n" + MULTIBYTE + b"\xc3( \xed\xa0\x80 " + URLS,
        True,
    ),
    "utf-8 declared, truncated sequence at the end": (
        ct(b"text/plain; charset=utf-8") + b"\n" + URLS + b" \xf0\x9f",
        True,
    ),
    "utf-8 byte order mark": (
        ct(b"text/plain; charset=utf-8") + b"\n\xef\xbb\xbfhttp://bom.example/\n",
        True,
    ),
    "crlf message": (
        (ct(b"text/plain; charset=utf-8") + b"\n" + URLS).replace(b"\n", b"\r\n"),
        True,
    ),
    "crlf body, lone CRs, CR at the end": (
        ct(b"text/plain")
        + b"\nhttp://a.example/x\r\nline\rnext\r\r\n\n<URL:http://b.example/\r\n  c/>\r",
        True,
    ),
    "crlf blank line ending an LF header": (
        HEAD + b"Content-Type: text/plain\r\n\r\n" + URLS,
        True,
    ),
    "no trailing newline": (ct(b"text/plain") + b"\nsee http://x.example/end", True),
    "empty body": (ct(b"text/plain") + b"\n", True),
    "header only, no blank line": (ct(b"text/plain"), False),
    "header only, no final line end": (HEAD + b"Subject: http://no-end.example/", False),
    "blank line first": (b"\nhttp://nohead.example/ body\n", True),
    "crlf blank line first": (b"\r\nhttp://nohead.example/ body\r\n", True),
    "long url": (
        ct(b"text/plain") + b"\nhttp://long.example/" + b"abcdefghij/" * 300 + b"end.html\n",
        True,
    ),
    "cte 7bit": (ct(b"text/plain") + b"Content-Transfer-Encoding: 7bit\n\n" + URLS, True),
    "cte 8bit": (
        ct(b"text/plain; charset=utf-8") + b"Content-Transfer-Encoding: 8bit\n\n" + MULTIBYTE,
        True,
    ),
    "cte binary": (ct(b"text/plain") + b"Content-Transfer-Encoding: BINARY\n\n" + URLS, True),
    "cte unknown": (ct(b"text/plain") + b"Content-Transfer-Encoding: x-gzip64\n\n" + URLS, True),
    "cte base64 with a trailing space": (
        ct(b"text/plain") + b"Content-Transfer-Encoding: base64 \n\naHR0cDovL3guZXhhbXBsZS8K\n",
        False,  # decoded as base64 (the value is stripped): read whole
    ),
    "cte quoted-printable": (
        ct(b"text/plain")
        + b"Content-Transfer-Encoding: quoted-printable\n\nhttp://q=\n.example/\n",
        False,
    ),
    "cte base64": (
        ct(b"text/plain") + b"Content-Transfer-Encoding: base64\n\naHR0cDovL3guZXhhbXBsZS8K\n",
        False,
    ),
    "cte 8-bit value": (HEAD + b"Content-Transfer-Encoding: 8b\xe9t\n\n" + URLS, True),
    "content-type 8-bit value": (ct(b"text/plain; charset=\xe9") + b"\n" + URLS, True),
    "two content-types": (
        HEAD + b"Content-Type: text/html\nContent-Type: text/plain\n\n<p>http://d.example/</p>\n",
        False,
    ),
    "empty values": (b"Subject:\nContent-Type:\nContent-Transfer-Encoding:\n\n" + URLS, True),
    "text/html": (ct(b"text/html") + b"\n<a href='http://h.example/'>x</a>\n", False),
    "format=flowed": (ct(b"text/plain; format=flowed") + b"\nhttp://f.example/ \nx\n", False),
    "format=flowed on text/enriched": (
        ct(b"text/enriched; format=flowed") + b"\nhttp://f.example/ \nx\n",
        True,
    ),
    "utf-16": (ct(b"text/plain; charset=utf-16") + b"\nhttp://a.example/\n", False),
    "ebcdic": (ct(b"text/plain; charset=cp500") + b"\n\x88\xa3\xa3\x97\n", False),
    "shift_jis": (ct(b"text/plain; charset=shift_jis") + b"\n\x82\xa0 http://j.example/\n", False),
    "attachment, skipped": (
        ct(b"application/octet-stream") + b"Content-Transfer-Encoding: base64\n\nAAEC!!\n",
        True,
    ),
    "attachment as is": (ct(b"application/x-thing") + b"\n" + URLS, True),
    "image without text": (b"Content-Type: image/png\n\n\x89PNG\r\n\x1a\n", True),
    "multipart": (
        ct(b"multipart/mixed; boundary=b")
        + b"\n--b\nContent-Type: text/plain\n\nhttp://m.example/\n--b--\n",
        False,
    ),
    "message/rfc822": (ct(b"message/rfc822") + b"\n" + HEAD + b"\n" + URLS, False),
    "stray line in the header": (b"Subject: s\nnot a header\nFrom: a@b\n\n" + URLS, False),
    "From_ line first": (b"From a@b Sat Jan  1 10:00:00 2001\nSubject: s\n\n" + URLS, True),
    "From_ line inside": (b"Subject: s\nFrom a@b Sat Jan  1 10:00:00 2001\n\n" + URLS, False),
    "space before a colon": (b"Subject : s\nFrom: a@b\n\n" + URLS, False),
    "first line a continuation": (b" continued\nSubject: s\n\n" + URLS, True),
    "lone CR in the header": (b"Subject: s\rX: y\nFrom: a@b\n\n" + URLS, True),
    "bad encoded words": (
        b"Subject: =?x-bogus?q?caf=E9?= =?utf-8?b?###?=\nContent-Type: text/plain\n\n" + URLS,
        True,
    ),
    "8-bit subject and from": (b"From: J\xc3\xb6rg <j@x>\nSubject: caf\xe9\n\n" + URLS, True),
    "long header": (
        b"Subject: s\nX-Filler: " + b"f" * 500 + b"\nMessage-ID: <late@x>\n\n" + URLS,
        True,
    ),
}

BLOCK_SIZES = (1, 3, 7, 4096)


def unit_key(unit: _model.TextUnit) -> tuple[object, ...]:
    return (unit.source, "".join(unit.chunks), unit.context, unit.defects, unit.origin)


def stats_key(stats: ArchiveStats) -> tuple[int, ...]:
    return (
        stats.files,
        stats.bytes_read,
        stats.stored_bytes_read,
        stats.messages,
        stats.parts,
        stats.header_units,
        stats.units_skipped,
        stats.messages_with_defects,
        stats.messages_truncated,
    )


class Read:
    """One reading of a path through ``open_units``: units consumed, statistics, path taken."""

    def __init__(self, units: list[tuple[object, ...]], stats: ArchiveStats, streamed: int):
        self.units = units
        self.stats = stats
        self.streamed = streamed


def read(
    path: str,
    options: MailOptions,
    *,
    stream: bool,
    block: int = reading.READ_BLOCK_SIZE,
    kind: archive.InputKind = "mail",
) -> Read:
    """Read ``path`` streamed (threshold 0) or whole (threshold beyond any test file)."""
    calls = []
    real = streamed.streamed_message_units

    def spy(*args: object, **kwargs: object) -> parts.MessageResult:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(archive, "STREAM_MIN_BYTES", 0 if stream else 1 << 40)
        patch.setattr(reading, "READ_BLOCK_SIZE", block)
        patch.setattr(streamed, "TEXT_BLOCK_SIZE", block)
        patch.setattr(streamed, "streamed_message_units", spy)
        stats = ArchiveStats()
        units = [unit_key(u) for u in open_units(path, kind, options, stats)]
    return Read(units, stats, len(calls))


def assert_same_both_ways(
    path: Path, options: MailOptions, blocks: tuple[int, ...] = BLOCK_SIZES
) -> int:
    """Compare the streamed path with the whole path; return how many block sizes streamed."""
    whole = read(str(path), options, stream=False)
    assert whole.streamed == 0
    streamed = 0
    for block in blocks:
        got = read(str(path), options, stream=True, block=block)
        assert got.units == whole.units, block
        assert stats_key(got.stats) == stats_key(whole.stats), block
        streamed += got.streamed
    return streamed


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_streamed_path_equals_whole_path(name: str, tmp_path: Path) -> None:
    data, streams = MESSAGES[name]
    path = tmp_path / "message.eml"
    path.write_bytes(data)
    for index, options in enumerate(OPTION_SETS):
        streamed = assert_same_both_ways(path, options)
        if index == 0:
            assert streamed == (len(BLOCK_SIZES) if streams else 0)


@pytest.mark.parametrize("name", sorted(FASTPATH_MESSAGES))
def test_streamed_path_equals_whole_path_on_the_fast_path_table(name: str, tmp_path: Path) -> None:
    path = tmp_path / "message.eml"
    path.write_bytes(FASTPATH_MESSAGES[name])
    for options in OPTION_SETS:
        assert_same_both_ways(path, options, (1, 5, 4096))


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.iterdir() if p.is_file()))
def test_streamed_path_equals_whole_path_on_the_mail_corpus(name: str) -> None:
    # Every file read as one message (--input-kind mail), whatever it holds.
    for options in OPTION_SETS:
        assert_same_both_ways(CORPUS / name, options, (7, 4096))


def test_the_table_covers_both_paths() -> None:
    assert sum(streams for _, streams in MESSAGES.values()) > 40
    assert sum(not streams for _, streams in MESSAGES.values()) > 10


_HEADERS = st.sampled_from(
    [
        b"",
        b"Subject: s\n",
        b"Content-Type: text/plain; charset=utf-8\n",
        b"Content-Type: text/plain; charset=us-ascii\n",
        b"Content-Type: text/plain; charset=iso-8859-1\n",
        b"Content-Type: text/plain; charset=windows-1252\n",
        b"Content-Type: text/plain; charset=x-unknown\n",
        b"Content-Type: text/html\n",
        b"Content-Type: application/octet-stream\n",
        b"Content-Transfer-Encoding: 8bit\n",
        b"Content-Transfer-Encoding: base64\n",
        b"Content-Transfer-Encoding: x-unknown\n",
        b"List-Id: <l.example>\n",
        b"From a@b Sat Jan  1 10:00:00 2001\n",
        b"Subject: x\r\n",
    ]
)
_BODY = st.sampled_from(
    [
        b"http://a.example/path",
        b"<URL:http://b.example/x\n y>",
        b"<URL:http://c.ex-\n ample/>",
        b" ",
        b"\n",
        b"\r\n",
        b"\r",
        b"\xc3\xa9",
        b"\xe2\x82\xac",
        b"\xf0\x9d\x84\x9e",
        b"\xe9",
        b"\x81",
        b"\xff",
        b"\xc3",
        b"\xef\xbb\xbf",
        b"x",
    ]
)


@settings(max_examples=120, deadline=None)
@given(
    st.lists(_HEADERS, max_size=4),
    st.sampled_from([b"\n", b"\r\n"]),
    st.lists(_BODY, max_size=40),
    st.integers(1, 9),
    st.booleans(),
)
def test_streamed_path_equals_whole_path_on_generated_messages(
    headers: list[bytes], blank: bytes, body: list[bytes], block: int, loud: bool
) -> None:
    data = b"".join(headers) + blank + b"".join(body)
    options = OPTION_SETS[1] if loud else OPTION_SETS[0]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.eml"
        path.write_bytes(data)
        whole = read(str(path), options, stream=False)
        got = read(str(path), options, stream=True, block=block)
    assert got.units == whole.units
    assert stats_key(got.stats) == stats_key(whole.stats)


# -- decoding: BodyCheck + plan_decoding + decode_stream == decode_text -------------------

CHARSETS = (
    None,
    "utf-8",
    "us-ascii",
    "iso-8859-1",
    "windows-1252",
    "iso-8859-7",
    "koi8-r",
    "x-unknown",
    "rot13",
)
PAYLOADS = (
    b"",
    b"plain ascii\r\nline\rnext\n",
    MULTIBYTE,
    b"caf\xe9",
    b"\x81\x8d\x8f\x90\x9d",
    b"\xc2\x81",
    b"\xff\xfe\xfd",
    b"\xc3(",
    b"\xe2\x82",
    b"\xf0\x9f\x98",
    b"\xed\xa0\x80",
    b"\xef\xbb\xbfbom",
    b"a\rb\r\nc\r",
    bytes(range(256)),
)


def streamed_decode(
    payload: bytes, charset: str | None, cuts: list[int]
) -> tuple[str, list[_model.Defect]]:
    streamable, codec = charsets.stream_codec(charset)
    assert streamable
    edges = sorted({0, len(payload), *(c % (len(payload) + 1) for c in cuts)})
    blocks = [payload[a:b] for a, b in itertools.pairwise(edges)]
    check = BodyCheck(codec)
    for block in blocks:
        check.feed(block)
    facts = check.close()
    assert facts.size == len(payload)
    use, defects = charsets.plan_decoding(facts, charset)
    return "".join(decode_stream(blocks, use)), defects


def whole_decode(payload: bytes, charset: str | None) -> tuple[str, list[_model.Defect]]:
    text, defects = charsets.decode_text(payload, charset)
    return LINE_END.sub("\n", text), defects


@pytest.mark.parametrize("charset", CHARSETS)
@pytest.mark.parametrize("payload", PAYLOADS)
def test_streamed_decoding_equals_decode_text_at_every_cut(
    payload: bytes, charset: str | None
) -> None:
    expected = whole_decode(payload, charset)
    for cut in range(len(payload) + 1):
        assert streamed_decode(payload, charset, [cut]) == expected, cut
    assert streamed_decode(payload, charset, list(range(len(payload)))) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from([*PAYLOADS[1:], b"x", b"\n"]), max_size=12).map(b"".join)
    | st.binary(max_size=64),
    st.sampled_from(CHARSETS),
    st.lists(st.integers(0, 10_000), max_size=6),
)
def test_streamed_decoding_equals_decode_text(
    payload: bytes, charset: str | None, cuts: list[int]
) -> None:
    assert streamed_decode(payload, charset, cuts) == whole_decode(payload, charset)


STREAMABLE = ("utf-8", "ascii", "iso8859-1", "cp1252", "iso8859-2", "iso8859-15", "koi8-r")
NOT_STREAMABLE = ("utf-16", "utf-16-le", "utf-32", "utf-7", "utf-8-sig", "shift_jis", "cp500")


@pytest.mark.parametrize("codec", STREAMABLE)
def test_streamable_codecs_decode_byte_by_byte(codec: str) -> None:
    # What the equivalence rests on: ASCII maps to itself, surrogateescape never fails,
    # and the incremental decoder cut anywhere gives the whole decoding.
    assert streamable_codec(codec)
    ascii_ = bytes(range(128))
    assert ascii_.decode(codec) == ascii_.decode("ascii")
    every = bytes(range(256)) + MULTIBYTE + b"\xc3\xa9\xe2\x82\xac"
    whole = every.decode(codec, "surrogateescape")
    for cut in range(len(every) + 1):
        decoder = codecs.getincrementaldecoder(codec)("surrogateescape")
        pieces = decoder.decode(every[:cut]) + decoder.decode(every[cut:], True)
        assert pieces == whole


@pytest.mark.parametrize("codec", NOT_STREAMABLE)
def test_other_codecs_are_not_streamed(codec: str) -> None:
    assert not streamable_codec(codec)
    assert charsets.stream_codec(codec)[0] is False


def test_stream_codec_reads_unknown_charsets_as_utf8() -> None:
    assert charsets.stream_codec(None) == (True, None)
    assert charsets.stream_codec("x-unknown") == (True, None)
    assert charsets.stream_codec("rot13") == (True, None)  # not a text encoding: unknown
    assert charsets.stream_codec("latin-1") == (True, "iso8859-1")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"\n", b"\r", b"x", b"\r\n", b":"]), max_size=30))
def test_find_body_on_a_prefix_is_the_message_own(pieces: list[bytes]) -> None:
    data = b"".join(pieces)
    header, body = headers.find_body(data)
    for cut in range(len(data) + 1):
        got = headers.find_body(data[:cut])
        if got[1] > got[0]:
            assert got == (header, body)
        elif body > header:
            assert body > cut  # not found yet: the blank line ends past the prefix


# -- no cap, bounded memory ------------------------------------------------------------


def big_message(size: int, ctype: bytes = b"text/plain; charset=utf-8") -> tuple[bytes, int]:
    """A message of about ``size`` bytes with two URLs per record; and the records."""
    record = b"line %07d http://h.example/p/%07d caf\xc3\xa9 <URL:ftp://f.example/a/\n  b/%07d>\n"
    head = HEAD + b"Content-Type: " + ctype + b"\n\n"
    count = (size - len(head)) // len(record % (0, 0, 0)) + 1
    return head + b"".join(record % (i, i, i) for i in range(count)), count


def test_streamed_message_is_not_cut_at_max_message_bytes(tmp_path: Path) -> None:
    path = tmp_path / "big.eml"
    data, records = big_message(3 << 20)
    path.write_bytes(data)
    options = MailOptions(max_message_bytes=64 << 10)
    stats = ArchiveStats()
    urls = list(scan_units(open_units(str(path), "auto", options, stats)))
    assert len(urls) == 2 * records
    assert urls[-1].url == f"ftp://f.example/a/b/{records - 1:07d}"
    assert all(not u.defects for u in urls)
    assert stats.messages_truncated == 0
    assert stats.bytes_read == len(data)
    # The same message as HTML needs its whole text: it is still cut at the cap.
    path.write_bytes(big_message(3 << 20, b"text/html")[0])
    (unit,) = open_units(str(path), "auto", options)
    assert [d.code for d in unit.defects] == ["message-truncated"]


def _peak(run: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_streamed_message_memory_is_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small blocks, so that a few MB show the bound: memory is a few blocks, not the body.
    # (2 MB: the bound below is half the body; each read runs under tracemalloc, slowly.)
    monkeypatch.setattr(reading, "READ_BLOCK_SIZE", 64 << 10)
    monkeypatch.setattr(archive, "STREAM_MIN_BYTES", 64 << 10)
    path = tmp_path / "big.eml"
    path.write_bytes(big_message(2 << 20)[0])

    def read_text(kind: archive.InputKind) -> None:
        for unit in open_units(str(path), kind):
            for _ in unit.chunks:
                pass

    def scan(kind: archive.InputKind) -> None:
        for _ in scan_units(open_units(str(path), kind)):
            pass

    assert _peak(lambda: read_text("mail")) < 1 << 20
    # Scanning adds the same whatever the source (the validation cache is most of it).
    assert _peak(lambda: scan("mail")) < _peak(lambda: scan("text")) + (512 << 10)
    monkeypatch.setattr(archive, "STREAM_MIN_BYTES", 64 << 20)
    assert _peak(lambda: read_text("mail")) > 2 << 20  # the whole path holds the message


# -- second reading: files, compression, standard input, pipes ------------------------------


@pytest.mark.parametrize(
    "compress", [gzip.compress, bz2.compress, lzma.compress], ids=["gz", "bz2", "xz"]
)
def test_compressed_message_is_streamed_like_a_plain_one(
    tmp_path: Path, compress: Callable[[bytes], bytes]
) -> None:
    data = MESSAGES["utf-8 multibyte everywhere"][0] * 2
    plain, packed = tmp_path / "m.eml", tmp_path / "m.eml.z"
    plain.write_bytes(data)
    packed.write_bytes(compress(data))
    whole = read(str(plain), OPTION_SETS[1], stream=False)
    for block in (5, 4096):
        got = read(str(packed), OPTION_SETS[1], stream=True, block=block)
        assert got.streamed == 1
        assert got.units == [(str(packed), *key[1:]) for key in whole.units]


def test_damaged_compressed_message_keeps_what_was_read(tmp_path: Path) -> None:
    data = big_message(600 << 10)[0]
    path = tmp_path / "m.eml.gz"
    packed = gzip.compress(data)
    path.write_bytes(packed[: len(packed) // 2])
    for stream in (False, True):
        got = read(str(path), MailOptions(), stream=stream, block=8192)
        body = got.units[-1]
        assert [d.code for d in body[3]] == ["stream-read-error"]  # type: ignore[attr-defined]
        text = body[1]
        assert isinstance(text, str)
        assert len(text) > 100_000
        assert data.decode().endswith(text[-1000:]) or text[-1000:] in data.decode()


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BufferedReader(io.BytesIO(data))))


@pytest.mark.parametrize("name", ["utf-8 multibyte everywhere", "crlf message", "latin-1"])
def test_standard_input_is_streamed_through_a_temporary_copy(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = MESSAGES[name][0]
    path = tmp_path / "m.eml"
    path.write_bytes(data)
    whole = read(str(path), OPTION_SETS[1], stream=False)
    for block in (1, 4096):
        _stdin(monkeypatch, data)
        got = read("-", OPTION_SETS[1], stream=True, block=block, kind="auto")
        assert got.streamed == 1
        assert got.units == [("-", *key[1:]) for key in whole.units]


def test_a_pipe_is_streamed_through_a_temporary_copy(tmp_path: Path) -> None:
    data = MESSAGES["utf-8 multibyte everywhere"][0]
    path = tmp_path / "m.eml"
    path.write_bytes(data)
    whole = read(str(path), MailOptions(), stream=False)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as out:
            out.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        opened = open_counted(str(fifo))
        assert rereader(str(fifo), opened) is None  # never reopened: it would block
        opened.stream.close()
    finally:
        writer.join()
    writer = threading.Thread(target=write)
    writer.start()
    try:
        got = read(str(fifo), MailOptions(), stream=True, block=16)
    finally:
        writer.join()
    assert got.streamed == 1
    assert got.units == [(str(fifo), *key[1:]) for key in whole.units]


def test_temporary_copy_unavailable_reads_the_message_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = MESSAGES["latin-1"][0]
    path = tmp_path / "m.eml"
    path.write_bytes(data)
    whole = read(str(path), MailOptions(), stream=False)

    def refuse() -> object:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    _stdin(monkeypatch, data)
    got = read("-", MailOptions(), stream=True, block=4, kind="auto")
    assert got.streamed == 0
    assert got.units == [("-", *key[1:]) for key in whole.units]


class _FullDisk(io.BytesIO):
    def write(self, data: object) -> int:
        raise OSError(28, "No space left on device")


def test_temporary_copy_failing_is_a_source_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "TemporaryFile", _FullDisk)
    _stdin(monkeypatch, MESSAGES["latin-1"][0])
    monkeypatch.setattr(archive, "STREAM_MIN_BYTES", 0)
    with pytest.raises(SourceError, match="No space left"):
        list(open_units("-", "mail"))


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_second_reading_owns_its_descriptor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archive, "STREAM_MIN_BYTES", 0)
    path = tmp_path / "m.eml"
    path.write_bytes(MESSAGES["plain us-ascii"][0])
    before = _open_fds()
    units = list(open_units(str(path), "mail"))  # the first stream is closed by now
    assert _open_fds() == before + 1
    assert "http://last.example.org/end" in "".join(units[-1].chunks)
    assert _open_fds() == before
    units = list(open_units(str(path), "mail"))
    assert _open_fds() == before + 1
    del units  # never read: released when collected, without a ResourceWarning
    assert _open_fds() == before
    for chunk in next(iter(open_units(str(path), "mail"))).chunks:  # abandoned half way
        del chunk
        break
    assert _open_fds() == before


def test_renamed_or_unlinked_file_is_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A Maildir client may move a message (new/ to cur/) while it is scanned.
    monkeypatch.setattr(archive, "STREAM_MIN_BYTES", 0)
    data = MESSAGES["plain us-ascii"][0]
    path = tmp_path / "m.eml"
    path.write_bytes(data)
    (unit,) = open_units(str(path), "mail")
    path.rename(tmp_path / "moved.eml")
    (tmp_path / "moved.eml").unlink()
    path.write_bytes(b"something else entirely\n")
    assert "".join(unit.chunks) == data.split(b"\n\n", 1)[1].decode()


def test_file_cut_short_before_the_second_reading_is_a_source_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archive, "STREAM_MIN_BYTES", 0)
    monkeypatch.setattr(streamed, "TEXT_BLOCK_SIZE", 16)
    path = tmp_path / "m.eml"
    path.write_bytes(MESSAGES["plain us-ascii"][0])
    (unit,) = open_units(str(path), "mail")
    os.truncate(path, 300)
    chunks: Iterator[str] = iter(unit.chunks)
    with pytest.raises(SourceError, match="changed while it was read"):
        for _ in chunks:
            pass


def test_a_raising_step_scans_the_raw_message_as_the_whole_path_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nothing in the streamed steps is known to raise; if one did, the result is the
    # whole path's: the raw message as UTF-8 text with a message-parse-error.
    path = tmp_path / "m.eml"
    path.write_bytes(MESSAGES["utf-8 declared, invalid bytes"][0].replace(b"\n", b"\r\n"))

    def broken(*args: object) -> None:
        raise RuntimeError("broken")

    monkeypatch.setattr(parts, "_set_context", broken)
    whole = read(str(path), OPTION_SETS[1], stream=False)
    assert [d.code for d in whole.units[0][3]] == ["message-parse-error"]  # type: ignore[attr-defined]
    for block in (1, 7, 4096):
        got = read(str(path), OPTION_SETS[1], stream=True, block=block)
        assert got.streamed == 1
        assert got.units == whole.units


def test_header_longer_than_the_first_blocks_is_found(tmp_path: Path) -> None:
    data = b"Subject: s\n" + b"X-Long: " + b"v" * 5000 + b"\n" + b"\n" + URLS
    path = tmp_path / "m.eml"
    path.write_bytes(data)
    options = MailOptions(max_header_bytes=8000)
    assert assert_same_both_ways(path, options, (64, 4096)) == 2
    # Over the header cap: the block is cut first, by the whole path.
    assert assert_same_both_ways(path, MailOptions(max_header_bytes=4000), (64,)) == 0


def test_folder_messages_are_streamed(tmp_path: Path) -> None:
    for sub in ("cur", "new", "tmp"):
        (tmp_path / sub).mkdir()
    for index, name in enumerate(["latin-1", "text/html", "crlf message", "empty body"]):
        (tmp_path / "cur" / f"{index}.eml").write_bytes(MESSAGES[name][0])
    whole = read(str(tmp_path), OPTION_SETS[1], stream=False, kind="maildir")
    got = read(str(tmp_path), OPTION_SETS[1], stream=True, block=3, kind="maildir")
    assert got.streamed == 3
    assert got.units == whole.units
    assert stats_key(got.stats) == stats_key(whole.stats)


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_single_part_head_fast_equals_reference(name: str) -> None:
    data = MESSAGES[name][0]
    header, body = headers.find_body(data)
    for options in OPTION_SETS:
        fast = streamed.single_part_head(data[:body], header, options, fast=True)
        reference = streamed.single_part_head(data[:body], header, options, fast=False)
        assert fast == reference
