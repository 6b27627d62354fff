"""Command line: ``urlsift scan`` (and ``urlsift validate``). Click glue, no logic.

Options in, one call into the library per path, rendering out. A path that cannot be read
is reported on stderr and the other paths are still scanned; the exit status is then 2.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import TextIO

import click

from ._cli_validate import validate_command
from ._model import Policy, Url
from .api import scan_units
from .errors import ConfigError
from .formats import WRITERS, make_writer
from .scanner import normalize_schemes
from .sources.text import open_text

EXIT_UNREADABLE = 2


def _stdout() -> TextIO:
    """Standard output as UTF-8 that writes undecodable input bytes back as they were."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # already a text-only stream (e.g. under a test runner)
        return sys.stdout
    return io.TextIOWrapper(
        buffer,
        encoding="utf-8",
        errors="surrogateescape",
        newline="\n",
        line_buffering=False,
        write_through=True,
    )


def _split_schemes(values: Iterable[str]) -> list[str] | None:
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    return names or None


def _unique(urls: Iterable[Url], seen: set[str]) -> Iterator[Url]:
    for url in urls:
        if url.url not in seen:
            seen.add(url.url)
            yield url


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="urlsift")
def main() -> None:
    """Find URLs in free text as RFC 1738's appendix describes."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(dir_okay=True, allow_dash=True))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(WRITERS)),
    default="text",
    show_default=True,
    help="text: path:line:col: url; jsonl: one JSON record per line; csv: with a header.",
)
@click.option("--unique", is_flag=True, help="Report each URL once (its first occurrence).")
@click.option(
    "--scheme",
    "schemes",
    multiple=True,
    metavar="NAME[,NAME...]",
    help="Scheme recognised in bare URLs (repeatable; replaces the default set: "
    "ftp, http, https, gopher, mailto, news, nntp, telnet, wais, file, prospero).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Treat characters RFC 1738 calls unsafe but real URLs use (~) as errors.",
)
@click.option(
    "--input-kind",
    type=click.Choice(["text"]),
    default="text",
    show_default=True,
    help="How to read the input.",
)
def scan(
    paths: tuple[str, ...],
    fmt: str,
    unique: bool,
    schemes: tuple[str, ...],
    strict: bool,
    input_kind: str,
) -> None:
    """Print the URLs found in PATHS (standard input when none or '-')."""
    del input_kind  # only "text" so far
    try:
        scheme_list = _split_schemes(schemes)
        normalize_schemes(scheme_list)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="--scheme") from exc
    out = _stdout()
    writer = make_writer(fmt, out)
    seen: set[str] = set()
    status = 0
    try:
        for path in paths or ("-",):
            failures: list[str] = []
            unit = open_text(path)
            guarded = replace(unit, chunks=_guard(unit.chunks, failures))
            urls: Iterable[Url] = scan_units(
                [guarded], schemes=scheme_list, policy=Policy(strict=strict)
            )
            if unique:
                urls = _unique(urls, seen)
            for url in urls:
                writer.write(url)
            if failures:
                out.flush()
                click.echo(f"urlsift: cannot read {path}: {failures[0]}", err=True)
                status = EXIT_UNREADABLE
        out.flush()
    except BrokenPipeError:
        # The reader went away (e.g. "| head"): stop quietly, as cat and grep do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
    sys.exit(status)


def _guard(chunks: Iterable[str], failures: list[str]) -> Iterator[str]:
    """Pass chunks through; turn a read error into a note in ``failures`` and stop."""
    try:
        yield from chunks
    except OSError as exc:
        failures.append(exc.strerror or str(exc))


main.add_command(validate_command)
