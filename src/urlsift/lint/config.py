"""Settings of ``urlsift lint``: configuration files, rule selectors, command-line layers.

Strategy: configuration is data read once per file, validated completely, and frozen into
:class:`LintSettings`, so a mistake is a usage error (exit 2) with a message that names the
file and the key, never a surprise halfway through a run. As in ruff, the *closest*
configuration file governs each linted file: :class:`SettingsResolver` looks in the file's
folder and then its parents for an ``urlsift.toml`` (top-level keys) or a
``pyproject.toml`` with a ``[tool.urlsift]`` table (one without the table is passed over;
``urlsift.toml`` wins when one folder has both). Files are not merged up the tree: a
configuration may name a base with ``extend``. Globs in a configuration (``exclude``,
``include``, ``per-file-ignores``) are relative to its folder; a ``--config`` file governs
every file and its globs are relative to the working folder. A file under no configuration
gets the one found from the working folder up, else the defaults. The command line is a
layer over every configuration (:class:`CliOptions`); its globs are relative to the working
folder. Each folder's answer is cached, so a run reads each configuration file once and
looks at each folder once. Rules are named by selectors: a code (``URL003``), a code prefix
(``URL0``, ``URL``), a rule name (``ambiguous-hyphen``) or ``ALL``.
"""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import cast

from ..errors import ConfigError, check_limit
from .extract_rst_docutils import RST_EXTRA_HINT, RST_PARSERS, docutils_available
from .findings import RstParser
from .model import DEFAULT_CODES, OPT_IN_GROUPS, RULE_BY_NAME, RULES, LintSeverity
from .walk import DEFAULT_MAX_FILE_SIZE, Globs, WalkOptions, is_file, unanchored

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

ALL_CODES = frozenset(rule.code for rule in RULES)
"""Every rule code."""

CONFIG_FILES = ("urlsift.toml", "pyproject.toml")
"""Configuration file names, in order of precedence within one folder."""

CONFIG_KEYS: dict[str, str] = {
    "extend": "path of a configuration file this one builds on (relative to this file)",
    "select": "list of rule selectors to report (default: every rule outside RFC1738)",
    "extend-select": "list of rule selectors added to `select`",
    "ignore": "list of rule selectors not to report",
    "per-file-ignores": "table: glob -> list of rule selectors not reported in matching files",
    "extend-per-file-ignores": "table: like `per-file-ignores`, added to it",
    "ignore-urls": "list of URL patterns (globs, or `re:` regular expressions) never "
    "reported by any rule nor checked by --check-links",
    "severity": 'table: rule selector -> "error" or "warning"',
    "include": "list of globs: the documents linted in folders (replaces the default set)",
    "extend-include": "list of globs added to the default document set",
    "exclude": "list of globs: files and folders not linted in folders",
    "extend-exclude": "list of globs added to `exclude`",
    "force-exclude": "boolean: `exclude` also drops files named on the command line "
    "(default false; set it for pre-commit)",
    "strict": "boolean: RFC 1738 strictness: selects the RFC1738 rules, and '~' and "
    "'host?query' are errors",
    "include-verbatim": "boolean: also check URLs in code blocks, code spans, <pre> ...",
    "rst-parser": '"urlsift" (default) or "docutils": who decides what is a link in reST '
    "(docutils needs the rst extra)",
    "respect-gitignore": "boolean: skip what .gitignore files ignore (default true)",
    "max-file-size": "integer: largest file linted, in bytes (default 10485760, 10 MiB); "
    "a larger one gets URL011",
    "links": "table: options of --check-links (passed to the link checker)",
}
"""Configuration keys (kebab-case) and what they hold (``docs/lint.md`` lists them).
Globs are gitignore-style and relative to the configuration file's folder."""


def default_selection(strict: bool) -> frozenset[str]:
    """Return the codes reported when no ``select`` (nor ``--select``) is given.

    Args:
        strict: the ``strict`` setting in force for the file: it adds the ``RFC1738`` group.
    """
    return DEFAULT_CODES | OPT_IN_GROUPS["RFC1738"] if strict else DEFAULT_CODES


