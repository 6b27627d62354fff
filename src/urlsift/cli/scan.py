"""``urlsift scan``: print the URLs found in files, mail archives and folders.

Options in, one call into the library (:func:`urlsift.engines.runner.iter_results`),
rendering out. A path that cannot be read (missing, permission denied, a read error
part-way, such as a truncated compressed archive) is reported on stderr and the other paths
are still scanned; the exit status is then 2. Progress (terminals only), the message
summary and the defect lines of the text and CSV formats go to stderr, so stdout holds only
the results.

Exit status: 0; 1 with ``--check`` when a URL is invalid; 2 when a path (or part of one)
could not be read, which wins over 1; :data:`~urlsift.cli.main.EXIT_BROKEN_PIPE` (141, as a
shell reports a program killed by SIGPIPE) when the reader of standard output went away
before the scan ended (``urlsift scan ... | head``): the output was cut short, so neither
"clean" nor "invalid URL found" can be claimed.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

import click

from .._model import Policy, ReadFailure, Url
from .._record import record
from ..engines.runner import READ_ERROR_CODES, Result, ScanConfig, UnitDefects, iter_results
from ..errors import ConfigError, OutputError
from ..extraction.scanner import normalize_schemes
from ..output.formats import (
    WRITERS,
    CountBy,
    TextWriter,
    Writer,
    location,
    make_writer,
    visible,
)
from ..output.summary import HostCounts, RunTally, UrlCounts, plural
from ..sources.kinds import INPUT_KINDS, InputKind
from ..sources.options import MailOptions
from ..sources.reading import ArchiveStats
from ..sources.tree import is_binary
from .main import (
    EXIT_INVALID,
    EXIT_UNREADABLE,
    exit_broken_pipe,
    exit_output_error,
    release_stdout,
    utf8_stdout,
)

if TYPE_CHECKING:  # imported by _writer for --format parquet; by -j N and Dask for workers
    from ..engines.render import Rendered
    from ..output.parquet import ParquetWriter


def _split_schemes(values: Iterable[str]) -> list[str] | None:
    names = [name.strip() for value in values for name in value.split(",") if name.strip()]
    return names or None


def scan_config(
    schemes: Iterable[str],
    input_kind: InputKind,
    include_attachments: bool,
    scan_headers: bool,
    strict: bool,
    exclude: tuple[str, ...] = (),
    respect_gitignore: bool = True,
) -> ScanConfig:
    """The :class:`ScanConfig` of scan's input options (``report`` takes the same ones).

    Raises:
        click.BadParameter: a ``--scheme`` value is not a scheme name.
    """
    try:
        scheme_list = _split_schemes(schemes)
        names = normalize_schemes(scheme_list) if scheme_list else None
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="--scheme") from exc
    return ScanConfig(
        kind=input_kind,
        options=MailOptions(include_attachments=include_attachments, scan_headers=scan_headers),
        schemes=names,
        policy=Policy(strict=strict),
        exclude=exclude,
        respect_gitignore=respect_gitignore,
    )


class _Progress:
    """A one-line progress bar on stderr (share of input read, bytes, messages, URLs).

    Only for terminals; the share is shown when the total size of the input is known
    (regular files, compressed sizes), not for standard input or folders.
    """

    INTERVAL = 0.25  # seconds between redraws
    WIDTH = 20  # characters of the bar

    def __init__(
        self, stats: ArchiveStats, stream: TextIO, enabled: bool, total: int | None = None
    ) -> None:
        self._stats = stats
        self._stream = stream
        self._enabled = enabled
        self._total = total
        self._urls = 0
        self._next = 0.0
        self._width = 0
        self._tasks = ""

    def task_done(self, done: int, total: int) -> None:
        """Follow a cluster's tasks (``--engine dask``): shown as ``tasks done/total``."""
        self._tasks = f", tasks {done:,}/{total:,}"
        self._next = 0.0 if done == total else self._next

    @property
    def enabled(self) -> bool:
        """Whether the bar is drawn (on a terminal)."""
        return self._enabled

    def tick(self, url: bool, urls: int = 0) -> None:
        self._urls += url + urls
        if not self._enabled:
            return
        now = time.monotonic()
        if now < self._next:
            return
        self._next = now + self.INTERVAL
        stats = self._stats
        line = f"{stats.bytes_read / 1e6:,.1f} MB, {stats.messages:,} messages, {self._urls:,} URLs"
        line += self._tasks
        if self._total:
            share = min(1.0, stats.stored_bytes_read / self._total)
            filled = int(share * self.WIDTH)
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            line = f"[{bar}] {share:4.0%} {line}"
        line = "urlsift: " + line
        self._width = max(self._width, len(line))
        self._stream.write("\r" + line.ljust(self._width))
        self._stream.flush()

    def close(self) -> None:
        if self._enabled and self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0


