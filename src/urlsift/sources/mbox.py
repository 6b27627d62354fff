"""Streaming mbox and MMDF splitter: archive bytes in, one raw message at a time out.

Strategy (sans-IO, after h11 and ``email.feedparser``): :meth:`MboxSplitter.feed` takes
blocks of any size and returns the messages they complete; :meth:`MboxSplitter.close`
returns the last one. The splitter never indexes the archive and never rescans: each block
is searched once for ``From `` (at a line start, a line that could open a message; after
``>``, a quoted line the message must be unquoted for), and only a partial last line that
might still become a separator (at most :data:`MAX_SEPARATOR_LINE` bytes and a CR) is held
back. Memory is the current message (capped at ``max_message_bytes``; the rest is counted
and skipped) plus the block being fed.

The common separator takes one step: one match reads the line at a ``From `` hit as an
envelope up to its LF, and when it follows an empty line (LF or CR LF) that closes a
message whole in the block, under the cap, with nothing to report or unquote, the message
is cut out and the next opened at once. Any other (a message across blocks, over the cap
or with a defect or a ``>From ``, a line the match does not take, an empty line of mixed
line ends) goes the long way, with the same result (``tests/test_sources_mbox.py`` holds
both to a reference splitter).

Separators.

* mbox (RFC 4155 and its mboxo/mboxrd/mboxcl variants): a message starts at a ``From_``
  line. Since bodies may hold unescaped lines starting ``From `` (mboxo only escapes some,
  and many writers none), a ``From `` line splits only when (a) it is the first line of the
  archive or follows an empty line (RFC 4155 writers end every message with one), and
  (b) it looks like an envelope: within :data:`MAX_SEPARATOR_LINE` bytes it holds a time of
  day (``12:30``) and a four-digit year, as every ``asctime``-style stamp does. A ``From ``
  line that fails (a) but passes (b) is reported on its message as ``mbox-from-in-body``.
  The empty line before a separator belongs to the separator and is removed from the
  message. Lines may end in LF or CRLF.
* MMDF: messages sit between lines of four ``\\x01`` bytes; the format is chosen when the
  archive's first bytes are such a line.

Quoting: ``>From `` lines are unquoted by the mboxrd rule (one ``>`` removed from any line
matching ``>+From ``). In an mboxo archive this also unquotes a ``>From `` that the author
wrote, which changes one quote character and never a URL.

Offsets are positions in the (decompressed) archive: for mbox, the first byte of the
``From_`` line; for MMDF, the first byte after the opening delimiter line.
"""

from __future__ import annotations

import re
from typing import Literal

from .._model import Defect
from .._record import maker, record
from .options import DEFAULT_MAX_MESSAGE_BYTES

MboxFormat = Literal["mbox", "mmdf"]
"""Separator convention of an archive."""

FROM_LINE_START = b"From "
"""RFC 4155: a ``From_`` line starts with these five bytes."""

MMDF_DELIMITER = b"\x01\x01\x01\x01"
"""An MMDF message delimiter line: four Control-A bytes."""

MAX_SEPARATOR_LINE = 1024
"""Longest line considered as a separator; real ``From_`` lines are far shorter."""

