"""Issue 17: lint on real documentation reports real problems only; nothing planted is lost.

* the default rule set over the four real trees of ``../shared/corpora/docs`` (skipped
  when absent) gives exactly the judged list below;
* the opt-in ``RFC1738`` group gives every finding the default gave before the split
  (``corpora/lint/expected-rfc1738.out`` is the golden output from before);
* relative links and anchors are checked offline in Markdown, reST and HTML
  (``corpora/lint-local``);
* reST structure (roles, literals, directive options, captions, targets) is not read as
  URLs, with exact positions.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import urlsift
from urlsift.cli import main
from urlsift.lint.check import continuation
from urlsift.lint.engine import lint_text
from urlsift.lint.extract import ExtractOptions, detect_format, extract_document
from urlsift.lint.slugs import heading_anchors

ROOT = Path(__file__).resolve().parent.parent
SHARED_DOCS = ROOT.parent / "shared" / "corpora" / "docs"

# Every remaining default finding on the real trees, judged by hand (see docs/lint.md),
# linted from the tree's root as a user would (`urlsift lint docs`: LINTED_FOLDER).
REAL_TREES_EXPECTED: dict[str, list[str]] = {
    "encode+httpx": [
        # clients.md has no "Client instances" heading since advanced.md was split.
        "docs/advanced/clients.md:154:86: URL016",
        # the heading is "Merging of configuration".
        "docs/advanced/clients.md:162:129: URL016",
        # "Routing" is a heading of transports.md, not of proxies.md.
        "docs/advanced/proxies.md:29:65: URL016",
        # the heading "ASGI Transport" is #asgi-transport (MkDocs' toc), not #asgitransport.
        "docs/async.md:194:88: URL016",
        "docs/compatibility.md:200:245: URL016",  # as clients.md:154
        # proxies.md has "HTTP Proxies", no "HTTP Proxying".
        "docs/environment_variables.md:18:69: URL016",
        # the heading is "Custom authentication schemes".
        "docs/third_party_packages.md:19:84: URL016",
    ],
    "google+docsy": [  # Hugo
        # {{< ref "content#docs-section-landing-pages" >}} reaches the section "content"
        # (docs/content/_index.md: front matter only); the heading "Docs section landing
        # pages" is in adding-content.md.
        "docsy.dev/content/en/docs/content/navigation.md:306:7: URL016",
    ],
    "mkdocs+mkdocs": [],  # MkDocs
    "pallets+click": [],
    "prettier+prettier": [],  # Docusaurus (website/docusaurus.config.js)
    "psf+requests": [],
    "python+peps": [
        # `.. _Connection.close:` gets docutils' id "connection-close": #Connection.close
        # names no element of the page (nor #Cursor.close, from `.. _Cursor.close:`).
        "peps/pep-0249.rst:234:12: URL016",
        "peps/pep-0249.rst:371:10: URL016",
        # <https://discuss.python.org/t/7614/10 is never closed.
        "peps/pep-0685.rst:76:53: URL002",
    ],
    "rubygems+guides": [],  # Jekyll
    "rust-lang+mdBook": [],  # mdBook
}


LINTED_FOLDER = {
    "encode+httpx": "docs",
    "google+docsy": "docsy.dev/content",
    "mkdocs+mkdocs": "docs",
    "pallets+click": "docs",
    "prettier+prettier": "docs",
    "psf+requests": "docs",
    "python+peps": "peps",
    "rubygems+guides": ".",
    "rust-lang+mdBook": "guide",
}


def _lint(args: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(cwd)
    result = CliRunner().invoke(main, ["lint", *args])
    assert result.exit_code in (0, 1), result.output
    return result.stdout.splitlines()


@pytest.mark.skipif(not SHARED_DOCS.is_dir(), reason="../shared/corpora/docs is absent")
@pytest.mark.parametrize("tree", sorted(REAL_TREES_EXPECTED))
def test_real_trees_report_only_judged_problems(tree: str, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _lint(["--no-cache", LINTED_FOLDER[tree]], SHARED_DOCS / tree, monkeypatch)
    found = [" ".join(line.split(" ", 2)[:2]) for line in lines if ": URL" in line]
    assert found == REAL_TREES_EXPECTED[tree]


BREAKAGE = ("URL012", "URL013", "URL014")


def _place_and_message(line: str) -> tuple[str, str]:
    place, _, message = line.split(" ", 2)
    return place, message


def test_rfc1738_group_keeps_every_finding_of_the_old_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    golden = ROOT / "corpora" / "lint"
    # The golden configuration ignores URL007; --extend-select would select it again.
    lines = _lint(["--extend-select", "RFC1738", "--ignore", "URL007"], golden, monkeypatch)
    new_codes = (" URL012 ", " URL013 ", " URL014 ", " URL015 ", " URL016 ")
    kept = [line for line in lines if not any(code in line for code in new_codes)]
    old = (golden / "expected-rfc1738.out").read_text(encoding="utf-8").splitlines()
    # One finding per URL and cause (issue 25): a breakage finding (URL012-URL014) stands
    # for the RFC1738 group's finding of the same defect, at the same place and message.
    breakage = {_place_and_message(line) for line in lines if line.split(" ")[1] in BREAKAGE}
    replaced = [line for line in old if _place_and_message(line) in breakage]
    assert {line.split(" ")[1] for line in replaced} <= {"URL001", "URL009"}
    assert replaced
    assert kept == [line for line in old if line not in replaced]
    strict = _lint(["--strict", "docs/notes.txt"], golden, monkeypatch)
    assert any(" URL005 " in line for line in strict)
    assert not any(" URL005 " in line for line in _lint(["docs/notes.txt"], golden, monkeypatch))


def test_local_links_fixture(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _lint(["."], ROOT / "corpora" / "lint-local" / "docs", monkeypatch)
    assert [line.split(": ", 1)[0] + " " + line.split(" ")[1] for line in lines] == [
        # reST names (`Section`_, <alias_>), embedded documents and images (issue 22)
        "guide/names.rst:9:10 URL016",
        "guide/names.rst:9:36 URL015",
        "guide/names.rst:9:64 URL016",
        "guide/names.rst:17:12 URL015",
        "guide/ref.rst:10:15 URL015",
        "guide/ref.rst:10:39 URL016",
        "index.md:6:16 URL015",
        "index.md:6:48 URL016",
        "index.md:7:45 URL016",
        "index.md:7:72 URL016",
        "index.md:8:81 URL015",
        "myst.md:5:15 URL015",
        "myst.md:5:37 URL016",
        "page.html:4:10 URL015",
        "page.html:4:42 URL016",
    ]


def test_sphinx_roles_without_conf_py_are_not_judged(tmp_path: Path) -> None:
    (tmp_path / "a.rst").write_text("See :doc:`nowhere` and :ref:`no-label`.\n")
    _, diagnostics = lint_text((tmp_path / "a.rst").read_text(), str(tmp_path / "a.rst"))
    assert diagnostics == []


def _links(text: str) -> list[tuple[str, str, int, int]]:
    document = extract_document(text, "doc.rst", "rst")
    return [(f.origin, f.url, f.line, f.column) for f in document.findings]


def test_rst_image_options_are_not_glued_to_the_url() -> None:
    text = (
        ".. image:: https://img.example/v.svg?maxAge=86400\n"
        "    :target: https://pypi.example/project/\n"
        "    :alt: PyPI Version Badge\n"
    )
    assert _links(text) == [
        ("rst-target", "https://img.example/v.svg?maxAge=86400", 1, 12),
        ("rst-target", "https://pypi.example/project/", 2, 14),
    ]


def test_rst_figure_caption_and_target_paragraph_stay_prose() -> None:
    text = (
        ".. figure:: https://fig.example/f.png\n"
        "   :width: 50\n"
        "\n"
        "   Caption with https://caption.example/x inside.\n"
        "\n"
        "__ http://sourceforge.example/tracker/?group_id=5470\n"
        "\n"
        "``AAA[,BBB]...``\n"
        "    List of initials.\n"
        ".. _name: https://target.example/a\n"
        "   continued\n"
    )
    assert _links(text) == [
        ("rst-target", "https://fig.example/f.png", 1, 13),
        ("bare", "https://caption.example/x", 4, 17),
        ("rst-target", "http://sourceforge.example/tracker/?group_id=5470", 6, 4),
        ("rst-target", "https://target.example/acontinued", 10, 11),
    ]


def test_rst_roles_and_literals_are_markup() -> None:
    text = (
        "Edit :file:`setup.cfg` and :code:`'https://code.example'`, not\n"
        "``https://literal.example`` but `the site <https://site.example/>`_\n"
        "and https://bare.example/x.\n"
    )
    assert _links(text) == [
        ("rst-link", "https://site.example/", 2, 44),
        ("bare", "https://bare.example/x", 3, 5),
    ]


def test_url008_not_on_a_table_border() -> None:
    assert continuation("https://a.example/IO::Gzip", "", "x", "==========  =====") is None


def test_templates_and_ip_literals_are_not_breakage() -> None:
    text = "See https://{index}/simple/{name} and http://[::1]:8000/x and http://exa_mple.com/.\n"
    _, diagnostics = lint_text(text, "a.txt")
    assert [(d.column, d.code) for d in diagnostics] == [(73, "URL012")]


def test_default_breakage_rules() -> None:
    text = (
        "a http://host.example:8o8o/ b http://h.example/%zz c ftp://f.example/x;type=q\n"
        "d telnet://t.example/path e <mailto:> f http://127.0.0.1:8000/app\n"
    )
    _, diagnostics = lint_text(text, "a.txt")
    assert [(d.line, d.code) for d in diagnostics] == [
        (1, "URL012"),
        (1, "URL013"),
        (1, "URL014"),
        (2, "URL014"),
        (2, "URL014"),
    ]


def test_heading_anchors_github_and_mkdocs() -> None:
    seen: dict[str, int] = {}
    assert set(heading_anchors("Hello, `World` [x](y.md)!", seen)) == {"hello-world-x"}
    assert set(heading_anchors("Hello, World x!", seen)) == {"hello-world-x-1", "hello-world-x_1"}
    assert set(heading_anchors("Title {#custom}", {})) == {"custom", "title"}


@pytest.mark.parametrize(
    ("text", "urls"),
    [
        (":file:`setup.cfg` and :file:`/etc/hosts`", []),
        ("the :mailto:`a@b.example` role and :news:`comp.lang` role", []),
        ("a `https://a.example/x` in backticks", ["https://a.example/x"]),
        ("plain file:///etc/hosts stays", ["file:///etc/hosts"]),
    ],
)
def test_scan_reads_sphinx_roles_as_markup(text: str, urls: list[str]) -> None:
    # The scan side of item 1: a backtick ends a bare URL (RFC 1738 unsafe, scanner
    # branch), and a scheme word with nothing after its ':' is no URL, so a role
    # :name:`...` is never reported; no special rule in the scanner is needed.
    assert [u.url for u in urlsift.extract(text)] == urls


@pytest.mark.skipif(not SHARED_DOCS.is_dir(), reason="../shared/corpora/docs is absent")
def test_positions_on_real_trees_point_at_the_url() -> None:
    # path:line:col is the URL's first character: read back from the file's own lines.
    checked = 0
    for path in sorted(SHARED_DOCS.rglob("*")):
        if path.suffix not in (".rst", ".md", ".html") or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        document = extract_document(text, str(path), detect_format(path.name))
        for f in document.findings:
            at = lines[f.line - 1][f.column - 1 :]
            first = f.raw.split("\n", 1)[0]
            assert at.startswith(first), (path, f)
            if f.origin in ("bare", "rst-link", "rst-target", "markdown-link"):
                assert f.raw[:1] == f.url[:1], (path, f)
            checked += 1
        for link in document.local_links:
            at = lines[link.line - 1][link.column - 1 :]
            assert at[:1] == link.target[:1], (path, link)
    assert checked > 5000


def test_extractors_import_one_way() -> None:
    # Formats depend on the shared core (findings.py, slugs.py), never on the dispatcher.
    lint = ROOT / "src" / "urlsift" / "lint"
    for module in ("extract_html", "extract_man", "extract_markdown", "extract_rst"):
        source = (lint / f"{module}.py").read_text(encoding="utf-8")
        assert not re.search(r"^from \.extract import|^from \. import extract\b", source, re.M)
    for core in ("findings", "slugs"):
        source = (lint / f"{core}.py").read_text(encoding="utf-8")
        assert not re.search(r"^from \.extract", source, re.M), core


def test_rst_target_then_blank_line_then_paragraph() -> None:
    text = ".. _name: https://target.example/a\n\nA paragraph https://p.example/ here.\n"
    assert _links(text) == [
        ("rst-target", "https://target.example/a", 1, 11),
        ("bare", "https://p.example/", 3, 13),
    ]


def test_rst_code_roles_are_scanned_only_with_verbatim_text() -> None:
    text = "Run :code:`curl https://code.example/x` or see :file:`https://file.example/`.\n"
    assert _links(text) == []
    document = extract_document(text, "doc.rst", "rst", ExtractOptions(include_verbatim=True))
    assert [(f.url, f.column) for f in document.findings] == [("https://code.example/x", 17)]
