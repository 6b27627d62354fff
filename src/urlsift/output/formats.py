"""Renderers: records to text, JSON Lines or CSV on a text stream.

Strategy: one small writer class per format behind a table (:data:`WRITERS`); the CLI picks
one by name. Writers never decide anything about URLs; they only lay records out. Lone
surrogates (bytes that were not valid UTF-8 in the input) are written back as the original
bytes in text and CSV output, and as ``\\udcXX`` escapes in JSON, which must stay valid UTF-8.

Control characters are data in JSON Lines (escaped the JSON way) and CSV (written as they
are: a CSV reader must get the exact value, and a field holding a line break or a carriage
return is quoted so that one record stays one row), but never reach a terminal from the
text format: :func:`visible`, the one definition every human-readable output of urlsift
uses (``scan``'s text lines and stderr lines, ``validate``, ``report``, lint's messages),
writes them as ``\\xNN``.

Each writer handles three kinds of record: URLs, a message's defects (only JSON Lines has
a place for them: the CLI shows them on stderr for the other formats), and the rows of the
``--count`` table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal, TextIO, get_args

from .._model import (
    CONTEXT_KEYS,
    Defect,
    Kind,
    MessageContext,
    UnitDefects,
    Url,
    _set_json,
    context_values,
)

if TYPE_CHECKING:  # the --count rows: imported by the writers of --count
    from .summary import HostCount, UrlCount

CountBy = Literal["url", "host"]
"""What ``--count`` counts by."""

CSV_FIELDS = (
    "source",
    "line",
    "column",
    "end_line",
    "start",
    "end",
    "kind",
    "scheme",
    "url",
    "normalized",
    "valid",
    "alternatives",
    "defects",
    "raw",
    *CONTEXT_KEYS,
)
"""Columns of ``--format csv``; list-valued fields are joined with a space; the message
columns (:data:`~urlsift._model.CONTEXT_KEYS`, named as in JSON) are empty for plain
text."""

COUNT_FIELDS = ("url", "count", "first_date", "last_date", "normalized", "variants")
"""Columns of ``--format csv --count`` (``variants``: the other spellings, space-separated)."""

HOST_COUNT_FIELDS = ("host", "count", "first_date", "last_date", "urls")
"""Columns of ``--format csv --count host`` (``urls``: distinct URLs on the host)."""


# Characters a terminal may act on: C0 controls (ESC starts every escape sequence; BEL,
# BS and CR rewrite what is shown), DEL, and the C1 controls U+0080..U+009F (CSI and OSC on
# their own, for terminals that take them), plus the lone surrogates U+DC80..U+DC9F that
# stand for undecodable input bytes 0x80..0x9F: a text stream writes those back as the
# bytes, which are the same C1 controls to a terminal in an 8-bit character set.
_CONTROLS = {code: f"\\x{code:02x}" for code in [*range(0x20), *range(0x7F, 0xA0)]}
_CONTROLS.update({0xDC00 + code: f"\\x{code:02x}" for code in range(0x80, 0xA0)})
# The Unicode bidirectional controls (ALM, LRM, RLM, the embeddings, overrides and
# isolates): not terminal commands, but they reorder what is shown after them, so a URL
# could read as another one ("Trojan Source", CVE-2021-42574). Shown as `\uNNNN`.
_BIDI_CONTROLS = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_CONTROLS.update({code: f"\\u{code:04x}" for code in _BIDI_CONTROLS})


def visible(text: str) -> str:
    """Return ``text`` safe to show on a terminal: control characters as ``\\xNN``.

    Bidirectional controls (U+202E and its kin), which would reorder the text shown after
    them, are written ``\\uNNNN``.

    The one definition for every human-readable output. Other characters are kept, lone
    surrogates U+DCA0..U+DCFF too (undecodable bytes that a ``surrogateescape`` stream
    writes back as they were read); :func:`visible_utf8` also makes those text.
    """
    return text if text.isprintable() else text.translate(_CONTROLS)


def visible_utf8(text: str) -> str:
    """Return :func:`visible` ``(text)`` as valid UTF-8: lone surrogates as ``\\udcNN``."""
    shown = visible(text)
    return shown if shown.isprintable() else shown.encode("utf-8", "backslashreplace").decode()


def location(source: str, context: MessageContext | None) -> str:
    """Where a record came from in text form: ``path``, or ``path#message/part`` for mail."""
    if context is None:
        return source
    return f"{source}#{context.message}/{context.part}"


