"""``headers.clean_values`` finds what ``find_body``, ``kept_fields``, ``raw_headers`` and
``first_values`` find on a clean header block, and takes every such block.

It is the root's and each part's header reader on the fast path (two searches instead of
cutting the block into fields); where it answers ``None`` the caller reads the block by
those functions, so it must never answer for a block they read otherwise, and should
answer for every block they find clean.
"""

from __future__ import annotations

import gzip
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_bench_gen import gen_text
from test_sources_mime import MIME_SHAPED_LINES
from urlsift.sources import headers
from urlsift.sources.mbox import MboxSplitter
from urlsift.sources.options import MailOptions

_LINES = [
    *MIME_SHAPED_LINES,
    b"Subject: a subject\n",
    b"SUBJECT:x\n",
    b"subject:\n",
    b"From: Ann <a@example.org>\n",
    b"fRoM: \t b\n",
    b"From-X: not a root field\n",
    b"From a@b Sat Jan  1 10:00:00 2001\n",
    b"Date: Mon, 2 Jan 1995 10:00:00 +0000\n",
    b"Message-Id: <1@x>\n",
    b"MESSAGE-ID:<2@x>\n",
    b"Content-type: TEXT/Plain\n",
    b"content-transfer-encoding:  8bit \n",
    b"Received: from a\n",
    b"\tby b; Mon, 2 Jan 1995\n",
    b"List-Archive: <http://l.example/>\n",
    b"http://u.example/path\n",
    b"x-y://not.a.scheme.line\n",
    b"Subject : space before the colon\n",
    b": empty name\n",
    b"Subject: cr\r\n",
    b"Subject: lone \r cr\n",
    b"\r\n",
    b" \n",
    b"\t\n",
    b"X-8bit: \xe9\xff\n",
    b"Subject: \xc3\xa9t\xc3\xa9\n",
    b"no colon here\n",
    # a root name followed by "//", a longer name, a root field folded
    b"Date://u.example/\n",
    b"Content-Type-X: y\n",
    b"From:x\n\tfolded\n",
    b"Subject:\n \n",
    # names told apart by their first letter: a root's first letter that starts another
    # name, a root name's prefix or extension, a root name inside another, one letter
    b"DKIM-Signature: v=1;\n\tb=x\n",
    b"MIME-Version: 1.0\n",
    b"Sender: s\n",
    b"Dates: 1\n",
    b"Subjects: s\n",
    b"fromage: f\n",
    b"Content-Disposition: inline\n",
    b"Content-Transfer-Encodings: x\n",
    b"X-From: not the root's\n",
    b"c: 1\n",
    b"S:\n",
    b"R: r\n",
    # a root value after many spaces and tabs, and a value of spaces only
    b"Subject:  \t  spaced\n",
    b"FROM:\t\t \n",
    b"Date:    \n\t  folded after spaces\n",
    # NUL and other control bytes in a value, and in a name
    b"Subject: a\x00b\n",
    b"X-\x00: nul in the name\n",
    b"Message-ID:\x01\n",
]
_BLOCKS = st.lists(st.sampled_from(_LINES), max_size=14).map(b"".join)


def _reference(data: bytes, start: int, end: int) -> tuple[int, dict[str, str]] | None:
    # What the reference functions say of data[start:end]: the block's end and values
    # when it holds a field, is clean, LF-ended, not ended at a URL line and ended by an
    # empty line.
    window = data[start:end]
    header, body = headers.find_body(window)
    if header == body or body > len(window) or window[header : header + 1] != b"\n":
        return None  # a URL line, no empty line, or a CRLF one
    if header == 0:
        return None  # no field (the callers read an empty block the reference way)
    fields = headers.kept_fields(window[:header], False)
    if fields is None:
        return None
    return start + header, headers.first_values(headers.raw_headers(fields))


# The block pattern's two forms (atomic from Python 3.11 on, and Python 3.10's), each
# held to the reference.
_FORMS = [
    pytest.param(True, marks=pytest.mark.skipif(sys.version_info < (3, 11), reason="3.11 re")),
    False,
]


@pytest.mark.parametrize("atomic", _FORMS)
@settings(max_examples=600, deadline=None)
@given(_BLOCKS, _BLOCKS, st.binary(max_size=3), st.data())
def test_clean_values_is_the_reference_reading(
    atomic: bool, head: bytes, rest: bytes, before: bytes, data: st.DataObject
) -> None:
    message = before + head + b"\n" + rest
    start = len(before)
    end = data.draw(st.integers(start, len(message)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(headers, "_CLEAN_BLOCK", headers._clean_block_pattern(atomic))
        got = headers.clean_values(message, start, end)
    assert got == _reference(message, start, end)


@pytest.mark.parametrize("atomic", _FORMS)
@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.data())
def test_clean_values_on_any_bytes(atomic: bool, message: bytes, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(message)))
    end = data.draw(st.integers(start, len(message)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(headers, "_CLEAN_BLOCK", headers._clean_block_pattern(atomic))
        got = headers.clean_values(message, start, end)
    if got is not None:  # any bytes: a block it reads is the reference's reading
        assert got == _reference(message, start, end)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (b"Subject: s\nX: 1\n 2\nFrom: f\n\nbody", (27, {"subject": "s", "from": "f"})),
        (b"SUBJECT:  a\n\tb\nsubject: second\n\n", (31, {"subject": "a\n\tb"})),
        (b"X: 1\n\n", (5, {})),
        (b"\nbody", None),  # no header block
        (b" first\n\n", None),
        (b"Subject: s\nstray\n\n", None),
        (b"Subject: s\r\n\r\n", None),
        (b"Subject: s\nhttp://x.example/\n\n", None),  # find_body ends the block there
        (b"Subject: s\n", None),  # no empty line
        (b"Subject: s\n\n", (11, {"subject": "s"})),
    ],
)
def test_clean_values_examples(message: bytes, expected: object) -> None:
    assert headers.clean_values(message, 0, len(message)) == expected
    assert _reference(message, 0, len(message)) == expected