def _resolve_one(selector: str) -> frozenset[str] | None:
    text = selector.strip()
    if text.upper() == "ALL":
        return ALL_CODES
    group = OPT_IN_GROUPS.get(text.upper())
    if group is not None:
        return group
    rule = RULE_BY_NAME.get(text.lower())
    if rule is not None:
        return frozenset({rule.code})
    upper = text.upper()
    codes = frozenset(code for code in ALL_CODES if code.startswith(upper))
    return codes if upper and codes else None


def resolve_selectors(selectors: Iterable[str], option: str) -> frozenset[str]:
    """Return the rule codes named by selectors (codes, prefixes, names or ``ALL``).

    Args:
        selectors: the selectors; each may also be a comma-separated list.
        option: the option or key they came from (for the error message).

    Returns:
        The codes.

    Raises:
        ConfigError: a selector names no rule.
    """
    codes: set[str] = set()
    for value in selectors:
        for part in value.split(","):
            if not part.strip():
                continue
            found = _resolve_one(part)
            if found is None:
                raise ConfigError(
                    option,
                    part.strip(),
                    "unknown rule selector; use a code (URL003), a code prefix (URL0), "
                    "a rule name (ambiguous-hyphen) or ALL",
                )
            codes |= found
    return frozenset(codes)


def resolve_selectors_lenient(selectors: Iterable[str]) -> frozenset[str]:
    """Like :func:`resolve_selectors`, but selectors that name no rule are skipped."""
    codes: set[str] = set()
    for part in selectors:
        found = _resolve_one(part) if part.strip() else None
        if found is not None:
            codes |= found
    return frozenset(codes)


@dataclass(frozen=True, slots=True)
class CliOptions:
    """The command line's layer over the configuration file (None: not given)."""

    select: tuple[str, ...] | None = None
    """``--select``: replaces the file's selection (its ``ignore`` too)."""
    extend_select: tuple[str, ...] = ()
    """``--extend-select``: added to the selection."""
    ignore: tuple[str, ...] = ()
    """``--ignore``: removed from the selection."""
    include: tuple[str, ...] | None = None
    """``--include``: replaces the document globs."""
    extend_include: tuple[str, ...] = ()
    """``--extend-include``: added to the document globs."""
    exclude: tuple[str, ...] = ()
    """``--exclude``: added to the file's ``exclude``."""
    force_exclude: bool | None = None
    """``--force-exclude`` (True) / ``--no-force-exclude`` (False)."""
    ignore_urls: tuple[str, ...] = ()
    """``--ignore-url``: added to the file's ``ignore-urls``."""
    strict: bool | None = None
    """``--strict``."""
    include_verbatim: bool | None = None
    """``--include-verbatim``."""
    rst_parser: str | None = None
    """``--rst-parser``."""
    respect_gitignore: bool | None = None
    """``--no-gitignore`` gives False."""
    check_links: bool = False
    """``--check-links``."""
    link_timeout: float | None = None
    """``--timeout``."""
    link_max_time: float | None = None
    """``--max-time``."""
    link_exclude: tuple[str, ...] = ()
    """``--exclude-link`` regular expressions."""
    link_cache: bool = True
    """False with ``--no-cache``."""
    link_allow_private_redirects: bool = False
    """``--allow-private-redirects``: sets the ``[links]`` key of that name."""


