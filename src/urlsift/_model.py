"""Result records shared by every layer of urlsift.

Strategy: every record is a frozen, slotted dataclass (but :class:`Candidate`, a named
tuple: see its notes), so results are cheap, hashable where their fields are, and cannot be
changed behind the caller's back. They are defined by :func:`urlsift._record.record`,
which makes what ``@dataclass(frozen=True, slots=True)`` makes at a tenth of the import
cost, with an ``__init__`` that sets each slot directly. Records keep both what was
written (``raw``, the span and its line:column) and what was concluded (``url``,
``alternatives``, ``defects``). Nothing here does I/O or parsing; this module only imports
the standard library.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from operator import attrgetter
from typing import Literal, NamedTuple, get_type_hints

from ._record import field, record

Kind = Literal["wrapped", "angle", "prefixed", "bare"]
"""How a URL was written: ``<URL:...>``, ``<scheme:...>``, ``URL:scheme:...`` or bare."""

Severity = Literal["error", "warning"]
"""An ``error`` makes a URL invalid; a ``warning`` is reported but leaves it valid."""


@record
class Defect:
    """Something wrong with the input text or with a URL: data, never an exception."""

    code: str
    """Stable kebab-case identifier, e.g. ``unterminated-wrapper`` or ``bad-escape``."""
    message: str
    """Human-readable explanation; may change between releases, unlike ``code``."""
    severity: Severity = "error"
    """``error`` makes the URL invalid; ``warning`` does not."""
    offset: int | None = None
    """Character offset inside the URL (primary reading) the defect points at, if any."""

    def to_dict(self) -> dict[str, object]:
        """Return the defect as a JSON-ready mapping."""
        out: dict[str, object] = {
            "code": self.code,
            "message": self.message,
            "severity": self.severity,
        }
        if self.offset is not None:
            out["offset"] = self.offset
        return out


@record
class MessageContext:
    """Where in a mail or news archive a stretch of text came from.

    One vocabulary: each field is named as its key in ``--format jsonl`` records and its
    ``--format csv`` column (:data:`CONTEXT_KEYS`), but for ``from_``, written ``from``
    there (``from`` is a Python keyword). The names of earlier releases, ``number``,
    ``offset`` and ``sender``, still read as deprecated aliases.
    """

    message: int
    """1-based number of the message in its archive or folder."""
    message_offset: int
    """Byte offset of the message's first byte in the (decompressed) archive (0 for a
    message that is a file of its own)."""
    message_id: str | None = None
    """The ``Message-ID`` header, as written (unfolded), if present."""
    date: str | None = None
    """The ``Date`` header, as written, if present."""
    from_: str | None = None
    """The ``From`` header, as written, if present (``from`` in JSON and CSV)."""
    subject: str | None = None
    """The ``Subject`` header, decoded from RFC 2047 encoded words where possible."""
    part: str = "1"
    """MIME part path, e.g. ``1`` for a single-part message or ``2.1`` for nested parts."""
    content_type: str = "text/plain"
    """Content type of the part the text came from (``header`` for scanned headers)."""
    date_utc: str | None = None
    """The ``Date`` header as an instant in UTC, ISO 8601 (``1997-09-10T22:40:00Z``): RFC 5322
    dates, obsolete forms included (two-digit years, zone names), read as
    :func:`email.utils.parsedate_to_datetime` reads them, a date without zone (``-0000``)
    taken as UTC; None when there is no ``Date`` or it does not parse (an
    ``unparseable-date`` defect then)."""

    @property
    def number(self) -> int:
        """Deprecated: the old name of :attr:`message`."""
        return self.message

    @property
    def offset(self) -> int:
        """Deprecated: the old name of :attr:`message_offset`."""
        return self.message_offset

    @property
    def sender(self) -> str | None:
        """Deprecated: the old name of :attr:`from_`."""
        return self.from_

    def to_dict(self) -> dict[str, object]:
        """Return the context as a JSON-ready mapping, keyed by :data:`CONTEXT_KEYS`."""
        return dict(zip(CONTEXT_KEYS, context_values(self), strict=True))


def output_name(field_name: str) -> str:
    """The JSON key and CSV column of a record field: its name less a trailing ``_``."""
    return field_name.removesuffix("_")


CONTEXT_KEYS: tuple[str, ...] = tuple(map(output_name, MessageContext.__match_args__))
"""The JSON keys (and CSV columns) of :class:`MessageContext`, in field order: ``message``,
``message_offset``, ``message_id``, ``date``, ``from``, ``subject``, ``part``,
``content_type``, ``date_utc``."""

context_values = attrgetter(*MessageContext.__match_args__)


@record
class TextUnit:
    """One stretch of decoded text scanned on its own: a file, or one MIME part.

    A URL never spans two units: the pipeline closes its scanner at the end of each.
    """

    source: str
    """Path the text came from, or ``-`` for standard input."""
    chunks: Iterable[str]
    """The decoded text, in chunks of any size (consumed once)."""
    context: MessageContext | None = None
    """Message context when the text came from a mail or news archive."""
    defects: tuple[Defect, ...] = ()
    """Problems found while producing the text (bad charset, broken MIME ...)."""
    origin: tuple[int, int] = (0, 1)
    """``(offset, line)`` of the first character when the unit is a piece of a larger text
    that starts at a line start (a plain-text file split for parallel scanning)."""


class Candidate(NamedTuple):
    """A span of text the scanner recognised as a URL, before rejoining and validation.

    A named tuple, not a frozen dataclass like the other records: the scanner makes one
    per URL, and a frozen dataclass sets each field through ``object.__setattr__`` (0.8 us
    against 0.2 us for eleven fields). It is immutable and typed all the same; it also
    unpacks and compares as a tuple.
    """

    kind: Kind
    """How the URL was written."""
    raw: str
    """The exact source text of the span, wrapper included."""
    body: str
    """The part of ``raw`` that holds the URL: inside the wrapper, after any prefix."""
    start: int
    """Offset of the span's first character in the decoded text of its unit."""
    end: int
    """Offset just past the span's last character."""
    line: int
    """1-based line of the span's first character."""
    column: int
    """1-based column (in characters) of the span's first character."""
    end_line: int
    """1-based line of the span's last character."""
    quote_prefix: str = ""
    """Mail quote prefix (``> ``, ``>> ``...) of the first line; removed from continuations."""
    terminated: bool = True
    """False when a wrapper or angle bracket was never closed."""
    truncated: bool = False
    """True when the span hit the scanner's length bound and was cut there."""


