"""``--count``: how often each URL occurs, and the first and last date it was seen.

Strategy: one small record per distinct URL (memory grows with distinct URLs, not with
occurrences). URLs are the same when their normal forms are (:attr:`Url.normalized`:
``HTTP://Host`` is ``http://host/``); a row shows the spelling seen first and lists the
others as its variants. Dates come from the messages' ``Date`` headers; they are compared as
instants (RFC 5322 dates parsed by :func:`email.utils.parsedate_to_datetime`, naive ones
taken as UTC), and reported as written. Dates that do not parse are not compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

from ._model import Url


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


def _instant(date: str) -> datetime | None:
    try:
        parsed = parsedate_to_datetime(date)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if parsed is None:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


class UrlCounts:
    """Counts URLs as they stream past; :meth:`rows` gives the table."""

    def __init__(self) -> None:
        self._rows: dict[str, UrlCount] = {}

    def add(self, url: Url) -> None:
        """Count one occurrence (under its normal form)."""
        row = self._rows.get(url.normalized)
        if row is None:
            row = self._rows[url.normalized] = UrlCount(url.url, url.normalized)
        elif url.url != row.url:
            row._variants[url.url] = None
        row.count += 1
        date = url.context.date if url.context else None
        if not date:
            return
        instant = _instant(date)
        if instant is None:
            return
        if row._first is None or instant < row._first:
            row._first, row.first_date = instant, date
        if row._last is None or instant > row._last:
            row._last, row.last_date = instant, date

    def rows(self) -> list[UrlCount]:
        """Return the rows, most frequent first (ties in order of first occurrence)."""
        return sorted(self._rows.values(), key=lambda row: -row.count)
