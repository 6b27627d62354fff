"""Walking folders: what ``urlsift lint`` and ``urlsift scan`` share.

Both skip the same folders (:data:`SKIP_DIRS`), hold the folders of their branch open the
same way (:class:`FolderBranch`) and read ``.gitignore`` files the same way
(:class:`Ignores`, :func:`repository_ignores`); lint walks with per-folder options of its
own (:mod:`urlsift.lint.walk`), scan with :func:`walk_files`.

Promises of :func:`walk_files`: entries are visited in sorted name order, so a walk is the
same on every run and machine; version-control and tool folders are never entered; what
``.gitignore`` files ignore is skipped with git's semantics (each file's patterns are
relative to its folder, deeper files win, then later lines, a folder ignored is not
entered so nothing below it is re-included; ``.git/info/exclude`` and the ``.gitignore``
files of the folders between the repository's top and the walked folder count too;
``core.excludesFile`` does not; wildcards are ``pathspec``'s translation; compared with
``git ls-files`` in ``tests/test_gitignore_git.py``); ``exclude`` globs (gitignore-style,
relative to the walked folder) drop files and folders. Symbolic links to folders are not
followed, so a link loop cannot make a walk endless; links to files are yielded. A caller
can stop the walk at a folder and take it whole (``leaf``: a Maildir inside a folder of
documents is one archive). Nothing is read but folder listings and ``.gitignore`` files.

Cost (issue 24 item 15): what a walk does per folder and per entry takes the entry's name,
not its path, so it does not grow with the depth of the folder: folders are opened by
name in their parent's descriptor (:class:`FolderBranch`), ``.gitignore`` patterns are
advanced folder by folder (:class:`Ignores`), a relative path is built only for
``exclude`` globs. Only the paths yielded are whole (a string as long as the path). What
the caller then does with a path it was given (sniff it, read it, look for a
configuration beside it or a site above it) costs no more with depth either: the walk
holds the last folders of its branch open and lets :mod:`.compress` open and examine a
path in one of them by name in its descriptor (:func:`~.compress.hold_folder`).
"""

from __future__ import annotations

import os
import re
import stat
from bisect import insort
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # imported where a walk reads a .gitignore: scanning a file needs none
    from pathspec import GitIgnoreSpec

from . import BINARY_SNIFF_BYTES as BINARY_SNIFF_BYTES  # re-exported (defined there)
from .compress import hold_folder, release_folder

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


_Seg = tuple[str, "re.Pattern[str] | None"]
"""A segment of a pattern: (its text, the regex of a wildcard segment; None for a literal
name or ``**``)."""

_ANY_DEPTH: _Seg = ("**", None)

_Live = tuple[int, bool, bool, tuple[_Seg, ...]]
"""A pattern still able to match below a folder: (order, ignore, folder-only, the segments
the names below the folder must still match)."""

_GLOB_CHARS = re.compile(r"[*?\[\\]")


class _Tables:
    """The patterns that match at any depth below the folders of one walk's current branch.

    A pattern ``x`` (or ``**/x``, or the rest of ``a/**/x`` once ``a`` is entered) holds
    in its folder and every folder below: it is kept in a table of names (a literal) or of
    wildcards (one entry per wildcard text, its copies stacked by order), added when the
    walk enters the folder and removed when it leaves it. The tables are shared by the
    states of one walk: :meth:`activate` brings them to a state's branch (in a
    depth-first walk, one step; any other order replays the layers between).
    """

    __slots__ = ("chain", "globs", "names")

    def __init__(self) -> None:
        self.chain: list[Ignores] = []
        self.names: dict[str, list[tuple[int, bool]]] = {}
        self.globs: dict[str, list[tuple[int, bool, re.Pattern[str] | None, bool]]] = {}

    def activate(self, state: Ignores) -> None:
        chain = self.chain
        if chain and chain[-1] is state:
            return
        path: list[Ignores] = []
        node: Ignores | None = state
        while node is not None and not (node._level < len(chain) and chain[node._level] is node):
            path.append(node)
            node = node._parent
        keep = 0 if node is None else node._level + 1
        while len(chain) > keep:
            self._apply(chain.pop(), remove=True)
        for node in reversed(path):
            self._apply(node, remove=False)
            chain.append(node)

    def _apply(self, state: Ignores, remove: bool) -> None:
        for key, item in state._layer:
            table: dict[str, list[Any]] = self.globs if len(item) == 4 else self.names
            if remove:
                stack = table[key]
                if stack[-1] == item:
                    stack.pop()  # (the common case: the latest added is the deepest)
                else:
                    stack.remove(item)
                if not stack:
                    del table[key]
            else:
                insort(table.setdefault(key, []), item, key=_first)


