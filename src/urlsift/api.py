"""The library's entry points: text in, :class:`Url` records out.

Strategy: data flows one way, text chunks -> :class:`Scanner` -> :class:`Candidate` ->
:func:`rejoin` -> readings -> RFC 1738 validation (:func:`judge`) -> :class:`Url`. One
scanner per text unit, so a URL never spans two files, two MIME parts or two messages.
Everything is lazy: records are yielded as soon as the scanner decides them, so memory
stays bounded whatever the input size.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol

from ._model import Candidate, Defect, MessageContext, Policy, TextUnit, Url
from .rejoin import rejoin
from .scanner import DEFAULT_MAX_URL_LENGTH, Scanner
from .schemes import SchemeRegistry, default_registry
from .validate import validate_readings

_READ_SIZE = 1 << 16


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> str: ...


def _text_defects(url: str) -> list[Defect]:
    """Defects of the input text inside the URL (the validator judges the URL itself)."""
    for offset, char in enumerate(url):
        if "\udc80" <= char <= "\udcff":
            return [
                Defect(
                    "invalid-utf8",
                    "the URL holds bytes that are not valid UTF-8 in the input",
                    "warning",
                    offset,
                )
            ]
    return []


def judge(
    candidate: Candidate,
    *,
    source: str = "-",
    context: MessageContext | None = None,
    policy: Policy | None = None,
    registry: SchemeRegistry | None = None,
    extra_defects: tuple[Defect, ...] = (),
) -> Url:
    """Rejoin and validate one candidate, producing its :class:`Url` record.

    When exactly one of the readings is valid RFC 1738, it becomes the primary ``url``
    (e.g. a port broken as ``80-``/``80`` reads ``8080``); otherwise the rejoiner's
    primary reading (hyphen kept) stays first.

    Args:
        candidate: a span from :class:`Scanner`.
        source: path the text came from (``-`` for stdin or in-memory text).
        context: message context for text from mail or news archives.
        policy: validation strictness (default :class:`Policy`).
        registry: scheme validators (default: a fresh :func:`default_registry`).
        extra_defects: defects of the text unit to attach (e.g. a bad charset).

    Returns:
        The finished record.
    """
    readings = rejoin(candidate)
    texts = (readings.primary, *readings.alternatives)
    index, results = validate_readings(texts, policy=policy, registry=registry)
    chosen = results[index]
    url = texts[index]
    defects = (
        *extra_defects,
        *readings.defects,
        *_text_defects(url),
        *chosen.defects,
    )
    return Url(
        url=url,
        alternatives=texts[:index] + texts[index + 1 :],
        raw=candidate.raw,
        kind=candidate.kind,
        scheme=chosen.scheme,
        start=candidate.start,
        end=candidate.end,
        line=candidate.line,
        column=candidate.column,
        end_line=candidate.end_line,
        source=source,
        defects=defects,
        valid=not any(d.severity == "error" for d in defects),
        fragment=chosen.fragment,
        parts=chosen.parts,
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
    registry = default_registry()
    for unit in units:
        scanner = Scanner(schemes, max_url_length=max_url_length)
        for chunk in unit.chunks:
            for candidate in scanner.feed(chunk):
                yield judge(
                    candidate,
                    source=unit.source,
                    context=unit.context,
                    policy=policy,
                    registry=registry,
                    extra_defects=unit.defects,
                )
        for candidate in scanner.close():
            yield judge(
                candidate,
                source=unit.source,
                context=unit.context,
                policy=policy,
                registry=registry,
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
