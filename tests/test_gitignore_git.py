"""The walks' ``.gitignore`` matching against git itself (issue 24 item 15).

Random trees with random ``.gitignore`` files at every level (anchored and unanchored
patterns, ``**`` in each place, negations, folder-only patterns, wildcards and classes)
are walked by :func:`urlsift.sources.walk.walk_files` and listed by ``git ls-files
--others --exclude-standard`` (untracked files that are not ignored): the two lists must
be equal. A deep tree (hundreds of levels, a ``.gitignore`` in each) is compared too.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from urlsift.sources.walk import repository_ignores, walk_files

GIT = shutil.which("git")
pytestmark = pytest.mark.skipif(GIT is None, reason="git is not installed")

NAMES = ["a", "b", "c.md", "d.log", "e1", "sub", "x.md"]
PATTERNS = [
    "*.md", "!x.md", "!c.md", "sub/", "/a", "a", "sub/b", "**/c.md", "sub/**", "!sub/",
    "sub/**/x.md", "e?", "[ab]", "!b", "*/d.log", "/sub/**/a", "**/sub/*.log", "!*.log",
    "e1/", "**/e1/**", "a/**/b", "*.log", "!e1", "x.*", "/*/x.md", "sub/*/", "b/", "!a/",
    "\\!b", "c.md ", "#a", "", "sub/sub", "!/sub/e1", "**", "!**/", "a*/", "**/b/**/c.md",
    "**/", "sub/**/", "/", "a\\ ", "*.md/", "!**/*.log", "sub//b", "/**/e1", "e*/**/d.log",
    "[!a]", "[a-c].md", "!sub/**/b/", "\\#a", "x.md/**", "**/**/a", " a",
]  # fmt: skip


def _git(root: Path, *args: str) -> str:
    assert GIT is not None
    home = str(root.parent)  # no user configuration (core.excludesFile) reaches the test
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": home, "XDG_CONFIG_HOME": home}
    return subprocess.run(
        [GIT, "-C", str(root), *args], check=True, capture_output=True, text=True, env=env
    ).stdout


def _make_tree(root: Path, rng: random.Random, depth: int) -> None:
    def fill(folder: Path, level: int) -> None:
        folder.mkdir(exist_ok=True)
        if rng.random() < 0.7:
            lines = rng.sample(PATTERNS, rng.randint(1, 5))
            (folder / ".gitignore").write_text("\n".join(lines) + "\n")
        for name in rng.sample(NAMES, rng.randint(2, len(NAMES))):
            if level < depth and rng.random() < 0.5:
                fill(folder / name, level + 1)
            else:
                (folder / name).write_text("x\n")

    fill(root, 0)


def _ours(root: Path) -> list[str]:
    from pathspec import GitIgnoreSpec

    found = walk_files(root, GitIgnoreSpec.from_lines([]), repository_ignores(root))
    return sorted(Path(path).relative_to(root).as_posix() for path in found)


def _theirs(root: Path, under: str = "") -> list[str]:
    listed = _git(root, "ls-files", "--others", "--exclude-standard", "-z", "--", under or ".")
    return sorted(name for name in listed.split("\0") if name)


@pytest.mark.parametrize("seed", range(60))
def test_random_trees_walk_as_git_lists(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    root = tmp_path / "repo"
    _make_tree(root, rng, depth=3)
    _git(root, "init", "-q")
    if rng.random() < 0.5:
        (root / ".git" / "info").mkdir(exist_ok=True)
        (root / ".git" / "info" / "exclude").write_text(rng.choice(PATTERNS) + "\n")
    assert _ours(root) == _theirs(root)


@pytest.mark.parametrize("seed", range(10))
def test_walks_starting_below_the_top_match_git(tmp_path: Path, seed: int) -> None:
    rng = random.Random(1000 + seed)
    root = tmp_path / "repo"
    _make_tree(root, rng, depth=3)
    _git(root, "init", "-q")
    folders = sorted(p for p in root.rglob("*") if p.is_dir() and ".git" not in p.parts)
    if not folders:
        return
    start = rng.choice(folders)
    under = start.relative_to(root).as_posix()
    expected = [name[len(under) + 1 :] for name in _theirs(root, under)]
    assert _ours(start) == sorted(expected)


def test_a_deep_tree_walks_as_git_lists(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    folder = root
    for level in range(300):
        folder.mkdir()
        (folder / ".gitignore").write_text(
            f"*.log\nbuild{level}/\n!keep{level}.md\n/only{level}.md\nsub/**/deep.md\n"
            + ("!*.log\n" if level % 7 == 0 else "")
        )
        for name in (f"f{level}.md", "x.log", f"keep{level}.md", f"only{level}.md", "deep.md"):
            (folder / name).write_text("x\n")
        (folder / f"build{level}").mkdir()
        (folder / f"build{level}" / "a.md").write_text("x\n")
        folder = folder / "sub"
    _git(root, "init", "-q")
    assert _ours(root) == _theirs(root)