class TextWriter:
    """``path:line:col: url``, one record per line (the format compilers and grep use).

    For mail, ``path#message/part:line:col: url``: line and column are in the decoded part.
    """

    def __init__(self, stream: TextIO, *, counts: CountBy | None = None) -> None:
        self._stream = stream
        self.reasons = False
        """Follow an invalid URL with why (``scan --invalid-only``): ``  [bad-host: ...]``."""
        del counts  # the text format needs no header

    def write(self, url: Url) -> None:
        """Write one URL."""
        where = visible(location(url.source, url.context))
        why = _why_invalid(url) if self.reasons and not url.valid else ""
        self._stream.write(f"{where}:{url.line}:{url.column}: {visible(url.url)}{why}\n")

    def write_defects(self, record: UnitDefects) -> bool:
        """Text output has no place for defect records (the CLI shows them on stderr)."""
        del record
        return False

    def write_count(self, row: UrlCount | HostCount) -> None:
        """Write ``count url [first-date .. last-date] (also other-spellings)``.

        A host row reads ``count host [first-date .. last-date] (N URLs)``.
        """
        dates = f"  [{row.first_date} .. {row.last_date}]" if row.first_date else ""
        from ._countrows import HostCount

        if isinstance(row, HostCount):
            urls = f"  ({row.urls} URL{'s' if row.urls != 1 else ''})"
            self._stream.write(visible(f"{row.count:7d} {row.host}{dates}{urls}") + "\n")
            return
        variants = row.variants
        also = f"  (also {' '.join(variants)})" if variants else ""
        self._stream.write(visible(f"{row.count:7d} {row.url}{dates}{also}") + "\n")


def _why_invalid(url: Url) -> str:
    # The errors that make a URL invalid, after it on its text line: "  [code: message]".
    errors = [f"{d.code}: {d.message}" for d in url.defects if d.severity == "error"]
    return f"  [{'; '.join(errors)}]" if errors else ""


# The json module's encoders, imported by the first JSON written (a text scan does not
# load json): until then each name below is a stand-in that imports them, puts them in
# its place and hands on its call, so later calls go straight to the encoder.


def _import_json() -> None:
    global _encode_json, _encode_json_ascii, _encode_string
    if _encode_string is not _first_encode_string:
        return  # imported already (a stand-in was bound before it: see url_json's q)
    import json.encoder

    _encode_json = json.JSONEncoder(ensure_ascii=False).encode
    _encode_json_ascii = json.JSONEncoder(ensure_ascii=True).encode
    _encode_string = json.encoder.encode_basestring  # the string encoder _encode_json uses
    _KIND_JSON.update({kind: _encode_string(kind) for kind in get_args(Kind)})


def _first_encode_json(data: object) -> str:
    _import_json()
    return _encode_json(data)


def _first_encode_json_ascii(data: object) -> str:
    _import_json()
    return _encode_json_ascii(data)


def _first_encode_string(text: str) -> str:
    _import_json()
    return _encode_string(text)


_encode_json: Callable[[object], str] = _first_encode_json
_encode_json_ascii: Callable[[object], str] = _first_encode_json_ascii
_encode_string: Callable[[str], str] = _first_encode_string


def _json_line(data: dict[str, object]) -> str:
    return _utf8_or_escaped(_encode_json(data), lambda: data)


# Characters that end a line for Python's str.splitlines and for older JavaScript but that
# the json module leaves as they are: written as escapes, one record is always one line
# whoever splits it (in a JSON text they can only occur inside strings). So are the other
# C1 controls (U+0080..U+009F), which a terminal may act on: the same string to any JSON
# reader, and a JSON Lines file shown on a terminal stays inert.
# They are found in the line's UTF-8 (see _as_utf8_text): U+0080..U+009F, U+2028, U+2029.
_C1_UTF8 = re.compile(b"\xc2[\x80-\x9f]")
_SEPARATORS_UTF8 = re.compile(b"\xe2\x80[\xa8\xa9]")
_ESCAPED_BREAKERS = {code: f"\\u{code:04x}" for code in [*range(0x80, 0xA0), 0x2028, 0x2029]}


