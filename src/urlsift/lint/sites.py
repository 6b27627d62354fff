"""Site generators: which page a link reaches, read from the generator's own configuration.

Strategy: a documentation tree is built by a site generator, and a relative link works or
not *on the site it builds*: mdBook builds ``x.html`` from ``x.md`` and ``README.md`` as
``index.html``, Sphinx builds pages from ``.rst`` and ``.md`` sources and its extensions
write more at build time, Hugo mounts files from outside its content folder. What each
generator does is data, one :class:`Generator` row per generator in :data:`GENERATORS`
(as :data:`~.model.RULES` holds the rules), never a check for particular paths. The
configuration that applies to a document is found upward from its folder, as
``[tool.urlsift]`` is (:class:`SiteFinder`, one look per folder), and read statically:
TOML with :mod:`tomllib`, YAML with PyYAML's safe loader (tags such as
``!!python/name:`` are read as plain values, never resolved), Sphinx's ``conf.py`` with
:mod:`ast` (never executed), Docusaurus's JavaScript configuration with patterns (never
run). A :class:`Site` applies to the documents under its source folder only; a document
with no site keeps the generator-free rules of :mod:`.locallinks`.

What a site decides (:meth:`Site.judge_missing`): a missing link target is *found* when a
source the generator builds it from exists, *unknown* (not judged, reason given) when it
lies outside the source folder, is ignored by ``.gitignore`` (a built or downloaded file),
matches a page written at build time (Sphinx ``autosummary``, an extension not known to
leave pages alone, a Hugo mount from outside the site), and *missing* otherwise.

Content the linter cannot see (shortcodes, includes, MDX components, Markdown extensions
that expand blocks) is listed in :data:`OPAQUE_CONTENT`, read by the extractors: a
document holding any has an open anchor set, so an anchor missing from it is not judged.
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Literal

import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

from pathspec import GitIgnoreSpec

from ..sources.htmltokens import tokenize
from .walk import is_file, is_file_in, path_exists

Verdict = Literal["found", "unknown", "missing"]


@dataclass(frozen=True, slots=True)
class Generator:
    """How one site generator turns source files into pages (one row of the table)."""

    name: str
    """``mdbook``, ``mkdocs``, ``zensical``, ``sphinx``, ``hugo``, ``docusaurus``,
    ``jekyll``, ``pelican``, ``vitepress``, ``myst``."""
    configs: tuple[str, ...]
    """Names of the configuration file, in the generator's order of precedence."""
    sources: tuple[str, ...]
    """Suffixes of the source files it builds pages from."""
    index_sources: tuple[str, ...]
    """Names of the sources it builds as a folder's ``index.html``."""
    page_suffixes: tuple[str, ...] = (".html",)
    """Suffixes of the built pages a link may name (``x.html`` from ``x.md``)."""
    static: tuple[str, ...] = ()
    """Folders (relative to the configuration's folder) served at the site's root."""
    config_folders: tuple[str, ...] = ()
    """Child folders of an ancestor where the configuration may also sit (Docusaurus 1's
    ``website/``): it applies when its source folder holds the document."""


GENERATORS: tuple[Generator, ...] = (
    Generator("mdbook", ("book.toml",), (".md",), ("README.md", "index.md")),
    # ProperDocs, the MkDocs fork by MkDocs' maintainers, reads the same keys from
    # ``properdocs.yml``.
    Generator(
        "mkdocs",
        ("mkdocs.yml", "mkdocs.yaml", "properdocs.yml", "properdocs.yaml"),
        (".md", ".markdown"),
        ("index.md", "README.md"),
    ),
    Generator("sphinx", ("conf.py",), (".rst", ".md", ".txt"), ("index.rst", "index.md")),
    # Zensical (by Material for MkDocs' authors) builds MkDocs projects: the same rules,
    # read from ``zensical.toml``'s ``[project]`` table or a ``zensical.yml``.
    Generator(
        "zensical",
        ("zensical.toml", "zensical.yml", "zensical.yaml"),
        (".md", ".markdown"),
        ("index.md", "README.md"),
    ),
    Generator(
        "hugo",
        (
            "hugo.toml",
            "hugo.yaml",
            "hugo.yml",
            "hugo.json",
            "config/_default/hugo.toml",
            "config/_default/hugo.yaml",
            "config/_default/hugo.yml",
            "config/_default/hugo.json",
            "config/_default/config.toml",
            "config/_default/config.yaml",
            "config/_default/config.yml",
            "config.toml",
            "config.yaml",
            "config.yml",
            "config.json",
        ),
        (".md", ".markdown", ".html", ".htm"),
        ("_index.md", "index.md"),
        static=("static",),
    ),
    Generator(
        "docusaurus",
        (
            "docusaurus.config.js",
            "docusaurus.config.ts",
            "docusaurus.config.mjs",
            "docusaurus.config.cjs",
            "docusaurus.config.mts",
        ),
        (".md", ".mdx"),
        ("index.md", "index.mdx", "README.md", "README.mdx"),
        static=("static",),
        config_folders=("website",),
    ),
    Generator(
        "jekyll",
        ("_config.yml", "_config.yaml", "_config.toml"),
        (".md", ".markdown", ".html", ".htm"),
        ("index.md", "index.markdown", "index.html"),
    ),
    # VitePress: the project's folder holds ``.vitepress/config.*``; pages are built from
    # ``srcDir`` (that folder by default), ``x.md`` -> ``x.html`` (``x`` with cleanUrls),
    # and ``srcDir/public`` is served at the root.
    Generator(
        "vitepress",
        tuple(f".vitepress/config.{ext}" for ext in ("js", "ts", "mjs", "mts", "cjs", "cts")),
        (".md",),
        ("index.md",),
        static=("public",),
    ),
    # mystmd (MyST Markdown's own engine, Jupyter Book 2): ``myst.yml``; a ``#label`` link
    # reaches a label of any page of the project.
    Generator("myst", ("myst.yml",), (".md", ".ipynb"), ("index.md",)),
    # Pelican names pages after their title or ``slug`` metadata; links between sources
    # are written ``{filename}path`` (see :data:`GENERATOR_LINK`).
    Generator("pelican", ("pelicanconf.py",), (".md", ".markdown", ".rst", ".html", ".htm"), ()),
)
"""The generators urlsift knows (a configuration file found first wins, nearest folder first)."""

_BY_NAME = {generator.name: generator for generator in GENERATORS}

SPHINX_QUIET_EXTENSIONS = frozenset(
    {
        "myst_parser",
        "myst_nb",
        "sphinx_copybutton",
        "sphinx_design",
        "sphinx_tabs.tabs",
        "sphinx_inline_tabs",
        "sphinx_click",
        "sphinx_click.ext",
        "sphinxext.opengraph",
        "sphinx_autodoc_typehints",
        "sphinx_issues",
        "sphinxcontrib.mermaid",
        "sphinxcontrib.log_cabinet",
        "sphinxcontrib.programoutput",
        "sphinxcontrib.spelling",
        "sphinxcontrib.bibtex",
        "sphinx_rtd_theme",
        "furo",
        "pallets_sphinx_themes",
        "notfound.extension",
        "sphinx_togglebutton",
        "sphinx_last_updated_by_git",
        "sphinx_sitemap",
        "sphinx_reredirects",
        "sphinxext.rediraffe",
        "numpydoc",
    }
)
"""Sphinx extensions (besides ``sphinx.ext.*``) known to write no source page; any other
extension (a project's own above all) may write the page a ``:doc:`` names at build time."""

