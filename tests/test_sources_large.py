"""Large bodies without their copies: the same results as the stdlib's way (issue 13 item 5).

A message near the 64 MiB cap used to peak at about nine times the cap (the stdlib decodes
a body from a ``str`` through several whole copies; the feed parser holds a multipart's
part as lines, then as one ``str``; the scanner copied a 40 MB chunk several times). Now:

* ``sources.transfer.decode_body`` decodes base64 and quoted-printable bodies in slices;
* ``parse._lift_large_parts`` parses a multipart with its large leaf bodies replaced by
  placeholders, read afterwards from the message's bytes;
* a long part's text reaches the scanner in pieces (``parts.TEXT_PIECE_CHARS``).

Here the thresholds are made tiny so every table message and corpus file takes those
paths, and each result must equal the stdlib's (``fast=False`` with the thresholds left
alone: small bodies go through ``get_payload(decode=True)`` and the feed parser). The
memory itself is measured by ``benchmarks/bench_memory.py --cap`` (figures in
benchmarks/README.md); the one check here is marked slow.
"""

from __future__ import annotations

import base64
import binascii
import quopri
import sys
from email.message import Message
from email.policy import compat32
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_sources_mime_fastpath import CORPUS, OPTION_SETS, key
from test_sources_mime_fastpath import MESSAGES as TABLE
from urlsift.sources import parse, parts, transfer
from urlsift.sources.mbox import MboxSplitter
from urlsift.sources.options import MailOptions
from urlsift.sources.parts import message_units
from urlsift.sources.transfer import decode_body

HERE = Path(__file__).resolve().parent
ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def stdlib_decode(body: bytes, cte: str) -> tuple[bytes, list[str]]:
    part = Message(policy=compat32)
    part["Content-Transfer-Encoding"] = cte
    part.set_payload(body.decode("ascii", "surrogateescape"))
    got = part.get_payload(decode=True)
    assert isinstance(got, bytes)
    return got, [type(d).__name__ for d in part.defects]


BASE64_ISH = st.lists(
    st.sampled_from(
        [b"QUJD", b"YQ==", b"YWI=", b"\n", b"\r\n", b"\r", b"=", b"*", b" ", b"Zm9v", b"A"]
    ),
    max_size=40,
).map(b"".join)
QP_ISH = st.lists(
    st.sampled_from(
        [b"a", b"=", b"=3D", b"=\n", b"=\r\n", b"=\r", b"\n", b"\r\n", b" ", b"\t", b"=4", b"\xe9"]
    ),
    max_size=40,
).map(b"".join)


@settings(max_examples=500, deadline=None)
@given(BASE64_ISH, st.integers(1, 9), st.booleans())
def test_base64_in_slices_is_the_stdlib_or_declines(body: bytes, size: int, as_str: bool) -> None:
    expected, defects = stdlib_decode(body, "base64")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(transfer, "SLICE_BYTES", size)
        source = body.decode("ascii", "surrogateescape") if as_str else body
        got = decode_body(b"xx" + body if not as_str else source, 0 if as_str else 2, "base64")
    if got is not None:
        assert got == expected
        assert defects == []
    else:  # declined (the stdlib then decodes it): only what is not plain base64
        symbols = body.translate(None, b"\r\n")
        assert symbols.translate(None, ALPHABET) or len(symbols) % 4


@settings(max_examples=500, deadline=None)
@given(QP_ISH, st.integers(1, 9), st.booleans())
def test_quoted_printable_in_slices_is_the_stdlib(body: bytes, size: int, as_str: bool) -> None:
    expected, _ = stdlib_decode(body, "quoted-printable")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(transfer, "SLICE_BYTES", size)
        source = body.decode("ascii", "surrogateescape") if as_str else body
        got = decode_body(source, 0, "quoted-printable", len(source))
    assert got == expected == quopri.decodestring(body)


def test_clean_base64_is_decoded_and_dirty_declined() -> None:
    text = b"see http://a.example/ " * 50
    clean = base64.encodebytes(text)
    assert decode_body(clean, 0, "base64") == text
    assert decode_body(clean.replace(b"\n", b"\r\n"), 0, "base64") == text
    assert decode_body(clean[:-2], 0, "base64") is None  # padding cut off
    assert decode_body(b"QUJD*QUJD\n", 0, "base64") is None  # a stray character
    assert decode_body(b"YQ==QUJD\n", 0, "base64") is None  # symbols after the padding
    assert decode_body(b"YQ==\n", 0, "7bit") is None
    assert binascii.a2b_base64(b"YQ==") == decode_body(b"YQ==\n", 0, "base64")


def _results(data: bytes, *, fast: bool) -> list[tuple[object, ...]]:
    return [
        key(message_units(data, source="m", number=2, offset=9, options=options, fast=fast))
        for options in OPTION_SETS
    ]


def _tiny(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(parts, "LARGE_BODY_BYTES", 0)
    patch.setattr(parse, "LARGE_BODY_BYTES", 0)
    patch.setattr(parts, "TEXT_PIECE_CHARS", 5)
    patch.setattr(transfer, "SLICE_BYTES", 3)


def _assert_same_as_the_stdlib(data: bytes) -> None:
    reference = _results(data, fast=False)
    with pytest.MonkeyPatch.context() as patch:
        _tiny(patch)
        assert _results(data, fast=True) == reference
        assert _results(data, fast=False) == reference


@pytest.mark.parametrize("name", sorted(TABLE))
def test_large_body_paths_equal_the_stdlib_on_the_table(name: str) -> None:
    _assert_same_as_the_stdlib(TABLE[name])


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.iterdir() if p.is_file()))
def test_large_body_paths_equal_the_stdlib_on_the_corpus(name: str) -> None:
    data = (CORPUS / name).read_bytes()
    _assert_same_as_the_stdlib(data)
    splitter = MboxSplitter()
    for raw in splitter.feed(data) + splitter.close():
        _assert_same_as_the_stdlib(raw.data)


