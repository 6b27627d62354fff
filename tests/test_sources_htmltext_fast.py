"""The fast path of ``html_to_text`` gives what the general path gives, token for token.

``html_to_text`` reads the text before each markup and the markup itself with one match
when the markup has a common shape (issue 26: HTML parts were a third of reading the
shared archives), and hands any other markup, and the text of raw-text elements, to the
general path (``htmltokens.tokenize``'s steps, linear on any input). These tests hold the
two to the same text on HTML-shaped random text, on the shapes the tokenizer's notes
name, and check that the general path still reads what the fast one does not.
"""

from __future__ import annotations

import html

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift.sources import htmltext
from urlsift.sources.css import css_urls
from urlsift.sources.htmltext import _unescape, html_to_text, html_to_text_general

_WORDS = ["<a ", "<A ", "href=", "HREF =", "style=", "src= ", "<p>", "</p>", "<br/>", "</br >"]
_WORDS += ["<!--", "-->", "--!>", "<!-->", "<!--->", "<!DOCTYPE", "<?x", "</", "</>", "</ a>"]
_WORDS += ["<script>", "</script>", "<style>", "</style >", "<style/>", "<title>", "</title>"]
_WORDS += ["<textarea>", "<xmp>", "<iframe>", "</iframe>", "<plaintext>", "<head>", "<body>"]
_WORDS += ["&amp;", "&gt;", "&nbsp;", "&lt;", "&quot;", "&am", "&#60", "&#x3c;", "&lt"]
_WORDS += ["http://a.example/", "x:y", "url(", "URL(http://c.example/)", "@import 'h://e/'"]
_WORDS += ["\u212a", "\u0131", "\u0130", "é", "<img src=http://x/y/>", "<a b= c>", "<a b=>"]
PIECES = st.sampled_from([*"<>/=\"' \t\n\rax&;#!?-", *_WORDS])
# Denser in the attribute grammar: where a greedy reading and another one could differ.
TAG_PIECES = st.sampled_from(["<a", " ", "=", '"', "'", ">", "/", "b", "href", "style", "\t"])


@settings(max_examples=600, deadline=None)
@given(st.lists(PIECES, max_size=50).map("".join))
def test_fast_path_gives_the_general_paths_text(markup: str) -> None:
    assert html_to_text(markup) == html_to_text_general(markup)


@settings(max_examples=600, deadline=None)
@given(st.lists(TAG_PIECES, max_size=30).map("".join))
def test_fast_path_reads_attributes_as_the_tokenizer_does(markup: str) -> None:
    markup += ' x:y <a href="http://z.example/">'
    assert html_to_text(markup) == html_to_text_general(markup)


@pytest.mark.parametrize(
    "markup",
    [
        '<a href="http://a.example/"title="t">x</a>',  # no space between attributes
        "<a / href=http://a.example/>x",  # a stray slash
        "<a href= http://a.example/ >x",
        "<a b= c d=e>http://a.example/",
        '<a href="http://a.example/>never closed',
        "<a href='http://a.example/'/>x",
        "<a href=http://a.example//>x",
        "<style>a{background:url(http://s.example/)}</style>t",
        "<STYLE>x</style><p>after</p>",
        "<title>&amp;</TITLE>",
        "<xmp>&amp;</xmp>",
        "<style/>visible &amp; raw",
        "<head><title>t</title><body>b &gt; c",
        "a < b <3 </",
        "text &am</p>p;",
        "<plaintext>&amp;<p>",
        '<a href="x" ' + "b " * 70 + ">many attributes</a>",
        '<p style="color:rgb(1,2,3)">x</p><p style="background:url(http://b.example/)">',
        '<div style="x:\u0131mport">',
    ],
)
def test_shapes(markup: str) -> None:
    assert html_to_text(markup) == html_to_text_general(markup)


def test_common_markup_needs_no_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(markup: str, lt: int) -> None:
        raise AssertionError(f"general path at {lt}: {markup[lt : lt + 20]!r}")

    monkeypatch.setattr(htmltext, "_markup", refuse)
    markup = (
        '<!DOCTYPE html><html><head><meta charset="utf-8"><title>T</title></head>'
        '<body class=x><p style="margin:0">see <a href="http://a.example/" target=_blank>'
        "here</a>&nbsp;&gt; quoted<br/><!-- note --></p></body></html>"
    )
    text = html_to_text(markup)
    assert text == html_to_text_general(markup)  # which reads htmltokens' own _markup
    assert "see here\xa0> quoted" in text
    markup = (  # state pieces and a text element's text: from their remembered readings
        "<html><head><style>p{}</style></head><body><div class=x><span>&amp;</span>"
        "<p class=MsoNormal>a<o:p></o:p></p><a href='http://a.example/'>b</a></div></body>"
    )
    assert html_to_text(markup) == html_to_text_general(markup)


