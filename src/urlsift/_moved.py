"""Old import paths of the modules that moved into the stage packages (0.2.0).

Until 0.1 every stage's modules sat side by side at the top of the package
(``urlsift.scanner``, ``urlsift.plan``, ``urlsift.dask``...). They now live in
:mod:`urlsift.extraction`, :mod:`urlsift.validation`, :mod:`urlsift.engines` and
:mod:`urlsift.output`. An old *public* path keeps working for one more release: importing
it gives the module at its new place (the same module object, so ``isinstance`` and
monkeypatching see one module) and a :class:`DeprecationWarning` naming the new path.
The table is the whole mechanism: one line per moved module, no file left behind at the
old place. Private modules (``urlsift._wrap``...) moved without an alias; CHANGELOG.md
lists them.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

MOVED: dict[str, str] = {
    "urlsift.scanner": "urlsift.extraction.scanner",
    "urlsift.rejoin": "urlsift.extraction.rejoin",
    "urlsift.schemes": "urlsift.validation.schemes",
    "urlsift.normalize": "urlsift.validation.normalize",
    "urlsift.plan": "urlsift.engines.plan",
    "urlsift.work": "urlsift.engines.work",
    "urlsift.runner": "urlsift.engines.runner",
    "urlsift.parallel": "urlsift.engines.processes",
    "urlsift.dask": "urlsift.engines.dask",
    "urlsift.formats": "urlsift.output.formats",
    "urlsift.parquet": "urlsift.output.parquet",
    "urlsift.summary": "urlsift.output.summary",
}
"""Old module path -> the module's path now."""


class _MovedModules:
    """Finds the old paths of :data:`MOVED` (asked last, after the real files).

    A meta path finder and its loader by their protocols, not by subclassing
    ``importlib.abc``, whose import costs ``import urlsift`` a dozen modules (tempfile,
    shutil, importlib.resources).
    """

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", self))

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None  # a placeholder module, replaced in exec_module

    def exec_module(self, module: ModuleType) -> None:
        old = module.__name__
        new = MOVED[old]
        warnings.warn(
            f"{old} has moved to {new}; import it from there ({old} will be removed)",
            DeprecationWarning,
            stacklevel=2,
        )
        # The import system returns whatever sys.modules holds once the loader is done:
        # the real module, so the old and the new name are one module object.
        sys.modules[old] = importlib.import_module(new)


_FINDER = _MovedModules()


def install() -> None:
    """Let the old paths of :data:`MOVED` be imported (idempotent)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)
