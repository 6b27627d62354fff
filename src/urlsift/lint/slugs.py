"""Anchor names: what Markdown headings and reST titles and labels are called (pure functions).

A Markdown heading's anchor depends on the generator that renders it; a linter that
accepts only one would report working links, so :func:`heading_anchors` gives the anchor
each slug style of :data:`SLUG_STYLES` makes (data, one row per style): GitHub's, which
Hugo/Goldmark, Docusaurus (github-slugger) and mdBook follow (lower case, punctuation other
than ``-`` and ``_`` dropped, each space a ``-``, repeats ``-1``, ``-2``), its ASCII
variant (Hugo's ``github-ascii``), Python-Markdown's ``toc`` (MkDocs: accents dropped, runs
of spaces and hyphens one ``-``, repeats ``_1``) and kramdown's (Jekyll: leading
non-letters dropped, only ASCII letters, digits, spaces and hyphens kept), VitePress' and
VuePress' (accents dropped, each run of spaces and punctuation ``-``, ``_`` before a leading
digit: ``site.title`` is ``site-title``), and an explicit
``{#id}`` (attribute lists). The heading's text is taken as the generator renders it:
link text kept, code span text kept literally (``<name>`` inside backticks stays text),
HTML tags outside code dropped, entities decoded, emphasis marks dropped. reST titles and
labels get docutils' ids (:func:`make_id`); ``:ref:`` compares reference names normalised
(:func:`normalize_label`).
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet

_EXPLICIT_ID = re.compile(r"\s*\{[^{}]*#([\w.:-]+)[^{}]*\}\s*\Z")
# Python-Markdown's attr_list takes any trailing ``{...}`` off a heading (``## Android
# {: android}``, ``## Setup { .new }``): its HEADER_RE, a space then ``{:?`` and a list
# that does not start with a space or ``}``.
_TRAILING_ATTRIBUTES = re.compile(r"[ \t]+\{:?[ \t]*[^}\s][^}\n]*\}[ \t]*\Z")
_INLINE_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)|!?\[([^\]]*)\]\[[^\]]*\]")
_CODE_OR_TAG = re.compile(r"(`+)(.+?)\1|<[^<>]*>")
_EMPHASIS = re.compile(r"(?<![\w\\])(\*{1,3}|_{1,3}|~~)(?=\S)(.+?)(?<=\S)\1(?!\w)")
_GITHUB_DROP = re.compile(r"[^\w\- ]")
_TOC_DROP = re.compile(r"[^\w\s-]")
_TOC_JOIN = re.compile(r"[-\s]+")
_KRAMDOWN_LEAD = re.compile(r"^[^a-zA-Z]+")
_KRAMDOWN_DROP = re.compile(r"[^a-zA-Z0-9 -]")
_NON_ID = re.compile(r"[^a-z0-9]+")
# VitePress' and VuePress' slugify (@mdit-vue/shared): accents and control characters
# dropped, each run of spaces and ASCII punctuation one "-", none at the ends, "_" before
# a leading digit.
_COMBINING = re.compile("[\u0300-\u036f]")
_CONTROL = re.compile("[\x00-\x1f]")
_VUEPRESS_SPECIAL = re.compile(
    r"[\s~`!@#$%^&*()\-_+=\[\]{}|\\;:\"'<>,.?/" "\u201c\u201d\u2018\u2019" "]+"  # and curly quotes
)
_ASCII_DIGITS = "0123456789"


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def _github(text: str) -> str:
    return _GITHUB_DROP.sub("", text.lower()).replace(" ", "-")


def _github_ascii(text: str) -> str:
    return _github(_ascii(text))


def _toc(text: str) -> str:
    return _TOC_JOIN.sub("-", _TOC_DROP.sub("", _ascii(text)).strip().lower())


def _vuepress(text: str) -> str:
    slug = text if text.isascii() else _COMBINING.sub("", unicodedata.normalize("NFKD", text))
    if not slug.isprintable():
        slug = _CONTROL.sub("", slug)
    slug = _VUEPRESS_SPECIAL.sub("-", slug).strip("-").lower()
    return f"_{slug}" if slug[:1] in _ASCII_DIGITS and slug else slug


def _kramdown(text: str) -> str:
    slug = _KRAMDOWN_DROP.sub("", _KRAMDOWN_LEAD.sub("", text)).replace(" ", "-").lower()
    return slug or "section"


SLUG_STYLES: tuple[tuple[str, Callable[[str], str], str], ...] = (
    ("github", _github, "-"),
    ("github-ascii", _github_ascii, "-"),
    ("toc", _toc, "_"),
    ("kramdown", _kramdown, "-"),
    ("vuepress", _vuepress, "-"),
)
"""Slug styles: (name, heading text -> id, separator before a repeat's number)."""


def heading_text(content: str) -> str:
    """The text of a Markdown heading as a generator renders it (see the module notes)."""
    text = _INLINE_LINK.sub(lambda m: m.group(1) or m.group(2) or "", content)
    text = _CODE_OR_TAG.sub(lambda m: m.group(2).strip() if m.group(1) else "", text)
    for _ in range(3):  # nested emphasis: ***x*** or _**x**_
        text = _EMPHASIS.sub(r"\2", text)
    return html.unescape(text).strip()


def heading_anchors(
    content: str, seen: dict[str, int], repeats: dict[tuple[str, str], int] | None = None
) -> Iterator[str]:
    """Yield the anchors of a Markdown heading whose inline source is ``content``.

    Args:
        content: the heading's text as written (inline markup included).
        seen: anchors already given in the document, per style -> count (updated), so a
            repeated heading gets its style's number (``-1``, ``_1`` ...).
        repeats: when given, a numbered anchor is not yielded but counted there:
            (slug, separator) -> the highest number given (see :class:`Anchors`).
    """
    listed = _EXPLICIT_ID.search(content) if "}" in content else None
    if listed is not None:
        yield listed.group(1)
        texts: tuple[str, ...] = (heading_text(content[: listed.start()]),)
    else:
        texts = (heading_text(content),)
        if "}" in content:
            listed = _TRAILING_ATTRIBUTES.search(content)
            if listed is not None:  # attr_list takes it off the heading; GitHub shows it
                texts = (*texts, heading_text(content[: listed.start()]))
    for name, slugify, separator in SLUG_STYLES:
        slugs = [slugify(texts[0])] if len(texts) == 1 else dict.fromkeys(map(slugify, texts))
        for slug in slugs:
            key = f"{name}\0{slug}"
            count = seen.get(key, 0)
            seen[key] = count + 1
            if count == 0:
                yield slug
            elif repeats is None:
                yield f"{slug}{separator}{count}"
            else:
                repeats[slug, separator] = max(count, repeats.get((slug, separator), 0))


class Anchors(AbstractSet[str]):
    """The anchors of a document, a set of names: those given, and the numbered repeats
    of heading slugs (``h-1`` ... ``h-n``) held as a count per (slug, separator), so a
    document of n equal headings holds one entry, not n names."""

    __slots__ = ("_lowered", "_names", "_repeats")

    def __init__(
        self, names: Iterable[str] = (), repeats: Mapping[tuple[str, str], int] | None = None
    ) -> None:
        """The set of ``names`` and of ``slug + separator + k`` for k from 1 to
        ``repeats[slug, separator]``."""
        self._names = frozenset(names)
        self._repeats = {key: n for key, n in (repeats or {}).items() if n > 0}
        self._lowered = False

    def __contains__(self, item: object) -> bool:
        """True for a name or a numbered repeat of the set."""
        if item in self._names:
            return True
        if not isinstance(item, str) or not self._repeats:
            return False
        for separator in ("-", "_"):
            slug, found, number = item.rpartition(separator)
            numbered = found and number.isascii() and number.isdigit() and number[0] != "0"
            if numbered and int(number) <= self._repeats.get((slug, separator), 0):
                return True
        return False

    def __iter__(self) -> Iterator[str]:
        """Every anchor once: the names, then the numbered repeats."""
        yield from self._names
        for (slug, separator), n in self._repeats.items():
            for k in range(1, n + 1):
                anchor = f"{slug}{separator}{k}"
                if anchor not in self._names:
                    yield anchor

    def __len__(self) -> int:
        """How many anchors (counting the repeats one by one)."""
        return sum(1 for _ in self)

    def lower(self) -> Anchors:
        """The same anchors in lower case (for comparing fragments case-insensitively)."""
        if self._lowered:
            return self
        lowered = Anchors(name.lower() for name in self._names)
        for (slug, separator), n in self._repeats.items():
            key = (slug.lower(), separator)
            lowered._repeats[key] = max(n, lowered._repeats.get(key, 0))
        lowered._lowered = True
        return lowered


def make_id(text: str) -> str:
    """Return the id docutils gives a title or label (``docutils.nodes.make_id``'s rules).

    Lower case, accents dropped, every run of other characters one ``-``, no leading
    digit or hyphen, no trailing hyphen.
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _NON_ID.sub("-", ascii_text.lower()).lstrip("-0123456789").rstrip("-")


def normalize_label(text: str) -> str:
    """Return a reference name as reST compares them: whitespace collapsed, lower case."""
    return " ".join(text.split()).lower()
