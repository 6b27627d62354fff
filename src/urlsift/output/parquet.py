"""Parquet output for big runs: records to Apache Parquet files in a directory.

Needs pyarrow, from the ``dask`` extra (``pip install 'urlsift[dask]'``); a plain install
never imports it. :func:`records_table` turns records into one Arrow table with the
schema of :func:`schema` (the same for every engine); :class:`ParquetWriter` writes the
records of one process as ``part-00000.parquet``, ``part-00001.parquet``... (a new file
every ``rows_per_file`` rows); the Dask engine writes one file per partition with
:func:`write_partition`.

One row per record, in output order. Columns (documented in ``docs/parquet.md``, which a
test checks against :func:`schema`):

* ``record``: ``url`` or ``defects`` (a message's problems, reported once, as the
  ``{"record": "defects"}`` JSON Lines record; its URL columns are null);
* the URL fields of :meth:`urlsift.Url.to_dict`, ``alternatives`` as a list of strings,
  ``defects`` as a list of ``{code, message, severity, offset}`` structs (for a
  ``defects`` row: the message's problems), ``parts`` as a map of strings;
* the message context (:data:`urlsift._model.CONTEXT_KEYS`) as columns, null for plain
  text.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .._model import CONTEXT_KEYS, Defect, Result, UnitDefects, Url, context_values

if TYPE_CHECKING:  # pragma: no cover - types only
    import pyarrow as pa

__all__ = [
    "DEFAULT_ROWS_PER_FILE",
    "MISSING_EXTRA",
    "ParquetWriter",
    "records_table",
    "schema",
    "write_partition",
]

DEFAULT_ROWS_PER_FILE = 1_000_000
"""Rows per file written by :class:`ParquetWriter` (one row group each)."""

MISSING_EXTRA = "Parquet output needs pyarrow: pip install 'urlsift[dask]'"
"""The message given when pyarrow is not installed."""

_INTS = ("start", "end", "line", "column", "end_line")
_STRINGS = ("url", "normalized", "raw", "kind", "scheme")


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError(MISSING_EXTRA) from exc
    return pyarrow


def schema() -> pa.Schema:
    """Return the Arrow schema of the records' table (see the module notes)."""
    pa = _pyarrow()
    defect = pa.struct(
        [
            ("code", pa.string()),
            ("message", pa.string()),
            ("severity", pa.string()),
            ("offset", pa.int64()),
        ]
    )
    fields = [
        ("record", pa.string()),
        ("source", pa.string()),
        *((name, pa.string()) for name in _STRINGS),
        ("alternatives", pa.list_(pa.string())),
        *((name, pa.int64()) for name in _INTS),
        ("valid", pa.bool_()),
        ("fragment", pa.string()),
        ("parts", pa.map_(pa.string(), pa.string())),
        ("defects", pa.list_(defect)),
        ("message", pa.int64()),
        ("message_offset", pa.int64()),
        *((name, _context_type(pa, name)) for name in CONTEXT_KEYS[2:]),
    ]
    return pa.schema(fields)


def _context_type(pa: Any, name: str) -> Any:
    # The context columns are strings but for date_utc, an instant in UTC (milliseconds:
    # Parquet has no seconds unit, and a table read back must have this schema).
    return pa.timestamp("ms", tz="UTC") if name == "date_utc" else pa.string()


def _instant(text: object) -> object:
    # date_utc as written in the records ("1997-09-10T22:40:00Z") to a datetime for Arrow.
    if not isinstance(text, str):
        return None
    from datetime import datetime

    return datetime.fromisoformat(text.removesuffix("Z") + "+00:00")


def _defects(defects: tuple[Defect, ...]) -> list[dict[str, object]]:
    return [
        {"code": d.code, "message": d.message, "severity": d.severity, "offset": d.offset}
        for d in defects
    ]


def records_table(records: Iterable[Result]) -> pa.Table:
    """Return URLs and defect records as one table (read failures are not records here).

    Args:
        records: results in output order; :class:`~urlsift.engines.work.ReadFailure` records are
            skipped (the CLI reports them on stderr, as for every format).
    """
    pa = _pyarrow()
    names = schema().names
    columns: dict[str, list[object]] = {name: [] for name in names}
    none_context = (None,) * len(CONTEXT_KEYS)
    for record in records:
        if isinstance(record, Url):
            row: dict[str, object] = {
                "record": "url",
                "source": record.source,
                "url": record.url,
                "normalized": record.normalized,
                "raw": record.raw,
                "kind": record.kind,
                "scheme": record.scheme,
                "alternatives": list(record.alternatives),
                "start": record.start,
                "end": record.end,
                "line": record.line,
                "column": record.column,
                "end_line": record.end_line,
                "valid": record.valid,
                "fragment": record.fragment,
                "parts": list(record.parts.items()) if record.parts else None,
                "defects": _defects(record.defects),
            }
        elif isinstance(record, UnitDefects):
            row = {"record": "defects", "source": record.source}
            row["defects"] = _defects(record.defects)
        else:
            continue
        context = record.context
        values = none_context if context is None else context_values(context)
        row.update(zip(CONTEXT_KEYS, values, strict=True))
        row["date_utc"] = _instant(row["date_utc"])
        for name in names:
            columns[name].append(row.get(name))
    return pa.Table.from_pydict(columns, schema=schema())


def write_partition(records: Iterable[Result], path: str, filesystem: Any = None) -> int:
    """Write records to one Parquet file at ``path``; return the rows written.

    Args:
        records: results, in order.
        path: the file to write (a local path, or a path in ``filesystem``).
        filesystem: an fsspec or pyarrow file system (default: local files).
    """
    import pyarrow.parquet as pq

    table = records_table(records)
    pq.write_table(table, path, filesystem=filesystem)
    return int(table.num_rows)


class ParquetWriter:
    """Writes the records of one process into ``directory`` (created if missing).

    Rows are held until ``rows_per_file`` are ready (memory: about one file's worth),
    then written as the next ``part-NNNNN.parquet``; :meth:`close` writes the rest (an
    empty run writes one empty file, so the schema is always there).

    Raises:
        ImportError: when pyarrow is not installed (:data:`MISSING_EXTRA`).
        OSError: when the directory cannot be created or written.
    """

    def __init__(self, directory: str, *, rows_per_file: int = DEFAULT_ROWS_PER_FILE) -> None:
        _pyarrow()
        if rows_per_file < 1:
            raise ValueError(f"rows_per_file must be at least 1, not {rows_per_file}")
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        self.rows_per_file = rows_per_file
        self.files: list[str] = []
        """The files written so far."""
        self._rows: list[Result] = []

    def write(self, url: Url) -> None:
        """Add one URL."""
        self._add(url)

    def write_defects(self, record: UnitDefects) -> bool:
        """Add a message's defects as a ``defects`` row (always: Parquet has a place)."""
        self._add(record)
        return True

    def _add(self, record: Result) -> None:
        self._rows.append(record)
        if len(self._rows) >= self.rows_per_file:
            self._flush()

    def _flush(self) -> None:
        path = os.path.join(self.directory, f"part-{len(self.files):05d}.parquet")
        write_partition(self._rows, path)
        self.files.append(path)
        self._rows = []

    def close(self) -> None:
        """Write the rows not yet written."""
        if self._rows or not self.files:
            self._flush()
