"""Settings of ``urlsift lint``: the configuration file, rule selectors, command-line layers.

Strategy: configuration is data read once, validated completely, and frozen into
:class:`LintSettings` before any file is linted, so a mistake is a usage error (exit 2)
with a message that names the key and the file, never a surprise halfway through a run.
The file is found by walking up from the working folder: the nearest ``urlsift.toml``
(top-level keys) or ``pyproject.toml`` with a ``[tool.urlsift]`` table (a
``pyproject.toml`` without one is passed over); ``urlsift.toml`` wins when one folder has
both. Command-line options are a second layer over the file (:class:`CliOptions`).
Rules are named by selectors: a code (``URL003``), a code prefix (``URL0``, ``URL``),
a rule name (``ambiguous-hyphen``) or ``ALL``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from ..errors import ConfigError
from .model import DEFAULT_CODES, OPT_IN_GROUPS, RULE_BY_NAME, RULES, LintSeverity
from .walk import DEFAULT_MAX_FILE_SIZE

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

ALL_CODES = frozenset(rule.code for rule in RULES)
"""Every rule code."""

CONFIG_FILES = ("urlsift.toml", "pyproject.toml")
"""Configuration file names, in order of precedence within one folder."""

CONFIG_KEYS: dict[str, str] = {
    "select": "list of rule selectors to report (default: every rule outside RFC1738)",
    "extend-select": "list of rule selectors added to `select`",
    "ignore": "list of rule selectors not to report",
    "severity": 'table: rule selector -> "error" or "warning"',
    "include": "list of globs: the documents linted in folders (replaces the default set)",
    "extend-include": "list of globs added to the default document set",
    "exclude": "list of globs: files and folders not linted in folders",
    "strict": "boolean: RFC 1738 strictness: selects the RFC1738 rules, and '~' and "
    "'host?query' are errors",
    "include-verbatim": "boolean: also check URLs in code blocks, code spans, <pre> ...",
    "respect-gitignore": "boolean: skip what .gitignore files ignore (default true)",
    "max-file-size": "integer: largest file linted, in bytes (default 10485760, 10 MiB); "
    "a larger one gets URL011",
    "links": "table: options of --check-links (passed to the link checker)",
}
"""Configuration keys (kebab-case) and what they hold (``docs/lint.md`` lists them)."""


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
    strict: bool | None = None
    """``--strict``."""
    include_verbatim: bool | None = None
    """``--include-verbatim``."""
    respect_gitignore: bool | None = None
    """``--no-gitignore`` gives False."""
    check_links: bool = False
    """``--check-links``."""
    link_timeout: float | None = None
    """``--timeout``."""
    link_exclude: tuple[str, ...] = ()
    """``--exclude-link`` regular expressions."""
    link_cache: bool = True
    """False with ``--no-cache``."""
    link_allow_private_redirects: bool = False
    """``--allow-private-redirects``: sets the ``[links]`` key of that name."""


@dataclass(frozen=True, slots=True)
class LintSettings:
    """Everything a lint run needs to know, validated."""

    select: frozenset[str] = DEFAULT_CODES
    """Codes reported."""
    severity: tuple[tuple[str, LintSeverity], ...] = ()
    """Severity overrides: (code, severity)."""
    include: tuple[str, ...] | None = None
    """Globs of the documents linted in folders (None: the default set)."""
    extend_include: tuple[str, ...] = ()
    """Globs added to the document set."""
    exclude: tuple[str, ...] = ()
    """Globs of files and folders not linted in folders."""
    strict: bool = False
    """RFC 1738 strictness (:class:`~urlsift.Policy`). :func:`build_settings` also adds the
    ``RFC1738`` group to the default selection when it is set; a ``select`` given here is
    used as it is."""
    include_verbatim: bool = False
    """Also check URLs in code."""
    respect_gitignore: bool = True
    """Skip what ``.gitignore`` files ignore."""
    check_links: bool = False
    """Check that http/https links resolve (``URL101``-``URL104``)."""
    links: Mapping[str, object] = field(default_factory=dict)
    """The ``[links]`` table of the configuration, untouched."""
    link_timeout: float | None = None
    """Timeout override for the link checker."""
    link_exclude: tuple[str, ...] = ()
    """Extra link patterns not checked."""
    link_cache: bool = True
    """False: the link checker keeps no cache."""
    config_path: Path | None = None
    """The configuration file used, if any."""
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    """Largest file linted, in bytes (a larger one gets ``URL011`` and is not read)."""

    def severity_of(self, code: str, default: LintSeverity) -> LintSeverity:
        """Return the effective severity of a diagnostic of ``code``."""
        for overridden, severity in self.severity:
            if overridden == code:
                return severity
        return default


def find_config(start: Path) -> Path | None:
    """Return the configuration file that applies to ``start`` (a folder), or None.

    Args:
        start: the folder to start from (usually the working folder).

    Returns:
        The nearest ``urlsift.toml``, or ``pyproject.toml`` holding ``[tool.urlsift]``,
        in ``start`` or a parent folder.
    """
    for folder in [start, *start.parents]:
        candidate = folder / "urlsift.toml"
        if candidate.is_file():
            return candidate
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue  # not ours to judge: it has no usable [tool.urlsift]
            tool = data.get("tool")
            if isinstance(tool, dict) and "urlsift" in tool:
                return candidate
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
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError("--config", str(path), exc.strerror or str(exc)) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError("--config", str(path), f"not UTF-8 text: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("--config", str(path), f"not valid TOML: {exc}") from exc
    if path.name != "pyproject.toml":
        return cast("dict[str, object]", data)
    tool = data.get("tool", {})
    table = tool.get("urlsift", {}) if isinstance(tool, dict) else {}
    if not isinstance(table, dict):
        raise ConfigError(f"[tool.urlsift] in {path}", table, "must be a table")
    return cast("dict[str, object]", table)


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


def _size(table: Mapping[str, object], key: str, where: str) -> int | None:
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    raise ConfigError(f"{key} in {where}", value, "must be a positive integer (bytes)")


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


def build_settings(
    table: Mapping[str, object],
    cli: CliOptions | None = None,
    *,
    config_path: Path | None = None,
) -> LintSettings:
    """Validate a configuration table and lay the command line over it.

    Args:
        table: the ``[tool.urlsift]`` table (or ``urlsift.toml``'s top level); may be empty.
        cli: the command-line layer (default: nothing given).
        config_path: where the table came from (for messages).

    Returns:
        The settings.

    Raises:
        ConfigError: an unknown key, a value of the wrong type, or an unknown selector.
    """
    cli = cli or CliOptions()
    where = str(config_path) if config_path is not None else "the configuration"
    unknown = sorted(set(table) - set(CONFIG_KEYS))
    if unknown:
        raise ConfigError(
            f"key in {where}", unknown[0], "unknown key; known keys: " + ", ".join(CONFIG_KEYS)
        )
    strict = _pick(cli.strict, _boolean(table, "strict", where), False)
    # RFC 1738 strictness also selects its rules, in the default selection.
    default = DEFAULT_CODES | OPT_IN_GROUPS["RFC1738"] if strict else DEFAULT_CODES
    file_select = _strings(table, "select", where)
    select = (
        default if file_select is None else resolve_selectors(file_select, f"select in {where}")
    )
    select |= resolve_selectors(
        _strings(table, "extend-select", where) or (), f"extend-select in {where}"
    )
    select -= resolve_selectors(_strings(table, "ignore", where) or (), f"ignore in {where}")
    if cli.select is not None:
        select = resolve_selectors(cli.select, "--select")
    select |= resolve_selectors(cli.extend_select, "--extend-select")
    select -= resolve_selectors(cli.ignore, "--ignore")
    links = table.get("links", {})
    if not isinstance(links, dict):
        raise ConfigError(f"links in {where}", links, "must be a table")
    if cli.link_allow_private_redirects:
        links = {**links, "allow-private-redirects": True}
    include = cli.include if cli.include is not None else _strings(table, "include", where)
    return LintSettings(
        select=select,
        severity=tuple(sorted(_severities(table, where).items())),
        include=include,
        extend_include=(_strings(table, "extend-include", where) or ()) + cli.extend_include,
        exclude=(_strings(table, "exclude", where) or ()) + cli.exclude,
        strict=strict,
        include_verbatim=_pick(
            cli.include_verbatim, _boolean(table, "include-verbatim", where), False
        ),
        respect_gitignore=_pick(
            cli.respect_gitignore, _boolean(table, "respect-gitignore", where), True
        ),
        check_links=cli.check_links,
        links=cast("dict[str, object]", links),
        link_timeout=cli.link_timeout,
        link_exclude=cli.link_exclude,
        link_cache=cli.link_cache,
        config_path=config_path,
        max_file_size=_size(table, "max-file-size", where) or DEFAULT_MAX_FILE_SIZE,
    )


def _pick(cli: bool | None, file: bool | None, default: bool) -> bool:
    if cli is not None:
        return cli
    return default if file is None else file


def load_settings(
    cwd: Path, cli: CliOptions | None = None, config: Path | None = None
) -> LintSettings:
    """Find and read the configuration, then lay the command line over it.

    Args:
        cwd: the working folder (where the search for a configuration file starts).
        cli: the command-line layer.
        config: an explicit configuration file (``--config``); no search then.

    Returns:
        The settings.

    Raises:
        ConfigError: the configuration cannot be read or is invalid.
    """
    path = config if config is not None else find_config(cwd)
    table = read_config(path) if path is not None else {}
    return build_settings(table, cli, config_path=path)