SPHINX_PAGE_WRITERS = frozenset({"sphinx.ext.autosummary", "sphinx.ext.apidoc"})
"""Built-in Sphinx extensions that write pages (``autosummary``'s ``:toctree:`` folders,
``apidoc``'s output): a missing page in a folder they write is not judged."""

OPAQUE_CONTENT: tuple[tuple[str, str], ...] = (
    (r"\{\{[<%]", "a Hugo shortcode"),
    (r"\{%-?\s*include", "a Liquid or Jinja include"),
    (r"\{%-?\s*(?:include-markdown|include_markdown)\b", "an include-markdown block"),
    (r"^-{1,2}8<-{1,2}[ \t]", "a pymdownx.snippets include"),
    (
        r"^:::[ \t]+[\w.-]+[ \t]*$",
        "a block a Markdown extension expands (mkdocstrings, mkdocs-click)",
    ),
    (r"<!--[ \t]*@include:", "a VitePress include"),
    (r"^import[ \t][^\n]*\bfrom[ \t]+['\"]", "an MDX import"),
    (r"^<[A-Z][\w.]*[\s/>]", "an MDX component"),
    (
        r"^[ \t]*\.\.[ \t]+(?:include|literalinclude|auto\w+)::",
        "a reST include or autodoc directive",
    ),
)
"""Syntax whose output the linter cannot see (pattern, what it is): a document holding any
may define anchors beyond those it can read. Patterns are matched per line (``re.M``)."""

OPAQUE_PATTERN = re.compile("|".join(f"(?:{p})" for p, _ in OPAQUE_CONTENT), re.MULTILINE)
"""Any of :data:`OPAQUE_CONTENT` (the reason is looked up only when one matches)."""

_TEMPLATE_MARKS = r"\{\{|\{%|%\}|\}\}|%[A-Z][A-Z0-9_]{2,63}%"
# A template engine's expression (Go, Jinja, Liquid, Handlebars: ``{{ .Get 0 }}``,
# ``{% url %}``; either end, as an attribute's quotes may cut it) or a ``%NAME%`` variable
# a build substitutes.

TEMPLATE_PLACEHOLDER = re.compile(_TEMPLATE_MARKS)
"""A template placeholder in a link target (Liquid, Jinja, Hugo, a ``%NAME%`` variable):
the published target is made at build time, so the written one is not judged."""

URL_PLACEHOLDER = re.compile(rf"\{{[A-Za-z_][\w.-]{{0,63}}\}}|{_TEMPLATE_MARKS}")
"""A placeholder in a URL: :data:`TEMPLATE_PLACEHOLDER`'s, or a URI template's variable
(``{index}`` in ``https://{index}/simple/{name}``): the URL is a pattern, not a link.
(In a local link target a single-brace name is a generator's own, such as Pelican's
``{filename}``: see :data:`GENERATOR_LINK`.)"""

GENERATOR_LINK = re.compile(r"\A(?:\{(\w+)\}|%7B(\w+)%7D|\|(\w+)\|)", re.IGNORECASE)
"""A link that starts with a site generator's placeholder: Pelican's ``{filename}``,
``{static}``, ``{attach}`` (and the old ``|filename|``), which name a source file, and
``{tag}``, ``{category}``, ``{author}``, ``{index}`` ..., which name pages it makes. A
Markdown renderer may have percent-encoded the braces (``%7Bfilename%7D``)."""

_MAX_LOGICAL_PAGES = 100_000
"""Most content pages indexed by logical path for Hugo's ``ref`` (a bigger site is cut)."""

HUGO_REF = re.compile(r"\{\{([<%])-?[ \t]*(?:rel)?ref[ \t]+\"([^\"\n]{0,1024})\"[ \t]*-?[>%]\}\}")
"""Hugo's ``ref`` and ``relref`` shortcodes with one quoted path (``{{< relref "x.md#y" >}}``):
Hugo resolves the path to a content page when it builds (a missing one fails the build), so
the linter resolves it too: from the page's folder, from the content folder, then by the
page's logical path anywhere in the site (an unambiguous ``"page-bundles"``)."""

JEKYLL_LINK = re.compile(
    r"(?:\{\{-?[ \t]*site\.baseurl[ \t]*-?\}\})?"
    r"\{%-?[ \t]*(link|post_url)[ \t]+([^\s%{}]{1,1024})[ \t]*-?%\}(#\S{0,1024})?"
)
"""Jekyll's ``{% link path %}`` and ``{% post_url name %}`` tags (after an optional
``{{ site.baseurl }}``, before an optional ``#fragment``): Jekyll resolves them when it builds
and stops on a missing one, so the linter resolves them too. ``link`` names a file by its
path from the site's source folder, extension included; ``post_url`` a post of ``_posts``
by its name without extension (after its subfolder, if any)."""

SOURCE_LINKS = frozenset({"filename", "static", "attach"})
"""Placeholders of :data:`GENERATOR_LINK` followed by a source path: relative to the
document, or to the site's content folder when it starts with ``/``."""


INCLUDE_DIRECTIVES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (r"\{\{#(?:include|rustdoc_include)[ \t]+([^\s}:]+)", "mdBook", ()),
    (r"\{\{[<%][ \t]*(?:readfile|include)[ \t]+(?:file=)?\"([^\"]+)\"", "a Hugo shortcode", ()),
    (r"\{%-?[ \t]*include[ \t]+[\"']?([\w./-]+\.\w+)", "a Liquid include", ("_includes",)),
    (r"\{%-?[ \t]*include_relative[ \t]+([\w./-]+)", "a Liquid include", ()),
    (r"\{%-?[ \t]*include[-_]markdown[ \t]+[\"']([^\"']+)[\"']", "include-markdown", ()),
    (r"^-{1,2}8<-{1,2}[ \t]+[\"']?([^\"'\s]+)", "pymdownx.snippets", ()),
    (r"^[ \t]*\.\.[ \t]+include::[ \t]+(\S+)", "a reST include", ()),
    (r"\{\{~?>[ \t]*([\w./-]+)", "a Handlebars partial", ("includes", "partials")),
    # VitePress' <!--@include: ./parts/x.md--> (an HTML comment: read in HTML blocks too),
    # "@/" naming the source folder; a line range {3,} or #region may follow the path
    (r"<!--[ \t]*@include:[ \t]*([^\s{#>]+)", "a VitePress include", ()),
)
"""Directives that include another source file into a document (pattern with the path
as written in group 1, what it is, folders besides the document's own and the site's
where the named file may sit). The included file is a fragment: it is rendered inside
the documents that include it, so its relative links and ``#anchors`` resolve from there
(:class:`~.locallinks.LocalLinkChecker`). Matched per line (``re.M``) in what a reader of
the source sees as markup (the extractors leave code out)."""

COMMENT_INCLUDE = f"{len(INCLUDE_DIRECTIVES) - 1}:"
"""How :func:`include_targets` names the include written in an HTML comment (VitePress')."""

INCLUDE_PATTERN = re.compile("|".join(p for p, _, _ in INCLUDE_DIRECTIVES), re.MULTILINE)
"""Any of :data:`INCLUDE_DIRECTIVES`; group ``i + 1`` holds the path of row ``i``."""

_INCLUDE_MARKS = ("{{", "{%", "8<", "include::", "@include:")
"""Every directive of :data:`INCLUDE_DIRECTIVES` holds one of these."""

_INCLUDE_SUFFIXES = ("", ".md", ".hbs", ".html")
"""Suffixes tried after an include's path (a Handlebars partial is named without one)."""


