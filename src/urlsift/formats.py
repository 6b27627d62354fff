"""Renderers: :class:`Url` records to text, JSON Lines or CSV on a text stream.

Strategy: one small writer class per format behind a table (:data:`WRITERS`); the CLI picks
one by name. Writers never decide anything about URLs; they only lay records out. Lone
surrogates (bytes that were not valid UTF-8 in the input) are written back as the original
bytes in text and CSV output, and as ``\\udcXX`` escapes in JSON, which must stay valid UTF-8.
"""

from __future__ import annotations

import csv
import json
from typing import Protocol, TextIO

from ._model import Url

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
    "valid",
    "alternatives",
    "defects",
    "raw",
)
"""Columns of ``--format csv``; list-valued fields are joined with a space."""


class Writer(Protocol):
    """Writes records to a stream, one call per record."""

    def write(self, url: Url) -> None:
        """Write one record."""


class TextWriter:
    """``path:line:col: url``, one record per line (the format compilers and grep use)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, url: Url) -> None:
        """Write one record."""
        self._stream.write(f"{url.source}:{url.line}:{url.column}: {url.url}\n")


def _json_line(data: dict[str, object]) -> str:
    line = json.dumps(data, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: escape them so the line stays UTF-8
        line = json.dumps(data, ensure_ascii=True)
    return line


class JsonlWriter:
    """One JSON object per line: :meth:`Url.to_dict`."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, url: Url) -> None:
        """Write one record."""
        self._stream.write(_json_line(url.to_dict()) + "\n")


class CsvWriter:
    """CSV with a header row (:data:`CSV_FIELDS`)."""

    def __init__(self, stream: TextIO) -> None:
        self._writer = csv.writer(stream, lineterminator="\n")
        self._writer.writerow(CSV_FIELDS)

    def write(self, url: Url) -> None:
        """Write one record."""
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
                "true" if url.valid else "false",
                " ".join(url.alternatives),
                " ".join(d.code for d in url.defects),
                url.raw,
            )
        )


WRITERS: dict[str, type[TextWriter] | type[JsonlWriter] | type[CsvWriter]] = {
    "text": TextWriter,
    "jsonl": JsonlWriter,
    "csv": CsvWriter,
}
"""Output formats by name."""


def make_writer(name: str, stream: TextIO) -> Writer:
    """Return the writer for format ``name`` on ``stream``.

    Raises:
        KeyError: unknown format name.
    """
    return WRITERS[name](stream)