# A NamedTuple keeps the postponed annotations (``from __future__ import annotations``) as
# ForwardRef('str') in its constructor's signature, and help() shows them so: resolved here.
Candidate.__new__.__annotations__ = Candidate.__annotations__ = get_type_hints(Candidate)


class Parts(Mapping[str, str]):
    """The parsed components of a URL, by name: a read-only, hashable mapping.

    ``url.parts["host"]``, ``url.parts.get("port")``, ``dict(url.parts)`` and ``"path" in
    url.parts`` work as for a dict; iterating gives the names, in URL order. The (name,
    value) pairs as the validator found them are :attr:`pairs` (a name seen twice keeps
    its first place and its last value in the mapping, as ``dict(pairs)`` does). A
    ``Parts`` cannot be changed, hashes, pickles, and compares equal to another ``Parts``
    with the same pairs in the same order, to any mapping with the same items, and to
    its :attr:`pairs` tuple (the type ``Url.parts`` had before).

    Args:
        pairs: (name, value) pairs in URL order.
    """

    __slots__ = {
        # The pairs as a JSON object, kept by urlsift.output.formats.url_json once made
        # (None before): a repeated URL's records share their Parts (the judge's verdict).
        "_json": "The pairs as JSON, once written (None before).",
        "pairs": "The (name, value) pairs, in URL order, as written (not decoded).",
    }

    pairs: tuple[tuple[str, str], ...]  # read-only: see __setattr__
    _json: str | None

    def __init__(self, pairs: Iterable[tuple[str, str]] = ()) -> None:
        _set_pairs(self, pairs if type(pairs) is tuple else tuple(pairs))
        _set_json(self, None)

    # A URL has a handful of parts: a scan of the pairs beats building a dict per URL.
    def __getitem__(self, name: str) -> str:
        for key, value in reversed(self.pairs):
            if key == name:
                return value
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return any(key == name for key, _ in self.pairs)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys([key for key, _ in self.pairs]))

    def __len__(self) -> int:
        return len({key for key, _ in self.pairs})

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def __hash__(self) -> int:
        return hash(self.pairs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Parts):
            return self.pairs == other.pairs
        if isinstance(other, tuple):
            return self.pairs == other
        if isinstance(other, Mapping):
            return dict(self.pairs) == dict(other.items())
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __repr__(self) -> str:
        return f"Parts({dict(self.pairs)!r})"

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Parts is read-only: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Parts is read-only: cannot delete {name!r}")

    def __reduce__(self) -> tuple[type[Parts], tuple[tuple[tuple[str, str], ...]]]:
        return (Parts, (self.pairs,))


