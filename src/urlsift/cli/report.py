"""``urlsift report``: write one self-contained HTML page of an archive's URLs.

Strategy: click glue only. The records come from the same runner as ``scan`` (same input
options) or from a file of ``scan --format jsonl`` records; each is reduced to the facts
the report counts and streamed through :class:`~urlsift.report.aggregate.Aggregator`
(memory bounded, never every record); :func:`~urlsift.report.render.render_html` lays the
figures out. Exit status: 0; 2 when the ``report`` extra is missing, a path could not be
read (the report is still written, from the others), or a JSONL line is not a urlsift
record.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from typing import TextIO

import click

from .._model import Url
from ..engines.runner import UnitDefects, iter_results
from ..output.formats import visible
from ..report.aggregate import (
    DEFAULT_TOP_HOSTS,
    DEFAULT_TOP_MESSAGES,
    Aggregator,
    Facts,
    RecordError,
    facts_from_defects,
    facts_from_record,
    facts_from_url,
)
from ..sources.kinds import INPUT_KINDS, InputKind
from .main import EXIT_UNREADABLE
from .scan import cannot_read_line, scan_config

MISSING_EXTRA = (
    "urlsift report draws its charts with matplotlib, which is not installed: "
    "pip install 'urlsift[report]'"
)


class _BadRecordError(Exception):
    """A line of the JSONL input that is not a urlsift record."""


def _jsonl_facts(stream: TextIO) -> Iterator[Facts]:
    name = getattr(stream, "name", "-")
    try:
        yield from _numbered_facts(name, enumerate(stream, 1))
    except UnicodeDecodeError as exc:  # urlsift writes JSON Lines as UTF-8, always
        raise _BadRecordError(f"{name}: not UTF-8 ({exc.reason})") from exc


def _numbered_facts(name: str, lines: Iterator[tuple[int, str]]) -> Iterator[Facts]:
    for number, line in lines:
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise RecordError("not a JSON object")
            yield facts_from_record(record)
        except (ValueError, RecordError) as exc:  # JSONDecodeError is a ValueError
            raise _BadRecordError(f"{name}:{number}: not a urlsift scan record: {exc}") from exc


@click.command("report", short_help="Write an HTML report of the URLs in PATHS.")
@click.argument("paths", nargs=-1, type=click.Path(dir_okay=True, allow_dash=True))
@click.option(
    "--output",
    "-o",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="The HTML file to write ('-': standard output).",
)
@click.option(
    "--from-jsonl",
    "jsonl",
    type=click.File("r", encoding="utf-8"),
    help="Read the records 'urlsift scan --format jsonl' wrote ('-': standard input) "
    "instead of scanning PATHS.",
)
@click.option("--title", default="URLs in the archive", show_default=True, help="Heading.")
@click.option(
    "--top-hosts", type=click.IntRange(min=1), default=DEFAULT_TOP_HOSTS, show_default=True
)
@click.option(
    "--top-messages", type=click.IntRange(min=1), default=DEFAULT_TOP_MESSAGES, show_default=True
)
@click.option("--scheme", "schemes", multiple=True, metavar="NAME[,NAME...]", help="As scan.")
@click.option("--strict", is_flag=True, help="As scan.")
@click.option("--input-kind", type=click.Choice(INPUT_KINDS), default="auto", show_default=True)
@click.option("--include-attachments", is_flag=True, help="As scan.")
@click.option("--headers", "scan_headers", is_flag=True, help="As scan.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--quiet", "-q", is_flag=True, help="No line on stderr when done.")
def report_command(
    paths: tuple[str, ...],
    output: str,
    jsonl: TextIO | None,
    title: str,
    top_hosts: int,
    top_messages: int,
    schemes: tuple[str, ...],
    strict: bool,
    input_kind: InputKind,
    include_attachments: bool,
    scan_headers: bool,
    jobs: int,
    quiet: bool,
) -> None:
    """Write an HTML report of the URLs in PATHS.

    PATHS are read as scan reads them (standard input when none or '-'); with
    --from-jsonl, the records scan wrote are read instead. The page is one self-contained
    file (inline SVG charts, no script, no network) whose every number is a count of
    records.
    """
    try:
        from ..report.render import render_html
    except ImportError:
        click.echo(f"urlsift: {MISSING_EXTRA}", err=True)
        sys.exit(2)
    if jsonl is not None and paths:
        raise click.UsageError("give PATHS or --from-jsonl, not both")
    aggregator = Aggregator(top_hosts=top_hosts, top_messages=top_messages)
    status = 0
    if jsonl is not None:
        inputs = f"Records of {os.path.basename(getattr(jsonl, 'name', '-'))}"
        try:
            aggregator.add_all(_jsonl_facts(jsonl))
        except _BadRecordError as exc:
            click.echo(visible(f"urlsift: {exc}"), err=True)
            sys.exit(2)
    else:
        config = scan_config(schemes, input_kind, include_attachments, scan_headers, strict)
        paths = paths or ("-",)
        inputs = "Scanned " + ", ".join(os.path.basename(p.rstrip("/")) or p for p in paths)
        for result in iter_results(paths, config, jobs=jobs):
            if isinstance(result, Url):
                aggregator.add(facts_from_url(result))
            elif isinstance(result, UnitDefects):
                aggregator.add(facts_from_defects(result.source, result.context, result.defects))
            else:
                click.echo(cannot_read_line(result), err=True)
                status = EXIT_UNREADABLE
    data = aggregator.result()
    page = render_html(data, title=title, inputs=inputs)
    # Undecodable input bytes (lone surrogates) are shown as \udcXX: the page stays UTF-8.
    try:
        with click.open_file(output, "w", encoding="utf-8", errors="backslashreplace") as out:
            out.write(page)
    except OSError as exc:
        click.echo(f"urlsift: cannot write {output}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    if not quiet:
        click.echo(f"urlsift: wrote {output} ({data.urls:,} URLs)", err=True)
    sys.exit(status)
