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
  ``.. _label:``, a directive's ``:name:`` (or MyST ``(label)=``), nor, under
  ``sphinx.ext.autosectionlabel``, a section title of that name; MyST's ``{doc}`` and
  ``{ref}`` roles are read as these, unless ``conf.py`` mentions ``intersphinx`` (Sphinx
  then looks a label it lacks up in other projects' inventories). Targets with a ``:``
  (``python:...``, intersphinx) and Sphinx's own ``genindex``, ``modindex``, ``search``
  are not checked.

A target document that was not linted is read to learn its anchors (once per file).

A document another one includes (mdBook ``{{#include}}``, reST ``.. include::``, Liquid
``{% include %}``, pymdownx.snippets, a Hugo ``readfile`` shortcode, a Handlebars partial:
:data:`~.sites.INCLUDE_DIRECTIVES`) is a fragment rendered inside its includer: a link of
it that does not resolve from its own folder is tried from each includer's, and is wrong
only when it resolves from none (not judged when an includer cannot judge it, or is a
template itself).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from .findings import Extracted, LocalLink, is_relative
from .model import RULE_BY_CODE, Diagnostic
from .sites import (
    GENERATOR_LINK,
    HUGO_REF,
    JEKYLL_LINK,
    SOURCE_LINKS,
    TEMPLATE_PLACEHOLDER,
    Site,
    SiteFinder,
    include_candidates,
    myst_references,
)
from .slugs import Anchors, normalize_label
from .walk import RealPaths, is_file, path_exists

DOCUMENT_SUFFIXES = frozenset(
    {".md", ".markdown", ".mdx", ".rst", ".rest", ".txt", ".html", ".htm", ".xhtml"}
)
"""Suffixes of the documents a missing-file diagnostic is given for."""

MEDIA_SUFFIXES = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".ico", ".bmp", ".css"}
)
"""Suffixes of the images and stylesheets a missing-file diagnostic is given for."""

_ANCHORED_SUFFIXES = frozenset(
    {".md", ".markdown", ".mdx", ".rst", ".rest", ".html", ".htm", ".xhtml"}
)
_DOC_SUFFIXES = (".rst", ".md", ".txt")
_SPHINX_LABELS = frozenset({"genindex", "modindex", "py-modindex", "search"})
_MAX_PROJECT_FILES = 20_000
_MAX_REDIRECTS = 8  # redirect stubs followed in a row
_REDIRECTS_TO = ", which redirects to "

DocumentReader = Callable[[Path], "Extracted | None"]
"""Reads a document that was not linted and returns what it defines (None: unreadable)."""

Problem = tuple[str, str]
"""A rule code (``URL015``, ``URL016``, or ``URL017`` for a link not judged) and a message."""


class _Known:
    """The anchors of a document and why they may be incomplete."""

    __slots__ = ("anchors", "opaque", "redirect")

    def __init__(
        self, anchors: Iterable[str], opaque: str | None, redirect: str | None = None
    ) -> None:
        self.anchors: AbstractSet[str] = (
            anchors.lower()  # numbered heading repeats stay counts
            if isinstance(anchors, Anchors)
            else frozenset(anchor.lower() for anchor in anchors)
        )
        self.opaque = opaque
        self.redirect = redirect


class LocalLinkChecker:
    """Checks the local links of the documents of one run."""

    def __init__(self, read_document: DocumentReader) -> None:
        """Prepare a check; ``read_document`` reads documents that were not linted."""
        self._read = read_document
        self._known: dict[Path, _Known | None] = {}
        self._documents: list[tuple[Path, str, Extracted]] = []
        self._including: list[tuple[Path, str, Extracted]] = []  # documents with includes
        self._labels: set[str] = set()
        self._titles: set[str] = set()  # section titles: labels under autosectionlabel
        self._sites = SiteFinder()
        self._site_labels: dict[Path, frozenset[str]] = {}
        self._real = RealPaths()

    def add(self, path: Path, display: str, document: Extracted) -> None:
        """Add a linted document (its anchors and labels become known)."""
        self._remember(self._real(path), document)
        self._labels |= document.labels
        self._titles |= document.titles
        if document.local_links:
            self._documents.append((path, display, document))
        if document.includes:
            self._including.append((path, display, document))

    def diagnostics(self) -> list[Diagnostic]:
        """Return the ``URL015``/``URL016``/``URL017`` diagnostics of every document added."""
        out: list[Diagnostic] = []
        includers = self._includers()
        for path, display, document in self._documents:
            absolute = Path(os.path.abspath(path))
            site = self._sites.site_of(absolute)
            included_by = (
                includers.get(self._real(path), ())
                if includers and document.template is None
                else ()
            )
            for link in document.local_links:
                problem = (
                    _unjudged(link.target, document.template)
                    if document.template is not None
                    else self._problem(absolute, site, link)
                )
                if problem is not None and included_by:
                    problem = self._fragment_problem(problem, included_by, link)
                if problem is not None:
                    code, text = problem
                    rule = RULE_BY_CODE[code]
                    out.append(
                        Diagnostic(
                            display, link.line, link.column, code, rule.severity, text, link.target
                        )
                    )
        return out

    def _includers(self) -> dict[Path, list[tuple[Path, str, Extracted]]]:
        """The documents of the run that include each file (by real path)."""
        found: dict[Path, list[tuple[Path, str, Extracted]]] = {}
        for path, display, document in self._including:
            absolute = Path(os.path.abspath(path))
            site = self._sites.site_of(absolute)
            for written in document.includes:
                for candidate in include_candidates(written, absolute, site):
                    if is_file(candidate):
                        key = self._real(Path(os.path.normpath(candidate)))
                        found.setdefault(key, []).append((absolute, display, document))
                        break
        return found

    def _fragment_problem(
        self, problem: Problem, included_by: list[tuple[Path, str, Extracted]], link: LocalLink
    ) -> Problem | None:
        """What is wrong with ``link`` of a fragment (``problem`` from its own folder) once
        rendered inside each of its includers: nothing when it resolves from one."""
        for includer, display, document in included_by:
            if document.template is not None:
                return _unjudged(
                    link.target, f"included by {display}, {document.template.partition(':')[0]}"
                )
            found = self._problem(includer, self._sites.site_of(includer), link)
            if found is None:
                return None
            if found[0] == "URL017":
                # seen from the includer: "this document" is the includer
                problem = (found[0], found[1].replace("this document", display, 1))
        return problem

    def _problem(self, path: Path, site: Site | None, link: LocalLink) -> Problem | None:
        if site is not None and site.generator.name == "hugo":
            ref = HUGO_REF.fullmatch(link.target.strip())
            if ref is not None:
                return self._hugo_ref_problem(path, site, link.target, ref.group(2))
        if site is not None and site.generator.name == "jekyll":
            tag = JEKYLL_LINK.fullmatch(link.target.strip())
            if tag is not None:
                return self._jekyll_link_problem(site, link.target, tag)
        if TEMPLATE_PLACEHOLDER.search(link.target):
            return _unjudged(
                link.target, "a template placeholder: the target is made at build time"
            )
        placeholder = GENERATOR_LINK.match(link.target)
        if placeholder is not None:
            return self._generator_link_problem(path, site, link.target, placeholder)
        if link.origin in ("rst-ref", "rst-doc"):
            return self._role_problem(path, site, link)
        if link.origin == "rst-name":  # the extractor found no such name in the document
            if site is not None and site.options.get("prolog"):
                # Sphinx adds conf.py's rst_prolog and rst_epilog to every document.
                return _unjudged(link.target, "conf.py's rst_prolog or rst_epilog may define it")
            return "URL016", (
                f"{link.target}: no target, title or link named {link.target!r} in this document"
            )
        target, _, fragment = link.target.partition("#")
        target = unquote(target.partition("?")[0])
        if not target:
            problem = self._anchor_problem(link.target, fragment, path, "this document")
            if problem is not None and problem[0] == "URL016" and myst_references(site, path):
                label = normalize_label(unquote(fragment))
                if label in self._labels or (
                    site is not None and label in self._project_labels(site, titled=False)
                ):
                    return None
            return problem
        if target.startswith("/"):
            return self._absolute_problem(link.target, target, fragment, site)
        bases = [path.parent]
        url_folder = None if site is None else site.url_folder(path)
        if url_folder is not None:
            bases.append(url_folder)
        if site is None and "i18n" in path.parts:  # a Docusaurus translation
            original = self._sites.original_folder(path)
            if original is not None:
                bases.append(original)
        candidates = [base / target for base in bases]
        if site is not None and site.localized is not None:  # a language's own file first
            candidates = [
                served
                for candidate in candidates
                for served in site.localized.targets(
                    site.source, path, Path(os.path.normpath(candidate))
                )
            ]
        return self._file_problem(link.target, candidates, fragment, site)

    def _hugo_ref_problem(self, path: Path, site: Site, written: str, ref: str) -> Problem | None:
        """Hugo's ``ref``/``relref`` shortcode: the page it names must exist (Hugo fails the
        build otherwise), and so must the anchor in it."""
        target, _, fragment = ref.partition("#")
        target = unquote(target)
        if not target:
            return self._anchor_problem(written, fragment, path, "this document")
        found = site.hugo_ref(path, target)
        if found is None:
            return "URL015", (
                f"{written}: no page {target!r} (Hugo's ref looks from this document's folder, "
                "the content folder and the pages' paths)"
            )
        if not is_file(found):  # a section's list page, made by Hugo: no anchors to read
            return None
        return self._anchor_problem(written, fragment, found, target)

    def _jekyll_link_problem(self, site: Site, written: str, tag: re.Match[str]) -> Problem | None:
        """Jekyll's ``link``/``post_url`` tag: the file must exist (Jekyll stops the build
        otherwise), and the anchor after the tag in it."""
        kind, name, fragment = tag.group(1), tag.group(2), tag.group(3) or ""
        found = site.jekyll_link(kind, name)
        if found is None:
            where = "the site's folder" if kind == "link" else "_posts"
            return "URL015", f"{written}: no file {name!r} in {where} (Jekyll's {kind} tag)"
        return self._anchor_problem(written, fragment[1:], found, name)

    def _generator_link_problem(
        self, path: Path, site: Site | None, written: str, placeholder: re.Match[str]
    ) -> Problem | None:
        """``{filename}path`` (Pelican): a source path, from the document's folder or, after
        a ``/``, from the content folder; any other placeholder names a page made at build
        time (``{tag}python``)."""
        name = next(group for group in placeholder.groups() if group is not None)
        if name.lower() not in SOURCE_LINKS:
            return _unjudged(written, f"{{{name}}} names a page the site generator makes")
        target, _, fragment = written[placeholder.end() :].partition("#")
        target = unquote(target.partition("?")[0])
        if not target.startswith("/"):
            return self._file_problem(written, [path.parent / target], fragment, site)
        if site is None or site.generator.name != "pelican":
            return _unjudged(
                written,
                f"{placeholder.group()}/... starts at a content folder no pelicanconf.py names",
            )
        return self._file_problem(written, [site.source / target.lstrip("/")], fragment, site)

    def _file_problem(
        self, written: str, candidates: list[Path], fragment: str, site: Site | None
    ) -> Problem | None:
        """Judge a link that may reach one of ``candidates`` (the first that exists wins)."""
        target = written.partition("#")[0]
        unknown: str | None = None
        found: Path | None = None
        for candidate in candidates:
            resolved = Path(os.path.normpath(candidate))
            if path_exists(resolved):
                found = resolved
                break
            if site is not None:
                verdict, reason = site.judge_missing(resolved)
                if verdict == "found":
                    found = site.page_source(resolved) or site.mounted_file(resolved) or resolved
                    break
                if verdict == "unknown" and unknown is None:
                    unknown = reason
        if found is None:
            if unknown is not None:
                return _unjudged(written, unknown)
            suffix = Path(os.path.normpath(candidates[0])).suffix.lower()
            if suffix in DOCUMENT_SUFFIXES or suffix in MEDIA_SUFFIXES:
                what = "image or stylesheet" if suffix in MEDIA_SUFFIXES else "file"
                return "URL015", f"{written}: no {what} {target!r} next to this document"
            return None
        if not fragment or found.suffix.lower() not in _ANCHORED_SUFFIXES or not is_file(found):
            return None
        localized = None if site is None else site.localized
        if (
            localized is not None
            and found.name != PurePosixPath(target).name
            and localized.locale_of(found.name) is not None
        ):
            target = f"{target} (served from {found.name})"  # a translation is served
        return self._anchor_problem(written, fragment, found, target)

    def _absolute_problem(
        self, written: str, target: str, fragment: str, site: Site | None
    ) -> Problem | None:
        """A site-absolute path: judged from the source root for Sphinx; elsewhere found in
        the source or static folders, else not judged (a base URL may add a prefix)."""
        if site is None:
            return _unjudged(written, "a site-absolute path: the site's root URL is not known")
        relative = target.lstrip("/")
        if site.generator.name == "sphinx":
            return self._file_problem(written, [site.root / relative], fragment, site)
        for prefix, base in site.served_folders():
            if prefix and not (relative == prefix or relative.startswith(prefix + "/")):
                continue
            candidate = Path(os.path.normpath(base / relative[len(prefix) :].lstrip("/")))
            if path_exists(candidate) or site.page_source(candidate) is not None:
                problem = self._file_problem(written, [candidate], fragment, site)
                return problem
        return _unjudged(
            written,
            "a site-absolute path found in no source or static folder "
            "(the site's base URL may add a prefix)",
        )

    def _role_problem(self, path: Path, site: Site | None, link: LocalLink) -> Problem | None:
        """``:doc:`` and ``:ref:``: judged inside a Sphinx project only."""
        if site is None or site.generator.name != "sphinx" or ":" in link.target:
            return None
        if link.origin == "rst-doc":
            return self._doc_problem(path, site, link.target)
        label = " ".join(link.target.split()).lower()
        if site.options.get("intersphinx") or label in _SPHINX_LABELS or label in self._labels:
            return None
        titled = site.options.get("autosectionlabel") and not site.options.get(
            "autosectionlabel_prefix"
        )
        if titled and label in self._titles:
            return None
        if label in self._project_labels(site, titled=bool(titled)):  # in a document not linted
            return None
        return "URL016", (
            f"{link.target}: no label {label!r} (`.. _{label}:`, MyST `({label})=`) "
            "in the documents linted"
        )

    def _project_labels(self, site: Site, *, titled: bool) -> frozenset[str]:
        """The labels of every source of a Sphinx project (read once, when a label is not
        among the documents linted: linting a subfolder must judge as linting it all)."""
        known = self._site_labels.get(site.root)
        if known is None:
            # with autosectionlabel, section titles are labels too (the linted ones
            # were looked at by the caller)
            labels: set[str] = set()
            for source in site.source_files(_DOC_SUFFIXES, _MAX_PROJECT_FILES):
                key = self._real(source)
                if key in self._known:  # linted: its labels are in self._labels already
                    continue
                document = self._read(source)
                if document is not None:
                    labels |= document.labels | (document.titles if titled else frozenset())
            known = self._site_labels[site.root] = frozenset(labels)
        return known

    def _doc_problem(self, path: Path, site: Site, target: str) -> Problem | None:
        written = target
        base = Path(os.path.normpath(site.root / _docname_join(path, site.root, target)))
        if is_file(base) or any(
            is_file(base.with_name(base.name + suffix)) for suffix in _DOC_SUFFIXES
        ):
            return None
        verdict, reason = site.judge_missing(base)
        if verdict == "found":
            return None
        if verdict == "unknown":
            return _unjudged(written, reason)
        if site.page_writers:  # a :doc: names a page: any extension may write it
            names = ", ".join(site.page_writers)
            return _unjudged(written, f"a page the extension {names} may write at build time")
        return "URL015", f"{written}: no document {written!r} (:doc: tries .rst, .md, .txt)"

    def _anchor_problem(
        self, written: str, fragment: str, document: Path, where: str, hops: int = 0
    ) -> Problem | None:
        if not fragment:
            return None
        known = self._known_of(document)
        if known is None:
            return None
        wanted = unquote(fragment)
        if (
            wanted.lower() in known.anchors
            or fragment.lower() in known.anchors
            or _line_range(wanted.lower(), known.anchors)
        ):
            return None
        if known.opaque is not None:
            return _unjudged(written, f"{where} holds {known.opaque}, which may define the anchor")
        if known.redirect is not None:
            return self._redirect_problem(written, fragment, document, where, known.redirect, hops)
        return "URL016", f"{written}: no anchor '#{wanted}' in {where}"

    def _redirect_problem(
        self, written: str, fragment: str, document: Path, where: str, redirect: str, hops: int
    ) -> Problem | None:
        """A fragment into a redirect stub (``<meta http-equiv="refresh">``): the reader is
        sent on, the fragment carried by the stub's script (rustdoc, mkdocs-redirects), so
        the anchor is looked for in the page it sends to, when that is a local file."""
        target = unquote(redirect.partition("#")[0].partition("?")[0])
        if not is_relative(redirect) or target.startswith("/"):
            return _unjudged(written, f"{where} redirects to {redirect}")
        found = Path(os.path.normpath(document.parent / target))
        if not is_file(found):
            return _unjudged(written, f"{where} redirects to {redirect}, which is not a file")
        first = where.partition(_REDIRECTS_TO)[0]  # the stub the link names
        if hops >= _MAX_REDIRECTS or self._real(found) == self._real(document):
            limit = f"redirects in a loop or more than {_MAX_REDIRECTS} times"
            return _unjudged(written, f"{first} {limit}")
        return self._anchor_problem(
            written, fragment, found, f"{first}{_REDIRECTS_TO}{target}", hops + 1
        )

    def _known_of(self, path: Path) -> _Known | None:
        key = self._real(path)
        if key not in self._known:
            return self._remember(key, self._read(path))
        return self._known[key]

    def _remember(self, key: Path, document: Extracted | None) -> _Known | None:
        """Keep what ``document`` (at the real path ``key``) defines, once: its anchors, and
        why they may be incomplete (content the linter cannot see, a template, or a
        site whose hooks rewrite pages)."""
        known = None
        if document is not None:
            opaque = document.opaque or document.template
            if opaque is None:
                site = self._sites.site_of(key)
                opaque = None if site is None else site.open_anchors
            known = _Known(document.anchors, opaque, document.redirect)
        self._known[key] = known
        return known


def _docname_join(document: Path, root: Path, target: str) -> str:
    """The path from the source root ``root`` that a ``:doc:`` in ``document`` names, as
    Sphinx's ``docname_join`` makes it: relative to the document's folder, ``/x`` from the
    root, and a ``..`` above the root stays at the root (``../topics/x`` from a page at
    the root is ``topics/x``)."""
    try:
        folder = document.parent.relative_to(root).as_posix()
    except ValueError:  # not below the root as written: relative to its own folder
        return os.path.relpath(document.parent / target, root)
    return posixpath.normpath(posixpath.join("/", folder, target)).lstrip("/")


def _line_range(fragment: str, anchors: AbstractSet[str]) -> bool:
    """True when ``fragment`` selects a range of numbered lines whose ends both are
    anchors (``#7-30`` of rustdoc's source pages, ``#L7-L30``): the page's script
    highlights the lines between."""
    first, dash, last = fragment.partition("-")
    while dash:
        if first[-1:].isdigit() and last[-1:].isdigit() and first in anchors and last in anchors:
            return True
        head, dash, last = last.partition("-")
        first = f"{first}-{head}"
    return False


def _unjudged(written: str, reason: str) -> Problem:
    return "URL017", f"{written}: not judged: {reason}"
