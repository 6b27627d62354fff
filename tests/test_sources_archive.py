"""Tests for kind detection, archive/folder reading and statistics (sources.archive)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift import _model
from urlsift.errors import ConfigError, SourceError
from urlsift.sources.archive import (
    DEFAULT_MAX_MESSAGE_BYTES,
    ArchiveStats,
    InputKind,
    MailOptions,
    detect_kind,
    open_units,
    sniff_kind,
)
from urlsift.sources.compress import sniff_compression

CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "mail"
SHARED = Path("/work/shared/corpora")

COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gz": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
}


def text(unit: _model.TextUnit) -> str:
    return "".join(unit.chunks)


def contexts(units: list[_model.TextUnit]) -> list[tuple[int, int, str, str]]:
    return [
        (u.context.message, u.context.message_offset, u.context.part, u.context.content_type)
        for u in units
        if u.context is not None
    ]


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("two-messages.mbox", "mbox"),
        ("real-linux-mips-1997-excerpt.mbox", "mbox"),
        ("real-ietf-mailbox.mmdf", "mbox"),
        ("qp-soft-break.eml", "mail"),
        ("real-ietf-mail-html.eml", "mail"),
        ("real-ietf-mail-with-url.eml", "mail"),
        ("real-ietf-latin1.mbox", "mbox"),
        ("hostile-headers.eml", "mail"),
        ("news-article.txt", "news"),
        ("plain.txt", "text"),
    ],
)
def test_detect_kind_of_files(name: str, kind: InputKind, tmp_path: Path) -> None:
    path = CORPUS / name
    assert detect_kind(str(path)) == kind
    for suffix, compress in COMPRESSORS.items():
        packed = tmp_path / f"{name}.{suffix}"
        packed.write_bytes(compress(path.read_bytes()))
        assert detect_kind(str(packed)) == kind


@pytest.mark.parametrize(
    ("prefix", "kind"),
    [
        (b"", "text"),
        (b"From my desk: hello\n", "text"),
        (b"From a@b Mon Jan  1 00:00:00 2001\n", "mbox"),
        (b"From a@b\nSubject: x\n\n", "mbox"),
        (b"\x01\x01\x01\x01\n", "mbox"),
        (b"Subject: hi\n\nbody", "mail"),
        (b"Received: from x\n  by y\nFrom: a\n\n", "mail"),
        (b"Note: not a mail header\n\n", "text"),
        (b" continuation first\nSubject: x\n", "text"),
        (b"Subject: x\nthis is no header\n", "text"),
        (b"Path: a!b\nNewsgroups: comp.x\nSubject: s\n\n", "news"),
        (b"Newsgroups: comp.x\nSubject: s\n\n", "mail"),
        (b"Subject: truncated header block, no end in sight", "mail"),
    ],
)
def test_sniff_kind(prefix: bytes, kind: InputKind) -> None:
    assert sniff_kind(prefix) == kind


def test_mbox_contexts_offsets_and_stats() -> None:
    path = CORPUS / "two-messages.mbox"
    data = path.read_bytes()
    stats = ArchiveStats()
    units = list(open_units(str(path), stats=stats))
    assert contexts(units) == [(1, 0, "1", "text/plain"), (2, 352, "1", "text/plain")]
    for unit in units:
        assert unit.source == str(path)
        assert unit.context is not None
        assert data[unit.context.message_offset :].startswith(b"From ")
    assert "<URL:http://two.example.com/path>" in text(units[1])
    assert stats.messages == 2
    assert stats.parts == 2
    assert stats.messages_with_defects == 1  # the From_-like line in the first body
    assert stats.bytes_read == stats.stored_bytes_read == len(data)
    assert stats.files == 1
    assert stats.summary() == "2 messages, 2 parts, 1 with defects"


@pytest.mark.parametrize("suffix", sorted(COMPRESSORS))
def test_compressed_archives_give_the_same_units(tmp_path: Path, suffix: str) -> None:
    source = CORPUS / "real-linux-mips-1997-excerpt.mbox"
    data = source.read_bytes()
    packed = tmp_path / f"archive.{suffix}"
    packed.write_bytes(COMPRESSORS[suffix](data))
    stats = ArchiveStats()
    plain = list(open_units(str(source)))
    unpacked = list(open_units(str(packed), stats=stats))
    assert [text(u) for u in unpacked] == [text(u) for u in plain]
    assert [u.context for u in unpacked] == [u.context for u in plain]
    for unit in unpacked:
        assert unit.context is not None
        assert data[unit.context.message_offset :].startswith(b"From ")
    assert stats.bytes_read == len(data)
    assert stats.stored_bytes_read == packed.stat().st_size


def test_committed_gzip_fixture_is_not_needed_for_text(tmp_path: Path) -> None:
    packed = tmp_path / "notes.txt.gz"
    packed.write_bytes(gzip.compress((CORPUS / "plain.txt").read_bytes()))
    (unit,) = open_units(str(packed))
    assert unit.context is None
    assert text(unit) == "Just text, no headers. http://plain-text.example.com/\n"


def test_crlf_mbox_through_open_units(tmp_path: Path) -> None:
    data = (CORPUS / "two-messages.mbox").read_bytes().replace(b"\n", b"\r\n")
    path = tmp_path / "crlf.mbox"
    path.write_bytes(data)
    units = list(open_units(str(path)))
    assert len(units) == 2
    assert text(units[0]).startswith("First body with http://one.example.com/\nFrom here on")
    assert "\r" not in text(units[0])
    for unit in units:
        assert unit.context is not None
        assert data[unit.context.message_offset :].startswith(b"From ")


def test_real_mmdf_excerpt() -> None:
    units = list(open_units(str(CORPUS / "real-ietf-mailbox.mmdf")))
    assert [u.context.message for u in units if u.context] == [1, 2]
    first = units[0]
    assert first.context is not None
    assert first.context.subject == "I-D ACTION:draft-ietf-uri-url-07.txt"
    assert "Uniform Resource Locators (URL)" in text(first)


def test_real_list_mail_excerpt() -> None:
    units = list(open_units(str(CORPUS / "real-linux-mips-1997-excerpt.mbox")))
    assert len(units) == 2
    joined = "\n".join(text(u) for u in units)
    assert "http://info.engr/linux/status.html" in joined
    assert "http://www.sgi.com/Products/hardware/servers/products/Network.html" in joined


def test_real_small_messages() -> None:
    (unit,) = open_units(str(CORPUS / "real-ietf-mail-with-url.eml"))
    assert "See http://www.example.com\n" in text(unit)
    (latin,) = open_units(str(CORPUS / "real-ietf-latin1.mbox"))
    # declared ISO-8859-1 but written in UTF-8: the declared charset wins (no defect)
    assert "Bal\u00c3\u00a1s" in text(latin)
    assert latin.defects == ()


def test_real_encoded_word_subject_and_windows_1252() -> None:
    (unit,) = open_units(str(CORPUS / "real-ietf-encoded-word.eml"))
    assert unit.context is not None
    assert unit.context.from_ == "=?ISO-8859-15?Q?J=E4rvinen?= <jarvinen@example.com>"
    first, footer = open_units(str(CORPUS / "real-ietf-attachment-windows1252.eml"))
    assert "\u201cquoted term\u201d" in text(first)
    assert "https://www.ietf.org/mailman/listinfo/mmusic" in text(footer)


def _make_maildir(root: Path) -> Path:
    box = root / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True)
    shutil.copy(CORPUS / "qp-soft-break.eml", box / "cur" / "1000.1.host:2,S")
    shutil.copy(CORPUS / "base64-text.eml", box / "new" / "1001.2.host")
    (box / "new" / "1002.3.host").write_bytes(
        gzip.compress((CORPUS / "html-only.eml").read_bytes())
    )
    shutil.copy(CORPUS / "plain.txt", box / "tmp" / "incomplete")
    return box


def test_maildir(tmp_path: Path) -> None:
    box = _make_maildir(tmp_path)
    assert detect_kind(str(box)) == "maildir"
    stats = ArchiveStats()
    units = list(open_units(str(box), stats=stats))
    assert [os.path.relpath(u.source, box) for u in units] == [
        os.path.join("cur", "1000.1.host:2,S"),
        os.path.join("new", "1001.2.host"),
        os.path.join("new", "1002.3.host"),
    ]
    assert [u.context.message for u in units if u.context] == [1, 2, 3]
    assert all(u.context is not None and u.context.message_offset == 0 for u in units)
    assert "http://img.example.com/i.png" in text(units[2])  # gzip inside a Maildir
    assert stats.messages == 3
    assert stats.files == 3


def test_mh_folder(tmp_path: Path) -> None:
    folder = tmp_path / "inbox"
    folder.mkdir()
    (folder / ".mh_sequences").write_text("unseen: 2\n")
    shutil.copy(CORPUS / "base64-text.eml", folder / "10")
    shutil.copy(CORPUS / "qp-soft-break.eml", folder / "2")
    (folder / ",3").write_text("deleted message")
    assert detect_kind(str(folder)) == "mh"
    units = list(open_units(str(folder)))
    assert [os.path.basename(u.source) for u in units] == ["2", "10"]  # numeric order
    assert [u.context.message for u in units if u.context] == [1, 2]


def test_news_spool_and_single_article(tmp_path: Path) -> None:
    spool = tmp_path / "comp" / "infosystems"
    spool.mkdir(parents=True)
    shutil.copy(CORPUS / "news-article.txt", spool / "1")
    shutil.copy(CORPUS / "news-article.txt", spool / "2")
    assert detect_kind(str(spool)) == "news"
    units = list(open_units(str(spool)))
    assert len(units) == 2
    assert "<URL:ftp://ds.internic.net/rfc/rfc1738.txt>" in text(units[0])
    (single,) = open_units(str(CORPUS / "news-article.txt"), "news")
    assert single.context is not None
    assert single.context.message_id == "<article1@news.example.com>"


def test_unknown_directory_layout(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("x")
    with pytest.raises(SourceError):
        detect_kind(str(tmp_path))
    with pytest.raises(SourceError):
        list(open_units(str(tmp_path)))


def test_unreadable_folder_message_is_accounted(tmp_path: Path) -> None:
    folder = tmp_path / "mh"
    folder.mkdir()
    shutil.copy(CORPUS / "plain.txt", folder / "1")
    (folder / "2").symlink_to(folder / "missing")  # a dangling link: cannot be opened
    stats = ArchiveStats()
    units = list(open_units(str(folder), "mh", stats=stats))
    assert stats.messages == 1  # only regular files are listed
    assert len(units) == 1


def test_kind_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        open_units(str(CORPUS / "plain.txt"), "maybe")  # type: ignore[arg-type]
    with pytest.raises(SourceError):
        list(open_units(str(tmp_path / "missing.mbox")))
    with pytest.raises(SourceError):
        list(open_units(str(tmp_path), "mbox"))
    with pytest.raises(SourceError):
        list(open_units(str(CORPUS / "plain.txt"), "maildir"))


def test_explicit_kinds_override_detection() -> None:
    path = str(CORPUS / "two-messages.mbox")
    (as_text,) = open_units(path, "text")
    assert text(as_text).startswith("From alice@example.com")
    (as_mail,) = open_units(path, "mail")  # one message whose body holds the rest
    assert as_mail.context is not None
    assert as_mail.context.message_id == "<one@example.com>"
    forced = list(open_units(str(CORPUS / "qp-soft-break.eml"), "mbox"))
    assert [d.code for d in forced[0].defects] == ["missing-separator"]


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes, peekable: bool) -> None:
    raw = io.BytesIO(data)
    buffer = io.BufferedReader(raw) if peekable else raw
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=buffer))


@pytest.mark.parametrize("peekable", [True, False])
@pytest.mark.parametrize("compress", [None, "gz", "xz"])
def test_stdin_is_detected_and_read_once(
    monkeypatch: pytest.MonkeyPatch, peekable: bool, compress: str | None
) -> None:
    data = (CORPUS / "two-messages.mbox").read_bytes()
    if compress:
        data = COMPRESSORS[compress](data)
    _stdin(monkeypatch, data, peekable)
    kind = detect_kind("-")
    assert kind == ("mbox" if peekable else "auto")
    units = list(open_units("-", kind))
    assert [u.context.message for u in units if u.context] == [1, 2]
    assert all(u.source == "-" for u in units)


def test_stdin_text(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, b"plain text http://stdin.example/\n", peekable=False)
    (unit,) = open_units("-")
    assert text(unit) == "plain text http://stdin.example/\n"


def test_truncated_compressed_archive_keeps_what_was_read(tmp_path: Path) -> None:
    data = (CORPUS / "real-linux-mips-1997-excerpt.mbox").read_bytes() * 20
    packed = gzip.compress(data)
    path = tmp_path / "cut.mbox.gz"
    path.write_bytes(packed[: len(packed) * 2 // 3])
    stats = ArchiveStats()
    units = list(open_units(str(path), stats=stats))
    assert units
    assert "stream-read-error" in [d.code for d in units[-1].defects]
    assert stats.messages >= 1


def test_oversized_message_is_truncated(tmp_path: Path) -> None:
    # HTML needs its whole text, so it is read whole (a plain single-part message is
    # streamed instead, without cap: see test_sources_streamed).
    path = tmp_path / "big.eml"
    path.write_bytes(
        b"Subject: big\nContent-Type: text/html\n\nhttp://start.example/ " + b"x" * 10_000
    )
    stats = ArchiveStats()
    (unit,) = open_units(str(path), options=MailOptions(max_message_bytes=1000), stats=stats)
    assert "message-truncated" in [d.code for d in unit.defects]
    assert "http://start.example/" in text(unit)
    assert len(text(unit)) < 1000
    assert stats.messages_truncated == 1
    assert stats.bytes_read == path.stat().st_size


def test_stats_attachments_and_header_units() -> None:
    stats = ArchiveStats()
    list(open_units(str(CORPUS / "nested-rfc822.eml"), stats=stats))
    list(
        open_units(
            str(CORPUS / "list-headers.eml"), options=MailOptions(scan_headers=True), stats=stats
        )
    )
    assert stats.messages == 2
    assert stats.parts == 5
    assert stats.units_skipped == 1
    assert stats.header_units == 1
    assert stats.summary() == "2 messages, 5 parts, 0 with defects, 1 part skipped"


def test_stats_advance_with_the_iterator() -> None:
    stats = ArchiveStats()
    units = open_units(str(CORPUS / "two-messages.mbox"), stats=stats)
    assert stats.messages == 0  # nothing is opened before the first step
    next(units)
    assert stats.messages >= 1
    list(units)
    assert stats.messages == 2


@pytest.mark.skipif(not (SHARED / "mail-samples").is_dir(), reason="shared corpus absent")
def test_every_shared_mail_sample_is_read_without_error() -> None:
    # Smoke test over the real-mail corpora (read in place, not copied: see PROVENANCE.md).
    stats = ArchiveStats()
    count = 0
    for root, _dirs, files in os.walk(SHARED / "mail-samples"):
        for name in files:
            if name in ("PROVENANCE.txt", "LICENSE", "COPYING") or name.endswith(".py"):
                continue
            for unit in open_units(os.path.join(root, name), stats=stats):
                for chunk in unit.chunks:
                    assert isinstance(chunk, str)
            count += 1
    assert count > 50
    assert stats.messages > 50


@pytest.mark.skipif(
    not (SHARED / "mail-samples" / "grepmail-mailboxes").is_dir(), reason="shared corpus absent"
)
def test_real_crlf_mbox_matches_its_lf_twin() -> None:
    base = SHARED / "mail-samples" / "grepmail-mailboxes" / "t" / "mailboxes"
    lf = list(open_units(str(base / "mailarc-1.txt")))
    crlf = list(open_units(str(base / "mailarc-1-dos.txt")))
    assert [u.context.message_id for u in crlf if u.context] == [
        u.context.message_id for u in lf if u.context
    ]
    assert [text(u) for u in crlf] == [text(u) for u in lf]


class _GeneratedArchive(io.RawIOBase):
    """A raw stream whose bytes are produced on demand and counted."""

    def __init__(self, messages: int, body: bytes) -> None:
        super().__init__()
        self._pieces = (
            b"From a@b Mon Jan  1 00:00:00 2001\nMessage-ID: <%d@x>\n\n%s\n\n" % (n, body)
            for n in range(messages)
        )
        self._pending = b""
        self.produced = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int:  # type: ignore[override]
        while len(self._pending) < len(buffer):
            piece = next(self._pieces, None)
            if piece is None:
                break
            self._pending += piece
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        self.produced += n
        return n


def test_archive_is_streamed_not_slurped(monkeypatch: pytest.MonkeyPatch) -> None:
    # 3000 messages (~6 MB) from a generator on standard input: when a unit comes out, the
    # source has read at most a couple of blocks past that message.
    from urlsift.sources.reading import READ_BLOCK_SIZE

    body = b"text http://example.com/ " * 80
    raw = _GeneratedArchive(3000, body)
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BufferedReader(raw)))
    size = len(b"From a@b Mon Jan  1 00:00:00 2001\nMessage-ID: <0000@x>\n\n\n\n") + len(body)
    count = 0
    for count, unit in enumerate(open_units("-"), 1):
        assert unit.context is not None
        assert unit.context.message_id == f"<{count - 1}@x>"
        assert raw.produced <= count * size + 3 * READ_BLOCK_SIZE
    assert count == 3000


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_through_open_units(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "input")
        with open(path, "wb") as handle:
            handle.write(data)
        stats = ArchiveStats()
        for kind in ("auto", "mbox", "mail", "news"):
            try:
                for unit in open_units(path, kind, stats=stats):
                    assert all(isinstance(chunk, str) for chunk in unit.chunks)
            except SourceError:
                # Only a compressed stream too damaged to give even its first bytes
                # (read as text then) may fail, and then as a SourceError.
                assert sniff_compression(data[:6]) != "none"


def test_a_replaced_message_reader_sees_every_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The loops over messages call parts.message_units directly, unless the module's
    # message_units was replaced (benchmarks/bench_mail.py counts declines that way):
    # then the replacement reads every message of an archive, a folder and a raw batch.
    from urlsift.sources import archive
    from urlsift.sources.mbox import MboxSplitter

    seen: list[int] = []
    real = archive.message_units

    def counting(data: bytes, **arguments: object) -> object:
        seen.append(arguments["number"])  # type: ignore[arg-type]
        return real(data, **arguments)

    monkeypatch.setattr(archive, "message_units", counting)
    mbox = CORPUS / "two-messages.mbox"
    assert contexts(list(open_units(str(mbox)))) == [
        (1, 0, "1", "text/plain"),
        (2, 352, "1", "text/plain"),
    ]
    assert seen == [1, 2]
    list(open_units(str(_make_maildir(tmp_path))))
    assert seen == [1, 2, 1, 2, 3]
    raws = MboxSplitter().feed(mbox.read_bytes())
    units = archive.messages_units(raws[:1], "x", MailOptions(), ArchiveStats())
    assert seen == [1, 2, 1, 2, 3, 1]
    assert [u.context.message for u in units if u.context] == [1]


def test_messages_read_in_one_step_are_counted_as_their_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The loops read a plain message by parts.plain_unit and count it themselves (no
    # MessageResult): units and counts must be those of message_units and count_message,
    # which a replaced reader (taking every message through message_units) gives. The
    # corpus's archives and every corpus message concatenated into an mbox, whole and
    # truncated by a small message cap.
    from urlsift.sources import archive

    paths = sorted(CORPUS.glob("*.mbox"))
    joined = tmp_path / "all.mbox"
    joined.write_bytes(
        b"".join(
            b"From a@b Mon Jan  1 00:00:00 2001\n" + path.read_bytes().rstrip(b"\n") + b"\n\n"
            for path in sorted(CORPUS.glob("*.eml"))
        )
    )
    paths.append(joined)
    real = archive.message_units

    def every(data: bytes, **arguments: object) -> object:
        return real(data, **arguments)

    archive._parts_units()
    read_message = archive._LOADED["read_message"]
    taken: list[object] = []

    def one_step(*arguments: object) -> object:
        read = read_message(*arguments)
        taken.append(isinstance(read, _model.TextUnit))
        return read

    monkeypatch.setitem(archive._LOADED, "read_message", one_step)
    for path in paths:
        for cap in (DEFAULT_MAX_MESSAGE_BYTES, 300):
            options = MailOptions(max_message_bytes=cap)
            fast_stats, walked_stats = ArchiveStats(), ArchiveStats()
            fast = list(open_units(str(path), "mbox", options=options, stats=fast_stats))
            with monkeypatch.context() as patch:
                patch.setattr(archive, "message_units", every)
                walked = list(open_units(str(path), "mbox", options=options, stats=walked_stats))
            assert fast == walked
            assert fast_stats == walked_stats
    assert sum(taken) > 10  # messages read in one step
    assert False in taken  # and others by message_units
