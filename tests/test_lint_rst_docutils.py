"""The reST extractor against docutils: the same written URLs are links, and no others.

docutils (the reference reST parser) decides here what is a link, as it does for
``--rst-parser docutils``: one definition, :func:`~urlsift.lint.extract_rst_docutils.
docutils_links` (unknown Sphinx roles and directives are read generically, so Sphinx
documents parse without Sphinx). Compared: the URLs written in the document (present in
its text with whitespace removed) that docutils makes a reference, target or image URI,
and the URLs the extractor reports. Differences
found on the real trees are pinned with the reason each is right for the extractor.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

docutils = pytest.importorskip("docutils")

from _rst_cases import STRUCTURE_CASE  # noqa: E402
from urlsift.extraction.scanner import DEFAULT_SCHEMES  # noqa: E402
from urlsift.lint.extract import extract_document  # noqa: E402
from urlsift.lint.extract_rst_docutils import docutils_links  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHARED_DOCS = ROOT.parent / "shared" / "corpora" / "docs"


def _docutils_links(text: str) -> set[str]:
    # The URIs docutils makes links that are written in the document (not made by a role).
    flat = "".join(text.split())
    links = docutils_links(text, DEFAULT_SCHEMES)
    assert links is not None
    return {uri for uri, _ in links if uri in flat}


def _differences(path: Path, text: str) -> tuple[set[str], set[str]]:
    theirs = _docutils_links(text)
    ours = {f.url for f in extract_document(text, str(path), "rst").findings}
    return theirs - ours, ours - theirs


def test_structure_cases_agree_with_docutils() -> None:
    assert _differences(Path("case.rst"), STRUCTURE_CASE) == (set(), set())


# Known differences on the real trees: each is a case the extractor gets right for a reader.
_PINNED: dict[str, tuple[set[str], set[str]]] = {
    # "ssh:" is not a scheme urlsift scans for in bare text.
    "pep-0385.rst": ({"ssh://hg@hg.python.org/cpython/"}, set()),
    # docutils ends a standalone URI before "(...)"; the page is RSA_(cryptosystem).
    "pep-0480.rst": (
        {"https://en.wikipedia.org/wiki/RSA_(cryptosystem"},
        {"https://en.wikipedia.org/wiki/RSA_(cryptosystem)"},
    ),
}


@pytest.mark.skipif(not SHARED_DOCS.is_dir(), reason="../shared/corpora/docs is absent")
def test_real_trees_agree_with_docutils() -> None:
    files = sorted((SHARED_DOCS / "psf+requests").rglob("*.rst"))
    files += sorted((SHARED_DOCS / "python+peps" / "peps").glob("pep-0[0-4]*.rst"))[::3]
    assert len(files) > 60
    for path in files:
        # PEP headers and the PEP extension's directives (canonical-doc ...) render their
        # arguments as links; docutils alone reads them as plain text: skip those files.
        text = path.read_text(encoding="utf-8")
        if re.search(r"^\.\. canonical-", text, re.M):
            continue
        assert _differences(path, text) == _PINNED.get(path.name, (set(), set())), path
