"""The indexed ``.gitignore`` matcher of the walks (issue 24 item 15): git's answers, and a
cost per path that does not grow with the number of ``.gitignore`` files above it."""

from __future__ import annotations

from pathlib import Path

import pytest

from urlsift.sources.walk import Ignores, repository_ignores, walk_files


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _walked(root: Path) -> list[str]:
    from pathspec import GitIgnoreSpec

    found = walk_files(root, GitIgnoreSpec.from_lines([]), repository_ignores(root))
    return sorted(Path(p).relative_to(root).as_posix() for p in found)


def test_git_semantics(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    _tree(
        tmp_path,
        {
            ".gitignore": "*.log\nbuild/\n/top.md\nsub/anchored.md\n!keep.log\nname\n",
            "a.log": "",
            "keep.log": "",
            "top.md": "",
            "build/x.md": "",
            "build.md": "",
            "name": "",
            "sub/top.md": "",  # /top.md is anchored to the root
            "sub/anchored.md": "",
            "sub/build": "",  # build/ ignores folders only
            "sub/name/y.md": "",  # "name" ignores folders and files
            "sub/.gitignore": "!a.log\n*.md\n!ok.md\n[xy].txt\n",
            "sub/a.log": "",  # the deeper file re-includes it
            "sub/b.log": "",
            "sub/ok.md": "",
            "sub/x.txt": "",
            "sub/z.txt": "",
            "sub/deep/c.md": "",  # *.md from sub/ holds below it
            "other/c.md": "",  # but not beside it
        },
    )
    assert _walked(tmp_path) == [
        ".gitignore",
        "build.md",
        "keep.log",
        "other/c.md",
        "sub/.gitignore",
        "sub/a.log",
        "sub/build",
        "sub/ok.md",
        "sub/z.txt",
    ]


def test_a_walk_inside_an_ignored_folder_ignores_everything(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    _tree(tmp_path, {".gitignore": "build/\n", "build/sub/a.md": ""})
    assert _walked(tmp_path / "build" / "sub") == []


def test_names_with_wildcard_characters_in_folders_are_escaped(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    _tree(tmp_path, {"[ab]*/.gitignore": "x/*.md\n", "[ab]*/x/a.md": "", "[ab]*/x/a.txt": ""})
    assert _walked(tmp_path) == ["[ab]*/.gitignore", "[ab]*/x/a.txt"]


@pytest.mark.parametrize("depth", [50, 400])
def test_deciding_tries_the_same_wildcards_at_any_depth(tmp_path: Path, depth: int) -> None:
    # The same wildcard in every .gitignore is tried once, not once per file that says
    # it; the literal patterns are looked up by name; the state of a folder is made
    # from its parent's and its own lines (no path of the folder is needed).
    ignores = Ignores(tmp_path)
    for level in range(depth):
        ignores = ignores.enter("d", ["*.log", f"build{level}/", f"!keep{level}.md", "/x*/y"])
    assert not ignores.ignores("f.md", False)
    assert ignores.ignores("f.log", False)
    assert ignores.ignores(f"build{depth - 1}", True)
    assert ignores.ignores("build0", True)
    assert not ignores.ignores(f"build{depth - 1}", False)
    assert len(ignores._tables.globs) == 1
    assert len(ignores._live) == 1  # /x*/y: only this folder's copy can still match
