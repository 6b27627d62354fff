"""Base64 and quoted-printable bodies decoded in slices, to exactly the stdlib's bytes.

Strategy: ``Message.get_payload(decode=True)`` decodes a body held as a ``str`` by encoding
it back to bytes, splitting it into lines and joining them (base64), then decoding: about
five copies of the body at once (figures: ``benchmarks/README.md``, ``bench_memory.py
--cap``). :func:`decode_body` gives the same bytes from the body where it already is
(the message's bytes, or the parsed part's ``str``), a slice of about
:data:`SLICE_BYTES` at a time, cut just after a line feed:

* base64: the stdlib removes CR and LF (``b"".join(lines)``) and decodes with
  ``email._encoded_words.decode_b``, which for *clean* input (only the base64 alphabet,
  one or two ``=`` at the very end, a multiple of four symbols) is plain base64 decoding
  with no defect; quanta of four symbols decode independently, so the slices' symbols are
  decoded four at a time, a remainder carried to the next slice. Anything else (stray
  characters, bad padding: input the stdlib reports defects for) returns ``None``, and the
  caller lets the stdlib decode it as before.
* quoted-printable: the stdlib calls ``binascii.a2b_qp`` on the whole body
  (``quopri.decodestring``); a2b_qp reads an escape or a soft line break (``=`` then CR or
  LF, which skips to the next LF) without looking past the next LF, so slices cut just
  after an LF decode to the same bytes, joined.

The fast path (:func:`~.parts.message_units`) decodes every body it reads from the
message's bytes so (one slice for most: ``binascii`` once, no ``Message``); bodies of parts
the stdlib parsed come here only when large (:data:`LARGE_BODY_BYTES`). Tests hold the
results to ``get_payload(decode=True)``'s on many bodies. Memory: the decoded bytes, one
slice, and (at the end) their join.
"""

from __future__ import annotations

import binascii

__all__ = ["LARGE_BODY_BYTES", "SLICE_BYTES", "decode_body"]

LARGE_BODY_BYTES = 1 << 20
"""Bodies longer than this (in characters or bytes) are decoded by :func:`decode_body`."""

SLICE_BYTES = 1 << 20
"""About how much of the body is converted and decoded at a time."""

_BASE64_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_LINE_ENDS = b"\r\n"


def _slices(body: bytes | str, start: int, end: int, size: int) -> list[tuple[int, int]]:
    # (start, stop) of the slices of body[start:end], each ending just after an LF (or at
    # the end).
    out = []
    while start < end:
        at = min(start + size, end) - 1
        newline = "\n" if isinstance(body, str) else b"\n"
        cut = body.find(newline, at, end)  # type: ignore[arg-type]  # str with str, bytes with bytes
        stop = end if cut < 0 else cut + 1
        out.append((start, stop))
        start = stop
    return out


def _piece(body: bytes | str, start: int, stop: int) -> bytes | None:
    # The slice as bytes: a str body holds ASCII and surrogate escapes (the feed parser's
    # reading of bytes), written back as those bytes, as get_payload does.
    if isinstance(body, bytes):
        return body[start:stop]
    try:
        return body[start:stop].encode("ascii", "surrogateescape")
    except UnicodeEncodeError:
        return None  # not a parser's str: leave it to the stdlib


def decode_body(
    body: bytes | str, start: int, encoding: str, stop: int | None = None
) -> bytes | None:
    """Decode ``body[start:stop]`` as ``get_payload(decode=True)`` would, slice by slice.

    Args:
        body: the message's bytes, or a parsed part's payload ``str``.
        start: where the body starts in ``body``.
        stop: where it ends (default: the end of ``body``).
        encoding: the transfer encoding, lower case and stripped: ``base64`` or
            ``quoted-printable`` (others give ``None``).

    Returns:
        The decoded bytes, or ``None`` when the stdlib must decode the body itself (base64
        that is not clean, a ``str`` that is not a parser's reading of bytes, another
        encoding).
    """
    end = len(body) if stop is None else stop
    if encoding == "quoted-printable":
        return _decode_qp(body, start, end)
    if encoding == "base64":
        return _decode_base64(body, start, end)
    return None


def _decode_qp(body: bytes | str, start: int, end: int) -> bytes | None:
    pieces = []
    for first, stop in _slices(body, start, end, SLICE_BYTES):
        piece = _piece(body, first, stop)
        if piece is None:
            return None
        pieces.append(binascii.a2b_qp(piece))
    return b"".join(pieces)


def _decode_base64(body: bytes | str, start: int, end: int) -> bytes | None:
    pieces = []
    carry = b""  # symbols of an unfinished quantum
    padded = False  # "=" seen: nothing may follow
    for first, stop in _slices(body, start, end, SLICE_BYTES):
        piece = _piece(body, first, stop)
        if piece is None:
            return None
        symbols = carry + piece.translate(None, _LINE_ENDS)
        if not symbols:
            continue
        if padded:
            return None
        stray = symbols.translate(None, _BASE64_ALPHABET)
        if stray:
            # Only "=" or "==" ending the body's symbols (checked at the end) is clean.
            if stray not in (b"=", b"==") or not symbols.endswith(stray):
                return None
            padded = True
        whole = len(symbols) - len(symbols) % 4
        pieces.append(binascii.a2b_base64(symbols[:whole]))
        carry = symbols[whole:]
    if carry:
        return None  # not a multiple of four symbols: the stdlib reports the padding
    return b"".join(pieces)
