"""HTML documents: URL-bearing attribute values and the visible text.

Strategy: the standard library's :class:`html.parser.HTMLParser` (tolerant, never rejects
input) is run with ``convert_charrefs=False`` so every ``handle_data`` call covers exactly
the source characters it reports, and :meth:`~html.parser.HTMLParser.getpos` gives each
event's exact start. Attribute values are located inside the raw start tag
(:meth:`~html.parser.HTMLParser.get_starttag_text`) by a small attribute pattern, then
entity-decoded (:func:`html.unescape`) and stripped of leading and trailing whitespace as
HTML does; whitespace left inside is reported by the rules (``URL004``). The visible text
is everything that is character data outside ``<pre>``, ``<code>``, ``<script>`` and
``<style>`` (unless verbatim text is included); markup, comments and hidden content are
masked before the core scans for the appendix forms. Character references in visible text
are left as written. Linear in the size of the document.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from itertools import pairwise

from ..sources.htmltext import URL_ATTRIBUTES
from .extract import ExtractOptions, FindingBuilder, LineIndex, link_scheme, mask
from .model import Finding

CODE_TAGS = frozenset({"pre", "code", "script", "style", "kbd", "samp", "listing", "xmp"})
"""Elements whose content is code, skipped unless verbatim text is included."""

# One attribute inside a raw start tag: name, then an optional value in double quotes,
# single quotes, or unquoted (HTML Living Standard §13.1.2.3).
_ATTRIBUTE = re.compile(r"""[\s/]([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
# HTML's ASCII whitespace (stripped from both ends of a URL attribute value).
_HTML_SPACE = " \t\n\f\r"


class _Locator(HTMLParser):
    """Records where each parser event starts, and URL attribute values, as offsets.

    An event's span runs to the next event's start, so visible text is exactly the spans
    of character data (and character references) outside skipped elements, whatever the
    parser does with malformed markup.
    """

    def __init__(self, index: LineIndex, skip: frozenset[str]) -> None:
        super().__init__(convert_charrefs=False)
        self._index = index
        self._skip = skip
        self._hidden: dict[str, int] = {}
        self.events: list[tuple[int, bool]] = []  # (start offset, visible)
        self.attributes: list[tuple[int, int, str]] = []  # (start, end, decoded value)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._index.line_start(line) + column

    def _event(self, visible: bool) -> None:
        self.events.append((self._offset(), visible and not any(self._hidden.values())))

    def _attributes(self) -> None:
        raw = self.get_starttag_text()
        if raw is None:
            return
        start = self._offset()
        for m in _ATTRIBUTE.finditer(raw):
            if m.group(1).lower() not in URL_ATTRIBUTES:
                continue
            group = next((g for g in (2, 3, 4) if m.group(g) is not None), None)
            if group is None:
                continue
            value = m.group(group)
            left = len(value) - len(value.lstrip(_HTML_SPACE))
            right = len(value.rstrip(_HTML_SPACE))
            if left >= right:
                continue
            value_start = start + m.start(group)
            decoded = html.unescape(value[left:right]).strip(_HTML_SPACE)
            self.attributes.append((value_start + left, value_start + right, decoded))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._event(False)
        self._attributes()
        if tag in self._skip:
            self._hidden[tag] = self._hidden.get(tag, 0) + 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._event(False)
        self._attributes()

    def handle_endtag(self, tag: str) -> None:
        self._event(False)
        if self._hidden.get(tag):
            self._hidden[tag] -= 1

    def handle_data(self, data: str) -> None:
        self._event(True)

    def handle_entityref(self, name: str) -> None:
        self._event(True)

    def handle_charref(self, name: str) -> None:
        self._event(True)

    def handle_comment(self, data: str) -> None:
        self._event(False)

    def handle_decl(self, decl: str) -> None:
        self._event(False)

    def handle_pi(self, data: str) -> None:
        self._event(False)

    def unknown_decl(self, data: str) -> None:
        self._event(False)


def scan_html_region(builder: FindingBuilder, start: int, end: int) -> list[tuple[int, int]]:
    """Report the attribute URLs of ``builder.text[start:end]`` and return what to mask.

    Args:
        builder: the document's finding builder (links are added to it).
        start: offset where the HTML region starts.
        end: offset where it ends.

    Returns:
        The spans of the region that are not visible text (markup, comments, code),
        as source offsets, for :func:`~urlsift.lint.extract.mask`.
    """
    region = builder.text[start:end]
    options = builder.options
    skip = frozenset() if options.include_verbatim else CODE_TAGS
    locator = _Locator(LineIndex(region), skip)
    locator.feed(region)
    locator.close()
    for value_start, value_end, decoded in locator.attributes:
        if link_scheme(decoded, options.schemes) is None:
            continue
        written = region[value_start:value_end]
        target = None if written == decoded else decoded
        builder.add_link(value_start + start, value_end + start, "html-attribute", target)
    # Everything before the first event, and every invisible event's span, is masked.
    hidden: list[tuple[int, int]] = []
    bounds = [*locator.events, (len(region), False)]
    if bounds[0][0] > 0:
        hidden.append((start, start + bounds[0][0]))
    for (event_start, visible), (next_start, _) in pairwise(bounds):
        if not visible and next_start > event_start:
            hidden.append((start + event_start, start + next_start))
    return hidden


def extract_html(text: str, path: str, options: ExtractOptions) -> list[Finding]:
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
    return builder.scan(mask(text, hidden))
