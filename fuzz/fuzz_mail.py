"""Fuzz harness: the mail and news reader (mbox/MMDF, single messages, compressed files).

Input layout: byte 0 picks the input kind (``auto``, ``mbox``, ``mail``, ``news``,
``text``), the compression the bytes are wrapped in (none, gzip, bzip2, xz) and whether
the compressed stream is cut short; byte 1 picks the mail options (small message and
header caps, header scanning, attachments) and the chunking of the in-memory splitter
check. The rest is the file's content.

Invariants (anything else is a finding):

* :func:`urlsift.engines.runner.iter_results` on the file yields only :class:`~urlsift.Url`,
  :class:`~urlsift.UnitDefects` and :class:`~urlsift.ReadFailure` records
  and raises nothing; a read failure only happens when the file's decompressed stream is
  damaged; every defect code is one documented in ``docs/defects.md`` and every source
  defect is a warning; every URL record has a non-empty ``raw`` of length ``end - start``
  and a message context unless the input is read as plain text;
* :class:`~urlsift.sources.mbox.MboxSplitter` cuts the same messages from the bytes fed
  whole and fed in chunks, and never holds more than a message cap plus one line;
* the fast paths of :func:`~urlsift.sources.parts.message_units` (a clean header block cut
  without the parser; a multipart cut at its boundaries, issue 26) give what the
  reference path (``fast=False``, the stdlib's feed parser) gives, on the input as one
  message and on every message the splitter cuts from it: same units, text, contexts,
  defects and counts;
* the readers both of those paths share give what their general path gives: the input
  as HTML through :func:`~urlsift.sources.htmltext.html_to_text` and through
  ``html_to_text_general`` (the tokenizer's own steps); the input as ``format=flowed``
  text through :func:`~urlsift.sources.flowed.unflow` (which joins unquoted text in
  place) and through ``unflow_chunks`` (the line loop); each ``Date:`` value through
  ``utc_date`` and through ``email.utils.parsedate_to_datetime``; each ``Content-Type:``
  value through ``parse.boundary_of`` and through ``Message.get_boundary``.

Run: ``python fuzz/fuzz_mail.py CORPUS_DIR fuzz/seeds/mail -dict=fuzz/mail.dict``
(see fuzz/README.md).
"""

from __future__ import annotations

import atexit
import bz2
import gzip
import lzma
import re
import shutil
import tempfile
from collections.abc import Callable
from datetime import timezone
from email.utils import parsedate_to_datetime
from pathlib import Path

# Run as a script, this folder is on sys.path; the tests put it there too.
from _harness import Choices, instrumented, run_atheris
from _harness import split as split_chunks

# The standard library's email and html packages do the MIME and HTML parsing: their
# branches are worth coverage feedback too.
with instrumented(__name__, ("urlsift", "email", "html")):
    from urlsift import Url
    from urlsift.engines.runner import (
        READ_ERROR_CODES,
        ReadFailure,
        ScanConfig,
        UnitDefects,
        iter_results,
    )
    from urlsift.sources.archive import ArchiveStats, InputKind
    from urlsift.sources.compress import MAGIC_LENGTH, sniff_compression
    from urlsift.sources.flowed import unflow, unflow_chunks
    from urlsift.sources.headers import message_of, utc_date
    from urlsift.sources.htmltext import html_to_text, html_to_text_general
    from urlsift.sources.mbox import MAX_SEPARATOR_LINE, MboxSplitter, RawMessage
    from urlsift.sources.options import MailOptions
    from urlsift.sources.parse import boundary_of
    from urlsift.sources.parts import MessageResult, message_units

_KINDS: tuple[InputKind, ...] = ("auto", "auto", "mbox", "mbox", "mail", "news", "text", "auto")
_PACKERS = (
    None,
    lambda data: gzip.compress(data, mtime=0),
    lambda data: bz2.compress(data, 1),
    lambda data: lzma.compress(data),
)
_OPTIONS = (
    MailOptions(),
    MailOptions(scan_headers=True, include_attachments=True),
    MailOptions(max_message_bytes=300, max_header_bytes=120),
    MailOptions(scan_headers=True, max_message_bytes=0, max_header_bytes=0),
)
_SPLITTER_CAP = 200

_DOCS = Path(__file__).resolve().parent.parent / "docs" / "defects.md"
_DOCUMENTED = frozenset(re.findall(r"^\| `([a-z0-9-]+)` \|", _DOCS.read_text("utf-8"), re.M))

_WORKDIR = Path(tempfile.mkdtemp(prefix="urlsift-fuzz-mail-"))
atexit.register(shutil.rmtree, _WORKDIR, ignore_errors=True)


