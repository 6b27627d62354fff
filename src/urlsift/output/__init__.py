"""Output: records written for people and programs.

:mod:`.formats` writes the text, JSON Lines and CSV formats (one record at a time,
streamed); :mod:`.summary` counts URLs and hosts for ``--count``; :mod:`.parquet` writes
Parquet files for big runs (pyarrow, the ``dask`` extra, imported only when used).

Promise: writers know only the record model (:mod:`urlsift._model`), never how the
records were found, so every engine's records are written the same way.
"""

from .formats import WRITERS, CountBy, Writer, location, make_writer
from .summary import HostCounts, UrlCounts

__all__ = ["WRITERS", "CountBy", "HostCounts", "UrlCounts", "Writer", "location", "make_writer"]
