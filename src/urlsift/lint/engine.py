"""``lint_paths``: the one call the command line makes (also usable as a library).

Strategy: files from :mod:`.walk`, text from :func:`~.walk.read_document`, findings from
:mod:`.extract`, diagnostics from :mod:`.check`, then one filter for every diagnostic
whatever produced it (text rules, unreadable files, the optional link checker): the rule
selection of the document (its configuration's, less its ``per-file-ignores``), the
``ignore-urls`` patterns, the severity overrides and the document's suppression comments.
Each document is judged by the settings of the configuration that governs it
(:class:`~.config.SettingsResolver`, or one :class:`~.config.LintSettings` for all). URLs
that ``ignore-urls`` matches are dropped before any rule or the link checker sees them. The
result is data (:class:`LintResult`); rendering and exit codes belong to the caller. Bad
documents never raise: an unreadable or (explicitly named) binary file is a ``URL010``
diagnostic, a file larger than ``max-file-size`` a ``URL011`` one (it is not read whole).
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .._model import Policy
from .check import Suppressions, diagnose, one_per_cause
from .config import LintSettings, SettingsResolver
from .extract import ExtractOptions, detect_format, extract_document
from .findings import Extracted
from .locallinks import LocalLinkChecker
from .model import RULE_BY_CODE, Diagnostic, Finding
from .walk import (
    DocumentText,
    WalkOptions,
    display_path,
    force_excluded,
    iter_documents,
    read_document,
    read_stream,
)

SettingsFor = Callable[[Path], LintSettings]
"""The settings of the files of a folder (absolute path in)."""


@dataclass(frozen=True, slots=True)
class LintResult:
    """What a lint run found."""

    diagnostics: tuple[Diagnostic, ...]
    """The problems reported, sorted by :meth:`Diagnostic.sort_key`."""
    files: int
    """Documents checked (unreadable ones included)."""
    urls: int
    """URLs found in them."""
    fallbacks: int = 0
    """Documents the parser asked for could not read (``--rst-parser docutils``), read
    with urlsift's own extractor instead."""
    unreadable: int = 0
    """Paths that could not be read (a file that would not open or read, a folder that
    would not list, a symbolic link to nothing): each has a ``URL010`` diagnostic, the
    rest was linted; the command line exits 2 when there is one, as ``scan`` does."""

    @property
    def files_with_problems(self) -> int:
        """Number of documents with at least one diagnostic."""
        return len({d.path for d in self.diagnostics})

    @property
    def errors(self) -> int:
        """Diagnostics of severity ``error``."""
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        """Diagnostics of severity ``warning``."""
        return sum(d.severity == "warning" for d in self.diagnostics)


def _finalize(
    diagnostics: Sequence[Diagnostic],
    settings: LintSettings,
    suppressions: Suppressions,
    select: frozenset[str] | None = None,
) -> list[Diagnostic]:
    select = settings.select if select is None else select
    out: list[Diagnostic] = []
    for d in diagnostics:
        if d.code not in select or suppressions.silences(d) or settings.url_ignored(d.url):
            continue
        severity = settings.severity_of(d.code, d.severity)
        out.append(d if severity == d.severity else dataclasses.replace(d, severity=severity))
    return one_per_cause(out)


def lint_text(
    text: str, path: str, settings: LintSettings | None = None
) -> tuple[list[Finding], list[Diagnostic]]:
    """Lint one document given as text (no link checking).

    Args:
        text: the decoded document.
        path: its path (the format is chosen from the name, the ``per-file-ignores`` match
            it relative to the settings' root; it is reported as given).
        settings: rule selection and options (default :class:`LintSettings`).

    Returns:
        The findings (those ``ignore-urls`` matches left out) and the diagnostics that
        survive selection and suppressions, in document order.
    """
    settings = settings or LintSettings()
    document = extract_document(text, path, detect_format(path), _extract_options(settings))
    findings = [f for f in document.findings if not settings.url_ignored(f.url)]
    diagnostics = diagnose(findings, text)
    # Only links within the document itself can be checked without its folder.
    local = tuple(
        link
        for link in document.local_links
        if link.target.startswith("#") and not settings.url_ignored(link.target)
    )
    checker = LocalLinkChecker(lambda _path: None)
    checker.add(Path(path), path, dataclasses.replace(document, local_links=local))
    diagnostics.extend(checker.diagnostics())
    select = settings.select_for(Path(path))
    return findings, _finalize(diagnostics, settings, Suppressions.parse(text), select)


