"""Document text in, :class:`~urlsift.lint.model.Finding` records out (no file I/O).

Strategy
--------
Every document format is handled in two passes over the *same* offsets:

1. the format's own link syntax (Markdown inline links and autolinks, reST targets, HTML
   attributes, roff ``.UR``) is found by a small position-exact scanner in the format's
   module (:mod:`.extract_markdown`, :mod:`.extract_rst`, :mod:`.extract_html`,
   :mod:`.extract_man`), and each target is judged by the core :class:`~urlsift.Judge`;
2. the appendix forms (``<URL:...>``, ``<scheme:...>``, ``URL:``, bare URLs) are found by
   the core :class:`~urlsift.Scanner` on a *scan text*: the document with its code regions
   masked (every character replaced by a space, line breaks kept) so line and column
   numbers stay exact. Formats whose scan text is not the source text character for
   character (roff escapes) pass a position map back to the source.

A core URL that overlaps a document link is dropped: the document link is reported once,
with its own origin. Everything here is a pure function of the text; nothing raises on
bad input.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable
from pathlib import PurePath
from typing import Literal

from .extract_html import extract_html
from .extract_man import extract_man
from .extract_markdown import extract_markdown
from .extract_rst import extract_rst
from .extract_rst_docutils import extract_rst_docutils
from .findings import (
    DOCUMENT_LINK_ORIGINS,
    Extracted,
    ExtractOptions,
    FindingBuilder,
    LineIndex,
    LocalLink,
    RstParser,
    link_scheme,
    mask,
)
from .model import Finding
from .sites import include_targets, template_reason

__all__ = [
    "DOCUMENT_LINK_ORIGINS",
    "DocumentFormat",
    "ExtractOptions",
    "Extracted",
    "FindingBuilder",
    "LineIndex",
    "LocalLink",
    "RstParser",
    "detect_format",
    "extract_document",
    "extract_findings",
    "extract_text",
    "link_scheme",
    "mask",
]

DocumentFormat = Literal["text", "markdown", "rst", "html", "man"]
"""How a document is read."""

# File name suffix (lower case) -> format. Man pages are recognised by pattern below.
_SUFFIX_FORMATS: dict[str, DocumentFormat] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".mdown": "markdown",
    ".mkd": "markdown",
    ".rst": "rst",
    ".rest": "rst",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".man": "man",
}
# x.rst.txt, x.md.txt: a source copied to be shown as text (Sphinx's html_copy_source):
# read in its own format (what is code there is code), but its relative links are no
# links of a page (the source's are judged where it is built).
_COPIED_FORMATS = frozenset({"markdown", "rst"})
# Man page sections: foo.1, foo.3p, foo.8x (a digit 1-9, then at most a few letters).
_MAN_SUFFIX = re.compile(r"\.[1-9][a-z]{0,3}")


def detect_format(path: str) -> DocumentFormat:
    """Return the format of a document from its file name.

    Args:
        path: the document's path (only the name is looked at).

    Returns:
        ``markdown``, ``rst``, ``html``, ``man`` or ``text`` (anything else).
    """
    name = path.rsplit("/", 1)[-1]  # (PurePath(path) would parse every folder of it)
    if os.sep != "/":  # pragma: no cover - Windows
        name = name.rsplit(os.sep, 1)[-1]
    suffix = PurePath(name).suffix.lower()
    fmt = _SUFFIX_FORMATS.get(suffix)
    if fmt is not None:
        return fmt
    if suffix == ".txt":  # x.rst.txt: a source copied as text (Sphinx's _sources)
        copied = _SUFFIX_FORMATS.get(PurePath(name[: -len(suffix)]).suffix.lower())
        if copied in _COPIED_FORMATS:
            return copied
    if _MAN_SUFFIX.fullmatch(suffix):
        return "man"
    return "text"


def extract_text(text: str, path: str, options: ExtractOptions | None = None) -> Extracted:
    """Find the URLs of a plain-text document (the appendix forms only).

    Args:
        text: the decoded document.
        path: the path reported in each finding.
        options: what to look at.

    Returns:
        The findings in source order (plain text has no local links or anchors).
    """
    builder = FindingBuilder(text, path, options or ExtractOptions())
    return builder.document(builder.scan(text))


_Extractor = Callable[[str, str, ExtractOptions], Extracted]


def _extract_rst(text: str, path: str, options: ExtractOptions) -> Extracted:
    return _RST_EXTRACTORS[options.rst_parser](text, path, options)


_RST_EXTRACTORS: dict[RstParser, _Extractor] = {
    "urlsift": extract_rst,
    "docutils": extract_rst_docutils,
}
_EXTRACTORS: dict[DocumentFormat, _Extractor] = {
    "text": extract_text,
    "markdown": extract_markdown,
    "rst": _extract_rst,
    "html": extract_html,
    "man": extract_man,
}


def extract_document(
    text: str, path: str, fmt: DocumentFormat, options: ExtractOptions | None = None
) -> Extracted:
    """Read a document in the given format: its URLs, local links and anchors.

    Args:
        text: the decoded document.
        path: the path reported in each finding.
        fmt: the document's format (see :func:`detect_format`).
        options: what to look at (default :class:`ExtractOptions`).

    Returns:
        The findings in source order, the relative links and the anchors defined.
    """
    extracted = _EXTRACTORS[fmt](text, path, options or ExtractOptions())
    if fmt == "html":
        template = template_reason(text, path)
        if template is not None:
            extracted = dataclasses.replace(extracted, template=template)
    elif fmt in _COPIED_FORMATS and path[-4:].lower() == ".txt":
        extracted = dataclasses.replace(extracted, local_links=())
    if fmt in ("html", "rst"):
        includes = include_targets(text)
        if includes:
            extracted = dataclasses.replace(extracted, includes=includes)
    return extracted


def extract_findings(
    text: str, path: str, fmt: DocumentFormat, options: ExtractOptions | None = None
) -> list[Finding]:
    """Find the URLs of a document in the given format.

    Args:
        text: the decoded document.
        path: the path reported in each finding.
        fmt: the document's format (see :func:`detect_format`).
        options: what to look at (default :class:`ExtractOptions`).

    Returns:
        The findings in source order.
    """
    return extract_document(text, path, fmt, options).findings
