"""Rejoin a candidate's text into URL readings (RFC 1738 appendix).

Strategy: a pure function from :class:`Candidate` to :class:`Readings`; no I/O, no state.

* Inside a wrapper all whitespace (spaces, tabs, CR, LF, ...) is ignored: the URL is the
  wrapper's content with whitespace removed. A bare URL only spans lines at a hyphen break
  or where a mail client wrapped it (the scanner decides, see :mod:`urlsift.extraction.wrap`).
* A wrapped line end of a bare URL gives the joined reading first and the reading cut at
  the line end in ``alternatives``, with a ``continued-line`` defect at the break.
* A possible wrap (the scanner's answer "both": a :class:`urlsift.grammar.context.PossibleWrap`
  body) gives the reading cut at the first wrap break first and the joined one in
  ``alternatives``, with a ``possible-wrap`` defect at the cut reading's end; after a
  quoted-printable soft line break (:class:`urlsift.grammar.context.SoftBreakWrap`) the joined
  reading leaves each line's final ``=`` out.
* Continuation lines that carry the same mail quote prefix as the span's first line
  (``> ``, ``>> ``, ``> > ``) lose it before whitespace is removed; a bare URL's
  continuation lines lose any quote prefix (a possible wrap may cross quote depths).
* A line break right after a hyphen is ambiguous ("the hyphen may or may not actually be
  part of the URL"): the primary reading keeps the hyphen (every attested case in the RFC
  corpora keeps it), and the readings without it go to ``alternatives``, with an
  ``ambiguous-hyphen`` defect pointing at the hyphen.
* A wrapper broken across an RFC page break loses the page's footer and the next page's
  header (the scanner recognises the break; see ``_context.RFC_PAGE_BREAK``).
* The URL is never otherwise altered: no percent-encoding, no case change.
"""

from __future__ import annotations

from itertools import combinations

from .._model import Candidate, Defect, Kind
from .._record import record
from ..grammar.context import (
    PAGE_BREAK_IN_BODY_RE,
    QUOTE_PREFIX_CHARS,
    QUOTE_PREFIX_RE,
    TRAILING_PUNCT,
    PossibleWrap,
    SoftBreakWrap,
    quote_key,
    strip_quote_prefix,
)

# What the scanner trims from a bare URL's end (the cut reading is trimmed the same way).
_TRIMMED = "".join(sorted(TRAILING_PUNCT))

MAX_ALTERNATIVES = 7
"""Most alternative readings reported for one URL (all 2**k - 1 of them when k <= 3)."""

# Kinds whose body is one whitespace-free token unless it continues across a line break.
_ONE_TOKEN_KINDS = frozenset({"bare", "prefixed"})

# With more ambiguous breaks than this, only the all-hyphens-removed reading is offered.
_MAX_COMBINED_BREAKS = 3


@record
class Readings:
    """The readings of one candidate: the primary one first."""

    primary: str
    """The reading reported as ``url``."""
    alternatives: tuple[str, ...]
    """Other possible readings, most likely first."""
    defects: tuple[Defect, ...]
    """Problems found while rejoining (``ambiguous-hyphen``, ``unterminated-wrapper`` ...).
    Their offsets index :attr:`primary`; see :meth:`offset_in`."""
    removed: tuple[tuple[int, ...], ...] = ()
    """For each alternative, the offsets in :attr:`primary` of the hyphens it leaves out."""

    def offset_in(self, index: int, offset: int) -> int:
        """Map an offset in :attr:`primary` to reading ``index`` (0 = primary).

        A removed hyphen's offset maps to where it stood (the character after it); an
        offset past the end of a shorter reading (the reading cut at a wrapped line end)
        maps to its end.
        """
        if index == 0:
            return offset
        mapped = offset - sum(1 for r in self.removed[index - 1] if r < offset)
        return min(mapped, len(self.alternatives[index - 1]))


def single_reading(candidate: Candidate) -> str | None:
    """Return the one reading of a candidate that needs no rejoining, else None.

    The common case: a bare or prefixed URL on one line, or a closed wrapper on one line
    (``<URL:ftp://x/y>``, ``<URL: ftp://x/y >``). Its only reading is its body less its
    spaces, with no alternative and no defect, which is what :func:`rejoin` would return.
    """
    return single_reading_of(
        candidate.kind, candidate.body, candidate.terminated, candidate.truncated
    )


def single_reading_of(kind: Kind, body: str, terminated: bool, truncated: bool) -> str | None:
    """:func:`single_reading` from the candidate's fields (for a loop that unpacked them)."""
    if truncated:
        return None
    if kind in _ONE_TOKEN_KINDS:
        return body if "\n" not in body else None
    # Every whitespace character but the space is unprintable (str.isprintable), so a
    # printable body is one line whose only whitespace is spaces, which rejoining drops.
    if terminated and body.isprintable():
        return body.replace(" ", "") if " " in body else body
    return None


def rejoin(candidate: Candidate) -> Readings:
    """Turn a candidate's body into its readings.

    Args:
        candidate: a span decided by the scanner.

    Returns:
        The primary reading, the alternatives and the defects found while rejoining.
    """
    single = single_reading(candidate)
    if single is not None:
        return Readings(single, (), ())
    return rejoin_lines(candidate)


