"""``lint_paths``: the one call the command line makes (also usable as a library).

Strategy: files from :mod:`.walk`, text from :func:`~.walk.read_document`, findings from
:mod:`.extract`, diagnostics from :mod:`.check`, then one filter for every diagnostic
whatever produced it (text rules, unreadable files, the optional link checker): the rule
selection, the severity overrides and the document's suppression comments. The result is
data (:class:`LintResult`); rendering and exit codes belong to the caller. Bad documents
never raise: an unreadable or (explicitly named) binary file is a ``URL010`` diagnostic, a
file larger than ``max-file-size`` a ``URL011`` one (it is not read whole).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .._model import Policy
from .check import Suppressions, diagnose
from .config import LintSettings
from .extract import ExtractOptions, detect_format, extract_document
from .locallinks import LocalLinkChecker
from .model import RULE_BY_CODE, Diagnostic, Finding
from .walk import DocumentText, iter_documents, read_document, walk_options


@dataclass(frozen=True, slots=True)
class LintResult:
    """What a lint run found."""

    diagnostics: tuple[Diagnostic, ...]
    """The problems reported, sorted by :meth:`Diagnostic.sort_key`."""
    files: int
    """Documents checked (unreadable ones included)."""
    urls: int
    """URLs found in them."""

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
    diagnostics: Sequence[Diagnostic], settings: LintSettings, suppressions: Suppressions
) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for d in diagnostics:
        if d.code not in settings.select or suppressions.silences(d):
            continue
        severity = settings.severity_of(d.code, d.severity)
        out.append(d if severity == d.severity else dataclasses.replace(d, severity=severity))
    return out


def lint_text(
    text: str, path: str, settings: LintSettings | None = None
) -> tuple[list[Finding], list[Diagnostic]]:
    """Lint one document given as text (no link checking).

    Args:
        text: the decoded document.
        path: its path (the format is chosen from the name; it is reported as given).
        settings: rule selection and options (default :class:`LintSettings`).

    Returns:
        The findings and the diagnostics that survive selection and suppressions,
        in document order.
    """
    settings = settings or LintSettings()
    document = extract_document(text, path, detect_format(path), _extract_options(settings))
    diagnostics = diagnose(document.findings, text)
    # Only links within the document itself can be checked without its folder.
    local = [link for link in document.local_links if link.target.startswith("#")]
    checker = LocalLinkChecker(lambda _path: None)
    checker.add(Path(path), path, dataclasses.replace(document, local_links=tuple(local)))
    diagnostics.extend(checker.diagnostics())
    return document.findings, _finalize(diagnostics, settings, Suppressions.parse(text))


def _extract_options(settings: LintSettings) -> ExtractOptions:
    return ExtractOptions(
        include_verbatim=settings.include_verbatim, policy=Policy(strict=settings.strict)
    )


def _unreadable(path: str, problem: str) -> Diagnostic:
    return Diagnostic(path, 1, 1, "URL010", RULE_BY_CODE["URL010"].severity, problem)


def _too_large(path: str, content: DocumentText) -> Diagnostic:
    rule = RULE_BY_CODE["URL011"]
    return Diagnostic(path, 1, 1, rule.code, rule.severity, content.problem or rule.summary)


def lint_paths(
    paths: Sequence[str], settings: LintSettings | None = None, *, cwd: Path | None = None
) -> LintResult:
    """Lint files and folders.

    Args:
        paths: files and folders (they must exist; folders are walked).
        settings: rule selection and options (default :class:`LintSettings`).
        cwd: the working folder paths are reported relative to (default: the process's).

    Returns:
        The diagnostics and counts.

    Raises:
        ConfigError: a setting is unusable (e.g. a bad ``--exclude-link`` pattern, as
            reported by the link checker).
    """
    settings = settings or LintSettings()
    options = walk_options(
        settings.include, settings.extend_include, settings.exclude, settings.respect_gitignore
    )
    extract_options = _extract_options(settings)
    out: list[Diagnostic] = []
    files = urls = 0
    every_finding: list[Finding] = []
    suppressions: dict[str, Suppressions] = {}
    empty = Suppressions({}, frozenset())  # for a document not read
    local = LocalLinkChecker(lambda path: _anchors_of(path, settings.max_file_size))
    for document in iter_documents(paths, options, cwd):
        content = read_document(document.path, settings.max_file_size)
        if content.text is None:
            if content.too_large:
                files += 1
                out.extend(_finalize([_too_large(document.display, content)], settings, empty))
            elif not content.binary or document.explicit:
                files += 1
                out.append(_unreadable(document.display, content.problem or "unreadable"))
            continue
        files += 1
        text = content.text
        fmt = detect_format(document.display)
        extracted = extract_document(text, document.display, fmt, extract_options)
        findings = extracted.findings
        local.add(document.path, document.display, extracted)
        urls += len(findings)
        suppressions[document.display] = found = Suppressions.parse(text)
        out.extend(_finalize(diagnose(findings, text), settings, found))
        if settings.check_links:
            every_finding.extend(findings)
    for d in local.diagnostics():
        out.extend(_finalize([d], settings, suppressions.get(d.path, empty)))
    if settings.check_links:
        for d in _check_links(every_finding, settings):
            out.extend(_finalize([d], settings, suppressions.get(d.path, empty)))
    out.sort(key=Diagnostic.sort_key)
    return LintResult(tuple(out), files, urls)


def _anchors_of(path: Path, max_file_size: int) -> frozenset[str] | None:
    """The anchors of a document that was not linted (a local link's target)."""
    content = read_document(path, max_file_size)
    if content.text is None:
        return None
    return extract_document(content.text, str(path), detect_format(path.name)).anchors


def _check_links(findings: Sequence[Finding], settings: LintSettings) -> list[Diagnostic]:
    """Run the link checker (``urlsift.lint.links``), imported only when asked for."""
    # Imported here: the checker has its own dependencies (httpx) and costs start-up time.
    from .links import LinkOptions, diagnose_links

    options = LinkOptions.from_config(settings.links)
    options = dataclasses.replace(options, exclude=(*options.exclude, *settings.link_exclude))
    if settings.link_timeout is not None:
        options = dataclasses.replace(options, timeout=settings.link_timeout)
    if not settings.link_cache:
        options = dataclasses.replace(options, cache_path=None)
    return list(diagnose_links(findings, options))
