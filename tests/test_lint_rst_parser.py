"""``--rst-parser docutils``: docutils decides what is a link in reST, urlsift locates it.

* the structure cases give the same findings (URL, line, column) and diagnostics in both
  modes; so do the real trees (``../shared/corpora/docs``, skipped when absent), whose
  pinned findings are those of the default mode;
* where the modes differ (docutils makes no link, or a link the extractor missed, or ends
  a URI earlier), docutils' answer is located exactly and judged by the same rules;
* the ``rst-parser`` key and ``--rst-parser`` option; without docutils the docutils mode
  is a usage error naming the ``rst`` extra (simulated; that test runs without docutils);
* docutils' global tables are left as they were, documents and threads do not see each
  other's roles, and lint without the mode never imports docutils;
* a document docutils cannot read falls back to the extractor and is counted.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

import urlsift.lint.config
from _rst_cases import STRUCTURE_CASE
from urlsift.cli import main
from urlsift.lint.config import LintSettings, default_selection
from urlsift.lint.engine import lint_text
from urlsift.lint.extract import ExtractOptions, RstParser, extract_document

ROOT = Path(__file__).resolve().parent.parent
SHARED_DOCS = ROOT.parent / "shared" / "corpora" / "docs"

needs_docutils = pytest.mark.skipif(
    not urlsift.lint.config.docutils_available(),
    reason="docutils is not installed (pip install 'urlsift[rst]')",
)


def _findings(text: str, mode: RstParser, **options: bool) -> list[tuple[str, int, int, str]]:
    extracted = extract_document(text, "x.rst", "rst", ExtractOptions(rst_parser=mode, **options))
    return [(f.url, f.line, f.column, f.origin) for f in extracted.findings]


def _diagnostics(text: str, mode: RstParser) -> list[tuple[int, int, str, str | None]]:
    settings = LintSettings(rst_parser=mode, strict=True, select=default_selection(True))
    return [(d.line, d.column, d.code, d.url) for d in lint_text(text, "x.rst", settings)[1]]


@needs_docutils
def test_structure_cases_give_the_same_findings_in_both_modes() -> None:
    default = _findings(STRUCTURE_CASE, "urlsift")
    assert len(default) == 9
    assert _findings(STRUCTURE_CASE, "docutils") == default
    assert _diagnostics(STRUCTURE_CASE, "docutils") == _diagnostics(STRUCTURE_CASE, "urlsift")
    verbatim = _findings(STRUCTURE_CASE, "urlsift", include_verbatim=True)
    assert len(verbatim) > len(default)  # code is outside docutils' say: kept as found
    assert _findings(STRUCTURE_CASE, "docutils", include_verbatim=True) == verbatim


@needs_docutils
def test_docutils_decides_where_the_modes_differ() -> None:
    text = (
        'Install "git+https://exa_mple.com/x.git" with pip.\n\n'
        "Clone ssh://hg@hg.example.org/repo today.\n\n"
        "Read https://en.example.org/wiki/RSA_(cryptosystem).\n\n"
        "Bare http://example.com/a-\nb continues.\n"
    )
    assert _findings(text, "urlsift") == [
        ("https://exa_mple.com/x.git", 1, 14, "bare"),
        ("https://en.example.org/wiki/RSA_(cryptosystem)", 5, 6, "bare"),
        ("http://example.com/a-b", 7, 6, "bare"),
    ]
    assert _findings(text, "docutils") == [
        # "git+https:" is no scheme docutils knows: no link, so no URL012 below.
        # ssh: is a link for docutils; the extractor scans no ssh: in prose.
        ("ssh://hg@hg.example.org/repo", 3, 7, "rst-link"),
        # docutils ends a standalone URI before "(...)".
        ("https://en.example.org/wiki/RSA_(cryptosystem", 5, 6, "rst-link"),
        # docutils' link is the first line; the appendix rejoins it (kept whole).
        ("http://example.com/a-b", 7, 6, "bare"),
    ]
    assert _diagnostics(text, "urlsift") == [
        (1, 25, "URL001", "https://exa_mple.com/x.git"),
        (1, 25, "URL012", "https://exa_mple.com/x.git"),
        (7, 6, "URL003", "http://example.com/a-b"),
    ]
    assert _diagnostics(text, "docutils") == [(7, 6, "URL003", "http://example.com/a-b")]


@needs_docutils
def test_a_link_the_extractor_missed_is_located_across_a_line_break() -> None:
    # A target URI longer than the extractor looks at (MAX_TARGET), over two lines, with a
    # scheme the extractor does not scan in prose: docutils joins it; it is found again.
    first, second = "ssh://bugs.example/" + "a" * 1100, "b" * 1100
    text = f"Intro.\n\n__ {first}\n   {second}\n"
    assert _findings(text, "urlsift") == []
    extracted = extract_document(text, "x.rst", "rst", ExtractOptions(rst_parser="docutils"))
    (finding,) = extracted.findings
    assert (finding.url, finding.line, finding.column) == (first + second, 3, 4)
    assert (finding.end_line, finding.end_column, finding.origin) == (4, 1104, "rst-target")
    assert finding.raw == f"{first}\n   {second}"


@needs_docutils
def test_local_links_and_anchors_are_the_extractors() -> None:
    text = "Usage\n=====\n\n.. _install:\n\nSee :doc:`guide` and `usage`_ and :ref:`install`.\n"
    default = extract_document(text, "x.rst", "rst")
    docutils = extract_document(text, "x.rst", "rst", ExtractOptions(rst_parser="docutils"))
    assert docutils.local_links == default.local_links
    assert docutils.local_links
    assert docutils.anchors == default.anchors == {"usage", "install"}
    assert docutils.labels == default.labels


@needs_docutils
def test_cli_option_and_config_key_pick_the_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.rst").write_text('Use "git+https://exa_mple.com/x.git" here.\n')
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    default = runner.invoke(main, ["lint", "a.rst"])
    assert default.exit_code == 1
    assert "a.rst:1:21: URL012" in default.stdout
    by_option = runner.invoke(main, ["lint", "--rst-parser", "docutils", "a.rst"])
    assert (by_option.exit_code, by_option.stdout) == (0, "")
    (tmp_path / "urlsift.toml").write_text('rst-parser = "docutils"\n')
    by_key = runner.invoke(main, ["lint", "a.rst"])
    assert (by_key.exit_code, by_key.stdout) == (0, "")
    overridden = runner.invoke(main, ["lint", "--rst-parser", "urlsift", "a.rst"])
    assert overridden.exit_code == 1
    (tmp_path / "urlsift.toml").write_text('rst-parser = "sphinx"\n')
    bad = runner.invoke(main, ["lint", "a.rst"])
    assert bad.exit_code == 2
    assert "rst-parser in" in bad.output
    assert 'must be "urlsift" or "docutils"' in bad.output


def test_docutils_mode_without_docutils_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(urlsift.lint.config, "docutils_available", lambda: False)
    (tmp_path / "a.rst").write_text("See https://example.com/.\n")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["lint", "--rst-parser", "docutils", "a.rst"])
    assert result.exit_code == 2
    assert "pip install 'urlsift[rst]'" in result.output
    (tmp_path / "urlsift.toml").write_text('rst-parser = "docutils"\n')
    result = runner.invoke(main, ["lint", "a.rst"])
    assert result.exit_code == 2
    assert "urlsift.toml" in result.output
    assert "pip install 'urlsift[rst]'" in result.output
    assert runner.invoke(main, ["lint", "--rst-parser", "urlsift", "a.rst"]).exit_code == 0


@needs_docutils
def test_a_document_docutils_cannot_read_falls_back_and_is_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # docutils refuses lines over its line_length_limit (10000): nothing would be a link.
    text = "See http://exa_mple.com/x.\n\n" + "word " * 2500 + "\n"
    default = extract_document(text, "x.rst", "rst")
    fallen = extract_document(text, "x.rst", "rst", ExtractOptions(rst_parser="docutils"))
    assert fallen.fallback
    assert not default.fallback
    assert fallen.findings == default.findings
    (tmp_path / "long.rst").write_text(text)
    (tmp_path / "fine.rst").write_text("See https://example.com/.\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["lint", "--rst-parser", "docutils", "."])
    assert result.exit_code == 1
    assert result.stdout == CliRunner().invoke(main, ["lint", "."]).stdout
    assert "long.rst:1:15: URL012" in result.stdout
    assert "docutils could not read 1 reST file; urlsift's extractor read it." in result.stderr


@needs_docutils
@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("nested lists", "".join("  " * i + "- item https://x.example/\n\n" for i in range(300))),
        ("nested quotes", "".join(" " * i + "text https://x.example/\n\n" for i in range(1500))),
        ("backticks", "`" * 20000 + "\n"),
        ("wrappers", "<URL:" * 20000),
        ("broken table", "+---+\n| a |\n+--\n| http://x.example/ |\n"),
        ("NUL", "a\x00b `x <http://a\x00b>`_ http://c.example/\x00\n"),
        ("unclosed", "`x <http://a.example/\n\n.. image::\n   :target:\n\n.. _t:\n"),
    ],
)
def test_hostile_documents_never_raise(name: str, text: str) -> None:
    extracted = extract_document(text, "x.rst", "rst", ExtractOptions(rst_parser="docutils"))
    # docutils gives up on deep nesting (RecursionError) and long lines: the extractor reads.
    assert extracted.fallback == (
        name in ("nested lists", "nested quotes", "backticks", "wrappers")
    )
    if extracted.fallback:
        assert extracted.findings == extract_document(text, "x.rst", "rst").findings


@needs_docutils
def test_no_registration_leaks_between_documents_or_into_docutils() -> None:
    from docutils.core import publish_doctree
    from docutils.parsers.rst import directives, roles

    before = (dict(directives._directives), dict(roles._roles))
    defines = (
        ".. role:: custom(code)\n\n.. default-role:: custom\n\n"
        ".. toctree::\n   :maxdepth: 2\n\n   https://toc.example/\n\n"
        "A :custom:`https://role.example/` and `https://default.example/` and "
        ":file:`x` and https://seen.example/.\n"
    )
    uses = ":custom:`https://role.example/` and `https://default.example/`\n"
    assert [f[0] for f in _findings(defines, "docutils")] == [
        "https://toc.example/",
        "https://seen.example/",
    ]
    for name in ("custom", "file", "", "toctree"):
        assert name not in roles._roles or name in before[1]
        assert name not in directives._directives or name in before[0]
    # docutils used directly still knows nothing of Sphinx or of the document's roles.
    messages = publish_doctree(
        ".. toctree::\n\n" + uses, settings_overrides={"report_level": 5}
    ).pformat()
    assert 'Unknown directive type "toctree"' in messages
    assert 'Unknown interpreted text role "custom"' in messages
    # Threads parsing different documents at once get what they get alone.
    texts = [STRUCTURE_CASE, defines, uses, "x https://a.example/ y\n"] * 4
    alone = [_findings(text, "docutils") for text in texts]
    results: list[object] = [None] * len(texts)

    def work(i: int) -> None:
        results[i] = _findings(texts[i], "docutils")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(texts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == alone


def test_lint_without_the_mode_never_imports_docutils(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from urlsift.lint.engine import lint_text\n"
        "lint_text('Title\\n=====\\n\\nSee `x <https://a.example/>`_.\\n', 'a.rst')\n"
        "import urlsift.cli.lint\n"
        "print('docutils' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert result.stdout.strip() == "False"


@needs_docutils
@pytest.mark.skipif(not SHARED_DOCS.is_dir(), reason="../shared/corpora/docs is absent")
@pytest.mark.parametrize("tree", ["psf+requests", "python+peps"])
def test_real_trees_give_the_pinned_findings_in_docutils_mode(
    tree: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_lint_docs_precision import REAL_TREES_EXPECTED

    monkeypatch.chdir(SHARED_DOCS / tree)
    result = CliRunner().invoke(main, ["lint", "--no-cache", "--rst-parser", "docutils", "."])
    assert result.exit_code in (0, 1), result.output
    found = [" ".join(line.split(" ", 2)[:2]) for line in result.stdout.splitlines()]
    assert found == REAL_TREES_EXPECTED[tree]
    assert "docutils could not read" not in result.stderr
