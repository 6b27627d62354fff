"""The library's entry points: text in, :class:`Url` records out.

Strategy: data flows one way, text chunks -> :class:`Scanner` -> :class:`Candidate` ->
:func:`rejoin` -> readings -> RFC 1738 validation (:func:`judge`) -> :class:`Url`. Each
text unit is scanned from a fresh start (one scanner, reset per unit: :func:`scan_reset`),
so a URL never spans two files, two MIME parts or two messages.
Everything is lazy: records are yielded as soon as the scanner decides them, so memory
stays bounded whatever the input size.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from typing import Protocol

from ._model import Candidate, Defect, MessageContext, Parts, Policy, TextUnit, Url
from ._record import maker, replace
from .errors import check_names
from .extraction.rejoin import rejoin_lines, single_reading_of
from .extraction.scanner import DEFAULT_MAX_URL_LENGTH, Scanner
from .validation.normalize import normalize
from .validation.rules import (
    CleanFields,
    chosen_fields,
    clean_fields,
    fields_of,
    validate_checks,
)
from .validation.schemes import SchemeRegistry, shared_default_registry

_READ_SIZE = 1 << 16


# Url(...) for the judge's loop: each record made without the call through the class.
_new_url = maker(Url)


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> str | bytes: ...


# Lone surrogates: bytes that were not valid UTF-8 in the input (surrogateescape).
_UNDECODED = re.compile("[\udc80-\udcff]")

DEFAULT_VALIDATION_CACHE_SIZE = 4096
"""Distinct readings whose validation a :class:`Judge` remembers (archives repeat URLs)."""


def _with_text_defects(
    url: str, defects: tuple[Defect, ...], valid: bool
) -> tuple[tuple[Defect, ...], bool]:
    """Put the input-text defects inside ``url`` before the validator's ``defects``."""
    text_defects = _text_defects(url)
    if not text_defects:
        return defects, valid
    valid = valid and not any(d.severity == "error" for d in text_defects)
    return (*text_defects, *defects), valid


def _text_defects(url: str) -> tuple[Defect, ...]:
    """Defects of the input text inside the URL (the validator judges the URL itself)."""
    m = _UNDECODED.search(url)
    if m is None:
        return ()
    return (
        Defect(
            "invalid-utf8",
            "the URL holds bytes that are not valid UTF-8 in the input",
            "warning",
            m.start(),
        ),
    )


# What a candidate's readings conclude, whatever text they came from (cached): the index
# of the reading chosen (0: the rejoiner's primary), that reading, its normal form (made
# here, so a repeated URL is normalized once), the other readings in the rejoiner's order,
# the chosen reading's scheme, its defects (the input-text defects inside it, then the
# validator's), whether none of those is an error, its fragment and its parts. A plain
# tuple: one is built per distinct URL, and a record class costs more than the rest of
# the step.
_Verdict = tuple[
    int,
    str,
    str,
    tuple[str, ...],
    str,
    tuple[Defect, ...],
    bool,
    str | None,
    Parts,
]


# A verdict's fields as a record takes them (the verdict less its index).
_Fields = tuple[str, str, tuple[str, ...], str, tuple[Defect, ...], bool, str | None, Parts]

# The fields of rejoined candidates by (body, its type, kind, quote prefix, terminated).
_JoinMemo = dict[tuple[str, type[str], str, str, bool], _Fields]
_MAX_JOINS = 1024  # most fields a judge's memo of rejoined candidates keeps (then cleared)