def _utf8_or_escaped(line: str, data: Callable[[], dict[str, object]], close: str = "}") -> str:
    # ``line`` when it encodes as UTF-8; else (lone surrogates) ``data()`` encoded with
    # every non-ASCII character escaped, so the line stays valid UTF-8 (``close``: what
    # ``line`` ends with from its closing brace on). Line separators other than LF are
    # escaped too (see _ESCAPED_BREAKERS).
    if line.isascii():
        return line
    written = _as_utf8_text(line)
    return _encode_json_ascii(data()) + close[1:] if written is None else written


def _as_utf8_text(text: str) -> str | None:
    # Non-ASCII JSON ``text`` with its line separators escaped, or None when it does not
    # encode as UTF-8 (lone surrogates). The escapes are ASCII and made character by
    # character, so pieces of a line checked apart give the line checked whole.
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    # A line separator is U+0080..U+009F (UTF-8 C2 80..C2 9F) or U+2028, U+2029 (E2 80 A8,
    # E2 80 A9), and in valid UTF-8 those bytes mean nothing else: most lines hold neither
    # lead byte, which memchr rules out, and the others are searched as bytes, from a
    # literal prefix (a tenth of the time of the pattern's search through the characters
    # of a line holding a curly quote or a dash, E2 80 xx).
    if (b"\xc2" in encoded and _C1_UTF8.search(encoded) is not None) or (
        b"\xe2" in encoded and _SEPARATORS_UTF8.search(encoded) is not None
    ):
        return text.translate(_ESCAPED_BREAKERS)
    return text


def _json_or_null(value: str | None) -> str:
    return "null" if value is None else _encode_string(value)


# The encoded code, message and severity of the defects written last (the same few, with
# their long messages, come back on record after record): bounded, cleared when full.
_DEFECT_HEADS: dict[tuple[str, str, str], str] = {}
_MAX_DEFECT_HEADS = 256


def _defect_json(defect: Defect) -> str:
    key = (defect.code, defect.message, defect.severity)
    head = _DEFECT_HEADS.get(key)
    if head is None:
        q = _encode_string
        head = f'{{"code": {q(key[0])}, "message": {q(key[1])}, "severity": {q(key[2])}'
        if len(_DEFECT_HEADS) >= _MAX_DEFECT_HEADS:
            _DEFECT_HEADS.clear()
        _DEFECT_HEADS[key] = head
    return head + "}" if defect.offset is None else f'{head}, "offset": {defect.offset}}}'


def _pairs_json(pairs: tuple[tuple[str, str], ...]) -> str:
    # As encoding dict(pairs): a repeated name keeps its first place and its last value.
    q = _encode_string
    # Most URLs have one or two parts (a mailto address; a host and a path): written
    # without the general loop.
    if len(pairs) == 1:
        name, value = pairs[0]
        return f"{{{q(name)}: {q(value)}}}"
    if len(pairs) == 2:
        (name, value), (other, last) = pairs
        if name == other:
            return f"{{{q(name)}: {q(last)}}}"
        return f"{{{q(name)}: {q(value)}, {q(other)}: {q(last)}}}"
    merged = dict(pairs)
    if len(merged) < len(pairs):
        pairs = tuple(merged.items())
    return "{" + ", ".join([f"{q(name)}: {q(value)}" for name, value in pairs]) + "}"


_KIND_JSON: dict[str, str] = {}
"""The kinds' JSON strings (filled when json is imported; until then ``q(kind)``)."""

# The JSON strings of the few values that come back in context after context (MIME part
# numbers, content types): bounded, cleared when full.
_NAME_JSON: dict[str, str] = {}
_MAX_NAME_JSON = 256


def _name_json(value: str) -> str:
    made = _NAME_JSON.get(value)
    if made is None:
        made = _encode_string(value)
        if len(_NAME_JSON) >= _MAX_NAME_JSON:
            _NAME_JSON.clear()
        _NAME_JSON[value] = made
    return made


# The last message context written, its JSON as a line holds it and whether that JSON
# may be written as it is whatever the rest of the line (see _context_entry) (a message's
# URLs come out together), as one triple read and replaced whole (writers in threads see
# a triple, never part of one).
_LAST_CONTEXT: list[tuple[MessageContext | None, str, bool]] = [(None, "", True)]


