"""The modules under src/urlsift/sources/ import each other without a circle.

Each module's relative imports (read with ``ast``, so nothing is executed) are the edges
of a graph; a depth-first walk finds any cycle, and the test names it.
"""

from __future__ import annotations

import ast
from pathlib import Path

SOURCES = Path(__file__).resolve().parent.parent / "src" / "urlsift" / "sources"


def _edges() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in SOURCES.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        targets: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    targets.add(node.module.split(".")[0])
                else:  # "from . import x"
                    targets.update(alias.name for alias in node.names)
        graph[path.stem] = targets
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_no_import_circle_under_sources() -> None:
    assert _cycle(_edges()) is None


def test_the_cycle_finder_finds_one() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_graph_holds_the_known_edges() -> None:
    graph = _edges()
    assert {"parts", "streamed", "kinds", "reading"} <= graph["archive"]
    assert "charsets" in graph["headers"]
