"""Text of an HTML mail part: the visible text, then every URL-bearing attribute value.

Strategy: :func:`~urlsift.sources.htmltokens.tokenize` (an HTML tokenizer that never
rejects input and is linear on any input) turns the markup into tokens; character
references are decoded, in text by :func:`html.unescape`, in attribute values by
:func:`~urlsift.sources.htmltokens.unescape_attribute` (as a browser reads each). The unit's
text is built in two sections so the scanner sees both what a reader sees and where the
links point:

1. the *visible text*: character data outside ``<script>``, ``<style>``, ``<head>``'s
   metadata, fallback content (``<iframe>``, ``<noembed>``, ``<noframes>``) and comments
   (a tag the part ends inside, which HTML drops, is read as text, so a URL in a truncated
   ``<a href="...`` is still found), with a line break added at block-level tags (``<p>``,
   ``<br>``, ``<div>``, ``<li>``, ``<tr>``...) so words from different blocks do not run
   together.
   Source line breaks inside text are kept as they are (a URL wrapped in the HTML source
   stays wrapped, just as it would in plain text);
2. after one empty line, *each attribute URL on its own line*, in document order without
   repeats: values of ``href``, ``src``, ``cite``, ``action``, ``background``, ``longdesc``,
   ``poster``, ``formaction``, ``data`` and ``manifest`` that carry a scheme (relative
   references cannot be resolved and are left out), and the ``url(...)`` and ``@import``
   URLs of CSS in ``style`` attributes and ``<style>`` elements (:mod:`urlsift.sources.css`).
   As the WHATWG URL parser does, leading and trailing whitespace is stripped and tabs and
   line breaks inside the value removed.

Two paths, one text: :func:`html_to_text` reads the text before each markup and the
markup itself with one regular expression match when the markup has a common shape (a tag
whose attributes are separated by white space with closed quotes, an end tag without
attributes, a closed comment), and hands anything else, and the text of raw-text
elements, to the tokenizer's own steps; :func:`html_to_text_general` reads every token
through :func:`~urlsift.sources.htmltokens.tokenize`. Tests hold the two to the same text.

Work and memory are linear in the size of the part.
"""

from __future__ import annotations

import html
import re

from ..grammar.context import scheme_name
from .css import css_urls
from .htmltokens import (
    _MARKUP_START,
    _RAW_END,
    RAW_TEXT_ELEMENTS,
    UNRENDERED_ELEMENTS,
    Token,
    _markup,
    _new,
    _token,
    tokenize,
    unescape_attribute,
)

URL_ATTRIBUTES = frozenset(
    {
        "href",
        "src",
        "cite",
        "action",
        "background",
        "longdesc",
        "poster",
        "formaction",
        "data",
        "manifest",
    }
)
"""Attribute names whose values are URLs."""

BLOCK_TAGS = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
        "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section",
        "table", "td", "th", "title", "tr", "ul",
    }
)  # fmt: skip
"""Tags that start or end a block: a line break is emitted at each."""

HIDDEN_TAGS = frozenset({"script", "style", "template", "head"})
"""Tags whose content is not visible text (``<title>`` inside ``<head>`` is an exception;
``<body>`` ends any unclosed ``<head>``)."""

# A value that starts with a scheme name and ":" (RFC 3986 §3.1) is an absolute URL.
# Unbounded (matched at the value's start only, so linear): a value with a scheme of any
# length is kept, as a browser would keep it.
_ABSOLUTE = re.compile(f"{scheme_name(None)}:")
_TAB_OR_NEWLINE = re.compile(r"[\t\r\n]")
# Where css_urls can find a URL: "url(" or "@import", matched as its tokens match them
# (ignoring case as re does: "\u0131" is an "i" there).
_CSS_URL_START = re.compile(r"url\(|@import", re.IGNORECASE)


