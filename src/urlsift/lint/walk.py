"""Which files ``urlsift lint`` reads, and reading them.

Strategy: explicit file arguments are always linted (any name, even ignored ones) unless
``force_exclude`` asks that ``exclude`` hold for them too (pre-commit names files);
folders are walked in sorted order, pruning version-control and tool folders
(:data:`SKIP_DIRS`), everything the ``.gitignore`` files ignore (git semantics:
:class:`~urlsift.sources.walk.Ignores`; each file's patterns are relative to its folder,
deeper files win, ``.git/info/exclude`` and the ``.gitignore`` files of the folders
between the repository's top and the walked folder count too), and what the
``exclude`` globs match; of the rest only documentation files are linted
(:data:`DEFAULT_INCLUDE`, or the ``include`` globs). Globs are gitignore-style, relative to
:attr:`WalkOptions.root` (the folder of the configuration file they came from); a path
outside that folder is matched by its name alone. The options may differ from folder to
folder (a configuration file in a subfolder governs what is beneath it): the walk asks for
each folder's options once. The walk's work per folder and per file does not grow with
the folder's depth (:class:`~urlsift.sources.walk.FolderBranch`; globs that match in any
folder are tried on names, :meth:`Globs.folder_flags`; anchored ones match the relative
path); a document is read, and the files beside it and above it examined
(:func:`is_file`, :class:`RealPaths`, the configuration and site look-ups), while the
walk holds its folder open: by name in the folder's descriptor
(:func:`~urlsift.sources.compress.stat_path`). Symbolic links to folders are not
followed, so a link loop cannot make the walk endless; links to files are read. Reading
is bounded: a file, device or pipe is never read past the size limit
(:data:`DEFAULT_MAX_FILE_SIZE`).
This module and :mod:`.engine` are the only parts of the linter that touch the file
system.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

from pathspec import GitIgnoreSpec

from ..sources.compress import is_link, open_fd, stat_in, stat_path
from ..sources.walk import BINARY_SNIFF_BYTES as BINARY_SNIFF_BYTES  # re-exported
from ..sources.walk import SKIP_DIRS as SKIP_DIRS  # re-exported: the folders lint never walks
from ..sources.walk import FolderBranch, Ignores, repository_ignores

DEFAULT_INCLUDE: tuple[str, ...] = (
    "*.md",
    "*.markdown",
    "*.mdx",
    "*.mdown",
    "*.mkd",
    "*.rst",
    "*.rest",
    "*.txt",
    "*.text",
    "*.html",
    "*.htm",
    "*.xhtml",
    "*.man",
    "*.[1-9]",
    "*.[1-9][a-z]",
    "*.[1-9][a-z][a-z]",
    "README",
    "NEWS",
    "CHANGES",
    "CHANGELOG",
    "HISTORY",
    "INSTALL",
    "AUTHORS",
    "CONTRIBUTORS",
    "THANKS",
    "COPYING",
    "LICENSE",
    "LICENCE",
    "NOTICE",
    "TODO",
    "BUGS",
    "FAQ",
)
"""Documents linted in folders unless ``include`` says otherwise (gitignore-style globs)."""


DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024
"""Largest file linted, in bytes (the ``max-file-size`` setting's default): a larger one
gets ``URL011`` and is not read whole, so memory stays bounded (extraction holds many
times a document's size at its peak: see ``benchmarks/bench_lint_memory.py``)."""


@dataclass(frozen=True, slots=True)
class Document:
    """A file to lint."""

    path: Path
    """Where to read it."""
    display: str
    """The path as reported: relative to the working folder when under it, else as
    given, with ``/`` separators."""
    explicit: bool
    """True when it was named on the command line (not found by walking a folder)."""
    problem: str | None = None
    """Why the walk could not read what is here (a folder it could not list, a symbolic
    link to nothing): the path is reported, not read. None for a document to read."""


@dataclass(frozen=True, slots=True)
class DocumentText:
    """A document's decoded text, or why there is none."""

    text: str | None
    """The text (UTF-8, BOM removed, undecodable bytes as lone surrogates), or None."""
    problem: str | None = None
    """Why the text could not be had (unreadable, binary, too large)."""
    binary: bool = False
    """True when the file looks binary."""
    too_large: bool = False
    """True when the file is larger than the size limit (it was not read whole)."""


def read_document(path: Path, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> DocumentText:
    """Read and decode a document; never raises for a bad file, never reads without bound.

    At most ``max_size + 1`` bytes are read, whatever the file is: a regular file larger
    than ``max_size`` (by its size) is not read past its first :data:`BINARY_SNIFF_BYTES`;
    a device or pipe (``/dev/zero``, a FIFO) is read until ``max_size`` is passed. A FIFO
    is opened without waiting for a writer (with none, it reads as empty).

    Args:
        path: the file.
        max_size: the largest file read, in bytes (None: no limit).

    Returns:
        The text, or the problem: a read error, a NUL byte in the first
        :data:`BINARY_SNIFF_BYTES` bytes (binary), or more than ``max_size`` bytes
        (too large).
    """
    try:
        fd = open_fd(str(path), os.O_RDONLY | _NONBLOCK)
        with os.fdopen(fd, "rb") as stream:
            if _NONBLOCK:
                os.set_blocking(fd, True)  # non-blocking only for the open of a FIFO
            head = stream.read(BINARY_SNIFF_BYTES)
            if b"\0" in head:
                return DocumentText(None, _BINARY, True)
            size = os.fstat(fd).st_size
            if max_size is not None and size > max_size:
                return _too_large(max_size)
            rest = stream.read() if max_size is None else stream.read(max_size + 1 - len(head))
    except OSError as exc:
        return DocumentText(None, f"cannot read the file: {exc.strerror or exc}")
    return _decode(head + rest, max_size)


def read_stream(stream: BinaryIO, max_size: int | None = DEFAULT_MAX_FILE_SIZE) -> DocumentText:
    """Read and decode a document from a byte stream (standard input), as :func:`read_document`.

    At most ``max_size + 1`` bytes are read.

    Args:
        stream: the stream.
        max_size: the largest document read, in bytes (None: no limit).

    Returns:
        The text, or the problem (binary, too large, a read error).
    """
    try:
        data = stream.read() if max_size is None else stream.read(max_size + 1)
    except OSError as exc:
        return DocumentText(None, f"cannot read the input: {exc.strerror or exc}")
    if b"\0" in data[:BINARY_SNIFF_BYTES]:
        return DocumentText(None, _BINARY, True)
    return _decode(data, max_size)


def _decode(data: bytes, max_size: int | None) -> DocumentText:
    if max_size is not None and len(data) > max_size:
        return _too_large(max_size)
    text = data.decode("utf-8", "surrogateescape")
    return DocumentText(text.removeprefix("\ufeff"))


# Opening a FIFO for reading waits for a writer unless it is opened non-blocking.
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_BINARY = f"binary file (a NUL byte in the first {BINARY_SNIFF_BYTES} bytes)"


def _too_large(max_size: int) -> DocumentText:
    problem = f"file larger than max-file-size ({max_size} bytes): not linted"
    return DocumentText(None, problem, too_large=True)


_ABSENT = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG, errno.ELOOP})
"""Errors of ``stat`` that prove a path names nothing (a name too long cannot exist)."""


def path_exists(path: Path | str) -> bool:
    """``path.exists()`` that never raises, for paths built from what documents say.

    A path that cannot name a file (too long, a NUL byte, a loop of links, a file used as
    a folder) does not exist; one that cannot be examined for another reason (a folder
    it may not search, an I/O error) is taken to exist: no finding is made of a doubt.
    """
    try:
        stat_path(str(path))
    except ValueError:  # a NUL byte
        return False
    except OSError as exc:
        return exc.errno not in _ABSENT
    return True


def is_file(path: Path | str) -> bool:
    """``path.is_file()`` that never raises (False for whatever cannot be examined)."""
    try:
        return stat.S_ISREG(stat_path(str(path)).st_mode)
    except (OSError, ValueError):
        return False


def is_file_in(folder: str, name: str) -> bool:
    """:func:`is_file` of ``name`` in ``folder`` (one look-up of the folder for many names:
    :func:`~urlsift.sources.compress.stat_in`)."""
    try:
        return stat.S_ISREG(stat_in(folder, name).st_mode)
    except (OSError, ValueError):
        return False


def is_dir(path: Path | str) -> bool:
    """``path.is_dir()`` that never raises (False for whatever cannot be examined: such a
    path is then read as a file, and reading it says what is wrong)."""
    try:
        return stat.S_ISDIR(stat_path(str(path)).st_mode)
    except (OSError, ValueError):
        return False


class RealPaths:
    """``path.resolve()`` at a cost that does not grow with the path's depth.

    ``Path.resolve`` examines every level of a path (an ``lstat`` each): for each document
    of a deep tree that is a cost per level, per file. Here a folder's real path is known
    once, from its parent's (is it a link? none asked of a folder a walk entered by name
    without following links, else one ``lstat``), and a file's is its folder's with its
    name (one ``lstat``, by name in the folder a walk holds open:
    :func:`~urlsift.sources.compress.is_link`). Paths are taken as absolute and normalized (``..``
    removed by their letters), as the walk and the link checker give them.
    """

    __slots__ = ("_folders",)

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}

    def __call__(self, path: Path) -> Path:
        """The real path of ``path`` (links resolved; what does not exist kept as written)."""
        absolute = os.path.abspath(path)
        folder, name = os.path.split(absolute)
        real = self._real(self._folder(folder), name)
        if real == absolute and path.is_absolute():
            return path  # (a Path made of the string would parse every folder of it)
        return Path(real)

    def _folder(self, folder: str) -> str:
        known = self._folders
        pending: list[str] = []
        current = folder
        while current not in known:
            parent, name = os.path.split(current)
            if parent == current or not name:  # the file system's root
                known[current] = current
                break
            pending.append(current)
            current = parent
        for path in reversed(pending):
            parent, name = os.path.split(path)
            known[path] = self._real(known[parent], name)
        return known[folder]

    @staticmethod
    def _real(folder: str, name: str) -> str:
        joined = os.path.join(folder, name)
        return os.path.realpath(joined) if is_link(joined) else joined  # never raise


