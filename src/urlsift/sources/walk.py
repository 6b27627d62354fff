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
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # imported where a walk reads a .gitignore: scanning a file needs none
    from pathspec import GitIgnoreSpec

from . import BINARY_SNIFF_BYTES as BINARY_SNIFF_BYTES  # re-exported (defined there)

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


_Rule = tuple[int, bool]
"""A literal pattern: (order: a later rule wins, ignore (False: a ``!`` rule)); a rule for
folders only is kept under its name with a trailing ``/``."""

_GLOB_CHARS = re.compile(r"[*?\[\\]")


class Ignores:
    """The gitignore patterns that apply during a walk (deepest file wins, then the last line).

    Git's own matching, indexed so that deciding about a path does not grow with the
    number of ``.gitignore`` files above it: every pattern is kept relative to the top,
    with an order number (deeper files and later lines are larger: the largest that matches
    decides). A pattern without a ``/`` (other than a trailing one) matches a name at any
    depth: a literal one is found in a table of names, one with wildcards is tried on the
    name alone (the same wildcard written in many files is kept once, its last copy). A
    pattern with a ``/`` is anchored to its file's folder: a literal one is found in a table
    of paths, one with wildcards is rebased onto the top and tried on the path. Like git,
    a folder that is ignored is not entered, so a pattern matches the path itself, never a
    path below one it matched; a walk that starts inside an ignored folder ignores
    everything (:func:`repository_ignores`).
    """

    __slots__ = ("_globs", "_names", "_next", "_paths", "_prefix", "everything", "top")

    def __init__(self, top: Path) -> None:
        self.top = top
        self._prefix = os.path.join(top, "")
        self._names: dict[str, _Rule] = {}
        self._paths: dict[str, _Rule] = {}
        # (order, ignore, pattern, on the name alone), largest order first; by source
        self._globs: dict[str, tuple[int, bool, re.Pattern[str], bool]] = {}
        self._next = 0
        self.everything = False
        """True inside an ignored folder: every path is ignored."""

    def _relative(self, path: Path) -> str:
        text = str(path)
        rel = text[len(self._prefix) :] if text.startswith(self._prefix) else ""
        return rel.replace(os.sep, "/") if os.sep != "/" else rel

    def with_folder(self, folder: Path) -> Ignores:
        """The ignores in force inside ``folder`` (its ``.gitignore`` added, if any)."""
        if self.everything:
            return self
        lines = _read_lines(folder / ".gitignore")
        if not lines:
            return self
        rel = self._relative(folder)
        return self._with_lines(lines, f"{rel}/" if rel else "")

    def _with_lines(self, lines: list[str], base: str) -> Ignores:
        out = Ignores(self.top)
        out._names, out._paths, out._globs = dict(self._names), dict(self._paths), dict(self._globs)
        out._next = self._next
        for line in lines:
            out._add(line, base)
        return out

    def _add(self, line: str, base: str) -> None:
        if not line.strip() or line.startswith("#"):
            return
        ignore = not line.startswith("!")
        body = line if ignore else line[1:]
        if not _GLOB_CHARS.search(body):
            body = body.rstrip(" ")  # git drops unescaped trailing spaces
            dir_only = body.endswith("/")
            core = body.rstrip("/")
            if not core:
                return
            self._next += 1
            key = core.lstrip("/") + ("/" if dir_only else "")  # a folder-only rule apart
            table = self._paths if "/" in core else self._names
            table[(base + key) if table is self._paths else key] = (self._next, ignore)
            return
        inner = body.rstrip("/")
        if inner.startswith("**/") and "/" not in inner[3:]:
            body = body[3:]  # "**/x" is "x"
            inner = inner[3:]
        on_name = "/" not in inner
        source = body if on_name else "/" + _escape(base) + body.lstrip("/")
        pattern = _compile(source)
        if pattern is None:
            return
        self._next += 1
        self._globs.pop(source, None)
        self._globs[source] = (self._next, ignore, pattern, on_name)

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """True when the pattern that decides about ``path`` ignores it."""
        if self.everything:
            return True
        rel = self._relative(path)
        name = rel.rpartition("/")[2]
        best, verdict = 0, False
        rules = [self._names.get(name), self._paths.get(rel)]
        if is_dir:
            rules += [self._names.get(name + "/"), self._paths.get(rel + "/")]
        for rule in rules:
            if rule is not None and rule[0] > best:
                best, verdict = rule
        slash = "/" if is_dir else ""
        for order, ignore, pattern, on_name in reversed(self._globs.values()):
            if order > best and pattern.match((name if on_name else rel) + slash):
                best, verdict = order, ignore
                break  # the globs are in order: the first that matches is the latest
        return verdict


def _escape(base: str) -> str:
    return re.sub(r"([*?\[\\])", r"\\\1", base)


def _compile(line: str) -> re.Pattern[str] | None:
    from pathspec import GitIgnoreSpec  # (a fifth of the CLI's start-up when imported early)

    patterns = GitIgnoreSpec.from_lines([line]).patterns
    regex = getattr(patterns[0], "regex", None) if patterns else None
    return regex if isinstance(regex, re.Pattern) else None


def _read_lines(path: Path) -> list[str]:
    # Only a regular file is read, opened without blocking (a FIFO named .gitignore would
    # otherwise wait for a writer forever); whatever cannot be read holds no pattern.
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return []
    try:
        with os.fdopen(fd, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return []
            return stream.read().decode("utf-8", "surrogateescape").splitlines()
    except OSError:
        return []


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
        return Ignores(folder).with_folder(folder)
    ignores = Ignores(top)
    exclude = _read_lines(top / ".git" / "info" / "exclude")
    if exclude:
        ignores = ignores._with_lines(exclude, "")
    for part in reversed(chain[: chain.index(top) + 1]):
        if part != top and ignores.ignored(part, True):
            ignores = Ignores(top)
            ignores.everything = True  # a walk inside an ignored folder: all is ignored
            return ignores
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
    folder = Path(folder)
    for entry in entries:
        # folder / name: only the name is parsed (Path(entry.path) parses every level)
        try:
            if entry.is_dir(follow_symlinks=False):
                out.append((folder / entry.name, "dir"))
            elif entry.is_file():
                out.append((folder / entry.name, "file"))
            elif entry.is_symlink() and not os.path.exists(entry.path):
                out.append((folder / entry.name, "broken"))
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
