"""Which files urlsift lint reads: document set, .gitignore (nested, negated), globs, links."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from urlsift.lint.walk import WalkOptions, iter_documents, read_document


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _walk(root: Path, paths: list[str] | None = None, **options: object) -> list[str]:
    docs = iter_documents(paths or ["."], WalkOptions(**options), cwd=root)  # type: ignore[arg-type]
    return [d.display for d in docs]


def test_default_set_gitignore_and_skipped_folders(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".git/HEAD": "",
            ".git/info/exclude": "secret.md\n",
            ".gitignore": "*.log.md\nbuild/\n",
            "a.md": "",
            "b.rst": "",
            "c.py": "",
            "README": "",
            "tool.1": "",
            "perl.3pm": "",
            "x.log.md": "",
            "secret.md": "",
            "build/out.md": "",
            "node_modules/m.md": "",
            "sub/.gitignore": "*.txt\n!keep.txt\n",
            "sub/drop.txt": "",
            "sub/keep.txt": "",
        },
    )
    assert _walk(tmp_path) == [
        "README",
        "a.md",
        "b.rst",
        "perl.3pm",
        "sub/keep.txt",
        "tool.1",
    ]
    everything = _walk(tmp_path, respect_gitignore=False)
    assert "x.log.md" in everything
    assert "build/out.md" in everything
    assert "node_modules/m.md" not in everything


def test_gitignore_of_parent_folders_applies(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {".git/HEAD": "", ".gitignore": "docs/old/\n", "docs/old/a.md": "", "docs/b.md": ""},
    )
    assert _walk(tmp_path, ["docs"]) == ["docs/b.md"]


def test_include_exclude_and_explicit_files(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.md": "", "b.tex": "", "gen/c.md": "", "d.md": ""})
    assert _walk(tmp_path, include=("*.tex",)) == ["b.tex"]
    assert _walk(tmp_path, extend_include=("*.tex",), exclude=("gen/", "d.md")) == [
        "a.md",
        "b.tex",
    ]
    # Explicit files are always linted, once, whatever their name.
    assert _walk(tmp_path, ["b.tex", "b.tex", "gen/c.md"], exclude=("gen/",)) == [
        "b.tex",
        "gen/c.md",
    ]


def test_paths_outside_the_working_folder_are_shown_as_given(tmp_path: Path) -> None:
    _tree(tmp_path, {"in/a.md": "", "out/b.md": ""})
    docs = iter_documents([str(tmp_path / "out")], WalkOptions(), cwd=tmp_path / "in")
    assert [d.display for d in docs] == [(tmp_path / "out").as_posix() + "/b.md"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_symlink_loop_does_not_hang(tmp_path: Path) -> None:
    _tree(tmp_path, {"d/a.md": ""})
    (tmp_path / "d" / "loop").symlink_to(tmp_path / "d", target_is_directory=True)
    (tmp_path / "d" / "link.md").symlink_to(tmp_path / "d" / "a.md")
    assert _walk(tmp_path) == ["d/a.md", "d/link.md"]


def test_read_document(tmp_path: Path) -> None:
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfhi \xff")
    (tmp_path / "bin.txt").write_bytes(b"a\0b")
    assert read_document(tmp_path / "bom.txt").text == "hi \udcff"
    assert read_document(tmp_path / "bin.txt").binary
    missing = read_document(tmp_path / "missing.txt")
    assert missing.text is None
    assert missing.problem is not None
