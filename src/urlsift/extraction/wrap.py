"""Evidence that a bare URL ending at a line end continues on the next line.

RFC 1738's appendix leaves a bare URL broken across lines to the reader: only a wrapper
(``<URL:...>``) or a hyphen at the break says the URL goes on. Mail clients and editors
still cut long bare URLs where the line is full. This module holds the one definition of
the evidence, used by the scanner (to widen the span: :func:`continuation` with
``wrapped=True`` answers) and by ``urlsift lint``'s ``URL008`` (which warns on the looser
"seems to continue" answers too).

Promises:

* Pure and sans-IO: strings in, a small verdict out; nothing here reads the text around
  the two lines, so a decision never depends on where chunk boundaries fall.
* Bounded: every pattern is bounded, the next line is read at most
  :data:`MAX_NEXT_LINE` characters far, so one call costs a bounded number of steps.
* Precision first: a wrong join costs a user more than a missed one, so the join
  (``wrapped``) needs every sign at once -- the shape of the next line, URL material in
  the continuation or at the cut, and a line as full as a wrapping client leaves it.

The signals (measured on ``corpora/wrapjoin/judged.txt``; figures in benchmarks/README.md):

1. *Shape.* The next line has the same mail quote depth (a quote-level change is another
   speaker) and the same indentation (a paragraph's lines share it), and starts with one
   run of URL characters (RFC 3986 characters and ``%``), without a scheme of its own,
   that does not start like prose punctuation, a list item, a label (``Binaries:``), a
   directive (``#EXTINF:``), a table row or an attribute list (``width=300 height=...``),
   and is no word of prose that holds URL material (``e.g.``, ``12:30``, a mail address).
2. *URL material.* The continuation holds ``? = & % # ~``, a ``/`` with another sign, a
   file extension, or the cut ends where URLs rarely end (``- _ ? & = %``); or the joined
   reading gains a file extension the cut one lacks (``.tar.g`` + ``z``). A cut reading
   ending in a file name (``vortex.html``) followed by a word is a complete URL.
3. *Wrap column.* Clients wrap at 70 to 80 columns: the URL's line and the next one
   (without their quote prefixes, tabs expanded) are at most :data:`WRAP_COLUMN_MAX`
   wide, and the continuation would not have fitted on the URL's line (the two together
   exceed :data:`WRAP_COLUMN_MIN`). Shorter lines are ended by their writer (signatures,
   lists, a URL on a line of its own); a wider next line was not wrapped at all. A line of
   at most 76 characters ending in ``=`` is a quoted-printable soft break of text left
   encoded: joining would keep the ``=`` in the URL, so it is left to decoding.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..grammar.context import BARE_STOP, QUOTE_PREFIX, SCHEME, quote_key

WRAP_COLUMN_MIN = 70
"""Narrowest wrap column taken into account: a URL line plus its continuation must be
longer, or the continuation would have fitted on the line."""

WRAP_COLUMN_MAX = 80
"""Widest wrap column: a longer URL line (quote prefix not counted) was not wrapped."""

MAX_NEXT_LINE = 512
"""Characters of the next line that the evidence may read (its start is what counts)."""

QP_LINE_LENGTH = 76
"""Longest line of quoted-printable text (RFC 2045 §6.7): a URL line this short ending in
``=`` is a soft line break of text left encoded, which only decoding can mend."""

MIN_URL_LINE = 40
"""Shortest URL line (quote prefix not counted) that a client could have wrapped."""

# A line's head: its mail quote prefix and its indentation; on the next line, then its
# first word (a run of the characters a bare URL may hold). All bounded.
_HEAD = re.compile(rf"((?:{QUOTE_PREFIX})?)([ \t]{{0,64}})")
_NEXT_LINE = re.compile(rf"((?:{QUOTE_PREFIX})?)([ \t]{{0,64}})([^{BARE_STOP}]{{1,512}})")
# A character that can make a word URL material: a path step, a dot, a digit, a sign.
_MATERIAL = re.compile(r"[/.0-9_?=&%#~]")
# Characters a URL continuation may hold (RFC 3986 unreserved, reserved, and '%').
_URL_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]{1,512}")
# Bounded scheme tests: an unbounded run over a long word of letters is quadratic.
_HAS_SCHEME = re.compile(rf"{SCHEME}:")
_HAS_URL = re.compile(rf"{SCHEME}://")
_TABLE_SEPARATORS = frozenset({"=", ":", "|", "->", "=>"})
# A file name extension, matched from a name's last dot (see _has_extension).
_EXTENSION = re.compile(
    r"\.(?:s?html?|xhtml|php\d?|aspx?|jsp|cgi|pl|txt|pdf|ps|gz|tgz|zip|tar|bz2|xz|Z|"
    r"xml|xsd|json|md|rst|png|jpe?g|gif|svg|c|h|py|patch|diff|rpm|deb|asc|cer)",
    re.IGNORECASE,
)
_LONGEST_EXTENSION = 6
# A URL that is only a scheme and a host ending in a top-level domain: it is complete.
_BARE_HOST = re.compile(rf"{SCHEME}://[^/?#\s]{{0,255}}\.[A-Za-z]{{2,24}}")
# A bare URL's token ending in one of these ends a sentence (the scanner trims them).
_SENTENCE_STOPS = frozenset(".,;:!")
_LIST_ITEM = re.compile(r"(?:[0-9]{1,3}|[A-Za-z])[.)]")
# Words of prose that hold URL material: an abbreviation ("e.g."), a time ("12:30"), a
# mail address (a signature's next line).
_PROSE_WORD = re.compile(
    r"(?:[A-Za-z]\.){1,3}[A-Za-z]?|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?"
    r"|[A-Za-z0-9._+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}"
)
_ATTRIBUTE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,64}=")
# Punctuation that ends a sentence after a URL; not part of the continuation word's test.
_SENTENCE_END = ".,;:!?\"')]"
# A continuation starts with a letter, a digit or one of these (not "-", "(", "*", ">"...).
_CONTINUATION_START = frozenset("/%=&?._~#;")
# The cut URL ends in a character after which a URL rarely ends.
_OPEN_ENDINGS = frozenset("-_?&=%")
# A letter or digit, and a digit, "." or "_" (the word is ASCII when they are asked).
_ALNUM = re.compile(r"[A-Za-z0-9]")
_DIGIT_OR_DOT = re.compile(r"[0-9._]")
# Signs in the continuation that it is part of a URL, not prose.
_URL_SIGNS = frozenset("?=&%#~")


class Continuation(NamedTuple):
    """A bare URL's apparent continuation on the next line (a named tuple: made in one
    step, a quarter of the time a frozen dataclass takes, on the scanner's path)."""

    start: int
    """Index in the next line of the continuation's first character."""
    end: int
    """Index in the next line just past the continuation (a run of the characters a bare
    URL may hold; sentence punctuation at its end is the caller's to trim)."""
    word: str
    """The continuation as written, sentence punctuation at its end removed."""
    wrapped: bool
    """True when every sign says a client wrapped the URL there (the scanner joins);
    False when it only seems to continue (``urlsift lint`` warns)."""


