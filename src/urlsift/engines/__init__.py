"""Engines: where a scan runs, with one plan and one output order for all of them.

:mod:`.plan` cuts the input into work items (whole paths, mbox byte ranges, message
batches, text pieces); :mod:`.work` runs one item in one process; :mod:`.runner` is the
front every caller uses (:func:`.runner.iter_results`), which runs the items here, in a
pool of worker processes (:mod:`.processes`, ``-j N``) or on a Dask cluster
(:mod:`.dask`, the ``dask`` extra), and merges their records in plan order.

Promise: the same records in the same order whatever the engine, the number of workers
or where the input was cut. The engines sit above :mod:`urlsift.output` in the import
order: a Dask worker writes its own Parquet file. The Dask and process-pool modules are
imported only when used.
"""

from .runner import READ_ERROR_CODES, ReadFailure, Result, ScanConfig, UnitDefects, iter_results

__all__ = [
    "READ_ERROR_CODES",
    "ReadFailure",
    "Result",
    "ScanConfig",
    "UnitDefects",
    "iter_results",
]
