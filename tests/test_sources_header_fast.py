"""``headers.clean_values`` finds what ``find_body``, ``kept_fields``, ``raw_headers`` and
``first_values`` find on a clean header block, and takes every such block.

It is the root's and each part's header reader on the fast path (two searches instead of
cutting the block into fields); where it answers ``None`` the caller reads the block by
those functions, so it must never answer for a block they read otherwise, and should
answer for every block they find clean.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_sources_mime import MIME_SHAPED_LINES
from urlsift.sources import headers

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
