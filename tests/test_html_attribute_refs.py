"""Character references in an HTML attribute's value are read as a browser reads them.

HTML §13.2.5.73: in an attribute, a named reference without its ";" that an ASCII letter,
digit or "=" follows is not a reference ("historical reasons"), so a link's query keeps
``&param=``, ``&region=``, ``&copy=`` and ``&notify`` where :func:`html.unescape` (the rule
for text) would write a pilcrow, a registered sign, a copyright sign and a not sign. Both
readers of HTML (the mail parts' text and lint's HTML documents) use it.
"""

from __future__ import annotations

import html

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urlsift.lint.extract import ExtractOptions
from urlsift.lint.extract_html import extract_html
from urlsift.sources.htmltext import html_to_text
from urlsift.sources.htmltokens import unescape_attribute

CASES = [
    ("a?b=1&param=2&region=eu&amp;t=1", "a?b=1&param=2&region=eu&t=1"),
    ("?q=1&timestamp=5&notify=0&sect=2&copy=3", "?q=1&timestamp=5&notify=0&sect=2&copy=3"),
    ("&copy 2026", "\xa9 2026"),  # a whole legacy name before a space: decoded
    ("&copy;x", "\xa9x"),
    ("&amp", "&"),
    ("&amp=", "&amp="),
    ("&ampx", "&ampx"),
    ("&AMP;", "&"),
    ("&param;", "&param;"),  # "para" is the longest name, and "m" follows it
    ("&notin;", "\u2209"),
    ("&notit;", "&notit;"),
    ("&#38;", "&"),
    ("&#38", "&"),
    ("&#x26;z", "&z"),
    ("&#;", "&#;"),
    ("&unknown;", "&unknown;"),
    ("& &&", "& &&"),
    ("no reference", "no reference"),
]


@pytest.mark.parametrize(("value", "expected"), CASES)
def test_an_attribute_value_is_decoded_as_a_browser_decodes_it(value: str, expected: str) -> None:
    assert unescape_attribute(value) == expected


_PIECES = [*"a=1;#xX &", "&amp;", "&#38;", "&#x3c;", "&copy;", "&notin;", "&param", "&copy"]


@given(st.lists(st.sampled_from(_PIECES)).map("".join))
def test_it_differs_from_html_unescape_only_at_a_name_without_its_semicolon(value: str) -> None:
    assert unescape_attribute(value.replace("&", "")) == value.replace("&", "")
    # Without a name that lacks its ";" (and so without a lone "&" that could start one
    # with the letters after it), the text rule and the attribute rule read the same.
    whole = value.replace("&param", "").replace("&copy", "x").replace("& ", " ")
    if whole.endswith("&"):
        whole = whole[:-1]
    if all(whole[i + 1 : i + 2] in ("a", "#", "c", "n") for i, c in enumerate(whole) if c == "&"):
        assert unescape_attribute(whole) == html.unescape(whole)


def test_a_mail_parts_link_keeps_its_query() -> None:
    text = html_to_text('<p><a href="http://x.example/a?b=1&param=2&amp;region=eu">x</a></p>')
    assert "http://x.example/a?b=1&param=2&region=eu" in text.splitlines()


def test_lint_reads_a_links_query_as_written() -> None:
    found = extract_html(
        '<p><a href="https://x.example/s?a=1&para=2&copy;">x</a></p>\n', "p.html", ExtractOptions()
    )
    assert [finding.url for finding in found.findings] == ["https://x.example/s?a=1&para=2\xa9"]