class Judge:
    """Rejoin and validate candidates, producing :class:`Url` records.

    When exactly one of a candidate's readings is valid RFC 1738, it becomes the primary
    ``url`` (e.g. a port broken as ``80-``/``80`` reads ``8080``); otherwise the
    rejoiner's primary reading (hyphen kept) stays first.

    Validation results are kept in a bounded cache keyed by the readings: a mailing-list
    archive repeats the same few hundred URLs thousands of times (list footers). A verdict
    enters the cache at its reading's second sighting (first sightings are remembered in
    a set of the same bound), so prose whose URLs are all distinct keeps no verdicts. When
    either is full it is emptied and fills again: the URLs that repeat are back after a
    few more sightings, and no bookkeeping is paid per URL (an LRU order costs more than
    it saves when most URLs are distinct).
    """

    def __init__(
        self,
        *,
        policy: Policy | None = None,
        registry: SchemeRegistry | None = None,
        cache_size: int = DEFAULT_VALIDATION_CACHE_SIZE,
    ) -> None:
        """Create a judge.

        Args:
            policy: validation strictness (default :class:`Policy`).
            registry: scheme validators (default: those of :func:`default_registry`, in one
                registry shared by every judge given none).
            cache_size: distinct readings remembered (0 disables the cache).
        """
        self._policy = policy if policy is not None else Policy()
        self._registry = registry if registry is not None else shared_default_registry()
        # Keyed by the reading itself for one-reading candidates (most), else by the
        # tuple of readings: a str never equals a tuple, so the two cannot collide.
        self._cache: dict[str | tuple[str, ...], _Verdict] = {}
        self._cache_size = cache_size
        # Readings seen once: a verdict is kept only from a reading's second sighting, so
        # text whose URLs are all distinct (prose) pays one set insertion per URL instead
        # of keeping thousands of verdicts alive for the garbage collector to walk.
        self._seen: set[str | tuple[str, ...]] = set()
        # The verdicts on the candidates rejoined last (see _joined), if caching.
        self._joins: _JoinMemo | None = {} if cache_size else None

    def _remember(self, key: str | tuple[str, ...], found: _Verdict) -> None:
        if not self._cache_size:
            return
        seen = self._seen
        if key in seen:
            if len(self._cache) >= self._cache_size:
                self._cache.clear()
            self._cache[key] = found
        else:
            if len(seen) >= self._cache_size:
                seen.clear()
            seen.add(key)

    def _one(self, url: str) -> _Verdict:
        """The verdict on a candidate with one reading (most)."""
        hit = self._cache.get(url)
        return hit if hit is not None else self._judge_one(url)

    def _judge_one(self, url: str) -> _Verdict:
        """:meth:`_one` for a reading not in the cache (remembered for next time)."""
        fields = clean_fields(url, self._registry, self._policy)
        if fields is None:
            found = self._verdict(
                0, (url,), fields_of(validate_checks(url, self._registry, self._policy))
            )
        else:  # the fast path decides ASCII URLs only: no undecoded bytes inside
            _, valid, scheme, defects, parts, fragment = fields
            found = (0, url, normalize(url), (), scheme, defects, valid, fragment, parts)
        self._remember(url, found)
        return found

    def _choose(self, texts: tuple[str, ...]) -> _Verdict:
        """The verdict on a candidate with several readings (a hyphen at a line break, a
        wrap).

        :func:`~urlsift.validation.rules.validate_readings`'s choice
        (:func:`~urlsift.validation.rules.primary_reading`), made on the fields of the
        readings' validations (:func:`~urlsift.validation.rules.chosen_fields`: no record
        is built per reading, and the others are not validated when the first is valid).
        """
        hit = self._cache.get(texts)
        if hit is not None:
            return hit
        index, chosen = chosen_fields(texts, self._registry, self._policy)
        found = self._verdict(index, texts, chosen)
        self._remember(texts, found)
        return found

    @staticmethod
    def _verdict(index: int, texts: tuple[str, ...], chosen: CleanFields) -> _Verdict:
        url = texts[index]
        _, valid, scheme, defects, parts, fragment = chosen
        if not url.isascii():
            defects, valid = _with_text_defects(url, defects, valid)
        alternatives = texts[:index] + texts[index + 1 :]
        return (index, url, normalize(url), alternatives, scheme, defects, valid, fragment, parts)

    def judge_all(
        self,
        candidates: Iterable[Candidate],
        *,
        source: str = "-",
        context: MessageContext | None = None,
        extra_defects: tuple[Defect, ...] = (),
    ) -> list[Url]:
        """Judge candidates in order (what :meth:`__call__` does for each, in one loop).

        The pipeline's loop: each candidate's fields are unpacked at once, and one with a
        single reading and no unit defects (most) takes its verdict from the cache or
        :meth:`_one` right here; only the others take the longer way
        (:meth:`_rejoined`). Judging a whole chunk's candidates in one call saves a
        keyword call per URL (a sixth of the judging time).

        Args:
            candidates: spans from :class:`Scanner`.
            source: path the text came from (``-`` for stdin or in-memory text).
            context: message context for text from mail or news archives.
            extra_defects: defects of the text unit to attach to every record.

        Returns:
            The finished records, in the order of the candidates.
        """
        out: list[Url] = []
        add = out.append
        new_url = _new_url
        cached = self._cache.get
        judge_one = self._judge_one
        one_reading = single_reading_of
        for candidate in candidates:
            kind, raw, body, start, end, line, column, end_line, _, terminated, truncated = (
                candidate
            )
            # single_reading's test; its commonest case (a bare URL on one line) without
            # the call.
            if kind == "bare" and "\n" not in body and not truncated:
                single: str | None = body
            else:
                single = one_reading(kind, body, terminated, truncated)
            if single is not None and not extra_defects:  # most URLs
                _, url, normalized, alternatives, scheme, defects, valid, fragment, parts = cached(
                    single
                ) or judge_one(single)
            else:
                url, normalized, alternatives, scheme, defects, valid, fragment, parts = (
                    self._rejoined(candidate, single, extra_defects)
                )
            # Positional, in the field order of Url (a third faster than keywords).
            add(
                new_url(
                    url,
                    normalized,
                    alternatives,
                    raw,
                    kind,
                    scheme,
                    start,
                    end,
                    line,
                    column,
                    end_line,
                    source,
                    defects,
                    valid,
                    fragment,
                    parts,
                    context,
                )
            )
        return out

    def _rejoined(
        self, candidate: Candidate, single: str | None, extra_defects: tuple[Defect, ...]
    ) -> _Fields:
        """The verdict's fields for a candidate off the shortest path: one that needs
        rejoining (its rejoin defects added), or any candidate with unit defects."""
        if single is not None:
            _, url, normalized, alternatives, scheme, defects, valid, fragment, parts = self._one(
                single
            )
        else:
            url, normalized, alternatives, scheme, defects, valid, fragment, parts = self._joined(
                candidate
            )
        if extra_defects:  # rare: most URLs carry only their own
            defects = (*extra_defects, *defects)
            valid = valid and not any(d.severity == "error" for d in extra_defects)
        return url, normalized, alternatives, scheme, defects, valid, fragment, parts

    def _joined(self, candidate: Candidate) -> _Fields:
        """:meth:`_rejoined` for a candidate that needs rejoining, without unit defects.

        The fields are a function of the candidate's kind, body (and its type: a possible
        wrap's), quote prefix and ends, and mail quotes the same wrapped URLs in reply
        after reply: they are kept from the first sighting (bounded; a cleared memo only
        costs judging again). A truncated candidate (rare, and long) is not kept.
        """
        memo = self._joins
        if memo is None or candidate.truncated:
            return self._join_now(candidate)
        body = candidate.body
        key = (body, type(body), candidate.kind, candidate.quote_prefix, candidate.terminated)
        known = memo.get(key)
        if known is None:
            known = self._join_now(candidate)
            if len(memo) >= _MAX_JOINS:
                memo.clear()
            memo[key] = known
        return known

    def _join_now(self, candidate: Candidate) -> _Fields:
        readings = rejoin_lines(candidate)  # rejoin() less its test
        index, url, normalized, alternatives, scheme, defects, valid, fragment, parts = (
            self._choose((readings.primary, *readings.alternatives))
            if readings.alternatives
            else self._one(readings.primary)
        )
        rejoin_defects = readings.defects
        if rejoin_defects:
            if index:
                # An alternative was promoted: its offsets, not the primary's.
                rejoin_defects = tuple(
                    d
                    if d.offset is None
                    else replace(d, offset=readings.offset_in(index, d.offset))
                    for d in rejoin_defects
                )
            defects = (*rejoin_defects, *defects)
            valid = valid and not any(d.severity == "error" for d in rejoin_defects)
        return url, normalized, alternatives, scheme, defects, valid, fragment, parts

    def __call__(
        self,
        candidate: Candidate,
        *,
        source: str = "-",
        context: MessageContext | None = None,
        extra_defects: tuple[Defect, ...] = (),
    ) -> Url:
        """Judge one candidate.

        Args:
            candidate: a span from :class:`Scanner`.
            source: path the text came from (``-`` for stdin or in-memory text).
            context: message context for text from mail or news archives.
            extra_defects: defects of the text unit to attach (e.g. a bad charset).

        Returns:
            The finished record.
        """
        (url,) = self.judge_all(
            (candidate,), source=source, context=context, extra_defects=extra_defects
        )
        return url


