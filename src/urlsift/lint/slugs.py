"""Anchor names: what Markdown headings and reST titles and labels are called (pure functions).

A Markdown heading's anchor depends on the tool that renders it; a linter that accepts
only one would report working links, so :func:`heading_anchors` gives every anchor the
common renderers make: GitHub's (lower case, punctuation other than ``-`` and ``_``
dropped, each space a ``-``, duplicates numbered ``-1``, ``-2`` ...), MkDocs' (Python
Markdown's ``toc`` extension: accents dropped, runs of spaces and hyphens one ``-``) and an
explicit ``{#id}`` (``attr_list``). reST titles and labels get docutils' ids
(:func:`make_id`); ``:ref:`` compares reference names normalised (:func:`normalize_label`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

_EXPLICIT_ID = re.compile(r"\s*\{[^{}]*#([\w.:-]+)[^{}]*\}\s*\Z")
_INLINE_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)|!?\[([^\]]*)\]\[[^\]]*\]")
_HTML_TAG = re.compile(r"<[^<>]*>")
_GITHUB_DROP = re.compile(r"[^\w\- ]")
_MKDOCS_DROP = re.compile(r"[^\w\s-]")
_MKDOCS_JOIN = re.compile(r"[-\s]+")
_NON_ID = re.compile(r"[^a-z0-9]+")


def heading_anchors(content: str, seen: dict[str, int]) -> Iterator[str]:
    """Yield the anchors of a Markdown heading whose inline source is ``content``.

    Args:
        content: the heading's text as written (inline markup included).
        seen: GitHub anchors already given in the document -> count (updated), so a
            repeated heading gets ``-1``, ``-2`` ...
    """
    explicit = _EXPLICIT_ID.search(content)
    if explicit is not None:
        yield explicit.group(1)
        content = content[: explicit.start()]
    text = _INLINE_LINK.sub(lambda m: m.group(1) or m.group(2) or "", content)
    text = _HTML_TAG.sub("", text).replace("`", "").strip()
    github = _GITHUB_DROP.sub("", text.lower()).replace(" ", "-")
    count = seen.get(github, 0)
    seen[github] = count + 1
    yield github if count == 0 else f"{github}-{count}"
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    mkdocs = _MKDOCS_JOIN.sub("-", _MKDOCS_DROP.sub("", folded).strip().lower())
    yield mkdocs if count == 0 else f"{mkdocs}_{count}"


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
