"""The per-message shortcuts of the part walk give what their long forms give.

* Context values: an ASCII value on one line is stripped and cut without
  :func:`~urlsift.sources.headers.header_text`'s steps, and a ``Subject`` without ``=?``
  skips :func:`~urlsift.sources.headers.decode_subject`; on any value (folded, 8-bit as
  surrogate escapes, white space around) the result is the long form's.
* Transfer encodings: a fast-path leaf reads its ``Content-Transfer-Encoding`` once; every
  kind of value (known, decoded, padded, folded, unknown, upper case) gives the units,
  defects and counts of the reference (stdlib) path.
* Part header blocks: looked for in a short prefix of the part first, they give what one
  long prefix gives, wherever the block ends around the short prefix's end.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_sources_mime_fastpath import HEAD
from urlsift.sources import parts
from urlsift.sources.headers import decode_subject, header_text
from urlsift.sources.options import MAX_CONTEXT_CHARS, MailOptions
from urlsift.sources.parts import _context_text, message_units

VALUES = st.text(st.sampled_from("ab =?:\t\n\r<>é\udcff"), max_size=40) | st.text(max_size=20)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_context_text_is_header_text_cut(value: str) -> None:
    assert _context_text(value) == header_text(value)[:MAX_CONTEXT_CHARS]


def test_context_text_cuts_long_values() -> None:
    value = " " + "x" * (MAX_CONTEXT_CHARS + 10) + " "
    assert _context_text(value) == header_text(value)[:MAX_CONTEXT_CHARS]
    assert _context_text(None) is None


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_subject_without_encoded_words_is_as_decoded(value: str) -> None:
    subject = header_text(value)[:MAX_CONTEXT_CHARS]
    if "=?" not in subject:
        assert decode_subject(subject) == (subject, [])


ENCODINGS = [
    b"7bit",
    b"8BIT",
    b"binary",
    b"base64",
    b" base64 ",
    b"Base64",
    b"quoted-printable",
    b"Quoted-Printable ",
    b"x-uuencode",
    b"uue",
    b"x-unknown",
    b"",
    b"base64\n\t",
    b"7bit (plain)",
]
BODIES = [b"aHR0cDovL2EuZXhhbXBsZS8K\n", b"see http://a.example/=\n page\n", b"plain\n"]


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("subject", [b"plain words", b"=?utf-8?q?caf=C3=A9?=", b"=?bad"])
def test_transfer_encodings_fast_as_reference(encoding: bytes, body: bytes, subject: bytes) -> None:
    message = (
        HEAD.replace(b"Subject: a subject", b"Subject: " + subject)
        + b"Content-Type: text/plain\nContent-Transfer-Encoding: "
        + encoding
        + b"\n\n"
        + body
    )
    for options in (MailOptions(), MailOptions(scan_headers=True)):
        results = [
            message_units(message, source="m", number=1, offset=0, options=options, fast=fast)
            for fast in (True, False)
        ]
        fast_result, reference = results
        assert [(u.context, u.defects, tuple(u.chunks)) for u in fast_result.units] == [
            (u.context, u.defects, tuple(u.chunks)) for u in reference.units
        ]
        assert (fast_result.text_parts, fast_result.defects, fast_result.skipped) == (
            reference.text_parts,
            reference.defects,
            reference.skipped,
        )


# A part's header block is looked for in a short prefix first: at every length around that
# prefix's end, with LF or CRLF blank lines and a URL line, the result is the one-prefix
# reading's.
@pytest.mark.parametrize("line_end", [b"\n", b"\r\n"])
@pytest.mark.parametrize("shift", range(-4, 5))
@pytest.mark.parametrize("tail", [b"", b"http://a.example/ no blank line\n"])
def test_a_part_header_is_found_wherever_the_short_prefix_ends(
    monkeypatch: pytest.MonkeyPatch, line_end: bytes, shift: int, tail: bytes
) -> None:
    head = b"Content-Type: text/plain" + line_end
    filler = b"X-Filler: " + b"y" * 60 + line_end
    while len(head) + len(filler) < parts._SHORT_HEADER + shift:
        head += filler
    pad = parts._SHORT_HEADER + shift - len(head)
    if pad > len(b"X-P: " + line_end):
        head += b"X-P: " + b"z" * (pad - len(b"X-P: " + line_end)) + line_end
    entity = head + tail + line_end + b"body" + line_end
    got = parts._entity_values(entity, 0, len(entity))
    monkeypatch.setattr(parts, "_SHORT_HEADER", parts.MAX_LIFTED_HEADER)
    assert got == parts._entity_values(entity, 0, len(entity))