def judge(
    candidate: Candidate,
    *,
    source: str = "-",
    context: MessageContext | None = None,
    policy: Policy | None = None,
    extra_defects: tuple[Defect, ...] = (),
) -> Url:
    """Rejoin and validate one candidate (a one-off :class:`Judge`).

    Args:
        candidate: a span from :class:`Scanner`.
        source: path the text came from (``-`` for stdin or in-memory text).
        context: message context for text from mail or news archives.
        policy: validation strictness (default :class:`Policy`).
        extra_defects: defects of the text unit to attach (e.g. a bad charset).

    Returns:
        The finished record.
    """
    return Judge(policy=policy, cache_size=0)(
        candidate, source=source, context=context, extra_defects=extra_defects
    )


def scan_units(
    units: Iterable[TextUnit],
    *,
    schemes: Iterable[str] | None = None,
    policy: Policy | None = None,
    max_url_length: int = DEFAULT_MAX_URL_LENGTH,
) -> Iterator[Url]:
    """Scan text units (files, MIME parts) one after the other.

    Args:
        units: the units; each is scanned from a fresh start (:func:`scan_reset`).
        schemes: schemes recognised in bare URLs (default: RFC 1738's plus https).
        policy: validation strictness.
        max_url_length: cap on a bare URL's length.

    Returns:
        An iterator of :class:`Url` records in text order.

    Raises:
        ConfigError: a scheme name or limit is unusable (raised before any text is read).
    """
    scheme_list = None if schemes is None else check_names("schemes", schemes)
    Scanner(scheme_list, max_url_length=max_url_length)  # check the options up front
    return _scan_units(units, scheme_list, policy, max_url_length)