def _extract_options(settings: LintSettings) -> ExtractOptions:
    return ExtractOptions(
        include_verbatim=settings.include_verbatim,
        policy=Policy(strict=settings.strict),
        rst_parser=settings.rst_parser,
    )


def _unreadable(path: str, problem: str) -> Diagnostic:
    return Diagnostic(path, 1, 1, "URL010", RULE_BY_CODE["URL010"].severity, problem)


def _too_large(path: str, content: DocumentText) -> Diagnostic:
    rule = RULE_BY_CODE["URL011"]
    return Diagnostic(path, 1, 1, rule.code, rule.severity, content.problem or rule.summary)


_EMPTY = Suppressions({}, frozenset())  # for a document not read


class _Run:
    """One lint run: documents in, a :class:`LintResult` out."""

    def __init__(self, settings: LintSettings | SettingsResolver | None) -> None:
        if isinstance(settings, SettingsResolver):
            self.settings_for: SettingsFor = settings.for_folder
        else:
            fixed = settings or LintSettings()
            self.settings_for = lambda _folder: fixed
        self._walk: dict[int, tuple[LintSettings, WalkOptions]] = {}
        self._extract: dict[int, tuple[LintSettings, ExtractOptions]] = {}
        self.out: list[Diagnostic] = []
        self.files = self.urls = self.fallbacks = self.unreadable = 0
        # Findings for the link checker, by the settings that govern them (their `links`).
        self.to_check: dict[int, tuple[LintSettings, list[Finding]]] = {}
        self.suppressions: dict[str, Suppressions] = {}
        self.local = LocalLinkChecker(self._anchors_of)

    def _anchors_of(self, path: Path) -> Extracted | None:
        """What a document that was not linted defines (a local link's target)."""
        return _anchors_of(path, self.settings_for(path.parent).max_file_size)

    def walk_options(self, folder: Path) -> WalkOptions:
        """The walk options of a folder (built once per settings)."""
        settings = self.settings_for(folder)
        known = self._walk.get(id(settings))
        if known is None:
            known = self._walk[id(settings)] = (settings, settings.walk_options())
        return known[1]

    def _extract_options(self, settings: LintSettings) -> ExtractOptions:
        known = self._extract.get(id(settings))
        if known is None:
            known = self._extract[id(settings)] = (settings, _extract_options(settings))
        return known[1]

    def add(
        self,
        display: str,
        path: Path,
        content: DocumentText,
        settings: LintSettings,
        explicit: bool,
    ) -> None:
        """Lint one document (``path`` absolute: it picks the per-file ignores)."""
        select = settings.select_for(path)
        if content.text is None:
            if content.too_large:
                self.files += 1
                diagnostic = _too_large(display, content)
                self.out.extend(_finalize([diagnostic], settings, _EMPTY, select))
            elif not content.binary or explicit:
                self.files += 1
                self.unreadable += not content.binary
                diagnostic = _unreadable(display, content.problem or "unreadable")
                self.out.extend(_finalize([diagnostic], settings, _EMPTY, select))
            return
        self.files += 1
        text = content.text
        fmt = detect_format(display)
        extracted = extract_document(text, display, fmt, self._extract_options(settings))
        findings = [f for f in extracted.findings if not settings.url_ignored(f.url)]
        if settings.ignore_urls:  # ignore-urls holds for local link targets too
            links = extracted.local_links
            kept = tuple(x for x in links if not settings.url_ignored(x.target))
            extracted = dataclasses.replace(extracted, local_links=kept)
        self.local.add(path, display, extracted)
        self.urls += len(findings)
        self.fallbacks += extracted.fallback
        self.suppressions[display] = found = Suppressions.parse(text)
        self.out.extend(_finalize(diagnose(findings, text), settings, found, select))
        if settings.check_links and findings:
            group = self.to_check.setdefault(id(settings), (settings, []))
            group[1].extend(findings)

    def finish(self, paths: dict[str, Path]) -> LintResult:
        """Check the local links and (when asked) the remote ones; return the result."""
        for d in self.local.diagnostics():
            settings = self.settings_for(paths[d.path].parent)
            suppressions = self.suppressions.get(d.path, _EMPTY)
            select = settings.select_for(paths[d.path])
            self.out.extend(_finalize([d], settings, suppressions, select))
        started = time.monotonic()
        for settings, findings in self.to_check.values():
            for d in _check_links(findings, settings, time.monotonic() - started):
                suppressions = self.suppressions.get(d.path, _EMPTY)
                select = settings.select_for(paths[d.path])
                self.out.extend(_finalize([d], settings, suppressions, select))
        self.out.sort(key=Diagnostic.sort_key)
        return LintResult(tuple(self.out), self.files, self.urls, self.fallbacks, self.unreadable)


