"""Mail text that used to lose URLs: each case through every read path.

* A UTF-16/32 charset declared on bytes that are plainly 8-bit text (``charset-mismatch``,
  issue 13 item 7).
* A message whose header block runs into a first body line ``http://...`` (no blank
  line): read as the body's first line (``url-in-header-block``, item 8).
* ``Content-Transfer-Encoding: base64 `` (trailing white space): decoded (issue 12).
* ``text/calendar`` content lines folded inside a URL: unfolded (RFC 5545 §3.1).

What the samples of ``corpora/mail`` must yield on every read path is in
``corpora/mail-expected`` (checked by ``test_mail_expected.py``); the cases here test each
fix's function directly.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_sources_streamed import assert_same_both_ways
from urlsift.sources import parts, streamed
from urlsift.sources.charsets import decode_text
from urlsift.sources.headers import _url_line, find_body
from urlsift.sources.options import MailOptions
from urlsift.sources.parts import message_units

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "mail"
EXPECTED = CORPUS.parent / "mail-expected"


# -- charset-mismatch ----------------------------------------------------------------------

ASCII_TEXT = b"see http://a.example/page and more\n"  # even length


@pytest.mark.parametrize(
    "charset", ["utf-16", "UTF-16LE", "utf-16be", "utf-32", "utf-32-le", "UTF-32BE"]
)
def test_wide_charset_on_ascii_text_is_read_as_ascii(charset: str) -> None:
    text, defects = decode_text(ASCII_TEXT, charset)
    assert text == ASCII_TEXT.decode("ascii")
    assert [d.code for d in defects] == ["charset-mismatch"]


def test_wide_charset_on_utf8_text_is_read_as_utf8() -> None:
    payload = "caf\xe9 http://a.example/\u20ac xy\n".encode()
    assert len(payload) % 2 == 0
    text, defects = decode_text(payload, "utf-16")
    assert text == payload.decode("utf-8")
    assert [d.code for d in defects] == ["charset-mismatch"]


@pytest.mark.parametrize(
    ("charset", "encoding"),
    [
        ("utf-16", "utf-16"),  # with a byte-order mark
        ("utf-16", "utf-16-le"),  # none: Python's utf-16 reads little-endian
        ("utf-16le", "utf-16-le"),
        ("utf-16be", "utf-16-be"),
        ("utf-32", "utf-32"),
    ],
)
@pytest.mark.parametrize(
    "sample",
    [
        "see http://a.example/page\n",
        "\u4e2d\u6587\u3002\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8",  # CJK text
        "\u4e2d\u6587 http://a.example/",
    ],
)
def test_real_wide_text_is_still_decoded(charset: str, encoding: str, sample: str) -> None:
    payload = sample.encode(encoding)
    text, defects = decode_text(payload, charset)
    assert text == sample
    assert defects == []


@settings(max_examples=300, deadline=None)
@given(
    st.text(st.characters(exclude_categories=["Cs"]), min_size=1),
    st.sampled_from(
        [
            ("utf-16-le", "utf-16le"),
            ("utf-16-be", "utf-16be"),
            ("utf-16", "utf-16"),
            ("utf-32-le", "utf-32le"),
            ("utf-32", "utf-32"),
        ]
    ),
)
def test_wide_text_with_a_line_end_is_never_mistaken(text: str, codec: tuple[str, str]) -> None:
    # Real UTF-16/32 text holding a line end (or any ASCII character, or CJK punctuation)
    # has a NUL or a control byte: its declared charset is used, as before.
    encoding, declared = codec
    sample = text + "\n"
    got, defects = decode_text(sample.encode(encoding), declared)
    assert "charset-mismatch" not in [d.code for d in defects]
    assert got == sample


# -- url-in-header-block -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"Subject: x\nhttp://h.example/\nmore\n", (11, 11)),
        (b"Subject: x\nhttp://h.example/\n\nbody\n", (11, 11)),
        (b"http://h.example/\n", (0, 0)),
        (b"Subject: x\nHTTPS://h.example/\n", (11, 11)),
        (b"Subject: x\nX-Url: http://h.example/\n\nbody\n", (36, 37)),  # a field
        (b"Subject: x\n http://h.example/\n\nbody\n", (30, 31)),  # a continuation line
        (b"Subject: x\n\nhttp://h.example/\n", (11, 12)),  # in the body already
        (b"Subject: x\nmailto:a@h.example\n\nbody\n", (30, 31)),  # no "//": a field
        (b"Subject: x\nhtt", (14, 14)),  # not known yet on this prefix
    ],
)
def test_find_body_ends_the_header_block_at_a_url_line(
    data: bytes, expected: tuple[int, int]
) -> None:
    assert find_body(data) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([b"\n", b"\r\n", b"x", b":", b" ", b"http", b"://", b"h:"]), max_size=25
    )
)
def test_find_body_with_url_lines_on_a_prefix_is_the_message_own(pieces: list[bytes]) -> None:
    data = b"".join(pieces)
    whole = find_body(data)
    for cut in range(len(data) + 1):
        header, body = find_body(data[:cut])
        if header < cut:  # decided on the prefix: the same as on the whole
            assert (header, body) == whole, cut


def test_url_line_message_keeps_its_header_fields() -> None:
    data = b"From: a@b.example\nSubject: s\nhttp://h.example/x\nmore\n"
    result = message_units(data, source="m", number=1, offset=0, options=MailOptions())
    (unit,) = result.units
    assert "".join(unit.chunks) == "http://h.example/x\nmore\n"
    assert unit.context is not None
    assert (unit.context.from_, unit.context.subject) == ("a@b.example", "s")
    assert [d.code for d in unit.defects] == ["url-in-header-block"]


def test_url_line_message_streamed_equals_whole(tmp_path: Path) -> None:
    path = tmp_path / "m.eml"
    path.write_bytes(
        b"From: a@b.example\nSubject: s\nContent-Type: text/plain; charset=utf-8\n"
        b"http://h.example/first\n" + b"line http://h.example/n caf\xc3\xa9\n" * 50
    )
    assert assert_same_both_ways(path, MailOptions(), (1, 7, 64)) == 3  # streamed each time


# -- transfer encodings with white space -------------------------------------------------

QP_BODY = b"see http://qp.example/a-long-path-that-is-broken-by-a-soft-=\nline-break?x=3D1\n"
B64_BODY = b"c2VlIGh0dHA6Ly9iNjQuZXhhbXBsZS9wYWdlCg==\n"


@pytest.mark.parametrize(
    ("cte", "body", "url"),
    [
        (b"quoted-printable ", QP_BODY, "http://qp.example/a-long-path-that-is-broken-by-a-soft-"),
        (b"Quoted-Printable\t", QP_BODY, "http://qp.example/a-long-path-that-is-broken-by-a-soft-"),
        (b"base64 ", B64_BODY, "http://b64.example/page"),
        (b"BASE64  ", B64_BODY, "http://b64.example/page"),
        (b"base64\n ", B64_BODY, "http://b64.example/page"),  # folded
    ],
)
def test_transfer_encoding_with_white_space_is_decoded(
    cte: bytes, body: bytes, url: str, tmp_path: Path
) -> None:
    single = b"Subject: s\nContent-Type: text/plain\nContent-Transfer-Encoding: " + cte
    single += b"\n\n" + body
    multi = (
        b"Subject: s\nContent-Type: multipart/mixed; boundary=b\n\n--b\n"
        b"Content-Type: text/plain\nContent-Transfer-Encoding: " + cte + b"\n\n" + body + b"--b--\n"
    )
    for data in (single, multi):
        for fast in (True, False):
            result = message_units(
                data, source="m", number=1, offset=0, options=MailOptions(), fast=fast
            )
            (unit,) = result.units
            text = "".join(unit.chunks)
            assert url in text, (data, fast)
            assert "=\n" not in text
            assert unit.defects == ()
    path = tmp_path / "m.eml"
    path.write_bytes(single)
    assert assert_same_both_ways(path, MailOptions(), (3, 4096)) == 0  # decoded whole


# -- text/calendar ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("LOCATION:https://zoom.us/j/1?pwd=Pl\n hH\n", "LOCATION:https://zoom.us/j/1?pwd=PlhH\n"),
        ("A:b\n\tc\n d\nE:f\n", "A:bcd\nE:f\n"),
        ("A:b\n  c\n", "A:b c\n"),  # one white space character is removed, not two
        ("A:b\n\nC:d\n", "A:b\n\nC:d\n"),
        ("no folds", "no folds"),
    ],
)
def test_unfold_calendar(text: str, expected: str) -> None:
    assert parts.unfold_calendar(text) == expected


def test_calendar_is_not_streamed() -> None:
    raw = b"Subject: s\nContent-Type: text/calendar\n\n"
    head = streamed.single_part_head(raw, len(raw) - 1, MailOptions())
    assert head is None


# find_body's URL line, the rule written as one regular expression (what the code used).
_URL_LINE_RULE = re.compile(rb"^[A-Za-z][A-Za-z0-9+.\-]*://", re.MULTILINE)
_HEADER_PIECES = [b"a", b"Z", b"1", b"+", b".", b"-", b":", b"/", b"://", b"\n", b"\r\n", b" "]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(_HEADER_PIECES), max_size=40),
    st.integers(min_value=0, max_value=80),
)
def test_the_url_line_search_is_the_rule(pieces: list[bytes], cut: int) -> None:
    # The URL line is searched from each "://" back to its line's start; it must find what
    # the rule finds: the first line starting "scheme://" whose "://" ends before the end.
    data = b"".join(pieces)
    end = min(cut, len(data))
    rule = _URL_LINE_RULE.search(data, 0, end)
    assert _url_line(data, end) == (rule.start() if rule else -1)