# The fast path's step (html_to_text): the text up to the next "<", then what that "<"
# starts, read whole when it has a common shape: a start tag (groups 2-4: name,
# attributes, "/" of "/>") whose attributes are separated by white space, each value
# quoted with its closing quote or unquoted; an end tag without attributes (group 5); a
# comment or bogus comment closed in the input (group 6). A "<" that starts no markup (as
# htmltokens._MARKUP_START says) matches with group 7 empty; any other markup matches as
# its "<" alone (groups 2-7 None), and the general path reads on from the text's start;
# the end of the input ends the last step. Each shape is read as htmltokens reads it (a
# test holds them to it): every choice the pattern could take instead of the greedy one
# fails at the next character (a name or value cut short is followed by one of its own
# characters; an empty unquoted value only before ">"; no name starts with "=" or a
# quote), so the match is the tokenizer's reading and a failed attempt costs one pass
# over the tag.
_WS = "[\\t\\n\\f\\r ]"
_COMMON_MARKUP = re.compile(
    rf"""([^<]*)
    (?:<(?:
        ([A-Za-z][^\t\n\f\r\ />]*)
        ((?:{_WS}+[^\t\n\f\r\ />="'<][^\t\n\f\r\ />=]*
            (?:{_WS}*={_WS}*(?:"[^"]*"|'[^']*'|[^\t\n\f\r\ >"'][^\t\n\f\r\ >]*|(?=>)))?
        ){{0,64}})
        {_WS}*(/?)>
      | /([A-Za-z][^\t\n\f\r\ />]*){_WS}*/?>
      | (!--(?:>|->|.*?--!?>)|!(?!--)[^>]*>|\?[^>]*>)
      | ((?![A-Za-z!?/]))
      |
    )|\Z)""",
    re.VERBOSE | re.DOTALL,
)
# Start tags after which the tokenizer reads text: raw text and RCDATA elements, plaintext.
_TEXT_ELEMENTS = frozenset(_RAW_END) | {"plaintext"}
# Start tags that change what is visible (see _start_tag, which the fast path writes out).
_STATE_TAGS = HIDDEN_TAGS | {"body", "title"}
# Attributes html_to_text reads (URL_ATTRIBUTES and "style") with a value, searched in
# the lower-cased attributes of a tag: a tag without one has no attribute to read. (The
# tokenizer lower-cases each name; lowering the whole text gives the same letters.) A
# style value is read only for what css_urls can find there ("url(" or "@import" after
# html.unescape), so a tag whose attributes hold no "@", "&" or "url(" gives nothing from
# its style (most: Outlook's HTML styles nearly every tag).
_URL_NAME_ATTRIBUTE = re.compile("(?:" + "|".join(sorted(URL_ATTRIBUTES)) + f"){_WS}*=")
_STYLE_ATTRIBUTE = re.compile(f"style{_WS}*=")
# The URLs the attributes of a start tag give (_attribute_url_list), by the attributes as
# written: a part's tags repeat theirs (an archive's 33,000 tags with attributes hold
# 4,800 distinct ones). Emptied when full; only short attributes are kept.
_ATTRIBUTE_URLS: dict[str, tuple[str, ...]] = {}
_MAX_ATTRIBUTES = 4096
_MAX_KEPT_ATTRIBUTES = 512  # characters


def _attribute_url_list(attributes: str) -> tuple[str, ...]:
    # The URLs _common_attribute_urls adds for a tag's attributes, in order (it adds
    # nothing when no URL attribute has a value, nor a style that holds "@", "&" or
    # "url("), remembered in _ATTRIBUTE_URLS.
    lowered = attributes.lower()
    found: dict[str, None] = {}
    if _URL_NAME_ATTRIBUTE.search(lowered) is not None or (
        ("@" in lowered or "&" in lowered or "url(" in lowered)
        and _STYLE_ATTRIBUTE.search(lowered) is not None
    ):
        _common_attribute_urls(attributes, found)
    urls = tuple(found)
    if len(attributes) <= _MAX_KEPT_ATTRIBUTES:
        if len(_ATTRIBUTE_URLS) >= _MAX_ATTRIBUTES:
            _ATTRIBUTE_URLS.clear()
        _ATTRIBUTE_URLS[attributes] = urls
    return urls


# What a tag does to the text, by its name as written (html_to_text's tables below):
# nothing, a line break (a block tag), or more (a tag that changes what is visible, or
# starts an element whose content is text: the loop's longer steps).
_NOTHING, _LINE_BREAK, _STATE = 0, 1, 2
_MAX_NAMES = 1024  # names remembered per table (emptied when full)
_START_DOES: dict[str, int] = {}
_END_DOES: dict[str, int] = {}


def _start_does(name: str) -> int:
    lowered = name.lower()
    if lowered in _STATE_TAGS or lowered in _TEXT_ELEMENTS:
        return _kept(_START_DOES, name, _STATE)
    return _kept(_START_DOES, name, _LINE_BREAK if lowered in BLOCK_TAGS else _NOTHING)


def _end_does(name: str) -> int:
    lowered = name.lower()
    if lowered in HIDDEN_TAGS or lowered == "title":
        return _kept(_END_DOES, name, _STATE)
    return _kept(_END_DOES, name, _LINE_BREAK if lowered in BLOCK_TAGS else _NOTHING)


def _kept(table: dict[str, int], name: str, does: int) -> int:
    # What a tag of this name does, remembered in its table (bounded: emptied when full).
    if len(table) >= _MAX_NAMES:
        table.clear()
    table[name] = does
    return does


# One attribute of a start tag _COMMON_MARKUP read (its group 2): the name, and the value
# (double-quoted, single-quoted or bare; all empty when there is none).
_COMMON_ATTRIBUTE = re.compile(
    rf"""{_WS}+([^\t\n\f\r\ />="'<][^\t\n\f\r\ />=]*)
        (?:{_WS}*={_WS}*(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r\ >"'][^\t\n\f\r\ >]*))?)?""",
    re.VERBOSE,
)


