"""Text of an HTML mail part: the visible text, then every URL-bearing attribute value.

Strategy: :func:`~urlsift.sources.htmltokens.tokenize` (an HTML tokenizer that never
rejects input and is linear on any input) turns the markup into tokens; character
references in text and attribute values are decoded (:func:`html.unescape`). The unit's
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

Work and memory are linear in the size of the part.
"""

from __future__ import annotations

import html
import re

from ..grammar.context import scheme_name
from .css import css_urls
from .htmltokens import RAW_TEXT_ELEMENTS, UNRENDERED_ELEMENTS, Token, tokenize

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


def _add_url(value: str, urls: dict[str, None]) -> None:
    url = _TAB_OR_NEWLINE.sub("", value.strip())
    if _ABSOLUTE.match(url):
        urls[url] = None


def _css_urls(css: str, urls: dict[str, None]) -> None:
    for found in css_urls(css):
        _add_url(found.value, urls)


def _attribute_urls(markup: str, token: Token, urls: dict[str, None]) -> None:
    for name, start, end in token.attributes:
        if end > start:
            if name in URL_ATTRIBUTES:
                _add_url(html.unescape(markup[start:end]), urls)
            elif name == "style":
                _css_urls(html.unescape(markup[start:end]), urls)


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
    pieces: list[str] = []
    urls: dict[str, None] = {}  # insertion-ordered set
    hidden = 0  # depth of open hidden elements
    in_title = False
    for token in tokenize(markup):
        kind, name = token.kind, token.name
        if kind == "text" or kind == "cut":  # a cut tag is read as text, URLs and all
            if kind == "text" and name == "style":  # raw text: no references to decode
                _css_urls(markup[token.start : token.end], urls)
            if name in UNRENDERED_ELEMENTS or (hidden and not in_title):
                continue
            written = markup[token.start : token.end]
            raw = kind == "text" and name in RAW_TEXT_ELEMENTS
            pieces.append(written if raw else html.unescape(written))
        elif kind == "start":
            _attribute_urls(markup, token, urls)
            # <br/>, <img .../>: a self-closing tag never opens an element.
            if token.self_closing:
                pass
            elif name in HIDDEN_TAGS:
                hidden += 1
            elif name == "body":
                hidden = 0  # a <body> ends an unclosed <head> or <style>
            elif name == "title":
                in_title = True
            if name in BLOCK_TAGS:
                pieces.append("\n")
        elif kind == "end":
            if name in HIDDEN_TAGS:
                hidden = max(0, hidden - 1)
            elif name == "title":
                in_title = False
            if name in BLOCK_TAGS:
                pieces.append("\n")
    text = "".join(pieces)
    if urls:
        if text and not text.endswith("\n"):
            text += "\n"
        text += "\n" + "\n".join(urls) + "\n"
    return text
