"""What the mail layer reads without the stdlib's ``Message`` (issue 26, eighth pass).

A base64 body that ``.transfer`` does not take (bad padding, stray characters) is decoded
as ``Message.get_payload(decode=True)`` decodes it, with the defects it gives the part,
without building a ``Message`` (``email.message`` brings ``email.utils``, ``socket``,
``urllib.parse``...); the tests hold the two together on generated bodies. A Content-Type
value whose type is not in the common shape (none, no "/") or with an empty parameter is
read without a ``Message`` too (``test_sources_boundary_fast`` holds those to the stdlib).
A scan of messages of the shapes met in real archives (an obsolete date, an unclosed
multipart, a part cut after its header block, a bad base64 body, odd Content-Type values)
imports neither ``email.message`` nor ``email.utils`` nor the feed parser.
"""

from __future__ import annotations

import subprocess
import sys
from email.message import Message

from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift.sources.parts import _base64_payload


def _stdlib(body: bytes) -> tuple[bytes, list[tuple[str, str]]]:
    part = Message()
    part.set_raw("Content-Transfer-Encoding", "base64")
    part.set_payload(body.decode("ascii", "surrogateescape"))
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload, [(type(d).__name__, str(d)) for d in part.defects]


def _own(body: bytes) -> tuple[bytes, list[tuple[str, str]]]:
    read = _base64_payload(body)
    assert read is not None
    return read[0], [(type(d).__name__, str(d)) for d in read[1]]


_BASE64_BYTES = st.sampled_from([*b"QUJDRGVmZ2hp+/=\n\r \t*-.", 0xE9, 0x00])


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.lists(_BASE64_BYTES, max_size=60).map(bytes), st.binary(max_size=60)))
def test_base64_bodies_decoded_as_get_payload_decodes_them(body: bytes) -> None:
    assert _own(body) == _stdlib(body)


def test_base64_table() -> None:
    for body in [
        b"",
        b"QUJD",
        b"QUJ",
        b"QU",
        b"Q",
        b"QUJD\nRA==\n",
        b"QUJD\r\nRA",
        b"QUJD*RA==",
        b"==",
    ]:
        assert _own(body) == _stdlib(body), body


HEAD = b"From: a@example.org\nSubject: s\nMessage-ID: <1@example.org>\n"
MESSAGES = [
    HEAD + b"Date: Wed, 10 Sep 97 23:40 EDT\n\nhttp://one.example/\n",
    HEAD
    + b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\n'
    + b"http://two.example/\n--b\nContent-Type: text/plain; charset=us-ascii\n"
    + b"Content-Disposition: attachment\n",
    HEAD
    + b'Content-Type: multipart/mixed; boundary="b"\n\n--b\n'
    + b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
    + b"aHR0cDovL3RocmVlLmV4YW1wbGUv*\n--b--\n",
    HEAD
    + b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/html; charset=\n\n'
    + b'http://four.example/\n--b\nContent-Type: ; name="a.pdf"\n\n%PDF\n'
    + b"--b\nContent-Type: text\n\nhttp://five.example/\n--b--\n",
]


def test_a_scan_of_such_messages_imports_no_message_class() -> None:
    code = (
        "import sys\n"
        "from urlsift.sources.parts import message_units\n"
        "from urlsift.sources.options import MailOptions\n"
        f"for data in {MESSAGES!r}:\n"
        "    result = message_units(data, source='m', number=1, offset=0, options=MailOptions())\n"
        "    assert result.declined == '' and result.units, result\n"
        "print(sorted(m for m in sys.modules if m in ('email.message', 'email.utils',"
        " 'email.parser', 'email.feedparser', 'socket', 'urllib.parse')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
