"""Issue 15: ``help()`` shows each record field's description (written once, under the field)."""

from __future__ import annotations

import ast
import inspect
import itertools
import pydoc
import subprocess
import sys
import textwrap

import pytest

import urlsift

RECORDS = [
    urlsift.Url,
    urlsift.MessageContext,
    urlsift.Defect,
    urlsift.TextUnit,
    urlsift.Candidate,
    urlsift.Policy,
    urlsift.Validation,
]


def _field_docs(cls: type) -> dict[str, str]:
    # The test's own reading of the source: each annotated name and the string under it.
    body = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0].body  # type: ignore[attr-defined]
    docs = {}
    for node, after in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
        ):
            docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _flat(text: str) -> str:
    return " ".join(text.replace("|", " ").split())


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: cls.__name__)
def test_help_lists_every_field_with_its_description(cls: type) -> None:
    docs = _field_docs(cls)
    fields = getattr(cls, "__dataclass_fields__", None) or cls._fields  # type: ignore[attr-defined]
    assert set(docs) == set(fields)  # every field is described in the source
    rendered = _flat(pydoc.render_doc(cls, renderer=pydoc.plaintext))
    assert "Attributes:" in rendered
    for name, doc in docs.items():
        assert f"{name} (" in rendered
        assert _flat(doc) in rendered, name
    assert inspect.getdoc(cls) == cls.__doc__
    assert cls.__doc__.startswith(inspect.cleandoc(cls.__dict__["__doc__"]._doc))  # type: ignore[union-attr]


def test_the_section_is_built_only_when_read() -> None:
    code = (
        "import urlsift\n"
        "assert urlsift.Url.__dict__['__doc__']._built is None\n"
        "doc = urlsift.Url.__doc__\n"
        "assert urlsift.Url.__dict__['__doc__']._built == doc\n"
        "assert urlsift.extract('http://a.example/')[0].__doc__ == doc\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