def display_path(path: Path, given: str, cwd: Path) -> str:
    """Return how a path is reported: relative to ``cwd`` when under it, else as given.

    Args:
        path: the file (absolute or relative to ``cwd``).
        given: the path as it was spelled on the command line (or built from it).
        cwd: the working folder.

    Returns:
        The path with ``/`` separators.
    """
    absolute = path if path.is_absolute() else cwd / path
    try:
        rel = Path(os.path.normpath(absolute)).relative_to(Path(os.path.normpath(cwd)))
    except ValueError:
        return Path(given).as_posix()
    return rel.as_posix() or "."


@dataclass(frozen=True, slots=True)
class WalkOptions:
    """What a folder walk lints."""

    include: tuple[str, ...] | None = None
    """Globs of documents (None: :data:`DEFAULT_INCLUDE`)."""
    extend_include: tuple[str, ...] = ()
    """Globs added to the documents."""
    exclude: tuple[str, ...] = ()
    """Globs of files and folders skipped."""
    respect_gitignore: bool = True
    """Skip what ``.gitignore`` files ignore."""
    root: Path | None = None
    """The folder the globs are relative to (absolute; None: each folder given on the
    command line, and the working folder for files named there)."""
    force_exclude: bool = False
    """Apply ``exclude`` to the paths named on the command line too (they and their
    folders up to :attr:`root` are matched)."""


