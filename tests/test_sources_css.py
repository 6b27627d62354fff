"""``urlsift.sources.css``: URLs of ``url(...)`` and ``@import`` in CSS, with offsets."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift import Url
from urlsift.engines.runner import iter_results
from urlsift.sources.css import CssUrl, css_urls
from urlsift.sources.htmltext import html_to_text

CSS = Path(__file__).resolve().parent.parent / "corpora" / "css"
NETFLIX = "http://cdn.nflximg.com/us/email/hitch/netflix-crop.png"


def values(text: str) -> list[str]:
    return [url.value for url in css_urls(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('a { background: url("http://a.example/x.png") }', ["http://a.example/x.png"]),
        ("a { background: url('http://a.example/x.png') }", ["http://a.example/x.png"]),
        ("a { background: url(http://a.example/x.png) }", ["http://a.example/x.png"]),
        ("background:URL( http://a.example/x.png )", ["http://a.example/x.png"]),
        ("b:url(\n  'http://a.example/y'\n)", ["http://a.example/y"]),
        ("src: url(a.woff2) format('woff2'), url(b.woff)", ["a.woff2", "b.woff"]),
        ('@import "http://a.example/s.css";', ["http://a.example/s.css"]),
        ("@IMPORT 'x.css' screen;", ["x.css"]),
        ("@import url(http://a.example/t.css);", ["http://a.example/t.css"]),
        ("behavior:url(#default#VML);", ["#default#VML"]),
        # escapes: hex (with the white space that ends it), any character, line ends
        (r"url(http://a.example/a\)b)", ["http://a.example/a)b"]),
        (r"url('http://a.example/\41 B')", ["http://a.example/AB"]),
        ("url('http://a.example/long\\\npath')", ["http://a.example/longpath"]),
        (r"url('\0 x')", ["\ufffdx"]),
        # not URLs
        ("/* url(http://commented.example/) */ a{}", []),
        ('content: "url(http://in-a-string.example/)"', []),
        ("myurl(http://not.example/) -url(x) \\url(y)", []),
        ("url() url( ) url('')", []),
        ("/* unclosed comment url(http://a.example/)", []),
        ("no css here", []),
    ],
)
def test_css_urls(text: str, expected: list[str]) -> None:
    assert values(text) == expected


def test_offsets_are_the_url_characters() -> None:
    text = 'x{a:url( "http://a.example/q" );b:url(  http://b.example/  )}'
    urls = list(css_urls(text))
    assert [text[u.start : u.end] for u in urls] == ["http://a.example/q", "http://b.example/"]
    assert urls[0] == CssUrl(10, 28, "http://a.example/q")


def test_unclosed_string_ends_at_the_line_end() -> None:
    text = "a{b:url('http://a.example/x\n}\nc{d:url(http://c.example/)}"
    assert values(text) == ["http://a.example/x", "http://c.example/"]


def test_real_style_element() -> None:
    text = (CSS / "real-osst-users-2020-style-element.css").read_text("utf-8")
    urls = list(css_urls(text))
    assert [u.value for u in urls] == [NETFLIX]
    assert text[urls[0].start - 5 : urls[0].end + 2] == f"url('{NETFLIX}')"


def test_real_style_attribute() -> None:
    text = (CSS / "real-osst-users-2020-style-attribute.txt").read_text("utf-8")
    urls = list(css_urls(text))
    assert [u.value for u in urls] == [NETFLIX]
    assert text[urls[0].start : urls[0].end] == NETFLIX


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("url(@import)'\"\\/* \nax:;{}")), max_size=60))
def test_any_text_gives_urls_within_the_text(text: str) -> None:
    end = 0
    for url in css_urls(text):
        assert end <= url.start < url.end <= len(text)
        assert url.value
        end = url.end


def test_a_megabyte_of_openers_is_read_once() -> None:
    # Hang guard (no duration asserted): unclosed strings, comments and url( openers.
    for unit in ("url(", "url('", '"', "/*", "@import '"):
        list(css_urls(unit * (1 << 16)))


# --- wired into the text of HTML mail parts -------------------------------------------


def test_html_parts_give_the_urls_of_style_attributes_and_elements() -> None:
    attribute = (CSS / "real-osst-users-2020-style-attribute.txt").read_text("utf-8").strip()
    element = (CSS / "real-osst-users-2020-style-element.css").read_text("utf-8")
    quoted = attribute.replace('"', "&quot;")
    markup = (
        f'<div style="{quoted}">text</div>'
        f"<style>{element.replace(NETFLIX, 'https://b.example/e.png')}</style>"
        "<p style=\"background:url('relative.png')\">x</p>"
        '<a href="http://c.example/">c</a>'
    )
    text = html_to_text(markup)
    visible, links = text.rsplit("\n\n", 1)
    urls = links.split()
    # document order, absolute URLs only, the CSS of <style> never shown as text
    assert urls == [NETFLIX, "https://b.example/e.png", "http://c.example/"]
    assert "url(" not in visible


def test_a_real_html_message_gains_its_css_url() -> None:
    mbox = Path(__file__).resolve().parents[2] / "shared/corpora/mbox/osst-users-2020.mbox.gz"
    if not mbox.exists():
        pytest.skip("needs ../shared/corpora (the shared osst-users-2020 archive)")
    found = [u for u in iter_results([str(mbox)]) if isinstance(u, Url) and u.url == NETFLIX]
    assert found
    assert {u.context.content_type for u in found if u.context} == {"text/html"}