# Character references most HTML mail holds (quoted replies are "&gt; " lines), replaced
# before html.unescape sees the text: each is a whole reference there too (a reference
# never holds "&", so none before it reaches into it), and the character that replaces it
# is in no reference name, so a name before it that now runs into it gives the same
# longest match. Fewer references for html.unescape's Python callback.
_COMMON_REFERENCES = (("&gt;", ">"), ("&nbsp;", "\xa0"), ("&quot;", '"'), ("&lt;", "<"))


def _unescape(text: str) -> str:
    # html.unescape(text), the common references replaced first (same result).
    for reference, character in _COMMON_REFERENCES:
        if reference in text:
            text = text.replace(reference, character)
    return html.unescape(text) if "&" in text else text


def _add_url(value: str, urls: dict[str, None]) -> None:
    url = _TAB_OR_NEWLINE.sub("", value.strip())
    if _ABSOLUTE.match(url):
        urls[url] = None


def _css_urls(css: str, urls: dict[str, None]) -> None:
    if "@" not in css and "url(" not in css.lower():
        return  # no url(...) and no @import: nothing to read (most style attributes)
    if _CSS_URL_START.search(css) is None:
        return  # "@" only in other at-rules (@font-face, @media, @page...)
    for found in css_urls(css):
        _add_url(found.value, urls)


def _common_attribute_urls(attributes: str, urls: dict[str, None]) -> None:
    # _attribute_urls for the attributes of a tag _COMMON_MARKUP read (its group 3).
    for name, double, single, bare in _COMMON_ATTRIBUTE.findall(attributes):
        value = double or single or bare
        if value:
            name = name.lower()
            if name in URL_ATTRIBUTES:
                _add_url(unescape_attribute(value), urls)
            elif name == "style":
                _css_urls(unescape_attribute(value), urls)


def _attribute_urls(markup: str, token: Token, urls: dict[str, None]) -> None:
    for name, start, end in token.attributes:
        if end > start:
            if name in URL_ATTRIBUTES:
                _add_url(unescape_attribute(markup[start:end]), urls)
            elif name == "style":
                _css_urls(unescape_attribute(markup[start:end]), urls)


def _apply(
    markup: str,
    token: Token,
    pieces: list[str],
    urls: dict[str, None],
    hidden: int,
    in_title: bool,
) -> tuple[int, bool]:
    # One token of the general path; returns the new (hidden depth, in_title).
    kind, name = token.kind, token.name
    if kind == "text" or kind == "cut":  # a cut tag is read as text, URLs and all
        if kind == "text" and name == "style":  # raw text: no references to decode
            _css_urls(markup[token.start : token.end], urls)
        if name in UNRENDERED_ELEMENTS or (hidden and not in_title):
            return hidden, in_title
        written = markup[token.start : token.end]
        raw = kind == "text" and name in RAW_TEXT_ELEMENTS
        pieces.append(written if raw else html.unescape(written))
    elif kind == "start":
        _attribute_urls(markup, token, urls)
        return _start_tag(name, token.self_closing, pieces, hidden, in_title)
    elif kind == "end":
        return _end_tag(name, pieces, hidden, in_title)
    return hidden, in_title


def _start_tag(
    name: str, self_closing: bool, pieces: list[str], hidden: int, in_title: bool
) -> tuple[int, bool]:
    # What a start tag named ``name`` (lower case) opens; returns (hidden, in_title).
    if self_closing:
        pass  # <br/>, <img .../>: a self-closing tag never opens an element
    elif name in HIDDEN_TAGS:
        hidden += 1
    elif name == "body":
        hidden = 0  # a <body> ends an unclosed <head> or <style>
    elif name == "title":
        in_title = True
    if name in BLOCK_TAGS:
        pieces.append("\n")
    return hidden, in_title


def _end_tag(name: str, pieces: list[str], hidden: int, in_title: bool) -> tuple[int, bool]:
    # What an end tag named ``name`` (lower case) closes; returns (hidden, in_title).
    if name in HIDDEN_TAGS:
        hidden = max(0, hidden - 1)
    elif name == "title":
        in_title = False
    if name in BLOCK_TAGS:
        pieces.append("\n")
    return hidden, in_title


def _next_markup(markup: str, search: int) -> tuple[int, Token | None]:
    # The next markup token at or after ``search`` and where it starts, as tokenize finds
    # it; (len(markup), None) when the rest is text.
    while True:
        found = _MARKUP_START.search(markup, search)
        if found is None:
            return len(markup), None
        token = _markup(markup, found.start())
        if token is not None:
            return found.start(), token
        search = found.start() + 1


