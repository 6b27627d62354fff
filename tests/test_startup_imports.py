"""Start-up: a scan imports only the layers its input needs (issue 26).

``urlsift scan notes.txt`` must not pay for the mail layer (the stdlib's ``email``
package, the MIME part walk, the HTML reader), the worker pools or the plan of their
items, lint, the Parquet writer or Arrow, the folder walk (``pathlib``), the
decompressors, ``json`` (the text writer writes none), the ``--count`` rows' classes,
``dataclasses`` (the records are made by ``urlsift._record``) or ``lzma`` and ``zlib``
(whose error types a clean read does not need);
a scan of an mbox does import the mail layer (so the check below can fail). Patterns of
paths a run does not take are compiled on their first use (``grammar.rfc.compile_on_use``):
they behave as the compiled ones.
"""

from __future__ import annotations

import functools
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

NOT_FOR_TEXT = (
    "email",
    "urlsift.sources.parts",
    "urlsift.sources.headers",
    "urlsift.sources.htmltext",
    "urlsift.engines.processes",
    "urlsift.engines.dask",
    "urlsift.lint",
    "pyarrow",
    "multiprocessing",
    "csv",
    "importlib.abc",
    "urlsift.engines.plan",
    "urlsift.output.parquet",
    "urlsift.sources.walk",
    "pathlib",
    "gzip",
    "bz2",
    "json",
    "signal",
    "urlsift.output._countrows",
    "dataclasses",
    "lzma",
    "zlib",
    "_compression",
)


