"""Mail and news archive sources: paths in, one decoded text unit per message part out.

Strategy: three layers, each bounded in memory by one message.

1. *Bytes*: :func:`~.compress.open_counted` opens a file or ``-`` and decompresses gzip,
   bzip2 or xz recognised by magic bytes; it counts bytes as stored and as decoded.
2. *Messages*: an mbox or MMDF archive is split as a stream by :class:`~.mbox.MboxSplitter`
   (never indexed, never read twice); a single message (``.eml``, a news article) or
   each file of a Maildir, MH or news spool folder is one message, read up to
   ``max_message_bytes`` -- unless it is *streamed* (below).
3. *Parts*: :func:`~.mime.message_units` parses each message with the stdlib ``email``
   package and yields one :class:`~urlsift.TextUnit` per text part with its
   :class:`~urlsift.MessageContext`.

Streamed single messages. A message file longer than :data:`STREAM_MIN_BYTES` (or than
``max_message_bytes``) whose header block (found within ``max_header_bytes``) shows one
part with a body used as is (:func:`~.mime.single_part_head`: not multipart or message,
identity transfer encoding, not HTML or flowed, a streamable charset; or a part that is
skipped) is never held: a first pass reads the body once, learning what decoding needs
(:class:`~.bodystream.BodyCheck`) and keeping nothing, and the units are built from that
(:func:`~.mime.streamed_message_units`) before any text exists, so their defects come first
as always; the body unit's text is a second reading, decoded as it is scanned. The second
reading is of the file itself (through a duplicated descriptor, see
:class:`~.compress.Rereader`), or, for standard input and pipes, of a temporary copy made
during the first pass. Memory is a few blocks, with no cap on the body (so no
``message-truncated``); the units are those of reading the message whole (tests compare
both). Anything else is read whole as before.

Kinds are detected (:func:`detect_kind`) from the folder layout for directories and from the
first decompressed bytes for files, including standard input, which is peeked, never read
twice. Plain text is handed to :mod:`.text`'s lossless decoder. Bad input never raises: it
becomes defects on the units; only a path that cannot be opened raises
:class:`~urlsift.errors.SourceError` and an unknown kind :class:`~urlsift.errors.ConfigError`.

Units' ``source`` is the path given for a file or stream, and the message file's own path
for a folder (so a reader can open the message); ``number`` counts messages from 1 in the
archive or folder, in folder order (Maildir: ``cur`` then ``new``, by name, then message
files in the folder itself, then nested Maildirs such as Maildir++ ``.Sent``, by name, each
the same way; MH and news: by number), and ``offset`` is 0 for a message that is a file of its own.

:class:`ArchiveStats` is updated as the iterator advances, so a caller can show progress.
"""

from __future__ import annotations

import bz2
import contextlib
import lzma
import os
import re
import sys
import weakref
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import IO, Literal, get_args

from .._model import Defect, TextUnit
from ..errors import ConfigError, SourceError
from .bodystream import BodyCheck
from .compress import CountedStream, Rereader, open_counted, rereader, sniff_compression
from .mbox import MMDF_DELIMITER, MboxSplitter, RawMessage, is_envelope_line
from .mime import (
    MessageResult,
    find_body,
    message_units,
    single_part_head,
    streamed_message_units,
)
from .options import (
    DEFAULT_MAX_HEADER_BYTES,
    DEFAULT_MAX_MESSAGE_BYTES,
    MailOptions,
)
from .text import decode_blocks

__all__ = [
    "DEFAULT_MAX_HEADER_BYTES",
    "DEFAULT_MAX_MESSAGE_BYTES",
    "ArchiveStats",
    "InputKind",
    "MailOptions",
    "detect_kind",
    "open_units",
    "sniff_kind",
]

InputKind = Literal["auto", "text", "mail", "mbox", "maildir", "mh", "news"]
"""What a path holds: ``mail`` is one RFC 5322 message, ``news`` one RFC 1036 article (or,
for a directory, a news spool), ``mbox`` an mbox or MMDF archive."""

INPUT_KINDS: tuple[str, ...] = get_args(InputKind)
"""Every accepted kind, in the order of :data:`InputKind`."""

READ_BLOCK_SIZE = 1 << 20
"""Bytes read from an archive at a time."""

TEXT_BLOCK_SIZE = 64 << 10
"""Bytes of a streamed body decoded at a time for the scanner (as for a text file)."""

