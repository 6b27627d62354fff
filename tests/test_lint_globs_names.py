"""Lint's globs tried on names with per-folder flags answer as ``pathspec`` on whole paths.

``Globs.matches_entry`` (issue 24 item 15) decides with the entry's name and, per
pattern, whether a folder above matched; ``Globs.matches`` asks ``pathspec``'s
``GitIgnoreSpec`` about the whole relative path. Random pattern lists that match in any
folder and random paths must get the same answers from both.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from urlsift.lint.walk import DEFAULT_INCLUDE, Globs

PATTERNS = [
    "*.md", "!*.md", "docs", "docs/", "!docs", "!docs/", "**/build", "build/", "*",
    "!keep.md", "keep.md", "[ab]*", "!a*", "?", "*.txt", "!*/", "**/x.md", "x.md/", "*/",
    "!build", "README", "d*s", "\\!bang",
]  # fmt: skip
NAMES = ["docs", "build", "a", "b", "keep.md", "x.md", "README", "z.txt", "dogs", "!bang", "c"]


def _walk_answer(globs: Globs, root: Path, parts: list[str], is_dir: bool) -> bool:
    flags = globs.folder_flags(root, None, None)
    folder = root
    for part in parts[:-1]:
        child = folder / part
        flags = globs.folder_flags(child, globs, flags)
        folder = child
    return globs.matches_entry(flags, folder, parts[-1], is_dir)


@pytest.mark.parametrize("seed", range(200))
def test_names_and_flags_answer_as_whole_paths(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    patterns = tuple(rng.sample(PATTERNS, rng.randint(1, 6)))
    globs = Globs(patterns, tmp_path)
    assert globs._regexes is not None
    for _ in range(30):
        parts = [rng.choice(NAMES) for _ in range(rng.randint(1, 4))]
        is_dir = rng.random() < 0.3
        whole = globs.matches(tmp_path.joinpath(*parts), is_dir)
        assert _walk_answer(globs, tmp_path, parts, is_dir) == whole, (patterns, parts, is_dir)


def test_the_default_globs_are_tried_on_names(tmp_path: Path) -> None:
    globs = Globs(DEFAULT_INCLUDE, tmp_path)
    assert globs._regexes is not None
    assert _walk_answer(globs, tmp_path, ["a", "b", "doc.md"], False)
    assert not _walk_answer(globs, tmp_path, ["a", "b", "doc.py"], False)


def test_anchored_globs_match_whole_paths(tmp_path: Path) -> None:
    globs = Globs(("docs/*.md",), tmp_path)
    assert globs.folder_flags(tmp_path, None, None) is None
    assert globs.matches_entry(None, tmp_path / "docs", "a.md", False)
    assert not globs.matches_entry(None, tmp_path / "x" / "docs", "a.md", False)