# An asctime()-style stamp ("Thu Sep 13 12:30:05 2001", "Sat Sep  1 20:58 EDT 2001"):
# a time of day and a four-digit year, in either order of time zone and year. The rule
# is ``\b\d{1,2}:\d\d\b`` and ``\b\d{4}\b`` anywhere after "From "; each is written
# here to start with what re can scan for at C speed (the colon, a digit), the word
# boundary before the digits as a look-behind (a test holds the two writings equal).
_TIME_OF_DAY_RULE = (
    rb":(?:(?<=[^0-9A-Za-z_][0-9][0-9]:)|(?<=[^0-9A-Za-z_][0-9]:))[0-9][0-9](?![0-9A-Za-z_])"
)
_YEAR_RULE = rb"[0-9](?<![0-9A-Za-z_][0-9])[0-9]{3}(?![0-9A-Za-z_])"
_TIME_OF_DAY = re.compile(_TIME_OF_DAY_RULE)
_YEAR = re.compile(_YEAR_RULE)
# A whole envelope line at once, from its "From " to its LF: is_envelope_line's stamp
# tests as look-aheads that stay on the line (a CR or LF after the digits is a word
# boundary as the line's end is; greedy, as stamps end their lines), at most
# MAX_SEPARATOR_LINE bytes with its CR if any. A line it does not take (no LF in the
# region, or one CR too long) is read the long way.
_ON_LINE = rb"[^\n]{0,%d}" % (MAX_SEPARATOR_LINE - len(FROM_LINE_START))
_ENVELOPE = re.compile(
    rb"From (?=%s%s)(?=%s%s)%s\n" % (_ON_LINE, _TIME_OF_DAY_RULE, _ON_LINE, _YEAR_RULE, _ON_LINE)
)
# mboxrd: ">From ", ">>From " ... lose one ">" each. Where such a line's last ">" is: a
# literal, which re finds at C speed.
_GT_FROM = re.compile(rb">From ")
# "From " anywhere: re's search for a literal is about twice as fast as bytes.find's here
# (the needle ends in a space, which text is full of).
_FROM = re.compile(re.escape(FROM_LINE_START))


def is_envelope_line(line: bytes) -> bool:
    """Return whether ``line`` (without its line end) looks like an mbox ``From_`` line.

    Args:
        line: one line of the archive, line end removed.

    Returns:
        True when it starts with ``From ``, is at most :data:`MAX_SEPARATOR_LINE` bytes and
        holds a time of day and a four-digit year after the ``From``.
    """
    return (
        line.startswith(FROM_LINE_START)
        and len(line) <= MAX_SEPARATOR_LINE
        and _TIME_OF_DAY.search(line, 5) is not None
        and _YEAR.search(line, 5) is not None
    )


def unquote_from_lines(data: bytes) -> bytes:
    """Undo mboxrd ``From `` quoting: remove one ``>`` from each line matching ``>+From ``."""
    # re.sub(rb"(?m)^>(>*From )", rb"\1", data) (a test holds the two equal), without
    # that pattern's match attempt at every byte (a "^" gives re no first character to
    # scan for): at each ">From " found, the line matches when the bytes from its start
    # up to there are all ">"; only a line's first ">From " can be so, so the search goes
    # on from the next line (each byte is read a bounded number of times, however many
    # ">From " a line holds).
    search = _GT_FROM.search
    found = search(data)
    if found is None:
        return data
    pieces = []
    kept = 0  # data[kept:] not yet in pieces
    while found is not None:
        at = found.start()
        line = data.rfind(b"\n", 0, at) + 1  # after the last hit's line: read once
        if data.count(b">", line, at) == at - line:
            pieces.append(data[kept:line])
            kept = line + 1  # the line's first ">" left out
        newline = data.find(b"\n", at)
        if newline < 0:
            break
        found = search(data, newline)
    pieces.append(data[kept:])
    return b"".join(pieces)


def _trim(parts: list[bytes], count: int) -> None:
    # Remove the last ``count`` bytes from the pieces of a message.
    while count > 0 and parts:
        last = parts[-1]
        if len(last) <= count:
            count -= len(last)
            parts.pop()
        else:
            parts[-1] = last[:-count]
            count = 0


def _line_at(region: bytes, start: int) -> tuple[bytes, int, int]:
    """The line of ``region`` that starts at ``start`` (without its CR LF or LF), the
    offset of its LF (-1: the region ends first) and where the next line starts."""
    end = region.find(b"\n", start)
    line_end = end if end >= 0 else len(region)
    line = region[start:line_end]
    if line.endswith(b"\r"):
        line = line[:-1]
    return line, end, line_end + 1 if end >= 0 else line_end