OptionsFor = Callable[[Path], WalkOptions]
"""The options that govern the entries of a folder (absolute path in, options out)."""


class Globs:
    """Gitignore-style globs relative to a folder, compiled once.

    A path under the folder is matched by its relative path; a path outside it by its name
    alone, against the patterns that hold no ``/`` (other than a trailing one), as a glob
    like ``*.md`` or ``build/`` matches in any folder.
    """

    __slots__ = ("_names", "_prefix", "_regexes", "_spec", "root")

    def __init__(self, patterns: tuple[str, ...], root: Path) -> None:
        self.root = root
        self._prefix = os.path.join(root, "")  # the root and a separator: a string test
        self._spec = GitIgnoreSpec.from_lines(patterns)
        self._names = GitIgnoreSpec.from_lines([p for p in patterns if unanchored(p)])
        self._regexes: list[tuple[bool, re.Pattern[str]]] | None = None
        """When every pattern matches in any folder: (include, regex) of each, tried on
        names (:meth:`matches_entry`); None: paths are matched whole."""
        if all(unanchored(p) for p in patterns):
            regexes = []
            for pattern in self._spec.patterns:
                regex = getattr(pattern, "regex", None)
                if pattern.include is None:
                    continue
                if not isinstance(regex, re.Pattern):
                    return
                regexes.append((pattern.include, regex))
            self._regexes = regexes

    def folder_flags(
        self,
        folder: Path,
        parent: Globs | None,
        parent_flags: tuple[bool, ...] | None,
        name: str = "",
    ) -> tuple[bool, ...] | None:
        """Which patterns match one of the folders from the root down to ``folder``, for
        :meth:`matches_entry` (from ``parent_flags`` when ``parent`` is these globs and
        ``folder`` its child named ``name``; None: paths are matched whole). (The name is
        the caller's: a deep Path of Python 3.13 parses its whole text for ``.name``.)

        A pattern that matches in any folder matches a path when it matches the path's
        name, or a folder above it (then as a folder: a lower priority, as ``pathspec``'s
        :class:`~pathspec.GitIgnoreSpec` ranks them); so a walk carries, per folder, which
        patterns matched a folder on the way and tries the patterns on names alone.
        """
        regexes = self._regexes
        if regexes is None:
            return None
        if parent is self and parent_flags is not None:
            name = (name or folder.name) + "/"
            return tuple(
                above or regex.search(name) is not None
                for above, (_include, regex) in zip(parent_flags, regexes, strict=True)
            )
        flags = [False] * len(regexes)
        text = str(folder)
        if text.startswith(self._prefix):  # (outside the root: names alone are matched)
            for part in text[len(self._prefix) :].split(os.sep):
                for index, (_include, regex) in enumerate(regexes):
                    flags[index] = flags[index] or regex.search(part + "/") is not None
        return tuple(flags)

    def matches_entry(
        self, flags: tuple[bool, ...] | None, folder: Path, name: str, is_dir: bool
    ) -> bool:
        """:meth:`matches` for the entry ``name`` of ``folder``, whose
        :meth:`folder_flags` are ``flags``."""
        regexes = self._regexes
        if flags is None or regexes is None:
            return self.matches(folder / name, is_dir)
        name += "/" if is_dir else ""
        verdict, rank = False, 0
        for index in range(len(regexes) - 1, -1, -1):
            include, regex = regexes[index]
            found = regex.search(name)
            if found is not None:
                priority = 1 if found.groupdict().get("ps_d") else 2
            elif flags[index]:
                priority = 1
            else:
                continue
            if priority > rank:
                verdict, rank = include, priority
                if priority == 2:
                    break
        return verdict

    def matches(self, path: Path, is_dir: bool) -> bool:
        """Return True when ``path`` (absolute, normalized) matches."""
        suffix = "/" if is_dir else ""
        text = str(path)
        if not text.startswith(self._prefix):
            return path != self.root and self._names.match_file(path.name + suffix)
        rel = text[len(self._prefix) :]
        if os.sep != "/":  # pragma: no cover - Windows
            rel = rel.replace(os.sep, "/")
        return self._spec.match_file(rel + suffix)


