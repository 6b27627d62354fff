"""An item's records as output text, made where the item ran (a worker), not record by record.

Why: with ``-j N`` or ``--engine dask`` every record a worker finds used to travel to the
process that writes the output as an object (pickled, unpickled field by field), be
renumbered there (a range's message numbers, by ``dataclasses.replace``) and be formatted
there. That is per-record work in one process for all the workers (at 50 MB of mbox it was
about a third of the whole run's CPU time with two Dask workers), and it caps what more
workers can give. Now a worker lays its item's URLs out with the writer the command uses
(:mod:`urlsift.output.formats`) and sends back a :class:`Rendered` piece: a few strings,
and the few records the writing process must still see one by one (defect records, for the
summary, the exit status and stderr; read failures).

**Message numbers.** The records of a mbox range that does not start the file are numbered
from 1 (:mod:`.work`): the number of messages before the range is known only when the
earlier ranges are done. Such a range is written with each message number between two
noncharacters (``U+FDD0``, ``U+FDD1``: :class:`LocalNumber`); the writing process adds the
count of the earlier ranges (:func:`finish`). Each URL's text is checked to hold its own
mark and no other mark character; a URL whose text does not (the input had that
noncharacter, or the writer left the mark out: JSON escapes every non-ASCII character of
a line with lone surrogates, and writes the plain number) travels as the record, in its
place, and the writing process writes it once renumbered; so the output is always the
one a single process writes.

**Bytes.** A worker sends its text encoded as the command's output stream encodes it
(:data:`OUTPUT_ENCODING`, :data:`OUTPUT_ERRORS`: :func:`urlsift.cli.main.utf8_stdout`), so
the writing process copies bytes to its output: no decoding where the piece arrives, no
encoding where it is written.
A range's text with local numbers is sent cut at them (:class:`Numbered`): the writing
process joins the pieces around the final numbers, with no search of the text. A text that
cannot be encoded so (a lone surrogate that is not an undecodable byte's) stays a string,
and the writing process's stream meets it as it would in one process.

Not rendered: ``--unique`` and ``--count`` (they need every URL in one place) and Parquet.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO, cast

from .._model import MessageContext, ReadFailure, Result, UnitDefects, Url
from .._record import replace
from ..output.formats import TextWriter, make_writer
from .work import shift

__all__ = [
    "OUTPUT_ENCODING",
    "OUTPUT_ERRORS",
    "LocalNumber",
    "Numbered",
    "RenderSpec",
    "Rendered",
    "finish",
    "render",
]

MARK_OPEN = "\ufdd0"
MARK_CLOSE = "\ufdd1"
_MARKED = re.compile(f"{MARK_OPEN}([0-9]+){MARK_CLOSE}")

OUTPUT_ENCODING = "utf-8"
OUTPUT_ERRORS = "surrogateescape"
"""How the command's output stream encodes (:func:`urlsift.cli.main.utf8_stdout`): how a
worker encodes the text it sends."""

_OPEN_BYTES = MARK_OPEN.encode(OUTPUT_ENCODING)
_CLOSE_BYTES = MARK_CLOSE.encode(OUTPUT_ENCODING)


class LocalNumber(int):
    """A message number local to a range: written as ``U+FDD0 digits U+FDD1`` (see the notes)."""

    __slots__ = ()

    def __str__(self) -> str:
        return f"{MARK_OPEN}{int.__repr__(self)}{MARK_CLOSE}"

    def __format__(self, spec: str) -> str:
        return str(self) if not spec else format(int(self), spec)


@dataclass(frozen=True, slots=True)
class RenderSpec:
    """How the command writes URLs: what a worker needs to write them the same way."""

    fmt: str
    """``text``, ``jsonl`` or ``csv`` (a key of :data:`urlsift.output.formats.WRITERS`)."""
    invalid_only: bool = False
    """Write only the URLs that break RFC 1738 (the text format then says why)."""


@dataclass(frozen=True, slots=True)
class Numbered:
    """Written text of a range whose message numbers are local to it, cut at those numbers.

    ``texts`` holds one more item than ``numbers``: text, number, text, ..., number, text;
    each text encoded as the output (:data:`OUTPUT_ENCODING`).
    """

    texts: tuple[bytes, ...]
    numbers: tuple[int, ...]

    def written(self, base: int) -> bytes:
        """The text with ``base`` added to every number."""
        joined: list[bytes] = [b""] * (2 * len(self.numbers) + 1)
        joined[0::2] = self.texts
        joined[1::2] = [b"%d" % (number + base) for number in self.numbers]
        return b"".join(joined)


Part = bytes | str | Numbered | Url | UnitDefects | ReadFailure
"""An item of :attr:`Rendered.parts`."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """An item's output: text as the writer lays it out, and the records still to handle.

    ``parts`` is in output order: text to write as it is (bytes in the output's encoding;
    a string where the text cannot be encoded so; :class:`Numbered` text while the piece
    is ``local``), and the defect records and read failures at their places (the writing
    process counts, reports and, for JSON Lines, writes them), and now and then a URL to
    write with the writer (one whose range-local number could not be marked,
    :func:`render`). ``urls`` and ``invalid`` count every URL of the item, written or not
    (``--invalid-only``), for the summary and ``--check``.
    """

    parts: tuple[Part, ...]
    urls: int
    invalid: int
    local: bool = False
    """The text holds range-local message numbers between marks (see :func:`finish`)."""


def _marked(url: Url, cache: dict[int, tuple[MessageContext, MessageContext]]) -> Url:
    # ``url`` with its message number a LocalNumber (one new context per context object).
    context = url.context
    if context is None:
        return url
    found = cache.get(id(context))
    if found is None or found[0] is not context:
        found = (context, replace(context, message=LocalNumber(context.message)))
        cache[id(context)] = found
    return replace(url, context=found[1])


def render(results: Iterable[Result], spec: RenderSpec, local: bool = False) -> Rendered:
    """Lay an item's records out as the command's writer does.

    Args:
        results: the item's records, in order.
        spec: the output format and filter.
        local: the records' message numbers are local to a range (written between marks).

    Returns:
        The rendered piece. With ``local``, a URL whose text would not hold exactly its own
        mark is left in ``parts`` as the record (see the module notes); without, the text
        is written as it is, marks or not.
    """
    sink = _Sink()
    writer = make_writer(spec.fmt, cast(TextIO, sink))
    if isinstance(writer, TextWriter):
        writer.reasons = spec.invalid_only
    written = sink.texts
    written.clear()  # the CSV header: the writing process wrote it
    parts: list[Part] = []
    urls = invalid = 0
    cache: dict[int, tuple[MessageContext, MessageContext]] = {}
    for record in results:
        if isinstance(record, Url):
            urls += 1
            invalid += not record.valid
            if spec.invalid_only and record.valid:
                continue
            if not local:
                writer.write(record)
                continue
            original = record
            number = None if record.context is None else int(record.context.message)
            if number is not None:
                record = _marked(record, cache)
            start = len(written)
            writer.write(record)
            if not _marked_once("".join(written[start:]), number):
                # This one travels as a record (with its local number, as read).
                del written[start:]
                if written:
                    parts.append("".join(written))
                    written.clear()
                parts.append(original)
            continue
        if written:
            parts.append("".join(written))
            written.clear()
        parts.append(record)
    if written:
        parts.append("".join(written))
    return Rendered(
        tuple(_encoded(part, local) if isinstance(part, str) else part for part in parts),
        urls,
        invalid,
        local,
    )


def _encoded(text: str, local: bool) -> bytes | str | Numbered:
    # The text as the output encodes it; with ``local``, cut at its marks (render made sure
    # the text holds no mark character but its own marks). A string when it cannot be
    # encoded so (see the module notes).
    try:
        data = text.encode(OUTPUT_ENCODING, OUTPUT_ERRORS)
    except UnicodeEncodeError:
        return text
    if not local:
        return data
    marks = text.count(MARK_OPEN)
    if data.count(_OPEN_BYTES) == marks and data.count(_CLOSE_BYTES) == marks:
        # Cut in the bytes: no other character encodes as a mark's bytes here.
        first, *rest = data.split(_OPEN_BYTES)
        cuts = [piece.partition(_CLOSE_BYTES) for piece in rest]
        texts = (first, *(after for _, _, after in cuts))
        return Numbered(texts, tuple(int(number) for number, _, _ in cuts))
    # Undecodable input bytes that encode back as a mark's bytes: cut the string.
    first_text, *rest_text = text.split(MARK_OPEN)
    text_cuts = [piece.partition(MARK_CLOSE) for piece in rest_text]
    texts = tuple(
        piece.encode(OUTPUT_ENCODING, OUTPUT_ERRORS)
        for piece in (first_text, *(after for _, _, after in text_cuts))
    )
    return Numbered(texts, tuple(int(number) for number, _, _ in text_cuts))


class _Sink:
    # A text stream that keeps what each write gives (a writer writes a record at once).
    __slots__ = ("texts",)

    def __init__(self) -> None:
        self.texts: list[str] = []

    def write(self, text: str) -> int:
        self.texts.append(text)
        return len(text)


def _marked_once(text: str, number: int | None) -> bool:
    # Does one record's text hold our mark of ``number`` and no other mark character (none
    # at all for a record without a message number)? Checked per record: a writer may
    # leave the mark out (JSON with every non-ASCII character escaped, for lone
    # surrogates), and the input may hold the mark characters elsewhere.
    if number is None:
        return MARK_OPEN not in text and MARK_CLOSE not in text
    # With one mark character of each kind, holding our mark is holding no other.
    return (
        text.count(MARK_OPEN) == 1
        and text.count(MARK_CLOSE) == 1
        and f"{MARK_OPEN}{number}{MARK_CLOSE}" in text
    )


def finish(piece: Rendered, base: int) -> Rendered:
    """Return ``piece`` with the count of the earlier ranges' messages added to its numbers.

    A piece without local numbers is returned as it is.
    """
    if not piece.local:
        return piece

    def number(match: re.Match[str]) -> str:
        return str(int(match[1]) + base)

    def finished(part: Part) -> Part:
        if isinstance(part, Numbered):
            return part.written(base)
        if isinstance(part, bytes):
            return part
        if isinstance(part, str):  # text the output could not encode: marks searched
            return _MARKED.sub(number, part)
        return shift(part, base)

    return Rendered(tuple(map(finished, piece.parts)), piece.urls, piece.invalid, False)
