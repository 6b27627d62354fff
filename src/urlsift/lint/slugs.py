"""Link targets without a scheme, and the anchors Markdown headings get (pure functions).

A Markdown heading's anchor depends on the tool that renders it; a linter that accepts
only one would report working links, so :func:`heading_anchors` gives every anchor the
common renderers make: GitHub's (lower case, punctuation other than ``-`` and ``_``
dropped, each space a ``-``, duplicates numbered ``-1``, ``-2`` ...), MkDocs' (Python
Markdown's ``toc`` extension: accents dropped, runs of spaces and hyphens one ``-``) and an
explicit ``{#id}`` (``attr_list``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

# RFC 3986 §3.1 scheme, then ':' ("mailto:", "javascript:", "c:" is a scheme too).
_HAS_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{0,31}:")
_EXPLICIT_ID = re.compile(r"\s*\{[^{}]*#([\w.:-]+)[^{}]*\}\s*\Z")
_INLINE_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)|!?\[([^\]]*)\]\[[^\]]*\]")
_HTML_TAG = re.compile(r"<[^<>]*>")
_GITHUB_DROP = re.compile(r"[^\w\- ]")
_MKDOCS_DROP = re.compile(r"[^\w\s-]")
_MKDOCS_JOIN = re.compile(r"[-\s]+")


def is_relative(target: str) -> bool:
    """True when a link target is a relative reference (a path or ``#fragment``).

    Targets with a scheme (``mailto:``, ``javascript:``), network-path references
    (``//host/``) and empty targets are not.
    """
    return bool(target) and not target.startswith("//") and not _HAS_SCHEME.match(target)


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
