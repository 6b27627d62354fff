"""Tests for the streaming mbox / MMDF splitter (urlsift.sources.mbox)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift._model import Defect
from urlsift._record import replace
from urlsift.sources.mbox import (
    _ENVELOPE,
    MAX_SEPARATOR_LINE,
    MboxSplitter,
    RawMessage,
    is_envelope_line,
    unquote_from_lines,
)

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "mail"
TWO = (CORPUS / "two-messages.mbox").read_bytes()
MMDF = (CORPUS / "real-ietf-mailbox.mmdf").read_bytes()


def split(data: bytes, sizes: Iterator[int] | None = None, **kwargs: int) -> list[RawMessage]:
    splitter = MboxSplitter(**kwargs)  # type: ignore[arg-type]
    out: list[RawMessage] = []
    if sizes is None:
        out += splitter.feed(data)
    else:
        pos = 0
        while pos < len(data):
            n = next(sizes)
            out += splitter.feed(data[pos : pos + n])
            pos += n
    out += splitter.close()
    return out


def ones() -> Iterator[int]:
    while True:
        yield 1


def randoms(seed: int) -> Iterator[int]:
    rng = random.Random(seed)
    while True:
        yield rng.choice([1, 2, 3, 5, 8, 64, 1000, 4096])


def key(messages: list[RawMessage]) -> list[tuple[int, int, bytes, bytes, tuple[str, ...]]]:
    return [
        (m.number, m.offset, m.envelope, m.data, tuple(d.code for d in m.defects)) for m in messages
    ]


def test_two_messages_offsets_and_numbers() -> None:
    messages = split(TWO)
    assert [m.number for m in messages] == [1, 2]
    for m in messages:
        assert TWO[m.offset : m.offset + 5] == b"From "
        assert TWO[m.offset :].startswith(m.envelope)
    assert messages[0].envelope == b"From alice@example.com Thu Sep 13 12:30:05 2001"
    assert messages[1].envelope == b"From bob@example.com Sat Sep  1 20:58 EDT 2001"


def test_from_in_body_does_not_split_and_quotes_are_undone() -> None:
    first = split(TWO)[0]
    assert b"\nFrom here on the line was quoted by mboxrd.\n" in first.data
    assert b"\n>From a doubly quoted line.\n" in first.data
    # a From_-like line not after an empty line stays in the body, reported once
    assert b"\nFrom a line in the body that is not a separator" in first.data
    assert [d.code for d in first.defects] == ["mbox-from-in-body"]
    # the empty line before the next separator belongs to the separator
    assert first.data.endswith(b"Thu Sep 13 12:30:05 2001\n")


def test_body_line_after_empty_line_that_is_no_envelope_does_not_split() -> None:
    data = b"From a@b Mon Jan  1 00:00:00 2001\nSubject: x\n\nhello\n\nFrom my point of view.\n"
    (only,) = split(data)
    assert only.data.endswith(b"\n\nFrom my point of view.\n")


@pytest.mark.parametrize(
    "line",
    [
        b"From alice@example.com Thu Sep 13 12:30:05 2001",
        b"From david@coppit.org Sat Sep  1 20:58 EDT 2001",
        b"From user at example.org  Mon Apr 29 00:00:00 2019",
        b"From - Sat Jan  3 01:05:34 1996",
        b"From MAILER-DAEMON Fri Jul  8 12:08:34 2011 +0000",
    ],
)
def test_envelope_lines(line: bytes) -> None:
    assert is_envelope_line(line)


@pytest.mark.parametrize(
    "line",
    [b"From my point of view", b"From: header", b">From x Thu Sep 13 12:30:05 2001", b"From 12:30"],
)
def test_not_envelope_lines(line: bytes) -> None:
    assert not is_envelope_line(line)


def test_unquote_from_lines() -> None:
    assert unquote_from_lines(b">From a\n>>From b\n> From c\nx>From d\n") == (
        b"From a\n>From b\n> From c\nx>From d\n"
    )


# The mboxrd rule as one substitution: the reference unquote_from_lines is held to.
_QUOTED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)
_QUOTING_WORDS = [b">", b">>", b"From ", b"From", b"F", b"x", b" ", b"\n", b"\r\n", b">From "]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_QUOTING_WORDS), max_size=16).map(b"".join))
def test_unquote_from_lines_is_the_substitution(data: bytes) -> None:
    assert unquote_from_lines(data) == _QUOTED_FROM.sub(rb"\1", data)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "data",
    [b">From " * 200_000, b">" * (1 << 20) + b"From ", b">From x\n" * 100_000, b"\n>" * 500_000],
)
def test_unquote_from_lines_reads_each_line_once(data: bytes) -> None:
    # many ">From " on one line, a long run of ">", many quoted lines: each line read a
    # bounded number of times
    assert unquote_from_lines(data) == _QUOTED_FROM.sub(rb"\1", data)


def test_crlf_mbox() -> None:
    crlf = TWO.replace(b"\n", b"\r\n")
    messages = split(crlf)
    assert len(messages) == 2
    for m in messages:
        assert crlf[m.offset : m.offset + 5] == b"From "
    assert messages[0].data.endswith(b"2001\r\n")
    assert b"\r\nFrom here on" in messages[0].data


@pytest.mark.parametrize("sizes", ["ones", "random1", "random2", "random3"])
@pytest.mark.parametrize("name", ["two-messages.mbox", "real-linux-mips-1997-excerpt.mbox"])
def test_chunking_does_not_change_results(name: str, sizes: str) -> None:
    data = (CORPUS / name).read_bytes()
    for variant in (data, data.replace(b"\n", b"\r\n")):
        whole = split(variant)
        feeder = ones() if sizes == "ones" else randoms(int(sizes[-1]))
        assert key(split(variant, feeder)) == key(whole)


def test_mmdf() -> None:
    messages = split(MMDF)
    assert [m.number for m in messages] == [1, 2]
    for m in messages:
        assert MMDF[m.offset - 5 : m.offset] == b"\x01\x01\x01\x01\n"
        assert m.data.startswith(b"Received: ")
        assert m.envelope == b""
        assert m.defects == ()
    assert key(split(MMDF, ones())) == key(messages)


def test_text_before_first_separator_is_a_message_with_defect() -> None:
    data = b"stray text\n\n" + TWO
    messages = split(data)
    assert len(messages) == 3
    assert messages[0].data == b"stray text\n"
    assert [d.code for d in messages[0].defects] == ["missing-separator"]
    assert messages[1].offset == len(b"stray text\n\n")


def test_blank_lines_before_first_separator_are_ignored() -> None:
    messages = split(b"\n\n" + TWO)
    assert len(messages) == 2
    assert messages[0].offset == 2


def test_empty_input() -> None:
    assert split(b"") == []
    assert split(b"\n\n\n") == []


def test_last_message_without_final_newline() -> None:
    data = b"From a@b Mon Jan  1 00:00:00 2001\nSubject: x\n\nno newline at end"
    (only,) = split(data)
    assert only.data.endswith(b"no newline at end")
    assert key(split(data, ones())) == key([only])


def test_truncation_at_cap() -> None:
    big = b"From a@b Mon Jan  1 00:00:00 2001\nSubject: big\n\n" + b"x" * 5000 + b"\n"
    data = big + b"\n" + TWO
    messages = split(data, randoms(7), max_message_bytes=1000)
    assert len(messages) == 3
    assert messages[0].truncated
    assert len(messages[0].data) == 1000
    assert messages[0].size > 5000
    assert "message-truncated" in [d.code for d in messages[0].defects]
    assert not messages[1].truncated
    assert data[messages[1].offset : messages[1].offset + 5] == b"From "


def test_long_lines_are_not_held_back() -> None:
    # A line starting "From " that never ends is flushed once it is too long to be a
    # separator; memory stays bounded by the cap.
    splitter = MboxSplitter(max_message_bytes=10_000)
    splitter.feed(b"From a@b Mon Jan  1 00:00:00 2001\n\n")
    splitter.feed(b"From ")
    for _ in range(1000):
        splitter.feed(b"y" * 100)
        assert splitter.buffered_bytes <= 10_000 + MAX_SEPARATOR_LINE
    (only,) = splitter.close()
    assert only.truncated


def test_memory_is_bounded_by_one_message() -> None:
    # A generator-backed archive of 2000 messages (~7 MB) fed in small blocks: the
    # splitter never holds more than the current message plus one held-back line.
    body = b"line of text http://example.com/ " * 100 + b"\n"

    def archive() -> Iterator[bytes]:
        for n in range(2000):
            yield b"From a@b Mon Jan  1 00:00:00 2001\nSubject: %d\n\n" % n
            yield body
            yield b"\n"

    splitter = MboxSplitter()
    message_size = len(b"Subject: 0000\n\n") + len(body)
    high = 0
    count = 0
    pending = b""
    for piece in archive():
        pending += piece
        while len(pending) >= 4096:
            count += len(splitter.feed(pending[:4096]))
            pending = pending[4096:]
            high = max(high, splitter.buffered_bytes)
    count += len(splitter.feed(pending)) + len(splitter.close())
    assert count == 2000
    assert high <= message_size + 4096 + MAX_SEPARATOR_LINE


def test_feed_after_close_is_a_caller_error() -> None:
    splitter = MboxSplitter()
    splitter.close()
    with pytest.raises(ValueError, match="after close"):
        splitter.feed(b"x")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000), st.integers(min_value=1, max_value=64))
def test_random_bytes_never_raise_and_chunking_is_invariant(data: bytes, size: int) -> None:
    whole = split(data)
    chunked = split(data, iter(lambda: size, None))
    assert key(chunked) == key(whole)
    assert [m.number for m in whole] == list(range(1, len(whole) + 1))
    for m in whole:
        assert 0 <= m.offset <= len(data)


_LINES = st.sampled_from(
    [
        b"From a@b Mon Jan  1 00:00:00 2001\n",
        b"From a@b Mon Jan  1 00:00:00 2001\r\n",
        b"\x01\x01\x01\x01\n",
        b"\n",
        b"\r\n",
        b">From x\n",
        b"From x\n",
        b"Subject: s\n",
        b"text http://x.y/\n",
        b"From ",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=40), st.integers(min_value=1, max_value=16))
def test_mbox_shaped_input_chunking_is_invariant(lines: list[bytes], size: int) -> None:
    data = b"".join(lines)
    whole = split(data)
    assert key(split(data, iter(lambda: size, None))) == key(whole)
    if whole and not data.startswith(b"\x01\x01\x01\x01"):
        for m in whole:
            if m.envelope:
                assert data[m.offset : m.offset + 5] == b"From "


def test_quoted_from_lines_in_some_messages_only() -> None:
    # ">From " unquoting is skipped for messages that cannot hold one; chunking must not
    # change which messages are unquoted.
    messages = [
        b"From a@b Sat Jan  1 10:00:00 2001\nSubject: %d\n\n%s\n\n" % (i, body)
        for i, body in enumerate(
            [b"plain", b">From the start\n>>From deeper", b"x >From mid-line", b"plain", b">From "]
        )
    ]
    data = b"".join(messages)
    whole = split(data)
    assert [m.data.split(b"\n\n", 1)[1] for m in whole] == [
        b"plain\n",
        b"From the start\n>From deeper\n",
        b"x >From mid-line\n",
        b"plain\n",
        b"From \n",
    ]
    for sizes in (ones(), randoms(4), randoms(5)):
        assert key(split(data, sizes)) == key(whole)
    assert key(split(data.replace(b"\n", b"\r\n"), randoms(6))) == key(
        split(data.replace(b"\n", b"\r\n"))
    )


_STAMP_PIECES = [b"From ", b"1", b"12", b"123", b"2001", b"20011", b":", b":30", b"9:5", b" "]
_STAMP_PIECES += [b"a", b"Z", b"_", b"-", b"\n", b"\r", b"\xe9", b"\x00"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_STAMP_PIECES)))
def test_envelope_stamp_is_both_searches(pieces: list[bytes]) -> None:
    # is_envelope_line's two patterns start at the colon and at a digit, with the word
    # boundary as a look-behind: the same answer as the rule written with \b.
    line = b"From " + b"".join(pieces)
    both = re.search(rb"\b\d{1,2}:\d\d\b", line[5:]) is not None and (
        re.search(rb"\b\d{4}\b", line[5:]) is not None
    )
    # the searches start at 5 with "From " before, so a word boundary there is the same
    assert is_envelope_line(line) == (both and len(line) <= MAX_SEPARATOR_LINE)


# A reference splitter written from the module notes' rules, over the whole input at once
# (mbox only): what MboxSplitter must give whatever the blocks, its one-step separators
# and its long way alike.


def _follows_empty(data: bytes, at: int) -> bool:
    return (b"\n\n" + data[max(0, at - 3) : at]).endswith((b"\n\n", b"\n\r\n"))


def reference_split(data: bytes, cap: int = 1 << 30) -> list[RawMessage]:
    cuts: list[tuple[int, int, int, bytes]] = []  # separator start, line end, offset, line
    line_start = 0
    while line_start < len(data):
        lf = data.find(b"\n", line_start)
        after = len(data) if lf < 0 else lf + 1
        line = data[line_start : after if lf < 0 else lf]
        line = line[:-1] if line.endswith(b"\r") else line
        if is_envelope_line(line):
            cuts.append((line_start, after, line_start, line))
        line_start = after
    out: list[RawMessage] = []
    opened = (0, 0, b"", False)  # body start, offset, envelope, opened by a separator
    from_in_body = 0

    def close(end: int) -> None:
        begin, offset, envelope, started = opened
        raw = data[begin:end]
        truncated = len(raw) > cap
        kept = raw[:cap] if truncated else raw
        if not truncated and kept.endswith(b"\n\n"):
            kept = kept[:-1]
        elif not truncated and kept.endswith(b"\r\n\r\n"):
            kept = kept[:-2]
        if not started and not (kept and not kept.isspace()):
            return
        defects = []
        if not started:
            where = "From_ line"
            defects.append(
                Defect(
                    "missing-separator",
                    f"text before the first {where} read as a message",
                    "warning",
                )
            )
        if truncated:
            defects.append(
                Defect(
                    "message-truncated",
                    f"message of {len(raw)} bytes cut at {cap} bytes",
                    "warning",
                )
            )
        if from_in_body:
            defects.append(
                Defect(
                    "mbox-from-in-body",
                    f"{from_in_body} From_-like line(s) not after an empty line "
                    "were read as body text",
                    "warning",
                )
            )
        out.append(
            RawMessage(
                len(out) + 1,
                offset,
                unquote_from_lines(kept),
                envelope,
                len(raw),
                truncated,
                tuple(defects),
            )
        )

    for start, after, offset, line in cuts:
        if _follows_empty(data, start):
            close(start)
            opened, from_in_body = (after, offset, line, True), 0
        else:
            from_in_body += 1
    close(len(data))
    return out


_LONG = b"From a@b Mon Jan  1 00:00:00 2001 "
_SHAPES = st.sampled_from(
    [
        b"From a@b Mon Jan  1 00:00:00 2001\n",
        b"From a@b Mon Jan  1 00:00:00 2001\r\n",
        b"From a@b Mon Jan  1 00:00:00 2001\r\r\n",  # a CR left on the envelope
        b"From 12:30 2001\n",
        b"From my point of view\n",  # after an empty line, and no envelope
        b"From 12:30\n",
        b"From 2001 x 1:30x\n",
        b">From x\n",
        b">>From y\n",
        b"a >From b\n",
        b"\n",
        b"\r\n",
        b"\r",
        b"Subject: s\n",
        b"text http://x.y/\n",
        b"From ",
        b">From ",
        b"\x01\x01\x01\x01\n",
    ]
    # envelope lines about MAX_SEPARATOR_LINE long, with and without their CR
    + [
        _LONG + b"x" * (MAX_SEPARATOR_LINE - len(_LONG) + extra) + end
        for extra in (-1, 0, 1)
        for end in (b"\n", b"\r\n")
    ]
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(_SHAPES, max_size=40),
    st.sampled_from([1, 2, 3, 7, 64, 1023, 1024, 1025, 1026, 4096, 1 << 20]),
    st.sampled_from([0, 1, 30, 60, 1000, 5000, 1 << 20]),
)
def test_splitter_is_the_reference(lines: list[bytes], size: int, cap: int) -> None:
    data = b"".join(lines)
    if data.startswith(b"\x01\x01\x01\x01"):
        data = b"\n" + data
    expected = reference_split(data, cap)
    assert split(data, max_message_bytes=cap) == expected
    assert split(data, iter(lambda: size, None), max_message_bytes=cap) == expected
    assert split(data, randoms(size), max_message_bytes=cap) == expected


def _message(number: int, body: bytes = b"text\n", end: bytes = b"\n") -> bytes:
    return (
        b"From a@b Mon Jan  1 00:00:%02d 2001%sSubject: %d%s%s%s"
        % (number, end, number, end, end, body.replace(b"\n", end))
    ) + end


_ENVELOPE_CR = _LONG + b"x" * (MAX_SEPARATOR_LINE - len(_LONG)) + b"\r\n"


@pytest.mark.parametrize(
    ("data", "blocks", "cap", "long_ways"),
    [
        # the first separator is read the long way, the others in one step
        (_message(1) + _message(2) + _message(3), None, 1 << 20, 1),
        # CR LF line ends: in one step too; an empty line of mixed ends the long way
        ((_message(1) + _message(2) + _message(3)).replace(b"\n", b"\r\n"), None, 1 << 20, 1),
        (_message(1)[:-1] + b"\r\n" + _message(2) + _message(3), None, 1 << 20, 2),
        # a message of one empty CR LF line: the long way (its final empty line is not
        # in it)
        (_message(1) + _message(2)[:34] + b"\r\n" + _message(3), None, 1 << 20, 2),
        # a message holding a ">From " to unquote
        (_message(1, b">From here\n") + _message(2) + _message(3), None, 1 << 20, 2),
        # a message over the cap (messages are 18 bytes with their empty line, 25 with
        # the long body)
        (_message(1) + _message(2, b"a long body\n") + _message(3), None, 20, 2),
        (_message(1) + _message(2) + _message(3), None, 18, 1),
        (_message(1) + _message(2) + _message(3), None, 17, 3),
        # a message across a block end, and a separator at a block's start
        (_message(1) + _message(2) + _message(3), iter([70, 1 << 20]), 1 << 20, 2),
        (_message(1) + _message(2) + _message(3), iter([len(_message(1)), 1 << 20]), 1 << 20, 2),
        # an envelope-shaped line not after an empty line: counted the long way, and its
        # message closed the long way (it has a defect)
        (_message(1) + _message(2, b"x\nFrom a 12:30 2001\n") + _message(3), None, 1 << 20, 3),
        # no envelope after an empty line: no separator at all
        (
            _message(1) + _message(2, b"x\n\nFrom my point of view\n") + _message(3),
            None,
            1 << 20,
            1,
        ),
        # an envelope line the one-step match does not take (MAX_SEPARATOR_LINE with its CR)
        (_message(1) + b"\n" + _ENVELOPE_CR + b"x\n\n" + _message(3), None, 1 << 20, 2),
    ],
)
def test_one_step_separators_and_the_long_way(
    data: bytes, blocks: Iterator[int] | None, cap: int, long_ways: int
) -> None:
    calls = []
    separator = MboxSplitter._separator

    def counted(self: MboxSplitter, *arguments: Any) -> int:
        calls.append(arguments[2])
        return separator(self, *arguments)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MboxSplitter, "_separator", counted)
        assert split(data, blocks, max_message_bytes=cap) == reference_split(data, cap)
    assert len(calls) == long_ways


@pytest.mark.parametrize("cap", range(22, 29))
def test_one_step_message_at_the_cap(cap: int) -> None:
    # message 2 is 25 bytes with its empty line: cut at caps up to 24, whole from 25
    data = _message(1) + _message(2, b"a long body\n") + _message(3)
    messages = split(data, max_message_bytes=cap)
    assert messages == reference_split(data, cap)
    assert len(_message(2, b"a long body\n")) == len(b"From a@b Mon Jan  1 00:00:02 2001\n") + 25
    assert messages[1].truncated == (cap < 25)


def test_a_partial_line_of_a_separator_s_length_is_held_back() -> None:
    # An envelope line of MAX_SEPARATOR_LINE bytes (or one more with its CR) split at a
    # block's end is read whole; once it is longer it is no separator.
    for end in (b"\n", b"\r\n"):
        for extra in (0, 1):
            line = _LONG + b"x" * (MAX_SEPARATOR_LINE - len(_LONG) + extra) + end
            data = _message(1) + line + b"Subject: s\n\nbody\n"
            for cut in range(len(data) - len(end) - 3, len(data) - len(end) + 2):
                sizes = iter([cut, 1 << 20])
                assert split(data, sizes) == split(data) == reference_split(data)
            assert len(split(data)) == (1 if extra else 2)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_STAMP_PIECES)), st.sampled_from([b"\n", b"\r\n", b""]))
def test_one_step_envelope_match_is_the_envelope_rule(pieces: list[bytes], end: bytes) -> None:
    # _ENVELOPE takes a line (with its LF) exactly when is_envelope_line takes it as the
    # splitter cuts it (one CR removed), bar one CR too long for MAX_SEPARATOR_LINE.
    line = b"From " + b"".join(pieces).replace(b"\n", b"")
    for length in (len(line), MAX_SEPARATOR_LINE - 1, MAX_SEPARATOR_LINE):
        padded = line + b"y" * (length - len(line))
        data = padded + end + (b"rest" if end else b"")
        cut = padded if end == b"\r\n" else padded.removesuffix(b"\r")
        short = len(padded + end) <= MAX_SEPARATOR_LINE + 1
        expected = bool(end) and is_envelope_line(cut) and short
        assert (_ENVELOPE.match(data) is not None) == expected


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.integers(min_value=1, max_value=64))
def test_random_bytes_split_as_the_reference(data: bytes, size: int) -> None:
    if data.startswith(b"\x01\x01\x01\x01"):
        data = b"\n" + data
    assert split(data, iter(lambda: size, None)) == reference_split(data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_LINES, st.sampled_from([b">>From y\n", b"a >From b\n"])), max_size=40))
def test_messages_are_unquoted_whenever_they_hold_a_quoted_from(lines: list[bytes]) -> None:
    # The splitter unquotes only the messages where its one search for "From " saw a
    # ">From "; unquoting every message (the reference) must give the same messages.
    data = b"".join(lines)
    if not data.startswith(b"\x01\x01\x01\x01"):
        assert split(data) == reference_split(data)


@pytest.mark.parametrize(
    ("ending", "kept"),
    [(b"\n\n", b"\n"), (b"\r\n\r\n", b"\r\n"), (b"\r\n\r\n\n", b"\r\n\r\n"), (b"\r\n\n", b"\r\n")],
)
def test_one_final_empty_line_belongs_to_the_separator(ending: bytes, kept: bytes) -> None:
    data = b"From a@b Mon Jan  1 00:00:00 2001\nx" + ending + _message(2)
    for sizes in (None, ones()):
        first = split(data, sizes)[0]
        assert first.data == b"x" + kept
        assert first == reference_split(data)[0]


@pytest.mark.parametrize("offset", [0, 1, 123_456_789])
def test_an_offset_counts_the_messages_from_the_file_start(offset: int) -> None:
    # A range read from ``offset``: the same messages, their offsets moved by it.
    data = b"From a\nx\n\nFrom b\ny\n>From c\n\nFrom d\n" * 3
    plain = MboxSplitter(max_message_bytes=12, mbox_format="mbox")
    moved = MboxSplitter(max_message_bytes=12, mbox_format="mbox", offset=offset)
    expected = [*plain.feed(data[:9]), *plain.feed(data[9:]), *plain.close()]
    got = [*moved.feed(data[:9]), *moved.feed(data[9:]), *moved.close()]
    assert [replace(raw, offset=raw.offset + offset) for raw in expected] == got
    assert moved.bytes_fed == len(data)