def _after_scan(path: Path, report: str) -> list[str]:
    # The words ``report`` (an expression) prints after a scan of ``path`` in a fresh process.
    code = (
        "import sys\n"
        "from urlsift.cli import main\n"
        f"try:\n    main(['scan', '-q', {str(path)!r}])\n"
        "except SystemExit:\n    pass\n"
        # The CLI closes its standard output at exit: the list goes to stderr.
        f"print(' '.join(sorted({report})), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stderr.splitlines()[-1].split()


def _imported_after_scan(path: Path) -> set[str]:
    return set(_after_scan(path, "sys.modules"))


def _hits(modules: set[str]) -> list[str]:
    # Less what click imports itself (on Python 3.10 its uuid import brings platform,
    # subprocess and signal): not the text scan's to avoid.
    return sorted(
        name
        for name in modules - _click_imports()
        if any(name == m or name.startswith(m + ".") for m in NOT_FOR_TEXT)
    )


@functools.cache
def _click_imports() -> frozenset[str]:
    code = "import sys, click; print(' '.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return frozenset(done.stdout.split())


def test_a_text_scan_imports_no_mail_pool_lint_or_parquet_layer(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("see http://x.example/ now\n", encoding="utf-8")
    assert _hits(_imported_after_scan(notes)) == []


@pytest.mark.parametrize("layer", ["urlsift.sources.parts", "urlsift.sources.headers"])
def test_an_mbox_scan_imports_the_mail_layer(tmp_path: Path, layer: str) -> None:
    archive = tmp_path / "a.mbox"
    archive.write_bytes(
        b"From a@b Mon Jan  1 00:00:00 2001\nSubject: s\n\nsee http://x.example/ now\n"
    )
    assert layer in _imported_after_scan(archive)


_ENVELOPE = b"From a@b Mon Jan  1 00:00:00 2001\n"
_COMMON_HEADER = (
    b"From: A <a@b.example>\nDate: Tue, 2 Jan 2001 10:00:00 +0100\nMessage-ID: <1@b>\n"
    b"Subject: plain words\n"
)
# Messages as most of an archive is written: their headers, parts, encodings and dates are
# read without the stdlib's email package.
COMMON_MESSAGES = {
    "plain": b"Content-Type: text/plain; charset=us-ascii\n\nsee http://x.example/a\n",
    "flowed": b'Content-Type: text/plain; charset="UTF-8"; format=flowed\n\nsee \nhttp://x.example/\n',
    "quoted-printable": (
        b"Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: "
        b"quoted-printable\n\nsee http://x.example/=\nb caf=E9\n"
    ),
    "alternative": (
        b'MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="=_b1"\n\n'
        b"--=_b1\nContent-Type: text/plain; charset=utf-8\n\nsee http://x.example/\n"
        b"--=_b1\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
        b"PHA+PGEgaHJlZj0iaHR0cDovL3guZXhhbXBsZS8iPng8L2E+PC9wPg==\n--=_b1--\n"
    ),
}
# Messages that need the stdlib: the check above can fail.
STDLIB_MESSAGES = {
    "obsolete date": b"Date: Mon, 12 Aug 96 13:52:47 EST\nSubject: s\n\nhttp://x.example/\n",
    "encoded subject": b"Subject: =?utf-8?q?caf=C3=A9?=\n\nhttp://x.example/\n",
    "no blank line": b"Subject: s\nnot a field\nhttp://x.example/\n",
}


def test_common_messages_are_read_without_the_email_package(tmp_path: Path) -> None:
    archive = tmp_path / "a.mbox"
    archive.write_bytes(
        b"\n".join(_ENVELOPE + _COMMON_HEADER + m for m in COMMON_MESSAGES.values())
    )
    imported = _imported_after_scan(archive)
    assert "urlsift.sources.parts" in imported
    assert sorted(m for m in imported if m == "email" or m.startswith("email.")) == []


@pytest.mark.parametrize("message", STDLIB_MESSAGES.values(), ids=STDLIB_MESSAGES.keys())
def test_a_message_that_needs_the_stdlib_imports_email(tmp_path: Path, message: bytes) -> None:
    archive = tmp_path / "a.mbox"
    archive.write_bytes(_ENVELOPE + message)
    assert "email" in _imported_after_scan(archive)


def test_a_text_scan_compiles_only_the_clean_patterns_it_meets(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("see http://x.example/ now\n", encoding="utf-8")
    report = (
        "name for name in dir(__import__('urlsift.grammar.rfc').grammar.rfc) "
        "if name.endswith('_CLEAN_PATTERN') and getattr(getattr("
        "sys.modules['urlsift.grammar.rfc'], name), '_compiled', None) is not None"
    )
    assert _after_scan(notes, report) == ["HTTP_CLEAN_PATTERN"]


def test_a_pattern_compiled_on_use_behaves_as_the_compiled_one() -> None:
    from urlsift.grammar.rfc import compile_on_use

    source = r"(?P<word>[a-z]+)(?P<tail>[0-9]*)"
    lazy, compiled = compile_on_use(source, re.IGNORECASE), re.compile(source, re.IGNORECASE)
    assert lazy == compiled
    assert hash(lazy) == hash(compiled)
    assert lazy.groupindex == compiled.groupindex
    assert lazy.groups == compiled.groups
    text = "Abc12 de 3 xyz"
    assert lazy.match(text).groupdict() == compiled.match(text).groupdict()  # type: ignore[union-attr]
    assert lazy.search(text, 5).span() == compiled.search(text, 5).span()  # type: ignore[union-attr]
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert lazy.sub("-", text) == compiled.sub("-", text)
    assert lazy.fullmatch("abc") is not None
    assert lazy.fullmatch("a b") is None
    again = pickle.loads(pickle.dumps(compile_on_use(source)))
    assert again == compile_on_use(source)
    assert again.findall(text) == re.findall(source, text)


def test_the_broken_pipe_status_is_128_plus_sigpipe() -> None:
    import signal

    from urlsift.cli.main import EXIT_BROKEN_PIPE

    assert EXIT_BROKEN_PIPE == 128 + signal.SIGPIPE


# Patterns and tables of paths a one-line text scan does not take: a line break after a
# URL (the wrap evidence), quoted text, brackets before a URL, a "%" or a URL that is not
# in normal form already (normalize's split, its escape tables), a mailto.
NOT_BUILT_FOR_TEXT = {
    "urlsift.grammar.context": ["QUOTE_PREFIX_RE", "OPENER_RE"],
    "urlsift.extraction.wrap": ["_HEAD", "_NEXT_LINE", "_LIST_ITEM", "_ATTRIBUTE"],
    "urlsift.validation.normalize": ["_SPLIT", "_MAILTO_ONE"],
}


def test_a_text_scan_builds_no_pattern_or_table_of_a_path_it_does_not_take(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("see http://x.example/ now\n", encoding="utf-8")
    report = (
        "[f'{module}.{name}' for module, names in " + repr(NOT_BUILT_FOR_TEXT) + ".items() "
        "for name in names if not ("
        "type(getattr(sys.modules[module], name)).__name__ == '_PatternOnUse' "
        "and getattr(getattr(sys.modules[module], name), '_compiled', None) is None)] + "
        "(['escape tables'] if sys.modules['urlsift.validation.normalize']"
        "._escape_tables.cache_info().currsize else [])"
    )
    assert _after_scan(notes, report) == []
