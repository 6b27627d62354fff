"""``--count``: how often each URL (or host) occurs, and the first and last date it was seen.

Strategy: one small record per distinct URL (memory grows with distinct URLs, not with
occurrences). URLs are the same when their normal forms are (:attr:`Url.normalized`:
``HTTP://Host`` is ``http://host/``); a row shows the spelling seen first and lists the
others as its variants. Dates come from the messages' ``Date`` headers; they are compared as
instants (RFC 5322 dates parsed by :func:`email.utils.parsedate_to_datetime`, naive ones
taken as UTC), and reported as written. Dates that do not parse are not compared.

``--count host`` counts by host instead (:func:`host_of`): host names folded to lower case
with a leading ``www.`` dropped (as ``urlsift report`` groups them), the domain of a
``mailto`` address counting as its host; URLs with no host (``news:``, ``file:///``) are
left out of that table.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING

from .._model import UnitDefects, Url
from .._record import field, record
from ..sources.reading import plural as plural

if TYPE_CHECKING:  # the rows' classes are made by the first counter (see _countrows)
    from ._countrows import HostCount as HostCount
    from ._countrows import UrlCount as UrlCount


def __getattr__(name: str) -> object:
    # UrlCount and HostCount, read here as before, from the module that defines them.
    if name in ("UrlCount", "HostCount"):
        from . import _countrows

        return getattr(_countrows, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _instant(date: str) -> datetime | None:
    # Imported on the first date: email.utils (with socket and random) is a tenth of a
    # text scan's start-up, and only a summary of dated records needs it.
    from email.utils import parsedate_to_datetime

    try:
        parsed = parsedate_to_datetime(date)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if parsed is None:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def _see_date(row: UrlCount | HostCount, url: Url) -> None:
    # Widen the row's first..last dates to the date of url's message, if it parses.
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


class UrlCounts:
    """Counts URLs as they stream past; :meth:`rows` gives the table."""

    def __init__(self) -> None:
        from ._countrows import UrlCount

        self._row = UrlCount
        self._rows: dict[str, UrlCount] = {}

    def add(self, url: Url) -> None:
        """Count one occurrence (under its normal form)."""
        row = self._rows.get(url.normalized)
        if row is None:
            row = self._rows[url.normalized] = self._row(url.url, url.normalized)
        elif url.url != row.url:
            row._variants[url.url] = None
        row.count += 1
        _see_date(row, url)

    def rows(self) -> list[UrlCount]:
        """Return the rows, most frequent first (ties in order of first occurrence)."""
        return sorted(self._rows.values(), key=lambda row: -row.count)


def host_of(url: Url) -> str | None:
    """The host ``url`` links to, as written (not folded).

    The validator's ``host`` part when there is one; else the domain of a ``mailto``
    address, or the host of a ``scheme://host`` URL that did not validate. None when the
    URL names no host (``news:group``, ``file:///path``).
    """
    parts = url.parts
    host = parts.get("host")
    if host is None:
        address = parts.get("address")
        if address is not None:
            host = address.rpartition("@")[2] if "@" in address else None
        elif not parts and "://" in url.url:
            netloc = url.url.split("://", 1)[1].split("/", 1)[0]
            host = netloc.rpartition("@")[2].split(":", 1)[0]
    return host or None


class HostCounts:
    """Counts URLs by host as they stream past; :meth:`rows` gives the table."""

    def __init__(self) -> None:
        from ._countrows import HostCount

        # Hosts fold as the report folds them (imported here: only --count host needs it).
        self._fold = fold_host
        self._row = HostCount
        self._rows: dict[str, HostCount] = {}

    def add(self, url: Url) -> None:
        """Count one occurrence under its host (URLs with no host are not counted)."""
        raw = host_of(url)
        if raw is None:
            return
        host = self._fold(raw)
        row = self._rows.get(host)
        if row is None:
            row = self._rows[host] = self._row(host)
        row.count += 1
        row._urls.add(url.normalized)
        _see_date(row, url)

    def rows(self) -> list[HostCount]:
        """Return the rows, most frequent first (ties in order of first occurrence)."""
        return sorted(self._rows.values(), key=lambda row: -row.count)


def fold_host(host: str) -> str:
    """The host as the report (and ``scan --count host``) groups it: lower case, one
    leading ``www.`` removed."""
    folded = host.lower()
    if folded.startswith("www.") and len(folded) > 4:
        folded = folded[4:]
    return folded


@record(frozen=False)
class RunTally:
    """What a scan found, for the line it ends with on stderr (``urlsift scan``'s summary).

    Counts URLs by outcome and the source defects (those of :class:`UnitDefects` records:
    charset, MIME, truncation) by code, so that a run's stderr can say "172 defects:
    charset-mismatch 120, ..." in one line instead of one line per defect.
    """

    urls: int = 0
    """URL records seen (before ``--invalid-only``, ``--unique`` or ``--count``)."""
    invalid: int = 0
    """Of those, the URLs that break RFC 1738 (``valid`` false)."""
    defects: dict[str, int] = field(default_factory=dict)
    """Source defects by code, in order of first appearance."""
    unreadable: int = 0
    """Paths that could not be read at all."""

    def add_url(self, url: Url) -> None:
        self.urls += 1
        self.invalid += not url.valid

    def add_defects(self, record: UnitDefects) -> None:
        for defect in record.defects:
            self.defects[defect.code] = self.defects.get(defect.code, 0) + 1

    def outcome(self, files: int) -> str:
        """``30 URLs (2 invalid) from 1 file`` (and how many paths could not be read)."""
        text = f"{plural(self.urls, 'URL')} ({self.invalid} invalid)"
        text += f" from {plural(files, 'file')}"
        if self.unreadable:
            text += f", {plural(self.unreadable, 'path')} unreadable"
        return text

    def defect_groups(self, hint: str) -> str | None:
        """``172 defects: charset-mismatch 120, mime-...; <hint>``, or None when none."""
        if not self.defects:
            return None
        total = sum(self.defects.values())
        ranked = sorted(self.defects.items(), key=lambda item: (-item[1], item[0]))
        groups = ", ".join(f"{code} {count}" for code, count in ranked)
        return f"{plural(total, 'defect')}: {groups}; {hint}"