def include_targets(text: str) -> tuple[str, ...]:
    """The include directives of ``text`` as ``"row:path"`` strings, in order, each once
    (``row`` indexes :data:`INCLUDE_DIRECTIVES`)."""
    if not any(mark in text for mark in _INCLUDE_MARKS):
        return ()  # (a few substring tests: most documents include nothing)
    found: dict[str, None] = {}
    for m in INCLUDE_PATTERN.finditer(text):
        row = m.lastindex or 1
        found[f"{row - 1}:{m.group(row)}"] = None
    return tuple(found)


def include_candidates(written: str, document: Path, site: Site | None) -> Iterable[Path]:
    """Where the file an include of :func:`include_targets` names may be (absolute,
    unnormalised), most likely first: beside the document, then from the site's source
    and own folders (an absolute path: from those only), then in the directive's folders."""
    row, _, path = written.partition(":")
    folders = INCLUDE_DIRECTIVES[int(row)][2]
    if path.startswith("@/"):  # VitePress: from the source folder
        path = path[1:]
    relative = path.lstrip("/")
    bases: list[Path] = [] if path.startswith("/") else [document.parent]
    if site is not None:
        bases += [root for root in site.content_roots if root in document.parents]
        bases += [site.source, site.root]
    bases += [base / folder for base in (document.parent, *bases[1:]) for folder in folders]
    for base in bases:
        for suffix in _INCLUDE_SUFFIXES if folders else ("",):
            yield base / (relative + suffix)


TEMPLATE_SYNTAX = re.compile(r"\{%|\{\{(?![<%])|<%[=#-]?\s")
"""Template syntax in an HTML file (Jinja, Django, Liquid, Go templates, Handlebars,
ERB); Hugo shortcodes (``{{<``, ``{{%``) are content, not templates."""

_FRONT_MATTER = re.compile(r"\A(?:---|\+\+\+)[ \t]*\r?\n")
_LAYOUT_FOLDERS = frozenset({"_layouts", "_includes"})


MARKDOWN_TEMPLATE = re.compile(r"\{\{~?/[\w.-]+~?\}\}|\{\{~?>[ \t]*[\w./-]")
"""Handlebars or Mustache syntax in Markdown: a closed block (``{{#each}}...{{/each}}``)
or a partial (``{{> name}}``). A Markdown file holding either is a template rendered into
pages elsewhere (mdman's man pages, a static site's Handlebars layouts), not a page: no
site generator renders it in place (mdBook's ``{{#include}}`` has no closing tag, Hugo's
shortcodes are ``{{< /x >}}``)."""


def markdown_template_reason(prose: str) -> str | None:
    """Why the Markdown document whose markup (code left out) is ``prose`` is a template,
    or None."""
    if MARKDOWN_TEMPLATE.search(prose) is None:
        return None
    return "a Handlebars template: its links resolve from the pages it is rendered into"


def template_reason(text: str, path: str) -> str | None:
    """Why the HTML file ``text`` (at ``path``) is a template, or None.

    A template (a theme's ``layout.html``, a Jinja block, a Go partial) is rendered into
    other pages: its relative links and fragments resolve from where those pages are
    published, not from the template's folder. A file with front matter is a page the
    generator renders in place (Jekyll, Hugo), unless it sits in Jekyll's ``_layouts`` or
    ``_includes``.
    """
    if TEMPLATE_SYNTAX.search(text) is None:
        return None
    if _FRONT_MATTER.match(text) and _LAYOUT_FOLDERS.isdisjoint(PurePosixPath(path).parts):
        return None
    if not _syntax_outside_code(text):
        return None
    return "a template: its links resolve from the pages it is rendered into"


_SHOWN_CODE = frozenset({"pre", "code", "kbd", "samp", "listing", "xmp"})


def _syntax_outside_code(text: str) -> bool:
    """True when template syntax of the HTML ``text`` lies outside the code it shows: a
    built page showing source that holds ``{{`` or ``{%`` (rustdoc's source view of a Rust
    macro, Sphinx's page of a Jinja example) is no template."""
    code: list[tuple[int, int]] = []  # text spans inside <pre>, <code> ...
    depth = 0
    for token in tokenize(text):
        if token.kind == "start" and token.name in _SHOWN_CODE and not token.self_closing:
            depth += 1
        elif token.kind == "end" and token.name in _SHOWN_CODE and depth:
            depth -= 1
        elif token.kind == "text" and depth:
            code.append((token.start, token.end))
    spans = iter(code)
    span = next(spans, None)
    for m in TEMPLATE_SYNTAX.finditer(text):
        while span is not None and span[1] <= m.start():
            span = next(spans, None)
        if span is None or m.start() < span[0]:
            return True
    return False


def opaque_reason(text: str) -> str | None:
    """Why ``text`` may define anchors the linter cannot see, or None."""
    m = OPAQUE_PATTERN.search(text)
    if m is None:
        return None
    for pattern, reason in OPAQUE_CONTENT:
        if re.match(pattern, m.group(), re.MULTILINE):
            return reason
    return OPAQUE_CONTENT[0][1]


@dataclass(frozen=True, slots=True)
class Localized:
    """mkdocs-static-i18n's settings: where a page of one language finds what it links.

    With ``docs_structure: suffix`` a translation sits beside its original (``index.fr.md``,
    ``image.fr.png``) and a link names the file without the language (``image.png``): the
    page's own language's file is served, else the default language's, else the file
    itself. With ``folder`` each language has a folder (``en/``, ``fr/``) and a link is
    tried in the page's language folder, the default language's (``fallback_to_default``)
    and the source folder's root (files not translated).
    """

    structure: Literal["suffix", "folder"]
    default: str
    """The default language's locale (``en``)."""
    languages: frozenset[str]
    """Every configured locale, the default's included."""
    fallback: bool = True
    """``fallback_to_default``: a page missing in one language is the default's."""

    def locale_of(self, name: str) -> str | None:
        """The locale a suffix-structured file name carries (``index.fr.md`` -> ``fr``)."""
        return _locale_suffix(name, self.languages) if self.structure == "suffix" else None

    def targets(self, source: Path, document: Path, target: Path) -> list[Path]:
        """The files served for ``target`` (absolute, normalised) when ``document``
        (absolute, under ``source``) links it, in the plugin's order (the first that
        exists is the one served; ``target`` itself among them)."""
        if self.structure == "suffix":
            language = self.locale_of(document.name)
            name = target.name
            stem, dot, extension = name.rpartition(".")
            if not dot or not stem:
                stem, extension = name, ""
            return [
                target.with_name(
                    f"{stem}.{locale}.{extension}" if extension else f"{stem}.{locale}"
                )
                for locale in dict.fromkeys(
                    (language, self.default) if language else (self.default,)
                )
            ] + [target]
        if source != target and source not in target.parents:
            return [target]
        parts = target.relative_to(source).parts
        inside = document.relative_to(source).parts if source in document.parents else ()
        language = inside[0] if len(inside) > 1 and inside[0] in self.languages else None
        rest = parts[1:] if parts and parts[0] in (language, self.default) else parts
        folders = [language] if language else []
        if self.fallback:
            folders.append(self.default)
        found = [target, *(source.joinpath(folder, *rest) for folder in folders)]
        found.append(source.joinpath(*rest))
        return list(dict.fromkeys(found))


def _locale_suffix(name: str, languages: frozenset[str]) -> str | None:
    """The locale a suffix-structured file name carries (``index.fr.md`` -> ``fr``), or None."""
    parts = name.split(".")
    if len(parts) >= 3 and parts[-2] in languages:
        return parts[-2]
    if len(parts) == 2 and parts[-1] in languages:  # a file without extension: "NOTICE.fr"
        return parts[-1]
    return None