def url_json(url: Url, close: str = "}") -> str:
    """Return ``url.to_dict()`` as one JSON text, exactly as :func:`_json_line` writes it
    (``close``: the object's closing brace, and what the caller writes after it, such as
    a line end, without copying the line again).

    Built field by field with the json module's own string encoder, which is twice as fast
    as building the dict and encoding it (``JSONEncoder.encode`` sets up an encoder per
    call); that matters at one record per URL. The message context's JSON is kept for the
    last context (a message's URLs come one after the other). A property test holds the two
    to the same text.
    """
    q = _encode_string
    # Most URLs have no defects and no alternatives, and are written as they read.
    defects = ", ".join([_defect_json(d) for d in url.defects]) if url.defects else ""
    alternatives = ", ".join(map(q, url.alternatives)) if url.alternatives else ""
    text = q(url.url)
    normalized = text if url.normalized == url.url else q(url.normalized)
    raw = text if url.raw == url.url else q(url.raw)
    kind = _KIND_JSON.get(url.kind) or q(url.kind)
    line = (
        f'{{"url": {text}, "normalized": {normalized}, "alternatives": [{alternatives}], '
        f'"raw": {raw}, "kind": {kind}, "scheme": {q(url.scheme)}, '
        f'"start": {url.start}, "end": {url.end}, "line": {url.line}, '
        f'"column": {url.column}, "end_line": {url.end_line}, "source": {q(url.source)}, '
        f'"defects": [{defects}], "valid": {"true" if url.valid else "false"}'
    )
    if url.fragment is not None:
        line += f', "fragment": {q(url.fragment)}'
    parts = url.parts
    pairs = parts.pairs  # a slot: no Python call, unlike the mapping's __bool__
    if pairs:
        # Kept on the Parts: the records of a repeated URL share it (90 % of the records
        # of the shared archives; mail repeats its list footers and signatures).
        made = parts._json
        if made is None:
            made = _pairs_json(pairs)
            _set_json(parts, made)
        line += f', "parts": {made}'
    ctx = url.context
    if ctx is None:
        line += close
        # Most lines are ASCII: no call (and no bound method) to find that out.
        return line if line.isascii() else _utf8_or_escaped(line, url.to_dict, close)
    last = _LAST_CONTEXT[0]
    if last[0] is not ctx:
        last = _LAST_CONTEXT[0] = _context_entry(ctx)
    # The context's JSON was checked when it was made: the record's own fields are
    # checked apart (_as_utf8_text), unless the context's JSON cannot stand as it is (lone
    # surrogates: the whole line is then encoded again with ASCII escapes).
    if last[2]:
        if line.isascii():
            return f"{line}{last[1]}{close}"
        own = _as_utf8_text(line)
        if own is not None:
            return f"{own}{last[1]}{close}"
    line += last[1] + close
    return _utf8_or_escaped(line, url.to_dict, close)


def _context_entry(ctx: MessageContext) -> tuple[MessageContext, str, bool]:
    # (ctx, its JSON as a line holds it, whether that JSON can stand so in any line): as
    # it is when ASCII, else with its line separators escaped (_as_utf8_text); a JSON
    # holding lone surrogates makes the whole line go the long way.
    made = _context_json(ctx)
    if made.isascii():
        return ctx, made, True
    written = _as_utf8_text(made)
    return (ctx, made, False) if written is None else (ctx, written, True)


def _context_json(ctx: MessageContext) -> str:
    """The message context's fields of a record, as JSON (after the record's own)."""
    q = _encode_string
    # _json_or_null written out: one message's context is written per record of it.
    message_id, date, from_, subject, date_utc = (
        ctx.message_id,
        ctx.date,
        ctx.from_,
        ctx.subject,
        ctx.date_utc,
    )
    return (
        f', "message": {ctx.message}, "message_offset": {ctx.message_offset}, '
        f'"message_id": {"null" if message_id is None else q(message_id)}, '
        f'"date": {"null" if date is None else q(date)}, '
        f'"from": {"null" if from_ is None else q(from_)}, '
        f'"subject": {"null" if subject is None else q(subject)}, '
        f'"part": {_NAME_JSON.get(ctx.part) or _name_json(ctx.part)}, '
        f'"content_type": {_NAME_JSON.get(ctx.content_type) or _name_json(ctx.content_type)}, '
        f'"date_utc": {"null" if date_utc is None else q(date_utc)}'
    )


