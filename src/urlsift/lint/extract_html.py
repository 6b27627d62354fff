"""HTML documents: URL-bearing attribute values and the visible text.

Strategy: :func:`~urlsift.sources.htmltokens.tokenize` (never rejects input, linear on
any input) gives every token with its exact source span, and every attribute value's span.
URL attribute values are entity-decoded as a browser decodes an attribute
(:func:`~urlsift.sources.htmltokens.unescape_attribute`) and stripped of leading and
trailing whitespace as HTML does; whitespace left inside is reported by the rules
(``URL004``). The visible text is the character data outside ``<pre>``, ``<code>``,
``<script>``, ``<style>``... (unless verbatim text is included) and outside fallback content
(``<iframe>``, ``<noembed>``, ``<noframes>``); a tag the document ends inside (which HTML
drops) is read as text. Markup, comments and hidden content are masked before the core
scans for the appendix forms. Character references in visible text are left as written.
Linear in the size of the document.
"""

from __future__ import annotations

import re

from ..sources.htmltext import URL_ATTRIBUTES
from ..sources.htmltokens import UNRENDERED_ELEMENTS, Token, tokenize, unescape_attribute
from .findings import (
    Extracted,
    ExtractOptions,
    FindingBuilder,
    Spans,
    is_relative,
    link_scheme,
    mask,
)

CODE_TAGS = frozenset({"pre", "code", "script", "style", "kbd", "samp", "listing", "xmp"})
"""Elements whose content is code, skipped unless verbatim text is included."""

# Attributes whose value a fragment (#id) can name.
_ANCHOR_ATTRIBUTES = frozenset({"id", "name"})
# HTML's ASCII whitespace (stripped from both ends of a URL attribute value).
_HTML_SPACE = " \t\n\f\r"


def scan_html_region(builder: FindingBuilder, start: int, end: int) -> Spans:
    """Report the attribute URLs of ``builder.text[start:end]`` and return what to mask.

    Args:
        builder: the document's finding builder (links are added to it).
        start: offset where the HTML region starts.
        end: offset where it ends.

    Returns:
        The spans of the region that are not visible text (markup, comments, code),
        as source offsets, for :func:`~urlsift.lint.extract.mask`.
    """
    text = builder.text
    options = builder.options
    skip = frozenset() if options.include_verbatim else CODE_TAGS
    open_skipped: dict[str, int] = {}  # skipped element -> open count
    skipped_depth = 0  # sum of open_skipped
    hidden = Spans()
    for token in tokenize(text[start:end]):
        kind, name = token.kind, token.name
        if kind == "text" or kind == "cut":  # a tag the document ends inside is read as text
            if name not in UNRENDERED_ELEMENTS and not skipped_depth:
                continue  # visible text
        elif kind == "start":
            for attribute in token.attributes:
                if attribute.name in URL_ATTRIBUTES:
                    _report_attribute(builder, start + attribute.start, start + attribute.end)
                elif attribute.name in _ANCHOR_ATTRIBUTES:
                    builder.anchors.add(
                        unescape_attribute(
                            text[start + attribute.start : start + attribute.end]
                        ).strip()
                    )
            if name == "meta" and builder.redirect is None:
                builder.redirect = _refresh_target(token, text, start)
            if name in skip and not token.self_closing:
                open_skipped[name] = open_skipped.get(name, 0) + 1
                skipped_depth += 1
        elif kind == "end" and open_skipped.get(name):
            open_skipped[name] -= 1
            skipped_depth -= 1
        hidden.add(start + token.start, start + token.end)  # adjacent markup: one span
    return hidden


_REFRESH = re.compile(r"\s*\d[\d.]*\s*[;,]\s*(?:url\s*=\s*)?(.*)", re.IGNORECASE | re.DOTALL)
# The content of a refresh: seconds, then the URL, as HTML's "shared declarative refresh
# steps" read it (``0;URL=x``, ``0; url='x'``, ``0, x``).


def _refresh_target(token: Token, text: str, start: int) -> str | None:
    """The URL a ``<meta http-equiv="refresh" content="0;URL=...">`` sends the reader to,
    entity-decoded and unquoted, or None (another ``<meta>``, or a refresh of the page
    itself)."""
    values = {
        attribute.name: unescape_attribute(text[start + attribute.start : start + attribute.end])
        for attribute in token.attributes
    }
    if values.get("http-equiv", "").strip().lower() != "refresh":
        return None
    m = _REFRESH.match(values.get("content", ""))
    if m is None:
        return None
    target = m.group(1).strip(_HTML_SPACE)
    if target[:1] in ("'", '"'):
        target = target[1:].partition(target[0])[0]
    return target or None


def _report_attribute(builder: FindingBuilder, start: int, end: int) -> None:
    """Report the URL attribute value written at ``builder.text[start:end]``, if a URL."""
    value = builder.text[start:end]
    left = len(value) - len(value.lstrip(_HTML_SPACE))
    right = len(value.rstrip(_HTML_SPACE))
    if left >= right:
        return
    decoded = unescape_attribute(value[left:right]).strip(_HTML_SPACE)
    if link_scheme(decoded, builder.options.schemes) is None:
        if is_relative(decoded):
            builder.add_local(start + left, decoded, "html-attribute")
        return
    written = value[left:right]
    builder.add_link(
        start + left, start + right, "html-attribute", None if written == decoded else decoded
    )


def extract_html(text: str, path: str, options: ExtractOptions) -> Extracted:
    """Find the URLs of an HTML document: attribute values and visible text.

    Args:
        text: the decoded document.
        path: the path reported in each finding.
        options: what to look at.

    Returns:
        The findings in source order.
    """
    builder = FindingBuilder(text, path, options)
    hidden = scan_html_region(builder, 0, len(text))
    return builder.document(builder.scan(mask(text, hidden)))
