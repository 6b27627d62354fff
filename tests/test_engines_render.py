"""Workers write their items' URLs (urlsift.engines.render): the same bytes as one process.

``-j 2`` runs here with small batches, so that archives among several paths are cut into
ranges and most ranges start past their file's first message (their message numbers are
written between marks and filled in by the parent). Every output format, with the options
that change what is written or reported, is compared byte for byte with the one-process
output (stdout and stderr, and the exit status).
"""

from __future__ import annotations

import functools
import gzip
import io
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from _output import command_bytes
from urlsift._model import MessageContext, Url
from urlsift.cli import main
from urlsift.engines import processes
from urlsift.engines.plan import RangeItem
from urlsift.engines.render import (
    MARK_OPEN,
    LocalNumber,
    Numbered,
    Rendered,
    RenderSpec,
    finish,
    render,
)
from urlsift.engines.runner import ScanConfig, iter_results
from urlsift.engines.work import Merger, run_item, shift
from urlsift.output.formats import make_writer
from urlsift.sources.reading import ArchiveStats

BATCH = 7_001  # bytes per range: not a message boundary


def _archive(count: int, tag: str, odd: int = 0) -> bytes:
    out = []
    undecodable = "a bad byte \udcff at http://x.example/\udcff"  # written back as read
    for n in range(1, count + 1):
        subject = f"{tag} {n}"
        if odd and n == odd:  # the marks' own character, in a header the output shows
            subject += " \ufdd0 12 \ufdd1"
        charset = "x-nonsense" if n % 17 == 0 else "utf-8"  # a source defect now and then
        out.append(
            f"From s{n}@example.org Thu Sep 13 12:30:05 2001\n"
            f"From: s{n}@example.org\nSubject: {subject}\nMessage-ID: <{tag}{n}@x>\n"
            f"MIME-Version: 1.0\nContent-Type: text/plain; charset={charset}\n\n"
            f"see http://{tag}{n}.example/a and <URL:ftp://f{n}.example/b-\nc>\n"
            f"and <URL:http://{tag}{n}.example/a{{b}}> (invalid)\n"
            f"{undecodable if n % 23 == 0 else ''}\n\n".encode("utf-8", "surrogateescape")
        )
    return b"".join(out)


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    root = tmp_path_factory.mktemp("render")
    first = root / "first.mbox"
    first.write_bytes(_archive(120, "one", odd=97))
    second = root / "second.mbox.gz"
    second.write_bytes(gzip.compress(_archive(90, "two"))[:-40])  # truncated: a read error
    notes = root / "notes.txt"
    notes.write_text("see http://notes.example/ and http://x/{y}\n", encoding="utf-8")
    return [str(first), str(notes), str(second), str(root / "missing")]


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    # The pool's own cuts, smaller: the runner imports it when -j asks for it.
    original = processes.iter_results_parallel
    monkeypatch.setattr(
        processes,
        "iter_results_parallel",
        functools.partial(original, batch_bytes=BATCH, batch_messages=5),
    )


OPTIONS = [[], ["--invalid-only"], ["--check"], ["-v"], ["--invalid-only", "-v", "--check"]]


@pytest.mark.usefixtures("small_batches")
@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
@pytest.mark.parametrize("options", OPTIONS, ids=" ".join)
def test_j2_writes_what_one_process_writes(paths: list[str], fmt: str, options: list[str]) -> None:
    runner = CliRunner()
    local = runner.invoke(main, ["scan", "--format", fmt, *options, *paths])
    pooled = runner.invoke(main, ["scan", "--format", fmt, "-j", "2", *options, *paths])
    assert local.exit_code == 2  # the missing path and the truncated archive
    assert "charset" in local.output  # the summary's defects (and -v's lines)
    assert pooled.output == local.output
    assert pooled.exit_code == local.exit_code