SNIFF_BYTES = 16 << 10
"""Decompressed bytes looked at to detect a file's kind."""

STREAM_MIN_BYTES = 1 << 20
"""A single message longer than this (or than ``max_message_bytes``) is streamed when its
header allows (see the module notes); a shorter one is read whole."""

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


@dataclass(slots=True)
class ArchiveStats:
    """Counters updated while :func:`open_units` iterates (one object may span many paths).

    Every message read is counted once in ``messages``, whether it produced units or not.
    """

    files: int = 0
    """Files (or streams) opened: an archive, a single message, each folder message."""
    bytes_read: int = 0
    """Bytes consumed after decompression."""
    stored_bytes_read: int = 0
    """Bytes consumed as stored (the compressed size so far, for a progress bar)."""
    messages: int = 0
    """Messages read."""
    parts: int = 0
    """Text parts scanned (units yielded for parts)."""
    header_units: int = 0
    """Header units yielded (with ``MailOptions.scan_headers``)."""
    units_skipped: int = 0
    """Parts not scanned: attachments and other non-text parts."""
    messages_with_defects: int = 0
    """Messages with at least one defect (bad MIME, charset, truncation ...)."""
    messages_truncated: int = 0
    """Messages longer than ``max_message_bytes``, cut there."""
    binaries_skipped: int = 0
    """Binary files met while walking a folder of mixed files, and not scanned."""

    def summary(self) -> str:
        """Return a one-line summary, e.g. ``3 messages, 4 parts, 1 with defects``."""
        text = (
            f"{self.messages} messages, {self.parts} parts, "
            f"{self.messages_with_defects} with defects"
        )
        if self.units_skipped:
            text += f", {self.units_skipped} parts skipped"
        if self.binaries_skipped:
            text += f", {self.binaries_skipped} binary files skipped"
        return text


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


def _peek_stdin() -> bytes | None:
    # Bytes of standard input visible without consuming any, decompressed if they can be.
    buffer = sys.stdin.buffer
    peek = getattr(buffer, "peek", None)
    if peek is None:
        return None
    prefix: bytes = peek(SNIFF_BYTES)[:SNIFF_BYTES]
    compression = sniff_compression(prefix)
    try:
        if compression == "gzip":
            return zlib.decompressobj(wbits=31).decompress(prefix, SNIFF_BYTES)
        if compression == "xz":
            return lzma.LZMADecompressor().decompress(prefix, SNIFF_BYTES)
        if compression == "bzip2":
            return bz2.BZ2Decompressor().decompress(prefix, SNIFF_BYTES)
    except (zlib.error, lzma.LZMAError, OSError, EOFError, ValueError):
        return None
    return prefix


def detect_kind(path: str) -> InputKind:
    """Detect what ``path`` holds.

    Directories: ``cur/`` and ``new/`` make a Maildir (so does one of them with ``tmp/``,
    or alone when its first file is a message); numbered files make a news spool when the
    first is an RFC 1036 article (``Newsgroups:`` and ``Path:``), an MH folder when it is a
    mail message (as does a ``.mh_sequences`` file). Files: see :func:`sniff_kind`, applied to
    the first decompressed bytes. For ``-`` (standard input) nothing is consumed: the
    bytes already buffered are peeked; when they cannot be seen that way (a stream
    without ``peek``, or a compressed prefix that yields no output yet) the result is
    ``auto``, meaning "let :func:`open_units` detect it from the stream itself".

    Args:
        path: a file or directory path, or ``-``.

    Returns:
        The detected kind (``auto`` only for an undecidable standard input).

    Raises:
        SourceError: when the path cannot be opened, or is a directory of no known layout.
    """
    if path == "-":
        prefix = _peek_stdin()
        return "auto" if not prefix else sniff_kind(prefix)
    if os.path.isdir(path):
        return _folder_kind(path)
    return _sniff_path(path)


class CountingReader:
    """Reads an opened stream in blocks, keeping the statistics and any read error."""

    def __init__(self, opened: CountedStream, stats: ArchiveStats) -> None:
        self.opened = opened
        self.stats = stats
        self.error: Defect | None = None
        self._stored = 0  # bytes peeked for detection are counted with the first read
        stats.files += 1

    def read(self, size: int | None = None) -> bytes:
        """Return the next block (``b""`` at the end or after a read error).

        Args:
            size: bytes wanted (fewer only at the end); default :data:`READ_BLOCK_SIZE`.
        """
        if self.error is not None:
            return b""
        try:
            block = self.opened.stream.read(READ_BLOCK_SIZE if size is None else size)
            error = None if block else self.opened.decoded.take_error()
        except SourceError as exc:
            block, error = b"", exc
        if error is not None:
            self.error = Defect("stream-read-error", error.reason, "warning")
        self.stats.bytes_read += len(block)
        stored = self.opened.stored.count
        self.stats.stored_bytes_read += stored - self._stored
        self._stored = stored
        return block