def test_the_general_path_reads_other_markup(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []
    general = htmltext._markup

    def spy(markup: str, lt: int) -> object:
        seen.append(lt)
        return general(markup, lt)

    monkeypatch.setattr(htmltext, "_markup", spy)
    text = html_to_text('<p>a</p><a href="http://a.example/"title=t>b</a>')
    assert seen == [8]
    assert text == "\na\nb\n\nhttp://a.example/\n"


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from([*"&;#x3a ", "gt", "lt", "nbsp", "quot", "amp", "\xa0"]), max_size=30)
)
def test_unescape_is_html_unescape(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _unescape(text) == html.unescape(text)


_CSS_STARTS = ["url(", "URL(", "uRl( ", "@import", "@\u0131mport", "@IMPORT ", "@font-face"]
_CSS_PIECES = st.sampled_from(
    [*_CSS_STARTS, "@", "x", " ", '"', "'", "/*", "*/", ")", "\\", "http://d.example/", "\n"]
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(_CSS_PIECES, max_size=16).map("".join))
def test_css_without_a_url_start_gives_no_url(css: str) -> None:
    # html_to_text skips the CSS reader where _CSS_URL_START finds nothing: the reader
    # then finds no URL either.
    if htmltext._CSS_URL_START.search(css) is None:
        assert list(css_urls(css)) == []


def test_at_rules_alone_are_not_read_and_a_dotless_i_import_is() -> None:
    assert html_to_text("<style>@font-face{x:y} @page a {}</style>") == ""
    assert html_to_text('<style>@\u0131mport "http://i.example/a.css";</style>') == (
        "\nhttp://i.example/a.css\n"
    )


# The fast path remembers, by the attributes as written, the URLs a start tag's attributes
# give, and by a tag's name as written what the tag does: a reading must not depend on
# what was read before, nor on a table being emptied.
_ATTRIBUTE_WORDS = [" ", "\t", "=", '"', "'", "href", "HREF", "style", "Style", "src", "title"]
_ATTRIBUTE_WORDS += ["data", "http://a.example/", "url(", "URL(http://u.example/)", "&#64;"]
_ATTRIBUTE_WORDS += ["@import 'h://e/'", "import 'h://f/'", "&amp;", "#x", "color:red", "x:y"]
_ATTRIBUTE_PIECES = st.sampled_from([*_ATTRIBUTE_WORDS, "\u0130", "\u017f"])
_TAG_NAMES = st.sampled_from(["a", "A", "p", "P", "div", "DiV", "span", "style", "title", "x"])


@settings(max_examples=800, deadline=None)
@given(_TAG_NAMES, st.lists(_ATTRIBUTE_PIECES, max_size=14).map("".join), st.booleans())
def test_remembered_tag_readings_are_the_general_paths(
    name: str, attributes: str, empty_first: bool
) -> None:
    markup = f"a<{name} {attributes}>b</{name}>c<p {attributes}>d"
    if empty_first:
        htmltext._readings = htmltext._Readings()
    first = html_to_text(markup)  # remembers the readings
    assert first == html_to_text(markup) == html_to_text_general(markup)


def test_the_tables_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(htmltext, "_MAX_KEPT_BYTES", 4096)
    for n in range(1000):
        html_to_text(f'<p class="c{n}"><x{n}>t</x{n}><title id={n}>')
    readings = htmltext._readings
    kept = [*readings.texts, *readings.linked, *readings.states]
    assert sum(map(len, kept)) + len(kept) * htmltext._ENTRY_BYTES <= readings.kept <= 4096
    long = "x" * htmltext._MAX_KEPT_PIECE
    assert html_to_text(f'<a title="{long}" href="http://l.example/">l</a>') == (
        "l\n\nhttp://l.example/\n"
    )
    assert f'<a title="{long}" href="http://l.example/">' not in htmltext._readings.texts
    assert html_to_text('<a href="http://k.example/">k</a>') == "k\n\nhttp://k.example/\n"
    linked = htmltext._readings.linked['<a href="http://k.example/">']
    assert linked == ("", ("http://k.example/",))


@pytest.mark.parametrize(
    "markup",
    [
        '<p style="background:URL(http://u.example/)">x',  # "url(" in lower case only
        "<p style=\"&#64;import 'http://i.example/'\">x",  # "@" after html.unescape
        '<p style="color:red" data-x="@import">x',  # "@" outside the style value
        '<p STYLE="x" HREF=http://h.example/>x',
        '<p title="href=x" style=y>x',
    ],
)
def test_style_screen_shapes(markup: str) -> None:
    assert html_to_text(markup) == html_to_text_general(markup)