def test_the_pool_sends_rendered_pieces_and_records_where_it_must(paths: list[str]) -> None:
    # The run above is not the old path in disguise: ranges past their file's start come
    # back rendered, with their numbers filled in; the URLs of message 97, whose subject
    # holds the marks' own character, come back as records inside their piece, and so do
    # those whose JSON line is escaped for an undecodable byte.
    spec = RenderSpec("jsonl")
    stream = list(
        processes.iter_results_parallel(
            paths,
            ScanConfig(),
            stats=ArchiveStats(),
            jobs=2,
            batch_bytes=BATCH,
            batch_messages=5,
            render=spec,
        )
    )
    pieces = [item for item in stream if isinstance(item, Rendered)]
    records = [p for piece in pieces for p in piece.parts if isinstance(p, Url)]
    assert len(pieces) > 5
    assert sum(piece.invalid for piece in pieces) > 100
    assert not any(piece.local for piece in pieces)
    odd = [r for r in records if isinstance(r, Url) and "\ufdd0" in str(r.context.subject)]
    assert odd  # message 97 is not in the file's first range
    assert {r.context.message for r in odd} == {97}
    assert any("\udcff" in r.url for r in records)
    assert sum(piece.urls for piece in pieces) > 10 * len(records)
    assert not any(isinstance(p, str | Numbered) for piece in pieces for p in piece.parts)
    text = b"".join(p for piece in pieces for p in piece.parts if isinstance(p, bytes))
    assert b'"message": 60,' in text  # a number past the first range, filled in
    assert MARK_OPEN.encode() not in text


def _written(records: list[Any], fmt: str) -> str:
    out = io.StringIO()
    writer = make_writer(fmt, out)
    out.seek(0)
    out.truncate()
    for record in records:
        if isinstance(record, Url):
            writer.write(record)
        elif isinstance(record, bytes):
            out.write(record.decode("utf-8", "surrogateescape"))
        elif isinstance(record, str):
            out.write(record)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
def test_a_range_rendered_with_local_numbers_then_finished(paths: list[str], fmt: str) -> None:
    # One range past the start of the file: rendered with its local numbers, then given
    # the count of the earlier ranges' messages, it is the text of the shifted records.
    config = ScanConfig()
    ranges = [RangeItem(paths[0], 0, 3_000), RangeItem(paths[0], 3_000, 20_000)]  # not 97
    merger = Merger()
    group = merger.group(ranges[0])
    first = run_item(ranges[0], config, ArchiveStats())
    assert merger.advance(ranges[0], group, first.messages, False) == 0
    second = run_item(ranges[1], config, ArchiveStats())
    base = merger.advance(ranges[1], merger.group(ranges[1]), second.messages, False)
    assert base == first.messages > 0
    piece = render(second.results, RenderSpec(fmt), local=True)
    assert piece.local
    done = finish(piece, base)
    urls = [r for r in second.results if isinstance(r, Url)]
    assert done.urls == len(urls)
    expected = _written([shift(r, base) for r in urls], fmt)
    assert _written(list(done.parts), fmt) == expected