def _first(item: tuple[int, Any]) -> int:
    return item[0]


class Ignores:
    """The gitignore patterns in force in one folder of a walk (deepest file wins, then the
    last line), with git's semantics.

    A state is made for each folder the walk enters (:meth:`enter`, with the folder's
    ``.gitignore`` lines) and decides about the folder's entries by their names
    (:meth:`ignores`), so that neither costs more with the depth of the folder. A pattern
    is split into its ``/``-separated segments: one without a ``/`` (other than a trailing
    one) is ``**/`` and the pattern, ``/a/b`` and ``a/b`` are anchored to their file's
    folder; entering a folder advances each anchored pattern by the folder's name (a
    ``**`` stays, matching one more folder, or is skipped), and what is left of a pattern
    when only ``**/x`` remains joins the tables of patterns that hold at any depth
    (:class:`_Tables`: a literal ``x`` is found by name, a wildcard is tried once per text).
    Every pattern has an order (deeper files and later lines are larger): the largest that
    matches decides. Like git, a folder that is ignored is not entered, so a pattern
    matches the path itself, never a path below one it matched; a walk that starts inside
    an ignored folder ignores everything (:func:`repository_ignores`).
    """

    __slots__ = (
        "_finals",
        "_layer",
        "_level",
        "_live",
        "_parent",
        "_tables",
        "_tests",
        "everything",
        "top",
    )

    def __init__(self, top: Path, lines: Sequence[tuple[int, list[str]]] = ()) -> None:
        """The state at ``top``, from ``(rank, lines)`` groups (a larger rank wins)."""
        self.top = top
        self.everything = False
        """True inside an ignored folder: every path is ignored."""
        self._tables = _Tables()
        self._parent: Ignores | None = None
        self._level = 0
        self._build((), "", lines)

    def _build(
        self, inherited: tuple[_Live, ...], name: str, groups: Sequence[tuple[int, list[str]]]
    ) -> None:
        layer: list[tuple[str, tuple[Any, ...]]] = []
        live: dict[tuple[bool, tuple[str, ...]], _Live] = {}
        for order, ignore, dir_only, rest in inherited:
            for after in _advance(rest, name):
                _place((order, ignore, dir_only, after), layer, live)
        for rank, lines in groups:
            for index, line in enumerate(lines):
                parsed = _parse(line)
                if parsed is not None:
                    ignore, dir_only, segments = parsed
                    _place(((rank << 32) | index, ignore, dir_only, segments), layer, live)
        self._layer = layer
        self._live = tuple(live.values())
        finals: dict[str, tuple[int, bool]] = {}
        tests: list[_Live] = []
        for rule in self._live:
            order, ignore, dir_only, rest = rule
            if len(rest) != 1:
                continue
            if rest[0][1] is None:
                key = rest[0][0] + ("/" if dir_only else "")
                if finals.get(key, (-1, False))[0] < order:
                    finals[key] = (order, ignore)
            else:
                tests.append(rule)
        self._finals = finals
        self._tests = tuple(tests)

    def enter(self, name: str, lines: list[str]) -> Ignores:
        """The state inside the folder ``name`` of this one, whose ``.gitignore`` holds
        ``lines`` (the caller has checked the folder is not ignored)."""
        if self.everything:
            return self
        out = Ignores.__new__(Ignores)
        out.top = self.top
        out.everything = False
        out._tables = self._tables
        out._parent = self
        out._level = self._level + 1
        out._build(self._live, name, [((out._level + 1), lines)] if lines else ())
        return out

    def ignores(self, name: str, is_dir: bool) -> bool:
        """True when the pattern that decides about the entry ``name`` of this folder
        ignores it."""
        if self.everything:
            return True
        tables = self._tables
        tables.activate(self)
        best, verdict = -1, False
        keys = (name, name + "/") if is_dir else (name,)
        for key in keys:
            for rule in (tables.names.get(key, _NONE), self._finals.get(key)):
                if rule:
                    order, ignore = rule[-1] if isinstance(rule, list) else rule
                    if order > best:
                        best, verdict = order, ignore
        for stack in tables.globs.values():
            order, ignore, pattern, dir_only = stack[-1]
            if (
                order > best
                and (is_dir or not dir_only)
                and (pattern is None or pattern.match(name))
            ):
                best, verdict = order, ignore
        for order, ignore, dir_only, rest in self._tests:
            if order > best and (is_dir or not dir_only) and _matches(rest[0], name):
                best, verdict = order, ignore
        return verdict

    def with_folder(self, folder: Path) -> Ignores:
        """:meth:`enter` for ``folder`` (an entry of this state's folder), reading its
        ``.gitignore`` by path."""
        if self.everything:
            return self
        return self.enter(folder.name, _read_lines(folder / ".gitignore"))

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """:meth:`ignores` for ``path``, an entry of this state's folder."""
        return self.ignores(path.name, is_dir)