def rejoin_lines(candidate: Candidate) -> Readings:
    """:func:`rejoin` without its shortcut: always rejoin line by line (tests compare them).

    Args:
        candidate: a span decided by the scanner.
    """
    body = candidate.body
    defects: list[Defect] = []
    if "\f" in body:  # an RFC page break inside the wrapper: drop footer and header
        body = PAGE_BREAK_IN_BODY_RE.sub("\n", body)
    lines = body.split("\n")
    key = quote_key(candidate.quote_prefix) if candidate.quote_prefix else ""
    pieces: list[str] = []
    hyphen_breaks: list[int] = []  # indexes of pieces that end in an ambiguous hyphen
    wrap_breaks: list[int] = []  # offsets in the primary reading of wrapped line ends
    one_token = candidate.kind in _ONE_TOKEN_KINDS
    soft = type(candidate.body) is SoftBreakWrap
    possible = isinstance(candidate.body, PossibleWrap)  # the answer "both"
    last = len(lines) - 1
    length = 0
    for index, line in enumerate(lines):
        if index and one_token:
            # A bare URL's continuation has the first line's quote prefix, or another
            # one where a client re-wrapped a reply (a possible wrap): never URL text.
            prefix = QUOTE_PREFIX_RE.match(line) if line[:1] in QUOTE_PREFIX_CHARS else None
            if prefix is not None:
                line = line[prefix.end() :]
        elif index and key:
            line = strip_quote_prefix(line, key)
        piece = "".join(line.split())
        length += len(piece)
        if index < last:
            if line.rstrip().endswith("-"):
                hyphen_breaks.append(index)
            elif one_token:  # the scanner joined a line a mail client wrapped
                wrap_breaks.append(length)
        if soft and index < last and piece.endswith("="):
            piece = piece[:-1]  # a quoted-printable soft line break's "="
            length -= 1
            if wrap_breaks and wrap_breaks[-1] > length:
                wrap_breaks[-1] = length
        pieces.append(piece)
    primary = "".join(pieces)
    if wrap_breaks and wrap_breaks[-1] >= len(primary):  # a break with nothing after it
        wrap_breaks = [offset for offset in wrap_breaks if offset < len(primary)]

    # A possible wrap (with a break) keeps the cut reading and offers the joined one (see
    # the end): the decided join's alternatives and defects are not made for it.
    both = possible and bool(wrap_breaks)
    alternatives: list[str] = []
    removed_offsets: list[tuple[int, ...]] = []
    if wrap_breaks and not both:
        # The reading cut where the line ends, as it would be read without the join.
        alternatives.append(primary[: wrap_breaks[0]].rstrip(_TRIMMED))
        removed_offsets.append(())
        for offset in wrap_breaks:
            defects.append(
                Defect(
                    "continued-line",
                    "the bare URL ends at a line end where a mail client or editor seems to "
                    "have wrapped it: it is read joined with the next line; the reading cut "
                    "at the line end is in alternatives",
                    "warning",
                    offset,
                )
            )
    if hyphen_breaks:
        offsets: list[int] = []
        position = 0
        for index, piece in enumerate(pieces):
            position += len(piece)
            if index in hyphen_breaks:
                offsets.append(position - 1)
        for offset in offsets:
            defects.append(
                Defect(
                    "ambiguous-hyphen",
                    "line break right after a hyphen (RFC 1738 appendix): the hyphen may or "
                    "may not be part of the URL; the other reading is in alternatives",
                    "warning",
                    offset,
                )
            )
        if both:
            removal_sets = []
        elif len(offsets) <= _MAX_COMBINED_BREAKS:
            removal_sets = [
                set(chosen)
                for size in range(1, len(offsets) + 1)
                for chosen in combinations(offsets, size)
            ]
        else:
            removal_sets = [set(offsets)]
        for removed in removal_sets[:MAX_ALTERNATIVES]:
            cuts = sorted(removed)
            starts = [0, *(cut + 1 for cut in cuts)]
            ends = [*cuts, len(primary)]
            alternatives.append("".join(primary[a:b] for a, b in zip(starts, ends, strict=True)))
            removed_offsets.append(tuple(cuts))

    if not candidate.terminated:
        closer = "<URL:...>" if candidate.kind == "wrapped" else "<...>"
        defects.append(
            Defect(
                "unterminated-wrapper",
                f"{closer} is not closed with '>' before a blank line, the next '<' or the "
                "length bound; the URL is taken up to the first whitespace",
                "warning",
            )
        )
    if candidate.truncated:
        defects.append(
            Defect(
                "url-too-long",
                f"the URL is longer than the scanner's bound and was cut after "
                f"{len(primary)} characters",
                "error",
                len(primary),
            )
        )
    if both:
        # The answer "both": the reading cut at the first wrap break stays the URL, the
        # joined one is offered (the hyphen breaks' readings are not combined with it).
        cut = primary[: wrap_breaks[0]].rstrip(_TRIMMED)
        alternatives = [primary]
        removed_offsets = [()]
        # Offsets index the URL, now the cut reading: a hyphen break past it has no
        # place in it, a bound (url-too-long) is the joined reading's.
        defects = [
            d
            if d.offset is None or d.offset < len(cut)
            else Defect(d.code, d.message, d.severity, None)
            for d in defects
            if d.code != "ambiguous-hyphen" or (d.offset is not None and d.offset < len(cut))
        ]
        defects.append(
            Defect(
                "possible-wrap",
                "the bare URL ends at a line end and the next line may continue it (a mail "
                "client or editor may have wrapped it there), but the signs are not "
                "decisive: the reading cut at the line end is kept, the joined reading is "
                "in alternatives",
                "warning",
                len(cut),
            )
        )
        primary = cut
    return Readings(primary, tuple(alternatives), tuple(defects), tuple(removed_offsets))
