"""Aggregate scan records into the figures of ``urlsift report``, in bounded memory.

Promise: every figure of the report is a count of records, defined here and nowhere else,
so a reader can recount it from ``urlsift scan --format jsonl`` output:

* a URL record (a JSONL line without a ``record`` key, or a :class:`~urlsift.Url`) counts
  once in the totals, once in its month, scheme and folded host, once for each distinct
  defect code it carries, and once as invalid when ``valid`` is false;
* its *month* is the year and month of its message's ``Date`` header as written (the
  sender's local date, not converted to UTC); records without a date, or whose date does
  not parse, are *undated*;
* its *host* is ``parts.host`` lower-cased, with one leading ``www.`` removed; URLs
  without a host part (``mailto:``, ``news:`` ...) are counted as host-less;
* a message (or a plain-text file) is a run of consecutive records with the same
  ``source`` and ``message`` (scan writes a message's records together, with or without
  ``--jobs``); its *URL defects* are the defects of its URL records, its *message
  defects* those of its ``{"record": "defects"}`` record.

Memory grows with distinct months, schemes, defect codes, hosts and (host, month) pairs,
never with the number of records: the messages with most defects are kept in a heap of
fixed size. This module does no I/O and imports only the standard library and the record
types, so it runs anywhere the scanner does.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

from .._model import Defect, MessageContext, Url
from ..errors import check_limit
from ..output.summary import fold_host

DEFAULT_TOP_HOSTS = 10
"""Hosts shown in the hosts-over-time view."""
DEFAULT_TOP_MESSAGES = 15
"""Messages shown in the most-defects table."""
YEARLY_AFTER_MONTHS = 24
"""Hosts over time are counted per year when the dated records span more months."""
MAX_FILLED_MONTHS = 1200
"""Empty months between the first and last dated record are listed (as zeros) up to this
span; a longer one (a forged or mistyped ``Date`` in year 100 or 9999) lists only the
months that have records, so the page stays small whatever the dates say."""
MAX_MONTHS = 1200
"""Months listed at most: past it (dates forged in every month of centuries), the months
with most URL records are listed and the rest are counted together
(:attr:`ReportData.other_months`), as the hosts beyond the top ones are."""
DEFAULT_TOP_SCHEMES = 20
"""Schemes listed; the others are counted together (:attr:`ReportData.other_schemes`)."""


@dataclass(frozen=True, slots=True)
class MessageRef:
    """Which message (or plain-text file) a record came from."""

    source: str
    """The ``source`` field: the archive's path."""
    number: int | None
    """The ``message`` field (1-based), or None for plain text."""
    message_id: str | None = None
    """The ``message_id`` field."""
    date: str | None = None
    """The ``date`` field (the ``Date`` header as written)."""
    subject: str | None = None
    """The ``subject`` field."""


@dataclass(frozen=True, slots=True)
class UrlFacts:
    """What the report counts of one URL record."""

    ref: MessageRef
    """The message it was found in."""
    scheme: str
    """The ``scheme`` field."""
    host: str | None
    """The ``parts.host`` field, as recorded (folded later), or None."""
    valid: bool
    """The ``valid`` field."""
    defects: tuple[tuple[str, str], ...]
    """``(code, severity)`` of each entry of the ``defects`` field."""


@dataclass(frozen=True, slots=True)
class MessageFacts:
    """What the report counts of one ``{"record": "defects"}`` record."""

    ref: MessageRef
    """The message the problems were found in."""
    codes: tuple[str, ...]
    """The ``code`` of each defect."""


Facts = UrlFacts | MessageFacts
"""One record, reduced to what the report counts."""


class RecordError(ValueError):
    """A JSON object is not a record ``urlsift scan --format jsonl`` writes."""


def _ref(source: str, context: MessageContext | None) -> MessageRef:
    if context is None:
        return MessageRef(source, None)
    return MessageRef(source, context.message, context.message_id, context.date, context.subject)


