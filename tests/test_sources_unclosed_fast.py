"""A multipart without its close delimiter is read on the fast path, as the feed parser reads it.

The feed parser ends such a multipart's last part at the end of its input (the message's
end, or the enclosing multipart's next delimiter line), takes the line end before that
off the part's payload as it does before a delimiter, and reports
``CloseBoundaryNotFoundDefect`` on the multipart. The fast path (``parse.split_parts``,
``parts._plan_multipart``) now does the same instead of declining the message to the stdlib
(issue 26: one such message in the shared archives brought in ``email.parser``,
``email.feedparser`` and ``email.message``). These tests hold the two paths to the same
units, offsets, defects and counts on hand-made cases (root, nested, preamble, CRLF, a lone
CR at the end, a boundary that is a prefix of another's), on well-formed messages cut at
every line or byte, and on the mail corpus cut likewise.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_sources_mime_fastpath import CORPUS, HEAD, assert_same
from urlsift.sources.mbox import MboxSplitter
from urlsift.sources.options import MailOptions
from urlsift.sources.parse import split_parts
from urlsift.sources.parts import message_units

PLAIN = b"Content-Type: text/plain\n\nplain http://plain.example/a\n"
HTML = b'Content-Type: text/html\n\n<a href="http://html.example/">x</a>\n'
QP = b"Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\nhttp://qp.ex=\nample/\n"


def _multipart(boundary: bytes, *parts: bytes, close: bool = True, eol: bytes = b"\n") -> bytes:
    body = b"preamble" + eol
    for part in parts:
        body += b"--" + boundary + eol + part
    if close:
        body += b"--" + boundary + b"--" + eol + b"epilogue" + eol
    return b'Content-Type: multipart/mixed; boundary="' + boundary + b'"' + eol + eol + body


def _message(*parts: bytes, close: bool = True) -> bytes:
    return HEAD + _multipart(b"b1", *parts, close=close)


CASES = {
    "root unclosed": _message(PLAIN, HTML, close=False),
    "root unclosed, one part": _message(PLAIN, close=False),
    "root unclosed, no line end at the end": _message(
        PLAIN, b"Content-Type: text/plain\n\nx", close=False
    ),
    "root unclosed, CRLF at the end": _message(
        PLAIN, b"Content-Type: text/plain\n\nx\r\n", close=False
    ),
    "root unclosed, lone CR at the end": _message(
        PLAIN, b"Content-Type: text/plain\n\nx\r", close=False
    ),
    "root unclosed, blank lines at the end": _message(
        PLAIN, b"Content-Type: text/plain\n\nx\n\n\n", close=False
    ),
    "root unclosed, quoted-printable last": _message(PLAIN, QP, close=False),
    "root unclosed, empty last body": _message(PLAIN, b"Content-Type: text/plain\n\n", close=False),
    "root unclosed, delimiter last line": _message(PLAIN, close=False) + b"--b1\n",
    "root unclosed, delimiter at the very end": _message(PLAIN, close=False) + b"--b1",
    "root unclosed, attachment last": _message(
        PLAIN, b"Content-Type: application/pdf\n\n%PDF\n", close=False
    ),
    "nested unclosed in closed": _message(PLAIN, _multipart(b"b2", PLAIN, HTML, close=False), HTML),
    "nested unclosed last in closed": _message(PLAIN, _multipart(b"b2", PLAIN, HTML, close=False)),
    "nested unclosed in unclosed": _message(
        PLAIN, _multipart(b"b2", PLAIN, QP, close=False), close=False
    ),
    "nested closed in unclosed": _message(_multipart(b"b2", PLAIN, HTML), PLAIN, close=False),
    "nested closed last in unclosed": _message(PLAIN, _multipart(b"b2", PLAIN, HTML), close=False),
    "three levels unclosed": _message(
        PLAIN,
        _multipart(b"b2", HTML, _multipart(b"b3", PLAIN, close=False), close=False),
        close=False,
    ),
    "unclosed in message/rfc822": _message(
        PLAIN,
        b"Content-Type: message/rfc822\n\nSubject: inner\n" + _multipart(b"b2", PLAIN, close=False),
    ),
    "unclosed in message/rfc822, root unclosed": _message(
        PLAIN,
        b"Content-Type: message/rfc822\n\nSubject: inner\n" + _multipart(b"b2", PLAIN, close=False),
        close=False,
    ),
    "message/rfc822 last in unclosed": _message(
        PLAIN,
        b"Content-Type: message/rfc822\n\nSubject: inner\n\nhttp://inner.example/\n",
        close=False,
    ),
    "boundary a prefix of the inner one": _message(
        PLAIN, _multipart(b"b1x", PLAIN, close=False), close=False
    ),
    "inner boundary a prefix of the outer one": HEAD
    + _multipart(b"b1x", PLAIN, _multipart(b"b1", PLAIN, close=False), close=False),
    "delimiter with trailing space, unclosed": HEAD
    + b'Content-Type: multipart/mixed; boundary="b1"\n\n--b1 \t\n'
    + PLAIN
    + b"--b1\n"
    + HTML,
    "CRLF throughout, unclosed": HEAD.replace(b"\n", b"\r\n")
    + _multipart(
        b"b1", PLAIN.replace(b"\n", b"\r\n"), HTML.replace(b"\n", b"\r\n"), close=False, eol=b"\r\n"
    ),
    "unsplit inner multipart in unclosed": _message(
        PLAIN, b'Content-Type: multipart/mixed; boundary="zz"\n\nno delimiter here\n', close=False
    ),
    "unsplit inner multipart last in unclosed": _message(
        b'Content-Type: multipart/mixed; boundary="zz"\n\nno delimiter here\n', close=False
    ),
    # A part whose header block runs to its end (no blank line): fields, an empty body.
    "last part cut after its header": _message(
        PLAIN,
        b"Content-Type: text/plain; charset=us-ascii\nContent-Disposition: inline\n",
        close=False,
    ),
    "last part cut after its header, no line end": _message(
        PLAIN, b"Content-Type: text/plain; charset=us-ascii", close=False
    ),
    "last part cut after a folded header": _message(
        PLAIN, b"Content-Type: text/plain;\n charset=us-ascii\n", close=False
    ),
    "last part cut after an unread field": _message(PLAIN, b"X-Note: n\n", close=False),
    "last part cut at a URL line": _message(
        PLAIN, b"Content-Type: text/plain\nhttp://url.example/\n", close=False
    ),
    "part of a header block only": _message(PLAIN, b"Content-Type: text/html\n", HTML),
    "multipart part of a header block only": _message(
        PLAIN, b'Content-Type: multipart/mixed; boundary="zz"\n', HTML
    ),
    "message part of a header block only": _message(PLAIN, b"Content-Type: message/rfc822\n", HTML),
    "message part holding a header block only": _message(
        PLAIN, b"Content-Type: message/rfc822\n\nSubject: s\nContent-Type: text/plain\n", HTML
    ),
    "quoted-printable part of a header block only": _message(
        b"Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n", close=False
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_unclosed_multiparts_read_as_the_feed_parser_reads_them(name: str) -> None:
    assert_same(CASES[name])


TAKEN = [
    "root unclosed",
    "root unclosed, lone CR at the end",
    "nested unclosed in closed",
    "nested unclosed in unclosed",
    "three levels unclosed",
    "unclosed in message/rfc822, root unclosed",
    "last part cut after its header",
    "last part cut after a folded header",
]


@pytest.mark.parametrize("name", TAKEN)
def test_unclosed_multiparts_take_the_fast_path(name: str) -> None:
    result = message_units(CASES[name], source="m", number=1, offset=0, options=MailOptions())
    assert result.declined == ""
    assert any(
        "CloseBoundaryNotFoundDefect" in d.message for unit in result.units for d in unit.defects
    )


def test_the_container_defect_names_the_container() -> None:
    result = message_units(
        CASES["nested unclosed in closed"], source="m", number=1, offset=0, options=MailOptions()
    )
    by_part = {u.context.part: [d.message for d in u.defects] for u in result.units}
    assert by_part == {
        "1": [],
        "2.1": ["part 2: CloseBoundaryNotFoundDefect"],
        "2.2": ["part 2: CloseBoundaryNotFoundDefect"],
        "3": [],
    }
    assert result.defects == 1
    # The line end before the enclosing multipart's next delimiter is that delimiter's;
    # at the message's end, a lone CR is taken off as a line end.
    texts = {u.context.part: "".join(u.chunks) for u in result.units}
    assert texts["2.1"] == "plain http://plain.example/a"
    result = message_units(
        CASES["root unclosed, lone CR at the end"],
        source="m",
        number=1,
        offset=0,
        options=MailOptions(),
    )
    assert ["".join(u.chunks) for u in result.units][-1] == "x"


def test_split_parts_reports_a_missing_close_delimiter() -> None:
    body = b"pre\n--b\nA\n--b\nB\n"
    assert split_parts(body, 0, len(body), "b") == [(8, 10), (14, 16)]  # the last one at the end
    closed = body + b"--b--\n"
    assert split_parts(closed, 0, len(closed), "b") == [(8, 10), (14, 16)]
    for declined in (b"pre\n", b"--b\n", b"--b", b"x--b\nA\n", b"--b--\n--b\nA\n"):
        assert split_parts(declined, 0, len(declined), "b") is None


WELL_FORMED = [
    _message(PLAIN, _multipart(b"b2", HTML, QP), PLAIN),
    _message(_multipart(b"b2", PLAIN, _multipart(b"b3", HTML, PLAIN)), QP),
    HEAD.replace(b"\n", b"\r\n")
    + _multipart(b"b1", PLAIN.replace(b"\n", b"\r\n"), HTML.replace(b"\n", b"\r\n"), eol=b"\r\n"),
    _message(
        PLAIN, b"Content-Type: message/rfc822\n\nSubject: in\n" + _multipart(b"b2", PLAIN, HTML)
    ),
]


@pytest.mark.parametrize("index", range(len(WELL_FORMED)))
def test_messages_cut_at_every_line_read_as_the_feed_parser_reads_them(index: int) -> None:
    data = WELL_FORMED[index]
    cut = 0
    while cut >= 0:
        assert_same(data[:cut])
        assert_same(data[:cut].rstrip(b"\n"))
        cut = data.find(b"\n", cut + 1)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(WELL_FORMED),
    st.integers(len(HEAD), 2000),
    st.sampled_from([b"", b"\r", b"\n", b" "]),
)
def test_messages_cut_anywhere_read_as_the_feed_parser_reads_them(
    data: bytes, cut: int, tail: bytes
) -> None:
    assert_same(data[: cut % (len(data) + 1)] + tail)


_PIECES = st.sampled_from(
    [PLAIN, HTML, QP, PLAIN, HTML, QP, b"Content-Type: text/plain\n\n", b"x\r", b"junk\n"]
)


@st.composite
def _trees(draw: st.DrawFn, depth: int = 0) -> bytes:
    boundary = draw(st.sampled_from([b"b", b"bb", b"b b", b"=_b"])) + str(depth).encode()
    children = draw(
        st.lists(_trees(depth + 1) if depth < 2 else _PIECES, min_size=1, max_size=3)
        if draw(st.booleans())
        else st.lists(_PIECES, min_size=1, max_size=3)
    )
    close = draw(st.booleans())
    eol = draw(st.sampled_from([b"\n", b"\n", b"\n", b"\r\n"]))
    return _multipart(boundary, *children, close=close, eol=eol)


@settings(max_examples=300, deadline=None)
@given(_trees())
def test_generated_multipart_trees_read_as_the_feed_parser_reads_them(tree: bytes) -> None:
    assert_same(HEAD + tree)


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.iterdir() if p.is_file()))
def test_corpus_messages_cut_short_read_as_the_feed_parser_reads_them(name: str) -> None:
    splitter = MboxSplitter()
    data = (CORPUS / name).read_bytes()
    for raw in [*splitter.feed(data), *splitter.close()][:20]:
        message = raw.data
        for fraction in (2, 3, 5, 7):
            assert_same(message[: len(message) * (fraction - 1) // fraction])
