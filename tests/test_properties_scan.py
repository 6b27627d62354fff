"""Property tests of the scanner that tests/test_chunking.py does not cover.

* Chunking: every cut position of short texts (one cut, then two), CRLF line ends cut
  between ``\\r`` and ``\\n``, other scheme sets and block sizes, and bytes that are not
  valid UTF-8 decoded incrementally chunk by chunk (lone surrogates at chunk edges).
* Spans: ``column`` and ``end_line`` agree with ``start`` and ``end`` (test_chunking checks
  ``raw`` and ``line``), for candidates and for judged URLs.
* Wrapper round trip (RFC 1738 appendix): valid URLs from the RFC 1738 generators of
  tests/test_validate_properties.py, broken across lines inside ``<URL:...>`` or
  ``<...>`` (a line break plus leading whitespace; optionally a ``> `` quote prefix on
  every line; CRLF line ends), embedded in prose, come back exactly; a break right after
  a hyphen adds an ``ambiguous-hyphen`` warning and the hyphenless reading as an
  alternative, and still gives the URL as written as the primary reading, because that
  reading is valid RFC 1738 and keeps the hyphen.
"""

from __future__ import annotations

import codecs

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

import urlsift
from test_chunking import PIECES
from test_validate_properties import (
    ALPHA,
    chars,
    group,
    host,
    hostname,
    hpath,
    password,
    path,
    search,
    user,
    xchars_no_tab,
)
from urlsift import Candidate, Scanner
from urlsift.extraction.rejoin import Readings, rejoin, rejoin_lines, single_reading
from urlsift.grammar import rfc as g

SHORT = settings(max_examples=40, deadline=None)
MEDIUM = settings(max_examples=80, deadline=None)

texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
short_texts = st.lists(st.sampled_from(PIECES), max_size=10).map("".join)


def _scan(pieces: list[str], block_size: int = 16, **options: object) -> list[Candidate]:
    scanner = Scanner(block_size=block_size, **options)  # type: ignore[arg-type]
    found: list[Candidate] = []
    for piece in pieces:
        found += scanner.feed(piece)
    return found + scanner.close()


# --- chunking ----------------------------------------------------------------------------


@SHORT
@given(short_texts.filter(lambda t: len(t) <= 48))
def test_every_single_and_double_cut_of_short_texts(text: str) -> None:
    whole = _scan([text], 1 << 16)
    n = len(text)
    for i in range(1, n):
        assert _scan([text[:i], text[i:]]) == whole, i
    for i in range(1, n, 3):
        for j in range(i + 1, n):
            assert _scan([text[:i], text[i:j], text[j:]]) == whole, (i, j)


@MEDIUM
@given(
    st.lists(st.sampled_from(PIECES), min_size=2, max_size=30).map(
        lambda pieces: "\r\n".join(pieces).replace("\r\n", "\n").replace("\n", "\r\n")
    ),
    st.data(),
)
def test_crlf_cut_between_cr_and_lf(text: str, data: st.DataObject) -> None:
    cuts = [i + 1 for i in range(len(text) - 1) if text[i] == "\r" and text[i + 1] == "\n"]
    assume(cuts)
    chosen = sorted(data.draw(st.sets(st.sampled_from(cuts), min_size=1, max_size=8)))
    pieces = [text[a:b] for a, b in zip([0, *chosen], [*chosen, len(text)], strict=True)]
    assert _scan(pieces) == _scan([text], 1 << 16)


@MEDIUM
@given(
    texts,
    st.lists(st.integers(0, 400), max_size=10),
    st.sampled_from([("http",), ("mailto", "news"), ("x-foo", "urn", "ftp", "https")]),
    st.sampled_from([16, 17, 100]),
)
def test_chunking_with_other_schemes_and_block_sizes(
    text: str, cuts: list[int], schemes: tuple[str, ...], block: int
) -> None:
    points = sorted({min(c, len(text)) for c in cuts})
    pieces = [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]
    whole = _scan([text], 1 << 16, schemes=schemes)
    assert _scan(pieces, block, schemes=schemes) == whole


PIECE_BYTES = [p.encode("utf-8", "surrogateescape") for p in PIECES] + [
    b"\xff",
    b"\xc3",  # the first byte of a two-byte sequence, alone
    b"\xe2\x80",  # a three-byte sequence cut short
    b"\xf0\x9f\x98\x80",  # a four-byte sequence (an emoji)
    b"\xed\xa0\x80",  # an encoded surrogate: invalid UTF-8
]


@MEDIUM
@given(
    st.lists(st.sampled_from(PIECE_BYTES), max_size=50).map(b"".join),
    st.lists(st.integers(0, 400), max_size=12),
)
def test_incremental_decoding_of_invalid_utf8_gives_the_same_spans(
    data: bytes, cuts: list[int]
) -> None:
    # The sources decode bytes block by block with surrogateescape; a multi-byte sequence
    # or an invalid byte cut by a block edge must decode, and scan, as in one piece.
    text = data.decode("utf-8", "surrogateescape")
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    points = sorted({min(c, len(data)) for c in cuts})
    chunks = [
        decoder.decode(data[a:b]) for a, b in zip([0, *points], [*points, len(data)], strict=True)
    ]
    chunks.append(decoder.decode(b"", final=True))
    assert "".join(chunks) == text
    assert _scan(chunks) == _scan([text], 1 << 16)


