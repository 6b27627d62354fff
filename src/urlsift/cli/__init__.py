"""The command line (click glue, no logic): ``urlsift scan | validate | lint | report``.

:func:`run` is the ``urlsift`` program; :func:`main` is its click group, for
``click.testing.CliRunner`` and for embedding. Each command's module is imported only when
that command runs.
"""

from .main import main, run

__all__ = ["main", "run"]