@dataclass(frozen=True, slots=True)
class LintSettings:
    """Everything a lint run needs to know about the files one configuration governs."""

    select: frozenset[str] = DEFAULT_CODES
    """Codes reported."""
    severity: tuple[tuple[str, LintSeverity], ...] = ()
    """Severity overrides: (code, severity)."""
    include: tuple[str, ...] | None = None
    """Globs of the documents linted in folders (None: the default set)."""
    extend_include: tuple[str, ...] = ()
    """Globs added to the document set."""
    exclude: tuple[str, ...] = ()
    """Globs of files and folders not linted in folders (``exclude``, ``extend-exclude``
    and ``--exclude`` together)."""
    strict: bool = False
    """RFC 1738 strictness (:class:`~urlsift.Policy`). :func:`build_settings` also adds the
    ``RFC1738`` group to the default selection when it is set; a ``select`` given here is
    used as it is."""
    include_verbatim: bool = False
    """Also check URLs in code."""
    rst_parser: RstParser = "urlsift"
    """Who decides what is a link in reST documents (``docutils``: docutils decides and
    urlsift's extractor locates, :mod:`.extract_rst_docutils`)."""
    respect_gitignore: bool = True
    """Skip what ``.gitignore`` files ignore."""
    check_links: bool = False
    """Check that http/https links resolve (``URL101``-``URL104``)."""
    links: Mapping[str, object] = field(default_factory=dict)
    """The ``[links]`` table of the configuration, untouched."""
    link_timeout: float | None = None
    """Timeout override for the link checker."""
    link_max_time: float | None = None
    """Override of the link checker's overall deadline (``max-time``)."""
    link_exclude: tuple[str, ...] = ()
    """Extra link patterns not checked."""
    link_cache: bool = True
    """False: the link checker keeps no cache."""
    config_path: Path | None = None
    """The configuration file used, if any."""
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    """Largest file linted, in bytes (a larger one gets ``URL011`` and is not read)."""
    force_exclude: bool = False
    """``exclude`` also drops the files named on the command line."""
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    """(glob, codes): codes not reported in the files the glob matches (a glob starting
    with ``!`` matches the files it would not)."""
    ignore_urls: tuple[str, ...] = ()
    """URL patterns never reported nor checked: globs matched against the whole URL, or
    ``re:`` and a regular expression searched in it."""
    root: Path | None = None
    """The folder the globs are relative to (absolute; None: the working folder, and for
    folder walks the folder given on the command line)."""

    def severity_of(self, code: str, default: LintSeverity) -> LintSeverity:
        """Return the effective severity of a diagnostic of ``code``."""
        for overridden, severity in self.severity:
            if overridden == code:
                return severity
        return default

    def select_for(self, path: Path) -> frozenset[str]:
        """Return the codes reported in one file (``select`` minus its per-file ignores).

        Args:
            path: the file, absolute (or relative to :attr:`root`).
        """
        if not self.per_file_ignores:
            return self.select
        root = self.root or Path.cwd()
        absolute = path if path.is_absolute() else root / path
        select = self.select
        for pattern, codes in self.per_file_ignores:
            negated = pattern.startswith("!")
            if _file_globs(pattern.removeprefix("!"), root).matches(absolute, False) != negated:
                select = select - codes
        return select

    def url_ignored(self, url: str | None) -> bool:
        """Return True when ``url`` matches ``ignore-urls``."""
        return bool(url and self.ignore_urls and _url_pattern(self.ignore_urls).search(url))

    def walk_options(self) -> WalkOptions:
        """Return what a folder walk governed by these settings lints."""
        return WalkOptions(
            include=self.include,
            extend_include=self.extend_include,
            exclude=self.exclude,
            respect_gitignore=self.respect_gitignore,
            root=self.root,
            force_exclude=self.force_exclude,
        )


@lru_cache(maxsize=1024)
def _file_globs(pattern: str, root: Path) -> Globs:
    return Globs((pattern,), root)


def _url_source(pattern: str) -> str:
    if pattern.startswith("re:"):
        return f"(?:{pattern[3:]})"
    return rf"\A{fnmatch.translate(pattern)}"


@lru_cache(maxsize=64)
def _url_pattern(patterns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(_url_source(p) for p in patterns))


def _check_url_patterns(patterns: tuple[str, ...], option: str) -> tuple[str, ...]:
    for pattern in patterns:
        try:
            re.compile(_url_source(pattern))
        except re.error as exc:
            raise ConfigError(option, pattern, f"not a regular expression: {exc}") from exc
    return patterns


