"""Transparent decompression: open a path (or ``-``) as one stream of decompressed bytes.

Strategy: the format is recognised by its magic bytes, never by the file name, so
``archive.mbox`` that is really gzip and ``notes.gz`` that is really plain text both work.
The first bytes are read once and replayed in front of the rest of the stream, which works
the same for files, pipes and standard input (nothing is read twice and nothing needs
``seek``). gzip (also multi-member), bzip2 (also multi-stream) and xz/lzma streams are
decoded by the standard library's file objects, incrementally: memory is one read block.

Every layer counts its bytes: :class:`CountedStream` tells how many bytes were read as
stored (for a progress bar against the file size) and how many after decompression. A
corrupt or truncated compressed stream raises :class:`~urlsift.errors.SourceError` (an
``OSError``), never a codec-specific exception, and only after every byte decoded before
the damage has been delivered: the read that meets the damage ends the data early, and the
next ``read`` or the ``close`` raises.

A regular file can be read a second time (:class:`Rereader`, for a message body streamed in
two passes): through a duplicate of its descriptor, read with ``pread`` from offset 0, so
the second reading sees the same file even if it was renamed or unlinked meanwhile, and
needs nothing from the first stream, which may already be closed.

Opening by name (issue 24 item 15): a path whose folder a walk of this thread holds open
(:func:`hold_folder`, by :class:`~.walk.FolderBranch`) is opened, or examined, by its name
in that folder's descriptor (:func:`open_fd`, :func:`stat_path`), so the system does not
resolve the folders above it again: the cost of opening a file found by a walk does not
grow with its depth. The answer is the one the path would give (the same folder, the
same errors); any other path is opened by its path.
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from _thread import _local
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, BinaryIO, Literal, Protocol

from .._record import record
from ..errors import SourceError

if TYPE_CHECKING:
    import bz2
    import gzip
    import lzma

# bz2, gzip, lzma and zlib (and what they import) are imported by the stream that needs
# them: a plain-text scan does not pay for them at start-up.

Compression = Literal["gzip", "bzip2", "xz", "none"]
"""How a stream was compressed, as recognised from its first bytes."""

MAGIC_BYTES: tuple[tuple[bytes, Compression], ...] = (
    (b"\x1f\x8b", "gzip"),  # RFC 1952 §2.3.1: ID1 ID2
    (b"BZh", "bzip2"),  # bzip2 stream header: "BZh" then the block size digit
    (b"\xfd7zXZ\x00", "xz"),  # xz file format §2.1.1.1: header magic bytes
)
"""Magic prefixes of the recognised formats (the legacy ``.lzma`` format is not sniffed:
its three-byte header is too easily plain data)."""

MAGIC_LENGTH = 6
"""Bytes needed to recognise every format in :data:`MAGIC_BYTES`."""

DEFAULT_BUFFER_SIZE = 1 << 16
"""Buffer size of the returned reader."""


@lru_cache(maxsize=1)
def _decode_errors() -> tuple[type[Exception], ...]:
    # What reading a (decompressed) stream raises on damaged data. Called in an ``except``
    # clause, which Python evaluates only when an exception is raised: a clean read of a
    # plain file never imports the decompressors for their error types.
    import lzma
    import zlib

    return (EOFError, OSError, zlib.error, lzma.LZMAError, ValueError)


def sniff_compression(prefix: bytes) -> Compression:
    """Return the compression format that ``prefix`` (the first bytes of a stream) shows.

    Args:
        prefix: at least :data:`MAGIC_LENGTH` bytes when the stream has them.

    Returns:
        ``gzip``, ``bzip2``, ``xz`` or ``none``.
    """
    for magic, name in MAGIC_BYTES:
        if prefix.startswith(magic):
            if name == "bzip2" and not prefix[3:4].isdigit():
                continue  # "BZh" must be followed by the block size digit 1-9
            return name
    return "none"


class CountingReader(io.RawIOBase):
    """Raw stream over a ``read(n)`` function: replays a prefix, counts, maps errors.

    Decoding errors of the function become :class:`~urlsift.errors.SourceError`, reported
    after the bytes read before them (see the module notes).
    """

    def __init__(
        self,
        path: str,
        read: Callable[[int], bytes],
        close: Callable[[], None] | None,
        prefix: bytes = b"",
        what: str = "file",
        readinto: Callable[[memoryview | bytearray], int | None] | None = None,
    ) -> None:
        super().__init__()
        self._path = path
        self._read = read
        # The source's own readinto, used once the prefix is replayed: the bytes go
        # straight into the caller's buffer (read() then a copy cost a fresh block and a
        # copy per read: 44 ms of reading a 47 MB archive).
        self._readinto = readinto
        self._close = close
        self._prefix = prefix
        self._what = what
        self._error: SourceError | None = None
        self._error_due = False  # the end of data was reported: raise on the next call
        self.count = 0
        """Bytes delivered so far."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        if self._error is not None:
            # First an end-of-data (a buffered reader then hands out what it holds),
            # then the error itself on the call after.
            if self._error_due:
                error, self._error = self._error, None
                raise error
            self._error_due = True
            return 0
        if self._readinto is not None and not self._prefix:
            try:
                got = self._readinto(buffer) or 0
            except _decode_errors() as exc:
                self._failed(exc, False)
                return 0
            self.count += got
            return got
        size = len(buffer)
        data = b""
        if self._prefix:
            data = self._prefix[:size]
            self._prefix = self._prefix[size:]
        if len(data) < size:
            try:
                data += self._read(size - len(data))
            except _decode_errors() as exc:
                self._failed(exc, bool(data))
        n = len(data)
        buffer[:n] = data
        self.count += n
        return n

    def _failed(self, exc: BaseException, delivering: bool) -> None:
        # Deliver what was read first and report the end of the data; the error is raised
        # by the call after that, or by close(), so no byte before the damage is lost (a
        # buffered reader drops the bytes of a read() whose raw read raises).
        if isinstance(exc, SourceError):
            self._error = exc
        else:
            self._error = SourceError(self._path, f"cannot read {self._what}: {exc}")
            self._error.__cause__ = exc
        self._error_due = not delivering  # returning 0 now is the end-of-data signal

    def take_error(self) -> SourceError | None:
        """Return (and forget) the error that ended the data early, if any."""
        error, self._error = self._error, None
        return error

    def close(self) -> None:
        if not self.closed and self._close is not None:
            self._close()
        super().close()
        error = self.take_error()
        if error is not None:
            raise error