def _joined(pieces: list[str], urls: dict[str, None]) -> str:
    text = "".join(pieces)
    if urls:
        if text and not text.endswith("\n"):
            text += "\n"
        text += "\n" + "\n".join(urls) + "\n"
    return text


def html_to_text_general(markup: str) -> str:
    """:func:`html_to_text` by the general path alone: every token of
    :func:`~urlsift.sources.htmltokens.tokenize`, one at a time (the reference the fast
    path is held to)."""
    pieces: list[str] = []
    urls: dict[str, None] = {}  # insertion-ordered set
    hidden = 0  # depth of open hidden elements
    in_title = False
    for token in tokenize(markup):
        hidden, in_title = _apply(markup, token, pieces, urls, hidden, in_title)
    return _joined(pieces, urls)


def html_to_text(markup: str) -> str:
    """Return the scannable text of an HTML document or fragment.

    Args:
        markup: the decoded HTML source.

    Returns:
        The visible text, then (after an empty line) each absolute URL found in a
        URL-bearing attribute on its own line. The tokenizer accepts any markup; should
        this ever raise, the MIME layer falls back to the raw markup with an
        ``html-parse-error`` defect.
    """
    # The fast path: each step reads the text before the next markup and, when it has a
    # common shape, the markup (_COMMON_MARKUP); the general path reads any other markup
    # and the text of raw-text elements. The same tokens, so the same text as
    # html_to_text_general.
    pieces: list[str] = []
    urls: dict[str, None] = {}  # insertion-ordered set
    hidden = 0  # depth of open hidden elements
    in_title = False
    append = pieces.append
    length = len(markup)
    pos = 0  # where the next step starts
    start_does, end_does, attribute_urls = _START_DOES.get, _END_DOES.get, _ATTRIBUTE_URLS.get
    while pos < length:
        visible = not (hidden and not in_title)
        for m in _COMMON_MARKUP.finditer(markup, pos):
            text, name, attributes, closing, end_name, comment, lone = m.groups()
            if name is None and end_name is None and comment is None:
                break  # a "<" that is text or starts other markup, or the end
            if text and visible:
                append(_unescape(text) if "&" in text else text)
            if name is not None:
                if attributes:
                    given = attribute_urls(attributes)
                    if given is None:
                        given = _attribute_url_list(attributes)
                    for url in given:
                        urls[url] = None
                does = start_does(name)
                if does is None:
                    does = _start_does(name)
                if does == _LINE_BREAK:
                    append("\n")
                elif does:
                    # _start_tag, written out (a call and a tuple less per tag).
                    name = name.lower()
                    if name in _STATE_TAGS and not closing:
                        if name in HIDDEN_TAGS:
                            hidden += 1
                        elif name == "body":
                            hidden = 0
                        else:  # title
                            in_title = True
                        visible = not (hidden and not in_title)
                    if name in BLOCK_TAGS:
                        append("\n")
                    if name in _TEXT_ELEMENTS:
                        break
            elif end_name is not None:
                does = end_does(end_name)
                if does is None:
                    does = _end_does(end_name)
                if does == _LINE_BREAK:
                    append("\n")
                elif does:
                    # _end_tag, written out.
                    end_name = end_name.lower()
                    if end_name in HIDDEN_TAGS:
                        hidden = max(0, hidden - 1)
                    else:  # title
                        in_title = False
                    visible = not (hidden and not in_title)
                    if end_name in BLOCK_TAGS:
                        append("\n")
        pos = m.end()
        if name is None:
            if lone is None and pos == length:  # the end: the rest is text
                if text:
                    token = _token("text", length - len(text), length)
                    hidden, in_title = _apply(markup, token, pieces, urls, hidden, in_title)
                break
            # The general path reads the text and the markup after it (as tokenize does).
            text_start = pos - 1 - len(text)
            lt, found_markup = _next_markup(markup, pos - 1)
            if lt > text_start:
                token = _token("text", text_start, lt)
                hidden, in_title = _apply(markup, token, pieces, urls, hidden, in_title)
            if found_markup is None:
                break
            hidden, in_title = _apply(markup, found_markup, pieces, urls, hidden, in_title)
            pos = found_markup.end
            if found_markup.kind != "start":
                continue
            name = found_markup.name
        if name == "plaintext":  # the rest is text
            if pos < length:
                token = _token("text", pos, length)
                hidden, in_title = _apply(markup, token, pieces, urls, hidden, in_title)
            break
        raw_end = _RAW_END.get(name)
        if raw_end is not None:  # the element's text runs to its end tag
            found = raw_end.search(markup, pos)
            stop = length if found is None else found.start()
            if stop > pos:
                token = _new(Token, ("text", pos, stop, name, (), False))
                hidden, in_title = _apply(markup, token, pieces, urls, hidden, in_title)
            pos = stop
    return _joined(pieces, urls)