def test_a_url_whose_text_holds_a_mark_travels_as_the_record(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("see http://a.example/\n", encoding="utf-8")
    (url,) = [r for r in iter_results([str(notes)]) if isinstance(r, Url)]
    context = MessageContext(message=3, message_offset=0, subject="odd \ufdd0 one")
    marked = replace(url, context=context)
    assert render([marked], RenderSpec("jsonl"), local=True).parts == (marked,)
    assert finish(render([marked], RenderSpec("jsonl"), local=True), 10).parts == (
        shift(marked, 10),
    )
    plain = render([marked], RenderSpec("jsonl"), local=False)
    (line,) = plain.parts
    assert isinstance(line, bytes)
    assert "\ufdd0".encode() in line
    clean = replace(url, context=replace(context, subject="fine"))
    piece = render([clean], RenderSpec("text"), local=True)
    assert piece.parts == (Numbered((f"{notes}#".encode(), b"/1:1:5: http://a.example/\n"), (3,)),)
    assert finish(piece, 10).parts == (f"{notes}#13/1:1:5: http://a.example/\n".encode(),)


def test_local_numbers_are_written_between_marks() -> None:
    assert f"{LocalNumber(5)}" == str(LocalNumber(5)) == "\ufdd05\ufdd1"
    assert f"{LocalNumber(5):03d}" == "005"
    assert LocalNumber(5) + 2 == 7
    assert type(LocalNumber(5) + 2) is int


def _template(tmp_path: Path) -> Url:
    notes = tmp_path / "notes.txt"
    notes.write_text("see http://a.example/\n", encoding="utf-8")
    (url,) = [r for r in iter_results([str(notes)]) if isinstance(r, Url)]
    return url


def test_text_is_sent_as_the_output_encodes_it(tmp_path: Path) -> None:
    # Undecodable input bytes (lone surrogates) go out as those bytes, as the command's
    # stream writes them; a surrogate no byte stands for stays a string for that stream.
    url = replace(_template(tmp_path), url="http://a.example/\udcff")
    (part,) = render([url], RenderSpec("text")).parts
    assert isinstance(part, bytes)
    assert part.endswith(b" http://a.example/\xff\n")
    odd = replace(url, url="http://a.example/\ud800")
    (kept,) = render([odd], RenderSpec("text")).parts
    assert isinstance(kept, str)
    assert kept.endswith(" http://a.example/\ud800\n")


def test_undecodable_bytes_that_look_like_a_mark_do_not_cut_the_text(tmp_path: Path) -> None:
    # The marks in UTF-8 are EF B7 90 and EF B7 91: as a text's undecodable bytes (lone
    # surrogates) they encode back to the marks' bytes; the text is cut at its real marks.
    fake_open, fake_close = "\udcef\udcb7\udc90", "\udcef\udcb7\udc91"
    template = _template(tmp_path)
    context = MessageContext(message=2, message_offset=0)
    urls = [
        replace(template, url=f"http://a.example/{fake_open}7{fake_close}", context=context),
        replace(template, url="http://b.example/", context=context),
    ]
    for fmt in ("text", "csv"):  # (JSON Lines escapes surrogates: such a URL is a record)
        piece = render(urls, RenderSpec(fmt), local=True)
        (part,) = piece.parts
        assert isinstance(part, Numbered)
        assert part.numbers == (2, 2)
        (done,) = finish(piece, 40).parts
        assert isinstance(done, bytes)
        expected = _written([shift(u, 40) for u in urls], fmt)
        assert done == expected.encode("utf-8", "surrogateescape")  # what the stream writes


def test_the_command_copies_bytes_only_to_a_stream_that_encodes_as_the_workers() -> None:
    from urlsift.cli.scan import _bytes_writer

    piece = "café \udcff\n".encode("utf-8", "surrogateescape")
    same = io.BytesIO()
    out = io.TextIOWrapper(same, encoding="UTF8", errors="surrogateescape", newline="")
    out.write("first ")
    _bytes_writer(out)(piece)  # after what the stream held
    out.flush()
    assert same.getvalue() == b"first " + piece
    text = io.StringIO()  # no buffer: the text, decoded
    _bytes_writer(text)(piece)
    assert text.getvalue() == "café \udcff\n"
    other = io.BytesIO()  # another encoding: the stream's own writing
    latin = io.TextIOWrapper(other, encoding="latin-1", errors="replace", newline="")
    _bytes_writer(latin)("café\n".encode())
    latin.flush()
    assert other.getvalue() == "café\n".encode("latin-1")


_ODD = st.sampled_from(["\ufdd0", "\ufdd1", "\udcef\udcb7\udc90", "\udcef\udcb7\udc91", "\udcff",
                        "\ud800", "7", "é", '"', ",", "\n", " "])  # fmt: skip
_TEXT = st.lists(st.one_of(_ODD, st.text(max_size=3)), max_size=6).map("".join)


def _stream_bytes(parts: list[Any], fmt: str) -> bytes | None:
    # What the command's output stream holds after these records or pieces (None: the
    # stream could not encode them, as one process could not either).
    try:
        return command_bytes(parts, fmt)
    except UnicodeEncodeError:
        return None


@settings(max_examples=300, deadline=None)
@given(
    fmt=st.sampled_from(["text", "jsonl", "csv"]),
    urls=st.lists(st.tuples(_TEXT, _TEXT, st.integers(1, 40)), max_size=5),
    base=st.integers(0, 10**6),
)
def test_a_finished_range_writes_the_bytes_of_its_records_renumbered(
    fmt: str, urls: list[tuple[str, str, int]], base: int
) -> None:
    # Any URL text and subject (the marks' characters, undecodable bytes that encode as
    # them, a surrogate no byte stands for): rendered with local numbers, sent as bytes
    # or cut at its numbers, then finished, a range writes what its records renumbered
    # write through the command's stream.
    template = Url(
        url="http://a.example/", normalized="http://a.example/", alternatives=(), raw="",
        kind="bare", scheme="http", start=0, end=17, line=1, column=1, end_line=1,
        source="m.mbox",
    )  # fmt: skip
    records = [
        replace(
            template,
            url=f"http://a.example/{path}",
            context=MessageContext(message=number, message_offset=0, subject=subject),
        )
        for path, subject, number in sorted(urls, key=lambda u: u[2])
    ]
    done = finish(render(records, RenderSpec(fmt), local=True), base)
    assert not done.local
    assert not any(isinstance(part, Numbered) for part in done.parts)
    assert _stream_bytes(list(done.parts), fmt) == _stream_bytes(
        [shift(r, base) for r in records], fmt
    )