def _message(
    data: bytes,
    source: str,
    number: int,
    offset: int,
    options: MailOptions,
    stats: ArchiveStats,
    defects: tuple[Defect, ...],
    truncated: bool,
) -> list[TextUnit]:
    result = message_units(
        data, source=source, number=number, offset=offset, options=options, defects=defects
    )
    _count(result, stats, truncated)
    return result.units


def _count(result: MessageResult, stats: ArchiveStats, truncated: bool) -> None:
    stats.messages += 1
    stats.parts += result.text_parts
    stats.header_units += result.header_units
    stats.units_skipped += result.skipped
    if result.defects:
        stats.messages_with_defects += 1
    if truncated:
        stats.messages_truncated += 1


def raw_message_units(
    raw: RawMessage, source: str, options: MailOptions, stats: ArchiveStats
) -> list[TextUnit]:
    """Turn one message split from an archive into its text units, counting it in ``stats``.

    The per-message step of :func:`open_units` for mbox and MMDF archives, also used by the
    parallel engine on batches of messages. Never raises on bad content.
    """
    return _message(
        raw.data, source, raw.number, raw.offset, options, stats, raw.defects, raw.truncated
    )


def _mbox_units(
    path: str, opened: CountedStream, options: MailOptions, stats: ArchiveStats
) -> Iterator[TextUnit]:
    reader = CountingReader(opened, stats)
    splitter = MboxSplitter(options.max_message_bytes)
    while block := reader.read():
        for raw in splitter.feed(block):
            yield from raw_message_units(raw, path, options, stats)
    last = splitter.close()
    if reader.error is not None:
        if last:
            last[-1] = replace(last[-1], defects=(*last[-1].defects, reader.error))
        else:
            yield TextUnit(source=path, chunks=(), defects=(reader.error,))
    for raw in last:
        yield from raw_message_units(raw, path, options, stats)


def _single_units(
    path: str,
    opened: CountedStream,
    number: int,
    options: MailOptions,
    stats: ArchiveStats,
) -> list[TextUnit]:
    # One message per file: streamed when long and its header allows, else read whole.
    reader = CountingReader(opened, stats)
    cap = max(0, options.max_message_bytes)
    blocks: list[bytes] = []
    size = 0
    eof = False

    def read_block(wanted: int | None = None) -> None:
        nonlocal size, eof
        block = reader.read(wanted)
        if block:
            blocks.append(block)
            size += len(block)
        else:
            eof = True

    while size <= min(STREAM_MIN_BYTES, cap) and not eof:
        read_block()
    prefix = b"".join(blocks)
    if not eof:
        # The header block's end, as message_units finds it, is in the prefix once it
        # holds max_header_bytes + 3 bytes, if it ends within max_header_bytes: when not
        # found yet, read up to there at once (one more search, not one per block).
        header_len, body_start = find_body(prefix)
        if body_start == header_len and size <= options.max_header_bytes + 2:
            read_block(options.max_header_bytes + 3 - size)
            prefix = b"".join(blocks)
            header_len, body_start = find_body(prefix)
        if header_len < len(prefix) and not eof:  # the block's end is known
            units = _streamed_units(
                path, opened, reader, prefix, header_len, body_start, number, options, stats
            )
            if units is not None:
                return units
    # Whole: keep up to the cap, count (and skip) the rest. The bytes grow in one buffer
    # (resized in place) rather than as a list of blocks joined at the end, whose freed
    # blocks the allocator keeps: a 59 MB message peaked 30 MB higher that way.
    kept_bytes = bytearray(prefix[:cap])
    del prefix
    blocks.clear()
    while not eof and (block := reader.read()):
        size += len(block)
        if len(kept_bytes) < cap:
            kept_bytes += block[: cap - len(kept_bytes)]
    defects: list[Defect] = []
    truncated = size > cap
    if truncated:
        defects.append(
            Defect("message-truncated", f"message of {size} bytes cut at {cap} bytes", "warning")
        )
    if reader.error is not None:
        defects.append(reader.error)
    data = bytes(kept_bytes)
    del kept_bytes  # one copy held while the message is parsed, not two
    return _message(data, path, number, 0, options, stats, tuple(defects), truncated)


