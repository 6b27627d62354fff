"""Text of an HTML mail part: the visible text, then every URL-bearing attribute value.

Strategy: the standard library's :class:`html.parser.HTMLParser` (a tolerant tokenizer that
never rejects input) turns the markup into events; character references are decoded by the
parser. The unit's text is built in two sections so the scanner sees both what a reader
sees and where the links point:

1. the *visible text*: character data outside ``<script>``, ``<style>``, ``<head>``'s
   metadata and comments, with a line break added at block-level tags (``<p>``, ``<br>``,
   ``<div>``, ``<li>``, ``<tr>``...) so words from different blocks do not run together.
   Source line breaks inside text are kept as they are (a URL wrapped in the HTML source
   stays wrapped, just as it would in plain text);
2. after one empty line, *each attribute URL on its own line*, in document order without
   repeats: values of ``href``, ``src``, ``cite``, ``action``, ``background``, ``longdesc``,
   ``poster``, ``formaction``, ``data`` and ``manifest`` that carry a scheme (relative
   references cannot be resolved and are left out). As the WHATWG URL parser does, leading
   and trailing whitespace is stripped and tabs and line breaks inside the value removed.

Work and memory are linear in the size of the part.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

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

# RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_TAB_OR_NEWLINE = re.compile(r"[\t\r\n]")


class _TextExtractor(HTMLParser):
    """Collects visible text and attribute URLs from the parser's events."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.urls: dict[str, None] = {}  # insertion-ordered set
        self._hidden = 0  # depth of open hidden elements
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and name in URL_ATTRIBUTES:
                url = _TAB_OR_NEWLINE.sub("", value.strip())
                if _ABSOLUTE.match(url):
                    self.urls[url] = None
        if tag in HIDDEN_TAGS:
            self._hidden += 1
        elif tag == "body":
            self._hidden = 0  # a <body> ends an unclosed <head> or <style>
        elif tag == "title":
            self._in_title = True
        if tag in BLOCK_TAGS:
            self.text.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <br/>, <img .../>: never opens an element, so hidden depth is not touched.
        for name, value in attrs:
            if value and name in URL_ATTRIBUTES:
                url = _TAB_OR_NEWLINE.sub("", value.strip())
                if _ABSOLUTE.match(url):
                    self.urls[url] = None
        if tag in BLOCK_TAGS:
            self.text.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in HIDDEN_TAGS:
            self._hidden = max(0, self._hidden - 1)
        elif tag == "title":
            self._in_title = False
        if tag in BLOCK_TAGS:
            self.text.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden or self._in_title:
            self.text.append(data)


def html_to_text(markup: str) -> str:
    """Return the scannable text of an HTML document or fragment.

    Args:
        markup: the decoded HTML source.

    Returns:
        The visible text, then (after an empty line) each absolute URL found in a
        URL-bearing attribute on its own line. The parser accepts any markup; should it
        ever raise, the MIME layer falls back to the raw markup with an
        ``html-parse-error`` defect.
    """
    parser = _TextExtractor()
    parser.feed(markup)
    parser.close()
    text = "".join(parser.text)
    if parser.urls:
        if text and not text.endswith("\n"):
            text += "\n"
        text += "\n" + "\n".join(parser.urls) + "\n"
    return text
