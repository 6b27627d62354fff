"""``format=flowed`` text unwrapped in pieces gives the same text wherever it is cut.

Issue 24 item 12: a long flowed part was unwrapped as a list of its lines and a joined
copy (one 60 MB message of 4-byte characters peaked at 1.17 GB). ``unflow_chunks`` writes
the logical lines as it reads, a long paragraph included; its pieces must join to
``unflow``'s text for any piece size, and a long paragraph must not come out whole.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift.sources.flowed import WHOLE_TEXT_CHARS, _unflow_lines, unflow, unflow_chunks

PIECES = st.sampled_from(["a", " ", ">", "> ", "-- ", "\n", "\r\n", "x ", "\n\n", ">>", " >", "  "])


@settings(max_examples=500, deadline=None)
@given(st.lists(PIECES, max_size=40).map("".join), st.booleans(), st.integers(1, 9))
def test_pieces_join_to_the_whole_text(text: str, delsp: bool, size: int) -> None:
    chunks = list(unflow_chunks(text, delsp, size))
    assert "".join(chunks) == unflow(text, delsp)
    assert all(chunks)


# Unquoted text: unflow's shortcut (soft breaks joined in place) against the line loop.
UNQUOTED = st.sampled_from(["a", "b ", " \n", "\n", "\n\n", "x  ", "-", "- ", ">", " ", "\r"])


@settings(max_examples=1000, deadline=None)
@given(st.lists(UNQUOTED, max_size=30).map("".join), st.booleans())
def test_unquoted_text_is_unwrapped_as_the_line_loop_does(text: str, delsp: bool) -> None:
    assert unflow(text, delsp) == "".join(unflow_chunks(text, delsp))


def test_unquoted_shortcut_shapes() -> None:
    assert unflow("a \nb \n\nc  \n") == "a b \nc  \n"
    assert unflow("a \nb \n\nc  \n", delsp=True) == "ab\nc \n"
    assert unflow("a  \n\n", delsp=True) == "a \n"
    assert unflow("soft \n-- \nsig", delsp=True) == "soft\n-- \nsig"  # the loop's way


def test_known_shapes() -> None:
    text = "> quoted soft \n> end\n >stuffed\nplain soft \nend\n-- \nsig\n"
    assert unflow(text) == "> quoted soft end\n >stuffed\nplain soft end\n-- \nsig\n"
    assert unflow("http://a.exa \nmple/x\n", delsp=True) == "http://a.example/x\n"


def test_a_long_paragraph_goes_out_in_pieces() -> None:
    text = "word \U0001f600 soft \n" * 20_000 + "end\n"
    chunks = list(unflow_chunks(text, chunk_chars=1 << 12))
    assert len(chunks) > 50
    assert max(map(len, chunks)) < 1 << 13
    assert "".join(chunks) == unflow(text)
    assert unflow(text).count("\n") == 1  # one logical line


# Quoted text up to WHOLE_TEXT_CHARS: unflow's list of lines (_unflow_lines) against the
# streaming loop; a longer text is unflow_chunks' own.
@settings(max_examples=500, deadline=None)
@given(st.lists(PIECES, max_size=60).map("".join), st.booleans())
def test_the_line_list_gives_the_streaming_loops_text(text: str, delsp: bool) -> None:
    assert _unflow_lines(text, delsp) == "".join(unflow_chunks(text, delsp))


def test_a_text_longer_than_a_whole_text_is_streamed() -> None:
    text = "> quoted soft \n> end\n" * (WHOLE_TEXT_CHARS // 10)
    assert len(text) > WHOLE_TEXT_CHARS
    assert (
        unflow(text)
        == "".join(unflow_chunks(text))
        == "> quoted soft end\n" * (WHOLE_TEXT_CHARS // 10)
    )
