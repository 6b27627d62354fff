"""The defect table in docs/defects.md matches the codes the validator reports, and the
validator's modules stay free of I/O (their imports are checked against an allowlist)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import urlsift.validation.rules
from test_validate_grammar import INVALID, STRICT_CASES, VALID

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "urlsift"


def _documented() -> set[str]:
    text = (ROOT / "docs" / "defects.md").read_text("utf-8")
    validator = text.split("## Validator defects", 1)[1].split("## Scanner defects", 1)[0]
    return set(re.findall(r"^\| `([a-z-]+)` \|", validator, re.MULTILINE))


def _reported_in_source() -> set[str]:
    # Every string literal passed as the first argument of ctx.report(...) or returned as
    # the code of a lexical finding.
    codes: set[str] = set()
    for name in ("validation/schemes.py", "validation/rules.py"):
        tree = ast.parse((SRC / name).read_text("utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "report"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                codes.add(str(node.args[0].value))
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
                first = node.value.elts[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes.add(first.value)
            # code=... / missing_path_code=... as keyword, default or field default.
            pairs: list[tuple[str | None, ast.expr | None]] = []
            if isinstance(node, ast.keyword):
                pairs.append((node.arg, node.value))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                pairs.append((node.target.id, node.value))
            elif isinstance(node, ast.FunctionDef):
                args = node.args.args[-len(node.args.defaults) :] if node.args.defaults else []
                pairs.extend((a.arg, d) for a, d in zip(args, node.args.defaults, strict=True))
            for key, value in pairs:
                if key in ("missing_path_code", "code") and isinstance(value, ast.Constant):
                    codes.add(str(value.value))
    return codes


def test_every_reported_code_is_documented() -> None:
    assert _reported_in_source() <= _documented()


def test_every_documented_code_is_reported_and_has_a_fixture() -> None:
    documented = _documented()
    assert documented <= _reported_in_source()
    seen = {code for case in VALID + INVALID + STRICT_CASES for code in case.codes}
    assert documented == seen


def test_scanner_section_is_present() -> None:
    text = (ROOT / "docs" / "defects.md").read_text("utf-8")
    assert "## Scanner defects" in text


ALLOWED_IMPORTS = {
    "__future__",
    "collections.abc",
    "functools",
    "dataclasses",
    "typing",
    "re",
    "regex",
    "_model",
    "_record",  # the records' decorator (urlsift._record: stdlib only)
    "errors",
    "schemes",
    "grammar",  # "from ..grammar import rfc as g"
    "grammar.rfc",
    "",
}


def test_validator_modules_do_no_io() -> None:
    for name in ("grammar/rfc.py", "validation/schemes.py", "validation/rules.py"):
        tree = ast.parse((SRC / name).read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                modules = {node.module or ""}
            else:
                continue
            assert modules <= ALLOWED_IMPORTS, (name, modules)
    assert urlsift.validation.rules.__all__