_NONE: list[tuple[int, bool]] = []


def _matches(segment: _Seg, name: str) -> bool:
    pattern = segment[1]
    return segment[0] == name if pattern is None else pattern.match(name) is not None


def _advance(rest: tuple[_Seg, ...], name: str) -> Iterator[tuple[_Seg, ...]]:
    """What ``rest`` must still match below the folder ``name`` (nothing when it cannot)."""
    if rest[0] == _ANY_DEPTH:
        yield rest  # ** takes this folder too
        if len(rest) > 2 and _matches(rest[1], name):
            yield rest[2:]  # ** took no folder
    elif len(rest) > 1 and _matches(rest[0], name):
        yield rest[1:]


def _place(
    rule: _Live,
    layer: list[tuple[str, tuple[Any, ...]]],
    live: dict[tuple[bool, tuple[str, ...]], _Live],
) -> None:
    order, ignore, dir_only, rest = rule
    slash = "/" if dir_only else ""
    if rest == (_ANY_DEPTH,):
        layer.append(("**" + slash, (order, ignore, None, dir_only)))
    elif len(rest) == 2 and rest[0] == _ANY_DEPTH:
        text, pattern = rest[1]
        if pattern is None:
            layer.append((text + slash, (order, ignore)))
        else:
            layer.append((text + slash, (order, ignore, pattern, dir_only)))
    else:
        # The same rest of a pattern matches the same paths below: the latest decides.
        key = (dir_only, tuple(segment[0] for segment in rest))
        if key not in live or live[key][0] < order:
            live[key] = rule


def _parse(line: str) -> tuple[bool, bool, tuple[_Seg, ...]] | None:
    """A ``.gitignore`` line as (ignore, folder-only, segments), or None (no pattern)."""
    if not line.strip() or line.startswith("#"):
        return None
    ignore = not line.startswith("!")
    body = line if ignore else line[1:]
    stripped = body.rstrip(" ")  # git drops unescaped trailing spaces
    if stripped.endswith("\\") and len(stripped) < len(body):
        stripped += " "
    dir_only = stripped.endswith("/")
    body = stripped.rstrip("/")
    if not body:
        return None
    parts = [part for part in body.split("/") if part]
    if not parts:
        return None
    if "/" not in body:
        parts.insert(0, "**")
    segments: list[_Seg] = []
    for part in parts:
        if part == "**":
            if segments and segments[-1] == _ANY_DEPTH:
                continue
            segments.append(_ANY_DEPTH)
        elif not _GLOB_CHARS.search(part):
            segments.append((part, None))
        else:
            pattern = _segment_pattern(part)
            if pattern is None:
                return None
            segments.append((part, pattern))
    return ignore, dir_only, tuple(segments)


@lru_cache(maxsize=1024)
def _segment_pattern(part: str) -> re.Pattern[str] | None:
    """The regex of one wildcard segment, matched on a name (``pathspec``'s translation)."""
    from pathspec import GitIgnoreSpec  # (a fifth of the CLI's start-up when imported early)

    line = "\\" + part if part[0] in "#!" else part
    patterns = GitIgnoreSpec.from_lines([line]).patterns
    regex = getattr(patterns[0], "regex", None) if patterns else None
    return regex if isinstance(regex, re.Pattern) else None