def _line_width(text: str) -> int:
    """Width in columns of ``text`` (tabs to multiples of eight)."""
    return len(text.expandtabs(8)) if "\t" in text else len(text)


def _has_extension(text: str) -> bool:
    """Does ``text`` end in a file name extension (``.html``, ``.tar.gz``...)?"""
    dot = text.rfind(".", max(0, len(text) - _LONGEST_EXTENSION))
    return dot >= 0 and _EXTENSION.fullmatch(text, dot) is not None


def continuation(url: str, line: str, next_line: str) -> Continuation | None:
    """Return the continuation of a bare URL that ends its line, if it seems to have one.

    Args:
        url: the URL's text as found on its line (its whole token, before sentence
            punctuation is trimmed).
        line: the URL's line up to the URL's end (what follows on the line is blank).
        next_line: the following line without its line break (may be cut after
            :data:`MAX_NEXT_LINE` characters).

    Returns:
        The continuation (``wrapped`` tells the scanner's join from lint's warning), or
        None when the next line does not continue the URL.
    """
    # The cheap tests first: most URLs at a line end are followed by prose.
    nxt = _NEXT_LINE.match(next_line)
    if nxt is None or not url:
        return None
    raw = nxt.group(3)
    word = raw.rstrip(_SENTENCE_END)
    last = url[-1]
    if not word or last in _SENTENCE_STOPS:
        return None  # "ftp://oss.sgi.com." ends a sentence
    material = _MATERIAL.search(word) is not None or last in _OPEN_ENDINGS
    if not material and len(word) > _LONGEST_EXTENSION:
        return None  # a word of prose (too long to be a file name's extension)
    if (
        raw.endswith(":")  # a label: "Binaries:", "then:"
        or not (word[0].isalnum() or word[0] in _CONTINUATION_START)
        or not _URL_CHARS.fullmatch(word)
        or _HAS_SCHEME.match(word)
        or word[:4].lower() == "www."
    ):
        return None
    cut_complete = _has_extension(url)
    gains_extension = len(word) <= _LONGEST_EXTENSION and (
        not cut_complete and _has_extension(url + word)
    )
    if not material and not gains_extension:
        return None  # a word of prose
    head = _HEAD.match(line)
    assert head is not None  # the pattern matches ""
    if quote_key(head.group(1)) != quote_key(nxt.group(1)):
        return None  # another speaker's text
    if _ALNUM.search(word) is None or _LIST_ITEM.fullmatch(raw):
        return None  # a rule ("______") or a list item ("2) https://...")
    if _PROSE_WORD.fullmatch(word) or _PROSE_WORD.fullmatch(raw):
        return None  # "e.g.", "12:30", "joe@example.com"
    if word[0] == "#" and (":" in word or word[1:].isupper()):
        return None  # a directive ("#EXTINF:9.0", "#EXT-X-ENDLIST")
    rest = next_line[nxt.end() : nxt.end() + MAX_NEXT_LINE].split()
    if rest and (rest[0] in _TABLE_SEPARATORS or _HAS_URL.search(rest[0])):
        return None  # a table row ("g?y  =  http://a/b/c/g?y") or a list of URLs
    gap = next_line[nxt.end() : nxt.end() + 2]
    if rest and (gap == "  " or "\t" in gap) and any(_HAS_URL.search(w) for w in rest):
        return None  # a table row in aligned columns ("C#     Compression     https://...")
    if rest and _ATTRIBUTE.match(word) and _ATTRIBUTE.match(rest[0]):
        return None  # an attribute list: "width=300 height=200"
    if (cut_complete or _BARE_HOST.fullmatch(url)) and (word[0].isalnum() or word[0] == "#"):
        # "vortex.html" + "3c59x.c:...", "errata.pdf" + "#28", "aachen.de" + "D-52062"
        return None
    signs = not _URL_SIGNS.isdisjoint(word)
    slash = "/" in word and (
        word.count("/") > 1 or _DIGIT_OR_DOT.search(word) is not None or word[0] == "/"
    )
    strong = signs or slash or _has_extension(word) or gains_extension or last in _OPEN_ENDINGS
    prefix = head.group(1)
    next_prefix = nxt.group(1)
    width = _line_width(line[len(prefix) :])
    wrapped = (
        head.group(2) == nxt.group(2)
        and MIN_URL_LINE <= width <= WRAP_COLUMN_MAX
        and width + len(word) > WRAP_COLUMN_MIN
        # The line after a wrap was wrapped at the same column (or ends the paragraph).
        and _line_width(next_line[len(next_prefix) :]) <= WRAP_COLUMN_MAX
    )
    if not (wrapped or strong):
        return None
    start = nxt.start(3)
    return Continuation(start, start + len(raw), word, wrapped)


