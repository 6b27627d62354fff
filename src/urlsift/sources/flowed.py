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
"""

from __future__ import annotations

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
    final_newline = text.endswith("\n")
    lines = text.split("\n")
    if final_newline:
        lines.pop()
    out: list[str] = []
    para_depth = -1
    pieces: list[str] = []
    for line in lines:
        if line.endswith("\r"):
            line = line[:-1]
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # §4.4: the stuffing space goes after the quote test
        is_signature = content == SIGNATURE_SEPARATOR
        flowed = content.endswith(" ") and not is_signature
        if pieces and (depth != para_depth or is_signature):
            # §4.5 quote-depth wins; §4.1 a signature separator ends the paragraph too.
            out.append(_render(para_depth, pieces))
            pieces = []
        para_depth = depth
        pieces.append(content[:-1] if flowed and delsp else content)
        if not flowed:
            out.append(_render(depth, pieces))
            pieces = []
    if pieces:
        out.append(_render(para_depth, pieces))
    result = "\n".join(out)
    if final_newline:
        result += "\n"
    return result
