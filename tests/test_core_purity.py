"""The sans-IO core imports nothing that touches files, sockets or processes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "urlsift"
# The core: the record model, the public functions, and every module of the grammar,
# extraction and validation stages (a new module there is covered without being listed).
CORE = sorted(
    ["_model.py", "_record.py", "api.py", "errors.py"]
    + [
        str(path.relative_to(SRC))
        for stage in ("grammar", "extraction", "validation")
        for path in (SRC / stage).glob("*.py")
    ]
)
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
    "types",  # _record: a record's __init__ made from compiled code (CodeType, FunctionType)
    "reprlib",  # _record: the records' repr guards against a cycle as dataclasses' does
    "typing_extensions",  # _record: dataclass_transform, read by type checkers only
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("name", CORE)
def test_core_module_imports_are_allowlisted(name: str) -> None:
    assert _imports(SRC / name) <= ALLOWED


# The mail sources' modules that do no I/O: they take bytes and give text units, defects
# and parsed messages; reading files, folders and streams is the business of archive,
# compress, kinds, reading, streamed, text and tree. Besides the core's allowlist they may
# use the stdlib's email package and byte codecs, and import only each other and the model
# (its records included).
SOURCES_PURE = [
    "charsets.py",
    "css.py",
    "flowed.py",
    "headers.py",
    "htmltext.py",
    "htmltokens.py",
    "mbox.py",
    "options.py",
    "parse.py",
    "parts.py",
    "transfer.py",
]
SOURCES_ALLOWED = ALLOWED | {
    "binascii",
    "email.errors",  # parts: the defect the feed parser gives a multipart without delimiters
    "email._encoded_words",  # parts: a base64 body with defects, decoded without a Message
    "email._parseaddr",  # headers.utc_date: dates of other shapes, without email.utils
    "email.header",
    "email.message",
    "email.parser",
    "email.policy",
    "email.utils",
    "html",
    "html.entities",  # htmltokens.unescape_attribute: the named references' table
    "datetime",  # headers.utc_date: the Date header as an instant in UTC (issue 25)
}
# charsets.streamable_codec reads sys.modules to find a codec's decoding table.
SOURCES_EXTRA = {"charsets.py": {"sys"}}


def _relative_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        "." * node.level + (node.module or "")
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level
    }


@pytest.mark.parametrize("name", SOURCES_PURE)
def test_pure_source_module_imports_are_allowlisted(name: str) -> None:
    path = SRC / "sources" / name
    assert _imports(path) <= SOURCES_ALLOWED | SOURCES_EXTRA.get(name, set())
    pure = {"." + n.removesuffix(".py") for n in SOURCES_PURE}
    assert _relative_imports(path) <= pure | {"..", ".._model", ".._record", "..grammar.context"}


def test_every_source_module_is_classified() -> None:
    # A new module under sources/ is either pure (listed above) or known to do I/O.
    io_modules = {"archive", "compress", "kinds", "reading", "streamed", "text", "tree", "walk"}
    names = {p.stem for p in (SRC / "sources").glob("*.py")} - {"__init__"}
    assert names == {n.removesuffix(".py") for n in SOURCES_PURE} | io_modules