@pytest.mark.parametrize("atomic", _FORMS)
def test_a_block_of_repeated_root_fields_that_is_not_clean_is_read_once(
    atomic: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A block of many root fields (first values and repeats) ended by a stray line is
    # refused at once (atomic) or after one pass back over it (each line has one way to
    # be read), not after trying each root line as captured and as not (which would never
    # end here).
    monkeypatch.setattr(headers, "_CLEAN_BLOCK", headers._clean_block_pattern(atomic))
    lines = [b"From: a\n", b"Date: b\n", b"Subject: c\n\t d\n", b"Message-ID: <e>\n"]
    block = b"".join(lines * 2000)
    for end in (b"stray\n\n", b"\n"):
        got = headers.clean_values(block + end, 0, len(block) + len(end))
        assert got == _reference(block + end, 0, len(block) + len(end))


# Blocks that are not clean (or have no end), each read in one pass by either form: the
# root fields with many spaces before their values (Python 3.10's form gave the spaces to
# the value in as many ways as there were spaces, for every root field: 6 fields of 8
# spaces took minutes), 8,000 repeated root fields with a stray line after them, a
# megabyte of one header line, a block with no empty line, NUL bytes, a name-only line.
_SPACED_ROOTS = b"".join(
    name + b":" + b" \t" * 8 + b"v\n" for name in headers._READ_FIELDS.split(b"|")
)
_HOSTILE_BLOCKS = {
    "spaced root fields, stray line": _SPACED_ROOTS + b"X: y\n" * 2000 + b"stray\n\n",
    "spaced root fields, no end": _SPACED_ROOTS + b"X: y\n" * 2000,
    "repeated root fields, stray line": b"Subject:  s\nFrom:  f\n" * 4000 + b"a b\n\n",
    "repeated folded root fields, stray line": b"Subject:  s\n From:  f\n" * 4000 + b"a b\n\n",
    "a megabyte of one line": b"Subject: " + b"a" * (1 << 20) + b"\n\n",
    "a megabyte of one name": b"X" * (1 << 20) + b": v\n\n",
    "a megabyte of one line, no end": b"Subject: " + b" " * (1 << 20),
    "no empty line": b"Received: r\n\tby x\n" * 20000,
    "NUL bytes": b"Subject: \x00\n" + b"\x00" * 100000 + b"\n\n",
    "a name-only line after fields": b"From: f\n" * 8000 + b"From\n\n",
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("atomic", _FORMS)
@pytest.mark.parametrize("name", sorted(_HOSTILE_BLOCKS))
def test_hostile_blocks_are_read_once(
    atomic: bool, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(headers, "_CLEAN_BLOCK", headers._clean_block_pattern(atomic))
    block = _HOSTILE_BLOCKS[name]
    assert headers.clean_values(block, 0, len(block)) == _reference(block, 0, len(block))


# Every header block of real and generated archives: each message's root block and each
# block after a line starting with "--" (where a part's block starts), held to the
# reference reading by both forms.
SHARED_MBOX = Path("/work/shared/corpora/mbox")


def _generated_mbox() -> bytes:
    text: str = gen_text.generate("mbox", 3 << 20, seed=5)[0]
    return text.encode("utf-8", "surrogateescape")


def _archive_blocks(archive: bytes) -> Iterator[tuple[bytes, int, int]]:
    # (message, start, end) of each block: the root's within the default cap, and each
    # one after a "--" line, within 64 KiB.
    splitter = MboxSplitter()
    for message in splitter.feed(archive) + splitter.close():
        data = message.data
        yield data, 0, min(len(data), MailOptions().max_header_bytes + 1)
        at = data.find(b"\n--")
        while at >= 0:
            start = data.find(b"\n", at + 1) + 1
            if start == 0:
                break
            yield data, start, min(len(data), start + (64 << 10))
            at = data.find(b"\n--", start - 1)


def _check_archive(archive: bytes) -> int:
    read = 0
    forms = [False] + ([True] if sys.version_info >= (3, 11) else [])
    patterns = [headers._clean_block_pattern(atomic) for atomic in forms]
    with pytest.MonkeyPatch.context() as patch:
        for data, start, end in _archive_blocks(archive):
            expected = _reference(data, start, end)
            read += expected is not None
            for pattern in patterns:
                patch.setattr(headers, "_CLEAN_BLOCK", pattern)
                assert headers.clean_values(data, start, end) == expected, data[start:end][:300]
    return read


@pytest.mark.skipif(not SHARED_MBOX.is_dir(), reason="shared archives absent")
@pytest.mark.parametrize("name", sorted(p.name for p in SHARED_MBOX.glob("*.mbox.gz")))
def test_the_shared_archives_blocks_are_read_as_the_reference_reads_them(name: str) -> None:
    assert _check_archive(gzip.decompress((SHARED_MBOX / name).read_bytes())) > 0


def test_generated_blocks_are_read_as_the_reference_reads_them() -> None:
    assert _check_archive(_generated_mbox()) > 1000
