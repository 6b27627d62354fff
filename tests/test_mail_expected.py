"""What every mail sample must yield, on every read path.

``corpora/mail-expected/NAME.expected`` holds the records that ``corpora/mail/NAME`` gives
(format: ``corpora/mail-expected/README.md``), checked by hand when written. Each sample
is read by every path that can read it:

* ``reference``: every message parsed the stdlib's way (``message_units(fast=False)``);
* ``fast``: the default fast paths;
* ``streamed``: single messages read in two passes (``STREAM_MIN_BYTES`` 0, blocks of
  7 bytes), where the header allows; the others are read whole as on the fast path;
* ``jobs=2``: all samples in one scan by two worker processes.

So the tests say what is right, not only that the paths agree.

``python tests/test_mail_expected.py --write`` writes the ``.expected`` file of a sample
that has none, from the fast path; read it line by line before committing it.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from urlsift.api import Judge
from urlsift.engines.runner import Result, ScanConfig, UnitDefects, iter_results, scan_text_units
from urlsift.sources import archive, reading, streamed
from urlsift.sources.archive import open_units
from urlsift.sources.options import MailOptions
from urlsift.sources.parts import message_units

from _fixtures import CORPORA, data_lines, mail_records

SAMPLES = CORPORA / "mail"
EXPECTED = CORPORA / "mail-expected"
NAMES = sorted(p.name for p in SAMPLES.iterdir() if p.is_file() and p.suffix != ".md")
PATHS = ("reference", "fast", "streamed", "jobs=2")
STREAMED = [  # the samples whose header allows the streamed path
    "list-headers.eml",
    "news-article.txt",
    "real-ietf-encoded-word.eml",
    "real-ietf-mail-with-url.eml",
]


def _read(path: Path, way: str) -> Iterator[Result]:
    # The records of one sample read one way (not jobs=2), as a scan gives them.
    with pytest.MonkeyPatch.context() as patch:
        if way == "reference":
            patch.setattr(archive, "message_units", functools.partial(message_units, fast=False))
        if way == "streamed":
            patch.setattr(archive, "STREAM_MIN_BYTES", 0)
            patch.setattr(reading, "READ_BLOCK_SIZE", 7)
            patch.setattr(streamed, "TEXT_BLOCK_SIZE", 7)
        units = open_units(str(path), "auto", MailOptions())
        yield from scan_text_units(units, ScanConfig(), Judge())


def records(name: str, way: str) -> list[str]:
    """The records of sample ``name`` read ``way`` (one of :data:`PATHS` but jobs=2)."""
    return mail_records(_read(SAMPLES / name, way))


@functools.cache
def _parallel() -> dict[str, list[str]]:
    # Every sample in one scan by two worker processes, the records grouped by sample.
    paths = [str(SAMPLES / name) for name in NAMES]
    grouped: dict[str, list[Result]] = {name: [] for name in NAMES}
    for record in iter_results(paths, ScanConfig(), jobs=2):
        source = getattr(record, "source", None) or getattr(record, "path", "")
        grouped[Path(source).name].append(record)
    return {name: mail_records(found) for name, found in grouped.items()}


def expected(name: str) -> list[str]:
    """The records ``corpora/mail-expected/NAME.expected`` says sample ``name`` gives."""
    return [line for _, line in data_lines(EXPECTED / f"{name}.expected")]


@pytest.mark.parametrize("way", PATHS)
@pytest.mark.parametrize("name", NAMES)
def test_sample_gives_the_expected_records(name: str, way: str) -> None:
    got = _parallel()[name] if way == "jobs=2" else records(name, way)
    assert got == expected(name)


def test_every_sample_has_its_expected_records() -> None:
    assert {p.name.removesuffix(".expected") for p in EXPECTED.glob("*.expected")} == set(NAMES)
    assert len(NAMES) >= 26


def test_streamed_path_is_taken_where_the_header_allows() -> None:
    # The streamed way is not the fast one under another name: these samples stream (the
    # others are multipart, encoded, HTML, flowed, calendar or archives, read whole).
    taken: list[str] = []
    real = streamed.streamed_message_units

    def spy(*args: object, **kwargs: object) -> object:
        taken.append(str(kwargs["source"]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(streamed, "streamed_message_units", spy)
        for name in NAMES:
            records(name, "streamed")
    assert sorted(Path(source).name for source in taken) == STREAMED


def test_defects_of_later_parts_are_reported() -> None:
    # unknown-charset.eml: each of parts 1-4 has a charset defect of its own (open_units
    # gives them, one unit each); a scan should report every one somewhere.
    units = list(open_units(str(SAMPLES / "unknown-charset.eml")))
    own = {(u.context.part, d.message) for u in units if u.context for d in u.defects}
    assert len({part for part, _ in own}) == 4
    reported = {
        d.message
        for record in _read(SAMPLES / "unknown-charset.eml", "fast")
        if isinstance(record, UnitDefects)
        for d in record.defects
    }
    assert {message for _, message in own} <= reported


def _write_missing() -> None:
    for name in NAMES:
        target = EXPECTED / f"{name}.expected"
        if target.exists():
            continue
        head = f"# {name}: the records every read path must give (format: README.md)\n"
        target.write_text(head + "".join(f"{line}\n" for line in records(name, "fast")), "utf-8")
        print(f"wrote {target}: read it before committing it")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    _write_missing()
