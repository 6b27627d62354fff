"""Parquet output for big runs: records to Apache Parquet files in a directory.

Needs pyarrow, from the ``dask`` extra (``pip install 'urlsift[dask]'``); a plain install
never imports it. :func:`records_table` turns records into one Arrow table with the
schema of :func:`schema` (the same for every engine); :class:`ParquetWriter` writes the
records of one process as ``part-00000.parquet``, ``part-00001.parquet``... (a new file
every ``rows_per_file`` rows); the Dask engine writes one file per partition with
:func:`write_partition`.

A run owns its folder (:func:`prepare_folder`): one that is not empty is refused, so two
runs never mix in ``read_parquet('out/*.parquet')``; ``overwrite`` replaces an earlier run,
removing only files urlsift wrote (:func:`written_by_urlsift`: a part whose Parquet
metadata says so, a part under its temporary name, the marker) and refusing any other.
Parts are written under temporary names (``part-00000.parquet.urlsift-partial``, which
``*.parquet`` does not match) and renamed when the run is complete, then the completion
marker :data:`MARKER` is written (:func:`finish_folder`): a killed run leaves no
``*.parquet`` file and no marker.

Memory is bounded by bytes, not rows: :class:`ParquetWriter` writes a row group whenever
the records it holds reach ``batch_bytes`` (:func:`record_bytes`, the text they carry).

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

import json
import os
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .._model import CONTEXT_KEYS, Defect, Result, UnitDefects, Url, context_values
from ..errors import ConfigError, OutputError, check_limit

if TYPE_CHECKING:  # pragma: no cover - types only
    import pyarrow as pa

__all__ = [
    "DEFAULT_BATCH_BYTES",
    "DEFAULT_ROWS_PER_FILE",
    "MARKER",
    "MISSING_EXTRA",
    "PARTIAL_SUFFIX",
    "ParquetWriter",
    "finish_folder",
    "part_name",
    "prepare_folder",
    "record_bytes",
    "records_table",
    "schema",
    "write_partition",
    "written_by_urlsift",
]

DEFAULT_ROWS_PER_FILE = 1_000_000
"""Rows per file written by :class:`ParquetWriter`."""

DEFAULT_BATCH_BYTES = 1 << 20
"""Bytes of record text (:func:`record_bytes`) :class:`ParquetWriter` holds before it writes
them as a row group: what bounds its memory (the records, their Arrow copy and the encoded
row group are each a small multiple of it), whatever the number of rows."""

MARKER = "_SUCCESS"
"""The completion marker, written last: a JSON object with ``"writer": "urlsift"``, the
files of the run and its row count. (Spark and Hadoop name their marker so too; readers of
``*.parquet`` and pyarrow datasets skip it.)"""

PARTIAL_SUFFIX = ".urlsift-partial"
"""Appended to a part's name until the run is complete."""

WRITER_KEY = b"urlsift.writer"
"""Key of the Parquet metadata entry that marks a file written by urlsift."""

_WRITER_VALUE = b"urlsift"
_PART = re.compile(r"part-[0-9]{5,}\.parquet")
_MARKER_LIMIT = 1 << 20  # a marker larger than this is not one of ours

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
        *((name, pa.string()) for name in CONTEXT_KEYS[2:]),
    ]
    return pa.schema(fields)


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
        for name in names:
            columns[name].append(row.get(name))
    return pa.Table.from_pydict(columns, schema=schema())


def _signed(table: pa.Table) -> pa.Table:
    # The table with urlsift's mark in its schema metadata (kept in the Parquet footer).
    metadata = dict(table.schema.metadata or {})
    metadata[WRITER_KEY] = _WRITER_VALUE
    return table.replace_schema_metadata(metadata)


def write_partition(records: Iterable[Result], path: str, filesystem: Any = None) -> int:
    """Write records to one Parquet file at ``path``; return the rows written.

    The file's metadata marks it as urlsift's (:func:`written_by_urlsift`).

    Args:
        records: results, in order.
        path: the file to write (a local path, or a path in ``filesystem``).
        filesystem: an fsspec or pyarrow file system (default: local files).
    """
    import pyarrow.parquet as pq

    table = _signed(records_table(records))
    pq.write_table(table, path, filesystem=filesystem)
    return int(table.num_rows)


def part_name(index: int) -> str:
    """The final name of the ``index``-th part: ``part-00000.parquet``..."""
    return f"part-{index:05d}.parquet"


