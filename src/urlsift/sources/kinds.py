"""Kinds: what a path holds (text, one message, an mbox archive or a folder of messages).

Promises:

* Files (:func:`sniff_kind`) are judged by their first decompressed bytes
  (:data:`SNIFF_BYTES`), never by their names: an MMDF delimiter or a ``From_`` envelope
  line first is ``mbox``; an RFC 5322 header block with a well-known field name is
  ``mail``, or ``news`` with ``Newsgroups:`` and ``Path:``; anything else is ``text``.
* Directories (:func:`detect_kind`) by their layout: a Maildir (``cur/`` and ``new/``...),
  an MH folder or a news spool (numbered files, told apart by the first one).
* Standard input is peeked, never read twice (:func:`~.compress.peek_stdin`); when its
  kind cannot be seen that way the answer is ``auto`` ("detect it from the stream").
* A folder's message files (:func:`folder_files`) come in the order their messages are
  numbered: Maildir ``cur`` then ``new``, by name, then message files in the folder
  itself, then nested Maildirs (Maildir++ ``.Sent``), by name, each the same way; MH and
  news: by number.

Only :class:`~urlsift.errors.SourceError` is raised (a path that cannot be opened, a
directory of no known layout).
"""

from __future__ import annotations

import os
import re
from typing import Literal, get_args

from ..errors import SourceError
from .compress import open_counted, peek_stdin
from .mbox import MMDF_DELIMITER, is_envelope_line

InputKind = Literal["auto", "text", "mail", "mbox", "maildir", "mh", "news"]
"""What a path holds: ``mail`` is one RFC 5322 message, ``news`` one RFC 1036 article (or,
for a directory, a news spool), ``mbox`` an mbox or MMDF archive."""

INPUT_KINDS: tuple[str, ...] = get_args(InputKind)
"""Every accepted kind, in the order of :data:`InputKind`."""

SNIFF_BYTES = 16 << 10
"""Decompressed bytes looked at to detect a file's kind."""

# RFC 5322 §3.6.8: field-name = 1*ftext, ftext = %d33-57 / %d59-126 (printable, not ":").
_FIELD_NAME = re.compile(rb"[!-9;-~]+:")
_NUMBERED = re.compile(r"[0-9]+")

MAIL_HEADER_NAMES = frozenset(
    {
        b"from", b"to", b"cc", b"subject", b"date", b"message-id", b"received",
        b"return-path", b"mime-version", b"content-type", b"newsgroups", b"path",
        b"delivered-to", b"reply-to", b"sender", b"in-reply-to", b"references",
        b"x-mailer", b"user-agent", b"organization", b"xref", b"lines",
        b"list-id", b"dkim-signature", b"x-original-to", b"envelope-to",
    }
)  # fmt: skip
"""Header names that mark a header block as a mail or news message (one is enough)."""


def _is_header_block(prefix: bytes) -> tuple[bool, bool]:
    # (looks like a message header block, has Newsgroups: and Path:).
    lines = prefix.split(b"\n")
    if len(lines) > 1 and not prefix.endswith(b"\n"):
        lines.pop()  # the last line may be cut by the sniff window
    names: set[bytes] = set()
    for raw in lines:
        line = raw[:-1] if raw.endswith(b"\r") else raw
        if not line:
            break
        if line[:1] in (b" ", b"\t"):
            if not names:
                return False, False
            continue
        match = _FIELD_NAME.match(line)
        if match is None:
            return False, False
        names.add(line[: match.end() - 1].lower())
    mail = bool(names & MAIL_HEADER_NAMES)
    return mail, mail and b"newsgroups" in names and b"path" in names


def sniff_kind(prefix: bytes) -> InputKind:
    """Detect a file's kind from its first (decompressed) bytes.

    Rules, in order: a line of four ``\\x01`` bytes (MMDF) or a ``From_`` envelope line
    first is ``mbox``; an RFC 5322 header block (every line a field or a continuation, at
    least one well-known field name) is ``news`` when it has ``Newsgroups:`` and ``Path:``,
    else ``mail``; anything else is ``text``.

    Args:
        prefix: the first bytes of the file (a few KiB is plenty).

    Returns:
        ``mbox``, ``mail``, ``news`` or ``text``.
    """
    if prefix.startswith(MMDF_DELIMITER):
        return "mbox"
    if prefix.startswith(b"From "):
        first = prefix.split(b"\n", 1)[0].rstrip(b"\r")
        if is_envelope_line(first) or _is_header_block(prefix[len(first) + 1 :])[0]:
            return "mbox"
    mail, news = _is_header_block(prefix)
    if news:
        return "news"
    return "mail" if mail else "text"


def _numbered_files(path: str) -> list[str]:
    # MH and news spool: message files are named by number; order by that number.
    names = [n for n in os.listdir(path) if _NUMBERED.fullmatch(n)]
    names.sort(key=int)
    return [os.path.join(path, n) for n in names if os.path.isfile(os.path.join(path, n))]