def lint_paths(
    paths: Sequence[str],
    settings: LintSettings | SettingsResolver | None = None,
    *,
    cwd: Path | None = None,
) -> LintResult:
    """Lint files and folders.

    Args:
        paths: files and folders (they must exist; folders are walked).
        settings: the settings of every file (default :class:`LintSettings`), or a
            :class:`~.config.SettingsResolver` that gives each file those of its closest
            configuration file.
        cwd: the working folder paths are reported relative to (default: the process's).

    Returns:
        The diagnostics and counts.

    Raises:
        ConfigError: a setting is unusable (a configuration file found in a folder is
            invalid, or a bad ``--exclude-link`` pattern, as reported by the link checker).
    """
    cwd = cwd or Path.cwd()
    run = _Run(settings)
    shown: dict[str, Path] = {}
    for document in iter_documents(paths, run.walk_options, cwd):
        document_settings = run.settings_for(document.path.parent)
        if document.problem is not None:  # a folder that would not list, a broken link
            content = DocumentText(None, document.problem)
        else:
            content = read_document(document.path, document_settings.max_file_size)
        shown[document.display] = document.path
        run.add(document.display, document.path, content, document_settings, document.explicit)
    return run.finish(shown)


def lint_stream(
    stream: BinaryIO,
    filename: str | None = None,
    settings: LintSettings | SettingsResolver | None = None,
    *,
    cwd: Path | None = None,
) -> LintResult:
    """Lint one document read from a byte stream (``urlsift lint -``).

    Args:
        stream: the document's bytes (read up to ``max-file-size`` + 1 bytes).
        filename: the name it stands for (``--stdin-filename``): it picks the format, the
            configuration (found from its folder), the per-file ignores and
            ``force-exclude``, and names the document in diagnostics. None: ``-``,
            read as plain text under the working folder's configuration.
        settings: as for :func:`lint_paths`.
        cwd: the working folder.

    Returns:
        The diagnostics and counts (nothing is read when ``force-exclude`` drops the name).
    """
    cwd = cwd or Path.cwd()
    run = _Run(settings)
    path = Path(os.path.abspath(cwd / (filename or "-")))
    document_settings = run.settings_for(path.parent)
    if filename is not None and force_excluded(path, run.walk_options, cwd):
        return LintResult((), 0, 0)
    display = display_path(path, filename, cwd) if filename is not None else "-"
    content = read_stream(stream, document_settings.max_file_size)
    run.add(display, path, content, document_settings, True)
    return run.finish({display: path})


def _anchors_of(path: Path, max_file_size: int) -> Extracted | None:
    """What a document that was not linted defines (a local link's target)."""
    content = read_document(path, max_file_size)
    if content.text is None:
        return None
    return extract_document(content.text, str(path), detect_format(path.name))


def _check_links(
    findings: Sequence[Finding], settings: LintSettings, spent: float = 0.0
) -> list[Diagnostic]:
    """Run the link checker (``urlsift.lint.links``), imported only when asked for.

    ``spent``: seconds the run's earlier link checks took (under other settings): the
    ``max-time`` deadline is for all of them together.
    """
    # Imported here: the checker has its own dependencies (httpx) and costs start-up time.
    from .links import LinkOptions, diagnose_links

    options = LinkOptions.from_config(settings.links)
    options = dataclasses.replace(options, exclude=(*options.exclude, *settings.link_exclude))
    if settings.link_timeout is not None:
        options = dataclasses.replace(options, timeout=settings.link_timeout)
    if settings.link_max_time is not None:
        options = dataclasses.replace(options, max_time=settings.link_max_time)
    if spent:
        options = dataclasses.replace(options, max_time=max(options.max_time - spent, 1e-3))
    if not settings.link_cache:
        options = dataclasses.replace(options, cache_path=None)
    return list(diagnose_links(findings, options))
