"""HTML in, tokens with exact source offsets out, in time and memory linear in the input.

Promises:

* :func:`tokenize` accepts any ``str`` and never raises;
* the tokens' spans tile the input: the first starts at 0, each starts where the one before
  ended, the last ends at ``len(markup)``, so a caller can mask or keep every character;
* every character is examined a bounded number of times: each step consumes what it
  looked at, every search starts where the previous one stopped, and the end of the input
  inside a construct ends the construct instead of sending the tokenizer back to re-read it
  as text. (CPython's :class:`html.parser.HTMLParser` does go back: ``"<a" * n`` or an
  unclosed attribute value cost it time quadratic in ``n``.)

It follows the tokenizer of the HTML Living Standard (§13.2.5) where it matters for text
and links: a ``<`` starts markup only before an ASCII letter, ``!``, ``?`` or ``/`` (else
it is text); a tag name runs to whitespace, ``/`` or ``>`` (so ``<a<a`` is one tag name);
attribute values are double-quoted, single-quoted or unquoted, and a quoted value may hold
``>``; comments end at ``-->``, ``--!>``, or abruptly at ``<!-->`` and ``<!--->``;
``<!DOCTYPE``, ``<?...>``, ``<![CDATA[`` and other ``<!`` or ``</`` oddities are comments
ending at the next ``>``; ``</>`` is dropped; the content of ``<script>``, ``<style>``,
``<xmp>``, ``<iframe>``, ``<noembed>``, ``<noframes>`` (raw text), ``<title>`` and
``<textarea>`` (text with character references) runs to the matching end tag, and
``<plaintext>`` to the end; a tag or comment the input ends inside is ended by it (a tag cut
so is a ``cut`` token, spanning to the end: the standard drops it, callers may read it as
text). Tree construction (implied end tags, foreign
content, the script data escape states) is not done: callers track the few elements they
care about. Character references are left to the caller: :func:`html.unescape` for text,
:func:`unescape_attribute` for an attribute's value (both bounded patterns).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from html.entities import html5 as _named_references
from typing import Literal, NamedTuple

TokenKind = Literal["text", "start", "end", "comment", "cut"]
"""``text``: character data; ``start``/``end``: tags; ``comment``: comments, doctypes,
processing instructions and other dropped markup; ``cut``: a tag the input ends inside."""


class Attribute(NamedTuple):
    """One attribute of a tag, as written."""

    name: str
    """The name, ASCII lower case."""
    start: int
    """Offset of the value's first character (inside the quotes)."""
    end: int
    """Offset just past the value (``start == end`` when the value is empty or absent)."""


class Token(NamedTuple):
    """One token: its kind and source span, and for tags the name and attributes."""

    kind: TokenKind
    """What the span holds."""
    start: int
    """Offset of the first character."""
    end: int
    """Offset just past the last character."""
    name: str = ""
    """Tag name of a ``start`` or ``end`` tag (ASCII lower case); for ``text`` inside a
    raw-text or RCDATA element, that element's name; else empty."""
    attributes: tuple[Attribute, ...] = ()
    """A tag's attributes in source order (repeats kept)."""
    self_closing: bool = False
    """The tag ends with ``/>``."""


_new = tuple.__new__  # a Token without NamedTuple's keyword handling: tokens are many


def _token(kind: TokenKind, start: int, end: int) -> Token:
    return _new(Token, (kind, start, end, "", (), False))


RAW_TEXT_ELEMENTS = frozenset({"script", "style", "xmp", "iframe", "noembed", "noframes"})
"""Elements whose content is text up to their end tag, character references undecoded."""

RCDATA_ELEMENTS = frozenset({"title", "textarea"})
"""Elements whose content is text up to their end tag, character references decoded."""

UNRENDERED_ELEMENTS = frozenset({"iframe", "noembed", "noframes"})
"""Raw-text elements whose content a browser does not show (fallback content)."""

_SPACE = "\t\n\f\r "
# A '<' that starts markup (§13.2.5.6 tag open state); any other '<' is text.
_MARKUP_START = re.compile(r"<[A-Za-z!?/]")
_TAG_NAME = re.compile(r"[^\t\n\f\r />]*")
# One step of the attribute states (§13.2.5.32-39): optional whitespace, then the end of
# the tag, a stray '/', or an attribute with its optional value. A quoted value may stop at
# the end of the input (then the next step finds nothing: the tag is cut). Backtracking is
# limited to the whitespace before a missing '=', which the next step consumes.
_ATTRIBUTE_STEP = re.compile(
    r"""[\t\n\f\r ]*(?:
        (?P<close>/?>)
      | /
      | (?P<name>[^\t\n\f\r />][^\t\n\f\r />=]*)
        (?:[\t\n\f\r ]*=[\t\n\f\r ]*
           (?:"(?P<dq>[^"]*)"?|'(?P<sq>[^']*)'?|(?P<uq>[^\t\n\f\r >]*)))?
    )""",
    re.VERBOSE,
)
# A tag without attributes: its name (as _TAG_NAME reads it) and the tag's end at once.
_BARE_TAG = re.compile(r"([^\t\n\f\r />]*)(/?>)")
_COMMENT_END = re.compile(r"--!?>")
_RAW_END = {
    name: re.compile(rf"</{name}(?=[\t\n\f\r />])", re.IGNORECASE)
    for name in RAW_TEXT_ELEMENTS | RCDATA_ELEMENTS
}


