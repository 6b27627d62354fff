"""Fuzz harness: the scanner and the rejoin-and-judge step on arbitrary text.

Input layout: byte 0 picks the scanner options (tiny length bounds, a non-default scheme
set, the block size), byte 1 the chunking (0 whole, 255 one character at a time, else
random cuts); the rest is decoded as UTF-8 with ``surrogateescape`` (as the sources do).

Invariants (anything else is a finding):

* nothing raises;
* the candidates of the chunked feed equal those of the whole text;
* ``text[c.start:c.end] == c.raw``; ``body`` is part of ``raw``; spans are non-empty, in
  order and disjoint; ``line``/``column``/``end_line`` agree with the offsets; each span
  stays within its length bound;
* every judged :class:`~urlsift.Url` keeps its candidate's span and ``raw``, its ``url``
  and each alternative are the body with characters removed (only whitespace, quote
  prefix ``>``, or a hyphen at a line break, unless an RFC page break was dropped; or,
  for a URL joined where a mail client wrapped it, the reading cut at the line end, a
  prefix of the joined one), with no whitespace left; ``valid`` iff no error defect;
  defect offsets inside the URL;
* with default options, :func:`urlsift.extract` reports exactly the same spans.

Run: ``python fuzz/fuzz_scanner.py CORPUS_DIR fuzz/seeds/scanner -dict=fuzz/scanner.dict``
(see fuzz/README.md).
"""

from __future__ import annotations

# Run as a script, this folder is on sys.path; the tests put it there too.
from _harness import Choices, instrumented, is_subsequence, run_atheris, split

with instrumented(__name__, ("urlsift",)):
    import urlsift
    from urlsift import Candidate, Judge, Scanner

_TINY_URL = 20
_TINY_WRAPPER = 24
_SCHEME_SETS: tuple[tuple[str, ...] | None, ...] = (
    None,
    None,
    ("http", "x-foo", "urn", "ftp"),
    ("mailto", "news"),
)
_BLOCK_SIZES = (16, 17, 64, 1 << 16)
_PREFIX_GAP = 16  # PREFIX_GAP in _context.py: spaces or tabs between "URL:" and the scheme
_JUDGE = Judge(cache_size=0)
# Quote prefixes; a hyphen at a line break (alternative readings); the "=" of a
# quoted-printable soft line break, which a possible wrap's joined reading leaves out.
_EXTRA_REMOVABLE = ">-="


def _scan(
    chunks: list[str], schemes: tuple[str, ...] | None, bounds: int, block: int
) -> list[Candidate]:
    scanner = Scanner(
        schemes,
        max_url_length=_TINY_URL if bounds else urlsift.DEFAULT_MAX_URL_LENGTH,
        max_wrapper_length=_TINY_WRAPPER if bounds else urlsift.DEFAULT_MAX_WRAPPER_LENGTH,
        block_size=block,
    )
    found: list[Candidate] = []
    for chunk in chunks:
        found += scanner.feed(chunk)
    return found + scanner.close()


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _check_candidate(text: str, c: Candidate, max_url: int, max_wrapper: int) -> None:
    assert 0 <= c.start < c.end <= len(text), c
    assert text[c.start : c.end] == c.raw, c
    assert c.body, c
    assert c.body in c.raw, c
    assert c.line == _line_of(text, c.start), c
    assert c.column == c.start - (text.rfind("\n", 0, c.start) + 1) + 1, c
    assert c.end_line == _line_of(text, c.end - 1), c
    length = c.end - c.start
    if c.kind in ("wrapped", "angle"):
        assert length <= max_wrapper, (length, c)
    elif c.kind == "bare":
        assert length <= max_url, (length, c)
    else:
        assert length <= max_url + len("URL:") + _PREFIX_GAP, (length, c)
    if c.truncated:  # at the bound, or at the line end where a wrap join met it
        assert c.kind != "bare" or length == max_url or text[c.end] in "\r\n\t ", c


def _check_url(c: Candidate, url: urlsift.Url) -> None:
    assert (url.start, url.end, url.raw, url.kind) == (c.start, c.end, c.raw, c.kind), url
    assert (url.line, url.column, url.end_line) == (c.line, c.column, c.end_line), url
    assert url.url, url
    readings = (url.url, *url.alternatives)
    # A URL joined where a mail client wrapped it, or may have (a possible wrap): the
    # reading cut at the line end is a prefix of the joined one (the primary one when only
    # it is valid, or when the wrap is only possible).
    joined = max(readings, key=len)
    wrapped = any(d.code in ("continued-line", "possible-wrap") for d in url.defects)
    for reading in readings:
        assert not any(ch.isspace() for ch in reading), (reading, url)
        inside, removed = is_subsequence(reading, c.body)
        assert inside, (reading, c.body)
        if wrapped and reading != joined and joined.startswith(reading):
            continue
        if "\f" not in c.body:  # no RFC page break dropped: only the documented removals
            assert all(ch.isspace() or ch in _EXTRA_REMOVABLE for ch in removed), (removed, c)
    assert url.url not in url.alternatives, url
    assert url.valid == (not any(d.severity == "error" for d in url.defects)), url
    for defect in url.defects:
        assert defect.offset is None or 0 <= defect.offset <= len(url.url), (defect, url)
        assert defect.code, defect
        assert defect.code == defect.code.lower(), defect


def TestOneInput(data: bytes) -> None:  # noqa: N802 - the name atheris and libFuzzer use
    """Check the scanner's invariants on one fuzz input (raises on a finding)."""
    choices = Choices(data, 2)
    text = choices.payload.decode("utf-8", "surrogateescape")
    bounds = choices.bits(0, 0, 1)
    schemes = _SCHEME_SETS[choices.bits(0, 1, 2)]
    block = _BLOCK_SIZES[choices.bits(0, 3, 2)]
    max_url = _TINY_URL if bounds else urlsift.DEFAULT_MAX_URL_LENGTH
    max_wrapper = _TINY_WRAPPER if bounds else urlsift.DEFAULT_MAX_WRAPPER_LENGTH

    whole = _scan([text], schemes, bounds, 1 << 16)
    chunked = _scan(split(text, choices.control[1]), schemes, bounds, block)
    assert chunked == whole, (chunked, whole)

    last_end = 0
    for c in whole:
        _check_candidate(text, c, max_url, max_wrapper)
        assert last_end <= c.start, (last_end, c)
        last_end = c.end
        _check_url(c, _JUDGE(c))

    if not bounds and schemes is None:
        found = urlsift.extract(text)
        assert [(u.start, u.end) for u in found] == [(c.start, c.end) for c in whole]


def main() -> None:
    """Run this harness under atheris; libFuzzer options come from the command line."""
    run_atheris(TestOneInput)


if __name__ == "__main__":
    main()