def _read_lines(path: Path | str, dir_fd: int | None = None) -> list[str]:
    # Only a regular file is read, opened without blocking (a FIFO named .gitignore would
    # otherwise wait for a writer forever); whatever cannot be read holds no pattern.
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0), dir_fd=dir_fd)
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
        return Ignores(folder, [(1, _read_lines(folder / ".gitignore"))])
    exclude = _read_lines(top / ".git" / "info" / "exclude")
    ignores = Ignores(top, [(0, exclude), (1, _read_lines(top / ".gitignore"))])
    for part in reversed(chain[: chain.index(top)]):
        if ignores.ignores(part.name, True):
            ignores = Ignores(top)
            ignores.everything = True  # a walk inside an ignored folder: all is ignored
            return ignores
        ignores = ignores.enter(part.name, _read_lines(part / ".gitignore"))
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
    entries, problem = _list(folder, None)
    return [(folder / name, kind) for name, kind in entries], problem


def _list(target: Path | str | int, dir_fd: int | None) -> tuple[list[_Entry], str | None]:
    # target: the folder's path, or an open descriptor of it (dir_fd: the same, for the
    # links whose target is examined by name). Names, not paths: a walk holds the
    # listings of a whole branch, and a path object per entry costs its depth in memory.
    try:
        with os.scandir(target) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except (OSError, ValueError) as exc:
        return [], _reason(exc)
    out: list[_Entry] = []
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                out.append((entry.name, "dir"))
            elif entry.is_file():
                out.append((entry.name, "file"))
            elif entry.is_symlink() and not _exists(entry, dir_fd):
                out.append((entry.name, "broken"))
        except OSError:
            continue
    return out, None


_Entry = tuple[str, EntryKind]


def _exists(entry: os.DirEntry[str], dir_fd: int | None) -> bool:
    try:
        if dir_fd is None:
            os.stat(entry.path)
        else:
            os.stat(entry.name, dir_fd=dir_fd)
    except (OSError, ValueError):
        return False
    return True


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


def folder_entries(folder: Path) -> Iterator[tuple[Path, bool]]:
    """Yield ``(path, is_dir)`` for the folders and files in ``folder``, sorted by name.

    As :func:`list_folder` (broken links left out); an unreadable folder holds nothing.
    """
    for path, kind in list_folder(folder)[0]:
        if kind != "broken":
            yield path, kind == "dir"


_BY_DESCRIPTOR = (
    os.scandir in os.supports_fd
    and os.open in os.supports_dir_fd
    and os.stat in os.supports_dir_fd
    and hasattr(os, "O_DIRECTORY")
)
"""Folders are walked through open descriptors (else by their paths)."""

_MAX_OPEN = 64
"""Folders of a branch held open at once; one further up is reopened from its child."""

_DIR_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_DIRECTORY", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NONBLOCK", 0)
)


@dataclass(slots=True)
class OpenFolder:
    """A folder of a walk's branch: its entries still to visit, and the caller's state."""

    path: str
    """The folder's path."""
    entries: Iterator[_Entry]
    """The (name, kind) of its entries still to visit."""
    names: list[str]
    """The names in the folder (sorted)."""
    state: Any
    fd: int = -1
    """An open descriptor of the folder (-1: none, or closed for a while)."""
    ident: tuple[int, int] = (0, 0)
    """The folder's device and inode, to know it again when it is reopened."""
    linkless: bool = False
    """True when it was opened by name without following a link: not a symbolic link."""


