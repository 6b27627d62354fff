"""Run a scan over paths: sources -> scanner -> judge, as one ordered stream of results.

Strategy: this is the edge where paths meet the sans-IO core. For each path the sources
(:func:`urlsift.sources.archive.open_units`) yield text units; each unit gets a fresh
scanner (a URL never spans two parts or two messages) and every candidate goes through
one shared :class:`~urlsift.api.Judge`. The result stream holds three kinds of record,
in input order:

* :class:`~urlsift.Url` for every URL found;
* :class:`UnitDefects` once per message (or file) whose text had problems (broken MIME,
  bad charset, truncation ...): the problems are reported once, not copied onto each URL;
* :class:`ReadFailure` for a path that could not be read (the other paths go on).

With ``jobs > 1`` the same stream, in the same order, comes from worker processes
(:mod:`urlsift.parallel`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ._model import Defect, MessageContext, Policy, TextUnit, Url
from .api import Judge, scan_unit
from .scanner import Scanner
from .sources.archive import ArchiveStats, InputKind, open_units
from .sources.options import MailOptions
from .sources.tree import expand_paths


@dataclass(frozen=True, slots=True)
class ReadFailure:
    """A path that could not be read; the scan goes on with the next one."""

    path: str
    """The path as given."""
    reason: str
    """Why, in words (e.g. ``No such file or directory``)."""


@dataclass(frozen=True, slots=True)
class UnitDefects:
    """Problems of one message (or file) found while reading it, reported once."""

    source: str
    """Path the text came from."""
    context: MessageContext | None
    """The message, when the text came from a mail or news archive."""
    defects: tuple[Defect, ...]
    """The problems, each with a stable code."""

    def to_dict(self) -> dict[str, object]:
        """Return the record as a JSON-ready mapping (``record`` is ``defects``)."""
        out: dict[str, object] = {"record": "defects", "source": self.source}
        if self.context is not None:
            out.update(self.context.to_dict())
        out["defects"] = [d.to_dict() for d in self.defects]
        return out


Result = Url | UnitDefects | ReadFailure
"""One record of a scan's output stream."""

READ_ERROR_CODES = frozenset({"stream-read-error", "message-unreadable"})
"""Source defects saying that part of a path could not be read (a truncated compressed
archive, a folder's message file that cannot be opened): what was read is reported, and
the command line then exits as for a path that cannot be read at all."""


@dataclass(frozen=True, slots=True)
class ScanConfig:
    """Everything a scan needs besides the paths (picklable, for worker processes)."""

    kind: InputKind = "auto"
    """What the paths hold, or ``auto`` to detect it."""
    options: MailOptions = field(default_factory=MailOptions)
    """What the mail sources read, and their caps."""
    schemes: tuple[str, ...] | None = None
    """Schemes recognised in bare URLs (``None``: the default set)."""
    policy: Policy = field(default_factory=Policy)
    """Validation strictness."""
    exclude: tuple[str, ...] = ()
    """Gitignore-style globs of files and folders skipped when a folder of mixed files is
    walked (:mod:`urlsift.sources.tree`)."""
    respect_gitignore: bool = True
    """Skip what ``.gitignore`` files ignore when a folder is walked."""


def scan_text_units(
    units: Iterable[TextUnit], config: ScanConfig, judge: Judge
) -> Iterator[Url | UnitDefects]:
    """Scan units in order, reporting each message's defects once, before its URLs.

    Args:
        units: text units (their ``defects`` are reported as :class:`UnitDefects`).
        config: bare-URL schemes.
        judge: the shared rejoin-and-validate step.

    Returns:
        An iterator of URLs and defect records, in text order.
    """
    reported: tuple[str, int] | None = None
    for unit in units:
        if unit.defects:
            key = (unit.source, unit.context.message if unit.context else 0)
            if key != reported:
                reported = key
                yield UnitDefects(unit.source, unit.context, unit.defects)
        yield from scan_unit(unit, Scanner(config.schemes, origin=unit.origin), judge)


def failure_reason(exc: OSError) -> str:
    """Return the words a :class:`ReadFailure` gives for a read error."""
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str):
        return reason
    return exc.strerror or str(exc)


def iter_results(
    paths: Sequence[str],
    config: ScanConfig | None = None,
    *,
    stats: ArchiveStats | None = None,
    jobs: int = 1,
) -> Iterator[Result]:
    """Scan paths (``-`` is standard input) and yield every result in input order.

    Args:
        paths: files, folders or ``-``. A Maildir, MH folder or news spool is one
            archive; any other folder is walked, each file read by its own kind, binary
            files skipped (:func:`urlsift.sources.tree.expand_paths`).
        config: input kind, mail options, schemes and policy.
        stats: counters updated as messages are read (for progress and the summary).
        jobs: worker processes; with more than one, files and large mbox archives are
            scanned in parallel and the results come back in the same order.

    Returns:
        An iterator of :data:`Result` records.
    """
    config = config if config is not None else ScanConfig()
    stats = stats if stats is not None else ArchiveStats()
    if jobs > 1:
        from .parallel import iter_results_parallel

        return iter_results_parallel(paths, config, stats=stats, jobs=jobs)
    return iter_sequential(paths, config, stats)


def iter_sequential(
    paths: Sequence[str], config: ScanConfig, stats: ArchiveStats
) -> Iterator[Result]:
    """Scan paths one after the other in this process (``iter_results`` with one job)."""
    judge = Judge(policy=config.policy)
    for path in expand_paths(paths, config, stats):
        units = open_units(path, config.kind, config.options, stats)
        try:
            yield from scan_text_units(units, config, judge)
        except OSError as exc:
            yield ReadFailure(path, failure_reason(exc))