class JsonlWriter:
    """One JSON object per line: :meth:`Url.to_dict`, defect records, count rows."""

    def __init__(self, stream: TextIO, *, counts: CountBy | None = None) -> None:
        self._stream = stream
        del counts

    def write(self, url: Url) -> None:
        """Write one URL."""
        self._stream.write(url_json(url, "}\n"))

    def write_defects(self, record: UnitDefects) -> bool:
        """Write ``{"record": "defects", ...}`` (URL records have no ``record`` key)."""
        self._stream.write(_json_line(record.to_dict()) + "\n")
        return True

    def write_count(self, row: UrlCount | HostCount) -> None:
        """Write ``{"url", "count", "first_date", "last_date", "normalized", "variants"}``
        (for a host: ``{"host", "count", "first_date", "last_date", "urls"}``)."""
        self._stream.write(_json_line(row.to_dict()) + "\n")


_NO_CONTEXT = ("",) * len(CONTEXT_KEYS)


class _RowWriter:
    """``csv.writer`` whose rows stay one row for every CSV reader.

    The csv module quotes a field holding a line feed but (before Python 3.13) not one
    holding only a carriage return, which readers take for a line end: such a row is
    written with every field quoted. The values themselves are never changed.
    """

    def __init__(self, stream: TextIO) -> None:
        import csv  # only this writer needs it (a start-up cost of every other scan)

        self._minimal = csv.writer(stream, lineterminator="\n")
        self._quoted = csv.writer(stream, lineterminator="\n", quoting=csv.QUOTE_ALL)

    def writerow(self, row: Sequence[object]) -> None:
        if any(type(field) is str and "\r" in field for field in row):
            self._quoted.writerow(row)
        else:
            self._minimal.writerow(row)


class CsvWriter:
    """CSV with a header row (:data:`CSV_FIELDS`, or :data:`COUNT_FIELDS` for counts)."""

    def __init__(self, stream: TextIO, *, counts: CountBy | None = None) -> None:
        self._writer = _RowWriter(stream)
        header = {None: CSV_FIELDS, "url": COUNT_FIELDS, "host": HOST_COUNT_FIELDS}[counts]
        self._writer.writerow(header)

    def write(self, url: Url) -> None:
        """Write one URL."""
        ctx = url.context
        self._writer.writerow(
            (
                url.source,
                url.line,
                url.column,
                url.end_line,
                url.start,
                url.end,
                url.kind,
                url.scheme,
                url.url,
                url.normalized,
                "true" if url.valid else "false",
                " ".join(url.alternatives),
                " ".join(d.code for d in url.defects),
                url.raw,
                *(context_values(ctx) if ctx is not None else _NO_CONTEXT),
            )
        )

    def write_defects(self, record: UnitDefects) -> bool:
        """CSV rows are URLs only (the CLI shows defects on stderr)."""
        del record
        return False

    def write_count(self, row: UrlCount | HostCount) -> None:
        """Write one row of :data:`COUNT_FIELDS` (:data:`HOST_COUNT_FIELDS` for a host)."""
        from ._countrows import HostCount

        if isinstance(row, HostCount):
            dates = (row.first_date or "", row.last_date or "")
            self._writer.writerow((row.host, row.count, *dates, row.urls))
            return
        self._writer.writerow(
            (
                row.url,
                row.count,
                row.first_date or "",
                row.last_date or "",
                row.normalized,
                " ".join(row.variants),
            )
        )


Writer = TextWriter | JsonlWriter | CsvWriter
"""Any of the writers."""

WRITERS: dict[str, type[Writer]] = {
    "text": TextWriter,
    "jsonl": JsonlWriter,
    "csv": CsvWriter,
}
"""Output formats by name."""


def make_writer(name: str, stream: TextIO, *, counts: CountBy | None = None) -> Writer:
    """Return the writer for format ``name`` on ``stream``.

    Args:
        name: a key of :data:`WRITERS`.
        stream: where to write.
        counts: the writer will write ``--count`` rows (by URL or by host) instead of URLs.

    Raises:
        KeyError: unknown format name.
    """
    return WRITERS[name](stream, counts=counts)
