"""The scanner's text buffer: offsets, line numbers and quote prefixes across discards."""

from __future__ import annotations

import ast
from pathlib import Path

from urlsift.extraction.textbuffer import TextBuffer

SRC = Path(__file__).resolve().parent.parent / "src" / "urlsift"


def _filled(*chunks: str, origin: tuple[int, int] = (0, 1)) -> TextBuffer:
    buffer = TextBuffer(origin)
    for chunk in chunks:
        buffer.add(chunk)
    buffer.flush()
    return buffer


def test_chunks_wait_until_flushed() -> None:
    buffer = TextBuffer((0, 1))
    assert buffer.add("ab") == 2
    assert buffer.add("cde") == 5
    assert buffer.text == ""
    assert buffer.flush() == "abcde"
    assert buffer.add("f") == 1
    assert buffer.flush() == "abcdef"
    buffer.clear()
    assert buffer.flush() == ""


def test_line_numbers_forward_and_back_from_an_origin() -> None:
    buffer = _filled("one\ntwo\nthree\n", origin=(100, 7))
    assert buffer.line_at(0) == (7, 100)
    assert buffer.line_at(9) == (9, 108)  # "h" of "three"
    assert buffer.line_at(5) == (8, 104)  # back to "w" of "two"
    assert buffer.line_at(13) == (9, 108)  # the last line break is still line 9's
    assert buffer.line_at(len(buffer.text)) == (10, 114)


def test_discard_keeps_a_near_line_start_and_moves_the_offsets() -> None:
    buffer = _filled("> quoted line\n> more http://x/ text\n")
    cut = buffer.text.index("http")
    dropped = buffer.discard(cut)
    # The line began 7 characters before the cut: it is kept whole.
    assert dropped == buffer.base == len("> quoted line\n")
    assert buffer.text.startswith("> more")
    line, start = buffer.line_at(cut - dropped)
    assert (line, start) == (2, dropped)
    assert buffer.quote_prefix(start, cut - dropped) == "> "


def test_a_long_line_keeps_its_quote_prefix_aside() -> None:
    line = ">> " + "a" * 400 + " http://x/\n"
    buffer = _filled(line, "next\n")
    cut = line.index("http")
    assert buffer.discard(cut) == cut  # too far from the line start to keep it
    assert not buffer.text.startswith(">")
    _, start = buffer.line_at(0)
    assert start == 0 < buffer.base
    assert buffer.quote_prefix(start, 0) == ">> "  # read before the text was dropped
    nxt = buffer.text.index("next")
    assert buffer.quote_prefix(buffer.line_at(nxt)[1], nxt) == ""


def test_a_quote_prefix_may_grow_until_enough_text_is_there() -> None:
    buffer = _filled("x\n>  ")
    assert buffer.prefix_undecided(2, final=False)
    assert not buffer.prefix_undecided(2, final=True)
    buffer.add(" " * 70)
    buffer.flush()
    assert not buffer.prefix_undecided(2, final=False)  # longer than any prefix
    assert not _filled("x\n> a").prefix_undecided(2, final=False)


def test_the_buffer_does_no_io() -> None:
    tree = ast.parse((SRC / "extraction" / "textbuffer.py").read_text(encoding="utf-8"))
    absolute = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
    }
    assert absolute <= {"__future__"}