# --- spans ---------------------------------------------------------------------------------


def _assert_position(
    text: str, start: int, end: int, line: int, column: int, end_line: int
) -> None:
    assert 0 <= start < end <= len(text)
    assert line == text.count("\n", 0, start) + 1
    assert column == start - (text.rfind("\n", 0, start) + 1) + 1
    assert end_line == text.count("\n", 0, end - 1) + 1
    assert end_line - line == text.count("\n", start, end - 1)


@MEDIUM
@given(st.one_of(texts, texts.map(lambda t: t.replace("\n", "\r\n"))))
def test_line_column_and_end_line_agree_with_offsets(text: str) -> None:
    candidates = _scan([text], 1 << 16)
    for c in candidates:
        assert text[c.start : c.end] == c.raw
        assert c.body in c.raw
        _assert_position(text, c.start, c.end, c.line, c.column, c.end_line)
    urls = urlsift.extract(text)
    assert [(u.start, u.end, u.line, u.column, u.end_line) for u in urls] == [
        (c.start, c.end, c.line, c.column, c.end_line) for c in candidates
    ]


# --- wrapper round trip --------------------------------------------------------------------


def _userinfo(login: tuple[str, str | None] | None) -> str:
    if login is None:
        return ""
    return login[0] + ("" if login[1] is None else ":" + login[1]) + "@"


logins = st.one_of(st.none(), st.tuples(user, st.one_of(st.none(), password)))

# Valid RFC 1738 URLs of every scheme, assembled from the §5 productions generated in
# test_validate_properties.py (each must validate: checked in the test).
valid_urls = st.one_of(
    st.tuples(st.sampled_from(["http", "https"]), host, st.one_of(st.none(), hpath), search).map(
        lambda t: f"{t[0]}://{t[1]}" + ("" if t[2] is None else f"/{t[2]}?{t[3]}")
    ),
    st.tuples(
        logins, host, st.one_of(st.none(), path), st.one_of(st.none(), st.sampled_from("aid"))
    ).map(
        lambda t: (
            f"ftp://{_userinfo(t[0])}{t[1]}"
            + ("" if t[2] is None else "/" + t[2] + ("" if t[3] is None else ";type=" + t[3]))
        )
    ),
    st.tuples(chars(g.RESERVED, max_size=8), host)
    .filter(lambda t: "%40" not in t[0].lower())
    .map(lambda t: f"mailto:{t[0]}@{t[1]}"),
    group.map(lambda grp: f"news:{grp}"),
    st.tuples(host, group, st.one_of(st.none(), st.integers(0, 10**6))).map(
        lambda t: f"nntp://{t[0]}/{t[1]}" + ("" if t[2] is None else f"/{t[2]}")
    ),
    st.tuples(logins, host).map(lambda t: f"telnet://{_userinfo(t[0])}{t[1]}/"),
    st.tuples(host, chars("")).map(lambda t: f"wais://{t[0]}/{t[1]}"),
    st.tuples(host, st.sampled_from("01h"), xchars_no_tab).map(
        lambda t: f"gopher://{t[0]}/{t[1]}{t[2]}"
    ),
    st.tuples(host, path).map(lambda t: f"file://{t[0]}/{t[1]}"),
    st.tuples(host, path).map(lambda t: f"prospero://{t[0]}/{t[1]}"),
    st.tuples(host, chars("-", min_size=1)).map(lambda t: f"http://{t[0]}/a-{t[1]}-"),
)

PROSE_BEFORE = ["See", "The archive is at", "Also:", "(see"]
PROSE_AFTER = [".", " for details.", ", then reply.", ")"]
INDENTS = ["", " ", "  ", "\t", "      "]


def _layout(url: str, breaks: list[int], indents: list[str], trailing: list[str]) -> list[str]:
    """Cut ``url`` at ``breaks``; each later piece starts with its indent."""
    pieces: list[str] = []
    last = 0
    for number, point in enumerate(breaks):
        pieces.append(url[last:point] + trailing[number])
        last = point
    pieces.append(url[last:])
    return [pieces[0]] + [indents[i] + piece for i, piece in enumerate(pieces[1:])]


# URLs with hyphens where the appendix's ambiguity bites: in host labels, paths, groups.
hyphen_label = st.tuples(
    st.text(ALPHA, min_size=1, max_size=4), st.text(ALPHA, min_size=1, max_size=4)
)
hyphenated_urls = st.one_of(
    st.tuples(
        st.sampled_from(["http", "https", "ftp", "file", "prospero"]),
        hyphen_label,
        hostname,
        chars("-", min_size=1, max_size=8),
    ).map(lambda t: f"{t[0]}://{t[1][0]}-{t[1][1]}.{t[2]}/x-{t[3]}"),
    st.tuples(group, hyphen_label).map(lambda t: f"news:{t[0]}-{t[1][0]}-{t[1][1]}"),
    st.tuples(hyphen_label, host).map(lambda t: f"mailto:{t[0][0]}-{t[0][1]}@{t[1]}"),
)