def _streamed_units(
    path: str,
    opened: CountedStream,
    reader: CountingReader,
    prefix: bytes,
    header_len: int,
    body_start: int,
    number: int,
    options: MailOptions,
    stats: ArchiveStats,
) -> list[TextUnit] | None:
    # The streamed path (see the module notes), or None to read the message whole.
    head = single_part_head(prefix[:body_start], header_len, options)
    if head is None:
        return None
    second: SecondReading | None = None
    if head.scanned:
        again = rereader(path, opened)
        if again is not None:
            second = SecondReading(path, again, body_start)
        else:
            import tempfile  # here: only standard input and pipes need it (and it is heavy)

            try:
                spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed by SecondReading
            except OSError:
                return None
            second = SecondReading(path, spool, 0)
    check = BodyCheck(head.codec) if head.scanned else None
    block = prefix[body_start:]  # may be empty: the prefix can end where the body starts
    del prefix
    size = 0
    while True:
        size += len(block)
        if check is not None:
            check.feed(block)
        if second is not None:
            second.keep(block)
        block = reader.read()
        if not block:
            break
    defects = () if reader.error is None else (reader.error,)
    if second is None:
        body = _no_body
    else:
        second.finish(size, reader.error is not None)
        body = second.blocks
    result = streamed_message_units(
        head,
        None if check is None else check.close(),
        body,
        source=path,
        number=number,
        offset=0,
        options=options,
        defects=defects,
    )
    _count(result, stats, False)
    return result.units


def _no_body() -> Iterator[bytes]:
    # The body of a skipped part, never read again: no unit holds its text. (Only the raw
    # fallback of streamed_message_units would, were a step to raise; none is known to.)
    return iter(())


def _close_quietly(source: Rereader | IO[bytes]) -> None:
    with contextlib.suppress(OSError):
        source.close()


class SecondReading:
    """A streamed body's bytes, read a second time (for its text).

    From the file itself through a :class:`~.compress.Rereader`, skipping the header, or
    from a temporary copy written during the first reading (:meth:`keep`). It owns that
    source and closes it when :meth:`blocks` ends, on :meth:`close`, or when collected.

    Args:
        path: the path, for errors.
        source: a rereader of the file, or an empty temporary file to copy the body into.
        skip: decompressed bytes before the body in what ``source`` gives.
    """

    def __init__(self, path: str, source: Rereader | IO[bytes], skip: int) -> None:
        self.path = path
        self._source = source
        self._skip = skip
        self._size = 0
        self._lenient = False
        self._closer = weakref.finalize(self, _close_quietly, source)

    def keep(self, block: bytes) -> None:
        """Copy a block of the first reading, when the source is a temporary file.

        Raises:
            SourceError: the temporary file cannot be written (the source is then closed).
        """
        if isinstance(self._source, Rereader):
            return
        try:
            self._source.write(block)
        except OSError as exc:
            self.close()
            reason = exc.strerror or str(exc)
            raise SourceError(self.path, f"cannot keep a temporary copy: {reason}") from exc

    def finish(self, size: int, read_error: bool) -> None:
        """Record the body's size, and whether the first reading ended on a read error."""
        self._size = size
        self._lenient = read_error

    def close(self) -> None:
        """Release the source (idempotent)."""
        self._closer()

    def blocks(self) -> Iterator[bytes]:
        """Yield the body's bytes again, as many as the first reading saw, then close.

        Raises:
            SourceError: the file gives fewer bytes than the first time (it changed), or
                cannot be read; not when the first reading itself ended on a read error
                (already a defect), as a damaged compressed stream may end a little
                earlier when read in other steps.
        """
        try:
            yield from self._read()
        finally:
            self.close()

    def _read(self) -> Iterator[bytes]:
        source = self._source
        stream: IO[bytes] = source.open().stream if isinstance(source, Rereader) else source
        try:
            if stream is source:
                stream.seek(0)  # the temporary copy, written to its end
            skip, left = self._skip, self._size
            while skip > 0 and (data := stream.read(min(TEXT_BLOCK_SIZE, skip))):
                skip -= len(data)
            while left > 0 and not skip:
                block = stream.read(min(TEXT_BLOCK_SIZE, left))
                if not block:
                    break
                left -= len(block)
                yield block
        except OSError as exc:
            if not self._lenient:
                raise SourceError(self.path, f"second reading failed: {exc}") from exc
            return
        finally:
            if stream is not source:
                _close_quietly(stream)
        if left > 0 and not self._lenient:
            raise SourceError(self.path, "the file changed while it was read (now shorter)")


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