class FolderBranch:
    """The folders from a walk's root to the folder being walked, each listed once.

    Promise: what a walk does per folder and per entry takes names, not paths, so its cost
    does not grow with the depth of the folder: a folder is opened by its name in its
    parent's open descriptor, listed through its own, and its ``.gitignore`` is read the
    same way (the system does not resolve the path again, level by level). The last
    :data:`_MAX_OPEN` folders of the branch stay open (at most that many descriptors);
    one closed further up is reopened from its child's ``..`` as the walk comes back into
    that window (by its path if that is not the same folder any more). While a folder is
    on the branch, paths in it (or up to a few levels below) are opened and examined by
    name in its descriptor by this thread (:func:`~.compress.hold_folder`): a caller
    reading the files a walk yields, or looking for files in their folders and the
    folders above, pays per file what the walk pays. Where descriptors cannot be used
    this way, paths are. Close it (or use it as a context manager) to close what is open.
    """

    __slots__ = ("hold", "stack")

    def __init__(self) -> None:
        self.stack: list[OpenFolder] = []
        self.hold = True
        """Let paths in the branch's folders be opened by name while it holds them
        (:func:`~.compress.hold_folder`)."""

    def __enter__(self) -> FolderBranch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close every descriptor still open."""
        while self.stack:
            self.leave()

    def open(self, path: str, state: Any, shown: str | None = None) -> str | None:
        """List ``path`` (by its path) as the branch's first folder; return why it cannot
        be listed (None: it was). ``shown``: how the folder's path is spelled in the
        paths the branch builds (default ``path``); when it names another folder than
        ``path`` (a ``..`` after a link), no path of the branch is opened by name."""
        fd = -1
        if _BY_DESCRIPTOR:
            try:
                fd = os.open(path, _DIR_FLAGS & ~getattr(os, "O_NOFOLLOW", 0))
            except (OSError, ValueError):
                fd = -1  # listing by path says why
        if shown is None or shown == path:
            return self._push(path, fd, state)
        try:
            self.hold = fd >= 0 and _ident(fd) == _stat_ident(shown)
        except (OSError, ValueError):
            self.hold = False
        return self._push(shown, fd, state, path)

    def enter(self, name: str, state: Any) -> str | None:
        """List the folder ``name`` of the last folder as the next; return why it cannot
        be listed (None: it was)."""
        parent = self.stack[-1]
        path = os.path.join(parent.path, name)
        fd = -1
        if self._descriptor(parent) >= 0:
            try:
                fd = os.open(name, _DIR_FLAGS, dir_fd=parent.fd)
            except (OSError, ValueError) as exc:
                return _reason(exc)
        problem = self._push(path, fd, state)
        if problem is None and fd >= 0:
            self.stack[-1].linkless = bool(_DIR_FLAGS & getattr(os, "O_NOFOLLOW", 0))
        return problem

    def _push(self, path: str, fd: int, state: Any, opened: str | None = None) -> str | None:
        # opened: the path the folder was opened by, when not ``path``.
        if fd >= 0:
            entries, problem = _list(fd, fd)
        else:
            entries, problem = _list(opened or path, None)
        ident = (0, 0)
        if problem is None and fd >= 0:
            try:
                info = os.fstat(fd)
                ident = (info.st_dev, info.st_ino)
            except OSError as exc:
                problem = _reason(exc)
        if problem is not None:
            if fd >= 0:
                os.close(fd)
            return problem
        names = [name for name, _kind in entries]
        folder = OpenFolder(path, iter(entries), names, state, fd, ident)
        self.stack.append(folder)
        if self.hold:
            hold_folder(path, folder)
        if len(self.stack) > _MAX_OPEN:
            far = self.stack[-1 - _MAX_OPEN]
            if far.fd >= 0:
                fd, far.fd = far.fd, -1
                os.close(fd)
        return None

    def leave(self) -> None:
        """Close the last folder: the walk goes back to its parent."""
        done = self.stack.pop()
        release_folder(done.path, done)
        stack = self.stack
        if stack:
            self._reopen(stack[-1], done)
        if len(stack) > _MAX_OPEN - 1:
            # The last _MAX_OPEN folders stay open (the parents a caller looks at by
            # path, up to 32 levels for a site, are opened by name): the one that comes
            # into that window is reopened from its child's "..".
            self._reopen(stack[-_MAX_OPEN], stack[1 - _MAX_OPEN])
        if done.fd >= 0:
            fd, done.fd = done.fd, -1
            os.close(fd)

    @staticmethod
    def _reopen(folder: OpenFolder, child: OpenFolder) -> None:
        # A folder closed for a while, reopened from its open child's "..", if that is
        # still the same folder (else it stays closed: its paths are used).
        if folder.fd >= 0 or child.fd < 0 or not folder.ident[0]:
            return
        try:
            fd = os.open("..", _DIR_FLAGS & ~getattr(os, "O_NOFOLLOW", 0), dir_fd=child.fd)
        except OSError:
            return
        if _ident(fd) == folder.ident:
            folder.fd = fd
        else:
            os.close(fd)

    def _descriptor(self, folder: OpenFolder) -> int:
        """The folder's descriptor, reopened by path when it was closed and could not be
        had from its child (-1: paths are used)."""
        if folder.fd < 0 and folder.ident[0] and _BY_DESCRIPTOR:
            try:
                fd = os.open(folder.path, _DIR_FLAGS & ~getattr(os, "O_NOFOLLOW", 0))
            except (OSError, ValueError):
                return -1
            if _ident(fd) == folder.ident:
                folder.fd = fd
            else:
                os.close(fd)
        return folder.fd

    def read_gitignore(self) -> list[str]:
        """The lines of the last folder's ``.gitignore`` (none when it has none)."""
        folder = self.stack[-1]
        if ".gitignore" not in folder.names:
            return []
        fd = self._descriptor(folder)
        if fd < 0:
            return _read_lines(os.path.join(folder.path, ".gitignore"))
        return _read_lines(".gitignore", fd)