@record
class CountedStream:
    """An opened source: the decompressed stream and its byte counters."""

    stream: io.BufferedReader
    """Decompressed bytes, buffered (``peek`` works). Closing it closes the file."""
    compression: Compression
    """The compression recognised from the magic bytes."""
    stored: CountingReader
    """Counts bytes read as stored (``stored.count``)."""
    decoded: CountingReader
    """Counts bytes delivered after decompression (``decoded.count``)."""
    file: BinaryIO | None = None
    """The file opened for a path (``None`` for standard input), for :func:`rereader`."""


class HeldFolder(Protocol):
    """A folder a walk holds open: its descriptor (-1 while closed)."""

    @property
    def fd(self) -> int: ...
    @property
    def linkless(self) -> bool:
        """True when the walk opened it by name without following a link."""


class _Held(_local):
    def __init__(self) -> None:
        self.folders: dict[str, HeldFolder] = {}


_HELD = _Held()
"""The folders held open by the walks of each thread, by their paths (as the walk spells
them, without a trailing separator): a thread sees only its own."""

_BY_NAME = os.open in os.supports_dir_fd and os.stat in os.supports_dir_fd and os.sep == "/"


def _key(path: str) -> str:
    return path.rstrip("/") or path


def hold_folder(path: str, folder: HeldFolder) -> None:
    """Let paths in the folder ``path`` be opened by name in ``folder.fd`` (while it is
    not -1), until :func:`release_folder`; a path already held keeps its first holder."""
    if _BY_NAME:
        _HELD.folders.setdefault(_key(path), folder)


def release_folder(path: str, folder: HeldFolder) -> None:
    """Forget ``folder`` (held by :func:`hold_folder` under ``path``)."""
    held = _HELD.folders
    key = _key(path)
    if held.get(key) is folder:
        del held[key]


_HELD_LEVELS = 4
"""How far above ``path`` :func:`held_at` looks for a held folder (``P/config/x.toml``)."""


def held_at(path: str) -> tuple[int, str] | None:
    """(the descriptor of a folder a walk of this thread holds open, the rest of ``path``
    below it) when ``path`` lies up to :data:`_HELD_LEVELS` levels below one, else None."""
    held = _HELD.folders
    if not held or path.endswith("/"):
        return None
    folder = path
    for _ in range(_HELD_LEVELS):
        cut = folder.rfind("/")
        if cut <= 0:
            return None
        folder = folder[:cut].rstrip("/") or "/"
        found = held.get(folder)
        if found is not None:
            fd = found.fd
            return None if fd < 0 else (fd, path[cut + 1 :].lstrip("/"))
    return None


