"""The package's stages import one way: no module imports a stage above its own.

The folder tree is the pipeline (README, "Design"); this test holds the imports to it.
Every module under ``src/urlsift`` is read with ``ast`` (nothing is executed), each import
of another urlsift module (relative or absolute, at the top or inside a function, since a
lazy import is a dependency all the same) is resolved to the module it names, and the
stage of the target must be at or below the stage of the importer in :data:`LAYERS`.

The order is the order of code dependency, which is the data flow but for two places
where it cannot be: the sources find ``scheme:`` in HTML and headers with the grammar's
one scheme-name pattern, so the grammar sits below the sources; and an engine may write
output itself (a Dask worker writes its own Parquet file), so the writers sit below the
engines and know only the record model.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "urlsift"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("_model", "_record", "_fielddocs", "errors"),  # the record model and the caller's errors
    ("grammar",),  # RFC 1738 §5 and the context grammar, as pattern source
    ("sources",),  # bytes and files in, decoded text units out
    ("extraction",),  # text in, candidates and readings out (sans-IO)
    ("validation",),  # readings in, validations out (pure)
    ("api",),  # the public functions: extraction and validation together
    ("output",),  # writers of records
    ("engines",),  # where the work runs: plan, one process, processes, Dask
    ("report",),  # the HTML report of an archive
    ("lint",),  # documentation linting
    ("cli", "__init__", "__main__", "_moved"),  # the commands and the package's face
)
"""Each stage's top-level names, lowest first; a module may import its own stage or lower."""

RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def urlsift_imports(path: Path, root: Path) -> set[str]:
    """The urlsift modules (dotted, without ``urlsift.``) that ``path`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = list(path.relative_to(root).with_suffix("").parts)
    package = own[:-1]  # the package a relative import starts from
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("urlsift."):
                    found.add(alias.name.removeprefix("urlsift."))
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if node.module and node.module.startswith("urlsift."):
                    found.add(node.module.removeprefix("urlsift."))
                elif node.module == "urlsift":
                    found.update(alias.name for alias in node.names)
                continue
            base = package[: len(package) - (node.level - 1)]
            if node.module:
                found.add(".".join([*base, node.module]))
            else:  # "from . import x": x is a module of that package or a name in it
                found.update(".".join([*base, alias.name]) for alias in node.names)
    return {target for target in found if target}


def _stage(dotted: str) -> str:
    return dotted.split(".")[0]


def climbing_imports(root: Path) -> list[str]:
    """Every import under ``root`` that names a stage above the importer's own."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        source = _module_name(path, root)
        source_rank = RANK[_stage(source)]
        for target in sorted(urlsift_imports(path, root)):
            target_rank = RANK.get(_stage(target))
            if target_rank is None:  # a name imported from the package itself
                assert _stage(source) in {"__init__", "__main__", "cli"} or "." in target
                continue
            if target_rank > source_rank:
                problems.append(f"{source} imports {target}")
    return problems


def test_every_top_level_name_has_a_stage() -> None:
    modules = {path.stem for path in SRC.glob("*.py")}
    packages = {path.parent.name for path in SRC.glob("*/__init__.py")}
    assert modules | packages == set(RANK)


def test_no_import_climbs_to_a_higher_stage() -> None:
    assert climbing_imports(SRC) == []


def test_a_planted_climbing_import_is_found(tmp_path: Path) -> None:
    # The check itself must be able to fail: copy the package, plant one import that
    # climbs (the scanner asking the engines for something), and one lazy one.
    copy = tmp_path / "urlsift"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("__pycache__"))
    scanner = copy / "extraction" / "scanner.py"
    scanner.write_text(
        scanner.read_text(encoding="utf-8") + "\nfrom ..engines.plan import plan_paths\n",
        encoding="utf-8",
    )
    rules = copy / "validation" / "rules.py"
    rules.write_text(
        rules.read_text(encoding="utf-8")
        + "\n\ndef _late() -> None:\n    import urlsift.output.formats\n",
        encoding="utf-8",
    )
    assert climbing_imports(copy) == [
        "extraction.scanner imports engines.plan",
        "validation.rules imports output.formats",
    ]


def test_sources_and_extraction_never_import_each_other_upward() -> None:
    # The two stages the issue names: extraction never imports validation, engines or
    # output; validation never imports engines or output (held by the table above, and
    # spelled out here so that a reordering of LAYERS cannot drop them silently).
    for path in (SRC / "extraction").glob("*.py"):
        stages = {_stage(t) for t in urlsift_imports(path, SRC)}
        assert not stages & {"validation", "api", "engines", "output", "cli", "lint"}, path
    for path in (SRC / "validation").glob("*.py"):
        stages = {_stage(t) for t in urlsift_imports(path, SRC)}
        assert not stages & {"extraction", "api", "engines", "output", "cli", "lint"}, path