def _multipart(*parts: bytes, epilogue: bytes = b"") -> bytes:
    head = b"From: a@b.example\nSubject: s\nContent-Type: multipart/mixed; boundary=BB\n\npre\n"
    return head + b"".join(b"--BB\n" + part for part in parts) + b"--BB--\n" + epilogue


BIG_TEXT = b"line http://big.example/p caf\xc3\xa9\n" * 40


@pytest.mark.parametrize(
    "data",
    [
        _multipart(
            b"Content-Type: text/plain\n\nsmall http://s.example/\n",
            b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
            + base64.encodebytes(BIG_TEXT)
            + b"\n",
            b"Content-Type: text/plain; charset=utf-8\n"
            b"Content-Transfer-Encoding: quoted-printable \n\n"
            + quopri.encodestring(BIG_TEXT)
            + b"\r\n",
            b"Content-Type: text/plain; charset=utf-8\n\n" + BIG_TEXT,
            b"Content-Type: text/html\n\n<p>" + BIG_TEXT + b"</p>\n",
        ),
        _multipart(  # dirty base64 in a large part: the stdlib decodes it, with defects
            b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
            + base64.encodebytes(BIG_TEXT)[:-3]
            + b"*\n"
        ),
        _multipart(  # nested: the inner multipart is not lifted, its parts are parsed
            b"Content-Type: multipart/alternative; boundary=CC\n\n--CC\n\n" + BIG_TEXT + b"--CC--\n"
        ),
        _multipart(  # parts with no blank line, a URL line, a CR in the header
            b"Content-Type: text/plain\n" + BIG_TEXT,
            b"Content-Type: text/plain\nhttp://u.example/\n" + BIG_TEXT,
            b"Content-Type: text/plain\r\n\r\n" + BIG_TEXT,
        ),
        _multipart(  # "--BB" lines in the epilogue are not delimiters
            b"Content-Type: text/plain\n\n" + BIG_TEXT,
            epilogue=b"--BB\nContent-Type: text/plain\n\n" + BIG_TEXT + b"--BB\n",
        ),
        _multipart(b"Content-Type: text/plain\n\n" + BIG_TEXT + b"x--BB\n"),  # not provable
        _multipart(  # CRLF throughout: the reference path (the header is not clean) lifts
            b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
            + base64.encodebytes(BIG_TEXT),
            b"Content-Type: text/plain\n\n" + BIG_TEXT,
        ).replace(b"\n", b"\r\n"),
        _multipart(  # a lone CR in a part header, and in a body
            b"Content-Type: text/plain\rX-A: b\n\n" + BIG_TEXT,
            b"Content-Type: text/plain\n\n" + BIG_TEXT + b"a\rb\r--BB\n",
        ),
        _multipart(  # a stray line in the root header block: not lifted
            b"Content-Type: text/plain\n\n" + BIG_TEXT
        ).replace(b"Subject: s\n", b"Subject: s\nstray line\n"),
    ],
)
def test_lifted_parts_equal_the_feed_parser(data: bytes) -> None:
    _assert_same_as_the_stdlib(data)


def test_large_parts_are_lifted_out_of_the_parse() -> None:
    data = _multipart(
        b"Content-Type: text/plain\n\nsmall\n",
        b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
        + base64.encodebytes(BIG_TEXT),
    )
    lifted: dict[str, tuple[int, int]] = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parse, "LARGE_BODY_BYTES", 100)
        body = parse._lift_large_parts(data, data.index(b"\n\n") + 2, "BB", lifted)
    ((name, (start, stop)),) = lifted.items()
    assert name.encode() in body
    assert len(body) < 200
    assert base64.decodebytes(data[start:stop]) == BIG_TEXT


def test_long_text_reaches_the_scanner_in_pieces() -> None:
    data = b"Subject: s\n\n" + b"x" * (parts.TEXT_PIECE_CHARS * 2 + 1)
    (unit,) = message_units(data, source="m", number=1, offset=0, options=MailOptions()).units
    pieces = list(unit.chunks)
    assert [len(p) for p in pieces] == [parts.TEXT_PIECE_CHARS] * 2 + [1]


# -- the memory itself (slow: about a minute; see benchmarks/bench_memory.py --cap) ----------


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["base64", "quoted-printable", "multipart"])
def test_message_near_the_cap_peaks_near_three_times_the_cap(kind: str) -> None:
    sys.path.insert(0, str(HERE.parent / "benchmarks"))
    from bench_memory import CAP_BYTES, measure_cap

    row = measure_cap(kind, 59_000_000)  # the scan's own high-water mark (VmHWM)
    # Was about 9 times the cap; 2.8 times after issue 13 (179-184 MiB). Url.to_dict building
    # parts dicts through the Parts mapping's Python methods added 11 MiB (b868430: 191 MiB),
    # removed by 1ca74fd (181 MiB). The same tree still measures up to 192-203 MiB in some
    # runs (a fresh-clone CI run in session 6: multipart 192.0 MiB, then 181.6 MiB three times
    # in the same venv), so the bound leaves that room; it keeps any return towards 9x failing.
    assert float(str(row["peak_rss_mb"])) * (1 << 20) < 3.25 * CAP_BYTES
