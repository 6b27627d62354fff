"""Folders of mixed files: which paths a scan reads, in which order.

Promises: a path given to a scan is read as before when it is standard input, a file, a
folder given with an explicit input kind, or a folder that is itself an archive (a Maildir,
MH folder or news spool: :func:`~.kinds.is_archive_folder`). Any other folder is walked
(:mod:`urlsift.sources.walk`: sorted order, ``.gitignore`` files and ``exclude`` globs honoured,
version-control folders skipped, folder links not followed) and yields, in that order,
each file, to be read by its own kind (text, a message, an mbox archive, compressed or not),
and each archive folder inside it as one path. Files whose first decompressed bytes hold
a NUL byte are binary: they are skipped and counted in
:attr:`~.reading.ArchiveStats.binaries_skipped`. Paths yielded are the given path joined
with the part below it, so a result's ``source`` reads as the user wrote the folder.

Cost: a walked file is sniffed, and then read by the caller, while the walk holds its
folder open (until the caller asks for the next path), so both open it by name in that
folder (:func:`~.compress.open_fd`): neither resolves the folders above it again.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import suppress
from typing import TYPE_CHECKING, Protocol

from . import BINARY_SNIFF_BYTES
from .compress import open_counted
from .kinds import SNIFF_BYTES, InputKind, is_archive_folder
from .reading import ArchiveStats

if TYPE_CHECKING:
    pass


def is_binary(path: str) -> bool:
    """True when the file's first decompressed bytes hold a NUL byte.

    A file that cannot be opened is not called binary: reading it reports the error.
    """
    try:
        opened = open_counted(path)
    except OSError:
        return False
    try:
        head: bytes = opened.stream.peek(SNIFF_BYTES)[:BINARY_SNIFF_BYTES]
    except (OSError, EOFError):
        return False
    finally:
        with suppress(OSError):  # a damaged stream raises its error on close too
            opened.stream.close()
    return b"\0" in head


class WalkConfig(Protocol):
    """What a walk needs of the scan's configuration (:class:`urlsift.engines.ScanConfig`)."""

    @property
    def kind(self) -> InputKind: ...
    @property
    def exclude(self) -> tuple[str, ...]: ...
    @property
    def respect_gitignore(self) -> bool: ...


def expand_paths(paths: Iterable[str], config: WalkConfig, stats: ArchiveStats) -> Iterator[str]:
    """Yield the paths a scan reads, in order: folders of mixed files walked (module notes).

    Args:
        paths: the paths as given (``-`` is standard input).
        config: the input kind asked (only ``auto`` walks folders), the ``exclude`` globs
            (gitignore-style, relative to each walked folder) and whether ``.gitignore``
            files are honoured.
        stats: ``binaries_skipped`` is counted here.

    Returns:
        An iterator of paths, each to be read by :func:`~.archive.open_units`.
    """
    for given in paths:
        if (
            given == "-"
            or config.kind != "auto"
            or not os.path.isdir(given)
            or is_archive_folder(given)
        ):
            yield given
            continue
        yield from _walked(given, config, stats)


def _walked(given: str, config: WalkConfig, stats: ArchiveStats) -> Iterator[str]:
    # Imported here: pathspec (and pathlib) are needed only when a folder is walked.
    from pathlib import Path

    from pathspec import GitIgnoreSpec

    from .walk import repository_ignores, walk_files

    root = Path(os.path.abspath(given))
    spec = GitIgnoreSpec.from_lines(config.exclude)
    ignores = repository_ignores(root) if config.respect_gitignore else None
    last_leaf = ""

    def leaf(folder: str, names: list[str] | None) -> bool:
        nonlocal last_leaf
        if _archive_leaf(folder, names):
            last_leaf = folder  # yielded next
            return True
        return False

    # The paths are spelled as the user gave the folder, and each is sniffed (and read,
    # by the caller) while the walk holds its folder open: by its name there.
    for found in walk_files(root, spec, ignores, leaf=leaf, shown=given):
        if found != last_leaf and is_binary(found):
            stats.binaries_skipped += 1
            continue
        yield found


def _archive_leaf(folder: str, names: list[str] | None) -> bool:
    # A folder whose names hold no Maildir, MH or spool sign is not looked at further
    # (the walk has listed it: no system call on its path); one the walk could not list
    # is looked at by its path (reading it reports why).
    if names is not None and not any(name in _ARCHIVE_SIGNS or name.isdigit() for name in names):
        return False
    return is_archive_folder(folder)


_ARCHIVE_SIGNS = frozenset({"cur", "new", ".mh_sequences"})
"""Names one of which (or a numbered file) a Maildir, MH folder or news spool holds."""