def unanchored(pattern: str) -> bool:
    """Return True when a gitignore-style glob matches in any folder (no inner ``/``)."""
    body = pattern.removeprefix("!").rstrip("/")
    return "/" not in body.removeprefix("**/")


@lru_cache(maxsize=256)
def _matchers(options: WalkOptions, walked: Path) -> tuple[Globs, Globs]:
    root = options.root or walked
    include = (options.include if options.include is not None else DEFAULT_INCLUDE) + (
        options.extend_include
    )
    return Globs(include, root), Globs(options.exclude, root)


def force_excluded(path: Path, options_for: OptionsFor, cwd: Path) -> bool:
    """Return True when ``exclude`` (with ``force_exclude`` set) drops a named path.

    The path and each of its folders are matched against the options of the folder that
    holds them, up to the folder the globs are relative to (as ruff's ``--force-exclude``).

    Args:
        path: the absolute path named on the command line.
        options_for: the options of each folder.
        cwd: the working folder (the root of options without one).
    """
    current = path
    directory = is_dir(path)
    while current.parent != current:
        options = options_for(current.parent)
        if not options.force_exclude:
            return False
        root = options.root or cwd
        if current == root:
            return False
        if _matchers(options, root)[1].matches(current, directory):
            return True
        if root not in current.parents:
            return False  # outside the globs' folder: its name alone was matched
        current, directory = current.parent, True
    return False


def iter_documents(
    paths: Sequence[str], options: WalkOptions | OptionsFor, cwd: Path | None = None
) -> Iterator[Document]:
    """Yield the documents to lint, each once, in command-line then sorted walk order.

    Args:
        paths: files and folders as given on the command line (must exist).
        options: what to lint in folders: the same for every folder, or a function that
            gives each folder's options (:data:`OptionsFor`).
        cwd: the working folder (default: the process's).

    Returns:
        An iterator of documents.
    """
    cwd = cwd or Path.cwd()
    options_for: OptionsFor = options if callable(options) else (lambda _folder: options)
    seen: set[str] = set()  # (paths as strings: a Path hashes every level)
    for given in paths:
        path = Path(given)
        absolute = Path(os.path.abspath(cwd / path))
        if force_excluded(absolute, options_for, cwd):
            continue
        if is_dir(absolute):
            for found, text, display, problem in _found(absolute, given, cwd, options_for):
                if text not in seen:
                    seen.add(text)
                    yield Document(found, display, False, problem)
        elif str(absolute) not in seen:
            seen.add(str(absolute))
            yield Document(absolute, display_path(absolute, given, cwd), True)


