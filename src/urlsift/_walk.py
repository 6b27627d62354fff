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
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Literal

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
    """The gitignore patterns that apply during a walk (deepest file wins).

    Each ``.gitignore`` is kept with its folder as a string prefix relative to the top
    (``"docs/api/"``), so deciding about a path costs one string test and one match per
    file in force, and no path object per level: a path ``d`` folders deep is decided in
    time linear in ``d`` (the walk, which visits ``d`` folders, quadratic; not the cubic
    of comparing path objects level by level).
    """

    __slots__ = ("_prefix", "specs", "top")

    def __init__(self, top: Path, specs: list[tuple[str, GitIgnoreSpec]]) -> None:
        self.top = top
        self._prefix = os.path.join(top, "")
        self.specs = specs
        """(folder relative to ``top`` with a trailing ``/``, or ``""`` for ``top``;
        its patterns), shallowest first."""

    def _relative(self, path: Path) -> str:
        text = str(path)
        rel = text[len(self._prefix) :] if text.startswith(self._prefix) else ""
        return rel.replace(os.sep, "/") if os.sep != "/" else rel

    def with_folder(self, folder: Path) -> Ignores:
        """The ignores in force inside ``folder`` (its ``.gitignore`` added, if any)."""
        spec = _read_spec(folder / ".gitignore")
        if spec is None:
            return self
        rel = self._relative(folder)
        return Ignores(self.top, [*self.specs, (f"{rel}/" if rel else "", spec)])

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """True when the deepest pattern that decides about ``path`` ignores it."""
        rel = self._relative(path)
        slash = "/" if is_dir else ""
        for base, spec in reversed(self.specs):
            if base and not rel.startswith(base):
                continue
            result = spec.check_file(rel[len(base) :] + slash)
            if result.include is not None:
                return bool(result.include)
        return False


def _read_spec(path: Path) -> GitIgnoreSpec | None:
    # Only a regular file is read, opened without blocking (a FIFO named .gitignore would
    # otherwise wait for a writer forever).
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return None
    try:
        with os.fdopen(fd, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return None
            lines = stream.read().decode("utf-8", "surrogateescape").splitlines()
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
    top = next((p for p in chain if os.path.lexists(p / ".git")), None)  # never raises
    if top is None:
        return Ignores(folder, []).with_folder(folder)
    exclude = _read_spec(top / ".git" / "info" / "exclude")
    ignores = Ignores(top, [] if exclude is None else [("", exclude)])
    for part in reversed(chain[: chain.index(top) + 1]):
        ignores = ignores.with_folder(part)
    return ignores


EntryKind = Literal["dir", "file", "broken"]
"""A folder entry worth a walk's attention: a folder (not a link to one), a file (or a link
to one), or a symbolic link to nothing."""


def list_folder(folder: Path) -> tuple[list[tuple[Path, EntryKind]], str | None]:
    """The entries of ``folder`` sorted by name, and why it cannot be listed (or None).

    Links to folders are left out (they are not followed), links to files are files, and
    so are other entries but folders; an entry that vanishes or cannot be examined is
    left out. Never raises.
    """
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except (OSError, ValueError) as exc:
        return [], _reason(exc)
    out: list[tuple[Path, EntryKind]] = []
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                out.append((Path(entry.path), "dir"))
            elif entry.is_file():
                out.append((Path(entry.path), "file"))
            elif entry.is_symlink() and not os.path.exists(entry.path):
                out.append((Path(entry.path), "broken"))
        except OSError:
            continue
    return out, None


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


def folder_entries(folder: Path) -> Iterator[tuple[Path, bool]]:
    """Yield ``(path, is_dir)`` for the folders and files in ``folder``, sorted by name.

    As :func:`list_folder` (broken links left out); an unreadable folder holds nothing.
    """
    for path, kind in list_folder(folder)[0]:
        if kind != "broken":
            yield path, kind == "dir"


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
    # Depth first without recursion (a stack of listings): any depth of folders is walked.
    prefix = os.path.join(root, "")
    stack = [(iter(list(folder_entries(folder))), ignores)]
    while stack:
        entries, ignores = stack[-1]
        item = next(entries, None)
        if item is None:
            stack.pop()
            continue
        path, is_dir = item
        rel = str(path)[len(prefix) :].replace(os.sep, "/")
        if is_dir:
            if path.name in SKIP_DIRS or exclude.match_file(rel + "/"):
                continue
            if ignores is not None and ignores.ignored(path, True):
                continue
            if leaf is not None and leaf(path):
                yield path
                continue
            inner = ignores.with_folder(path) if ignores is not None else None
            stack.append((iter(list(folder_entries(path))), inner))
        else:
            if exclude.match_file(rel):
                continue
            if ignores is not None and ignores.ignored(path, False):
                continue
            yield path
