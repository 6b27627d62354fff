"""Unwrapping of ``format=flowed`` text (RFC 3676 §4), so URLs broken by soft breaks rejoin.

Strategy: one pass over the lines, no lookahead beyond the current paragraph. Each line is
read the way RFC 3676 §4.1 orders the tests: count and remove the quote marks (``>``), then
remove one stuffing space (§4.4), then test for a signature separator (``-- ``, §4.3,
neither flowed nor fixed) and for a trailing space (flowed). Flowed lines are joined with
the following line of the same quote depth; with ``DelSp=yes`` the trailing space of each
soft break is deleted first, so a URL that a sender broke at an arbitrary character comes
out whole. A change of quote depth ends the paragraph ("quote-depth wins", §4.5), as do a
signature separator and the end of the text. Joined lines are re-quoted as ``>`` times the
depth plus one space, the shape the scanner's quote-prefix rule expects; an unquoted line
whose text starts with ``>`` keeps its stuffing space so it does not turn into a quote.
Text with no quote, no stuffed line, no signature separator and no CR (all lines at depth
0, each written as it is) is unwrapped by :func:`unflow` without the loop: each soft break
(a space before a line end) joins its two lines in place.
"""

from __future__ import annotations

from collections.abc import Iterator

SIGNATURE_SEPARATOR = "-- "
"""RFC 3676 §4.3: the Usenet signature separator, never flowed."""


def _render(depth: int, pieces: list[str]) -> str:
    text = "".join(pieces)
    if depth:
        return ">" * depth + " " + text
    if text.startswith(">"):
        return " " + text  # keep the stuffing: unquoted text must not look quoted
    return text


def unflow(text: str, delsp: bool = False) -> str:
    """Join the soft-broken lines of ``format=flowed`` text into logical lines.

    Args:
        text: decoded text of a ``text/plain; format=flowed`` part, lines ending in LF
            (a CR before the LF is tolerated and removed).
        delsp: true for ``DelSp=yes``: the space before each soft break is deleted.

    Returns:
        The text with each paragraph on one line, quote marks normalised to ``>`` times
        the depth plus a space, stuffing spaces removed. Never raises.
    """
    body = text[:-1] if text.endswith("\n") else text
    if _unquoted(body):
        # No quote, no stuffing, no signature, LF line ends: every line is at depth 0
        # and written as it is, so a soft break (a space before a line end) joins two
        # lines in place. unflow_chunks gives the same text (a test holds them to it).
        end = text[len(body) :]  # the final line end, if any
        if not delsp:
            return body.replace(" \n", " ") + end
        if body.endswith(" "):  # DelSp: a flowed last line loses its space too
            body = body[:-1]
        return body.replace(" \n", "") + end  # and each soft break its space
    if len(text) > WHOLE_TEXT_CHARS:
        return "".join(unflow_chunks(text, delsp))
    return _unflow_lines(text, delsp)


WHOLE_TEXT_CHARS = 1 << 16
"""Longest text :func:`unflow` reads as a list of its lines (a longer one goes through
:func:`unflow_chunks`, which holds no copy of it)."""


def _unflow_lines(text: str, delsp: bool) -> str:
    # unflow_chunks' loop, its result joined, for a text short enough to be split into
    # lines at once: the paragraphs in local lists, no _Output (a test holds the two to
    # the same result).
    final_newline = text.endswith("\n")
    written: list[str] = []  # rendered paragraphs (logical lines)
    pieces: list[str] = []  # the open paragraph's
    para_depth = -1
    for line in (text[:-1] if final_newline else text).split("\n"):
        if line.endswith("\r"):
            line = line[:-1]
        elif not pieces and line[:1] == ">" and line[-1:] != " ":
            # A quoted line that is not flowed (no trailing space, so no signature either)
            # and opens no paragraph, its quote marks followed by a space: its own line,
            # as written (_render gives it back so). Most lines of a quoting reply.
            depth = len(line) - len(line.lstrip(">"))
            if line[depth : depth + 1] == " ":
                written.append(line)
                continue
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:] if depth else line
        if content.startswith(" "):
            content = content[1:]  # §4.4: the stuffing space goes after the quote test
        is_signature = content == SIGNATURE_SEPARATOR
        flowed = content.endswith(" ") and not is_signature
        if pieces and (depth != para_depth or is_signature):
            written.append(_render(para_depth, pieces))  # §4.5, §4.1 (see unflow_chunks)
            pieces = []
        para_depth = depth
        pieces.append(content[:-1] if flowed and delsp else content)
        if not flowed:
            written.append(_render(depth, pieces))
            pieces = []
    if pieces:
        written.append(_render(para_depth, pieces))
    return "\n".join(written) + ("\n" if final_newline else "")