def _check_splitter(data: bytes, seed: int) -> None:
    def split(chunks: list[bytes]) -> list[RawMessage]:
        splitter = MboxSplitter(_SPLITTER_CAP)
        out: list[RawMessage] = []
        for chunk in chunks:
            out += splitter.feed(chunk)
            # The current message's kept bytes, plus the partial line held back.
            assert splitter.buffered_bytes <= _SPLITTER_CAP + MAX_SEPARATOR_LINE + 8, (
                splitter.buffered_bytes
            )
        out += splitter.close()
        assert splitter.close() == []
        return out

    whole = split([data])
    assert split(split_chunks(data, seed)) == whole
    assert [m.number for m in whole] == list(range(1, len(whole) + 1))
    for message in whole:
        assert len(message.data) <= _SPLITTER_CAP, message
        assert message.truncated == (message.size > _SPLITTER_CAP), message


def _key(result: MessageResult) -> tuple[object, ...]:
    units = [(u.source, "".join(u.chunks), u.context, u.defects, u.origin) for u in result.units]
    return (result.text_parts, result.header_units, result.skipped, result.defects, units)


def _check_fast_path(messages: list[bytes], options: MailOptions) -> None:
    for data in messages:
        got = [
            _key(message_units(data, source="m", number=1, offset=0, options=options, fast=fast))
            for fast in (True, False)
        ]
        assert got[0] == got[1], (data, got)


_FIELD_VALUE = re.compile(rb"^(date|content-type):[ \t]*(.*)$", re.IGNORECASE | re.MULTILINE)


def _stdlib_date(date: str) -> str | None:
    try:
        when = parsedate_to_datetime(date)
        if when.tzinfo is not None:
            when = when.astimezone(timezone.utc).replace(tzinfo=None)
    except (ValueError, TypeError, OverflowError, IndexError):
        return None
    return when.isoformat(timespec="seconds") + "Z"


def _stdlib_boundary(value: str) -> str | None:
    return message_of([("Content-Type", value)]).get_boundary()


def _answer(read: Callable[[str], str | None], value: str) -> object:
    try:
        return read(value)
    except Exception as exc:  # the stdlib raises on some RFC 2231 parameters
        return type(exc)


def _check_readers(payload: bytes) -> None:
    # The readers whose fast path both message_units paths share, against their general
    # path: HTML to text (the tokenizer's own steps), format=flowed text (the line loop),
    # Date and a boundary (the stdlib).
    text = payload.decode("utf-8", "surrogateescape")
    assert html_to_text(text) == html_to_text_general(text), text
    for delsp in (False, True):
        assert unflow(text, delsp) == "".join(unflow_chunks(text, delsp)), text
    for name, value in _FIELD_VALUE.findall(payload[:4096]):
        written = value.decode("latin-1").strip()
        if name.lower() == b"date":
            assert utc_date(written)[0] == _stdlib_date(written), written
        else:
            boundary_of.cache_clear()
            assert _answer(boundary_of, written) == _answer(_stdlib_boundary, written), written


def _check_scan(path: Path, kind: InputKind, options: MailOptions, damaged: bool) -> None:
    stats = ArchiveStats()
    config = ScanConfig(kind=kind, options=options)
    for result in iter_results([str(path)], config, stats=stats):
        if isinstance(result, Url):
            assert result.raw, result
            assert result.end - result.start == len(result.raw), result
            assert result.url, result
            if kind in ("mbox", "mail", "news"):
                assert result.context is not None, result
            elif kind == "text":
                assert result.context is None, result
            codes = [d.code for d in result.defects]
        elif isinstance(result, UnitDefects):
            assert result.defects, result
            # Source defects are warnings, but for the read errors (exit status 2).
            assert all(
                d.severity == ("error" if d.code in READ_ERROR_CODES else "warning")
                for d in result.defects
            ), result
            codes = [d.code for d in result.defects]
        else:
            assert isinstance(result, ReadFailure), result
            assert damaged, result
            codes = []
        undocumented = set(codes) - _DOCUMENTED
        assert not undocumented, (undocumented, result)


def TestOneInput(data: bytes) -> None:  # noqa: N802 - the name atheris and libFuzzer use
    """Check the mail reader's invariants on one fuzz input (raises on a finding)."""
    choices = Choices(data, 2)
    payload = choices.payload
    kind = _KINDS[choices.bits(0, 0, 3)]
    pack = _PACKERS[choices.bits(0, 3, 2)]
    cut = choices.bits(0, 5, 3)
    options = _OPTIONS[choices.bits(1, 0, 2)]

    _check_splitter(payload, choices.control[1])
    splitter = MboxSplitter()
    messages = splitter.feed(payload) + splitter.close()
    _check_fast_path([payload, *(m.data for m in messages[:4])], options)
    _check_readers(payload)

    content = payload if pack is None else pack(payload)
    if pack is not None and cut:
        content = content[: max(MAGIC_LENGTH, len(content) - cut * 7)]
    # A stream counts as damaged when what is on disk is (or looks) compressed: a plain
    # payload may itself start with gzip, bzip2 or xz magic bytes.
    damaged = pack is not None or sniff_compression(content[:MAGIC_LENGTH]) != "none"
    path = _WORKDIR / "input"
    path.write_bytes(content)
    _check_scan(path, kind, options, damaged)


def main() -> None:
    """Run this harness under atheris; libFuzzer options come from the command line."""
    run_atheris(TestOneInput)


if __name__ == "__main__":
    main()
