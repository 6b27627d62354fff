"""The library's entry points: text in, :class:`Url` records out.

Strategy: data flows one way, text chunks -> :class:`Scanner` -> :class:`Candidate` ->
:func:`rejoin` -> readings -> :func:`judge` -> :class:`Url`. One scanner per text unit, so a
URL never spans two files, two MIME parts or two messages. Everything is lazy: records are
yielded as soon as the scanner decides them, so memory stays bounded whatever the input size.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from ._context import LEADING_SCHEME_RE
from ._model import Candidate, Defect, MessageContext, Policy, TextUnit, Url
from .rejoin import rejoin
from .scanner import DEFAULT_MAX_URL_LENGTH, Scanner

_READ_SIZE = 1 << 16


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> str: ...


def _basic_check(url: str, scheme: str) -> list[Defect]:
    """Generic ``scheme ":" schemepart`` check (RFC 1738 §2.1), used for every URL."""
    found: list[Defect] = []
    if not scheme:
        found.append(
            Defect(
                "missing-scheme",
                'url = scheme ":" schemepart: no scheme name before a ":"',
                "error",
                0,
            )
        )
    elif len(url) == len(scheme) + 1:
        found.append(
            Defect(
                "empty-schemepart",
                'url = scheme ":" schemepart: nothing after the ":"',
                "error",
                len(url),
            )
        )
    for offset, char in enumerate(url):
        if "\udc80" <= char <= "\udcff":
            found.append(
                Defect(
                    "invalid-utf8",
                    "the URL holds bytes that are not valid UTF-8",
                    "error",
                    offset,
                )
            )
            break
    return found


def judge(
    candidate: Candidate,
    *,
    source: str = "-",
    context: MessageContext | None = None,
    policy: Policy | None = None,
    extra_defects: tuple[Defect, ...] = (),
) -> Url:
    """Rejoin and check one candidate, producing its :class:`Url` record.

    Args:
        candidate: a span from :class:`Scanner`.
        source: path the text came from (``-`` for stdin or in-memory text).
        context: message context for text from mail or news archives.
        policy: validation strictness (default :class:`Policy`).
        extra_defects: defects of the text unit to attach (e.g. a bad charset).

    Returns:
        The finished record.
    """
    del policy  # reserved for the RFC 1738 grammar validator
    readings = rejoin(candidate)
    url = readings.primary
    scheme_match = LEADING_SCHEME_RE.match(url)
    scheme = scheme_match.group(1).lower() if scheme_match else ""
    defects = [*extra_defects, *readings.defects, *_basic_check(url, scheme)]
    fragment: str | None = None
    hash_at = url.find("#")
    if hash_at >= 0:
        fragment = url[hash_at + 1 :]
    valid = not any(d.severity == "error" for d in defects)
    return Url(
        url=url,
        alternatives=readings.alternatives,
        raw=candidate.raw,
        kind=candidate.kind,
        scheme=scheme,
        start=candidate.start,
        end=candidate.end,
        line=candidate.line,
        column=candidate.column,
        end_line=candidate.end_line,
        source=source,
        defects=tuple(defects),
        valid=valid,
        fragment=fragment,
        context=context,
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
        units: the units; each gets a fresh scanner.
        schemes: schemes recognised in bare URLs (default: RFC 1738's plus https).
        policy: validation strictness.
        max_url_length: cap on a bare URL's length.

    Returns:
        An iterator of :class:`Url` records in text order.

    Raises:
        ConfigError: a scheme name or limit is unusable (raised before any text is read).
    """
    scheme_list = None if schemes is None else list(schemes)
    Scanner(scheme_list, max_url_length=max_url_length)  # check the options up front
    return _scan_units(units, scheme_list, policy, max_url_length)


def _scan_units(
    units: Iterable[TextUnit],
    schemes: list[str] | None,
    policy: Policy | None,
    max_url_length: int,
) -> Iterator[Url]:
    for unit in units:
        scanner = Scanner(schemes, max_url_length=max_url_length)
        for chunk in unit.chunks:
            for candidate in scanner.feed(chunk):
                yield judge(
                    candidate,
                    source=unit.source,
                    context=unit.context,
                    policy=policy,
                    extra_defects=unit.defects,
                )
        for candidate in scanner.close():
            yield judge(
                candidate,
                source=unit.source,
                context=unit.context,
                policy=policy,
                extra_defects=unit.defects,
            )


def _read_chunks(stream: _Readable) -> Iterator[str]:
    while True:
        chunk = stream.read(_READ_SIZE)
        if not chunk:
            return
        yield chunk


def iter_urls(
    chunks: Iterable[str] | _Readable,
    *,
    source: str = "-",
    schemes: Iterable[str] | None = None,
    policy: Policy | None = None,
) -> Iterator[Url]:
    """Find URLs in text given as chunks or as a text stream, lazily.

    Args:
        chunks: an iterable of ``str`` chunks (any sizes), or a text stream with ``read``.
        source: the name reported in each record's ``source`` field.
        schemes: schemes recognised in bare URLs.
        policy: validation strictness.

    Returns:
        An iterator of :class:`Url` records in text order.

    Raises:
        ConfigError: a scheme name is unusable.
        TypeError: ``chunks`` is a ``str`` or ``bytes`` (pass ``[text]`` or use
            :func:`extract`).
    """
    if isinstance(chunks, (str, bytes)):
        raise TypeError("iter_urls() takes an iterable of chunks or a stream; use extract(text)")
    parts: Iterable[str] = (
        _read_chunks(chunks) if hasattr(chunks, "read") else chunks  # type: ignore[arg-type]
    )
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
        ConfigError: a scheme name is unusable.
        TypeError: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"extract() takes str, not {type(text).__name__}")
    return list(iter_urls([text], source=source, schemes=schemes, policy=policy))