def _localized(settings: dict[str, Any]) -> Localized | None:
    """mkdocs-static-i18n's settings (1.x ``languages`` as a list of ``locale`` mappings,
    0.x as a mapping of locales and ``default_language``), or None without languages."""
    configured = settings.get("languages")
    locales: list[str] = []
    default = settings.get("default_language")
    if isinstance(configured, list):
        for entry in configured:
            locale = entry.get("locale") if isinstance(entry, dict) else None
            if isinstance(locale, str) and locale:
                locales.append(locale)
                if entry.get("default") is True and not isinstance(default, str):
                    default = locale
    elif isinstance(configured, dict):
        locales.extend(name for name in configured if isinstance(name, str) and name)
    if not isinstance(default, str) or not default:
        if not locales:
            return None
        default = locales[0]
    structure = settings.get("docs_structure", "suffix")
    return Localized(
        "folder" if structure == "folder" else "suffix",
        default,
        frozenset((*locales, default)),
        settings.get("fallback_to_default", True) is not False,
    )


@dataclass(frozen=True, slots=True)
class Site:
    """A generator's configuration as found, and what it says about link resolution."""

    generator: Generator
    config: Path
    """The configuration file (absolute)."""
    root: Path
    """The site's folder (the configuration's, or the project's for Hugo's ``config/``)."""
    source: Path
    """The folder pages are built from (mdBook ``src``, MkDocs ``docs_dir``, Hugo
    ``contentDir``, Docusaurus docs ``path``, Sphinx's and Jekyll's own folder)."""
    page_writers: tuple[str, ...] = ()
    """Extensions that may write pages at build time (Sphinx), by name."""
    generated: tuple[str, ...] = ()
    """Folders (relative to :attr:`source`) whose pages are written at build time."""
    mounts: tuple[tuple[PurePosixPath, Path], ...] = ()
    """Hugo module mounts: the path in the site's virtual tree -> its source."""
    open_anchors: str | None = None
    """Why every page's anchors are open (a MkDocs hook that rewrites pages), or None."""
    directory_urls: bool = False
    """A page ``x.md`` is served as ``x/`` (MkDocs ``use_directory_urls``, Hugo's pretty
    URLs, Jekyll's ``pretty`` permalinks): a browser resolves its relative links from there."""
    theme_files: str | None = None
    """Why files the checkout lacks may be served beside the pages (a theme installed
    elsewhere adds its own), or None."""
    options: Mapping[str, object] = field(default_factory=dict)
    """What else was read (for messages and tests)."""
    route: str = ""
    """The URL path the source folder is served under (Docusaurus' ``routeBasePath``,
    ``docs`` by default), without slashes."""
    extra_pages: frozenset[str] = frozenset()
    """Pages the configuration itself adds, as paths from the source folder without a
    suffix (Sphinx's ``html_additional_pages``: ``contents`` is ``contents.html``;
    mkdocs-redirects' ``redirect_maps``: ``old.md`` is served as a redirect)."""
    page_names: str | None = None
    """Why a built page (``x.html``) need not be named after a source (Pelican names
    pages after titles and metadata), or None."""
    content_roots: tuple[Path, ...] = ()
    """Hugo's per-language content folders (``languages.<lang>.contentDir``, absolute):
    a site-absolute path written in a page of one is read from that folder."""
    localized: Localized | None = None
    """mkdocs-static-i18n's settings: a link may reach another language's file."""
    static_base: Path | None = None
    """The folder the generator's static folders are in, when not :attr:`root`
    (VitePress' ``public`` is in ``srcDir``)."""
    _pages: dict[Path, Path | None] = field(default_factory=dict, compare=False, repr=False)
    """:meth:`page_source` answers so far."""
    _logical: dict[Path, dict[str, str]] = field(default_factory=dict, compare=False, repr=False)
    """:meth:`_logical_pages` by content folder."""
    _bases: dict[Path, dict[str, list[str]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """:meth:`_logical_bases` by content folder."""
    _posts: dict[Path, dict[str, Path]] = field(default_factory=dict, compare=False, repr=False)
    """Jekyll's posts by name (without suffix), by ``_posts`` folder, read once."""

    def holds(self, path: Path) -> bool:
        """True when ``path`` (absolute) is under the source folder."""
        return path == self.source or self.source in path.parents

    def judge_missing(self, target: Path) -> tuple[Verdict, str]:
        """Decide about a link target (absolute, normalised) that is not a file.

        Returns:
            ``found`` (a source the generator builds it from exists), ``unknown`` with
            the reason it cannot be judged, or ``missing``.
        """
        if not self.holds(target):
            where = _relative(target, self.source)
            return "unknown", f"{where} is outside the {self.generator.name} source folder"
        if self.page_source(target) is not None:
            return "found", ""
        relative = target.relative_to(self.source).as_posix()
        suffix = target.suffix.lower()
        stem = relative[: len(relative) - len(suffix)]
        built = (*self.generator.page_suffixes, *self.generator.sources)
        if suffix in ("", *built) and stem.rstrip("/") in self.extra_pages:
            return "found", ""
        if self.page_names is not None and suffix in self.generator.page_suffixes:
            return "unknown", self.page_names
        mounted = self._mounted(target)
        if isinstance(mounted, Path):
            return "found", ""
        if mounted is not None:
            return mounted
        for folder in self.generated:
            if relative.startswith(folder.rstrip("/") + "/"):
                return "unknown", f"{folder} is written at build time"
        if self.page_writers and suffix in built:
            names = ", ".join(self.page_writers)
            kind = "extension" if self.generator.name == "sphinx" else "plugin"
            return "unknown", f"a page the {kind} {names} may write at build time"
        if _gitignored(target, self.root):
            return "unknown", "the target is ignored by .gitignore (built or fetched)"
        pages = (*self.generator.page_suffixes, *self.generator.sources)
        if self.theme_files is not None and target.suffix.lower() not in ("", *pages):
            return "unknown", self.theme_files
        return "missing", ""

    def source_files(self, suffixes: tuple[str, ...], limit: int) -> list[Path]:
        """The source files under the source folder (hidden and ``_build`` folders left out),
        sorted, at most ``limit``."""
        return sorted(_sources(self.source, suffixes, limit))

    def hugo_ref(self, document: Path, ref: str) -> Path | None:
        """The content file Hugo's ``ref``/``relref`` shortcode names from ``document``
        (``ref`` without its fragment), or None when no page has that path.

        As Hugo looks it up: from the page's folder (a path without a leading ``/``), from
        the content folder, then (a path without ``/`` or ``.`` first) by the end of a
        page's logical path anywhere in the site; paths compare without case, as Hugo's
        page paths do.
        """
        target = ref.strip()
        roots = [root for root in (self.source, *self.content_roots) if root.is_dir()]
        own = [root for root in roots if root in document.parents]
        roots = own + [root for root in roots if root not in own]
        relative = target.strip("/")
        bases = roots if target.startswith("/") else [document.parent, *roots]
        for base in bases:  # as written (most refs)
            found = self._content_page(base / relative if relative else base)
            if found is not None:
                return found
        stem, suffix = os.path.splitext(relative)
        wanted = (stem if suffix.lower() in self.generator.sources else relative).lower()
        wanted = os.path.normpath(wanted).replace(os.sep, "/") if wanted else ""
        for root in roots:
            pages = self._logical_pages(root)
            here = ""
            if root in document.parents:
                here = document.parent.relative_to(root).as_posix().lower()
            exact = [wanted] if target.startswith("/") or not here else [f"{here}/{wanted}", wanted]
            for name in exact:
                name = os.path.normpath(name).replace(os.sep, "/").strip("/.")
                if name in pages:
                    return root / pages[name]
            if target.startswith(("/", ".")) or not wanted:
                continue
            tail = "/" + wanted
            for name in self._logical_bases(root).get(wanted.rpartition("/")[2], ()):
                if name.endswith(tail):
                    return root / pages[name]
        return None

    def jekyll_link(self, tag: str, name: str) -> Path | None:
        """The file a Jekyll ``link`` or ``post_url`` tag names, or None when there is none."""
        relative = name.strip("/")
        if tag == "link":
            found = self.source / relative
            return found if relative and is_file(found) else None
        posts = self.source / "_posts"
        folder, _, base = relative.rpartition("/")
        suffixes = (*self.generator.sources, ".textile")
        for suffix in suffixes:
            candidate = posts / folder / (base + suffix)  # ("" adds no step)
            if is_file(candidate):
                return candidate
        if folder:
            return None
        # Jekyll 4 still finds a post by its name in a subfolder (with a deprecation warning)
        named = self._posts.get(posts)
        if named is None:
            named = self._posts[posts] = {}
            for path in _sources(posts, suffixes, _MAX_LOGICAL_PAGES):
                named.setdefault(os.path.splitext(path.name)[0], path)
        return named.get(base)

    def _content_page(self, path: Path) -> Path | None:
        """The content file of a page path (:meth:`page_source`: itself, with a source
        suffix, or its folder's index, a bundle); a folder without one (a section whose
        page Hugo makes)."""
        found = self.page_source(path)
        if found is None and path.is_dir():
            return path  # a section without an _index.md: Hugo makes its list page
        return found

    def _logical_pages(self, root: Path) -> dict[str, str]:
        """Every content page under ``root``: its logical path in lower case (no suffix; a
        bundle's index by its folder) -> its file's path from ``root``; read once."""
        known = self._logical.get(root)
        if known is None:
            known = self._logical[root] = {}
            for path in _sources(root, self.generator.sources, _MAX_LOGICAL_PAGES):
                rel = path.relative_to(root)
                logical = rel.parent if rel.name in self.generator.index_sources else rel
                name = logical.with_suffix("").as_posix() if logical is rel else logical.as_posix()
                known.setdefault(name.lower().strip("/."), rel.as_posix())
        return known

    def _logical_bases(self, root: Path) -> dict[str, list[str]]:
        """:meth:`_logical_pages`' names by their last step: a name ends with ``/x`` only
        if its last step is ``x``, so a lookup by the end reads the few with that step."""
        known = self._bases.get(root)
        if known is None:
            known = self._bases[root] = {}
            for name in self._logical_pages(root):
                known.setdefault(name.rpartition("/")[2], []).append(name)
        return known

    def served_folders(self) -> list[tuple[str, Path]]:
        """(URL path prefix, folder) of the folders whose files the site serves: the source
        folder under :attr:`route`, then the static folders at the root."""
        base = self.static_base or self.root
        static = [("", base / folder) for folder in self.generator.static]
        return [(self.route, self.source), *static]

    def url_folder(self, document: Path) -> Path | None:
        """The folder a browser resolves ``document``'s relative links from, when the
        published page's URL puts it elsewhere than the source's folder (else None)."""
        if not self.directory_urls or document.suffix.lower() not in self.generator.sources:
            return None
        if document.name in self.generator.index_sources or document.stem == "index":
            return None
        return document.parent / document.stem

    def page_source(self, target: Path) -> Path | None:
        """The source file the page ``target`` is built from, if it exists.

        ``x.html`` (or ``x.md`` itself) from ``x.md``; ``x`` or ``x/`` (a ``:doc:`` name, a
        directory URL) from ``x.md`` or ``x/index.md``; ``index.html`` from the folder's
        index source (``README.md`` for mdBook).
        """
        if target in self._pages:
            return self._pages[target]
        suffix = target.suffix.lower()
        candidates: list[Path] = []
        if suffix in self.generator.page_suffixes or suffix in self.generator.sources:
            stem = target.with_suffix("")
            candidates.extend(stem.with_suffix(s) for s in self.generator.sources)
            if stem.name == "index":
                candidates.extend(stem.parent / name for name in self.generator.index_sources)
        candidates.extend(target.with_name(target.name + s) for s in self.generator.sources)
        candidates.extend(target / name for name in self.generator.index_sources)
        found = self._pages[target] = next((c for c in candidates if is_file(c)), None)
        return found

    def mounted_file(self, target: Path) -> Path | None:
        """The file a mount serves as ``target`` (absolute), when it exists."""
        found = self._mounted(target)
        return found if isinstance(found, Path) else None

    def _mounted(self, target: Path) -> Path | tuple[Verdict, str] | None:
        """What a mount serves as ``target``: the real path when it exists, ``unknown``
        with the reason when its source is outside the site's folder, else None."""
        if not self.mounts:
            return None
        virtual = _virtual(target, self.root, self.mounts)
        if virtual is None:
            return None
        for into, source in self.mounts:
            if virtual == into or into in virtual.parents:
                rest = virtual.relative_to(into)
                real = source / rest if rest.parts else source
                if path_exists(real):
                    return real
                if real != self.root and self.root not in real.parents:
                    where = _relative(source, self.root)
                    return "unknown", f"mounted from {where}, outside the site's folder"
        return None


def _virtual(
    target: Path, root: Path, mounts: tuple[tuple[PurePosixPath, Path], ...]
) -> PurePosixPath | None:
    """The path of a physical ``target`` in the mounted tree (the longest mount wins)."""
    best: tuple[int, PurePosixPath] | None = None
    for into, source in mounts:
        if target == source or source in target.parents:
            rest = target.relative_to(source).as_posix()
            length = len(source.parts)
            if best is None or length > best[0]:
                best = (length, into / rest if rest != "." else into)
    return None if best is None else best[1]


def _relative(path: Path, base: Path) -> str:
    for parts, parent in enumerate([base, *base.parents]):
        if parent == path or parent in path.parents:
            rest = path.relative_to(parent).as_posix()
            return "/".join([".."] * parts + ([rest] if rest != "." else []))
    return path.as_posix()


def _gitignored(target: Path, root: Path) -> bool:
    """True when the ``.gitignore`` files say so: those of the folders from the
    repository's top (or the site's folder outside a repository) down to the target's,
    the deepest one that decides winning, as git does."""
    top = next((p for p in [root, *root.parents][:_MAX_PARENTS] if (p / ".git").exists()), root)
    if target.parent != top and top not in target.parents:
        return False
    folders = [target.parent, *target.parent.parents]
    for folder in folders[: folders.index(top) + 1]:
        spec = _gitignore_spec(folder)
        if spec is None:
            continue
        result = spec.check_file(target.relative_to(folder).as_posix())
        if result.include is not None:
            return bool(result.include)
    return False


@functools.lru_cache(maxsize=1024)
def _gitignore_spec(folder: Path) -> GitIgnoreSpec | None:
    """The patterns of ``folder/.gitignore`` (None: no such file), read once."""
    text = _read_config(folder / ".gitignore")
    return GitIgnoreSpec.from_lines(text.splitlines()) if text.strip() else None


# ---------------------------------------------------------------- reading configurations


_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Lenient(_SafeLoader):  # type: ignore[valid-type,misc]
    """PyYAML's safe loader (libyaml's when built) that reads unknown tags
    (``!!python/name:x``) as plain values."""


def _any_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> object:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_scalar(node)  # type: ignore[arg-type]


_Lenient.add_multi_constructor("", _any_tag)
_Lenient.add_multi_constructor("!", _any_tag)
_Lenient.add_multi_constructor("tag:", _any_tag)


MAX_CONFIG_BYTES = 1 << 20
"""Largest configuration file read (a larger one is read as empty: no site options)."""


def _read_config(path: Path) -> str:
    """The text of a configuration file ("" when unreadable or over the size bound)."""
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_CONFIG_BYTES + 1)
    except OSError:
        return ""
    return "" if len(data) > MAX_CONFIG_BYTES else data.decode("utf-8", errors="replace")


def read_mapping(path: Path) -> dict[str, Any]:
    """The top-level mapping of a TOML, YAML or JSON configuration file ({} if unreadable).

    Never executes anything: YAML is read with a safe loader that leaves unknown tags as
    plain values.
    """
    try:
        text = _read_config(path)
        if path.suffix == ".toml":
            data: object = tomllib.loads(text)
        elif path.suffix == ".json":
            data = json.loads(text)
        else:
            data = yaml.load(text, Loader=_Lenient)  # a safe loader
    except (OSError, ValueError, yaml.YAMLError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _str(value: object, default: str) -> str:
    return value if isinstance(value, str) and value.strip() else default


def _names(values: object) -> list[str]:
    """Names in a list of strings or one-key mappings (``markdown_extensions``, ``plugins``)."""
    out: list[str] = []
    if isinstance(values, dict):
        values = list(values)
    if isinstance(values, list):
        for value in values:
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, dict):
                out.extend(str(key) for key in value)
    return out


def _settings(values: object, name: str) -> dict[str, Any]:
    """The settings of ``name`` in a list of strings or one-key mappings (or a mapping of
    names to settings, as in ``zensical.toml``); {} when it has none."""
    if isinstance(values, dict):
        values = [values]
    for value in values if isinstance(values, list) else []:
        if isinstance(value, dict) and isinstance(value.get(name), dict):
            return value[name]  # type: ignore[no-any-return]
    return {}


MKDOCS_PAGE_PLUGINS = frozenset({"gen-files", "api-autonav", "blog", "tags", "coverage"})
"""MkDocs plugins that write pages at build time (mkdocs-gen-files' scripts, generated API
navigation, Material's blog archive and tag index, mkdocs-coverage's report page): a
missing page is not judged."""


def _listed(value: object) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def _mdbook(config: Path, root: Path) -> Site:
    data = read_mapping(config)
    book = data.get("book")
    src = _str(book.get("src") if isinstance(book, dict) else None, "src")
    return Site(_BY_NAME["mdbook"], config, root, (root / src).resolve())


_SKIPPED = frozenset({"_build", "node_modules", "__pycache__"})

_MKDOCS_PAGE_HOOKS = ("on_page_markdown", "on_page_content", "on_post_page", "on_page_read_source")


def _mkdocs(config: Path, root: Path) -> Site:
    return _mkdocs_site(_BY_NAME["mkdocs"], config, root, read_mapping(config))


def _zensical(config: Path, root: Path) -> Site:
    data = read_mapping(config)
    if config.suffix == ".toml":  # every setting sits in the [project] table
        project = data.get("project")
        data = project if isinstance(project, dict) else {}
    return _mkdocs_site(_BY_NAME["zensical"], config, root, data)


def _mkdocs_site(generator: Generator, config: Path, root: Path, data: dict[str, Any]) -> Site:
    """A MkDocs project (``mkdocs.yml``, or Zensical's configuration of the same keys)."""
    title = {"mkdocs": "MkDocs", "zensical": "Zensical"}[generator.name]
    source = (root / _str(data.get("docs_dir"), "docs")).resolve()
    extensions = _names(data.get("markdown_extensions"))
    open_anchors = None
    hooks = data.get("hooks")
    for hook in hooks if isinstance(hooks, list) else []:
        if isinstance(hook, str):
            reason = _hook_rewrites(root / hook)
            if reason is not None:
                open_anchors = reason
                break
    plugins = _names(data.get("plugins"))
    options = {"markdown_extensions": tuple(extensions), "plugins": tuple(plugins)}
    # mkdocs-redirects: each old page of redirect_maps is served (as a redirect)
    redirects = _settings(data.get("plugins"), "redirects").get("redirect_maps")
    old_pages = frozenset(
        os.path.splitext(name.strip("/"))[0]
        for name in (redirects if isinstance(redirects, dict) else {})
        if isinstance(name, str)
    )
    theme = data.get("theme", "mkdocs")
    name = theme.get("name") if isinstance(theme, dict) else theme
    localized = _localized(_settings(data.get("plugins"), "i18n")) if "i18n" in plugins else None
    mounts = _monorepo_mounts(data.get("nav"), config.parent) if "monorepo" in plugins else ()
    return Site(
        generator,
        config,
        root,
        source,
        tuple(sorted(MKDOCS_PAGE_PLUGINS.intersection(plugins))),
        open_anchors=open_anchors,
        directory_urls=data.get("use_directory_urls", True) is not False,
        theme_files=None
        if not isinstance(name, str)
        else f"the {title} theme {name!r} serves its own files beside the pages",
        options=options,
        extra_pages=old_pages,
        localized=localized,
        mounts=((PurePosixPath("."), source), *mounts) if mounts else (),
    )


MAX_MOUNTED_SITES = 256
"""Most configurations mkdocs-monorepo-plugin's ``!include`` entries are followed to."""

_INCLUDE_ENTRY = re.compile(r"([!*])include\s+(\S.*)")


def _monorepo_mounts(
    nav: object, folder: Path, depth: int = 0
) -> tuple[tuple[PurePosixPath, Path], ...]:
    """mkdocs-monorepo-plugin's mounts: each ``'!include path/mkdocs.yml'`` (or
    ``'*include glob/mkdocs.yml'``) in ``nav`` serves that configuration's ``docs_dir``
    under its ``site_name`` (and its own includes under that), read from ``folder``. A path
    that leaves ``folder`` (absolute, or through ``..``) is not followed: a configuration
    found by discovery may change what is checked, not what files are read."""
    if depth > 3:
        return ()
    entries: list[str] = []
    stack, seen = [nav], 0
    while stack and seen < 10_000:  # a nav is small; a hostile one is cut short
        value = stack.pop()
        seen += 1
        if isinstance(value, str):
            entries.append(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(reversed(value))
    mounts: list[tuple[PurePosixPath, Path]] = []
    for entry in entries:
        m = _INCLUDE_ENTRY.fullmatch(entry.strip())
        if m is None:
            continue
        pattern = m.group(2).strip()
        if os.path.isabs(pattern) or ".." in PurePosixPath(pattern).parts:
            continue  # only configurations inside the including one's folder are read
        if m.group(1) == "*":
            if "**" in pattern:
                continue  # (the plugin's globs name one level: "components/*/mkdocs.yml")
            configs = sorted(folder.glob(pattern))[:MAX_MOUNTED_SITES]
        else:
            configs = [folder / pattern]
        for included in configs:
            if len(mounts) >= MAX_MOUNTED_SITES or not is_file(included):
                continue
            sub = read_mapping(included)
            name = sub.get("site_name")
            if not isinstance(name, str) or not name.strip("/ "):
                continue
            into = PurePosixPath(name.strip("/ "))
            docs = (included.parent / _str(sub.get("docs_dir"), "docs")).resolve()
            mounts.append((into, docs))
            nested = _monorepo_mounts(sub.get("nav"), included.parent, depth + 1)
            mounts.extend((into / below, where) for below, where in nested)
    return tuple(mounts)


def _hook_rewrites(path: Path) -> str | None:
    """Why a MkDocs hook module may add ids to pages (it is read, never run), or None."""
    try:
        tree = ast.parse(_read_config(path) or "\0")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return f"the MkDocs hook {path.name} could not be read (it may rewrite pages)"
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
            node.name in _MKDOCS_PAGE_HOOKS
        ):
            return f"the MkDocs hook {path.name} rewrites pages ({node.name})"
    return None


def _literal(node: ast.AST) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _python_module(config: Path) -> ast.Module:
    """A Python configuration parsed, never run (an empty module when it does not parse)."""
    try:
        return ast.parse(_read_config(config))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ast.Module(body=[], type_ignores=[])


def _assignments(config: Path) -> dict[str, object]:
    """The literal values a Python configuration assigns at its top level (first wins)."""
    values: dict[str, object] = {}
    for node in _python_module(config).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    values.setdefault(target.id, _literal(node.value))
    return values


def _sphinx(config: Path, root: Path) -> Site:
    """Read ``conf.py`` statically: assignments of literals to the names that matter."""
    tree = _python_module(config)
    values: dict[str, object] = {}
    extensions: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = _literal(node.value) if node.value is not None else None
            for target in targets:
                if isinstance(target, ast.Name):
                    values.setdefault(target.id, value)
                    if target.id == "extensions" and isinstance(value, list | tuple):
                        extensions.extend(v for v in value if isinstance(v, str))
        elif (  # extensions.append("x") / extensions.extend([...])
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "extensions"
            and node.args
        ):
            value = _literal(node.args[0])
            if isinstance(value, str):
                extensions.append(value)
            elif isinstance(value, list | tuple):
                extensions.extend(v for v in value if isinstance(v, str))
    writers = tuple(
        sorted(
            {
                name
                for name in extensions
                if not name.startswith("sphinx.ext.") and name not in SPHINX_QUIET_EXTENSIONS
            }
        )
    )
    generated: list[str] = []
    if "sphinx.ext.autosummary" in extensions:
        generated.extend(_autosummary_folders(root))
    options = {
        "extensions": tuple(extensions),
        "prolog": bool(values.get("rst_prolog") or values.get("rst_epilog"))
        or "rst_prolog" in values
        or "rst_epilog" in values,
        "intersphinx": "sphinx.ext.intersphinx" in extensions
        or "intersphinx_mapping" in values
        or "intersphinx" in ast.dump(tree),
        # section titles are labels (:ref:`Title`); with the prefix, `doc:Title`
        "autosectionlabel": "sphinx.ext.autosectionlabel" in extensions,
        "autosectionlabel_prefix": bool(values.get("autosectionlabel_prefix_document")),
    }
    pages = values.get("html_additional_pages")
    names = pages if isinstance(pages, dict) else {}
    extra = frozenset(name.strip("/") for name in names if isinstance(name, str))
    return Site(
        _BY_NAME["sphinx"],
        config,
        root,
        root,
        writers,
        tuple(generated),
        options=options,
        extra_pages=extra,
    )


_AUTOSUMMARY = re.compile(r"^[ \t]*\.\.[ \t]+autosummary::[^\n]*\n((?:[ \t]+:[^\n]*\n)*)", re.M)
_TOCTREE_OPTION = re.compile(r":toctree:[ \t]*(\S*)")


def _autosummary_folders(root: Path) -> list[str]:
    """The ``:toctree:`` folders of the ``autosummary`` directives of a Sphinx project."""
    found = {"generated", "_autosummary"}
    for path in _sources(root, (".rst",), 2000):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "autosummary" not in text:
            continue
        for m in _AUTOSUMMARY.finditer(text):
            option = _TOCTREE_OPTION.search(m.group(1))
            if option is not None and option.group(1):
                folder = (path.parent / option.group(1)).resolve()
                if folder == root or root in folder.parents:
                    found.add(folder.relative_to(root).as_posix())
    return sorted(found)


def _sources(root: Path, suffixes: tuple[str, ...], limit: int) -> Iterable[Path]:
    """Files with one of ``suffixes`` under ``root`` (no hidden, ``_build`` or
    ``node_modules`` folder, symbolic links to folders not followed), at most ``limit``."""
    count = 0
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(
            name for name in folders if not name.startswith(".") and name not in _SKIPPED
        )
        for name in sorted(files):
            if os.path.splitext(name)[1] in suffixes:
                yield Path(folder) / name
                count += 1
                if count >= limit:
                    return


def _hugo_root(config: Path) -> Path:
    parent = config.parent
    if parent.name == "_default" and parent.parent.name == "config":
        return parent.parent.parent
    return parent


def _hugo(config: Path, root: Path) -> Site | None:
    data = read_mapping(config)
    if config.name.startswith("config.") and config.parent == root:
        # a generic name: only a Hugo configuration when the site looks like one
        keys = ("baseURL", "baseurl", "contentDir", "theme", "module")
        if not any(key in data for key in keys) and not (root / "content").is_dir():
            return None
    content = _str(data.get("contentDir"), "content")
    mounts: list[tuple[PurePosixPath, Path]] = []
    module = data.get("module")
    for mount in module.get("mounts", []) if isinstance(module, dict) else []:
        if isinstance(mount, dict):
            source, target = mount.get("source"), mount.get("target")
            if isinstance(source, str) and isinstance(target, str):
                mounts.append((PurePosixPath(target.strip("/")), (root / source).resolve()))
    source = (root / content).resolve()
    if not any(into == PurePosixPath("content") for into, _ in mounts):
        mounts.append((PurePosixPath("content"), source))
    markup = data.get("markup", {})
    options = {"goldmark": markup.get("goldmark", {}) if isinstance(markup, dict) else {}}
    theme = data.get("theme")
    languages = data.get("languages")
    if not isinstance(languages, dict):
        # config/_default/languages.toml (or .yaml, .yml, .json): Hugo merges its folder
        languages = next(
            (
                read_mapping(path)
                for path in sorted((root / "config" / "_default").glob("languages.*"))
                if path.suffix in (".toml", ".yaml", ".yml", ".json")
            ),
            None,
        )
    content_roots = tuple(
        (root / folder).resolve()
        for language in (languages.values() if isinstance(languages, dict) else ())
        if isinstance(language, dict)
        and isinstance(folder := language.get("contentDir"), str)
        and folder.strip()
    )
    return Site(
        _BY_NAME["hugo"],
        config,
        root,
        source,
        content_roots=content_roots,
        mounts=tuple(mounts),
        directory_urls=data.get("uglyURLs", data.get("uglyurls")) is not True,
        theme_files=f"the Hugo theme {_listed(theme)} serves its own files" if theme else None,
        options=options,
    )


_DOCS_OPEN = re.compile(r"\bdocs\s*:\s*\{")
_PATH_KEY = re.compile(r"\bpath\s*:\s*(['\"`])([^'\"`\n]{1,300})\1")
_ROUTE_KEY = re.compile(r"\brouteBasePath\s*:\s*(['\"`])([^'\"`\n]{0,300})\1")


def _docs_path(text: str, key_pattern: re.Pattern[str] | None = None) -> str | None:
    """The ``path`` of the first ``docs: {...}`` object of a Docusaurus configuration
    (read as text: only a key at the object's own depth counts, never run)."""
    i = 0
    while (m := _DOCS_OPEN.search(text, i)) is not None:  # each character read once
        depth = 1
        i = m.end()
        while i < len(text) and depth:
            c = text[i]
            if c in "{[(":
                depth += 1
            elif c in "}])":
                depth -= 1
            elif depth == 1 and c == ("r" if key_pattern is not None else "p"):
                key = (key_pattern or _PATH_KEY).match(text, i)
                if key is not None and not text[i - 1 : i].isalnum():
                    return key.group(2)
            i += 1
    return None


def _docusaurus(config: Path, root: Path) -> Site:
    text = _read_config(config)
    docs = _docs_path(text) or "docs"
    route = _docs_path(text, _ROUTE_KEY)
    return Site(
        _BY_NAME["docusaurus"],
        config,
        root,
        (root / docs).resolve(),
        route=(route if route is not None else "docs").strip("/"),
    )


_SRC_DIR_KEY = re.compile(r"\bsrcDir\s*:\s*(['\"`])([^'\"`\n]{1,300})\1")
_REWRITES_KEY = re.compile(r"\brewrites\s*:")


def _vitepress(config: Path, root: Path) -> Site:
    """Read ``.vitepress/config.*`` as text (never run): ``srcDir``, and whether
    ``rewrites`` may serve pages under other paths."""
    text = _read_config(config)
    found = _SRC_DIR_KEY.search(text)
    source = (root / (found.group(2) if found else ".")).resolve()
    rewrites = _REWRITES_KEY.search(text) is not None
    return Site(
        _BY_NAME["vitepress"],
        config,
        root,
        source,
        static_base=source,
        page_names="VitePress' rewrites may serve a page under another path" if rewrites else None,
        options={"srcDir": found.group(2) if found else None, "rewrites": rewrites},
    )


def _myst(config: Path, root: Path) -> Site:
    return Site(_BY_NAME["myst"], config, root, root)


def myst_references(site: Site | None, document: Path) -> bool:
    """True when a ``#label`` link of ``document`` may name a label of another page: a
    Markdown page of a mystmd project, or of a Sphinx project with MyST-Parser (its
    ``[](#x)`` is a reference, resolved in the page, then across the project)."""
    if site is None or document.suffix.lower() not in (".md", ".ipynb"):
        return False
    if site.generator.name == "myst":
        return True
    extensions = site.options.get("extensions") if site.generator.name == "sphinx" else None
    return isinstance(extensions, tuple) and not {"myst_parser", "myst_nb"}.isdisjoint(extensions)


def _jekyll(config: Path, root: Path) -> Site:
    data = read_mapping(config)
    source = (root / _str(data.get("source"), ".")).resolve()
    permalink = data.get("permalink")
    options = {"permalink": permalink, "baseurl": data.get("baseurl")}
    pretty = isinstance(permalink, str) and (permalink == "pretty" or permalink.endswith("/"))
    theme = data.get("theme") or data.get("remote_theme")
    return Site(
        _BY_NAME["jekyll"],
        config,
        root,
        source,
        directory_urls=pretty,
        theme_files=f"the Jekyll theme {_listed(theme)} serves its own files" if theme else None,
        options=options,
    )


def _pelican(config: Path, root: Path) -> Site:
    """Read ``pelicanconf.py`` statically (never run): ``PATH``, the content folder."""
    values = _assignments(config)
    path = values.get("PATH")
    content = path if isinstance(path, str) and path else "content"
    source = (root / content).resolve()
    if not source.is_dir():  # `pelican .` or a PATH this reading cannot follow
        source = root
    return Site(
        _BY_NAME["pelican"],
        config,
        root,
        source,
        page_names="Pelican names a page after its title or slug metadata, not its file",
        options={"path": content},
    )


_READERS = {
    "mdbook": _mdbook,
    "mkdocs": _mkdocs,
    "zensical": _zensical,
    "sphinx": _sphinx,
    "hugo": _hugo,
    "docusaurus": _docusaurus,
    "jekyll": _jekyll,
    "pelican": _pelican,
    "vitepress": _vitepress,
    "myst": _myst,
}

_MAX_PARENTS = 32


_DOCUSAURUS_PLUGIN = "docusaurus-plugin-content-"


class SiteFinder:
    """Finds the site a document belongs to (each folder looked at once per run).

    Folders are known by their path strings, and a folder's configuration files are
    looked for by name (:func:`~.walk.is_file_in`: in the folder's descriptor while a
    walk holds it, the folder looked up once for all the names); a ``Path`` is made only
    for a file found.
    """

    def __init__(self) -> None:
        """Start with nothing known."""
        self._here: dict[str, tuple[Site, ...]] = {}
        self._of_folder: dict[str, Site | None] = {}

    def site_of(self, path: Path) -> Site | None:
        """The nearest site whose source folder holds ``path`` (absolute), or None."""
        folder = path.parent
        key = str(folder)
        if key in self._of_folder:
            found = self._of_folder[key]
            # every file of a folder has the folder's site, but a source folder itself
            # (path == site.source) is held by the site above it only
            return found if found is None or found.holds(path) else None
        found = None
        parent = key
        for _ in range(_MAX_PARENTS):
            found = next((site for site in self._sites_at(parent) if site.holds(folder)), None)
            if found is not None:
                break
            above = os.path.dirname(parent)
            if above == parent:
                break
            parent = above
        self._of_folder[key] = found
        return found if found is None or found.holds(path) else None

    def original_folder(self, document: Path) -> Path | None:
        """The folder a Docusaurus translation's folder stands for, or None.

        A translated file sits in ``i18n/<locale>/docusaurus-plugin-content-docs/current/``
        (the docs folder), ``.../docusaurus-plugin-content-docs/version-X/``
        (``versioned_docs/version-X/``), ``.../docusaurus-plugin-content-blog/`` (``blog/``) or
        ``.../docusaurus-plugin-content-pages/`` (``src/pages/``) of the site's folder, and a
        page not translated is the original's: Docusaurus resolves a relative file link in
        the translation's folder, then in the original's.
        """
        parts = document.parts
        for index in range(len(parts) - 3, 0, -1):
            plugin = parts[index + 2]
            if parts[index] != "i18n" or not plugin.startswith(_DOCUSAURUS_PLUGIN):
                continue
            root = Path(*parts[:index])
            site = next(
                (s for s in self._sites_at(str(root)) if s.generator.name == "docusaurus"), None
            )
            if site is None:
                return None
            kind, rest = plugin[len(_DOCUSAURUS_PLUGIN) :], parts[index + 3 : -1]
            if kind == "docs" and rest:
                version, rest = rest[0], rest[1:]
                base = site.source if version == "current" else root / "versioned_docs" / version
            elif kind == "blog":
                base = root / "blog"
            elif kind == "pages":
                base = root / "src" / "pages"
            else:
                return None
            return base.joinpath(*rest)
        return None

    def _sites_at(self, folder: str) -> tuple[Site, ...]:
        known = self._here.get(folder)
        if known is not None:
            return known
        found: list[Site] = []
        for generator in GENERATORS:
            places = [folder, *(os.path.join(folder, child) for child in generator.config_folders)]
            for place in places:
                site = _read_site(generator, place)
                if site is not None:
                    found.append(site)
                    break
        self._here[folder] = sites = tuple(found)
        return sites


def _read_site(generator: Generator, folder: str) -> Site | None:
    for name in generator.configs:
        if not is_file_in(folder, name):
            continue
        config = Path(folder, name)
        root = _hugo_root(config) if generator.name == "hugo" else Path(folder)
        return _READERS[generator.name](config.resolve(), root.resolve())
    return None