def _stat_ident(path: str) -> tuple[int, int]:
    info = os.stat(path)
    return (info.st_dev, info.st_ino)


def _ident(fd: int) -> tuple[int, int]:
    try:
        info = os.fstat(fd)
    except OSError:
        return (0, 0)
    return (info.st_dev, info.st_ino)


def walk_files(
    root: Path,
    exclude: GitIgnoreSpec,
    ignores: Ignores | None,
    leaf: Callable[[str, list[str] | None], bool] | None = None,
    shown: str | None = None,
) -> Iterator[str]:
    """Yield the files under ``root`` in sorted walk order (see the module notes).

    While a path is yielded (until the walk is resumed), the walk holds its folder open:
    :mod:`.compress` opens it by name there (:func:`~.compress.open_fd`).

    Args:
        root: an absolute folder path; globs are relative to it.
        exclude: globs of files and folders skipped.
        ignores: the ``.gitignore`` patterns in force at ``root`` (None: none apply).
        leaf: called on each folder met below ``root`` (its path) with the names it holds
            (None when it cannot be listed); when true, the folder itself is yielded (in
            its sorted place) and not walked into.
        shown: how the paths yielded spell ``root`` (default: ``str(root)``), e.g. the
            folder as the user gave it.

    Returns:
        An iterator of paths (``shown`` joined with the part below it).
    """
    top = str(root)
    if shown is None or shown == top or _BY_DESCRIPTOR:
        with FolderBranch() as branch:
            yield from _walk(top, exclude, ignores, leaf, branch, shown)
        return
    # Without descriptors, folders are listed by path: by root's (``shown`` may name
    # another folder, "link/.." is not lexical), the paths yielded spelled with ``shown``.
    prefix = os.path.join(top, "")

    def respelled(path: str) -> str:
        return os.path.join(shown, path[len(prefix) :])

    def leaf_of(path: str, names: list[str] | None) -> bool:
        return leaf is not None and leaf(respelled(path), names)

    with FolderBranch() as branch:
        for found in _walk(top, exclude, ignores, leaf_of if leaf else None, branch, None):
            yield respelled(found)


def _walk(
    root: str,
    exclude: GitIgnoreSpec,
    ignores: Ignores | None,
    leaf: Callable[[str, list[str] | None], bool] | None,
    branch: FolderBranch,
    shown: str | None,
) -> Iterator[str]:
    # Depth first without recursion (a branch of open folders): any depth is walked. A
    # folder's state is (ignores, its path relative to root with a trailing "/", only
    # when there are exclude globs).
    globs = bool(exclude.patterns)
    if branch.open(root, (ignores, ""), shown) is not None:
        return
    stack = branch.stack
    while stack:
        folder = stack[-1]
        item = next(folder.entries, None)
        if item is None:
            branch.leave()
            continue
        name, kind = item
        if kind == "broken":
            continue
        ignores, rel = folder.state
        if kind == "dir":
            inner = rel + name + "/" if globs else ""
            if name in SKIP_DIRS or (globs and exclude.match_file(inner)):
                continue
            if ignores is not None and ignores.ignores(name, True):
                continue
            if branch.enter(name, None) is not None:
                path = os.path.join(folder.path, name)
                if leaf is not None and leaf(path, None):
                    yield path  # (a folder that cannot be listed: reading it says why)
                continue
            opened = stack[-1]
            if leaf is not None and leaf(opened.path, opened.names):
                branch.leave()
                yield os.path.join(folder.path, name)
                continue
            if ignores is not None:
                ignores = ignores.enter(name, branch.read_gitignore())
            opened.state = (ignores, inner)
        else:
            if globs and exclude.match_file(rel + name):
                continue
            if ignores is not None and ignores.ignores(name, False):
                continue
            yield os.path.join(folder.path, name)
