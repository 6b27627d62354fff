"""The sans-IO core imports nothing that touches files, sockets or processes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "urlsift"
CORE = [
    "_context.py",
    "_model.py",
    "scanner.py",
    "rejoin.py",
    "api.py",
    "errors.py",
    "normalize.py",
]
OPTIONAL_CORE = ["_grammar.py", "schemes.py", "validation.py"]
ALLOWED = {
    "__future__",
    "codecs",  # api.iter_urls: incremental UTF-8 decoding of bytes chunks (no file access)
    "collections",
    "collections.abc",
    "dataclasses",
    "enum",
    "functools",
    "itertools",
    "re",
    "regex",
    "string",
    "typing",
    "ipaddress",
    "math",
    "operator",
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level and node.module:
            assert not node.module.startswith(("sources", "cli", "formats")), node.module
    return names


@pytest.mark.parametrize("name", CORE + [n for n in OPTIONAL_CORE if (SRC / n).exists()])
def test_core_module_imports_are_allowlisted(name: str) -> None:
    assert _imports(SRC / name) <= ALLOWED
