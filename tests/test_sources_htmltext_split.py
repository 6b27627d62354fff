"""The split path of ``html_to_text`` gives what the general path gives.

``html_to_text`` cuts a part at every ``<`` that starts markup (a markup piece runs to the
next ``>`` when no ``<`` comes first), looks up what each markup piece does by the piece
as written, and joins the text pieces and line breaks between two pieces that change
state at once (issue 26). These tests hold it to ``html_to_text_general`` (every token
through ``htmltokens.tokenize``) on the shapes that reading could get wrong: character
references cut by markup, runs of tags that do nothing, tags cut by the end of the part,
text elements after a run, and markup whose reading ends inside a piece of the split.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift.sources import htmltext
from urlsift.sources.htmltext import html_to_text, html_to_text_general
from urlsift.sources.htmltokens import tokenize

_REFERENCE_HALVES = ["&am", "p;", "&amp", "&#6", "0;", "&#x3", "c;", "&not", "in;", "&", "#"]
_REFERENCE_HALVES += ["&g", "t;", "&nbsp", ";", "&lt", "&quot", "&#", "x", "&copy", "=", "\x01"]
_NO_OP_TAGS = ["<span>", "</span>", "<SPAN>", "</SPAN >", "<o:p>", "</o:p>", "<b>", "</B>"]
_NO_OP_TAGS += ['<span style="color:red">', "<font face=Arial>", "<a>", "</a>", "<img/>"]
_NO_OP_TAGS += ["<!---->", "<!-- c -->", "<!DOCTYPE html>", "<?x?>", '<span class="">']
_BLOCK_TAGS = ["<p>", "</p>", "<P class=MsoNormal>", "<br>", "<BR/>", "<div>", "</DIV>"]
_STATE_TAGS = ["<head>", "</head>", "<body>", "<BODY bgcolor=x>", "<title>", "</title>"]
_STATE_TAGS += ["<style>", "</style>", "<style/>", "<script>", "</script>", "<textarea>"]
_STATE_TAGS += ["<xmp>", "<iframe>", "</iframe>", "<plaintext>", "<template>", "</template>"]
_OTHER = ["<", ">", "<a", "<span", "</", "<!--", "-->", "<!--[if mso]>", "<![endif]-->"]
_OTHER += ["'", '"', "<a title='x>y'>", "<a x=1y=2>", "<a href=http://h.example/>", " ", "\n"]
_OTHER += ["http://u.example/", "text", "\u0130", "é", "\t", "<a href='http://q.example/'"]
PIECES = st.sampled_from(_REFERENCE_HALVES + _NO_OP_TAGS + _BLOCK_TAGS + _STATE_TAGS + _OTHER)


def _forget() -> None:
    htmltext._readings = htmltext._Readings()


_WINDOWS = st.sampled_from([1, 2, 3, 5, 8, 13, 40, htmltext._WINDOW])


@settings(max_examples=1500, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join), st.booleans(), _WINDOWS)
def test_split_path_gives_the_general_paths_text(markup: str, forget: bool, window: int) -> None:
    # Also with the part split a few characters at a time (windows ending before a "<").
    if forget:
        _forget()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(htmltext, "_WINDOW", window)
        assert html_to_text(markup) == html_to_text_general(markup)
        assert html_to_text(markup) == html_to_text_general(markup)  # the pieces remembered


_CUT_REFERENCES = st.tuples(
    st.sampled_from(["&am", "&amp", "&#6", "&#x3", "&not", "&", "&g", "&nbsp", "&#", "a&copy"]),
    st.sampled_from(_NO_OP_TAGS + _BLOCK_TAGS),
    st.sampled_from(["p;", "0;", "c;", "in;", "amp;", "t;", ";", "x3c;", "=", "y", ""]),
).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.lists(_CUT_REFERENCES | PIECES, max_size=12).map("".join), _WINDOWS)
def test_references_cut_by_markup(markup: str, window: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(htmltext, "_WINDOW", window)
        assert html_to_text(markup) == html_to_text_general(markup)


@pytest.mark.parametrize(
    "markup",
    [
        # a character reference cut by markup that does nothing: two text tokens
        "a &am<span>p; b",
        "&#6<b>0; &#x3<i>c; &not<o:p>in; &<!-- -->amp; &nbsp<SPAN>;",
        "&copy<br>=x &amp</P>p; &gt<div class=x>;",
        # runs of tags that do nothing, with references, white space and upper case names
        "<SPAN><O:P></O:P></SPAN>&nbsp;<span\tstyle='x'>&gt; a</span >\n <B>b</B>",
        "x<span>\n</span>\n<span>&amp;</span>&amp;<span></span>y",
        "<FONT face=Arial><SPAN>a &lt;b&gt; c</SPAN></FONT><P>&quot;d&quot;</P>",
        # tags cut by the end of the part
        "<span>a</span><a href='http://c.example/x",
        "<p>a<span",
        "a</",
        "a<b>b</",
        "<p>a<!-- never closed <b>x</b>",
        "<p>a <!DOCTYPE",
        # a text element after a run
        "<span>a</span><style>p{background:url(http://s.example/)}</style><b>b</b>",
        "<b>&amp;</b><title>&amp;<b>t</b></title>after",
        "<i>x</i><script>if (a<b) {}</script><i>y</i>",
        "<head><b>h</b><title>t</title></head><body><b>&gt;</b>",
        "<p>a</p><textarea><p>&lt;</textarea>b",
        "<span>a</span><plaintext><b>&amp;",
        "<span>a</span><style>never closed <b>x</b>",
        "<style>a{}</STYLE >b<style>c</style\t>d",
        # a reading that ends inside a piece of the split
        "<a title='x>y'>after <b>b</b>",
        "<!-- a > b -->text<b>b</b>",
        "<!--[if mso]><xml><o:x>1</o:x></xml><![endif]-->after",
        '<a href="http://a.example/"title="<b>">x</a>',
        "<style>a<b>c</style>after</b>",
        "<div x='1'y=2>t</div>",
        # a part holding U+0001
        "a\x01<b>b\x01</b>&amp;\x01",
    ],
)
def test_split_shapes(markup: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _forget()
    first = html_to_text(markup)
    assert first == html_to_text(markup) == html_to_text_general(markup)
    for window in (1, 4, 9):
        monkeypatch.setattr(htmltext, "_WINDOW", window)
        assert html_to_text(markup) == first


_TAG_PARTS = st.sampled_from(["<a", "<A", "</a", "<!", "<?", " ", "=", '"', "'", "/", "b"])
_SUFFIXES = st.sampled_from(["", ">", "x", "<", "'", '"', "-->", "=", " ", "/>", "<b>"])


@settings(max_examples=1500, deadline=None)
@given(st.lists(_TAG_PARTS, min_size=1, max_size=12).map("".join), st.lists(_SUFFIXES))
def test_a_piece_read_whole_is_one_token_whatever_follows(body: str, suffix: list[str]) -> None:
    # A markup piece of the split (one "<", one ">" at its end) that _COMMON_MARKUP reads
    # whole is the token the tokenizer reads there, whatever comes after it.
    piece = body.replace(">", "") + ">"
    if "<" in piece[1:] or htmltext._COMMON_MARKUP.fullmatch(piece) is None:
        return
    markup = piece + "".join(suffix)
    token = next(tokenize(markup))
    assert (token.start, token.end) == (0, len(piece))
    assert token.kind in ("start", "end", "comment")


def test_each_markup_start_starts_a_piece() -> None:
    markup = "a < b <3 <a href='x>'>c</a><<b>d</ e><!x<?"
    pieces = htmltext._SPLIT.split(markup)
    assert pieces == [
        *("a < b <3 ", "<a href='x>", "'>c", "</a>", "<", "<b>", "d", "</ e>", ""),
        *("<!", "x", "<?", ""),
    ]
    assert htmltext._split(markup) == pieces


_SPLIT_WORDS = st.sampled_from(
    ["<", ">", "a", " ", "<a", "</b", "<!", "<?", "<3", "<<", ">>", "'<'", "<a b='<'>", "&"]
)


@settings(max_examples=1000, deadline=None)
@given(st.lists(_SPLIT_WORDS, max_size=16).map("".join))
def test_the_split_to_each_gt_is_the_split(markup: str) -> None:
    # _split reads markup pieces to the next ">" and checks them for a second "<"; it
    # must give _SPLIT's pieces on any text: a "<" inside a piece ("<a b='<'>", "<b<i>"),
    # markup starts after the last ">", no ">" at all.
    assert htmltext._split(markup) == htmltext._SPLIT.split(markup)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "markup",
    ["<a" * 200_000, "<a" * 200_000 + ">", ">" + "<a" * 200_000, "<a<" * 100_000 + "b>" * 1000],
)
def test_the_split_reads_markup_starts_once(markup: str) -> None:
    # markup starts with no ">" after them, or one ">" after all of them: each read once
    # (_SPLIT_TO_GT from each start would read on to the window's end).
    assert htmltext._split(markup) == htmltext._SPLIT.split(markup)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(["url(", "URL", "uRl", "(", "@", "import", "IMPORT", "\u0130"])))
def test_css_url_start_is_the_ignore_case_search(words: list[str]) -> None:
    css = "".join([*words, "\u0131mport", "@\u212a"][: len(words) + 1])
    ignore_case = re.compile(r"url\(|@import", re.IGNORECASE)
    assert (htmltext._CSS_URL_START.search(css) is None) == (ignore_case.search(css) is None)


_NAME_WORDS = [*sorted(htmltext.URL_ATTRIBUTES), "=", " ", "\t", "x", "s", "style", "-", '"']


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_NAME_WORDS), max_size=10).map("".join))
def test_url_name_screen_is_the_search(lowered: str) -> None:
    found = htmltext._URL_NAME_ATTRIBUTE.search(lowered) is not None
    assert htmltext._has_url_name(lowered) == found


def test_tables_replaced_while_a_part_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # As when another thread fills the tables: each piece read lands in new tables, and
    # the part is read on with the tables it started with.
    read = htmltext._read_piece

    def replacing(piece: str) -> object:
        htmltext._readings = htmltext._Readings()
        return read(piece)

    monkeypatch.setattr(htmltext, "_read_piece", replacing)
    link = '<a href="http://a.example/">'
    markup = f"<p>{link}a</a><title>t</title>{link}b</a><b>x</b><a href='http://c.example/'>c"
    _forget()
    assert html_to_text(markup) == html_to_text_general(markup)
    assert html_to_text(markup) == html_to_text_general(markup)