# Longest stretch of a URL's line searched back for its start: a longer line is wider than
# any wrap column (tabs only widen it), so it was not wrapped.
_LINE_LOOKBACK = 256


def _unwrapped_line(buf: str, start: int, end: int) -> bool:
    """Does the line ``buf[start:end]`` (ending where the URL does) rule a wrap out?

    Yes when it is too short to have been wrapped (the quote prefix only shortens it; a
    tab may widen it), or when it ends in the "=" of a quoted-printable soft line break
    left encoded (that "=" is no URL's).
    """
    if end - start < MIN_URL_LINE and buf.find("\t", start, end) < 0:
        return True
    return buf[end - 1] == "=" and end - start <= QP_LINE_LENGTH


def wrapped_continuation(
    buf: str, url_start: int, end: int, line_start: int, final: bool
) -> int | None:
    """Decide, in the scanner's buffer, whether a bare URL goes on past a wrapped line.

    The scanner's hook at a bare URL's end. Reads only ``buf`` from the URL's line to the
    end of the next line, at most :data:`MAX_NEXT_LINE` characters past the break, so the
    answer is the same whatever the chunking: when that much is not in the buffer yet the
    answer is "wait" (None), unless ``final``.

    Args:
        buf: the scanner's buffer.
        url_start: index of the URL's first character.
        end: index just past the URL's token as found so far.
        line_start: index of the start of the URL's first line (negative when that line
            began before the buffer).
        final: no more text will come.

    Returns:
        The index where the URL continues on the next line, -1 when it does not, or None
        when the answer needs text not yet in the buffer.
    """
    # The cheapest answer first, from the URL's first line alone: the line holding ``end``
    # starts at or after it, so if the first line is too short or soft-broken, so is that
    # one, whatever comes next (the same "no" as the test on that line below).
    if line_start >= 0 and _unwrapped_line(buf, line_start, end):
        return -1
    n = len(buf)
    k = end
    if k < n and buf[k] == "\r":
        k += 1
    if k >= n:
        return None if not final else -1
    if buf[k] != "\n":
        return -1  # more text on the line, or a space before the break (a word wrap)
    following = k + 1
    if following < n and buf[following] in "\r\n":
        return -1  # a blank line ends the paragraph (the cheapest test: first)
    low = max(line_start, end - _LINE_LOOKBACK, 0)
    newline = buf.rfind("\n", low, end)
    if newline >= 0:
        start = newline + 1
    elif low == line_start:
        start = line_start
    else:
        return -1  # the line is longer than any wrap column
    if start != line_start and _unwrapped_line(buf, start, end):  # (else: asked above)
        return -1
    stop = buf.find("\n", following, following + MAX_NEXT_LINE)
    if stop < 0:
        if following + MAX_NEXT_LINE > n and not final:
            return None
        stop = min(n, following + MAX_NEXT_LINE)
    next_line = buf[following:stop]
    if next_line.endswith("\r"):
        next_line = next_line[:-1]
    found = continuation(buf[url_start:end], buf[start:end], next_line)
    if found is None or not found.wrapped:
        return -1
    return following + found.start