def _scan_units(
    units: Iterable[TextUnit],
    schemes: list[str] | None,
    policy: Policy | None,
    max_url_length: int,
) -> Iterator[Url]:
    decide = Judge(policy=policy)
    scanner = Scanner(schemes, max_url_length=max_url_length)
    for unit in units:
        yield from scan_reset(unit, scanner, decide, extra_defects=unit.defects)


def scan_reset(
    unit: TextUnit, scanner: Scanner, decide: Judge, *, extra_defects: tuple[Defect, ...] = ()
) -> Iterable[Url]:
    """:func:`scan_unit` with ``scanner`` (one used for unit after unit) reset first.

    A unit whose text is one piece is scanned whole in one call
    (:meth:`~urlsift.extraction.scanner.Scanner.scan_whole`: one in which neither trigger
    matches, most parts of a mail archive, builds no scanning state) and its candidates,
    if any, judged in one call (the scanner never reads the judge's state, so the records
    are those of scan_unit).
    """
    chunks = unit.chunks
    if type(chunks) is tuple and len(chunks) <= 1:
        if not chunks:
            return ()
        found = scanner.scan_whole(chunks[0], unit.origin)
        if not found:
            return ()
        return decide.judge_all(
            found, source=unit.source, context=unit.context, extra_defects=extra_defects
        )
    scanner.reset(unit.origin)
    return scan_unit(unit, scanner, decide, extra_defects=extra_defects)


def scan_unit(
    unit: TextUnit, scanner: Scanner, decide: Judge, *, extra_defects: tuple[Defect, ...] = ()
) -> Iterator[Url]:
    """Scan one text unit with a fresh scanner and judge every candidate.

    Args:
        unit: the text and its origin.
        scanner: a new :class:`Scanner` (closed at the end of the unit).
        decide: the rejoin-and-validate step, shared between units for its cache.
        extra_defects: defects to attach to every URL (e.g. the unit's own).

    Returns:
        An iterator of :class:`Url` records in text order.
    """
    source, context = unit.source, unit.context
    for chunk in unit.chunks:
        yield from decide.judge_all(
            scanner.feed(chunk), source=source, context=context, extra_defects=extra_defects
        )
    yield from decide.judge_all(
        scanner.close(), source=source, context=context, extra_defects=extra_defects
    )


