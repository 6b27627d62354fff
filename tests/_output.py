"""What the command's output stream holds after a scan's records or rendered pieces."""

from __future__ import annotations

import io
from collections.abc import Iterable

from urlsift import Url
from urlsift.engines.render import Rendered
from urlsift.engines.runner import UnitDefects
from urlsift.output.formats import make_writer


def command_bytes(stream: Iterable[object], fmt: str) -> bytes:
    """Write ``stream`` as ``urlsift scan --format fmt`` writes it to standard output
    (UTF-8, undecodable bytes back as they were; without the CSV header): a rendered
    piece's bytes copied after what the stream holds, its strings and records written
    through the stream (defect records by the writer too, for JSON Lines).

    Raises:
        UnicodeEncodeError: where the command's stream cannot encode a text either.
    """
    data = io.BytesIO()
    out = io.TextIOWrapper(data, encoding="utf-8", errors="surrogateescape", newline="")
    writer = make_writer(fmt, out)
    out.flush()
    data.seek(0)
    data.truncate()  # the CSV header
    for item in stream:
        for part in item.parts if isinstance(item, Rendered) else [item]:
            if isinstance(part, bytes):
                out.flush()
                data.write(part)
            elif isinstance(part, str):
                out.write(part)
            elif isinstance(part, Url):
                writer.write(part)
            elif isinstance(part, UnitDefects):
                writer.write_defects(part)
    out.flush()
    return data.getvalue()
