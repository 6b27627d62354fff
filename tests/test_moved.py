"""The module paths of 0.1 still import, as the same module, with a DeprecationWarning."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys

import pytest

import urlsift
from urlsift._moved import MOVED


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_an_old_path_is_the_new_module_with_a_warning(old: str, new: str) -> None:
    if new == "urlsift.engines.dask":
        pytest.importorskip("distributed")
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} has moved to {new}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert sys.modules[old] is module


def test_every_old_path_names_a_module_that_exists() -> None:
    for new in MOVED.values():
        assert importlib.util.find_spec(new) is not None, new


def test_from_import_of_an_old_module_works_in_a_fresh_interpreter() -> None:
    # "from urlsift import scanner" goes through the same finder; the warning points at
    # the importing line, and the class seen through the old name is the new one.
    code = (
        "import warnings; warnings.simplefilter('error')\n"
        "try:\n"
        "    from urlsift import scanner\n"
        "except DeprecationWarning as w:\n"
        "    print('warned', w)\n"
        "warnings.simplefilter('ignore')\n"
        "from urlsift import scanner\n"
        "import urlsift\n"
        "print(scanner.Scanner is urlsift.Scanner)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "warned urlsift.scanner has moved to urlsift.extraction.scanner" in out
    assert out.rstrip().endswith("True")


def test_public_names_are_unchanged() -> None:
    for name in urlsift.__all__:
        assert getattr(urlsift, name) is not None
    assert callable(urlsift.validate)
    assert callable(urlsift.extract)