# The slot's own setter (Parts refuses attribute assignment; __init__ goes around it).
_set_pairs = Parts.__dict__["pairs"].__set__
_set_json = Parts.__dict__["_json"].__set__

NO_PARTS = Parts()
"""The empty :class:`Parts` (a URL that did not validate, or has no components)."""


@record
class Url:
    """A URL found in text: the main result record of urlsift."""

    url: str
    """The primary reading: the URL with wrapper, whitespace and quote prefixes removed."""
    normalized: str
    """``url`` in normal form (:func:`urlsift.normalize`): equal for equivalent spellings
    (scheme and host case, escapes, default port, empty http path, mailto domain case)."""
    alternatives: tuple[str, ...]
    """Other readings (e.g. without the hyphen at an ambiguous line break)."""
    raw: str
    """The exact source text of the span."""
    kind: Kind
    """``wrapped``, ``angle``, ``prefixed`` or ``bare``."""
    scheme: str
    """The scheme in lower case (empty when none could be found)."""
    start: int
    """Offset of the span's first character in the decoded text."""
    end: int
    """Offset just past the span's last character."""
    line: int
    """1-based line of the span's first character."""
    column: int
    """1-based column of the span's first character."""
    end_line: int
    """1-based line of the span's last character."""
    source: str = "-"
    """Path the text came from, or ``-`` for standard input / in-memory text."""
    defects: tuple[Defect, ...] = ()
    """Problems found in the text around the URL or in the URL itself."""
    valid: bool = True
    """True when no defect of severity ``error`` was found."""
    fragment: str | None = None
    """The ``#fragment`` of the primary reading, if any (not part of the URL's grammar)."""
    parts: Parts = field(default=NO_PARTS)
    """Parsed components of the primary reading by name (``host``, ``port``, ``path``...),
    as written, when validated: a read-only mapping (:class:`Parts`)."""
    context: MessageContext | None = None
    """Message context when the URL came from a mail or news archive."""

    def __reduce__(self) -> tuple[type[Url], tuple[object, ...]]:
        # Pickled by field values, rebuilt through __init__: a third faster both ways than
        # the slotted dataclass's per-field state, which matters when ``--jobs`` workers
        # send every record back to the parent.
        return (Url, _URL_FIELDS(self))

    def to_dict(self) -> dict[str, object]:
        """Return the record as a JSON-ready mapping (the ``--format jsonl`` object)."""
        out: dict[str, object] = {
            "url": self.url,
            "normalized": self.normalized,
            "alternatives": list(self.alternatives),
            "raw": self.raw,
            "kind": self.kind,
            "scheme": self.scheme,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "source": self.source,
            "defects": [d.to_dict() for d in self.defects] if self.defects else [],
            "valid": self.valid,
        }
        if self.fragment is not None:
            out["fragment"] = self.fragment
        if pairs := self.parts.pairs:  # the slot itself: no Python call
            out["parts"] = dict(pairs)
        if self.context is not None:
            out.update(self.context.to_dict())
        return out


_URL_FIELDS = attrgetter(*Url.__match_args__)


@record
class Policy:
    """How strict validation is. Strictness is policy, never hard-coded in a rule."""

    strict: bool = False
    """When true, characters RFC 1738 calls unsafe but real URLs use (``~``...) are errors."""


# The records of a scan's output stream besides Url: engines make them, writers write them.


@record
class ReadFailure:
    """A path that could not be read; the scan goes on with the next one."""

    path: str
    """The path as given."""
    reason: str
    """Why, in words (e.g. ``No such file or directory``)."""


@record
class UnitDefects:
    """Problems of one message (or file) found while reading it, reported once."""

    source: str
    """Path the text came from."""
    context: MessageContext | None
    """The message, when the text came from a mail or news archive."""
    defects: tuple[Defect, ...]
    """The problems, each with a stable code."""

    def to_dict(self) -> dict[str, object]:
        """Return the record as a JSON-ready mapping (``record`` is ``defects``)."""
        out: dict[str, object] = {"record": "defects", "source": self.source}
        if self.context is not None:
            out.update(self.context.to_dict())
        out["defects"] = [d.to_dict() for d in self.defects]
        return out


Result = Url | UnitDefects | ReadFailure
"""One record of a scan's output stream."""

READ_ERROR_CODES = frozenset({"stream-read-error", "message-unreadable"})
"""Source defects saying that part of a path could not be read (a truncated compressed
archive, a folder's message file that cannot be opened): what was read is reported, and
the command line then exits as for a path that cannot be read at all."""