@record
class RawMessage:
    """One message cut out of an archive, before any MIME parsing."""

    number: int
    """1-based number of the message in the archive."""
    offset: int
    """Byte offset in the decompressed archive (see the module notes)."""
    data: bytes
    """The message bytes: header and body, ``From_`` line removed, ``>From`` unquoted,
    at most ``max_message_bytes`` long."""
    envelope: bytes
    """The ``From_`` line without its line end (empty for MMDF and text before it)."""
    size: int
    """Bytes the message had in the archive (larger than ``len(data)`` if truncated)."""
    truncated: bool
    """True when the message was cut at ``max_message_bytes``."""
    defects: tuple[Defect, ...] = ()
    """Problems seen while splitting (``missing-separator``, ``message-truncated``...)."""


_new_message = maker(RawMessage)  # all fields, positional: without the call through the class


class MboxSplitter:
    """Split an mbox or MMDF byte stream into messages without holding more than one.

    Args:
        max_message_bytes: bytes kept per message; the rest is counted and skipped.
        mbox_format: ``mbox`` or ``mmdf``; ``None`` decides from the first bytes fed.
        offset: the archive offset of the first byte fed (a range of a file read from
            there): the messages' offsets count from the file's start.

    Raises:
        ValueError: from :meth:`feed` after :meth:`close` (a caller's mistake).
    """

    def __init__(
        self,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        mbox_format: MboxFormat | None = None,
        *,
        offset: int = 0,
    ) -> None:
        self._max = max(0, max_message_bytes)
        self._format: MboxFormat | None = mbox_format
        self._pending = b""  # partial last line held back: it may become a separator
        self._pos = offset  # archive offset of the next byte to scan (pending's first byte)
        self._tail = b"\n\n"  # last bytes scanned; a virtual empty line before the start
        self._mid_line = False  # the next byte to scan continues a line
        self._number = 0
        self._closed = False
        self.bytes_fed = 0
        """Archive bytes received so far."""
        self._reset(offset=offset, envelope=b"", started=False)

    def _reset(self, offset: int, envelope: bytes, started: bool) -> None:
        self._parts: list[bytes] = []
        self._kept = 0
        self._size = 0
        self._truncated = False
        self._offset = offset
        self._envelope = envelope
        self._started = started  # a separator opened this message
        self._from_in_body = 0

    @property
    def mbox_format(self) -> MboxFormat | None:
        """The separator convention in use (``None`` until the first bytes decide it)."""
        return self._format

    @property
    def buffered_bytes(self) -> int:
        """Bytes held now: the current message's kept bytes plus the held-back line."""
        return self._kept + len(self._pending)

    @property
    def messages_emitted(self) -> int:
        """Messages returned so far."""
        return self._number

    def feed(self, data: bytes) -> list[RawMessage]:
        """Take the next bytes of the archive; return the messages they complete."""
        if self._closed:
            raise ValueError("MboxSplitter.feed() after close()")
        out: list[RawMessage] = []
        if not data:
            return out
        self.bytes_fed += len(data)
        region = self._pending + data if self._pending else data
        self._pending = b""
        if self._format is None:
            if len(region) < len(MMDF_DELIMITER):
                self._pending = region
                return out
            self._format = "mmdf" if region.startswith(MMDF_DELIMITER) else "mbox"
        separator = FROM_LINE_START if self._format == "mbox" else MMDF_DELIMITER
        cut = region.rfind(b"\n") + 1
        rest = region[cut:]
        if (
            rest
            and (cut > 0 or not self._mid_line)
            and len(rest) <= MAX_SEPARATOR_LINE + 1  # a CR may end it
            and separator.startswith(rest[: len(separator)])
        ):
            self._pending = rest
            region = region[:cut]
        self._scan(region, out)
        return out

    def close(self) -> list[RawMessage]:
        """Signal the end of the archive; return the last message(s)."""
        out: list[RawMessage] = []
        if self._closed:
            return out
        region = self._pending
        self._pending = b""
        if self._format is None:
            self._format = "mmdf" if region.startswith(MMDF_DELIMITER) else "mbox"
        self._scan(region, out)
        self._finish(out)
        self._closed = True
        return out

    # -- internals -------------------------------------------------------------------

    def _scan(self, region: bytes, out: list[RawMessage]) -> None:
        # Find every line start in ``region`` that could open a message, decide, and
        # move the bytes between separators into the current message.
        if not region:
            return
        if self._format == "mbox":
            self._scan_mbox(region, out)
        else:
            self._scan_mmdf(region, out)
        self._tail = (self._tail + region[-3:])[-3:]
        self._mid_line = not region.endswith(b"\n")
        self._pos += len(region)

    def _scan_mbox(self, region: bytes, out: list[RawMessage]) -> None:
        # One search for "From " finds both the lines that may be separators (after an
        # LF, or at the region's start when it starts a line) and the ">From " that tell
        # a message needs unquoting. The common separator (an envelope line with its LF
        # in the region, after an empty line, closing a message that is whole in the
        # region, under the cap, with nothing to report or unquote) is taken in one step;
        # any other goes through _separator.
        start = 0  # first byte of region not yet given to a message
        quoted = -1  # where a ">From " was seen (a message from before it needs unquoting)
        envelope = _ENVELOPE.match
        pos, cap = self._pos, self._max
        # the current message opened at a separator and has no bytes from an earlier
        # region: nothing to join or trim, and nothing to report (a From_-like body line
        # follows bytes of its message)
        plain = self._started and not self._size
        skip = 1 if self._mid_line else 0  # hits before this are on a line already read
        for hit in _FROM.finditer(region):
            found = hit.start()
            if found:
                if found < skip:
                    continue
                before = region[found - 1]
                if before != 0x0A:  # not at a line start
                    if before == 0x3E:  # ">From "
                        quoted = found - 1
                    continue
            elif skip:
                continue
            line_match = envelope(region, found)
            if line_match is None:  # no envelope, or not one this step reads
                line, end, next_start = _line_at(region, found)
                if is_envelope_line(line):
                    start = self._separator(region, start, found, line, next_start, quoted, out)
                    plain = self._started and not self._from_in_body
                if end < 0:
                    break
                skip = end
                continue
            next_start = skip = line_match.end()
            line = region[found : next_start - 1]
            if line[-1] == 0x0D:
                line = line[:-1]
            stop = -1  # where the message ends less its final empty line, if in one step
            if plain and quoted < start and start + 2 <= found <= start + cap:
                if region[found - 2] == 0x0A:  # after an empty LF line: less its LF
                    stop = found - 1
                elif found >= start + 4 and region[found - 4 : found - 1] == b"\r\n\r":
                    stop = found - 2  # after an empty CR LF line: less its CR LF
            if stop >= 0:
                self._number += 1
                out.append(
                    _new_message(
                        self._number,
                        self._offset,
                        region[start:stop],
                        self._envelope,
                        found - start,
                        False,
                        (),
                    )
                )
                self._offset = pos + found
                self._envelope = line
                start = next_start
            else:
                start = self._separator(region, start, found, line, next_start, quoted, out)
                plain = self._started and not self._from_in_body
        self._append(region[start:])

    def _separator(
        self,
        region: bytes,
        start: int,
        found: int,
        line: bytes,
        next_start: int,
        quoted: int,
        out: list[RawMessage],
    ) -> int:
        # The envelope ``line`` at region[found:next_start]: when it follows an empty line,
        # the current message ends before it and the next opens; else it is counted as a
        # body line. Returns where the region's unread bytes start now.
        if not self._follows_empty_line(region, found):
            self._from_in_body += 1
            return start
        if self._size or start + self._max < found:
            self._append(region[start:found])
            self._finish(out)
        else:  # the whole message is in this region: one copy, not three
            self._size = found - start
            stop = self._message_end(region, start, found)
            self._deliver(region[start:stop], out, quoted >= start)
        self._reset(self._pos + found, line, started=True)
        return next_start

    def _scan_mmdf(self, region: bytes, out: list[RawMessage]) -> None:
        needle = b"\n" + MMDF_DELIMITER
        start = 0  # first byte of region not yet given to a message
        if not self._mid_line and region.startswith(MMDF_DELIMITER):
            candidate = 0
        else:
            found = region.find(needle)
            candidate = found + 1 if found >= 0 else -1
        while candidate >= 0:
            line, end, next_start = _line_at(region, candidate)
            if line == MMDF_DELIMITER:
                self._append(region[start:candidate])
                self._finish(out)
                self._reset(self._pos + next_start, b"", started=True)
                start = next_start
            if end < 0:
                break
            found = region.find(needle, end)
            candidate = found + 1 if found >= 0 else -1
        self._append(region[start:])

    def _follows_empty_line(self, region: bytes, index: int) -> bool:
        if index >= 3:  # region[index - 1] is the LF before the line
            last = region[index - 2]
            return last == 0x0A or (last == 0x0D and region[index - 3] == 0x0A)
        before = region[max(0, index - 3) : index]
        if len(before) < 3:
            before = (self._tail + before)[-3:]
        return before.endswith((b"\n\n", b"\n\r\n"))

    def _append(self, chunk: bytes) -> None:
        if not chunk:
            return
        self._size += len(chunk)
        room = self._max - self._kept
        if len(chunk) > room:
            self._truncated = True
            chunk = chunk[:room]
            if not chunk:
                return
        self._parts.append(chunk)
        self._kept += len(chunk)

    @staticmethod
    def _message_end(region: bytes, start: int, stop: int) -> int:
        # Where region[start:stop] ends less its final empty line (see _finish).
        if region.endswith(b"\n\n", start, stop):
            return stop - 1
        if region.endswith(b"\r\n\r\n", start, stop):
            return stop - 2
        return stop

    def _finish(self, out: list[RawMessage]) -> None:
        # The pieces are taken out first and the final empty line cut from the last ones,
        # so that the message is joined once and its pieces freed right after: memory is
        # twice the message for a moment, not three times for as long as the splitter
        # lives.
        parts, self._parts = self._parts, []
        if self._format == "mbox" and not self._truncated and parts:
            # RFC 4155: the empty line that ends each message belongs to the separator.
            tail = b"".join(part[-4:] for part in parts[-4:])[-4:]  # parts are not empty
            _trim(parts, len(tail) - self._message_end(tail, 0, len(tail)))
        data = b"".join(parts)
        parts.clear()
        self._deliver(data, out)

    def _deliver(self, data: bytes, out: list[RawMessage], unquote: bool = True) -> None:
        # The current message, its bytes ``data`` (complete, or cut at the cap), to ``out``;
        # ``unquote`` False when ``data`` is known to hold no ">From ".
        mbox = self._format == "mbox"
        if not (data and not data.isspace()) and not (mbox and self._started):
            # Blank lines before the first message, or between MMDF delimiters.
            return
        if self._started and not (self._truncated or self._from_in_body or unquote):
            # Most messages: nothing to report, nothing to unquote.
            self._number += 1
            out.append(
                RawMessage(self._number, self._offset, data, self._envelope, self._size, False, ())
            )
            return
        defects: list[Defect] = []
        if not self._started:
            where = "From_ line" if mbox else "MMDF delimiter"
            defects.append(
                Defect(
                    "missing-separator",
                    f"text before the first {where} read as a message",
                    "warning",
                )
            )
        if self._truncated:
            defects.append(
                Defect(
                    "message-truncated",
                    f"message of {self._size} bytes cut at {self._max} bytes",
                    "warning",
                )
            )
        if self._from_in_body:
            defects.append(
                Defect(
                    "mbox-from-in-body",
                    f"{self._from_in_body} From_-like line(s) not after an empty line "
                    "were read as body text",
                    "warning",
                )
            )
        if mbox and unquote:
            data = unquote_from_lines(data)
        self._number += 1
        out.append(
            RawMessage(
                number=self._number,
                offset=self._offset,
                data=data,
                envelope=self._envelope,
                size=self._size,
                truncated=self._truncated,
                defects=tuple(defects),
            )
        )