def _found(
    root: Path, given: str, cwd: Path, options_for: OptionsFor
) -> Iterator[tuple[Path, str, str, str | None]]:
    # The walk's paths with how each is shown (display_path's answer): each is the
    # folder's path and a part below it, shown as the folder is with that part joined, or
    # by the part below the working folder when that is inside the walked one (no path
    # parsed again per file).
    base = display_path(root, given, cwd)
    base = "" if base == "." else base.rstrip("/") + "/"
    prefix = os.path.join(root, "")
    here = os.path.normpath(cwd)
    inner = here[len(prefix) :].replace(os.sep, "/") + "/" if here.startswith(prefix) else ""
    for found, text, problem in _walk(root, options_for, repository_ignores(root)):
        rel = text[len(prefix) :]
        if os.sep != "/":  # pragma: no cover - Windows
            rel = rel.replace(os.sep, "/")
        if not rel or (inner and (rel + "/").startswith(inner)):
            display = display_path(found, given, cwd)  # (the walked or working folder)
        elif inner and rel.startswith(inner):
            display = rel[len(inner) :]
        else:
            display = base + rel
        yield found, text, display, problem


def _walk(
    root: Path, options_for: OptionsFor, ignores: Ignores
) -> Iterator[tuple[Path, str, str | None]]:
    # Depth first in sorted order, without recursion (a branch of open folders), so any
    # depth is walked. Yields (file, its path as a string, None) for a document to lint
    # and (path, string, problem) for a folder that cannot be listed or a link to nothing
    # where a document would be. (The string is the branch's, joined with the name: a
    # Path's string joins every level again.)
    with FolderBranch() as branch:
        problem = branch.open(str(root), None)
        if problem is not None:
            yield root, str(root), problem
            return
        branch.stack[-1].state = _Folder.make(root, root, options_for, ignores, None)
        stack = branch.stack
        while stack:
            top = stack[-1]
            folder: _Folder = top.state
            item = next(top.entries, None)
            if item is None:
                branch.leave()
                continue
            name, kind = item
            if kind == "dir":
                if name in SKIP_DIRS or folder.exclude.matches_entry(
                    folder.exclude_flags, folder.path, name, True
                ):
                    continue
                if folder.gitignore and folder.ignores.ignores(name, True):
                    continue
                problem = branch.enter(name, None)
                if problem is not None:
                    text = os.path.join(top.path, name)
                    yield folder.path / name, text, f"cannot list the folder: {problem}"
                    continue
                inner = folder.ignores.enter(name, branch.read_gitignore())
                path = folder.path / name
                stack[-1].state = _Folder.make(root, path, options_for, inner, folder, name)
                continue
            if folder.exclude.matches_entry(folder.exclude_flags, folder.path, name, False):
                continue
            if not folder.include.matches_entry(folder.include_flags, folder.path, name, False):
                continue
            if folder.gitignore and folder.ignores.ignores(name, False):
                continue
            yield (
                folder.path / name,
                os.path.join(top.path, name),
                ("cannot read the file: a symbolic link to nothing" if kind == "broken" else None),
            )


@dataclass(slots=True)
class _Folder:
    """A folder being walked: what decides about its entries."""

    path: Path
    include: Globs
    exclude: Globs
    include_flags: tuple[bool, ...] | None
    exclude_flags: tuple[bool, ...] | None
    gitignore: bool
    ignores: Ignores

    @staticmethod
    def make(
        root: Path,
        path: Path,
        options_for: OptionsFor,
        ignores: Ignores,
        parent: _Folder | None,
        name: str = "",
    ) -> _Folder:
        """The state of ``path`` (named ``name`` in its parent), from its parent's (None:
        ``path`` is the walk's root)."""
        options = options_for(path)
        include, exclude = _matchers(options, root)
        if parent is None:
            include_flags = include.folder_flags(path, None, None)
            exclude_flags = exclude.folder_flags(path, None, None)
        else:
            include_flags = include.folder_flags(path, parent.include, parent.include_flags, name)
            exclude_flags = exclude.folder_flags(path, parent.exclude, parent.exclude_flags, name)
        return _Folder(
            path, include, exclude, include_flags, exclude_flags, options.respect_gitignore, ignores
        )