def _defect_pairs(defects: tuple[Defect, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((d.code, d.severity) for d in defects)


def facts_from_url(url: Url) -> UrlFacts:
    """Reduce a :class:`~urlsift.Url` from the runner to :class:`UrlFacts`."""
    host = url.parts.get("host")
    return UrlFacts(
        _ref(url.source, url.context), url.scheme, host, url.valid, _defect_pairs(url.defects)
    )


def facts_from_defects(
    source: str, context: MessageContext | None, defects: tuple[Defect, ...]
) -> MessageFacts:
    """Reduce a message's defect record (the runner's ``UnitDefects``) to :class:`MessageFacts`."""
    return MessageFacts(_ref(source, context), tuple(d.code for d in defects))


def _opt_str(record: Mapping[str, object], key: str) -> str | None:
    value = record.get(key)
    return value if isinstance(value, str) else None


def _record_ref(record: Mapping[str, object]) -> MessageRef:
    source = record.get("source")
    number = record.get("message")
    if not isinstance(source, str):
        raise RecordError("no string 'source' field")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        raise RecordError("'message' is not a number")
    return MessageRef(
        source,
        number,
        _opt_str(record, "message_id"),
        _opt_str(record, "date"),
        _opt_str(record, "subject"),
    )


def _record_defects(record: Mapping[str, object]) -> list[Mapping[str, object]]:
    defects = record.get("defects", [])
    if not isinstance(defects, list) or not all(
        isinstance(d, dict) and isinstance(d.get("code"), str) for d in defects
    ):
        raise RecordError("'defects' is not a list of defects with a code")
    return defects


def facts_from_record(record: Mapping[str, object]) -> Facts:
    """Reduce one decoded JSONL record of ``urlsift scan --format jsonl`` to facts.

    Raises:
        RecordError: the object is not a URL or defects record (e.g. a ``--count`` row).
    """
    kind = record.get("record")
    if kind == "defects":
        codes = tuple(str(d["code"]) for d in _record_defects(record))
        return MessageFacts(_record_ref(record), codes)
    if kind is not None:
        raise RecordError(f"unknown record kind {kind!r}")
    scheme, valid = record.get("scheme"), record.get("valid")
    if not isinstance(scheme, str) or not isinstance(valid, bool):
        raise RecordError("not a URL record (no 'scheme' and 'valid' fields)")
    parts = record.get("parts")
    host = parts.get("host") if isinstance(parts, dict) else None
    defects = tuple(
        (str(d["code"]), str(d.get("severity", "error"))) for d in _record_defects(record)
    )
    return UrlFacts(
        _record_ref(record), scheme, host if isinstance(host, str) else None, valid, defects
    )


def month_of(date: str | None) -> str | None:
    """``YYYY-MM`` of an RFC 5322 date as written (its own time zone), or None."""
    if not date:
        return None
    try:
        parsed = parsedate_to_datetime(date)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if parsed is None:  # some Python versions return None instead of raising
        return None
    return f"{parsed.year:04d}-{parsed.month:02d}"


@dataclass(frozen=True, slots=True)
class MonthRow:
    """URL records in one month."""

    month: str
    """``YYYY-MM``."""
    urls: int
    """URL records whose message is dated in this month."""
    invalid: int
    """Those of them with ``valid`` false."""


@dataclass(frozen=True, slots=True)
class DefectRow:
    """URL records carrying one defect code."""

    code: str
    """The defect code."""
    severities: tuple[str, ...]
    """The severities it was reported with (sorted)."""
    urls: int
    """URL records with at least one defect of this code."""


@dataclass(frozen=True, slots=True)
class HostRow:
    """One of the top hosts, with its URL records per period."""

    host: str
    """The folded host."""
    total: int
    """All its URL records (dated or not)."""
    per_period: tuple[int, ...]
    """Its dated URL records in each of :attr:`ReportData.periods`."""


@dataclass(frozen=True, slots=True)
class MessageRow:
    """A message among those with most defects."""

    ref: MessageRef
    """Which message."""
    urls: int
    """Its URL records."""
    invalid: int
    """Those with ``valid`` false."""
    url_defects: int
    """Defects on its URL records (every entry of their ``defects`` lists)."""
    message_defects: int
    """Defects of its ``{"record": "defects"}`` record."""

    @property
    def defects(self) -> int:
        """All its defects: URL and message defects."""
        return self.url_defects + self.message_defects


@dataclass(frozen=True, slots=True)
class ReportData:
    """Every figure of the report (see the module notes for how each is counted)."""

    sources: tuple[str, ...]
    """Distinct ``source`` fields, in order of appearance."""
    urls: int
    """URL records."""
    invalid: int
    """URL records with ``valid`` false."""
    messages: int
    """Messages (or plain-text files) with at least one record."""
    months: tuple[MonthRow, ...]
    """Every month from the first to the last dated record (empty months as zeros; see
    :data:`MAX_FILLED_MONTHS`)."""
    undated: int
    """URL records without a parsable date."""
    schemes: tuple[tuple[str, int], ...]
    """URL records per scheme, most first: the top ones (``top_schemes``)."""
    defects: tuple[DefectRow, ...]
    """URL records per defect code, most first."""
    message_defects: tuple[tuple[str, int], ...]
    """Defect records' defects per code, most first."""
    periods: tuple[str, ...]
    """Columns of the hosts-over-time view: months, or years (``YYYY``) for long spans."""
    hosts: tuple[HostRow, ...]
    """The hosts with most URL records, most first."""
    distinct_hosts: int
    """Distinct folded hosts."""
    hostless: int
    """URL records without a host part."""
    top_messages: tuple[MessageRow, ...]
    """The messages with most defects (at least one), most first, then in input order."""
    distinct_schemes: int = 0
    """Distinct schemes (listed in :attr:`schemes` or not)."""
    other_schemes: int = 0
    """URL records whose scheme is not among those listed."""
    distinct_months: int = 0
    """Distinct months with dated URL records (listed in :attr:`months` or not)."""
    other_months: int = 0
    """Dated URL records whose month is not listed (past :data:`MAX_MONTHS`)."""


def _span(first: str, last: str) -> int:
    # Months from first to last, both counted.
    return (int(last[:4]) - int(first[:4])) * 12 + int(last[5:]) - int(first[5:]) + 1


def _month_range(first: str, last: str) -> list[str]:
    # Every month from first to last.
    year, month = int(first[:4]), int(first[5:])
    out: list[str] = []
    while f"{year:04d}-{month:02d}" <= last:
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


class _Run:
    """Counts of the message whose records are streaming past."""

    __slots__ = ("invalid", "message_defects", "ref", "url_defects", "urls")

    def __init__(self, ref: MessageRef) -> None:
        self.ref = ref
        self.urls = self.invalid = self.url_defects = self.message_defects = 0

    def row(self) -> MessageRow:
        return MessageRow(self.ref, self.urls, self.invalid, self.url_defects, self.message_defects)


class Aggregator:
    """Counts records as they stream past; :meth:`result` gives the figures."""

    def __init__(
        self,
        *,
        top_hosts: int = DEFAULT_TOP_HOSTS,
        top_messages: int = DEFAULT_TOP_MESSAGES,
        top_schemes: int = DEFAULT_TOP_SCHEMES,
        max_months: int = MAX_MONTHS,
    ) -> None:
        self._top_hosts = check_limit("top_hosts", top_hosts, least=0)
        self._top_messages = check_limit("top_messages", top_messages, least=0)
        self._top_schemes = check_limit("top_schemes", top_schemes, least=0)
        self._max_months = check_limit("max_months", max_months)
        self._sources: dict[str, None] = {}
        self._urls = self._invalid = self._undated = self._hostless = self._messages = 0
        self._months: Counter[str] = Counter()
        self._invalid_months: Counter[str] = Counter()
        self._schemes: Counter[str] = Counter()
        self._defects: Counter[str] = Counter()
        self._severities: dict[str, set[str]] = {}
        self._message_defects: Counter[str] = Counter()
        self._hosts: Counter[str] = Counter()
        self._host_months: Counter[tuple[str, str]] = Counter()
        # (defects, -sequence, sequence, row): a min-heap of the best rows so far; the
        # sequence breaks ties in input order and keeps rows from being compared.
        self._heap: list[tuple[int, int, int, MessageRow]] = []
        self._run: _Run | None = None
        self._sequence = 0
        self._date: tuple[str | None, str | None] = (None, None)  # last date -> month

    def _message(self, ref: MessageRef) -> _Run:
        run = self._run
        if run is not None and run.ref.source == ref.source and run.ref.number == ref.number:
            return run
        self._close_run()
        self._messages += 1
        self._sources.setdefault(ref.source, None)
        self._run = run = _Run(ref)
        return run

    def _close_run(self) -> None:
        run, self._run = self._run, None
        if run is None or not (run.url_defects or run.message_defects) or not self._top_messages:
            return
        self._sequence += 1
        entry = (run.url_defects + run.message_defects, -self._sequence, self._sequence, run.row())
        if len(self._heap) < self._top_messages:
            heapq.heappush(self._heap, entry)
        elif entry[:2] > self._heap[0][:2]:
            heapq.heapreplace(self._heap, entry)

    def _month(self, date: str | None) -> str | None:
        if date != self._date[0]:  # a message's URLs share its date: parse it once
            self._date = (date, month_of(date))
        return self._date[1]

    def add(self, facts: Facts) -> None:
        """Count one record."""
        run = self._message(facts.ref)
        if isinstance(facts, MessageFacts):
            run.message_defects += len(facts.codes)
            self._message_defects.update(facts.codes)
            return
        self._urls += 1
        run.urls += 1
        run.url_defects += len(facts.defects)
        self._schemes[facts.scheme] += 1
        month = self._month(facts.ref.date)
        if month is None:
            self._undated += 1
        else:
            self._months[month] += 1
        if not facts.valid:
            self._invalid += 1
            run.invalid += 1
            if month is not None:
                self._invalid_months[month] += 1
        for code, severity in facts.defects:
            self._severities.setdefault(code, set()).add(severity)
        self._defects.update({code for code, _ in facts.defects})
        if facts.host is None:
            self._hostless += 1
        else:
            host = fold_host(facts.host)
            self._hosts[host] += 1
            if month is not None:
                self._host_months[host, month] += 1

    def add_all(self, records: Iterable[Facts]) -> Aggregator:
        """Count every record of ``records``; return self."""
        for facts in records:
            self.add(facts)
        return self

    def result(self) -> ReportData:
        """The figures of every record added so far (ends the current message)."""
        self._close_run()
        months = sorted(_top(self._months, self._max_months))
        if months and _span(months[0], months[-1]) <= min(MAX_FILLED_MONTHS, self._max_months):
            months = _month_range(months[0], months[-1])
        yearly = bool(months) and _span(months[0], months[-1]) > YEARLY_AFTER_MONTHS
        periods = sorted({m[:4] for m in months}) if yearly else months
        top = sorted(self._hosts.items(), key=lambda item: (-item[1], item[0]))
        hosts = []
        for host, total in top[: self._top_hosts]:
            per: Counter[str] = Counter()
            for month in months:
                per[month[:4] if yearly else month] += self._host_months.get((host, month), 0)
            hosts.append(HostRow(host, total, tuple(per[p] for p in periods)))
        best = sorted(self._heap, key=lambda entry: (-entry[0], entry[2]))
        schemes = _most_first(self._schemes)[: self._top_schemes]
        return ReportData(
            sources=tuple(self._sources),
            urls=self._urls,
            invalid=self._invalid,
            messages=self._messages,
            months=tuple(MonthRow(m, self._months[m], self._invalid_months[m]) for m in months),
            undated=self._undated,
            schemes=schemes,
            defects=tuple(
                DefectRow(code, tuple(sorted(self._severities[code])), count)
                for code, count in _most_first(self._defects)
            ),
            message_defects=_most_first(self._message_defects),
            periods=tuple(periods),
            hosts=tuple(hosts),
            distinct_hosts=len(self._hosts),
            hostless=self._hostless,
            top_messages=tuple(entry[3] for entry in best),
            distinct_schemes=len(self._schemes),
            other_schemes=self._urls - sum(n for _, n in schemes),
            distinct_months=len(self._months),
            other_months=sum(self._months.values()) - sum(self._months[m] for m in months),
        )


def _most_first(counter: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(counter.items(), key=lambda item: (-item[1], item[0])))


def _top(counter: Counter[str], most: int) -> list[str]:
    # The keys with the largest counts (ties: the smaller key), at most ``most`` of them;
    # all of them when they are that few. Linear in the keys (heapq.nsmallest).
    if len(counter) <= most:
        return list(counter)
    return [key for key, _ in heapq.nsmallest(most, counter.items(), key=lambda i: (-i[1], i[0]))]
