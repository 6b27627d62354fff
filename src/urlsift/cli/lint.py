"""``urlsift lint``: check the URLs of documentation files. Click glue, no logic.

Strategy: options in, one call into the library (:func:`urlsift.lint.engine.lint_paths`),
rendering out (:data:`urlsift.lint.report.REPORTERS`). Diagnostics go to stdout, the
summary to stderr. Exit status: 0 when no problem is reported, 1 when one is (with
``--fail-on error``, only when an error is; never with ``--exit-zero``), 2 for usage errors
(bad options, a bad configuration file, named with the key), for a path that cannot be
read, named on the command line (reported on stderr too) or met in a folder (a file that
will not open, a folder that will not list, a symbolic link to nothing): each is a
``URL010`` diagnostic and the other paths are still linted; and internal errors, which
print ``urlsift: internal error: ...`` instead of a bare traceback; 141 when the reader
of standard output went away (``| head``), as for ``scan``. ``-`` reads the document
from standard input (``--stdin-filename`` names it).
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO, cast

import click

from ..errors import ConfigError
from ..lint.config import CliOptions, SettingsResolver
from ..lint.engine import LintResult, lint_paths, lint_stream
from ..lint.extract_rst_docutils import DOCUTILS_MAX_BYTES, RST_PARSERS
from ..lint.model import RULE_BY_CODE
from ..lint.report import REPORTERS
from ..output.summary import plural
from .main import exit_broken_pipe, exit_output_error, release_stdout, utf8_stdout

__all__ = ["lint_command", "summary"]

EXIT_CLEAN = 0
EXIT_PROBLEMS = 1
EXIT_ERROR = 2


def summary(result: LintResult) -> str:
    """Return the one-line summary written to stderr after a run.

    Args:
        result: the run's result.

    Returns:
        ``Found 3 problems (2 errors, 1 warning) in 2 of 14 files.`` or
        ``All checked: 14 files, 37 URLs, no problems.``, followed by how many reST files
        docutils could not read when there are any (``--rst-parser docutils``).
    """
    if not result.diagnostics:
        line = (
            f"All checked: {plural(result.files, 'file')}, {plural(result.urls, 'URL')}, "
            "no problems."
        )
    else:
        line = (
            f"Found {plural(len(result.diagnostics), 'problem')} "
            f"({plural(result.errors, 'error')}, {plural(result.warnings, 'warning')}) "
            f"in {result.files_with_problems} of {plural(result.files, 'file')}."
        )
    if result.fallbacks:
        them = "it" if result.fallbacks == 1 else "them"
        line += (
            f" docutils could not read {plural(result.fallbacks, 'reST file')}; "
            f"urlsift's extractor read {them}. (docutils reads files up to "
            f"{DOCUTILS_MAX_BYTES // 1024} KiB without errors.)"
        )
    return line


def _split(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def _unreadable_paths(paths: Iterable[str]) -> list[tuple[str, str]]:
    """The paths named on the command line that cannot be read, with the reason.

    A file must open for reading, a folder must list; what is found inside a folder is the
    engine's business (an unreadable file there is a ``URL010`` diagnostic). Nothing is
    opened in a way that can wait: a regular file is opened without blocking, and a pipe
    or a device is not opened at all (a FIFO's writer would meet this check instead of the
    real read, and without a writer the open would wait forever): it is only asked whether
    it may be read.
    """
    out = []
    for given in paths:
        try:
            mode = os.stat(given).st_mode
            if stat.S_ISDIR(mode):
                os.listdir(given)
            elif stat.S_ISREG(mode):
                os.close(os.open(given, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)))
            elif not os.access(given, os.R_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), given)
        except (OSError, ValueError) as exc:
            out.append((given, getattr(exc, "strerror", None) or str(exc)))
    return out


def _stdin() -> BinaryIO:
    stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
    return cast("BinaryIO", stream)


@click.command("lint", short_help="Check the URLs in documentation files and folders.")
# readable=False: click's access check would make one unreadable path a usage error and
# lint nothing; it is reported (_unreadable_paths, URL010) and the others are linted.
@click.argument(
    "paths",
    nargs=-1,
    type=click.Path(exists=True, dir_okay=True, readable=False, allow_dash=True),
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(REPORTERS)),
    default="text",
    show_default=True,
    help="Output format (text: path:line:col: CODE message).",
)
@click.option(
    "--select",
    multiple=True,
    metavar="CODES",
    help="Rules to report, replacing the configuration's selection: codes (URL003), "
    "prefixes (URL0), names (ambiguous-hyphen), the opt-in group RFC1738 or ALL; "
    "comma-separated, repeatable.",
)
@click.option(
    "--extend-select", multiple=True, metavar="CODES", help="Rules added to the selection."
)
@click.option("--ignore", multiple=True, metavar="CODES", help="Rules not to report.")
@click.option(
    "--include",
    multiple=True,
    metavar="GLOB",
    help="Documents to lint in folders, replacing the default set (gitignore-style, "
    "relative to the working folder; repeatable).",
)
@click.option(
    "--extend-include",
    multiple=True,
    metavar="GLOB",
    help="Documents to lint in folders, added to the default set (repeatable).",
)
@click.option(
    "--exclude",
    multiple=True,
    metavar="GLOB",
    help="Files and folders not to lint in folders, added to the configuration's "
    "(gitignore-style, relative to the working folder; repeatable).",
)
@click.option(
    "--force-exclude/--no-force-exclude",
    default=None,
    help="Apply the exclusions to files named on the command line too (for pre-commit, "
    "which names files); default: the force-exclude setting, else off.",
)
@click.option(
    "--ignore-url",
    "ignore_urls",
    multiple=True,
    metavar="PATTERN",
    help="URLs never reported nor checked: a glob matched against the whole URL "
    "('https://localhost*'), or 're:' and a regular expression (repeatable).",
)
@click.option(
    "--stdin-filename",
    metavar="PATH",
    help="With '-' (or no path): the name of the document read from standard input; it "
    "picks the format, the configuration and the per-file ignores.",
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Configuration file (pyproject.toml with [tool.urlsift], or urlsift.toml) for "
    "every file, its globs relative to the working folder; default: for each file the "
    "nearest one from its folder up.",
)
@click.option("--no-gitignore", is_flag=True, help="Also lint what .gitignore files ignore.")
@click.option(
    "--include-verbatim",
    is_flag=True,
    default=None,
    help="Also check URLs in code blocks, code spans, literal blocks, <pre> and <code>.",
)
@click.option(
    "--rst-parser",
    type=click.Choice(RST_PARSERS),
    default=None,
    help="Who decides what is a link in reST: urlsift's extractor (default: fast, checked "
    "against docutils on real trees) or docutils (needs 'pip install urlsift[rst]'; "
    "urlsift still locates each link); default: the rst-parser setting, else urlsift.",
)
@click.option(
    "--strict",
    is_flag=True,
    default=None,
    help="RFC 1738 strictly: select the RFC1738 rules; '~' and 'host?query' without a path "
    "are errors.",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when problems are found.")
@click.option(
    "--fail-on",
    type=click.Choice(["warning", "error"]),
    default="warning",
    show_default=True,
    help="Lowest severity that makes the exit status 1 ('error': warnings are reported "
    "but do not fail the run).",
)
@click.option("--statistics", is_flag=True, help="Print the number of problems per rule instead.")
@click.option(
    "--check-links", is_flag=True, help="Also check that http/https links resolve (network)."
)
@click.option(
    "--exclude-link",
    multiple=True,
    metavar="REGEX",
    help="Links not checked by --check-links (regular expression; repeatable).",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Seconds to wait for each server with --check-links.",
)
@click.option(
    "--max-time",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="SECONDS",
    help="Deadline for all the --check-links requests together (default 300); links not "
    "checked by then are reported (URL103).",
)
@click.option("--no-cache", is_flag=True, help="Do not use the --check-links cache.")
@click.option(
    "--allow-private-redirects",
    is_flag=True,
    help="With --check-links, follow redirects from public addresses into loopback, "
    "private and link-local ones (refused by default: URL104).",
)
@click.option("--quiet", "-q", is_flag=True, help="No summary on stderr.")
@click.pass_context
def lint_command(
    ctx: click.Context,
    paths: tuple[str, ...],
    fmt: str,
    select: tuple[str, ...],
    extend_select: tuple[str, ...],
    ignore: tuple[str, ...],
    include: tuple[str, ...],
    extend_include: tuple[str, ...],
    exclude: tuple[str, ...],
    force_exclude: bool | None,
    ignore_urls: tuple[str, ...],
    stdin_filename: str | None,
    config_path: Path | None,
    no_gitignore: bool,
    include_verbatim: bool | None,
    rst_parser: str | None,
    strict: bool | None,
    exit_zero: bool,
    fail_on: str,
    statistics: bool,
    check_links: bool,
    exclude_link: tuple[str, ...],
    timeout: float | None,
    max_time: float | None,
    no_cache: bool,
    allow_private_redirects: bool,
    quiet: bool,
) -> None:
    """Check the URLs in documentation files and folders (default: the working folder).

    Text, Markdown, reStructuredText, HTML and man pages; folders are walked, skipping
    what .gitignore ignores; '-' reads standard input. Each file follows the nearest
    configuration file from its folder up. Exit status 0 when clean, 1 when problems are
    found, 2 on usage or internal errors.
    """
    cli = CliOptions(
        select=_split(select) or None,
        extend_select=_split(extend_select),
        ignore=_split(ignore),
        include=include or None,
        extend_include=extend_include,
        exclude=exclude,
        force_exclude=force_exclude,
        ignore_urls=ignore_urls,
        strict=strict,
        include_verbatim=include_verbatim,
        rst_parser=rst_parser,
        respect_gitignore=False if no_gitignore else None,
        check_links=check_links,
        link_timeout=timeout,
        link_max_time=max_time,
        link_exclude=exclude_link,
        link_cache=not no_cache,
        link_allow_private_redirects=allow_private_redirects,
    )
    from_stdin = "-" in paths or (not paths and stdin_filename is not None)
    if from_stdin and len(paths) > 1:
        raise click.UsageError("'-' (standard input) cannot be mixed with other paths", ctx)
    if stdin_filename is not None and not from_stdin:
        raise click.UsageError("--stdin-filename needs '-' (standard input) as the path", ctx)
    unreadable = [] if from_stdin else _unreadable_paths(paths or (".",))
    for path, reason in unreadable:
        click.echo(f"urlsift: cannot read {path}: {reason}", err=True)
    try:
        resolver = SettingsResolver(Path.cwd(), cli, config_path)
        if from_stdin:
            result = lint_stream(_stdin(), stdin_filename, resolver)
        else:
            result = lint_paths(paths or (".",), resolver)
    except ConfigError as exc:
        raise click.UsageError(str(exc), ctx) from exc
    except Exception as exc:  # a bug: say so, and exit 2 (never 0 or 1)
        click.echo(f"urlsift: internal error: {type(exc).__name__}: {exc}", err=True)
        ctx.exit(EXIT_ERROR)
    out = utf8_stdout(write_through=True)
    try:
        if statistics:
            counts = Counter(d.code for d in result.diagnostics)
            for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
                out.write(f"{count:5d}  {code}  {RULE_BY_CODE[code].name}\n")
        else:
            REPORTERS[fmt](result.diagnostics, out)
        out.flush()
    except BrokenPipeError:
        exit_broken_pipe()  # the reader went away (e.g. "| head"): stop quietly
    except OSError as exc:  # a full disk: 2, never 1 ("problems found") nor 0
        exit_output_error(exc)
    release_stdout(out)
    if not quiet:
        click.echo(summary(result), err=True)
    if unreadable or result.unreadable:
        ctx.exit(EXIT_ERROR)
    failing = result.errors if fail_on == "error" else len(result.diagnostics)
    ctx.exit(EXIT_PROBLEMS if failing and not exit_zero else EXIT_CLEAN)
