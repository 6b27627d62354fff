"""The tokenizer's shortcut for tags without attributes gives what its general path gives.

``_tag`` reads a tag made of a name and ``>`` or ``/>`` with one match (issue 26: most
tags of HTML mail are such); the test switches the shortcut off and compares the tokens,
on HTML-shaped random text and on the shared corpus's kinds of tags.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift.sources import htmltokens
from urlsift.sources.htmltokens import tokenize

_WORDS = ["/>", "</", "br", "!--", "-->", "href", "style", "<script>", "</script>"]
_WORDS += ["<title>", "&amp;", "é", "<?"]
PIECES = st.sampled_from([*"<>/=\"' \t\naPx", "<a ", *_WORDS])


def _general(markup: str, monkeypatch: pytest.MonkeyPatch) -> list[htmltokens.Token]:
    with monkeypatch.context() as patch:
        patch.setattr(htmltokens, "_BARE_TAG", re.compile(r"(?!)()()"))
        return list(tokenize(markup))


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join))
def test_bare_tags_read_as_the_general_path_reads_them(markup: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        assert list(tokenize(markup)) == _general(markup, patch)


@pytest.mark.parametrize(
    "markup",
    ["<p>x</p>", "<br/>", "<br />", "<A>", "<a/ >", "<a\n>", "<a", "</a", "<a/", "<b></b >"],
)
def test_bare_and_near_bare_tags(markup: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert list(tokenize(markup)) == _general(markup, monkeypatch)


def test_the_shortcut_is_taken() -> None:
    (token,) = tokenize("<BR/>")
    assert (token.kind, token.name, token.self_closing, token.end) == ("start", "br", True, 5)
