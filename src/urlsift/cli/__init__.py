"""The command line (click glue, no logic): ``urlsift scan | validate | lint | report``.

:func:`run` is the ``urlsift`` program; :func:`main` is its click group, for
``click.testing.CliRunner`` and for embedding. Each command's module is imported only when
that command runs.

Importing click and the group makes many long-lived objects and no garbage, and the
collector's passes over them were 3-5 ms of a one-line scan's start-up (issue 26): the
collector is held off while they are imported, then left as it was (:func:`run` then sets
it for the program).
"""

import gc

_collecting = gc.isenabled()
gc.disable()
try:
    from .main import main, run
finally:
    if _collecting:
        gc.enable()
    del _collecting

__all__ = ["main", "run"]
