"""Issue 22: ``urlsift lint`` resolves local links the way the site generator does.

* one fixture site per generator (``corpora/lint-sites``): what works on the built site is
  never reported, the planted broken links are (URL015, URL016), and what the linter
  cannot judge is listed only on request (URL017, ``--extend-select EXPLAIN``) with its
  reason;
* configurations are read, never executed (a ``conf.py`` that would fail, YAML tags that
  name Python objects);
* a document under no generator keeps the generator-free rules;
* ``:ref:`` findings do not depend on which folder is linted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from urlsift.cli import main
from urlsift.lint.sites import (
    GENERATORS,
    Localized,
    SiteFinder,
    _localized,
    opaque_reason,
    read_mapping,
)
from urlsift.lint.slugs import heading_anchors

ROOT = Path(__file__).resolve().parent.parent
SITES = ROOT / "corpora" / "lint-sites"


def _lint(folder: Path, *args: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(folder.parent)
    result = CliRunner().invoke(main, ["lint", "--no-cache", *args, folder.name])
    assert result.exit_code in (0, 1), result.output
    assert "internal error" not in result.output
    return [
        " ".join(line.split(" ", 2)[:2]) for line in result.stdout.splitlines() if ": URL" in line
    ]


# tree -> (default findings, the links not judged (URL017) listed with EXPLAIN)
EXPECTED: dict[str, tuple[list[str], list[str]]] = {
    "mdbook/book": (
        [
            "book/src/README.md:6:19: URL015",  # missing.html: no missing.md
            "book/src/README.md:6:46: URL016",  # chapter.html#nope (chapter.md has no such heading)
            "book/src/README.md:7:17: URL016",  # no raw-HTML anchor "not-here"
            "book/src/README.md:7:37: URL015",  # a missing image
            # {{#include}}d into included.md: chapter.md resolves from there, nowhere.md not
            "book/src/listings/part.md:1:48: URL015",
        ],
        ["book/src/README.md:9:28: URL017"],  # ../../other/index.html leaves the book
    ),
    "rustdoc": (  # built HTML: rustdoc's redirect stubs and source pages
        [
            "rustdoc/doc/demo/index.html:4:10: URL016",  # the stub's target lacks it too
            "rustdoc/doc/demo/struct.Thing.html:4:10: URL016",  # #L1-L3: the ids are 1..4
            "rustdoc/doc/demo/struct.Thing.html:5:10: URL016",  # #2-9: no line 9
            # a source page showing "{{" in its code is a page, not a template
            "rustdoc/doc/src/demo/lib.rs.html:2:79: URL015",
        ],
        ["rustdoc/doc/demo/index.html:5:10: URL017"],  # a stub sending to another site
    ),
    "mkdocs": (
        [
            "mkdocs/docs/index.md:8:21: URL016",
            "mkdocs/docs/index.md:8:49: URL015",
            "mkdocs/docs/index.md:8:67: URL016",  # no footnote 9
        ],
        ["mkdocs/docs/index.md:9:24: URL017"],  # a snippet include may define it
    ),
    "hugo": (
        [
            "hugo/content/_index.md:6:27: URL016",
            "hugo/content/_index.md:6:66: URL015",
            "hugo/content/docs/refs.md:5:19: URL015",  # relref to no page
            "hugo/content/docs/refs.md:5:61: URL016",  # ref to a page without the anchor
        ],
        [
            "hugo/content/_index.md:3:99: URL017",  # /images/gone.png: no static file
            "hugo/content/_index.md:4:43: URL017",  # mounted from outside the site
            "hugo/content/_index.md:7:27: URL017",  # a shortcode placeholder
            "hugo/content/docs/other.md:3:20: URL017",  # heading made by a shortcode
            "hugo/content/docs/refs.md:7:32: URL017",  # a ref with named parameters
        ],
    ),
    "docusaurus/docs": (
        [
            "docs/intro.md:7:21: URL016",
            "docs/intro.md:7:44: URL015",
            "docs/intro.md:8:24: URL015",  # an inline HTML image
            "docs/intro.md:9:54: URL016",  # /docs/api (routeBasePath) has no #gone
            "docs/other.mdx:7:56: URL015",  # MDX documents are linted too
        ],
        ["docs/intro.md:5:41: URL017"],  # an MDX document
    ),
    "docusaurus/website/i18n": (  # a translation: an untranslated page is the original's
        ["i18n/fr/docusaurus-plugin-content-docs/current/intro.md:5:20: URL015"],
        [],
    ),
    "jekyll": (
        [
            "jekyll/_includes/note.md:1:41: URL015",  # index.md resolves from guide.md's folder
            "jekyll/index.md:9:21: URL016",
            "jekyll/index.md:9:56: URL015",
            "jekyll/tags.md:8:19: URL015",  # {% link %} to no file
            "jekyll/tags.md:8:53: URL015",  # {% post_url %} to no post
            "jekyll/tags.md:8:98: URL016",  # the anchor after the tag
        ],
        [
            "jekyll/index.md:10:21: URL017",  # _site/ is gitignored (the build)
            "jekyll/index.md:10:47: URL017",  # a Liquid placeholder
            "jekyll/tags.md:10:26: URL017",  # a tag naming a variable
        ],
    ),
    "mkdocs-plugins": (
        ["mkdocs-plugins/docs/index.md:4:24: URL015"],  # redirect_maps' old pages are served
        [],
    ),
    "mkdocs-i18n": (  # mkdocs-static-i18n, suffix structure: index.fr.md links logo.png
        [
            # the French page is served for a French link: its heading is "Details FR"
            "mkdocs-i18n/docs/index.fr.md:5:79: URL016",
            "mkdocs-i18n/docs/index.md:5:17: URL015",
            "mkdocs-i18n/docs/index.md:5:81: URL016",
        ],
        [
            "mkdocs-i18n/docs/index.md:5:51: URL017",  # the theme may serve files
            "mkdocs-i18n/docs/index.md:7:65: URL017",  # only.fr.png: not for English
        ],
    ),
    "mkdocs-i18n-folder": (  # folder structure: en/, fr/, untranslated files at the root
        [
            "mkdocs-i18n-folder/docs/en/index.md:5:17: URL015",
            "mkdocs-i18n-folder/docs/fr/index.md:5:20: URL015",
        ],
        ["mkdocs-i18n-folder/docs/en/index.md:5:47: URL017"],
    ),
    "mkdocs-monorepo": (  # mkdocs-monorepo-plugin: !include and *include mount sub-sites
        [
            "mkdocs-monorepo/docs/index.md:5:15: URL015",  # no such sub-site
            "mkdocs-monorepo/docs/index.md:5:65: URL015",  # the sub-site lacks the page
            "mkdocs-monorepo/docs/index.md:5:104: URL016",  # read in the mounted page
        ],
        # a sub-site's page does not know where the parent mounts it
        ["mkdocs-monorepo/components/auth/pages/index.md:3:21: URL017"],
    ),
    "mkdocs-gen": (
        [],
        [
            "mkdocs-gen/docs/index.md:3:19: URL017",  # gen-files writes pages
            "mkdocs-gen/docs/index.md:4:32: URL017",  # the theme may serve files
        ],
    ),
    "zensical": (
        ["zensical/pages/index.md:5:19: URL015", "zensical/pages/index.md:5:41: URL016"],
        ["zensical/pages/index.md:6:39: URL017"],  # outside the docs_dir of [project]
    ),
    "pelican": (
        [
            "pelican/content/first.md:8:16: URL015",  # {filename}/gone.md from the content root
            "pelican/content/first.md:8:50: URL015",  # {attach}images/none.png beside the page
        ],
        [
            "pelican/content/first.md:9:26: URL017",  # {tag}python: a page Pelican makes
            "pelican/content/first.md:9:63: URL017",  # pages are named after titles
        ],
    ),
    "sphinx-pages/docs": (
        [
            "docs/index.rst:5:35: URL015",  # html_additional_pages adds contents, legal/terms
            "docs/index.rst:9:42: URL016",  # section titles (autosectionlabel), a code
            # block's :name: and an inline _`target` are labels or names; this is none
        ],
        [  # a Jinja template: its links resolve from the pages it is rendered into
            "docs/_templates/layout.html:3:32: URL017",
            "docs/_templates/layout.html:4:12: URL017",
        ],
    ),
    "hugo-i18n": (
        [
            # an included fragment: linux.md resolves from its includer's folder, not nope.md
            "hugo-i18n/content/en/installation/common/binaries.md:3:75: URL015",
            # whitespace outside a template expression is still whitespace
            "hugo-i18n/layouts/partials/gtag.html:3:10: URL004",
        ],
        [  # #editions: the includer holds shortcodes (read from content/en, the language's)
            "hugo-i18n/content/en/installation/common/binaries.md:3:19: URL017"
        ],
    ),
    "mdman": (
        ["mdman/reference/index.md:3:17: URL015"],
        [
            "mdman/man/cmd.md:8:24: URL017",  # a Handlebars template
            "mdman/man/includes/plain.md:1:22: URL017",  # a partial the template includes
        ],
    ),
    "myst": (  # mystmd (myst.yml): a #label reaches a label of any page
        [
            "myst/index.md:13:4: URL016",
            "myst/index.md:13:21: URL016",
            "myst/index.md:13:57: URL016",  # a label shown in an example is not made
        ],
        [],
    ),
    "sphinx/docs": (
        # :doc:`../api` from the root is api (Sphinx's docname_join stops at the root);
        # with MyST-Parser, page.md's [](#api-label) reaches api.rst's label
        ["docs/page.md:4:11: URL016"],
        [
            "docs/index.rst:4:23: URL017",  # autosummary's :toctree: folder
            "docs/index.rst:4:52: URL017",  # the project's own extension may write it
        ],
    ),
    "vitepress": (  # .vitepress/config.mts, srcDir src; public/ at the root
        [
            # a part <!--@include:-->d by using.md: resolved from there, nowhere.md from none
            "vitepress/docs/src/guide/parts/basics.md:4:11: URL015",
            "vitepress/docs/src/index.md:7:8: URL015",
            "vitepress/docs/src/index.md:7:39: URL016",  # a site-absolute page's anchor
            "vitepress/docs/src/index.md:8:9: URL015",
        ],
        [
            "vitepress/docs/src/index.md:10:14: URL017",  # in no source or static folder
            "vitepress/docs/src/index.md:12:14: URL017",  # a heading of the included part
        ],
    ),
    "sphinx-built": (  # built HTML: _sources/x.rst.txt is reST shown as text
        # literal blocks and code are code, a target's URL goes on on the next line, and
        # the copy's relative links are no links of a page
        ["sphinx-built/html/_sources/usage.rst.txt:13:48: URL013"],
        [],
    ),
    "properdocs": (  # ProperDocs (properdocs.yml), MkDocs' fork: pages x.md -> x.html
        [
            "properdocs/docs/index.md:6:8: URL016",
            "properdocs/docs/index.md:6:44: URL015",
        ],
        [],
    ),
}


@pytest.mark.parametrize("tree", sorted(EXPECTED))
def test_fixture_sites(tree: str, monkeypatch: pytest.MonkeyPatch) -> None:
    default, unjudged = EXPECTED[tree]
    assert _lint(SITES / tree, monkeypatch=monkeypatch) == default
    explained = _lint(SITES / tree, "--extend-select", "EXPLAIN", monkeypatch=monkeypatch)
    assert explained == sorted([*default, *unjudged], key=_position)


def _position(item: str) -> tuple[str, int, int]:
    path, line, column, _ = item.split(":", 3)
    return path, int(line), int(column)


def test_each_generator_is_found_from_its_config() -> None:
    finder = SiteFinder()
    pages = {
        "mdbook": SITES / "mdbook/book/src/README.md",
        "mkdocs": SITES / "mkdocs/docs/index.md",
        "hugo": SITES / "hugo/content/docs/guide.md",
        "docusaurus": SITES / "docusaurus/docs/intro.md",
        "jekyll": SITES / "jekyll/index.md",
        "sphinx": SITES / "sphinx/docs/index.rst",
        "zensical": SITES / "zensical/pages/guide.md",
        "pelican": SITES / "pelican/content/second.rst",
        "vitepress": SITES / "vitepress/docs/src/guide/getting-started.md",
        "myst": SITES / "myst/other.md",
    }
    assert sorted(pages) == sorted(g.name for g in GENERATORS)
    for name, page in pages.items():
        site = finder.site_of(page.resolve())
        assert site is not None, page
        assert site.generator.name == name, page
    properdocs = finder.site_of((SITES / "properdocs/docs/index.md").resolve())
    assert properdocs is not None
    assert properdocs.generator.name == "mkdocs"  # ProperDocs reads MkDocs' keys
    # A file beside the configuration but outside the source folder has no site.
    assert finder.site_of((SITES / "mdbook/book/book.toml").resolve()) is None


def test_configs_are_read_never_run(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "docs_dir: pages\n"
        "markdown_extensions:\n"
        "  - toc:\n"
        "      slugify: !!python/object/apply:os.system ['touch pwned']\n"
        "  - attr_list\n"
        "hooks: [hooks.py]\n"
    )
    (tmp_path / "hooks.py").write_text("import os\nos.system('touch pwned')\n")
    data = read_mapping(tmp_path / "mkdocs.yml")
    assert data["docs_dir"] == "pages"
    (tmp_path / "pages").mkdir()
    site = SiteFinder().site_of(tmp_path / "pages" / "a.md")
    assert site is not None
    assert site.source == (tmp_path / "pages").resolve()
    assert site.open_anchors is None  # the hook defines no page event
    assert not (tmp_path / "pwned").exists()
    assert read_mapping(tmp_path / "missing.yml") == {}
    (tmp_path / "bad.yml").write_text("a: [\n")
    assert read_mapping(tmp_path / "bad.yml") == {}


def test_without_a_generator_the_old_rules_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\n[x](b.html) [y](b.md) [z](/abs/) [w](../src/x.py)\n")
    (docs / "b.md").write_text("# B\n")
    # b.html is built from b.md by a generator, but no generator is configured here.
    assert _lint(docs, monkeypatch=monkeypatch) == ["docs/a.md:3:5: URL015"]


def test_ref_findings_do_not_depend_on_the_folder_linted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    (site / "sub").mkdir(parents=True)
    (site / "conf.py").write_text("project = 'x'\n")
    (site / "index.rst").write_text(".. _intro:\n\nIntro\n=====\n")
    (site / "sub" / "b.rst").write_text("B\n=\n\n:ref:`intro` and :ref:`nope`.\n")
    whole = _lint(site, monkeypatch=monkeypatch)
    assert whole == ["site/sub/b.rst:4:24: URL016"]
    assert _lint(site / "sub", monkeypatch=monkeypatch) == ["sub/b.rst:4:24: URL016"]
    monkeypatch.chdir(site)
    result = CliRunner().invoke(main, ["lint", "--no-cache", "."])
    assert [line.split(" ")[0] for line in result.stdout.splitlines() if ": URL" in line] == [
        "sub/b.rst:4:24:"
    ]


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("What Prettier is _not_ concerned about", "what-prettier-is-not-concerned-about"),
        ("on_&lt;event_name&gt;()", "on_event_name"),  # entities as text (toc)
        ("`<name>` option", "name-option"),  # code text kept (mdBook, GitHub)
        ("add_dependency(`gem`, `*requirements`)", "adddependencygem-requirements"),  # kramdown
        ("Ünïcode Title", "unicode-title"),  # toc and github-ascii drop accents
        ("Ünïcode Title", "ünïcode-title"),  # GitHub keeps letters
        # attr_list takes a trailing list off the heading (MkDocs); GitHub shows it
        ("Android {: android}", "android"),
        ("Android {: android}", "android--android"),
        ('Setup { .new data-since="3" }', "setup"),
        ("Braces {x}", "braces"),
        ("Braces {x}", "braces-x"),
        # VitePress and VuePress: punctuation a "-", "_" before a leading digit
        ("site.title", "site-title"),
        ("1.0 Release", "_1-0-release"),
    ],
)
def test_slug_styles(heading: str, anchor: str) -> None:
    assert anchor in set(heading_anchors(heading, {}))


def test_repeated_headings_are_numbered_per_style() -> None:
    seen: dict[str, int] = {}
    list(heading_anchors("Usage", seen))
    again = set(heading_anchors("Usage", seen))
    assert {"usage-1", "usage_1"} <= again
    assert "usage" not in again


@pytest.mark.parametrize(
    ("text", "opaque"),
    [
        ("# T\n\n{{< include file >}}\n", True),
        ('# T\n\n--8<-- "x.md"\n', True),
        ("import X from '@site/x';\n\n<X />\n", True),
        ("# T\n\n::: pkg.module\n", True),
        ("# T\n\nPlain text with {braces} and 1 < 2.\n", False),
    ],
)
def test_content_the_linter_cannot_see(text: str, opaque: bool) -> None:
    assert (opaque_reason(text) is not None) is opaque


def test_reference_definitions_no_reader_sees_are_not_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "r.md").write_text(
        "# T\n\nUsed [a] and [text][B] and [c][].\n\n"
        "[a]: gone-a.md\n[b]: gone-b.md\n[c]: gone-c.md\n"
        "[unused]: gone-unused.md\n[dup]: gone-dup.md\n[dup]: other.md\n"
        "[^1]: gone-footnote.md\n\nSee [dup] and [^1].\n"
    )
    # Used definitions are links; an unused one, one defined twice (generators keep
    # different ones) and a footnote are not.
    assert _lint(docs, monkeypatch=monkeypatch) == [
        "docs/r.md:5:6: URL015",
        "docs/r.md:6:6: URL015",
        "docs/r.md:7:6: URL015",
    ]


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("mkdocs.yml", b"\x00\xff\xfe binary \x00"),
        ("mkdocs.yml", b"a: &a [*a, *a]\n" + b"b: [" * 5000),
        ("book.toml", b"[book\nsrc = 3"),
        ("conf.py", b"extensions = [" * 10000),
        ("conf.py", b"\x00import os"),
        ("hugo.json", b'{"contentDir": ' * 3000),
        ("docusaurus.config.js", b"docs: {" * 5000 + b"path: '../x'"),
        ("_config.yml", b"x" * (1 << 20) + b"\nsource: elsewhere\n"),
    ],
)
def test_hostile_configs_are_data(
    name: str, content: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / name).write_bytes(content)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\n[x](gone.md) [y](#a)\n")
    (tmp_path / "a.md").write_text("# A\n\n[x](gone.md)\n")
    SiteFinder().site_of((docs / "a.md").resolve())  # never raises
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["lint", "--no-cache", "."])
    assert result.exit_code in (0, 1), result.output
    assert "internal error" not in result.output


def test_pelican_links_without_a_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # {filename} is Pelican's syntax wherever it is written: a relative source path is
    # judged beside the document; one from the content root is not known without
    # pelicanconf.py; {category}news names a page Pelican makes.
    page = tmp_path / "blog" / "post.md"
    page.parent.mkdir()
    (page.parent / "other.md").write_text("# Other\n\n## Part\n", "utf-8")
    page.write_text(
        "[a]({filename}other.md#part) [b]({filename}missing.md) [c]({filename}/x.md)\n"
        "[d]({category}news) [e](|filename|other.md#nope)\n",
        "utf-8",
    )
    found = _lint(tmp_path / "blog", "--extend-select", "EXPLAIN", monkeypatch=monkeypatch)
    assert found == [
        "blog/post.md:1:34: URL015",
        "blog/post.md:1:60: URL017",
        "blog/post.md:2:5: URL017",
        "blog/post.md:2:25: URL016",
    ]


@pytest.mark.parametrize(
    ("path", "text", "template"),
    [
        ("theme/layout.html", '{% extends "base.html" %}<a href="x.html">', True),
        ("layouts/partials/nav.html", '<a href="{{ .Permalink }}">', True),
        ("views/page.html", '<%= link_to "x" %><a href="y.html">', True),
        ("_layouts/default.html", "---\nlayout: base\n---\n{{ content }}", True),
        # a page with front matter is rendered where it is, Liquid or not
        ("about.html", "---\ntitle: About\n---\n{{ site.title }} <a href=x.html>", False),
        ("content/page.html", "{{< figure src=a.png >}} <p>a Hugo shortcode</p>", False),
        ("plain.html", "<p>{ not a template } 50% off</p>", False),
        # template syntax only in the code a built page shows (rustdoc, Sphinx)
        ("src/lib.rs.html", "<pre><span>m!</span> =&gt; {{ x }}</pre><a href=y.html>", False),
        ("c.html", "<p>Use <code>{% raw %}</code></p>", False),
        ("nav.html", '<pre>{{ x }}</pre><a href="{{ url }}">', True),
        ("base.html", "<code>a</code>{% block body %}{% endblock %}", True),
    ],
)
def test_html_templates_are_known(path: str, text: str, template: bool) -> None:
    from urlsift.lint.sites import template_reason

    assert (template_reason(text, path) is not None) is template


def test_an_escaped_attribute_list_id_is_an_anchor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pymdown-extensions' docs: ^†^{#\_fn_1} (attr_list reads the id after Markdown's
    # backslash escapes: _fn_1), referenced as (#_fn_1).
    page = tmp_path / "docs" / "page.md"
    page.parent.mkdir()
    page.write_text(
        "With CSS^[†](#_fn_1)^ and [x](#a.b-c).\n\n^†^{#\\_fn_1} A note. *y*{ #a\\.b-c }\n"
        "[gone](#_fn_2)\n",
        "utf-8",
    )
    assert _lint(tmp_path / "docs", monkeypatch=monkeypatch) == ["docs/page.md:4:8: URL016"]


def test_includes_and_templates_are_read_from_markup_only() -> None:
    from urlsift.lint.extract import extract_document

    text = (
        "# Page\n\n{{#include part.md}}\n\n"
        "```\n{{#include shown.md}}\n{{#each x}}{{/each}}\n```\n\n"
        "{{< note >}}hi{{< /note >}} `{{> partial}}`\n"
    )
    document = extract_document(text, "page.md", "markdown")
    # the fenced and inline code show syntax; only the include outside them counts
    assert document.includes == ("0:part.md",)
    # mdBook's {{#include}} and Hugo's {{< /note >}} are no Handlebars template
    assert document.template is None
    template = extract_document("{{#each items}}\n[x](a.md)\n{{/each}}\n", "t.md", "markdown")
    assert template.template is not None
    partial = extract_document("Intro\n\n{{> options }}\n", "t.md", "markdown")
    assert partial.template is not None
    assert partial.includes == ("7:options",)
    rst = extract_document(".. include:: ../defs.rst\n\nText\n", "a.rst", "rst")
    assert rst.includes == ("6:../defs.rst",)


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        # mkdocs-static-i18n 1.x: a list of locales, one marked default
        (
            {"languages": [{"locale": "fr", "name": "FR"}, {"locale": "en", "default": True}]},
            Localized("suffix", "en", frozenset({"en", "fr"})),
        ),
        # 0.x: default_language and a mapping of locales
        (
            {"default_language": "en", "languages": {"de": "Deutsch"}, "docs_structure": "folder"},
            Localized("folder", "en", frozenset({"en", "de"})),
        ),
        # no default marked: the first; fallback switched off
        (
            {"languages": [{"locale": "ja"}, {"locale": "en"}], "fallback_to_default": False},
            Localized("suffix", "ja", frozenset({"ja", "en"}), fallback=False),
        ),
        ({"docs_structure": "folder"}, None),  # no languages: nothing to resolve
        ({"languages": "en"}, None),  # a value of another shape
    ],
)
def test_i18n_settings_are_read_in_both_formats(
    settings: dict[str, object], expected: Localized | None
) -> None:
    assert _localized(settings) == expected


def test_i18n_targets_in_the_plugins_order() -> None:
    source = Path("/site/docs")
    suffix = Localized("suffix", "en", frozenset({"en", "fr"}))
    # a French page: its own language, then the default's, then the file itself
    assert suffix.targets(source, source / "a.fr.md", source / "img/x.png") == [
        source / "img/x.fr.png",
        source / "img/x.en.png",
        source / "img/x.png",
    ]
    # a page of the default language (no suffix); a name without extension
    assert suffix.targets(source, source / "a.md", source / "NOTICE") == [
        source / "NOTICE.en",
        source / "NOTICE",
    ]
    folder = Localized("folder", "en", frozenset({"en", "fr"}))
    assert folder.targets(source, source / "fr/a.md", source / "fr/img/x.png") == [
        source / "fr/img/x.png",
        source / "en/img/x.png",
        source / "img/x.png",
    ]
    # outside the source folder: only the target itself
    assert folder.targets(source, source / "fr/a.md", Path("/elsewhere/x.png")) == [
        Path("/elsewhere/x.png")
    ]


def test_monorepo_includes_stay_inside_the_sites_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "docs").mkdir(parents=True)
    (outside / "mkdocs.yml").write_text("site_name: secret\n")
    site = tmp_path / "site"
    (site / "docs").mkdir(parents=True)
    (site / "mkdocs.yml").write_text(
        "site_name: top\nplugins: [monorepo]\nnav:\n"
        f"  - a: '!include ../outside/mkdocs.yml'\n  - b: '!include {outside}/mkdocs.yml'\n"
        "  - c: '*include ../*/mkdocs.yml'\n"
    )
    found = SiteFinder().site_of((site / "docs" / "index.md").resolve())
    assert found is not None
    assert found.mounts == ()


def test_jekyll_tags_resolve_as_jekyll_does() -> None:
    site = SiteFinder().site_of((SITES / "jekyll" / "tags.md").resolve())
    assert site is not None
    posts = (SITES / "jekyll" / "_posts").resolve()
    assert site.jekyll_link("link", "/guide.md") == (SITES / "jekyll" / "guide.md").resolve()
    assert site.jekyll_link("link", "guide.html") is None  # the file's own extension only
    assert site.jekyll_link("post_url", "2024-01-05-hello") == posts / "2024-01-05-hello.md"
    # a post in a subfolder: by its path, or (Jekyll 4, deprecated) by its name alone
    later = posts / "2024" / "2024-03-01-later.md"
    assert site.jekyll_link("post_url", "2024/2024-03-01-later") == later
    assert site.jekyll_link("post_url", "2024-03-01-later") == later
    assert site.jekyll_link("post_url", "2023/2024-01-05-hello") is None


@pytest.mark.parametrize(
    ("head", "redirect"),
    [
        ('<meta http-equiv="refresh" content="0;URL=../a/b.html">', "../a/b.html"),
        ("<meta http-equiv=Refresh content=\"0; url='x.html#top'\">", "x.html#top"),
        ('<meta http-equiv="refresh" content="3, https://example.org/">', "https://example.org/"),
        ('<meta http-equiv="refresh" content="30">', None),  # reloads itself
        ('<meta name="refresh" content="0;URL=x.html">', None),
        ('<meta charset="utf-8">', None),
    ],
)
def test_redirect_stubs_are_read(head: str, redirect: str | None) -> None:
    from urlsift.lint.extract import extract_document

    page = f"<html><head>{head}</head><body></body></html>"
    assert extract_document(page, "p.html", "html").redirect == redirect


def test_redirect_stubs_in_a_loop_are_not_followed_forever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    stub = '<meta http-equiv="refresh" content="0;URL={}">\n'
    (site / "a.html").write_text(stub.format("b.html"))
    (site / "b.html").write_text(stub.format("a.html"))
    (site / "self.html").write_text(stub.format("self.html") + '<p id="here">')
    (site / "index.html").write_text(
        '<a href="a.html#x">x</a> <a href="self.html#y">y</a> <a href="self.html#here">h</a>\n'
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["lint", "--no-cache", "--extend-select", "EXPLAIN", "site"])
    assert result.exit_code == 1, result.output
    lines = [line for line in result.stdout.splitlines() if ": URL" in line]
    assert lines == [
        "site/index.html:1:10: URL017 a.html#x: not judged: "
        "a.html redirects in a loop or more than 8 times",
        "site/index.html:1:35: URL017 self.html#y: not judged: "
        "self.html redirects in a loop or more than 8 times",
    ]
