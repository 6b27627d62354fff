"""Relative links between documents, checked offline: the file exists, the anchor exists.

What is checked (and why, as lychee and Sphinx's linkcheck draw the same lines):

* Markdown and HTML links without a scheme (``[x](../guide.md#install)``,
  ``href="other.html#id"``): the path is taken relative to the document's folder (after
  removing ``?query`` and percent-decoding). A missing target is ``URL015`` only when it
  names a *document* (``.md .markdown .rst .rest .txt .html .htm .xhtml``): links to
  source files, images and folders often point outside a documentation tree, or at pages a
  site generator makes, and a linter cannot tell those from mistakes. A site-absolute path
  (``/about/``) is not checked (the site's root is unknown).
* ``#fragment`` (alone, or after a document path that exists): ``URL016`` when the target
  document defines no such anchor: Markdown heading anchors as GitHub and MkDocs make them
  (:mod:`.slugs`), explicit ``{#id}``, HTML ``id``/``name``, reST section title ids and
  ``.. _label:`` ids. Anchors are compared without regard to case.
* Sphinx roles resolve against a Sphinx project, so they are checked only in a document
  with a ``conf.py`` in its folder or above (the source root); a docs-only copy without
  it is not judged. ``:doc:`path``` (relative to the document, ``/path`` to the source
  root), tried as written and with ``.rst``, ``.md``, ``.txt``: ``URL015`` when none
  exists. ``:ref:`label```: ``URL016`` when no document of the run defines
  ``.. _label:`` (or MyST ``(label)=``); MyST's ``{doc}`` and ``{ref}`` roles are read
  as these, unless ``conf.py`` mentions ``intersphinx`` (Sphinx then looks a label
  it lacks up in other projects' inventories). Targets with a ``:`` (``python:...``,
  intersphinx) and Sphinx's own ``genindex``, ``modindex``, ``search`` are not checked.

A target document that was not linted is read to learn its anchors (once per file).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import unquote

from .findings import Extracted, LocalLink
from .model import RULE_BY_CODE, Diagnostic
from .walk import is_file, path_exists

DOCUMENT_SUFFIXES = frozenset(
    {".md", ".markdown", ".rst", ".rest", ".txt", ".html", ".htm", ".xhtml"}
)
"""Suffixes of the files a missing-file diagnostic is given for."""

_ANCHORED_SUFFIXES = frozenset({".md", ".markdown", ".rst", ".rest", ".html", ".htm", ".xhtml"})
_DOC_SUFFIXES = (".rst", ".md", ".txt")
_SPHINX_LABELS = frozenset({"genindex", "modindex", "py-modindex", "search"})
_MAX_PARENTS = 32

AnchorReader = Callable[[Path], "frozenset[str] | None"]
"""Reads a document that was not linted and returns its anchors (None: unreadable)."""


class LocalLinkChecker:
    """Checks the local links of the documents of one run."""

    def __init__(self, read_anchors: AnchorReader) -> None:
        """Prepare a check; ``read_anchors`` reads documents that were not linted."""
        self._read_anchors = read_anchors
        self._anchors: dict[Path, frozenset[str] | None] = {}
        self._documents: list[tuple[Path, str, Extracted]] = []
        self._labels: set[str] = set()
        self._roots: dict[Path, tuple[Path, bool] | None] = {}

    def add(self, path: Path, display: str, document: Extracted) -> None:
        """Add a linted document (its anchors and labels become known)."""
        self._anchors[path.resolve()] = _folded(document.anchors)
        self._labels |= document.labels
        if document.local_links:
            self._documents.append((path, display, document))

    def diagnostics(self) -> list[Diagnostic]:
        """Return the ``URL015``/``URL016`` diagnostics of every document added."""
        out: list[Diagnostic] = []
        for path, display, document in self._documents:
            for link in document.local_links:
                message = self._problem(path, link)
                if message is not None:
                    code, text = message
                    rule = RULE_BY_CODE[code]
                    out.append(
                        Diagnostic(
                            display, link.line, link.column, code, rule.severity, text, link.target
                        )
                    )
        return out

    def _problem(self, path: Path, link: LocalLink) -> tuple[str, str] | None:
        if link.origin in ("rst-ref", "rst-doc"):
            project = self._sphinx_root(path.parent.resolve())
            if project is None or ":" in link.target:
                return None
            root, intersphinx = project
            if link.origin == "rst-doc":
                return self._doc_problem(path, root, link.target)
            label = " ".join(link.target.split()).lower()
            if intersphinx or label in _SPHINX_LABELS or label in self._labels:
                return None
            return "URL016", (
                f"{link.target}: no label {label!r} (`.. _{label}:`, MyST `({label})=`) "
                "in the documents linted"
            )
        target, _, fragment = link.target.partition("#")
        target = unquote(target.partition("?")[0])
        if not target:
            anchors = self._anchors.get(path.resolve())
            return _anchor_problem(link.target, fragment, anchors, "this document")
        if target.startswith("/"):
            return None
        resolved = path.parent / target
        suffix = resolved.suffix.lower()
        if not path_exists(resolved):
            if suffix in DOCUMENT_SUFFIXES:
                return "URL015", f"{link.target}: no file {target!r} next to this document"
            return None
        if not fragment or suffix not in _ANCHORED_SUFFIXES or not is_file(resolved):
            return None
        return _anchor_problem(link.target, fragment, self._anchors_of(resolved), target)

    def _sphinx_root(self, folder: Path) -> tuple[Path, bool] | None:
        """The Sphinx source root above ``folder`` and whether it uses intersphinx."""
        if folder in self._roots:
            return self._roots[folder]
        found: tuple[Path, bool] | None = None
        for parent in [folder, *folder.parents][:_MAX_PARENTS]:
            conf = parent / "conf.py"
            if is_file(conf):
                try:
                    intersphinx = "intersphinx" in conf.read_text(
                        encoding="utf-8", errors="replace"
                    )
                except OSError:
                    intersphinx = True  # unknown: do not judge labels
                found = (parent, intersphinx)
                break
        self._roots[folder] = found
        return found

    def _doc_problem(self, path: Path, root: Path, target: str) -> tuple[str, str] | None:
        base = root / target.lstrip("/") if target.startswith("/") else path.parent / target
        if is_file(base) or any(
            is_file(base.with_name(base.name + suffix)) for suffix in _DOC_SUFFIXES
        ):
            return None
        return "URL015", f"{target}: no document {target!r} (:doc: tries .rst, .md, .txt)"

    def _anchors_of(self, path: Path) -> frozenset[str] | None:
        key = path.resolve()
        if key not in self._anchors:
            anchors = self._read_anchors(path)
            self._anchors[key] = None if anchors is None else _folded(anchors)
        return self._anchors[key]


def _folded(anchors: Iterable[str]) -> frozenset[str]:
    return frozenset(anchor.lower() for anchor in anchors)


def _anchor_problem(
    written: str, fragment: str, anchors: frozenset[str] | None, where: str
) -> tuple[str, str] | None:
    if not fragment or anchors is None:
        return None
    wanted = unquote(fragment)
    if wanted.lower() in anchors or fragment.lower() in anchors:
        return None
    return "URL016", f"{written}: no anchor '#{wanted}' in {where}"
