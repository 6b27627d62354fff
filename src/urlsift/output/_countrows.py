"""The rows of ``--count``: :class:`UrlCount` and :class:`HostCount`.

Kept apart from the counters of :mod:`urlsift.output.summary`, which every scan imports
for its summary line, so that a scan without ``--count`` does not make these records'
classes (a dataclass costs about half a millisecond to create). They are read as
``urlsift.output.summary.UrlCount`` and ``HostCount`` too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(slots=True)
class UrlCount:
    """Occurrences of one URL, all its equivalent spellings together."""

    url: str
    """The spelling seen first."""
    normalized: str
    """The normal form the spellings share."""
    count: int = 0
    first_date: str | None = None
    last_date: str | None = None
    _first: datetime | None = None
    _last: datetime | None = None
    _variants: dict[str, None] = field(default_factory=dict)

    @property
    def variants(self) -> list[str]:
        """The other spellings seen, in order of first occurrence."""
        return list(self._variants)

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready mapping."""
        return {
            "url": self.url,
            "count": self.count,
            "first_date": self.first_date,
            "last_date": self.last_date,
            "normalized": self.normalized,
            "variants": self.variants,
        }


@dataclass(slots=True)
class HostCount:
    """Occurrences of the URLs of one host (``--count host``)."""

    host: str
    """The host, folded (lower case, no leading ``www.``)."""
    count: int = 0
    """URLs found on this host, every occurrence counted."""
    first_date: str | None = None
    """The earliest message date a URL of the host was seen on, as written."""
    last_date: str | None = None
    """The latest message date, as written."""
    _first: datetime | None = None
    _last: datetime | None = None
    _urls: set[str] = field(default_factory=set)

    @property
    def urls(self) -> int:
        """Distinct URLs (by normal form) found on this host."""
        return len(self._urls)

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready mapping."""
        return {
            "host": self.host,
            "count": self.count,
            "first_date": self.first_date,
            "last_date": self.last_date,
            "urls": self.urls,
        }
