"""URLs written in CSS: ``url(...)`` references and ``@import`` strings, with their offsets.

Strategy: the tokenization rules of CSS Syntax Level 3 (§4.3), only as far as URLs need
them. One regular expression walks the text once, left to right, and stops only at what
can hide or hold a URL:

* comments (``/* ... */``; an unclosed one runs to the end) are skipped, as a CSS parser
  skips them, so a commented-out ``url(...)`` is not reported;
* strings (``"..."``, ``'...'``, ending at their quote or, unclosed, at the line end) are
  skipped, so the text ``content: "url(x)"`` is not a URL;
* ``url(`` (any case, not the end of a longer name such as ``myurl(``) opens a URL: after
  optional white space, either a string (§4.3.6: then it is a function token with a string
  argument) or an unquoted URL running to white space or ``)``;
* ``@import`` followed by a string is a URL too (``@import url(...)`` is the case above).

Escapes (§4.3.7) are decoded in the value: a backslash and 1-6 hex digits (one white space
after them is part of the escape) give that code point (zero, a surrogate or beyond
U+10FFFF give U+FFFD), a backslash and a line end inside a string vanish, a backslash and
any other character give that character. An empty URL is not reported; nothing is checked
beyond that (relative references are the caller's to judge).

Offsets are those of the URL's own characters in the text given: inside the quotes for a
string, without the white space around an unquoted URL; ``end`` is exclusive. Pure
functions, no I/O; work is linear in the length of the text (every character is matched by
one token, or by the value after a ``url(``, once).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._record import record

__all__ = ["CssUrl", "css_urls"]


@record
class CssUrl:
    """One URL written in CSS text."""

    start: int
    """Offset of the URL's first character in the CSS text (after an opening quote)."""
    end: int
    """Offset just past its last character (before a closing quote)."""
    value: str
    """The URL with CSS escapes decoded."""


# What the walk stops at, in the order tried at one position. A string's body: anything
# but its quote, a backslash or a line end, or a backslash and any character (line ends
# included: an escaped line end continues the string). The character before "url(" or
# "@import" (not part of a longer name) is tested after them, so that every alternative
# starts with a literal and re scans for those first characters alone (twice as fast on
# Outlook's style sheets).
_STRING_BODY = {'"': r'(?:[^"\\\n]|\\.)*', "'": r"(?:[^'\\\n]|\\.)*"}
_TOKEN = re.compile(
    r"/\*.*?(?:\*/|\Z)"  # a comment
    r'|"(?P<dq>' + _STRING_BODY['"'] + r')"?'  # a string (unclosed: to the line end)
    r"|'(?P<sq>" + _STRING_BODY["'"] + r")'?"
    r"|(?P<url>url\()(?<![\w\\-]url\()[ \t\n\r\f]*"  # url( and the white space after it
    r"|(?P<import>@import)(?<![\w\\-]@import)[ \t\n\r\f]*(?=[\"'])",  # @import "..."
    re.IGNORECASE | re.DOTALL,
)
# After url( and its white space: a string, or an unquoted URL (§4.3.6: any character
# but white space, quotes, parentheses and backslash, or an escape).
_QUOTED = {quote: re.compile(body, re.DOTALL) for quote, body in _STRING_BODY.items()}
_UNQUOTED = re.compile(r"(?:[^\\\s\"'()]|\\.)+", re.DOTALL)
_ESCAPE = re.compile(
    r"\\(?:([0-9A-Fa-f]{1,6})(?:\r\n|[ \t\n\r\f])?|(\r\n|[\n\r\f])|(.))", re.DOTALL
)
_MAX_CODE_POINT = 0x10FFFF


def _unescape(raw: str) -> str:
    # CSS Syntax §4.3.7 "consume an escaped code point"; an escaped line end is dropped.
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(_escaped, raw)


def _escaped(match: re.Match[str]) -> str:
    digits, line_end, other = match.groups()
    if digits is not None:
        code = int(digits, 16)
        if code == 0 or 0xD800 <= code <= 0xDFFF or code > _MAX_CODE_POINT:
            return "\ufffd"
        return chr(code)
    if line_end is not None:
        return ""
    return str(other)


def css_urls(text: str) -> Iterator[CssUrl]:
    """Yield the URLs of ``url(...)`` references and ``@import`` strings in CSS text.

    Args:
        text: a style sheet (a ``<style>`` element's text) or declarations (a ``style``
            attribute's value), decoded.

    Returns:
        An iterator of :class:`CssUrl`, in text order.
    """
    at = 0
    length = len(text)
    while at < length:
        token = _TOKEN.search(text, at)
        if token is None:
            return
        at = token.end()
        if token.group("url") is None and token.group("import") is None:
            continue  # a comment or a string: skipped whole
        quote = text[at : at + 1]
        if quote in _QUOTED:
            body = _QUOTED[quote].match(text, at + 1)
            assert body is not None  # the pattern matches the empty string
            start, end = body.start(), body.end()
            at = end + (text[end : end + 1] == quote)
        elif token.group("url") is not None:
            body = _UNQUOTED.match(text, at)
            if body is None:
                continue  # url() or url( ) or a stray quote/parenthesis
            start, end = body.start(), body.end()
            at = end
        else:
            continue  # @import without a string (unreachable: the lookahead wants one)
        value = _unescape(text[start:end])
        if value:
            yield CssUrl(start, end, value)
