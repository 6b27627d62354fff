"""Man pages (roff): ``.UR``/``.MT``/``.URL`` macros and the text.

Strategy: roff escapes are undone before the core scans (``\\-`` is a hyphen, ``\\&`` and
``\\:`` are nothing, ``\\fB`` changes the font ...), through one table and one bounded
pattern, while a position map remembers the source span of every character of the
unescaped text, so findings point at the source. Verbatim regions (``.nf``/``.fi`` and
``.EX``/``.EE``) are masked first unless verbatim text is included; comments (``\\"``) are
dropped. The arguments of ``.UR url``, ``.URL url`` and ``.MT address`` (reported as
``mailto:address``) are document links. Escapes the table does not know are kept as
written. Linear in the size of the page; the position map takes memory per escape, not
per character.
"""

from __future__ import annotations

import bisect
import re
from array import array

from .findings import Extracted, ExtractOptions, FindingBuilder, link_scheme, mask

# Special characters (\(xx and \[xx]) and their text, for the ones found in URLs and prose.
SPECIAL_CHARACTERS: dict[str, str] = {
    "hy": "-",
    "en": "-",
    "mi": "-",
    "ti": "~",
    "ap": "~",
    "at": "@",
    "sl": "/",
    "rs": "\\",
    "ul": "_",
    "aq": "'",
    "dq": '"',
    "lq": '"',
    "rq": '"',
    "oq": "'",
    "cq": "'",
    "pc": ".",
    "sh": "#",
    "Do": "$",
    "ha": "^",
    "ba": "|",
    "bv": "|",
    "or": "|",
    "lB": "[",
    "rB": "]",
    "lC": "{",
    "rC": "}",
    "la": "<",
    "ra": ">",
    "eq": "=",
    "pl": "+",
}
"""groff special character names -> text."""

# One-character escapes -> text (None: keep the escape as written).
_SIMPLE_ESCAPES: dict[str, str] = {
    "-": "-",
    "&": "",
    ":": "",
    "%": "",
    "c": "",
    ")": "",
    "|": "",
    "^": "",
    "/": "",
    ",": "",
    "~": " ",
    " ": " ",
    "0": " ",
    "e": "\\",
    "\\": "\\",
    ".": ".",
    "'": "'",
    "`": "`",
}

_ESCAPE = re.compile(
    r"""\\(?:
        \((?P<two>..)                     # \(xx special character
      | \[(?P<long>[^\]\n]{1,32})\]       # \[name] special character
      | [fF*](?:\(..|\[[^\]\n]{0,32}\]|.) # font or string interpolation: dropped
      | "[^\n]*                           # comment: dropped
      | (?P<one>.)                        # one-character escape
    )""",
    re.VERBOSE,
)
_VERBATIM = re.compile(r"^[.'][ \t]*(nf|EX)\b.*?(?:^[.'][ \t]*(?:fi|EE)\b[^\n]*|\Z)", re.M | re.S)
_LINK_MACRO = re.compile(r"^[.'][ \t]*(UR|URL|MT)[ \t]+(\"[^\"\n]*\"|\S+)", re.MULTILINE)


class SourceMap:
    """Where each character of an unescaped text came from, in memory per escape.

    The text is a run of *segments*: a literal stretch copied from the source (character
    ``k`` of it came from one source character), or the replacement of one escape (every
    character of it came from the escape's whole span). A list of one span per character
    cost about 100 bytes a character (1.2 GB for a 9 MB page).
    """

    __slots__ = ("_out", "_source", "_width", "length")

    def __init__(self) -> None:
        """Start an empty map."""
        self._out = array("q")  # offset in the text where each segment starts
        self._source = array("q")  # offset in the source where it starts
        self._width = array("q")  # an escape's source length; -1 for a literal stretch
        self.length = 0
        """Length of the text mapped so far."""

    def add(self, source_start: int, source_end: int, out_length: int, literal: bool) -> None:
        """Append ``out_length`` characters of text taken from ``source[start:end]``."""
        if out_length <= 0:
            return
        self._out.append(self.length)
        self._source.append(source_start)
        self._width.append(-1 if literal else source_end - source_start)
        self.length += out_length

    def span(self, offset: int) -> tuple[int, int]:
        """The ``(start, end)`` source span of the text's character at ``offset``."""
        i = bisect.bisect_right(self._out, offset) - 1
        source, width = self._source[i], self._width[i]
        if width < 0:
            source += offset - self._out[i]
            return source, source + 1
        return source, source + width


def unescape_mapped(text: str) -> tuple[str, SourceMap]:
    """Undo roff escapes, remembering where each output character came from.

    Args:
        text: roff source.

    Returns:
        The text and its :class:`SourceMap` back to ``text``.
    """
    out: list[str] = []
    spans = SourceMap()
    pos = 0
    for m in _ESCAPE.finditer(text):
        start, end = m.span()
        out.append(text[pos:start])
        spans.add(pos, start, start - pos, literal=True)
        if m.group("two") is not None or m.group("long") is not None:
            name = m.group("two") or m.group("long")
            replacement = SPECIAL_CHARACTERS.get(name, m.group(0))
        elif m.group("one") is not None:
            replacement = _SIMPLE_ESCAPES.get(m.group("one"), m.group(0))
        else:
            replacement = ""
        spans.add(start, end, len(replacement), literal=replacement == m.group(0))
        out.append(replacement)
        pos = end
    out.append(text[pos:])
    spans.add(pos, len(text), len(text) - pos, literal=True)
    return "".join(out), spans


def unescape(text: str) -> tuple[str, list[tuple[int, int]]]:
    """Undo roff escapes, remembering where each output character came from.

    Args:
        text: roff source.

    Returns:
        The text and, for each of its characters, the ``(start, end)`` source span it
        came from (:func:`unescape_mapped` keeps the same in far less memory).
    """
    out, spans = unescape_mapped(text)
    return out, [spans.span(i) for i in range(len(out))]


def extract_man(text: str, path: str, options: ExtractOptions) -> Extracted:
    """Find the URLs of a man page.

    Args:
        text: the decoded roff source.
        path: the path reported in each finding.
        options: what to look at.

    Returns:
        The findings in source order: ``man-macro`` links and the appendix forms in the
        text.
    """
    builder = FindingBuilder(text, path, options)
    source = text if options.include_verbatim else mask(text, _verbatim(text))
    for m in _LINK_MACRO.finditer(source):
        start, end = m.span(2)
        if source[start] == '"':
            start, end = start + 1, end - 1
        written = text[start:end]
        target, _ = unescape(written)
        if m.group(1) == "MT":
            target = "mailto:" + target.removeprefix("mailto:")
        if m.group(1) == "MT" or link_scheme(target, options.schemes) is not None:
            builder.add_link(start, end, "man-macro", None if target == written else target)
    scan_text, spans = unescape_mapped(source)

    def to_source(offset: int) -> int:
        if offset < spans.length:
            return spans.span(offset)[0]
        return spans.span(spans.length - 1)[1] if spans.length else 0

    return builder.document(
        builder.scan(scan_text, to_source, lambda offset: spans.span(offset - 1)[1])
    )


def _verbatim(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _VERBATIM.finditer(text)]
