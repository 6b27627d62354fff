"""The "Source defects (mail and news)" table of docs/defects.md lists exactly the defect
codes that the source layer (src/urlsift/sources/*.py) can emit, and no code of
docs/defects.md has two rows."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

from urlsift._model import READ_ERROR_CODES

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "src" / "urlsift" / "sources"
DOCS = ROOT / "docs" / "defects.md"
SECTION = "## Source defects (mail and news)"
CODE = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
ROW = re.compile(r"^\| `([a-z0-9-]+)` \|", re.MULTILINE)


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _code_argument(call: ast.Call, index: int, keyword: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    return call.args[index] if len(call.args) > index else None


def _constructors(tree: ast.Module) -> dict[str, tuple[int, str]]:
    # ``Defect`` itself, plus every function that passes one of its own parameters on as
    # the code of a constructor (``_warning(code, message)`` -> ``Defect(code, ...)``),
    # to any depth: name -> (position, keyword) of the code argument.
    found: dict[str, tuple[int, str]] = {"Defect": (0, "code")}
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    changed = True
    while changed:
        changed = False
        for function in functions:
            if function.name in found:
                continue
            params = [a.arg for a in function.args.posonlyargs + function.args.args]
            for call in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
                target = found.get(_callee(call) or "")
                if target is None:
                    continue
                value = _code_argument(call, *target)
                if isinstance(value, ast.Name) and value.id in params:
                    found[function.name] = (params.index(value.id), value.id)
                    changed = True
                    break
    return found


def _emitted() -> tuple[set[str], list[str]]:
    """(codes passed as literals to a defect constructor, calls whose code is not one)."""
    codes: set[str] = set()
    unresolved: list[str] = []
    for path in sorted(SOURCES.glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        constructors = _constructors(tree)
        wrapper_params = {
            (name, keyword) for name, (_, keyword) in constructors.items() if name != "Defect"
        }
        parents = {
            child: function
            for function in ast.walk(tree)
            if isinstance(function, ast.FunctionDef)
            for child in ast.walk(function)
        }
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            target = constructors.get(_callee(call) or "")
            if target is None:
                continue
            value = _code_argument(call, *target)
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                codes.add(value.value)
                continue
            function = parents.get(call)
            if (
                isinstance(value, ast.Name)
                and function is not None
                and (function.name, value.id) in wrapper_params
            ):
                continue  # the wrapper forwarding its own parameter
            unresolved.append(f"{path.name}:{call.lineno}: {ast.unparse(call)[:80]}")
    return codes, unresolved


def _section(text: str, title: str) -> str:
    after = text.split(title + "\n", 1)[1]
    return after.split("\n## ", 1)[0]


def _documented() -> set[str]:
    return set(ROW.findall(_section(DOCS.read_text("utf-8"), SECTION)))


def test_collector_finds_the_source_codes() -> None:
    codes, unresolved = _emitted()
    assert not unresolved, "defect codes that are not string literals: " + "; ".join(unresolved)
    assert len(codes) >= 10, codes
    assert all(CODE.fullmatch(code) for code in codes), codes
    # A few codes from each module, so a collector that silently misses one is caught.
    assert {"missing-separator", "mbox-from-in-body", "message-truncated"} <= codes  # mbox
    assert {"stream-read-error", "message-unreadable"} <= codes  # archive
    assert {"mime-defect", "unknown-charset", "message-parse-error"} <= codes  # mime


def test_source_section_matches_the_emitted_codes() -> None:
    codes, _ = _emitted()
    documented = _documented()
    assert sorted(codes - documented) == [], "emitted but not documented"
    assert sorted(documented - codes) == [], "documented but never emitted"


def test_source_section_is_the_last_and_keeps_the_table_format() -> None:
    text = DOCS.read_text("utf-8")
    titles = re.findall(r"^## .*$", text, re.MULTILINE)
    assert titles[-1] == SECTION
    header = "| code | severity (default / strict) | rule | meaning |"
    section = _section(text, SECTION)
    assert header in section
    for line in section.splitlines():
        if ROW.match(line):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            assert len(cells) == 4, line
            # A source defect describes the input (a warning), but for the two that say part
            # of it was not read (exit status 2): errors.
            code = cells[0].strip("`")
            severity = "error / error" if code in READ_ERROR_CODES else "warning / warning"
            assert cells[1] == severity, line
            assert cells[2], line
            assert cells[3], line


def test_every_documented_code_has_exactly_one_row() -> None:
    rows = Counter(ROW.findall(DOCS.read_text("utf-8")))
    assert len(rows) >= 40
    assert sorted(code for code, count in rows.items() if count > 1) == []
