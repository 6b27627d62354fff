"""Walking folders: what ``urlsift lint`` and ``urlsift scan`` share.

Both skip the same folders (:data:`SKIP_DIRS`) and read ``.gitignore`` files the same way
(:class:`Ignores`, :func:`repository_ignores`); lint walks with per-folder options of its
own (:mod:`urlsift.lint.walk`), scan with :func:`walk_files`.

Promises of :func:`walk_files`: entries are visited in sorted name order, so a walk is the
same on every run and machine; version-control and tool folders are never entered; what
``.gitignore`` files ignore is skipped with git's semantics (through ``pathspec``'s
:class:`~pathspec.GitIgnoreSpec`: each file's patterns are relative to its folder, deeper
files win, ``.git/info/exclude`` and the ``.gitignore`` files of the folders between the
repository's top and the walked folder count too); ``exclude`` globs (gitignore-style,
relative to the walked folder) drop files and folders. Symbolic links to folders are not
followed, so a link loop cannot make a walk endless; links to files are yielded. A caller
can stop the walk at a folder and take it whole (``leaf``: a Maildir inside a folder of
documents is one archive). Nothing is read but folder listings and ``.gitignore`` files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where a walk reads a .gitignore: scanning a file needs none
    from pathspec import GitIgnoreSpec

BINARY_SNIFF_BYTES = 8192
"""A file with a NUL byte among its first this many (decompressed) bytes is binary: lint
and scan skip it in folders."""

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".bzr",
        "_darcs",
        ".venv",
        "venv",
        "node_modules",
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
    }
)
"""Folders never walked into (they can still be given explicitly as files' parents)."""


class Ignores:
    """The gitignore patterns that apply during a walk (deepest file wins)."""

    def __init__(self, top: Path, specs: list[tuple[PurePosixPath, GitIgnoreSpec]]) -> None:
        self.top = top
        self.specs = specs

    def with_folder(self, folder: Path) -> Ignores:
        """The ignores in force inside ``folder`` (its ``.gitignore`` added, if any)."""
        gitignore = folder / ".gitignore"
        spec = _read_spec(gitignore)
        if spec is None:
            return self
        base = PurePosixPath(folder.relative_to(self.top).as_posix())
        return Ignores(self.top, [*self.specs, (base, spec)])

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """True when the deepest pattern that decides about ``path`` ignores it."""
        rel = PurePosixPath(path.relative_to(self.top).as_posix())
        for base, spec in reversed(self.specs):
            if base != PurePosixPath(".") and base not in rel.parents:
                continue
            sub = rel.relative_to(base).as_posix()
            result = spec.check_file(sub + "/" if is_dir else sub)
            if result.include is not None:
                return bool(result.include)
        return False


def _read_spec(path: Path) -> GitIgnoreSpec | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    except OSError:
        return None
    from pathspec import GitIgnoreSpec  # (a fifth of the CLI's start-up when imported early)

    return GitIgnoreSpec.from_lines(lines)


def repository_ignores(folder: Path) -> Ignores:
    """The ignores in force at ``folder``: from the repository's top down to it.

    Args:
        folder: an absolute folder path.

    Returns:
        The ignore patterns (only ``folder``'s own ``.gitignore`` outside a repository).
    """
    chain = [folder, *folder.parents]
    top = next((p for p in chain if (p / ".git").exists()), None)
    if top is None:
        return Ignores(folder, []).with_folder(folder)
    exclude = _read_spec(top / ".git" / "info" / "exclude")
    ignores = Ignores(top, [] if exclude is None else [(PurePosixPath("."), exclude)])
    for part in reversed(chain[: chain.index(top) + 1]):
        ignores = ignores.with_folder(part)
    return ignores


def folder_entries(folder: Path) -> Iterator[tuple[Path, bool]]:
    """Yield ``(path, is_dir)`` for the folders and files in ``folder``, sorted by name.

    Links to folders count as neither (they are not followed), links to files as files;
    entries that vanish or cannot be examined are left out, and an unreadable folder holds
    nothing.
    """
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return
    for entry in entries:
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
            is_file = not is_dir and entry.is_file()
        except OSError:
            continue
        if is_dir or is_file:
            yield Path(entry.path), is_dir


def walk_files(
    root: Path,
    exclude: GitIgnoreSpec,
    ignores: Ignores | None,
    leaf: Callable[[Path], bool] | None = None,
) -> Iterator[Path]:
    """Yield the files under ``root`` in sorted walk order (see the module notes).

    Args:
        root: an absolute folder path; globs are relative to it.
        exclude: globs of files and folders skipped.
        ignores: the ``.gitignore`` patterns in force at ``root`` (None: none apply).
        leaf: called on each folder met below ``root``; when true, the folder itself is
            yielded (in its sorted place) and not walked into.

    Returns:
        An iterator of absolute paths.
    """
    return _walk(root, root, exclude, ignores, leaf)


def _walk(
    root: Path,
    folder: Path,
    exclude: GitIgnoreSpec,
    ignores: Ignores | None,
    leaf: Callable[[Path], bool] | None,
) -> Iterator[Path]:
    for path, is_dir in folder_entries(folder):
        rel = path.relative_to(root).as_posix()
        if is_dir:
            if path.name in SKIP_DIRS or exclude.match_file(rel + "/"):
                continue
            if ignores is not None and ignores.ignored(path, True):
                continue
            if leaf is not None and leaf(path):
                yield path
                continue
            inner = ignores.with_folder(path) if ignores is not None else None
            yield from _walk(root, path, exclude, inner, leaf)
        else:
            if exclude.match_file(rel):
                continue
            if ignores is not None and ignores.ignored(path, False):
                continue
            yield path
