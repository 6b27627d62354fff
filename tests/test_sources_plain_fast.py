"""``parts._plain_message`` gives what the part walk (and the reference path) gives the most
common message.

A single-part ``text/plain`` message with a clean header block, written as it is sent
and with nothing to report, is read by ``message_units`` in one step (issue 26: about a
tenth of a short message's reading was the walk's layers). Where that step answers, the
result must be the walk's, unit for unit; where the message is anything else it must
not answer. The walk itself is held to the stdlib's reference path by
``test_sources_mime_fastpath.py``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_sources_mime import MIME_SHAPED_LINES
from urlsift.sources import parts
from urlsift.sources.options import MailOptions
from urlsift.sources.parts import MessageResult, message_units

_HEADER_LINES = [
    *MIME_SHAPED_LINES,
    b"From: Ann Lee <ann@example.org>\n",
    b"Subject: a subject\n",
    b"Subject: =?utf-8?q?caf=C3=A9?=\n",
    b"Subject: =?bogus?q?x?=\n",
    b"Subject:   spaced  \n",
    b"Date: Mon, 2 Jan 1995 10:00:00 +0000\n",
    b"Date: 31 Feb 1995 10:00:00 +0000\n",
    b"Date: yesterday\n",
    b"Message-ID: <1@example.org>\n",
    b"Content-Type: text/plain\n",
    b"Content-Type: text/plain; charset=utf-8\n",
    b"Content-Type: TEXT/PLAIN; charset=iso-8859-1\n",
    b"Content-Type: text/plain; charset=x-unknown\n",
    b"Content-Type: text/plain; format=flowed\n",
    b"Content-Type: text/plain; charset=utf-16\n",
    b"Content-Type: text/html\n",
    b"Content-Type: text/plain; charset=\xe9\n",
    b"Content-Transfer-Encoding: 7bit\n",
    b"Content-Transfer-Encoding: 8BIT \n",
    b"Content-Transfer-Encoding: binary\n",
    b"Content-Transfer-Encoding: x-unknown\n",
    b"Content-Transfer-Encoding: quoted-printable\n",
    b"Content-Transfer-Encoding: Base64 \n",
    b"Content-Transfer-Encoding: x-uuencode\n",
    b"Content-Type: text/plain; format=flowed; delsp=yes\n",
    b"Received: from a\n",
    b"\tby b\n",
]
_BODY_PIECES = [b"text ", b"http://a.example/x ", b"\n", b"\r\n", b"\r", b"\xc3\xa9", b"\xe9"]
_BODY_PIECES += [b"\xff\xfe", b"> quoted\n", b"=3D", b"From x\n", b"\x00"]
# Quoted-printable soft breaks and escapes, flowed soft breaks, base64 (clean and not).
_BODY_PIECES += [b"=\n", b"=C3=A9", b"=ZZ", b"a \n", b"-- \n", b"aHR0cDovL2EuZXhhbXBsZS8=\n", b"!"]


def _key(result: MessageResult) -> tuple[object, ...]:
    units = [(u.source, list(u.chunks), u.context, u.defects, u.origin) for u in result.units]
    counts = (result.text_parts, result.header_units, result.skipped, result.defects)
    return (units, counts, result.declined)


def _walked(data: bytes, options: MailOptions, monkeypatch: pytest.MonkeyPatch) -> object:
    with monkeypatch.context() as patch:
        patch.setattr(parts, "_plain_message", lambda *arguments: None)
        return _key(message_units(data, source="m", number=3, offset=7, options=options))


# Header lines and body pieces of messages that take the one step (most blocks built of
# them do, or miss it by one condition).
_PLAIN_LINES = [
    b"From: Ann Lee <ann@example.org>\n",
    b"Subject: a subject\n",
    b"Subject: =?utf-8?q?caf=C3=A9?=\n",
    b"Subject:   spaced  \n",
    b"Date: Mon, 2 Jan 1995 10:00:00 +0000\n",
    b"Date: Mon, 2 Jan 95 10:00 EST\n",
    b"Message-ID: <1@example.org>\n",
    b"Content-Type: text/plain\n",
    b"Content-Type: text/plain; charset=utf-8\n",
    b"Content-Type: TEXT/PLAIN; charset=iso-8859-1\n",
    b"Content-Transfer-Encoding: 7bit\n",
    b"Content-Transfer-Encoding: 8BIT \n",
    b"Content-Transfer-Encoding: quoted-printable\n",
    b"Content-Transfer-Encoding: base64\n",
    b"Content-Type: text/plain; charset=utf-8; format=flowed\n",
    b"Content-Type: text/plain; format=Flowed; DelSp=Yes\n",
    b"Received: from a\n",
    b"\tby b\n",
    # charsets read by their codec (plain_codec), or left to decode_text
    b"Content-Type: text/plain; charset=us-ascii\n",
    b"Content-Type: text/plain; charset=windows-1252\n",
    b"Content-Type: text/plain; charset=utf-16\n",
    b"Content-Type: text/plain; charset=utf-7\n",
    b"Content-Type: text/plain; charset=x-unknown\n",
    # context fields: 8-bit, folded, long (together over MAX_CONTEXT_CHARS), spaced
    b"From: G\xc3\xb6del <g@example.org>\n",
    b"From: a\n b\n",
    b"Subject: " + b"s" * 990 + b"\n",
    b"Message-ID:  <2@example.org> \t\n",
]
_PLAIN_BODY = [b"text ", b"http://a.example/x ", b"\n", b"\r\n", b"\r", b"\xc3\xa9", b"=3D"]
_PLAIN_BODY += [b"=\n", b"=C3=A9", b"a \n", b"> q \n", b"aHR0cDovL2EuZXhhbXBsZS8=\n"]
_PLAIN_BODY += [b"\xe9", b"+AGE-", b"\x80"]


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.lists(st.sampled_from(_HEADER_LINES), max_size=8),
        st.lists(st.sampled_from(_PLAIN_LINES), min_size=1, max_size=8),
    ),
    st.one_of(
        st.lists(st.sampled_from(_BODY_PIECES), max_size=12),
        st.lists(st.sampled_from(_PLAIN_BODY), max_size=12),
    ),
    st.sampled_from([MailOptions(), MailOptions(max_header_bytes=60)]),
)
def test_the_one_step_is_the_walk(
    header: list[bytes], body: list[bytes], options: MailOptions
) -> None:
    data = b"".join(header) + b"\n" + b"".join(body)
    with pytest.MonkeyPatch.context() as monkeypatch:
        walked = _walked(data, options, monkeypatch)
    got = _key(message_units(data, source="m", number=3, offset=7, options=options))
    assert got == walked
    clean = parts._root_block(data, options)
    if clean is not None and parts._plain_message(data, clean, "m", 3, 7) is not None:
        # and the stdlib's reference path (the feed parser) reads it so too
        reference = message_units(data, source="m", number=3, offset=7, options=options, fast=False)
        assert got == _key(reference)


@pytest.mark.parametrize(
    ("fields", "body", "text"),
    [
        (
            b"Content-Type: text/plain; charset=utf-8\n"
            b"Content-Transfer-Encoding: quoted-printable\n",
            b"caf=C3=A9 http://a.ex=\nample/\n",
            "caf\xe9 http://a.example/\n",
        ),
        (
            b"Content-Transfer-Encoding: base64\n",
            b"aHR0cDovL2EuZXhhbXBsZS8=\n",
            "http://a.example/",
        ),
        (
            b"Content-Type: text/plain; format=flowed\n",
            b"see \nhttp://a.example/\n> q \n> r\n",
            "see http://a.example/\n> q r\n",
        ),
    ],
)
def test_encoded_and_flowed_messages_take_the_one_step(
    fields: bytes, body: bytes, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = _one_step(b"Subject: s\n" + fields + b"\n" + body, monkeypatch)
    assert [list(unit.chunks) for unit in plain.units] == [[text]]


def _one_step(data: bytes, monkeypatch: pytest.MonkeyPatch) -> MessageResult:
    # The one step's result for a message it takes, held to the walk's.
    options = MailOptions()
    clean = parts._root_block(data, options)
    assert clean is not None
    unit = parts._plain_message(data, clean, "m", 3, 7)
    assert unit is not None
    plain = MessageResult(units=[unit], text_parts=1)
    assert _key(plain) == _walked(data, options, monkeypatch)
    assert parts.read_message(data, "m", 3, 7, options, ()) == unit
    return plain


def test_the_common_message_takes_the_one_step(monkeypatch: pytest.MonkeyPatch) -> None:
    data = (
        b"From: Ann <a@example.org>\nSubject: =?utf-8?q?caf=C3=A9?=\n"
        b"Date: Mon, 2 Jan 1995 10:00:00 +0000\nMessage-ID: <1@x>\nReceived: from a\n\tby b\n"
        b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
        b"caf\xc3\xa9 http://a.example/\r\n"
    )
    (unit,) = _one_step(data, monkeypatch).units
    assert list(unit.chunks) == ["caf\xe9 http://a.example/\n"]
    assert unit.context is not None
    assert unit.context.subject == "caf\xe9"
    assert unit.context.date_utc == "1995-01-02T10:00:00Z"


@pytest.mark.parametrize(
    "data",
    [
        b"Subject: s\nContent-Type: text/html\n\n<p>x\n",
        b"Subject: s\nContent-Transfer-Encoding: base64\n\naGk=!\n",  # not clean: the stdlib's
        b"Subject: s\nContent-Transfer-Encoding: x-uuencode\n\nx\n",
        b"Subject: s\nContent-Transfer-Encoding: x-y\n\nx\n",
        b"Date: yesterday\n\nx\n",  # unparseable-date
        b"Subject: =?bogus?q?x?=\n\nx\n",  # header-decode-error
        b"Content-Type: text/plain; charset=us-ascii\n\ncaf\xc3\xa9\n",  # charset defect
        b"Subject: s\n\n" + b"x" * (parts.TEXT_PIECE_CHARS + 1),
        # flowed text that its unwrapping makes longer than a piece (">a" is "> a")
        b"Subject: s\nContent-Type: text/plain; format=flowed\n\n"
        + b">a\n" * (parts.TEXT_PIECE_CHARS // 3),
        b"Subject: s\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\nx\n--b--\n",
    ],
)
def test_other_messages_take_the_walk(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    clean = parts._root_block(data, MailOptions())
    assert clean is not None
    assert parts._plain_message(data, clean, "m", 1, 0) is None
    result = message_units(data, source="m", number=3, offset=7, options=MailOptions())
    assert _key(result) == _walked(data, MailOptions(), monkeypatch)
