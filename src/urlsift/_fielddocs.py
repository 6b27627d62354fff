"""Per-field descriptions in ``help()``: each record's docstring gains an Attributes section.

Promises: the description of every field is written once, as the string literal under the
field in the class body (where editors and IDEs show it, and where ``help()`` never
looks); :func:`document_fields` makes ``Cls.__doc__`` (what ``help()``, ``pydoc`` and
``inspect.getdoc`` read) the class docstring followed by an ``Attributes:`` section built
from those literals. The section is built on the first read of ``__doc__``, by parsing the
class's source then, so importing urlsift costs nothing; without source (a bytecode-only
install) the docstring is the class's own. Nothing here runs while scanning.
"""

from __future__ import annotations

from typing import Any


class _FieldDocs:
    """A class's ``__doc__``, built when first read (a descriptor: ``type.__doc__`` calls it)."""

    def __init__(self, doc: str | None) -> None:
        self._doc = doc or ""
        self._built: str | None = None

    def __get__(self, instance: object, owner: type | None = None) -> str:
        if self._built is None:
            self._built = _with_attributes(owner, self._doc) if owner is not None else self._doc
        return self._built


def _with_attributes(cls: type, doc: str) -> str:
    import ast
    import inspect
    import itertools
    import textwrap

    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return doc
    body = next(
        (node.body for node in ast.parse(source).body if isinstance(node, ast.ClassDef)), []
    )
    lines: list[str] = []
    for node, after in itertools.pairwise(body):
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        if not (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            continue
        annotation = ast.unparse(node.annotation)
        if annotation.startswith("ClassVar"):
            continue
        text = inspect.cleandoc(after.value.value)
        lines.append(f"    {node.target.id} ({annotation}):")
        lines.extend(f"        {line}" if line else "" for line in text.splitlines())
    if not lines:
        return doc
    return inspect.cleandoc(doc) + "\n\nAttributes:\n" + "\n".join(lines)


def document_fields(*classes: Any) -> None:
    """Give each class a ``__doc__`` that lists its fields' descriptions (module notes)."""
    for cls in classes:
        if not isinstance(cls.__dict__.get("__doc__"), _FieldDocs):
            type.__setattr__(cls, "__doc__", _FieldDocs(cls.__dict__.get("__doc__")))