def _read_chunks(stream: _Readable) -> Iterator[str | bytes]:
    while True:
        chunk = stream.read(_READ_SIZE)
        if not chunk:
            return
        yield chunk


def _text_chunks(chunks: Iterable[str | bytes]) -> Iterator[str]:
    # str chunks pass as they are; bytes chunks are decoded as the command line decodes a
    # plain-text file: UTF-8, a leading BOM dropped, undecodable bytes kept as lone
    # surrogates (surrogateescape), a character split between chunks joined. One input is
    # all text or all bytes; anything else is refused when it is met.
    decoder: codecs.IncrementalDecoder | None = None
    text_seen = False
    for chunk in chunks:
        if isinstance(chunk, str):
            if decoder is not None:
                raise TypeError("iter_urls(): a str chunk among bytes chunks")
            text_seen = True
            yield chunk
        elif isinstance(chunk, bytes | bytearray | memoryview):
            if text_seen:
                raise TypeError("iter_urls(): a bytes chunk among str chunks")
            if decoder is None:
                decoder = codecs.getincrementaldecoder("utf-8-sig")(errors="surrogateescape")
            if text := decoder.decode(chunk):
                yield text
        else:
            raise TypeError(f"iter_urls(): chunks must be str or bytes, not {type(chunk).__name__}")
    if decoder is not None and (tail := decoder.decode(b"", final=True)):
        yield tail


def iter_urls(
    chunks: Iterable[str] | _Readable,
    *,
    source: str = "-",
    schemes: Iterable[str] | None = None,
    policy: Policy | None = None,
) -> Iterator[Url]:
    """Find URLs in text given as chunks or as a stream, lazily.

    Binary input (``open(path, "rb")``, ``io.BytesIO``, ``bytes`` chunks) is decoded as
    ``urlsift scan`` decodes a plain-text file: UTF-8 (a leading BOM dropped), bytes that
    are not valid UTF-8 kept as lone surrogates (``surrogateescape``), so nothing is lost
    and nothing raises.

    Args:
        chunks: an iterable of ``str`` or of ``bytes`` chunks (any sizes), or a text or
            binary stream with ``read``.
        source: the name reported in each record's ``source`` field.
        schemes: schemes recognised in bare URLs.
        policy: validation strictness.

    Returns:
        An iterator of :class:`Url` records in text order.

    Raises:
        ConfigError: a scheme name is unusable.
        TypeError: ``chunks`` is a ``str`` or ``bytes`` (pass ``[text]`` or use
            :func:`extract`); raised as the chunks are read: a chunk that is neither
            ``str`` nor ``bytes``, or ``str`` and ``bytes`` chunks mixed.
    """
    if isinstance(chunks, (str, bytes)):
        raise TypeError("iter_urls() takes an iterable of chunks or a stream; use extract(text)")
    raw: Iterable[str | bytes] = (
        _read_chunks(chunks) if hasattr(chunks, "read") else chunks  # type: ignore[arg-type]
    )
    parts = _text_chunks(raw)
    return scan_units([TextUnit(source=source, chunks=parts)], schemes=schemes, policy=policy)


def extract(
    text: str,
    *,
    source: str = "-",
    schemes: Iterable[str] | None = None,
    policy: Policy | None = None,
) -> list[Url]:
    """Find every URL in a text.

    Args:
        text: the whole text.
        source: the name reported in each record's ``source`` field.
        schemes: schemes recognised in bare URLs (default: RFC 1738's plus https).
        policy: validation strictness.

    Returns:
        The URLs found, in text order.

    Raises:
        ConfigError: a scheme name is unusable, or ``schemes`` is one string (write
            ``["http"]``, not ``"http"``).
        TypeError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"extract() takes str, not {type(text).__name__}")
    # scan_unit's steps without its generators: the whole text is at hand.
    scanner = Scanner(None if schemes is None else check_names("schemes", schemes))
    decide = Judge(policy=policy)
    return decide.judge_all(scanner.feed(text) + scanner.close(), source=source)
