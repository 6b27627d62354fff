"""Tests for MIME walking, charset decoding, HTML and format=flowed (sources.mime & co)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift import _model
from urlsift.sources.archive import open_units
from urlsift.sources.charsets import decode_text
from urlsift.sources.flowed import unflow
from urlsift.sources.headers import decode_subject
from urlsift.sources.htmltext import html_to_text
from urlsift.sources.options import MailOptions
from urlsift.sources.parts import message_units

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "mail"


def units(name: str, **options: bool) -> list[_model.TextUnit]:
    return list(open_units(str(CORPUS / name), options=MailOptions(**options)))


def text(unit: _model.TextUnit) -> str:
    return "".join(unit.chunks)


def codes(unit: _model.TextUnit) -> list[str]:
    return [d.code for d in unit.defects]


def test_quoted_printable_soft_breaks_do_not_break_urls() -> None:
    (unit,) = units("qp-soft-break.eml")
    body = text(unit)
    assert "http://www.example.org/very/long/path/to/some/document.html" in body
    assert "<URL:ftp://ftp.example.org/pub/rfc/rfc1738.txt>" in body
    assert "http://example.org/q?a=1&b=2" in body
    assert unit.defects == ()


def test_context_fields() -> None:
    (unit,) = units("qp-soft-break.eml")
    assert unit.context is not None
    assert unit.context.message == 1
    assert unit.context.message_offset == 0
    assert unit.context.message_id == "<qp-1@example.org>"
    assert unit.context.from_ == "Quentin Printable <qp@example.org>"
    assert unit.context.subject == "QP soft line breaks inside URLs"
    assert unit.context.date == "Mon, 2 Jan 1995 10:00:00 +0000"
    assert unit.context.part == "1"
    assert unit.context.content_type == "text/plain"


def test_base64_text_part() -> None:
    (unit,) = units("base64-text.eml")
    assert "http://base64.example.com/path?x=1" in text(unit)


def test_multipart_alternative_gives_one_unit_per_part() -> None:
    plain, html = units("multipart-alternative.eml")
    assert (plain.context and plain.context.part, plain.context and plain.context.content_type) == (
        "1",
        "text/plain",
    )
    assert html.context is not None
    assert (html.context.part, html.context.content_type) == ("2", "text/html")
    assert "http://plain.example.net/" in text(plain)
    assert "preamble" not in text(plain)
    assert "epilogue" not in text(html)
    # the attribute URL, with its character reference decoded, on a line of its own
    assert "\nhttp://html.example.net/a?b=1&c=2\n" in text(html)


def test_html_only_mail() -> None:
    (unit,) = units("html-only.eml")
    body = text(unit)
    assert "http://visible.example.com/page" in body
    assert "\nhttps://href.example.com/x?a=1&b=2\n" in body
    assert "\nhttp://img.example.com/i.png\n" in body
    for hidden in ("script.invalid", "comment.invalid", "/rel"):
        assert hidden not in body
    # CSS is not shown, but its url(...) is a link like an attribute's (issue 12 item 6)
    visible, links = body.rsplit("\n\n", 1)
    assert "style.invalid" not in visible
    assert "\nhttp://style.invalid/\n" in "\n" + links


def test_format_flowed_with_delsp() -> None:
    (unit,) = units("flowed-delsp.eml")
    body = text(unit)
    assert "http://flowed.example.org/a/very/long/path/that/was/broken.html end" in body
    assert "\n> A quoted flowed line with http://quoted.example.org/x/y/z.html done\n" in body
    assert "\n >From stuffed line\n-- \nsig\n" in body


def test_format_flowed_without_delsp_keeps_the_space() -> None:
    (unit,) = units("flowed-nodelsp.eml")
    assert text(unit) == "Words wrapped at spaces come back together.\n"


@pytest.mark.parametrize(
    ("source", "delsp", "expected"),
    [
        ("a \nb\n", False, "a b\n"),
        ("a \nb\n", True, "ab\n"),
        ("> a \n> b\n", False, "> a b\n"),
        (">> a \n>>b\n", False, ">> a b\n"),
        # quote-depth wins: a flowed line before a change of depth ends the paragraph
        ("> a \n>> b\n", False, "> a \n>> b\n"),
        # the signature separator is neither flowed nor fixed, and ends a paragraph
        ("a \n-- \nsig\n", False, "a \n-- \nsig\n"),
        ("> -- \n", False, "> -- \n"),
        (" From stuffed\n", False, "From stuffed\n"),
        ("a \r\nb\r\n", False, "a b\n"),
        ("ends flowed ", False, "ends flowed "),
        ("", False, ""),
    ],
)
def test_unflow_rules(source: str, delsp: bool, expected: str) -> None:
    assert unflow(source, delsp) == expected


def test_html_to_text_shapes() -> None:
    out = html_to_text(
        '<p>one<br>two</p><a href=" http://a.example/\n x ">A</a><a href="http://a.example/x">B</a>'
        '<body><a href="mailto:m@example.com">m</a>'
    )
    visible, urls = out.split("\n\n", 1) if "\n\n" in out else (out, "")
    assert "one\ntwo" in out
    assert out.endswith("\nhttp://a.example/x\nmailto:m@example.com\n")
    assert out.count("http://a.example/x") == 1  # repeats removed, whitespace dropped
    assert visible or urls


def test_html_unclosed_head_still_shows_body() -> None:
    out = html_to_text("<html><head><style>x</style><body><p>see http://b.example/</p>")
    assert "http://b.example/" in out


def test_nested_message_rfc822_numbering_and_attachments() -> None:
    got = units("nested-rfc822.eml")
    assert [(u.context and u.context.part, u.context and u.context.content_type) for u in got] == [
        ("1", "text/plain"),
        ("3.1", "text/plain"),
        ("3.2", "text/html"),
        ("4.1", "text/plain"),
    ]
    assert "http://part31.example.com/" in text(got[1])
    assert "http://part41.example.com/" in text(got[3])
    assert all("inside-image" not in text(u) for u in got)


def test_include_attachments_scans_non_text_parts() -> None:
    got = units("nested-rfc822.eml", include_attachments=True)
    parts = {u.context.part: u for u in got if u.context}
    assert parts["2"].context is not None
    assert parts["2"].context.content_type == "image/png"
    assert "http://inside-image.invalid/" in text(parts["2"])


def test_hostile_headers_never_raise_and_keep_text() -> None:
    (unit,) = units("hostile-headers.eml")
    body = text(unit)
    assert "http://noboundary.example.com/" in body
    assert "http://after-nul.example.com/" in body
    assert "\x00" in body
    assert "\udcff" in body
    assert unit.context is not None
    assert unit.context.message_id == "<<<<>>>>"
    assert unit.context.date == "not a date"
    assert unit.context.subject is not None
    assert unit.context.subject.startswith("caf")
    found = set(codes(unit))
    assert {
        "multipart-not-split",
        "unknown-transfer-encoding",
        "mime-defect",
        "header-decode-error",
        "charset-decode-error",
    } <= found
    assert all(d.severity == "warning" for d in unit.defects)


def test_unknown_and_lying_charsets() -> None:
    bogus, lying, latin, codec, utf16 = units("unknown-charset.eml")
    assert text(bogus) == "Unknown charset caf\udce9 http://bogus.example.com/"
    assert codes(bogus) == ["unknown-charset", "charset-decode-error"]
    assert text(lying) == "Lying us-ascii, really UTF-8: café http://lying.example.com/"
    assert codes(lying) == ["charset-decode-error"]
    assert "caf\udce9 http://latin.example.com/" in text(latin)
    assert codes(codec) == ["unknown-charset"]  # "base64" is a codec, not a charset
    assert "http://codec.example.com/" in text(codec)
    assert text(utf16) == ""


@pytest.mark.parametrize(
    ("payload", "charset", "expected", "defects"),
    [
        (b"plain", None, "plain", []),
        (b"caf\xc3\xa9", None, "café", []),
        (b"caf\xe9", "iso-8859-1", "café", []),
        (b"caf\xe9", "windows-1252", "café", []),
        (b"\x81", "windows-1252", "\udc81", ["charset-decode-error"]),
        (b"h\x00i\x00", "utf-16-le", "hi", []),
        (b"caf\xe9", None, "caf\udce9", ["charset-decode-error"]),
        (b"x", "no-such-charset", "x", ["unknown-charset"]),
        (b"x", "\x00", "x", ["unknown-charset"]),
        (b"\\u0041", "unicode-escape", "\\u0041", ["unknown-charset"]),
        # 7-bit charsets whose escape sequences are ASCII bytes: read by their codec,
        # not as ASCII (the bytes are all ASCII; the text is not)
        ("日本 http://x.jp/".encode("iso-2022-jp"), "iso-2022-jp", "日本 http://x.jp/", []),
        ("한국 http://x.kr/".encode("iso-2022-kr"), "iso-2022-kr", "한국 http://x.kr/", []),
        (b"http://x.jp/ plain", "iso-2022-jp", "http://x.jp/ plain", []),
    ],
)
def test_decode_text(
    payload: bytes, charset: str | None, expected: str, defects: list[str]
) -> None:
    out, found = decode_text(payload, charset)
    assert out == expected
    assert [d.code for d in found] == defects


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("plain subject", "plain subject"),
        ("=?utf-8?q?caf=C3=A9?= bar", "café bar"),
        ("=?ISO-8859-1?Q?a?= =?ISO-8859-1?Q?b?=", "ab"),
        ("=?iso-8859-1?q?caf=E9?=", "café"),
    ],
)
def test_decode_subject(value: str, expected: str) -> None:
    assert decode_subject(value) == (expected, [])


def test_decode_subject_bad_charset_is_a_defect() -> None:
    out, found = decode_subject("=?x-nope?q?caf=E9?=")
    assert out.startswith("caf")
    assert {d.code for d in found} == {"header-decode-error"}


def test_truncated_base64_keeps_what_decodes() -> None:
    (unit,) = units("truncated-base64.eml")
    assert "http://trunc.example.com/" in text(unit)
    assert "mime-defect" in codes(unit)


def test_scan_headers_unit() -> None:
    header, body = units("list-headers.eml", scan_headers=True)
    assert header.context is not None
    assert (header.context.part, header.context.content_type) == ("0", "header")
    lines = text(header)
    assert (
        "List-Unsubscribe: <http://lists.example.com/options/l>, "
        "<mailto:l-request@example.com?subject=unsubscribe>\n" in lines
    )
    assert "Archived-At: <http://archive.example.com/msg/1>" in lines
    assert 'Link: <http://link.example.com/>; rel="alternate"' in lines
    assert "not-scanned" not in lines
    assert "http://body.example.com/" in text(body)
    assert len(units("list-headers.eml")) == 1  # off by default


def test_header_cap() -> None:
    data = (
        b"Subject: s\n"
        + b"X-Filler: "
        + b"f" * 5000
        + b"\nMessage-ID: <late@x>\n\nbody http://b.example/\n"
    )
    result = message_units(
        data, source="m", number=1, offset=0, options=MailOptions(max_header_bytes=100)
    )
    (unit,) = result.units
    assert "header-too-large" in codes(unit)
    assert unit.context is not None
    assert unit.context.subject == "s"
    assert unit.context.message_id is None
    assert text(unit) == "body http://b.example/\n"


def test_long_context_values_are_cut() -> None:
    data = b"Subject: " + b"s" * 5000 + b"\n\nbody\n"
    (unit,) = message_units(data, source="m", number=3, offset=7, options=MailOptions()).units
    assert unit.context is not None
    assert unit.context.subject is not None
    assert len(unit.context.subject) == 998
    assert (unit.context.message, unit.context.message_offset) == (3, 7)


def test_message_without_text_parts_but_with_defects_still_reports_them() -> None:
    data = b"Content-Type: image/png\nContent-Transfer-Encoding: base64\n\n!!!!\n"
    result = message_units(data, source="m", number=1, offset=0, options=MailOptions())
    assert result.skipped == 1
    assert result.text_parts == 0
    assert result.units == [] or all(u.chunks == () for u in result.units)


def test_deep_nesting_is_bounded() -> None:
    depth = 200
    head = b"".join(
        b"--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n" % (i, i + 1) for i in range(depth)
    )
    data = (
        b"Content-Type: multipart/mixed; boundary=b0\n\n"
        + head
        + b"--b%d\nContent-Type: text/plain\n\nhttp://deep.example/\n" % depth
    )
    result = message_units(data, source="m", number=1, offset=0, options=MailOptions())
    (unit,) = result.units  # the message is scanned as raw text: nothing is lost
    assert "http://deep.example/" in text(unit)
    assert {d.code for d in unit.defects} & {"mime-too-deep", "message-parse-error"}


MIME_SHAPED_LINES = [
    b"Content-Type: multipart/mixed; boundary=x\n",
    b"Content-Type: text/html; charset=bogus\n",
    b"Content-Type: text/plain; format=flowed; delsp=yes\n",
    b"Content-Type: message/rfc822\n",
    b"Content-Transfer-Encoding: base64\n",
    b"Content-Transfer-Encoding: quoted-printable\n",
    b"Subject: =?utf-8?b?w6k=?= =?bad?q?x?=\n",
    b"--x\n",
    b"--x--\n",
    b"\n",
    b"<a href='http://h.example/'>x</a>\n",
    b"http://u.example/=\n",
    b"aGVsbG8=\n",
    b"\xff\xfe\x00\n",
    b" continuation\n",
    b"> quoted \n",
]
"""Lines that make up MIME structure and its edge cases (shared with the fast-path tests)."""
_MIME_LINES = st.sampled_from(MIME_SHAPED_LINES)


@settings(max_examples=300, deadline=None)
@given(st.lists(_MIME_LINES, max_size=30))
def test_mime_walker_never_raises_on_mime_shaped_input(lines: list[bytes]) -> None:
    data = b"".join(lines)
    for options in (MailOptions(), MailOptions(include_attachments=True, scan_headers=True)):
        result = message_units(data, source="m", number=1, offset=0, options=options)
        for unit in result.units:
            assert all(isinstance(chunk, str) for chunk in unit.chunks)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_mime_walker_never_raises_on_random_bytes(data: bytes) -> None:
    result = message_units(data, source="m", number=1, offset=0, options=MailOptions())
    assert result.text_parts + result.skipped >= 0


def test_iso_2022_jp_body_is_read_as_japanese() -> None:
    # A 7-bit ISO-2022-JP body (all its bytes ASCII): the text is the Japanese, without
    # the escape sequences, and offsets count its characters.
    body = "お知らせ\nhttp://example.jp/a 詳細\n".encode("iso-2022-jp")
    message = (
        b"From: a@example.jp\nSubject: x\nMIME-Version: 1.0\n"
        b"Content-Type: text/plain; charset=ISO-2022-JP\n"
        b"Content-Transfer-Encoding: 7bit\n\n" + body
    )
    result = message_units(message, source="m", number=1, offset=0, options=MailOptions())
    (unit,) = result.units
    assert text(unit) == "お知らせ\nhttp://example.jp/a 詳細\n"
    assert "\x1b" not in text(unit)
    assert unit.defects == ()