def _maildir_files(path: str) -> list[str]:
    # cur/ then new/ by name (tmp/ holds deliveries in progress and is not read), then
    # message files lying in the folder itself, then nested folders that are Maildirs
    # themselves (Maildir++ ".Sent", ".Lists.foo"; notmuch-style "bar/baz"), by name.
    files: list[str] = []
    laid_out = False  # cur/ or new/ present: files beside them are messages too
    for sub in ("cur", "new"):
        folder = os.path.join(path, sub)
        if not os.path.isdir(folder):
            continue
        laid_out = True
        for name in sorted(os.listdir(folder)):
            full = os.path.join(folder, name)
            if not name.startswith(".") and os.path.isfile(full):
                files.append(full)
    nested: list[str] = []
    for name in sorted(os.listdir(path)):
        full = os.path.join(path, name)
        if name in _MAILDIR_SUBDIRS:
            continue
        if os.path.isdir(full):
            if not os.path.islink(full) and _is_maildir(full):
                nested.append(full)
        elif (
            laid_out
            and not name.startswith(".")
            and os.path.isfile(full)
            and _looks_like_mail(full)
        ):
            files.append(full)
    for folder in nested:
        files.extend(_maildir_files(folder))
    return files


_MAILDIR_SUBDIRS = ("cur", "new", "tmp")


def _first_file(folder: str) -> str | None:
    for name in sorted(os.listdir(folder)):
        full = os.path.join(folder, name)
        if not name.startswith(".") and os.path.isfile(full):
            return full
    return None


def _looks_like_mail(path: str) -> bool:
    # A file that sniffs as a message or article (one that cannot be read does not).
    try:
        return _sniff_path(path) in ("mail", "news")
    except OSError:
        return False


def _is_maildir(path: str) -> bool:
    # cur/ and new/, or one of them with tmp/, or one of them alone whose first file is a
    # message (a partial Maildir: a copy of cur/ only, or an empty one with no tmp/ is not).
    present = [sub for sub in ("cur", "new") if os.path.isdir(os.path.join(path, sub))]
    if len(present) == 2:
        return True
    if not present:
        return False
    if os.path.isdir(os.path.join(path, "tmp")):
        return True
    try:
        first = _first_file(os.path.join(path, present[0]))
    except OSError:
        return False
    return first is not None and _looks_like_mail(first)


def _sniff_path(path: str) -> InputKind:
    opened = open_counted(path)
    try:
        return sniff_kind(opened.stream.peek(SNIFF_BYTES)[:SNIFF_BYTES])
    finally:
        opened.stream.close()


NOT_A_FOLDER = "directory is not a Maildir, MH folder or news spool"
"""The reason of the :class:`~urlsift.errors.SourceError` for a directory of no known layout."""


def _folder_kind(path: str) -> InputKind:
    try:
        entries = set(os.listdir(path))
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from exc
    if _is_maildir(path):
        return "maildir"
    numbered = _numbered_files(path)
    if numbered:
        try:
            kind = _sniff_path(numbered[0])
        except SourceError:
            return "mh"
        if kind == "news":
            return "news"
        if kind == "mail":
            return "mh"
    if ".mh_sequences" in entries:
        return "mh"
    raise SourceError(path, NOT_A_FOLDER)


def is_archive_folder(path: str) -> bool:
    """True when ``path`` is a folder read as one archive: a Maildir, MH folder or news spool.

    A folder that cannot be listed counts as one too (reading it reports the error).
    """
    try:
        _folder_kind(path)
    except SourceError as exc:
        return exc.reason != NOT_A_FOLDER
    return True


def detect_kind(path: str) -> InputKind:
    """Detect what ``path`` holds.

    Directories: ``cur/`` and ``new/`` make a Maildir (so does one of them with ``tmp/``,
    or alone when its first file is a message); numbered files make a news spool when the
    first is an RFC 1036 article (``Newsgroups:`` and ``Path:``), an MH folder when it is a
    mail message (as does a ``.mh_sequences`` file). Files: see :func:`sniff_kind`, applied to
    the first decompressed bytes. For ``-`` (standard input) nothing is consumed: the
    bytes already buffered are peeked; when they cannot be seen that way (a stream
    without ``peek``, or a compressed prefix that yields no output yet) the result is
    ``auto``, meaning "let :func:`~.archive.open_units` detect it from the stream itself".

    Args:
        path: a file or directory path, or ``-``.

    Returns:
        The detected kind (``auto`` only for an undecidable standard input).

    Raises:
        SourceError: when the path cannot be opened, or is a directory of no known layout.
    """
    if path == "-":
        prefix = peek_stdin(SNIFF_BYTES)
        return "auto" if not prefix else sniff_kind(prefix)
    if os.path.isdir(path):
        return _folder_kind(path)
    return _sniff_path(path)


def folder_files(path: str, kind: InputKind) -> list[str]:
    """List the message files of a folder, in the order their messages are numbered.

    Args:
        path: a directory.
        kind: ``auto`` (detect the folder's kind), ``maildir``, ``mh`` or ``news``.

    Returns:
        The files (Maildir: ``cur`` then ``new``, by name; MH and news: by number).

    Raises:
        SourceError: the directory is no folder of that kind, or another kind was asked.
        OSError: the directory cannot be listed.
    """
    if kind == "auto":
        kind = _folder_kind(path)
    if kind == "maildir":
        if not any(os.path.isdir(os.path.join(path, sub)) for sub in ("cur", "new")):
            raise SourceError(path, "no cur/ or new/ folder, so not a Maildir")
        return _maildir_files(path)
    if kind in ("mh", "news"):
        files = _numbered_files(path)
        if not files:
            others = sum(
                1
                for name in os.listdir(path)
                if not name.startswith(".") and os.path.isfile(os.path.join(path, name))
            )
            if others:
                raise SourceError(
                    path,
                    f"no message file named by number (an {kind.upper()} folder holds 1, 2, "
                    f"3 ...) but {others} file{'s' if others > 1 else ''} with other names; "
                    "without --input-kind the folder's files are scanned each by its kind",
                )
        return files
    raise SourceError(path, f"is a directory, not a {kind} file")