def record_bytes(record: Result) -> int:
    """About how many bytes of text ``record`` carries (what its row costs to hold)."""
    size = 256  # the record's objects, numbers and flags
    if isinstance(record, Url):
        size += len(record.url) + len(record.raw) + len(record.source)
        if record.normalized is not record.url:
            size += len(record.normalized)
        for alternative in record.alternatives:
            size += len(alternative)
        size += sum(len(name) + len(value) for name, value in record.parts.items())
    elif isinstance(record, UnitDefects):
        size += len(record.source)
    else:
        return 0
    for defect in record.defects:
        size += 64 + len(defect.message)
    context = record.context
    if context is not None:
        size += sum(len(value) for value in (context.subject, context.from_) if value)
    return size


def _filesystem(directory: str, filesystem: Any = None) -> tuple[Any, str]:
    # An fsspec file system and the folder's path in it (local paths: the local one).
    import fsspec

    if filesystem is not None:
        return filesystem, directory
    fs, root = fsspec.core.url_to_fs(directory)
    return fs, root


def _name(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def written_by_urlsift(path: str, filesystem: Any = None) -> bool:
    """Whether the file at ``path`` was written by urlsift, so ``overwrite`` may remove it.

    Yes for a part whose Parquet metadata has urlsift's mark, a part under its temporary
    name (``part-NNNNN.parquet.urlsift-partial``, a name only urlsift gives), and a
    :data:`MARKER` holding ``"writer": "urlsift"``; no for anything else (a folder, a
    file that cannot be read, a part of another tool).
    """
    fs, target = _filesystem(path, filesystem)
    name = _name(target)
    try:
        if fs.isdir(target):
            return False
        if name.endswith(PARTIAL_SUFFIX):
            return _PART.fullmatch(name.removesuffix(PARTIAL_SUFFIX)) is not None
        if name == MARKER:
            if fs.size(target) > _MARKER_LIMIT:
                return False
            with fs.open(target, "rb") as stream:
                data = json.loads(stream.read())
            return isinstance(data, dict) and data.get("writer") == "urlsift"
        if _PART.fullmatch(name):
            import pyarrow.parquet as pq

            with fs.open(target, "rb") as stream:
                metadata = pq.read_metadata(stream).metadata or {}
            return metadata.get(WRITER_KEY) == _WRITER_VALUE
    except (OSError, ValueError):  # unreadable, not JSON, not Parquet (ArrowInvalid)
        return False
    return False


def prepare_folder(directory: str, *, overwrite: bool = False, filesystem: Any = None) -> None:
    """Make ``directory`` ready for a run: created if missing, refused if not empty.

    Args:
        directory: a local folder or an fsspec URL.
        overwrite: replace an earlier run: remove the files urlsift wrote
            (:func:`written_by_urlsift`), refusing a folder that holds any other.
        filesystem: the fsspec file system of ``directory`` (default: from its name).

    Raises:
        ConfigError: the folder is not empty (without ``overwrite``), holds a file urlsift
            did not write (with it), or is not a folder; nothing was removed then.
        OSError: the folder cannot be created, listed or cleaned.
    """
    fs, root = _filesystem(directory, filesystem)
    if not fs.exists(root):
        fs.makedirs(root, exist_ok=True)
        return
    if not fs.isdir(root):
        raise ConfigError("--output", directory, "is not a folder")
    entries = sorted(fs.ls(root, detail=False))
    if not entries:
        return
    if not overwrite:
        reason = (
            f"is not empty (it holds {_name(entries[0])}"
            f"{f' and {len(entries) - 1} more' if len(entries) > 1 else ''}): give a new or "
            "empty folder, or --overwrite to replace an earlier urlsift run"
        )
        raise ConfigError("--output", directory, reason)
    foreign = [entry for entry in entries if not written_by_urlsift(entry, fs)]
    if foreign:
        reason = (
            f"holds {_name(foreign[0])}, which urlsift did not write: --overwrite removes "
            "only urlsift's own files; give a new or empty folder"
        )
        raise ConfigError("--output", directory, reason)
    for entry in entries:
        fs.rm(entry)


def finish_folder(
    directory: str, parts: list[str], rows: int, *, filesystem: Any = None
) -> list[str]:
    """Complete a run: give its parts their final names, then write :data:`MARKER`.

    Args:
        directory: the run's folder (local or fsspec URL).
        parts: the final names of the parts (``part-00000.parquet``...), each written
            under that name plus :data:`PARTIAL_SUFFIX`.
        rows: rows written in all (kept in the marker).
        filesystem: the fsspec file system of ``directory`` (default: from its name).

    Returns:
        The parts' final paths.
    """
    fs, root = _filesystem(directory, filesystem)
    for name in parts:
        target = f"{root.rstrip('/')}/{name}"
        fs.mv(target + PARTIAL_SUFFIX, target)
    marker = {"writer": "urlsift", "files": parts, "rows": rows}
    with fs.open(f"{root.rstrip('/')}/{MARKER}", "wb") as stream:
        stream.write(json.dumps(marker, indent=1).encode("utf-8") + b"\n")
    if filesystem is None and "://" not in directory:
        return [os.path.join(directory, name) for name in parts]
    return [f"{directory.rstrip('/')}/{name}" for name in parts]


class ParquetWriter:
    """Writes the records of one process into ``directory`` (see :func:`prepare_folder`).

    Records are held until they carry ``batch_bytes`` of text (:func:`record_bytes`), then
    written as a row group of the current part; a part holds at most ``rows_per_file``
    rows. Parts are written under temporary names; :meth:`close` writes the rest (an empty
    run writes one empty part, so the schema is always there), gives the parts their final
    names and writes the completion marker (:func:`finish_folder`).

    Raises:
        ImportError: when pyarrow is not installed (:data:`MISSING_EXTRA`).
        ConfigError: the folder is not empty (see :func:`prepare_folder`).
        OutputError: when the folder cannot be created or written (a full disk).
    """

    def __init__(
        self,
        directory: str,
        *,
        rows_per_file: int = DEFAULT_ROWS_PER_FILE,
        batch_bytes: int = DEFAULT_BATCH_BYTES,
        overwrite: bool = False,
    ) -> None:
        _pyarrow()
        self.rows_per_file = check_limit("rows_per_file", rows_per_file)
        self.batch_bytes = check_limit("batch_bytes", batch_bytes)
        try:
            prepare_folder(directory, overwrite=overwrite)
        except OSError as exc:
            raise OutputError(directory, exc) from exc
        self.directory = directory
        self.files: list[str] = []
        """The parts written, under their final names once :meth:`close` has run."""
        self.rows = 0
        """Rows written so far."""
        self._parts: list[str] = []
        self._rows: list[Result] = []
        self._bytes = 0
        self._file: Any = None  # the open pyarrow.parquet.ParquetWriter of the current part
        self._file_rows = 0

    def write(self, url: Url) -> None:
        """Add one URL."""
        self._add(url)

    def write_defects(self, record: UnitDefects) -> bool:
        """Add a message's defects as a ``defects`` row (always: Parquet has a place)."""
        self._add(record)
        return True

    def _add(self, record: Result) -> None:
        self._rows.append(record)
        self._bytes += record_bytes(record)
        if self._bytes >= self.batch_bytes or self._file_rows + len(self._rows) >= (
            self.rows_per_file
        ):
            self._flush()

    def _flush(self) -> None:
        try:
            while self._rows or self._file is None:
                room = self.rows_per_file - self._file_rows
                batch, self._rows = self._rows[:room], self._rows[room:]
                self._write(batch)
                if self._file_rows >= self.rows_per_file:
                    self._end_part()
                if not self._rows:
                    break
        except OSError as exc:
            raise OutputError(self.directory, exc) from exc
        self._bytes = sum(map(record_bytes, self._rows))

    def _write(self, batch: list[Result]) -> None:
        import pyarrow.parquet as pq

        table = _signed(records_table(batch))
        if self._file is None:
            name = part_name(len(self._parts))
            path = os.path.join(self.directory, name + PARTIAL_SUFFIX)
            self._file = pq.ParquetWriter(path, table.schema)
            self._parts.append(name)
        self._file.write_table(table)
        self._file_rows += table.num_rows
        self.rows += table.num_rows
        del table
        # Arrow's allocator keeps freed blocks for reuse: give them back, once per batch.
        pool = _pyarrow().default_memory_pool()
        if hasattr(pool, "release_unused"):  # pyarrow 13 and later
            pool.release_unused()

    def _end_part(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
            self._file_rows = 0

    def close(self) -> None:
        """Write the rows not yet written, then complete the run (final names, marker)."""
        if self._rows or not self._parts:
            self._flush()
        try:
            self._end_part()
            self.files = finish_folder(self.directory, self._parts, self.rows)
        except OSError as exc:
            raise OutputError(self.directory, exc) from exc