def _tag(markup: str, lt: int, start: int, kind: TokenKind) -> Token:
    """The tag whose name starts at ``start`` (after ``<`` or ``</`` at ``lt``)."""
    bare = _BARE_TAG.match(markup, start)
    if bare is not None:  # no attribute: the name, then ">" or "/>" (most tags)
        name, close = bare.groups()
        return _new(Token, (kind, lt, bare.end(), name.lower(), (), close == "/>"))
    name_match = _TAG_NAME.match(markup, start)
    assert name_match is not None  # the pattern matches ""
    name = name_match.group().lower()
    attributes: list[Attribute] = []
    pos = name_match.end()
    step = _ATTRIBUTE_STEP.match
    while True:
        m = step(markup, pos)
        if m is None:  # only whitespace, or nothing, is left: the input ends in the tag
            return _token("cut", lt, len(markup))
        pos = m.end()
        # The last group that took part says what the step read: 1 the tag's end, 2 an
        # attribute without a value, 3-5 one with its value (the value's group closes
        # after the name's), None a stray "/".
        group = m.lastindex
        if group == 1:
            close = m.group(1)
            return _new(Token, (kind, lt, pos, name, tuple(attributes), close == "/>"))
        if group is not None:
            if group == 2:
                value_start = value_end = pos
            else:
                value_start, value_end = m.span(group)
            attributes.append(Attribute(m.group(2).lower(), value_start, value_end))


def _to_greater_than(markup: str, start: int) -> int:
    """End of a bogus comment or doctype: just past the next ``>``, or the input's end."""
    gt = markup.find(">", start)
    return len(markup) if gt < 0 else gt + 1


def _markup(markup: str, lt: int) -> Token | None:
    """The markup token at ``lt`` (a ``<`` matched by ``_MARKUP_START``), or None: text."""
    after = markup[lt + 1]
    if after == "!":
        if markup.startswith("--", lt + 2):
            body = lt + 4
            if markup.startswith(">", body):
                return _token("comment", lt, body + 1)
            if markup.startswith("->", body):
                return _token("comment", lt, body + 2)
            m = _COMMENT_END.search(markup, body)
            return _token("comment", lt, len(markup) if m is None else m.end())
        return _token("comment", lt, _to_greater_than(markup, lt + 2))
    if after == "?":
        return _token("comment", lt, _to_greater_than(markup, lt + 2))
    if after == "/":
        following = markup[lt + 2 : lt + 3]
        if not following:
            return None  # "</" at the end of the input is text
        if following == ">":
            return _token("comment", lt, lt + 3)
        if not following.isascii() or not following.isalpha():
            return _token("comment", lt, _to_greater_than(markup, lt + 2))
        return _tag(markup, lt, lt + 2, "end")
    return _tag(markup, lt, lt + 1, "start")


def tokenize(markup: str) -> Iterator[Token]:
    """Yield the tokens of an HTML document or fragment, in source order.

    Args:
        markup: the decoded HTML source.

    Returns:
        An iterator of tokens whose spans tile ``markup`` (see the module notes).
    """
    text_start = 0  # start of the text not yet given out
    search = 0  # where to look for the next markup
    end = len(markup)
    while search < end:
        m = _MARKUP_START.search(markup, search)
        if m is None:
            break
        lt = m.start()
        token = _markup(markup, lt)
        if token is None:
            search = lt + 1
            continue
        if lt > text_start:
            yield _token("text", text_start, lt)
        yield token
        text_start = search = token.end
        if token.kind != "start":
            continue
        if token.name == "plaintext":
            break
        raw_end = _RAW_END.get(token.name)
        if raw_end is not None:
            closing = raw_end.search(markup, search)
            stop = end if closing is None else closing.start()
            if stop > search:
                yield _new(Token, ("text", search, stop, token.name, (), False))
            text_start = search = stop
    if text_start < end:
        yield _token("text", text_start, end)


# A character reference as an attribute value's tokenizer reads it: a number, or a name
# (with the ";" that ends it, when there is one). Names are bounded by the longest one.
_REFERENCE = re.compile(r"&(?:#[0-9]{1,16};?|#[xX][0-9A-Fa-f]{1,16};?|[A-Za-z][A-Za-z0-9]{0,63};?)")


def _attribute_reference(match: re.Match[str]) -> str:
    text = match.group()
    if text[1] == "#":
        return html.unescape(text)
    name = text[1:]
    if name[-1] == ";":
        return _named_references.get(name, text)  # "&copy;" (a name the table has whole)
    # A name without ";", the standard's "historical reasons" (HTML §13.2.5.73): in an
    # attribute it is decoded only when it is a whole legacy name ("&copy", "&amp") that no
    # "=" follows; a longer name runs on past one ("&param" is not "&para" + "m").
    if name in _named_references and match.string[match.end() : match.end() + 1] != "=":
        return _named_references[name]
    return text


def unescape_attribute(value: str) -> str:
    """Decode the character references of an attribute's value as a browser does.

    Unlike :func:`html.unescape` (the rule for text), a reference name without its ``;``
    that an ASCII letter, digit or ``=`` follows stays as written: in
    ``href="/s?a=1&param=2&region=eu"`` there are no references to the pilcrow and the
    registered sign, and the URL keeps ``&param=`` and ``&region=``.
    """
    return _REFERENCE.sub(_attribute_reference, value) if "&" in value else value