def folder_units(
    files: list[str], options: MailOptions, stats: ArchiveStats, first: int = 1
) -> Iterator[TextUnit]:
    """Yield the text units of a folder's message files, numbering them from ``first``.

    The per-file step of :func:`open_units` for folders, also used by the parallel engine
    on batches of files (``first`` is then the number of the batch's first message). A
    file that cannot be opened gives a defect-only unit (``message-unreadable``).
    """
    for number, file in enumerate(files, first):
        try:
            opened = open_counted(file)
        except SourceError as exc:
            stats.messages += 1
            stats.messages_with_defects += 1
            yield TextUnit(
                source=file,
                chunks=(),
                defects=(Defect("message-unreadable", exc.reason, "warning"),),
            )
            continue
        try:
            units = _single_units(file, opened, number, options, stats)
        finally:
            opened.stream.close()
        yield from units


def text_chunks(opened: CountedStream, stats: ArchiveStats) -> Iterator[str]:
    """Decode an opened plain-text stream losslessly, counting it; closes it at the end.

    Args:
        opened: the (decompressed) stream from ``open_counted``.
        stats: counters (``files``, ``bytes_read``, ``stored_bytes_read``).

    Returns:
        An iterator of text chunks (:func:`urlsift.sources.text.decode_blocks`).
    """
    stats.files += 1
    decoded = stored = 0
    try:
        for chunk in decode_blocks(opened.stream):
            stats.bytes_read += opened.decoded.count - decoded
            stats.stored_bytes_read += opened.stored.count - stored
            decoded, stored = opened.decoded.count, opened.stored.count
            yield chunk
    finally:
        stats.bytes_read += opened.decoded.count - decoded
        stats.stored_bytes_read += opened.stored.count - stored
        opened.stream.close()


def open_units(
    path: str,
    kind: InputKind = "auto",
    options: MailOptions | None = None,
    stats: ArchiveStats | None = None,
) -> Iterator[TextUnit]:
    """Yield the text units of a file, folder or standard input (``-``).

    Text files become one unit (decoded by :mod:`.text`, losslessly); mail and news give
    one unit per scanned MIME part of each message, plus a header unit per message with
    ``options.scan_headers``. Compressed files (gzip, bzip2, xz) are read transparently.
    Nothing is opened until the iterator is first advanced.

    Args:
        path: a file, a Maildir/MH/news folder, or ``-`` for standard input.
        kind: what ``path`` holds, or ``auto`` to detect it (see :func:`detect_kind`).
        options: what to scan and the size caps; defaults to :class:`MailOptions()`.
        stats: counters to update as units are produced (see :class:`ArchiveStats`).

    Returns:
        An iterator of :class:`~urlsift.TextUnit`, in archive order.

    Raises:
        ConfigError: when ``kind`` is not an :data:`InputKind`.
        SourceError: when ``path`` cannot be opened, or is a directory for a file kind,
            or a file for a folder kind. Bad content never raises.
    """
    if kind not in INPUT_KINDS:
        raise ConfigError("kind", kind, f"expected one of {', '.join(INPUT_KINDS)}")
    return _open_units(path, kind, options or MailOptions(), stats or ArchiveStats())


def _open_units(
    path: str, kind: InputKind, options: MailOptions, stats: ArchiveStats
) -> Iterator[TextUnit]:
    is_dir = path != "-" and os.path.isdir(path)
    if is_dir:
        yield from folder_units(folder_files(path, kind), options, stats)
        return
    if kind in ("maildir", "mh"):
        raise SourceError(path, f"is not a directory, so not a {kind} folder")
    opened = open_counted(path)
    try:
        if kind == "auto":
            kind = sniff_kind(opened.stream.peek(SNIFF_BYTES)[:SNIFF_BYTES])
        if kind == "text":
            yield TextUnit(source=path, chunks=text_chunks(opened, stats))
        elif kind == "mbox":
            yield from _mbox_units(path, opened, options, stats)
        else:
            yield from _single_units(path, opened, 1, options, stats)
    finally:
        if kind != "text":
            opened.stream.close()
