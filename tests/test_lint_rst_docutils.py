"""The reST extractor against docutils: the same written URLs are links, and no others.

docutils (the reference reST parser) decides here what is a link; unknown Sphinx roles
and directives are registered generically (a role's text is a literal, a directive's
content is parsed as body text), so Sphinx documents parse without Sphinx. Compared: the
URLs written in the document (present in its text with whitespace removed) that docutils
makes a reference, target or image URI, and the URLs the extractor reports. Differences
found on the real trees are pinned with the reason each is right for the extractor.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

docutils = pytest.importorskip("docutils")

from docutils import nodes  # noqa: E402
from docutils.frontend import get_default_settings  # noqa: E402
from docutils.parsers.rst import Directive, Parser, directives, roles  # noqa: E402
from docutils.parsers.rst.languages import en as english  # noqa: E402
from docutils.utils import new_document  # noqa: E402

from urlsift.lint.extract import extract_document, link_scheme  # noqa: E402
from urlsift.scanner import DEFAULT_SCHEMES  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHARED_DOCS = ROOT.parent / "shared" / "corpora" / "docs"

_DIRECTIVE_NAME = re.compile(r"^[ \t]*\.\.[ \t]+([\w:.+-]+)::", re.M)
_ROLE_NAME = re.compile(r":([A-Za-z0-9][\w+.:-]*):`")


class _AnyOption(dict):  # type: ignore[type-arg]
    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: object) -> object:
        return directives.unchanged


class _Generic(Directive):
    optional_arguments = 100
    final_argument_whitespace = True
    has_content = True
    option_spec = _AnyOption()

    def run(self) -> list[nodes.Node]:
        node = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


def _generic_role(  # the signature docutils calls a role with
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: object,
    options: object = None,
    content: object = None,
) -> tuple[list[nodes.Node], list[nodes.Node]]:
    return [nodes.literal(rawtext, text)], []


def _docutils_links(text: str, source: str) -> set[str]:
    settings = get_default_settings(Parser)
    settings.report_level = 5
    settings.halt_level = 5
    settings.warning_stream = False
    settings.file_insertion_enabled = False
    settings.raw_enabled = False
    document = new_document(source, settings)
    for name in set(_DIRECTIVE_NAME.findall(text)):
        if directives.directive(name, english, document)[0] is None:
            directives.register_directive(name, _Generic)
    for name in set(_ROLE_NAME.findall(text)):
        if roles.role(name, english, 0, document.reporter)[0] is None:
            roles.register_local_role(name, _generic_role)
    Parser().parse(text, document)
    flat = "".join(text.split())
    found: set[str] = set()
    for node in document.findall(
        lambda n: isinstance(n, (nodes.reference, nodes.target, nodes.image))
    ):
        uri = node.get("refuri") or node.get("uri")
        if uri and uri in flat and link_scheme(uri, DEFAULT_SCHEMES) is not None:
            found.add(uri)
    return found


def _differences(path: Path, text: str) -> tuple[set[str], set[str]]:
    theirs = _docutils_links(text, str(path))
    ours = {f.url for f in extract_document(text, str(path), "rst").findings}
    return theirs - ours, ours - theirs


def test_structure_cases_agree_with_docutils() -> None:
    text = (
        "Title\n=====\n\n"
        ".. image:: https://img.example/v.svg?maxAge=86400\n"
        "    :target: https://pypi.example/project/\n"
        "    :alt: PyPI Version Badge\n\n"
        ".. figure:: https://fig.example/f.png\n   :width: 50\n\n"
        "   Caption with https://caption.example/x inside.\n\n"
        "__ http://sourceforge.example/tracker/?group_id=5470\n\n"
        "``AAA[,BBB]...``\n    List of initials.\n\n"
        "Edit :file:`setup.cfg` and :code:`'https://code.example'`, not\n"
        "``https://literal.example`` but `the site <https://site.example/>`_\n"
        "and https://bare.example/x, `https://label.example <https://to.example/>`_.\n\n"
        ">>> url = 'https://doctest.example/'\n\n"
        ".. a comment with https://comment.example/\n\n"
        "* a bullet::\n\n    https://in-literal.example/\n\n"
        "  - https://after-literal.example/\n"
    )
    assert _differences(Path("case.rst"), text) == (set(), set())


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
