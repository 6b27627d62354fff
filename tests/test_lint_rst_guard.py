"""``--rst-parser docutils`` is bounded per file (issue 24 item 13): a document larger than
``DOCUTILS_MAX_BYTES`` is read by urlsift's extractor, and the summary says so."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from urlsift.cli import main
from urlsift.lint.extract_rst_docutils import DOCUTILS_MAX_BYTES, extract_rst_docutils
from urlsift.lint.findings import ExtractOptions

pytest.importorskip("docutils")


def _anonymous(n: int) -> str:
    return "".join(
        f"`l{i} <http://x{i}.example/>`__\n\n__ http://y{i}.example/\n\n" for i in range(n)
    )


def test_a_document_over_the_limit_is_not_given_to_docutils(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from urlsift.lint import extract_rst_docutils as module

    calls: list[int] = []
    real = module.docutils_links

    def counting(text: str, schemes: object) -> object:
        calls.append(len(text))
        return real(text, schemes)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "docutils_links", counting)
    big = _anonymous(DOCUTILS_MAX_BYTES // 40 + 10)
    assert len(big.encode()) > DOCUTILS_MAX_BYTES
    result = extract_rst_docutils(big, "big.rst", ExtractOptions(rst_parser="docutils"))
    assert result.fallback
    assert calls == []
    assert len(result.findings) > 2 * (DOCUTILS_MAX_BYTES // 40)  # the extractor read it all
    small = extract_rst_docutils(_anonymous(10), "s.rst", ExtractOptions(rst_parser="docutils"))
    assert not small.fallback
    assert len(calls) == 1


def test_wide_characters_count_as_their_utf8_bytes() -> None:
    text = "é" * (DOCUTILS_MAX_BYTES // 2 + 1)  # fewer characters than the limit, more bytes
    assert extract_rst_docutils(text, "w.rst", ExtractOptions(rst_parser="docutils")).fallback


def test_the_summary_says_docutils_did_not_read_it(tmp_path: Path) -> None:
    (tmp_path / "big.rst").write_text(_anonymous(DOCUTILS_MAX_BYTES // 40 + 10))
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(main, ["lint", "--rst-parser", "docutils", "big.rst"])
    finally:
        os.chdir(old)
    assert "docutils could not read 1 reST file; urlsift's extractor read it." in result.stderr
    assert "256 KiB" in result.stderr