def open_fd(path: str, flags: int) -> int:
    """``os.open(path, flags)``, by name in the folder's descriptor when a walk holds it
    (see the module notes). Raises OSError as ``os.open`` does."""
    at = held_at(path)
    if at is None:
        return os.open(path, flags)
    try:
        return os.open(at[1], flags, dir_fd=at[0])
    except OSError as exc:
        raise _named(exc, path) from None


def stat_path(path: str, follow_symlinks: bool = True) -> os.stat_result:
    """``os.stat(path)``, by name in the folder's descriptor when a walk holds it. Raises
    OSError (and ValueError for a NUL byte) as ``os.stat`` does."""
    at = held_at(path)
    if at is None:
        return os.stat(path, follow_symlinks=follow_symlinks)
    try:
        return os.stat(at[1], dir_fd=at[0], follow_symlinks=follow_symlinks)
    except OSError as exc:
        raise _named(exc, path) from None


def stat_in(folder: str, name: str) -> os.stat_result:
    """``os.stat(os.path.join(folder, name))``, by ``name`` in ``folder``'s descriptor when
    a walk of this thread holds it (for many names in one folder: the same ``folder``
    string is looked up at the cost of one). Raises as :func:`stat_path` does."""
    held = _HELD.folders
    found = held.get(folder) if held else None
    if found is None or found.fd < 0 or not name or os.path.isabs(name):
        return stat_path(os.path.join(folder, name))
    try:
        return os.stat(name, dir_fd=found.fd)
    except OSError as exc:
        raise _named(exc, os.path.join(folder, name)) from None


def _named(exc: OSError, path: str) -> OSError:
    # The error of a call by name, as the call by path raises it (the path in it).
    return type(exc)(exc.errno, exc.strerror, path)


def is_link(path: str) -> bool:
    """``os.path.islink(path)``: False without asking the system for a folder a walk of
    this thread entered by name without following a link; else by name in a held
    folder's descriptor (:func:`stat_path`)."""
    held = _HELD.folders.get(_key(path)) if _HELD.folders else None
    if held is not None and held.linkless:
        return False
    try:
        return stat.S_ISLNK(stat_path(path, follow_symlinks=False).st_mode)
    except (OSError, ValueError):
        return False


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def _open_file(path: str) -> BinaryIO:
    # open(path, "rb"), by name when a walk holds the folder: the same errors (a folder
    # is IsADirectoryError). Opened without waiting for a writer (a FIFO that took the
    # file's place), then read blocking.
    at = held_at(path)
    if at is None:
        return open(path, "rb")
    try:
        fd = os.open(at[1], _OPEN_FLAGS | _NONBLOCK, dir_fd=at[0])
    except OSError as exc:
        raise _named(exc, path) from None
    try:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if _NONBLOCK:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _read_prefix(read: Callable[[int], bytes], size: int) -> bytes:
    # Pipes may deliver fewer bytes than asked for: loop until ``size`` bytes or EOF.
    parts: list[bytes] = []
    have = 0
    while have < size:
        data = read(size - have)
        if not data:
            break
        parts.append(data)
        have += len(data)
    return b"".join(parts)


def open_counted(path: str, buffer_size: int = DEFAULT_BUFFER_SIZE) -> CountedStream:
    """Open ``path`` (``-`` for standard input) as decompressed bytes with byte counters.

    Args:
        path: a file path, or ``-`` for standard input (which is never closed).
        buffer_size: buffer size of the returned stream.

    Returns:
        A :class:`CountedStream`; close its ``stream`` when done.

    Raises:
        SourceError: when the path cannot be opened (also later, from ``read``, when a
            compressed stream turns out corrupt or truncated).
    """
    close: Callable[[], None] | None
    if path == "-":
        base: BinaryIO = sys.stdin.buffer
        close = None
    else:
        try:
            base = _open_file(path)  # closed through the returned stream
        except OSError as exc:
            raise SourceError(path, exc.strerror or str(exc)) from exc
        close = base.close
    try:
        head = _read_prefix(base.read, MAGIC_LENGTH)
    except OSError as exc:
        if close is not None:
            close()
        raise SourceError(path, exc.strerror or str(exc)) from exc
    return _counted(path, base.read, close, head, buffer_size, None if path == "-" else base)