def _unquoted(body: str) -> bool:
    # Whether no line of ``body`` (the text less its final line end) starts with ">" or
    # a space, none is a signature separator, and no line end holds a CR.
    return (
        "\r" not in body
        and "-- " not in body
        and "\n>" not in body
        and "\n " not in body
        and not body.startswith((">", " "))
    )


def _lines(text: str, final_newline: bool) -> Iterator[str]:
    # text.split("\n") less the empty string after a final line end, one at a time.
    start = 0
    stop = len(text) - 1 if final_newline else len(text)
    while (newline := text.find("\n", start, stop)) >= 0:
        yield text[start:newline]
        start = newline + 1
    yield text[start:stop]


def unflow_chunks(text: str, delsp: bool = False, chunk_chars: int = 1 << 16) -> Iterator[str]:
    """:func:`unflow`'s result in pieces of about ``chunk_chars`` characters, lazily.

    Nothing of the size of the text is built besides the text itself (no list of its
    lines, no joined copy, no paragraph held whole: a long paragraph goes out as its
    lines come), so a long part costs its text once (issue 24 item 12: a 60 MB flowed
    message of 4-byte characters peaked at 1.17 GB). No piece is empty.
    """
    final_newline = text.endswith("\n")
    out = _Output()
    para_depth = -1
    for line in _lines(text, final_newline):
        if line.endswith("\r"):
            line = line[:-1]
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # §4.4: the stuffing space goes after the quote test
        is_signature = content == SIGNATURE_SEPARATOR
        flowed = content.endswith(" ") and not is_signature
        if out.in_paragraph and (depth != para_depth or is_signature):
            # §4.5 quote-depth wins; §4.1 a signature separator ends the paragraph too.
            out.end_paragraph(para_depth)
        para_depth = depth
        out.add(content[:-1] if flowed and delsp else content)
        if not flowed:
            out.end_paragraph(depth)
        elif out.held >= chunk_chars:
            out.flush_paragraph(depth)
        if out.size >= chunk_chars and (chunk := out.take()):
            yield chunk
    if out.in_paragraph:
        out.end_paragraph(para_depth)
    if final_newline:
        out.buffer.append("\n")
    if rest := out.take():
        yield rest


class _Output:
    """The logical lines written so far and the paragraph being read."""

    def __init__(self) -> None:
        self.buffer: list[str] = []  # written, not yet taken
        self.size = 0  # characters in buffer
        self.first = True  # no line written yet (lines are joined by LF)
        self.pieces: list[str] = []  # the open paragraph's pieces not yet written
        self.held = 0  # characters in pieces
        self.in_paragraph = False
        self.started = False  # the open paragraph's start (its quote marks) is written

    def add(self, piece: str) -> None:
        self.pieces.append(piece)
        self.held += len(piece)
        self.in_paragraph = True

    def _write(self, text: str, new_line: bool) -> None:
        if new_line and not self.first:
            self.buffer.append("\n")
            self.size += 1
        self.first = self.first and not new_line
        self.buffer.append(text)
        self.size += len(text)

    def flush_paragraph(self, depth: int) -> None:
        # Write the open paragraph's pieces so far; its rendering depends only on its
        # depth and first character, known once some text is there.
        text = "".join(self.pieces)
        if not text:
            return
        if self.started:
            self._write(text, False)
        else:
            self._write(_render(depth, [text]), True)
            self.started = True
        self.pieces = []
        self.held = 0

    def end_paragraph(self, depth: int) -> None:
        if self.started:
            self._write("".join(self.pieces), False)
        else:
            self._write(_render(depth, self.pieces), True)
        self.pieces = []
        self.held = 0
        self.in_paragraph = self.started = False

    def take(self) -> str:
        chunk = "".join(self.buffer)
        self.buffer.clear()
        self.size = 0
        return chunk