def rebase_glob(pattern: str, source: Path, target: Path) -> str | None:
    """Return a gitignore-style glob relative to ``source`` as one relative to ``target``.

    A glob without an inner ``/`` matches in any folder and is returned as it is; an
    anchored one is re-anchored (``docs/old/`` from ``/p`` is ``/old/`` from ``/p/docs``).

    Args:
        pattern: the glob (a leading ``!`` is kept).
        source: the folder it is relative to (absolute).
        target: the folder it must be relative to (absolute).

    Returns:
        The glob, or None when it can match nothing under ``target``.
    """
    if source == target or unanchored(pattern) or pattern.removeprefix("!").startswith("**/"):
        return pattern
    negated = pattern.startswith("!")
    body = pattern.removeprefix("!")
    trailing = "/" if body.endswith("/") else ""
    absolute = Path(os.path.normpath(source / body.lstrip("/")))
    try:
        rel = PurePosixPath(absolute.relative_to(target).as_posix())
    except ValueError:
        return None
    if str(rel) == ".":
        return None
    return ("!" if negated else "") + f"/{rel}{trailing}"


def _read_toml(path: Path) -> dict[str, object]:
    try:
        return cast("dict[str, object]", tomllib.loads(path.read_text(encoding="utf-8")))
    except OSError as exc:
        raise ConfigError("configuration file", str(path), exc.strerror or str(exc)) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError("configuration file", str(path), f"not UTF-8 text: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("configuration file", str(path), f"not valid TOML: {exc}") from exc


def config_in(folder: Path) -> Path | None:
    """Return the configuration file of one folder, or None.

    Args:
        folder: the folder.

    Returns:
        Its ``urlsift.toml``, else its ``pyproject.toml`` when that holds a
        ``[tool.urlsift]`` table.

    Raises:
        ConfigError: the folder's ``pyproject.toml`` is not valid TOML (whether it holds
            a urlsift table cannot be told; ruff refuses such a file too).
    """
    candidate = folder / "urlsift.toml"
    if is_file(candidate):  # never raises: a folder it may not search holds no config
        return candidate
    candidate = folder / "pyproject.toml"
    if is_file(candidate):
        tool = _read_toml(candidate).get("tool")
        if isinstance(tool, dict) and "urlsift" in tool:
            return candidate
    return None


def find_config(start: Path) -> Path | None:
    """Return the configuration file that applies to ``start`` (a folder), or None.

    Args:
        start: the folder to start from.

    Returns:
        The nearest ``urlsift.toml``, or ``pyproject.toml`` holding ``[tool.urlsift]``,
        in ``start`` or a parent folder.

    Raises:
        ConfigError: a ``pyproject.toml`` on the way is not valid TOML.
    """
    for folder in [start, *start.parents]:
        found = config_in(folder)
        if found is not None:
            return found
    return None


def read_config(path: Path) -> dict[str, object]:
    """Read the urlsift table of a configuration file.

    Args:
        path: a ``pyproject.toml`` (its ``[tool.urlsift]`` table is read) or any other
            TOML file (its top-level keys are read).

    Returns:
        The table (empty when a ``pyproject.toml`` has none).

    Raises:
        ConfigError: the file cannot be read or is not valid TOML.
    """
    data = _read_toml(path)
    if path.name != "pyproject.toml":
        return data
    tool = data.get("tool", {})
    table = tool.get("urlsift", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"[tool.urlsift] in {path}", table, "must be a table")
    return cast("dict[str, object]", table)


MAX_EXTEND_DEPTH = 16
"""Longest chain of ``extend`` (a longer one is taken for a mistake)."""


def read_config_chain(path: Path) -> list[tuple[Path, dict[str, object]]]:
    """Read a configuration file and the bases it extends (``extend``), the deepest base first.

    Args:
        path: the configuration file.

    Returns:
        (file, table) pairs; the last is ``path``'s own.

    Raises:
        ConfigError: a file cannot be read or is invalid, ``extend`` is not a string,
            names a missing file, or the chain loops.
    """
    chain: list[tuple[Path, dict[str, object]]] = []
    seen: list[Path] = []
    current: Path | None = path
    while current is not None:
        resolved = Path(os.path.abspath(current))
        if resolved in seen or len(seen) >= MAX_EXTEND_DEPTH:
            names = " -> ".join(str(p) for p in [*seen, resolved])
            problem = "a loop" if resolved in seen else f"more than {MAX_EXTEND_DEPTH} files"
            raise ConfigError(f"extend in {seen[-1]}", str(current), f"{problem}: {names}")
        seen.append(resolved)
        table = read_config(resolved)
        chain.append((resolved, table))
        base = table.get("extend")
        if base is None:
            current = None
        elif isinstance(base, str) and base:
            current = resolved.parent / Path(base).expanduser()
            if not current.is_file():
                raise ConfigError(f"extend in {resolved}", base, "no such file")
        else:
            raise ConfigError(f"extend in {resolved}", base, "must be a path (a string)")
    chain.reverse()
    return chain


def _strings(table: Mapping[str, object], key: str, where: str) -> tuple[str, ...] | None:
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(cast("list[str]", value))
    raise ConfigError(f"{key} in {where}", value, "must be a list of strings")


def _boolean(table: Mapping[str, object], key: str, where: str) -> bool | None:
    value = table.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise ConfigError(f"{key} in {where}", value, "must be true or false")


MAX_FILE_SIZE_LIMIT = 2**32
"""The largest ``max-file-size`` (4 GiB): a document is read whole, with one read of that
many bytes, which a far larger number made fail (OverflowError, MemoryError)."""


def _size(table: Mapping[str, object], key: str, where: str) -> int | None:
    value = table.get(key)
    if value is None:
        return None
    return check_limit(f"{key} in {where}", value, most=MAX_FILE_SIZE_LIMIT)


def rst_parser(value: object, option: str, *, usable: bool = True) -> RstParser:
    """Return a valid ``rst-parser`` value.

    Args:
        value: the value given.
        option: the key or option it came from (for the error message).
        usable: also require what the value needs (docutils for ``docutils``).

    Returns:
        ``urlsift`` or ``docutils``.

    Raises:
        ConfigError: another value, or (``usable``) ``docutils`` when docutils is not
            installed: the message says how to install the ``rst`` extra.
    """
    if value not in RST_PARSERS:
        raise ConfigError(option, value, 'must be "urlsift" or "docutils"')
    if usable and value == "docutils" and not docutils_available():
        raise ConfigError(option, value, f"docutils is not installed ({RST_EXTRA_HINT})")
    return value


def _severities(table: Mapping[str, object], where: str) -> dict[str, LintSeverity]:
    value = table.get("severity", {})
    if not isinstance(value, dict):
        raise ConfigError(f"severity in {where}", value, "must be a table")
    out: dict[str, LintSeverity] = {}
    for selector, severity in value.items():
        if severity not in ("error", "warning"):
            raise ConfigError(
                f"severity.{selector} in {where}", severity, 'must be "error" or "warning"'
            )
        for code in resolve_selectors([selector], f"severity key in {where}"):
            out[code] = cast("LintSeverity", severity)
    return out


def _file_ignores(
    table: Mapping[str, object], key: str, where: str
) -> list[tuple[str, frozenset[str]]] | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ConfigError(f"{key} in {where}", value, "must be a table: glob -> selectors")
    out: list[tuple[str, frozenset[str]]] = []
    for pattern, selectors in value.items():
        option = f"{key} glob {pattern!r} in {where}"
        if not pattern.removeprefix("!"):
            raise ConfigError(option, pattern, "an empty glob")
        if isinstance(selectors, str):
            selectors = [selectors]
        if not isinstance(selectors, list) or not all(isinstance(x, str) for x in selectors):
            raise ConfigError(option, selectors, "must be a list of rule selectors")
        out.append((pattern, resolve_selectors(selectors, option)))
    return out


class _Layers:
    """Settings being built from configuration layers (a base first), then the CLI."""

    def __init__(self, root: Path) -> None:
        self.root = root
        # The selection: a base (None: the default, known once `strict` is) and the
        # layers' additions and removals, applied in order.
        self.select: frozenset[str] | None = None
        self.edits: list[tuple[frozenset[str], frozenset[str]]] = []
        self.severity: dict[str, LintSeverity] = {}
        self.include: tuple[str, ...] | None = None
        self.extend_include: list[str] = []
        self.exclude: list[str] = []
        self.extend_exclude: list[str] = []
        self.per_file_ignores: list[tuple[str, frozenset[str]]] = []
        self.extend_per_file_ignores: list[tuple[str, frozenset[str]]] = []
        self.ignore_urls: tuple[str, ...] = ()
        self.flags: dict[str, bool] = {}
        self.max_file_size = DEFAULT_MAX_FILE_SIZE
        self.links: dict[str, object] = {}
        # The rst-parser key's value and where it was set; checked usable only when no
        # --rst-parser overrides it.
        self.rst_parser: tuple[RstParser, str] | None = None

    def _globs(self, patterns: Iterable[str], base: Path) -> list[str]:
        rebased = (rebase_glob(pattern, base, self.root) for pattern in patterns)
        return [pattern for pattern in rebased if pattern is not None]

    def _file_globs(
        self, entries: Iterable[tuple[str, frozenset[str]]], base: Path
    ) -> list[tuple[str, frozenset[str]]]:
        out = []
        for pattern, codes in entries:
            negated = "!" if pattern.startswith("!") else ""
            rebased = rebase_glob(pattern.removeprefix("!"), base, self.root)
            if rebased is not None:
                out.append((negated + rebased, codes))
        return out

    def add_table(
        self, table: Mapping[str, object], where: str, base: Path, *, found: bool = False
    ) -> None:
        # found: the table comes from a configuration discovered from a linted path (not
        # named by the user): it may change what is checked, never what is written.
        unknown = sorted(set(table) - set(CONFIG_KEYS))
        if unknown:
            known = ", ".join(CONFIG_KEYS)
            raise ConfigError(f"key in {where}", unknown[0], f"unknown key; known keys: {known}")
        select = _strings(table, "select", where)
        if select is not None:  # as in ruff, a layer's `select` starts the selection over
            self.select = resolve_selectors(select, f"select in {where}")
            self.edits = []
        extend = _strings(table, "extend-select", where) or ()
        ignore = _strings(table, "ignore", where) or ()
        self.edits.append(
            (
                resolve_selectors(extend, f"extend-select in {where}"),
                resolve_selectors(ignore, f"ignore in {where}"),
            )
        )
        self.severity.update(_severities(table, where))
        include = _strings(table, "include", where)
        if include is not None:
            self.include = tuple(self._globs(include, base))
        self.extend_include += self._globs(_strings(table, "extend-include", where) or (), base)
        exclude = _strings(table, "exclude", where)
        if exclude is not None:
            self.exclude = self._globs(exclude, base)
        self.extend_exclude += self._globs(_strings(table, "extend-exclude", where) or (), base)
        ignores = _file_ignores(table, "per-file-ignores", where)
        if ignores is not None:
            self.per_file_ignores = self._file_globs(ignores, base)
        more = _file_ignores(table, "extend-per-file-ignores", where) or ()
        self.extend_per_file_ignores += self._file_globs(more, base)
        urls = _strings(table, "ignore-urls", where)
        if urls is not None:
            self.ignore_urls = _check_url_patterns(urls, f"ignore-urls in {where}")
        for key in ("strict", "include-verbatim", "respect-gitignore", "force-exclude"):
            flag = _boolean(table, key, where)
            if flag is not None:
                self.flags[key] = flag
        self.max_file_size = _size(table, "max-file-size", where) or self.max_file_size
        if "rst-parser" in table:
            option = f"rst-parser in {where}"
            self.rst_parser = rst_parser(table["rst-parser"], option, usable=False), option
        links = table.get("links", {})
        if not isinstance(links, dict):
            raise ConfigError(f"links in {where}", links, "must be a table")
        if found and "cache-path" in links:
            links = {**links, "cache-path": _confined_cache_path(links["cache-path"], where)}
        self.links.update(links)

    def settings(self, cli: CliOptions, cwd: Path | None, config_path: Path | None) -> LintSettings:
        base = cwd or self.root
        flags = self.flags
        strict = _pick(cli.strict, flags.get("strict"), False)
        if cli.select is not None:  # replaces the files' selection, their `ignore` too
            select = resolve_selectors(cli.select, "--select")
        else:
            select = default_selection(strict) if self.select is None else self.select
            for added, removed in self.edits:
                select = (select | added) - removed
        select |= resolve_selectors(cli.extend_select, "--extend-select")
        select -= resolve_selectors(cli.ignore, "--ignore")
        include = self.include
        if cli.include is not None:
            include = tuple(self._globs(cli.include, base))
        rst: tuple[object, str] = self.rst_parser or ("urlsift", "rst-parser")
        if cli.rst_parser is not None:
            rst = cli.rst_parser, "--rst-parser"
        links = dict(self.links)
        if cli.link_allow_private_redirects:
            links["allow-private-redirects"] = True
        return LintSettings(
            select=select,
            severity=tuple(sorted(self.severity.items())),
            include=include,
            extend_include=(*self.extend_include, *self._globs(cli.extend_include, base)),
            exclude=(*self.exclude, *self.extend_exclude, *self._globs(cli.exclude, base)),
            strict=strict,
            include_verbatim=_pick(cli.include_verbatim, flags.get("include-verbatim"), False),
            rst_parser=rst_parser(*rst),
            respect_gitignore=_pick(cli.respect_gitignore, flags.get("respect-gitignore"), True),
            check_links=cli.check_links,
            links=links,
            link_timeout=cli.link_timeout,
            link_max_time=cli.link_max_time,
            link_exclude=cli.link_exclude,
            link_cache=cli.link_cache,
            config_path=config_path,
            max_file_size=self.max_file_size,
            force_exclude=_pick(cli.force_exclude, flags.get("force-exclude"), False),
            per_file_ignores=(*self.per_file_ignores, *self.extend_per_file_ignores),
            ignore_urls=(
                *self.ignore_urls,
                *_check_url_patterns(cli.ignore_urls, "--ignore-url"),
            ),
            root=self.root if cwd is not None else None,
        )


def build_settings(
    table: Mapping[str, object],
    cli: CliOptions | None = None,
    *,
    config_path: Path | None = None,
) -> LintSettings:
    """Validate one configuration table and lay the command line over it.

    Globs are kept as written (relative to the working folder when linting).

    Args:
        table: the ``[tool.urlsift]`` table (or ``urlsift.toml``'s top level); may be empty.
        cli: the command-line layer (default: nothing given).
        config_path: where the table came from (for messages).

    Returns:
        The settings.

    Raises:
        ConfigError: an unknown key, a value of the wrong type, or an unknown selector.
    """
    where = str(config_path) if config_path is not None else "the configuration"
    layers = _Layers(Path.cwd())
    layers.add_table(table, where, layers.root)
    return layers.settings(cli or CliOptions(), None, config_path)


def settings_from_file(
    path: Path | None, cli: CliOptions | None, cwd: Path, *, explicit: bool = False
) -> LintSettings:
    """Read a configuration file (and its ``extend`` bases) into settings.

    Args:
        path: the file (None: the defaults).
        cli: the command-line layer.
        cwd: the working folder (command-line globs are relative to it).
        explicit: True for a ``--config`` file: its globs, and its bases', are relative to
            the working folder (as in ruff), not to the file's folder.

    Returns:
        The settings; their :attr:`~LintSettings.root` is the file's folder (the working
        folder when ``explicit`` or without a file).

    Raises:
        ConfigError: a file of the chain cannot be read or is invalid.
    """
    cwd = Path(os.path.abspath(cwd))
    if path is None:
        return _Layers(cwd).settings(cli or CliOptions(), cwd, None)
    chain = read_config_chain(path)
    root = cwd if explicit else chain[-1][0].parent
    layers = _Layers(root)
    for file, table in chain:
        layers.add_table(table, str(file), root if explicit else file.parent, found=not explicit)
    return layers.settings(cli or CliOptions(), cwd, chain[-1][0])


def _confined_cache_path(value: object, where: str) -> object:
    """A discovered configuration's ``cache-path``, kept inside urlsift's cache folder.

    A configuration found by walking up from a linted path may come with the files linted
    (a pull request, ``/tmp/pyproject.toml``): it may name a cache file, but only by a
    plain file name, which lives in the cache folder. ``false`` is kept.

    Raises:
        ConfigError: the value names a folder too (or is not a string or false).
    """
    if value is False:
        return value
    if (
        not isinstance(value, str)
        or not value.strip()
        or value in (".", "..")
        or "/" in value
        or os.sep in value
        or (os.altsep is not None and os.altsep in value)
        or "\0" in value
    ):
        raise ConfigError(
            f"[tool.urlsift.links] cache-path in {where}",
            value,
            "a configuration found from the linted files may only name a file in urlsift's "
            "cache folder (a plain file name) or false; name a configuration with "
            "--config to put the cache elsewhere",
        )
    from .links import default_cache_path  # the link checker's module: imported when asked

    return str(default_cache_path().parent / value)


def _pick(cli: bool | None, file: bool | None, default: bool) -> bool:
    if cli is not None:
        return cli
    return default if file is None else file


class SettingsResolver:
    """The settings of each file: those of the closest configuration file (ruff's way).

    Every folder is looked at once and every configuration file read once per run
    (:meth:`for_folder` caches both), so linting a tree costs one look per folder, not
    one parse per file.
    """

    def __init__(
        self, cwd: Path, cli: CliOptions | None = None, config: Path | None = None
    ) -> None:
        """Find the working folder's settings (reading ``config`` when given).

        Args:
            cwd: the working folder.
            cli: the command-line layer (laid over every configuration).
            config: an explicit configuration file (``--config``): it governs every file.

        Raises:
            ConfigError: the configuration that applies to the working folder (or
                ``config``) is unreadable or invalid.
        """
        self.cwd = Path(os.path.abspath(cwd))
        self.cli = cli or CliOptions()
        self._by_folder: dict[Path, LintSettings] = {}
        self._by_file: dict[Path, LintSettings] = {}
        self.fixed = (
            settings_from_file(config, self.cli, self.cwd, explicit=True)
            if config is not None
            else None
        )
        self.default = self.fixed or self.for_folder(self.cwd, fallback=True)
        """The settings of files under no configuration file (the working folder's)."""

    def _from_file(self, path: Path) -> LintSettings:
        settings = self._by_file.get(path)
        if settings is None:
            settings = self._by_file[path] = settings_from_file(path, self.cli, self.cwd)
        return settings

    def for_folder(self, folder: Path, *, fallback: bool = False) -> LintSettings:
        """Return the settings of the files in ``folder`` (an absolute path).

        Raises:
            ConfigError: the configuration file found is unreadable or invalid.
        """
        if self.fixed is not None:
            return self.fixed
        # Up the parents, without recursion (any depth), to the first folder known or
        # holding a configuration; every folder passed on the way is then known too.
        passed: list[Path] = []
        current = folder
        while True:
            found = self._by_folder.get(current)
            if found is not None:
                break
            passed.append(current)
            own = config_in(current)
            if own is not None:
                found = self._from_file(own)
                break
            if current.parent == current:
                found = settings_from_file(None, self.cli, self.cwd) if fallback else self.default
                break
            current = current.parent
        for known in passed:
            self._by_folder[known] = found
        return found

    def for_file(self, path: Path) -> LintSettings:
        """Return the settings of one file (absolute, or relative to the working folder)."""
        return self.for_folder(Path(os.path.abspath(self.cwd / path)).parent)


def load_settings(
    cwd: Path, cli: CliOptions | None = None, config: Path | None = None
) -> LintSettings:
    """Return the settings of the working folder (``--config``'s when given).

    Args:
        cwd: the working folder (where the search for a configuration file starts).
        cli: the command-line layer.
        config: an explicit configuration file (``--config``); no search then.

    Returns:
        The settings (:class:`SettingsResolver` gives each file's).

    Raises:
        ConfigError: the configuration cannot be read or is invalid.
    """
    return SettingsResolver(cwd, cli, config).default