def _total_size(paths: tuple[str, ...]) -> int | None:
    """Bytes stored in ``paths`` when all are regular files, else None (unknown)."""
    total = 0
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            continue  # reported as unreadable later
        if not stat.S_ISREG(info.st_mode):
            return None
        total += info.st_size
    return total or None


COUNT_BY: tuple[str, ...] = ("url", "host")
"""What ``--count`` counts by; ``--count`` alone is ``--count url``."""


class _ScanCommand(click.Command):
    """``scan``, whose ``--count`` takes an optional value.

    ``--count`` is followed by ``url`` or ``host`` only when it names what to count by;
    any other word after it is a path (``--count archive.mbox`` counts URLs). A path
    spelt ``host`` or ``url`` is written ``./host`` or after ``--``.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        spelled: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            i += 1
            if arg == "--":
                spelled += args[i - 1 :]
                break
            if arg == "--count":
                if i < len(args) and args[i] in COUNT_BY:
                    arg = f"--count={args[i]}"
                    i += 1
                else:
                    if i < len(args):
                        _refuse_mistyped_count(ctx, args[i])
                    arg = "--count=url"
            spelled.append(arg)
        return super().parse_args(ctx, spelled)


def _refuse_mistyped_count(ctx: click.Context, word: str) -> None:
    # The word after a bare --count is a path, unless it is no existing path and reads as
    # a misspelt mode ("hosts", "URL"): then a usage error that names the mode meant.
    if os.path.lexists(word) or word.startswith("-") or "/" in word or os.sep in word:
        return
    import difflib  # only for this message

    close = difflib.get_close_matches(word.lower(), COUNT_BY, n=1, cutoff=0.6)
    if close:
        raise click.BadParameter(
            f"{word!r} is not one of {', '.join(map(repr, COUNT_BY))} and no such path. "
            f"Did you mean {close[0]!r}? (a path named like that: ./{word})",
            ctx=ctx,
            param_hint="'--count'",
        )


def _writer(
    fmt: str, output: str | None, out: TextIO, count: CountBy | None, overwrite: bool = False
) -> Writer | ParquetWriter:
    # The writer for --format; Parquet goes to files in --output, the others to stdout.
    if fmt != "parquet":
        if output is not None or overwrite:
            raise click.UsageError(
                f"--{'output' if output else 'overwrite'} is for --format parquet"
            )
        return make_writer(fmt, out, counts=count)
    if output is None:
        raise click.UsageError("--format parquet needs --output FOLDER")
    if count is not None:
        raise click.UsageError("--count has no Parquet form; use --format jsonl or csv")
    from ..output.parquet import ParquetWriter

    try:
        return ParquetWriter(output, overwrite=overwrite)
    except (ImportError, ConfigError) as exc:  # no pyarrow; a folder holding other files
        raise click.UsageError(str(exc)) from exc
    except OSError as exc:
        raise click.UsageError(f"cannot write to {output}: {exc.strerror or exc}") from exc


ENGINES = ("local", "processes", "dask")
"""Values of ``scan --engine``."""


def _dask_client(cluster: contextlib.ExitStack, jobs: int, scheduler: str | None) -> Any:
    # A client of the Dask cluster at ``scheduler``, or of a LocalCluster of ``jobs``
    # worker processes (one per CPU when jobs is 1) on the loopback interface.
    try:
        import distributed as _distributed

        from ..engines.dask import local_cluster
    except ImportError as exc:
        raise click.UsageError(
            f"--engine dask needs the dask extra: pip install 'urlsift[dask]' ({exc})"
        ) from exc
    distributed: Any = _distributed  # untyped library: one typed entry point
    try:
        if scheduler is not None:
            return cluster.enter_context(distributed.Client(scheduler, timeout="10s"))
        local = cluster.enter_context(local_cluster(jobs if jobs > 1 else os.cpu_count() or 1))
        return cluster.enter_context(distributed.Client(local))
    except (OSError, ValueError) as exc:
        raise click.UsageError(f"--engine dask: {exc}") from exc


def _dask_paths(paths: tuple[str, ...], output: str | None) -> None:
    # Refuse, before a cluster starts, a path or output URL fsspec cannot serve here.
    try:
        from ..engines.dask import check_protocol
        from ..engines.work import is_url
    except ImportError:
        return  # _dask_client says what is missing
    for path in (*paths, *([output] if output is not None else [])):
        if is_url(path):
            try:
                check_protocol(path)
            except ConfigError as exc:
                raise click.UsageError(str(exc)) from exc


def _dask_parquet(
    client: Any,
    paths: tuple[str, ...],
    config: ScanConfig,
    output: str,
    stats: ArchiveStats,
    progress: _Progress,
    invalid_only: bool,
    check: bool,
    overwrite: bool,
    tally: RunTally,
) -> int:
    # --engine dask --format parquet: the workers write one file per partition; the
    # client reports what one process reports (unreadable paths, the exit status).
    from ..engines.dask import write_parquet_dask

    status = 0
    try:
        written = write_parquet_dask(
            paths,
            config,
            output,
            stats=stats,
            client=client,
            invalid_only=invalid_only,
            on_task=progress.task_done,
            overwrite=overwrite,
        )
        for part in written:
            progress.tick(False, urls=part.urls)
            tally.urls += part.urls
            tally.invalid += part.invalid
            for code, found in part.defects:
                tally.defects[code] = tally.defects.get(code, 0) + found
            if part.invalid and check and not status:
                status = EXIT_INVALID
            if part.read_errors:
                status = EXIT_UNREADABLE
            for failure in part.failures:
                progress.close()
                click.echo(cannot_read_line(failure), err=True)
                tally.unreadable += 1
                status = EXIT_UNREADABLE
    except ConfigError as exc:  # a folder holding other files (see --overwrite)
        raise click.UsageError(str(exc)) from exc
    except OSError as exc:  # a worker's or the client's write (a full disk)
        raise OutputError(output, exc) from exc
    return status


def cannot_read_line(failure: ReadFailure) -> str:
    """The stderr line of a path that could not be read (its name is input: made visible)."""
    return visible(f"urlsift: cannot read {failure.path}: {failure.reason}")


def _defect_lines(record: UnitDefects) -> Iterator[str]:
    where = location(record.source, record.context)
    for defect in record.defects:
        yield visible(f"{where}: {defect.severity}: {defect.code}: {defect.message}")


@record
class _Filters:
    """What ``scan`` keeps and counts of the records (its options)."""

    unique: bool
    check: bool
    invalid_only: bool
    show_defects: bool
    count: CountBy | None
    tally: RunTally


def _bytes_writer(out: TextIO) -> Callable[[bytes], object]:
    # Text a worker sent encoded as the output encodes (engines.render): copied to the
    # stream's buffer after what the stream holds; decoded where the stream has no buffer
    # or encodes otherwise (the writing is then the stream's, as in one process).
    from ..engines.render import OUTPUT_ENCODING, OUTPUT_ERRORS

    buffer = getattr(out, "buffer", None)
    encoding = getattr(out, "encoding", None)
    same = (
        buffer is not None
        and encoding is not None
        and codecs.lookup(encoding).name == codecs.lookup(OUTPUT_ENCODING).name
        and getattr(out, "errors", None) == OUTPUT_ERRORS
    )
    if not same:
        return lambda data: out.write(data.decode(OUTPUT_ENCODING, OUTPUT_ERRORS))
    sink: Any = buffer

    def write(data: bytes) -> None:
        out.flush()
        sink.write(data)

    return write


def _write_results(
    results: Iterable[Result | Rendered],
    writer: Writer | ParquetWriter,
    out: TextIO,
    progress: _Progress,
    how: _Filters,
    rendered: bool = False,
) -> int:
    # Write the records as the options say; return the exit status they call for. With
    # ``rendered``, workers send pieces of written text too (engines.render).
    if rendered:
        from ..engines.render import Numbered, Rendered

        write_bytes = _bytes_writer(out)
    status = 0
    seen: set[str] = set()
    unique, check, invalid_only, show = how.unique, how.check, how.invalid_only, how.show_defects
    tally = how.tally
    counts = None if how.count is None else HostCounts() if how.count == "host" else UrlCounts()

    def other(record: UnitDefects | ReadFailure) -> None:
        # A defect record or a read failure: counted, and shown or written.
        nonlocal status
        if isinstance(record, UnitDefects):
            progress.tick(False)
            tally.add_defects(record)
            if any(defect.code in READ_ERROR_CODES for defect in record.defects):
                status = EXIT_UNREADABLE  # part of the input could not be read
            if counts is None and not writer.write_defects(record) and show:
                progress.close()
                out.flush()
                for line in _defect_lines(record):
                    click.echo(line, err=True)
        else:
            progress.close()
            out.flush()
            click.echo(cannot_read_line(record), err=True)
            tally.unreadable += 1
            status = EXIT_UNREADABLE

    if not (rendered or invalid_only or unique or progress.enabled) and counts is None:
        # Every URL written as it comes (the common run): counted in locals, without the
        # per-record calls and tests of the general loop below.
        write = writer.write
        urls = invalid = 0
        try:
            for result in results:
                if isinstance(result, Url):
                    urls += 1
                    if not result.valid:
                        invalid += 1
                        if check and not status:
                            status = EXIT_INVALID
                    write(result)
                else:
                    assert isinstance(result, UnitDefects | ReadFailure)
                    other(result)
        finally:
            tally.urls += urls
            tally.invalid += invalid
            progress.tick(False, urls=urls)
        results = ()
    for result in results:
        if rendered and isinstance(result, Rendered):  # a worker wrote its URLs
            progress.tick(False, urls=result.urls)
            tally.urls += result.urls
            tally.invalid += result.invalid
            if result.invalid and check and not status:
                status = EXIT_INVALID
            for part in result.parts:
                if isinstance(part, bytes):
                    write_bytes(part)
                elif isinstance(part, str):
                    out.write(part)
                elif isinstance(part, Url):  # counted above; written here (rare)
                    writer.write(part)
                else:
                    assert not isinstance(part, Numbered)  # engines finish their pieces
                    other(part)
        elif isinstance(result, Url):
            progress.tick(True)
            tally.add_url(result)
            if not result.valid and check and not status:
                status = EXIT_INVALID
            if invalid_only and result.valid:
                continue
            if counts is not None:
                counts.add(result)
            elif not unique:
                writer.write(result)
            elif result.normalized not in seen:
                seen.add(result.normalized)
                writer.write(result)
        else:
            assert isinstance(result, UnitDefects | ReadFailure)  # (pieces need `rendered`)
            other(result)
    if counts is not None:
        assert isinstance(writer, Writer)  # Parquet is refused with --count
        for row in counts.rows():
            writer.write_count(row)
    if not isinstance(writer, Writer):  # Parquet
        writer.close()
    return status


@click.command(
    "scan", cls=_ScanCommand, short_help="Print the URLs found in files, mail archives and folders."
)
# readable=False: click's own access check would turn one unreadable path into a usage
# error and scan nothing; the sources report it (ReadFailure) and go on with the others.
@click.argument("paths", nargs=-1, type=click.Path(dir_okay=True, allow_dash=True, readable=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted([*WRITERS, "parquet"])),
    default="text",
    show_default=True,
    help="text: path:line:col: url; jsonl: one JSON record per line; csv: with a header; "
    "parquet: Parquet files in the folder given by --output (needs pyarrow: "
    "pip install 'urlsift[dask]').",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder for --format parquet (new or empty; part-NNNNN.parquet files, then a "
    "_SUCCESS marker when the run is complete).",
)
@click.option(
    "--overwrite",
    is_flag=True,
    help="With --format parquet: replace an earlier urlsift run in --output (only the "
    "files urlsift wrote are removed; a folder holding any other is refused).",
)
@click.option(
    "--unique",
    is_flag=True,
    help="Report each URL once (its first occurrence); equivalent spellings "
    "(HTTP://Host, http://host:80/) count as one URL.",
)
@click.option(
    "--count",
    type=click.Choice(COUNT_BY),
    default=None,
    metavar="[url|host]",
    help="Print each URL once with its number of occurrences and the first and last "
    "message date it was seen on, most frequent first; equivalent spellings are counted "
    "together under the first one seen. '--count host' counts by host instead (case and "
    "a leading www. folded; mailto counts its domain).",
)
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
    type=click.Choice(INPUT_KINDS),
    default="auto",
    show_default=True,
    help="What the paths hold; auto detects mbox/MMDF, a single message, a news article, "
    "Maildir, MH and news spool folders, and plain text. gzip, bzip2 and xz are read "
    "transparently.",
)
@click.option(
    "--include-attachments",
    is_flag=True,
    help="Also scan non-text MIME parts (decoded as text).",
)
@click.option(
    "--headers",
    "scan_headers",
    is_flag=True,
    help="Also scan the URL-bearing headers (List-*, Archived-At, Link).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes: files and large mbox archives are scanned in parallel; the "
    "output is the same, in the same order.",
)
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default="local",
    show_default=True,
    help="local: this process (with --jobs N > 1, a process pool); processes: a pool of "
    "--jobs worker processes (default: one per CPU); dask: a Dask cluster (--scheduler, "
    "or a LocalCluster of --jobs workers started here; needs pip install 'urlsift[dask]').",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="With --engine dask: the address of a running scheduler (tcp://host:8786).",
)
@click.option(
    "--invalid-only",
    is_flag=True,
    help="Report only URLs that break RFC 1738 (for linting documentation).",
)
@click.option(
    "--check",
    is_flag=True,
    help="Exit with status 1 when any URL found is invalid (2 still wins for unreadable paths).",
)
@click.option(
    "--exclude",
    "exclude",
    multiple=True,
    metavar="GLOB",
    help="Skip files and folders matching GLOB (gitignore-style, relative to the folder) "
    "when walking a folder of mixed files (repeatable; .gitignore files are honoured too).",
)
@click.option(
    "--no-gitignore", is_flag=True, help="Also scan what .gitignore files ignore in folders."
)
@click.option(
    "--quiet",
    "-q",
    count=True,
    help="-q: the summary line only (no progress, no defect counts); -qq: nothing but errors.",
)
@click.option(
    "--verbose",
    "-v",
    count=True,
    help="List every source defect on stderr as it is met (as --show-defects).",
)
@click.option(
    "--show-defects",
    is_flag=True,
    help="List every source defect (charset, MIME, truncation) on stderr, one line each; by "
    "default they are counted by code in the summary. JSON Lines and Parquet carry them "
    "as records either way.",
)
def scan(
    paths: tuple[str, ...],
    fmt: str,
    output: str | None,
    overwrite: bool,
    unique: bool,
    count: CountBy | None,
    schemes: tuple[str, ...],
    strict: bool,
    input_kind: InputKind,
    include_attachments: bool,
    scan_headers: bool,
    jobs: int,
    engine: str,
    scheduler: str | None,
    invalid_only: bool,
    check: bool,
    exclude: tuple[str, ...],
    no_gitignore: bool,
    quiet: int,
    verbose: int,
    show_defects: bool,
) -> None:
    """Print the URLs found in PATHS (standard input when none or '-').

    PATHS may be text files, mail messages, mbox archives, news articles, or Maildir, MH
    and news spool folders. Any other folder is walked in sorted order and each file is
    read by its own kind (binary files skipped, .gitignore honoured). A path that cannot
    be read (or only in part: a truncated compressed file) is reported on stderr and the
    others are still scanned; the exit status is then 2. When standard output is closed
    early (| head) it is 141.
    """
    config = scan_config(
        schemes, input_kind, include_attachments, scan_headers, strict, exclude, not no_gitignore
    )
    out = utf8_stdout()
    # Parquet from a Dask cluster is written by the workers, a file per partition
    # (--unique needs every URL in one place: then the client writes, as for the others).
    on_workers = engine == "dask" and fmt == "parquet" and output is not None and not unique
    writer = None if on_workers and count is None else _writer(fmt, output, out, count, overwrite)
    if isinstance(writer, TextWriter):
        writer.reasons = invalid_only  # say why each URL shown is invalid
    stats = ArchiveStats()
    paths = paths or ("-",)
    level = verbose - quiet  # -qq: errors only; -q: the summary line; -v: every defect
    show = level >= 0 and sys.stderr.isatty()
    progress = _Progress(stats, sys.stderr, show, _total_size(paths) if show else None)
    how = _Filters(unique, check, invalid_only, show_defects or level > 0, count, RunTally())
    status = 0
    if scheduler is not None and engine != "dask":
        raise click.UsageError("--scheduler is for --engine dask")
    if engine == "dask" and "-" in paths:
        raise click.UsageError("--engine dask cannot read standard input ('-')")
    if engine == "processes" and jobs == 1:
        jobs = os.cpu_count() or 1
    if input_kind == "auto":
        paths = skip_binaries(paths, stats, note=level >= 0)
    cluster = contextlib.ExitStack()  # the Dask client and cluster, closed at the end
    try:
        if engine == "dask":
            _dask_paths(paths, output if writer is None else None)
        client = _dask_client(cluster, jobs, scheduler) if engine == "dask" else None
        if writer is None:
            assert output is not None
            status = _dask_parquet(
                client,
                paths,
                config,
                output,
                stats,
                progress,
                invalid_only,
                check,
                overwrite,
                how.tally,
            )
        else:
            # Workers write the URLs themselves unless every URL must meet in one place
            # (one process has no workers: its records are written here, as they come).
            spec = None
            if fmt in WRITERS and not unique and count is None and (jobs > 1 or client):
                from ..engines.render import RenderSpec

                spec = RenderSpec(fmt, invalid_only)
            results: Iterable[Result | Rendered]
            if client is not None and spec is not None:
                from ..engines.dask import iter_rendered_dask

                results = iter_rendered_dask(
                    paths, config, spec, stats=stats, client=client, on_task=progress.task_done
                )
            elif client is not None:
                from ..engines.dask import iter_results_dask

                results = iter_results_dask(
                    paths, config, stats=stats, client=client, on_task=progress.task_done
                )
            else:
                results = iter_results(paths, config, stats=stats, jobs=jobs, render=spec)
            status = _write_results(results, writer, out, progress, how, spec is not None)
        out.flush()
    except BrokenPipeError:
        exit_broken_pipe()  # the reader went away (e.g. "| head"): stop quietly
    except OutputError as exc:
        exit_output_error(exc)  # a full disk: 2, never 1 ("invalid URL found") nor 0
    finally:
        progress.close()
        with contextlib.suppress(OSError):  # whatever is still buffered, even on an error
            release_stdout(out)
        cluster.close()
    if level >= -1:
        _summarize(how.tally, stats, level >= 0)
    sys.exit(status)


def _named_binary(path: str) -> bool:
    # A regular file named on the command line is binary as a walked one is; pipes and "-"
    # are never sniffed (that would consume them).
    return path != "-" and os.path.isfile(path) and is_binary(path)


def skip_binaries(paths: tuple[str, ...], stats: ArchiveStats, note: bool) -> tuple[str, ...]:
    """``paths`` less the binary files named among them, as a folder walk skips them.

    For ``--input-kind auto`` only (an explicit kind reads whatever it is given); each is
    counted in ``stats.binaries_skipped`` and, with ``note``, named on stderr.
    """
    kept = []
    for path in paths:
        if not _named_binary(path):
            kept.append(path)
            continue
        stats.binaries_skipped += 1
        if note:
            click.echo(
                f"urlsift: {path}: binary file skipped (--input-kind text reads it)", err=True
            )
    return tuple(kept)


def _summarize(tally: RunTally, stats: ArchiveStats, groups: bool) -> None:
    # The closing lines on stderr: URLs by outcome and what was read; then the source
    # defects counted by code (unless -q), as ruff and pytest end a run.
    line = tally.outcome(stats.files)
    if stats.messages:
        line += f"; {stats.summary()}"
    elif stats.binaries_skipped:
        line += f"; {plural(stats.binaries_skipped, 'binary file')} skipped"
    click.echo(f"urlsift: {line}", err=True)
    grouped = tally.defect_groups("--show-defects to list") if groups else None
    if grouped is not None:
        click.echo(f"urlsift: {grouped}", err=True)