@settings(max_examples=150, deadline=None)
@given(valid_urls, st.data())
def test_wrapped_url_broken_across_lines_comes_back(url: str, data: st.DataObject) -> None:
    _check_round_trip(url, data, hyphen_breaks=0)


@settings(max_examples=60, deadline=None)
@given(hyphenated_urls, st.data())
def test_break_after_a_hyphen_keeps_the_url_and_offers_the_other_reading(
    url: str, data: st.DataObject
) -> None:
    _check_round_trip(url, data, hyphen_breaks=1)


def _check_round_trip(url: str, data: st.DataObject, hyphen_breaks: int) -> None:
    """Break ``url`` inside a wrapper (at least ``hyphen_breaks`` times after a hyphen),
    embed it in prose, scan, and check the URL comes back as the appendix says."""
    assert urlsift.validate(url).valid, url
    form = data.draw(st.sampled_from(["wrapped", "wrapped-space", "angle"]))
    quote = data.draw(st.sampled_from(["", "", "> ", ">> ", "> > "]))
    first = len(url.split(":", 1)[0]) + 1 if form == "angle" else 0  # "<scheme:" stays whole
    # In quoted text a line "> >" would read as a deeper quote, not as the closing ">".
    last = len(url) - 1 if quote else len(url)
    anywhere = data.draw(st.sets(st.integers(first, last), min_size=1, max_size=4))
    hyphens = [i + 1 for i, c in enumerate(url) if c == "-" and first <= i + 1 <= last]
    at_hyphens: set[int] = set()
    if hyphens:
        at_hyphens = data.draw(
            st.sets(st.sampled_from(hyphens), min_size=hyphen_breaks, max_size=3)
        )
    else:
        assert not hyphen_breaks, url
    breaks = sorted(anywhere | at_hyphens)
    count = len(breaks)
    indents = data.draw(st.lists(st.sampled_from(INDENTS), min_size=count, max_size=count))
    trailing = data.draw(st.lists(st.sampled_from(["", "", " "]), min_size=count, max_size=count))
    eol = data.draw(st.sampled_from(["\n", "\r\n"]))
    lines = _layout(url, breaks, indents, trailing)
    opener = {"wrapped": "<URL:", "wrapped-space": "<URL: ", "angle": "<"}[form]
    lines[0] = data.draw(st.sampled_from(PROSE_BEFORE)) + " " + opener + lines[0]
    lines[-1] += ">" + data.draw(st.sampled_from(PROSE_AFTER))
    body = ["Some prose before it.", *lines, "And some prose after it."]
    text = eol.join(quote + line for line in body) + eol

    found = urlsift.extract(text)
    assert len(found) == 1, (text, found)
    result = found[0]
    assert result.url == url, (text, result)
    assert result.kind == ("angle" if form == "angle" else "wrapped")
    assert result.raw.startswith(opener)
    assert result.raw.endswith(">")
    assert result.valid, result.defects
    after_hyphen = [p for p in breaks if p > 0 and url[p - 1] == "-"]
    hyphen_defects = [d for d in result.defects if d.code == "ambiguous-hyphen"]
    event(f"{form}: {min(len(breaks), 2)} breaks ({min(len(after_hyphen), 2)} after a hyphen)")
    assert len(hyphen_defects) == len(after_hyphen), (text, result.defects)
    assert [d.offset for d in hyphen_defects] == [p - 1 for p in after_hyphen]
    if after_hyphen:
        without = "".join(c for i, c in enumerate(url) if i + 1 not in after_hyphen)
        assert without in result.alternatives, (text, result.alternatives)
    else:
        assert result.alternatives == ()
    assert {d.code for d in result.defects} <= {
        "ambiguous-hyphen",
        "password-in-url",
        "deceptive-userinfo",
        "non-default-port",
        "reserved-port",
    }, result.defects


@given(st.one_of(texts, texts.map(lambda t: t.replace(">", "> >").replace("\n", "\n\t"))))
def test_rejoin_shortcut_gives_what_rejoining_line_by_line_gives(text: str) -> None:
    # rejoin() skips the line-by-line work when a candidate has one plain reading; the
    # shortcut must give exactly the long path's readings, and Judge takes it too.
    scanner = Scanner()
    for candidate in scanner.feed(text) + scanner.close():
        single = single_reading(candidate)
        full = rejoin_lines(candidate)
        if single is not None:
            event(f"shortcut: {candidate.kind}")
            assert full == Readings(single, (), ())
        assert rejoin(candidate) == full


@given(valid_urls, st.sampled_from(["<URL:{}>", "<{}>", "<URL: {} >", "<URL:{}", "x {} y"]))
def test_rejoin_shortcut_on_wrappers(url: str, form: str) -> None:
    scanner = Scanner()
    for candidate in scanner.feed(form.format(url)) + scanner.close():
        single = single_reading(candidate)
        if single is not None:
            event(f"shortcut: {candidate.kind}")
            assert rejoin_lines(candidate) == Readings(single, (), ())
        assert rejoin(candidate) == rejoin_lines(candidate)
