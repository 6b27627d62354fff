"""The scanner's text buffer: undecided text with its offsets, line numbers and quote prefix.

Strategy: the buffer keeps text and answers questions about where things are in it; it
decides nothing about URLs (that is :mod:`.scanner`'s work, as h11 keeps its receive
buffer apart from its readers). What it promises:

* ``text[0]`` is at absolute offset ``base`` of the whole text; chunks added wait apart,
  unjoined, until :meth:`TextBuffer.flush` appends them in one step.
* Line numbers are counted once: a cursor remembers one index whose line number and line
  start are known, and a question about a later index counts only the line breaks in
  between (the scanner asks in text order, so a pass counts each line break once).
* The quote prefix of any line in the buffer can be read, also of the line holding
  ``text[0]`` when that line began before it (kept when the text before is dropped).
* Text is dropped only when the scanner says it is decided (:meth:`TextBuffer.discard`);
  the line of the cut is kept whole when it began shortly before, so its prefix stays in
  the text.
"""

from __future__ import annotations

from ..grammar.context import QUOTE_PREFIX_CHARS, QUOTE_PREFIX_RE, QUOTE_PREFIX_SPAN

# When the line holding a cut began at most this many characters before it, the text is
# kept from the line start (so the line's quote prefix can be read from it).
_KEEP_LINE = 256


class TextBuffer:
    """Undecided text of one scan, with its absolute offsets and line numbers."""

    __slots__ = (
        "_cur",
        "_cur_line",
        "_cur_line_start",
        "_head_prefix",
        "_pending",
        "_waiting",
        "base",
        "text",
    )

    def __init__(self, origin: tuple[int, int]) -> None:
        """Create an empty buffer.

        Args:
            origin: ``(offset, line)`` of the first character to be added, at a line start.
        """
        self.text = ""
        """The undecided text (what :meth:`flush` has appended and not been discarded)."""
        self.base = origin[0]
        """Absolute offset of ``text[0]``."""
        self._pending: list[str] = []
        self._waiting = 0  # characters in _pending
        # Line cursor: _cur is an index into text whose line number and line start are known.
        self._cur = 0
        self._cur_line = origin[1]
        self._cur_line_start = origin[0]  # absolute offset of the first character of _cur's line
        # Quote prefix of the line holding text[0] when that line began before text[0].
        self._head_prefix = ""

    def restart(self, origin: tuple[int, int], text: str) -> None:
        """Start again as a new buffer of ``origin`` would, holding ``text`` already
        flushed (a scan of one whole text: no chunk is queued)."""
        self.text = text
        self.base = origin[0]
        if self._pending:
            self._pending.clear()
            self._waiting = 0
        self._cur = 0
        self._cur_line = origin[1]
        self._cur_line_start = origin[0]
        self._head_prefix = ""

    def add(self, chunk: str) -> int:
        """Queue a chunk of text (joined to :attr:`text` by the next :meth:`flush`).

        Returns:
            The number of characters queued since the last :meth:`flush`.
        """
        self._pending.append(chunk)
        self._waiting += len(chunk)
        return self._waiting

    def flush(self) -> str:
        """Append the queued chunks to :attr:`text` and return it."""
        if self._pending:
            self.text += "".join(self._pending)
            self._pending.clear()
            self._waiting = 0
        return self.text

    def clear(self) -> None:
        """Drop all text (the scan is over)."""
        self.text = ""
        self._pending.clear()
        self._waiting = 0

    def line_at(self, i: int) -> tuple[int, int]:
        """Return (line number, absolute line start) of index ``i``; moves the cursor."""
        text = self.text
        cur = self._cur
        if i >= cur:
            newlines = text.count("\n", cur, i)
            if newlines:
                self._cur_line += newlines
                self._cur_line_start = self.base + text.rfind("\n", cur, i) + 1
        else:
            newlines = text.count("\n", i, cur)
            if newlines:
                self._cur_line -= newlines
                back = text.rfind("\n", 0, i)
                # Only reached for short backward moves inside the kept text.
                self._cur_line_start = self.base + back + 1 if back >= 0 else self.base
        self._cur = i
        return self._cur_line, self._cur_line_start

    def quote_prefix(self, line_start: int, i: int) -> str:
        """Return the mail quote prefix of the line that holds index ``i``.

        Args:
            line_start: the absolute offset where that line starts (from :meth:`line_at`).
            i: the index; the prefix is not read past it.
        """
        start = line_start - self.base
        if start < 0:
            return self._head_prefix
        if self.text[start] not in QUOTE_PREFIX_CHARS:  # most lines: no quote prefix at all
            return ""
        return self._prefix_at(start, i)

    def prefix_undecided(self, j: int, final: bool) -> bool:
        """Could the quote prefix starting at index ``j`` still grow with more text?

        True while the text ends within a prefix's longest possible extent and holds only
        prefix characters from ``j``: ``"> "`` may yet become ``">   >"`` (another speaker).
        """
        if final or j + QUOTE_PREFIX_SPAN <= len(self.text):
            return False
        return not self.text[j:].strip(QUOTE_PREFIX_CHARS)

    def discard(self, cut: int) -> int:
        """Drop the decided text before index ``cut``, or less; return how much was dropped.

        The text is kept from the start of ``cut``'s line when that line began at most
        ``_KEEP_LINE`` characters before it; otherwise the line's quote prefix is kept aside.
        Indexes into :attr:`text` move down by the returned count.
        """
        line, line_start = self.line_at(cut)
        start_in_text = line_start - self.base
        if start_in_text >= 0:
            if cut - start_in_text <= _KEEP_LINE:
                cut = start_in_text
            else:
                self._head_prefix = self._prefix_at(start_in_text, cut)
        if cut <= 0:
            return 0
        self.text = self.text[cut:]
        self.base += cut
        self._cur = 0
        self._cur_line = line
        self._cur_line_start = line_start
        return cut

    def _prefix_at(self, start: int, limit: int) -> str:
        # The quote prefix at index ``start``, read no further than ``limit``.
        m = QUOTE_PREFIX_RE.match(self.text, start, limit)
        return m.group() if m else ""