def _counted(
    path: str,
    read: Callable[[int], bytes],
    close: Callable[[], None] | None,
    head: bytes,
    buffer_size: int,
    file: BinaryIO | None,
) -> CountedStream:
    # The stream over ``read`` (whose first bytes, ``head``, were already read), decompressed
    # as its magic bytes say.
    compression = sniff_compression(head)
    readinto = getattr(file, "readinto", None)
    stored = CountingReader(path, read, close, head, readinto=readinto)
    decoded = stored
    if compression != "none":
        opened: gzip.GzipFile | bz2.BZ2File | lzma.LZMAFile
        packed = io.BufferedReader(stored, buffer_size)
        if compression == "gzip":
            import gzip

            opened = gzip.GzipFile(fileobj=packed, mode="rb")
        elif compression == "bzip2":
            import bz2

            opened = bz2.BZ2File(packed, mode="rb")
        else:
            import lzma

            opened = lzma.LZMAFile(packed, mode="rb")  # noqa: SIM115 - closed below

        def close_both() -> None:
            try:
                opened.close()
            finally:
                packed.close()  # closes ``stored`` and the file under it

        # read1: one decompression step per call, so bytes decoded before a damaged
        # stretch are delivered before the error is raised.
        decoded = CountingReader(path, opened.read1, close_both, what=f"{compression} stream")
    return CountedStream(
        stream=io.BufferedReader(decoded, buffer_size),
        compression=compression,
        stored=stored,
        decoded=decoded,
        file=file,
    )


class Rereader:
    """A second reading of a regular file, from its start, independent of the first stream.

    It holds a duplicate of the file's descriptor (so the first stream may be closed, and
    the file renamed or unlinked, meanwhile) and reads it with ``pread`` at its own offset.
    Close it when done; :meth:`open` may be called more than once.
    """

    def __init__(self, path: str, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    def open(self, buffer_size: int = DEFAULT_BUFFER_SIZE) -> CountedStream:
        """Return the file's bytes from the start, decompressed as :func:`open_counted` does.

        Raises:
            SourceError: when the reader is closed or the file cannot be read; later, from
                ``read``, as for :func:`open_counted`.
        """
        fd = self._fd
        if fd is None:
            raise SourceError(self.path, "second reading already closed")
        position = 0

        def read(size: int) -> bytes:
            nonlocal position
            data = os.pread(fd, size, position)
            position += len(data)
            return data

        try:
            head = _read_prefix(read, MAGIC_LENGTH)
        except OSError as exc:
            raise SourceError(self.path, exc.strerror or str(exc)) from exc
        return _counted(self.path, read, None, head, buffer_size, None)

    def close(self) -> None:
        """Release the duplicated descriptor (idempotent)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


def rereader(path: str, opened: CountedStream) -> Rereader | None:
    """Return a :class:`Rereader` for an opened regular file, or ``None``.

    ``None`` for standard input and for anything that is not a regular file (a pipe, a
    device), which cannot be read twice, and when the descriptor cannot be duplicated.
    """
    file = opened.file
    if file is None or not hasattr(os, "pread"):  # no pread on Windows
        return None
    try:
        fd = os.dup(file.fileno())
    except (OSError, ValueError):
        return None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError:
        regular = False
    if not regular:
        os.close(fd)
        return None
    return Rereader(path, fd)


def decompress_prefix(prefix: bytes, size: int) -> bytes | None:
    """Return up to ``size`` decompressed bytes of a stream that starts with ``prefix``.

    ``prefix`` itself when it shows no compression; ``None`` when its start cannot be
    decoded. The formats are those :func:`open_counted` recognises.
    """
    compression = sniff_compression(prefix)
    try:
        if compression == "gzip":
            import zlib

            return zlib.decompressobj(wbits=31).decompress(prefix, size)
        if compression == "xz":
            import lzma

            return lzma.LZMADecompressor().decompress(prefix, size)
        if compression == "bzip2":
            import bz2

            return bz2.BZ2Decompressor().decompress(prefix, size)
    except _decode_errors():
        return None
    return prefix


def peek_stdin(size: int) -> bytes | None:
    """Return up to ``size`` decompressed bytes of standard input, consuming none.

    The bytes already buffered are peeked (:func:`decompress_prefix` of them); ``None``
    when standard input has no ``peek`` or its start cannot be decoded.
    """
    peek = getattr(sys.stdin.buffer, "peek", None)
    if peek is None:
        return None
    prefix: bytes = peek(size)[:size]
    return decompress_prefix(prefix, size)


def open_binary(path: str) -> BinaryIO:
    """Open ``path`` (``-`` for standard input) for reading, decompressing transparently.

    gzip, bzip2 and xz are recognised by their magic bytes, whatever the file is called;
    anything else is passed through unchanged.

    Args:
        path: a file path, or ``-`` for standard input (which closing does not close).

    Returns:
        A buffered binary stream of the decompressed bytes.

    Raises:
        SourceError: when the path cannot be opened, or when a compressed stream is
            corrupt or truncated: then the data ends early and the next ``read`` or the
            ``close`` raises. ``SourceError`` is an ``OSError``.
    """
    return open_counted(path).stream
