"""``urlsift lint --check-links``: do the links found resolve? (rules URL101-URL103)

Strategy: findings in, diagnostics out, in the findings' order. Every reading of every
finding (the primary URL and, at an ambiguous hyphen break, the alternatives) that is an
``http``/``https`` URL and matches no ``exclude`` pattern becomes a *target*: the URL
without its fragment, which is never sent. Each distinct target is asked once per call
however many findings share it, and not at all when the on-disk cache holds a fresh
success for it (:mod:`._linkcache`). The rest are checked concurrently by one
:class:`~._http.Prober` inside one ``asyncio.run`` (HEAD, GET where HEAD is refused,
redirects followed and recorded, retries with backoff honouring ``Retry-After``, global and
per-host limits). Outcomes then become diagnostics through small tables: URL101
broken-link, URL102 redirected-link, URL103 link-timeout, URL104 private-redirect.
Network trouble and hostile URLs never raise (each URL's failure is that URL's
diagnostic); only a caller's mistake does (:class:`~urlsift.errors.ConfigError` for bad
options).

Safety: a redirect from a public address into a loopback, private, link-local or other
special range is not followed (URL104) unless ``allow-private-redirects`` is set; the
user name and password written in a URL are not sent unless ``send-credentials`` is set,
and never stored or shown (cache keys, messages and the diagnostics' ``url`` carry
``***`` for the password); no cookie passes from one link to another.

Several readings: if the primary reading resolves, the alternatives change nothing (the
text rule URL003 already reports the ambiguity). If it does not but another reading does,
URL101 says which reading resolves. If none does, URL101 (URL103 when every reading timed
out) lists them all.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, get_args

import httpx

from ..errors import ConfigError
from ..grammar.context import scheme_name
from ._addresses import redact
from ._http import (
    METHODS,
    AddressPolicy,
    Method,
    Outcome,
    Prober,
    ProbeSettings,
    Sleep,
    Stage,
    browser_difference,
    status_text,
)
from ._linkcache import CacheEntry, LinkCache
from .model import RULE_BY_CODE, Diagnostic, Finding
from .report import tool_info

__all__ = [
    "DEFAULT_ACCEPT",
    "DEFAULT_CACHE_TTL",
    "DEFAULT_USER_AGENT",
    "LinkOptions",
    "default_cache_path",
    "diagnose_links",
]

CHECKED_SCHEMES = frozenset({"http", "https"})
"""Only these schemes are ever fetched; other links are left to the text rules."""

DEFAULT_ACCEPT: frozenset[int] = frozenset(range(200, 300))
"""Accepted statuses unless configured: every 2xx."""

DEFAULT_CACHE_TTL = 86400.0
"""One day, in seconds."""

DEFAULT_MAX_TIME = 300.0
"""Five minutes, in seconds: the default deadline of all the link checks of a run (a
thousand links that never answer would take hours at the per-request timeout)."""


def _user_agent() -> str:
    tool = tool_info()
    home = f" (+{tool.information_uri})" if tool.information_uri else ""
    return f"{tool.name}/{tool.version}{home}"


DEFAULT_USER_AGENT = _user_agent()
"""Sent with every request: ``urlsift/<version>``, and ``(+<project URL>)`` when the
installed metadata names one (no guessed address: urlsift is not on PyPI)."""


def default_cache_path() -> Path:
    """The cache file when none is configured: ``$XDG_CACHE_HOME/urlsift/links.json``.

    Falls back to ``%LOCALAPPDATA%\\urlsift\\cache`` on Windows and ``~/.cache`` elsewhere.
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not base or not os.path.isabs(base):
        local = os.environ.get("LOCALAPPDATA", "") if os.name == "nt" else ""
        base = os.path.join(local, "urlsift", "cache") if local else ""
        if base:
            return Path(base) / "links.json"
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "urlsift" / "links.json"


@dataclass(frozen=True, slots=True)
class LinkOptions:
    """How ``--check-links`` checks links; ``[tool.urlsift.links]`` in the configuration.

    Every field has a kebab-case configuration key of the same name (``max-per-host``).
    Values are checked on construction (also by ``dataclasses.replace``); a bad one raises
    :class:`~urlsift.errors.ConfigError`.
    """

    timeout: float = 10.0
    """Seconds allowed for one request (connecting, sending, and the response head)."""
    retries: int = 2
    """Further tries of a request after a 408, 429 or 5xx answer, a timeout or a
    connection error (so at most ``retries + 1`` tries per method)."""
    backoff: float = 0.5
    """Base wait before a retry, in seconds: ``backoff * 2**n`` (n = 0, 1, ...), capped at
    ``max_backoff``, times a random factor in [0.5, 1] (jitter)."""
    max_backoff: float = 30.0
    """Cap of the exponential backoff, in seconds."""
    max_retry_after: float = 60.0
    """Cap on the wait a ``Retry-After`` header (seconds or HTTP-date) may ask for."""
    max_concurrency: int = 16
    """Requests in flight at once, over all hosts."""
    max_per_host: int = 4
    """Requests in flight at once to one (scheme, host, port)."""
    accept: frozenset[int] = DEFAULT_ACCEPT
    """Statuses that mean the link works. Configured as a list of codes and ranges:
    ``[200, "203..206", 429]``."""
    exclude: tuple[str, ...] = ()
    """Regular expressions (``re.search``); a matching URL is never fetched and never
    reported."""
    max_redirects: int = 10
    """More redirects than this for one link is an error."""
    user_agent: str = DEFAULT_USER_AGENT
    """The ``User-Agent`` header."""
    method: Method = "head-get"
    """``head-get``: HEAD, then GET when the server refuses HEAD (any 4xx but 408/429,
    500, 501); ``head``: HEAD only; ``get``: GET only (the body is never downloaded)."""
    cache_path: Path | None = field(default_factory=default_cache_path)
    """The cache file (JSON); None disables the cache."""
    cache_ttl: float = DEFAULT_CACHE_TTL
    """Seconds a success stays in the cache. Failures are never cached."""
    allow_private_redirects: bool = False
    """Follow redirects from a public address into loopback, private, link-local and other
    special addresses (refused by default: URL104)."""
    max_time: float = DEFAULT_MAX_TIME
    """Seconds allowed for all the link checks of a run together. When they run out, the
    links still being checked are given up and reported (URL103 ``not checked: ...``)
    with a line on stderr saying how many; what finished is reported as usual."""
    send_credentials: bool = False
    """Send the user name and password written in a link (to the link's own scheme, host
    and port only; over http they travel in clear). Off by default: the URL is requested
    without them."""

    def __post_init__(self) -> None:
        for name, check, reason in _VALUE_CHECKS:
            value = getattr(self, name)
            if not check(value):
                raise ConfigError(name.replace("_", "-"), value, reason)
        for pattern in self.exclude:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ConfigError("exclude", pattern, f"not a regular expression: {exc}") from exc

    @classmethod
    def from_config(cls, table: Mapping[str, object]) -> LinkOptions:
        """Build options from the ``[tool.urlsift.links]`` TOML table.

        Args:
            table: Kebab-case keys (see the fields); may be empty. ``cache-path`` is a
                string (``~`` expanded) or ``false`` to disable the cache.

        Returns:
            The options, defaults for every key not given.

        Raises:
            ConfigError: An unknown key, a value of the wrong type or out of range.
        """
        values: dict[str, object] = {}
        for key, value in table.items():
            entry = _CONFIG_KEYS.get(key)
            if entry is None:
                known = ", ".join(sorted(_CONFIG_KEYS))
                raise ConfigError(f"{_TABLE} key", key, f"unknown key (known keys: {known})")
            name, convert = entry
            values[name] = convert(f"{_TABLE} {key}", value)
        try:
            return cls(**values)  # type: ignore[arg-type]
        except ConfigError as exc:
            raise ConfigError(f"{_TABLE} {exc.option}", exc.value, exc.reason) from exc

    def _probe_settings(self) -> ProbeSettings:
        # ProbeSettings is the prober's subset of these fields, under the same names.
        return ProbeSettings(**{f.name: getattr(self, f.name) for f in fields(ProbeSettings)})


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_VALUE_CHECKS: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
    ("timeout", lambda v: _is_number(v) and 0 < v < float("inf"), "must be a positive number"),
    ("retries", lambda v: _is_int(v) and 0 <= v <= 100, "must be an integer in 0..100"),
    ("backoff", lambda v: _is_number(v) and 0 <= v < float("inf"), "must be a number >= 0"),
    ("max_backoff", lambda v: _is_number(v) and 0 <= v < float("inf"), "must be a number >= 0"),
    (
        "max_retry_after",
        lambda v: _is_number(v) and 0 <= v < float("inf"),
        "must be a number >= 0",
    ),
    ("max_concurrency", lambda v: _is_int(v) and v >= 1, "must be an integer >= 1"),
    ("max_per_host", lambda v: _is_int(v) and v >= 1, "must be an integer >= 1"),
    (
        "accept",
        lambda v: (
            isinstance(v, frozenset) and bool(v) and all(_is_int(s) and 100 <= s <= 599 for s in v)
        ),
        "must be a non-empty set of HTTP statuses (100..599)",
    ),
    (
        "exclude",
        lambda v: isinstance(v, tuple) and all(isinstance(p, str) for p in v),
        "must be a tuple of regular expressions",
    ),
    ("max_redirects", lambda v: _is_int(v) and 0 <= v <= 100, "must be an integer in 0..100"),
    (
        "user_agent",
        lambda v: isinstance(v, str) and bool(v.strip()) and v.isprintable(),
        "must be a non-empty printable string",
    ),
    ("method", lambda v: v in METHODS, f"must be one of {', '.join(METHODS)}"),
    ("cache_path", lambda v: v is None or isinstance(v, Path), "must be a path or None"),
    ("cache_ttl", lambda v: _is_number(v) and v >= 0, "must be a number of seconds >= 0"),
    (
        "max_time",
        lambda v: _is_number(v) and 0 < v < float("inf"),
        "must be a positive number of seconds",
    ),
    ("allow_private_redirects", lambda v: isinstance(v, bool), "must be true or false"),
    ("send_credentials", lambda v: isinstance(v, bool), "must be true or false"),
)
"""Field -> predicate -> reason; checked by ``LinkOptions.__post_init__``."""

_TABLE = "[tool.urlsift.links]"

_Converter = Callable[[str, object], object]


def _number(option: str, value: object) -> object:
    if not _is_number(value):
        raise ConfigError(option, value, "must be a number")
    assert isinstance(value, (int, float))
    return float(value)


def _integer(option: str, value: object) -> object:
    if not _is_int(value):
        raise ConfigError(option, value, "must be an integer")
    return value


def _string(option: str, value: object) -> object:
    if not isinstance(value, str):
        raise ConfigError(option, value, "must be a string")
    return value


def _boolean(option: str, value: object) -> object:
    if not isinstance(value, bool):
        raise ConfigError(option, value, "must be true or false")
    return value


def _method(option: str, value: object) -> object:
    if value not in get_args(Method):
        raise ConfigError(option, value, f"must be one of {', '.join(get_args(Method))}")
    return value


def _string_list(option: str, value: object) -> object:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise ConfigError(option, value, "must be a list of regular expressions")
    return tuple(items)


_RANGE = re.compile(r"\s*(\d{3})\s*(?:\.\.\s*(\d{3})\s*)?")


def _accept(option: str, value: object) -> object:
    items = value if isinstance(value, list) else [value]
    statuses: set[int] = set()
    for item in items:
        if _is_int(item):
            assert isinstance(item, int)
            low = high = item
        elif isinstance(item, str) and (match := _RANGE.fullmatch(item)):
            low = int(match.group(1))
            high = int(match.group(2) or low)
        else:
            raise ConfigError(option, item, 'must be a status (404) or a range ("200..299")')
        if not 100 <= low <= high <= 599:
            raise ConfigError(option, item, "statuses run from 100 to 599, low to high")
        statuses.update(range(low, high + 1))
    if not statuses:
        raise ConfigError(option, value, "must accept at least one status")
    return frozenset(statuses)


def _cache_path(option: str, value: object) -> object:
    if value is False:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(option, value, "must be a file path or false")
    return Path(value).expanduser()


_CONFIG_KEYS: dict[str, tuple[str, _Converter]] = {
    "timeout": ("timeout", _number),
    "retries": ("retries", _integer),
    "backoff": ("backoff", _number),
    "max-backoff": ("max_backoff", _number),
    "max-retry-after": ("max_retry_after", _number),
    "max-concurrency": ("max_concurrency", _integer),
    "max-per-host": ("max_per_host", _integer),
    "accept": ("accept", _accept),
    "exclude": ("exclude", _string_list),
    "max-redirects": ("max_redirects", _integer),
    "user-agent": ("user_agent", _string),
    "method": ("method", _method),
    "cache-path": ("cache_path", _cache_path),
    "cache-ttl": ("cache_ttl", _number),
    "max-time": ("max_time", _number),
    "allow-private-redirects": ("allow_private_redirects", _boolean),
    "send-credentials": ("send_credentials", _boolean),
}
"""Configuration key -> (field, converter that checks the TOML type)."""


# --- from findings to targets ------------------------------------------------------


# The scheme of a reading (only http and https are checked, so the scanner's bound is enough).
_SCHEME = re.compile(rf"({scheme_name()}):")


def _target(
    reading: str, excluded: Sequence[re.Pattern[str]], keep_userinfo: bool = False
) -> str | None:
    # The URL to request for one reading, or None when it is not to be checked: another
    # scheme, excluded, or without a host (URL001 reports that from the text). The
    # fragment is dropped, and the user name and password unless they are to be sent. An
    # http(s) reading httpx cannot even parse is returned as written: the prober reports
    # why (URL101), as it does for every other URL it cannot use.
    if any(pattern.search(reading) for pattern in excluded):
        return None
    scheme = _SCHEME.match(reading)
    if scheme is None or scheme.group(1).lower() not in CHECKED_SCHEMES:
        return None
    if browser_difference(reading) is not None:
        return reading.partition("#")[0]  # as written: the prober says why it is not checked
    try:
        url = httpx.URL(reading)
        if not url.raw_host:
            return None
        url = url.copy_with(fragment=None)
        return str(url if keep_userinfo else url.copy_with(userinfo=b""))
    except Exception:  # httpx, idna and codecs raise all sorts for hostile text
        return reading.partition("#")[0]


@dataclass(frozen=True, slots=True)
class _Plan:
    # One finding to judge: its checkable readings, primary first, with their targets.
    finding: Finding
    readings: tuple[tuple[str, str], ...]


def _plan(
    findings: Iterable[Finding], excluded: Sequence[re.Pattern[str]], keep_userinfo: bool
) -> list[_Plan]:
    plans: list[_Plan] = []
    for finding in findings:
        primary = _target(finding.url, excluded, keep_userinfo)
        if primary is None:
            continue  # the link as written is not checked; its alternatives are not either
        readings = [(finding.url, primary)]
        for alternative in finding.alternatives:
            target = _target(alternative, excluded, keep_userinfo)
            if target is not None and alternative != finding.url:
                readings.append((alternative, target))
        plans.append(_Plan(finding, tuple(readings)))
    return plans


async def _check_all(
    targets: Sequence[str],
    options: LinkOptions,
    sleep: Sleep | None,
    clock: Callable[[], float],
    policy: AddressPolicy | None,
) -> dict[str, Outcome]:
    # Every target concurrently (the prober keeps the limits), until all are done or the
    # run's deadline (max_time) passes: the checks still running are then cancelled and
    # their targets are "unchecked".
    prober = Prober(options._probe_settings(), sleep=sleep, clock=clock, policy=policy)
    tasks = {target: asyncio.ensure_future(prober.check(target)) for target in targets}
    try:
        _done, pending = await asyncio.wait(tasks.values(), timeout=options.max_time)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    finally:
        await prober.aclose()
    reason = f"the checks ran out of time (max-time {options.max_time:g} s)"
    return {
        target: (
            task.result()
            if task.done() and not task.cancelled()
            else Outcome(target, "unchecked", reason=reason)
        )
        for target, task in tasks.items()
    }


# --- from outcomes to messages -------------------------------------------------------


def _redirect_words(outcome: Outcome) -> str:
    permanence = {hop.permanent for hop in outcome.redirects}
    word = {
        frozenset({True}): "redirects permanently",
        frozenset({False}): "redirects temporarily",
    }.get(frozenset(permanence), "redirects")
    codes = ", ".join(str(hop.status) for hop in outcome.redirects)
    return f"{word} to {outcome.final_url} ({codes})"


def _failure_text(reading: str, outcome: Outcome, options: LinkOptions) -> str:
    # The words for a reading that does not resolve, by outcome kind.
    if outcome.kind == "status":
        assert outcome.status is not None
        text = f"HTTP {status_text(outcome.status)} for {reading}"
        if outcome.redirects:
            text += f" (redirected to {outcome.final_url})"
        return text
    if outcome.kind == "timeout":
        tries = f"{outcome.tries} tr{'y' if outcome.tries == 1 else 'ies'}"
        return f"no answer from {outcome.host} in {options.timeout:g} s ({tries})"
    if outcome.kind == "unchecked":
        return f"not checked: {outcome.reason}"
    if outcome.kind == "refused":
        return (
            f"{reading} redirects to {outcome.final_url}, not followed: {outcome.reason}, "
            "reached from a public address (allow-private-redirects follows it)"
        )
    return _ERROR_TEMPLATES[outcome.stage].format(
        reading=reading, host=outcome.host, reason=outcome.reason
    )


_ERROR_TEMPLATES: dict[Stage, str] = {
    "connect": "cannot connect to {host}: {reason}",
    "exchange": "no valid answer from {host}: {reason}",
    "redirect": "cannot follow the redirects of {reading}: {reason}",
    "url": "cannot check {reading}: {reason}",
}
"""Message of a URL101 for an ``error`` outcome, by the stage that failed."""


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _ordinal(index: int) -> str:
    return _ORDINALS[index] if index < len(_ORDINALS) else f"#{index + 1}"


def _listing(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _judge(
    plan: _Plan, outcomes: Mapping[str, Outcome], options: LinkOptions
) -> tuple[str, str] | None:
    # (code, message) for one finding, or None when there is nothing to say.
    results = [(reading, outcomes[target]) for reading, target in plan.readings]
    primary, first = results[0]
    if first.resolves:
        return ("URL102", f"{primary} {_redirect_words(first)}") if first.redirects else None
    if len(results) == 1:
        return _CODES.get(first.kind, "URL101"), _failure_text(primary, first, options)
    names = _listing([reading for reading, _ in results])
    good = [index for index, (_, outcome) in enumerate(results) if outcome.resolves]
    if good:
        which = _listing([_ordinal(index) for index in good])
        verb = "resolves" if len(good) == 1 else "resolve"
        only = "only " if len(good) == 1 else ""
        why = _failure_text(primary, first, options)
        return "URL101", f"of the readings {names}, {only}the {which} {verb} ({why})"
    reasons = "; ".join(_failure_text(reading, outcome, options) for reading, outcome in results)
    kinds = {outcome.kind for _, outcome in results}
    code = _CODES.get(kinds.pop(), "URL101") if len(kinds) == 1 else "URL101"
    return code, f"none of the readings {names} resolves: {reasons}"


_CODES = {"timeout": "URL103", "unchecked": "URL103", "refused": "URL104"}
"""The code of a failed outcome by its kind, when it is not URL101."""


def _diagnostic(finding: Finding, code: str, message: str) -> Diagnostic:
    return Diagnostic(
        path=finding.path,
        line=finding.line,
        column=finding.column,
        code=code,
        severity=RULE_BY_CODE[code].severity,
        message=message,  # Diagnostic hides passwords (``user:***@``)
        url=finding.url,
        end_line=finding.end_line,
        end_column=finding.end_column,
    )


def _stderr_notice(text: str) -> None:
    print(f"urlsift: {text}", file=sys.stderr)


def diagnose_links(
    findings: Sequence[Finding],
    options: LinkOptions,
    *,
    sleep: Sleep | None = None,
    clock: Callable[[], float] = time.time,
    notice: Callable[[str], None] = _stderr_notice,
    policy: AddressPolicy | None = None,
) -> list[Diagnostic]:
    """Check that the findings' http/https links resolve; report those that do not.

    Starts its own event loop (``asyncio.run``), so it must not be called from a running
    one. Distinct URLs (without fragment) are requested once; fresh cache entries are used
    without a request; new successes are written to the cache.

    Args:
        findings: The URLs found in the documents.
        options: Timeouts, retries, limits, accepted statuses, exclusions, cache.
        sleep: Coroutine used for retry waits (default ``asyncio.sleep``; tests pass one
            that returns at once).
        clock: POSIX time, for the cache's time-to-live and ``Retry-After`` dates.
        notice: Told (once) when the cache file cannot be used, and when ``max_time``
            ran out (how many links were not checked); by default a line on stderr.
        policy: Which addresses count as public and how names resolve; an internal seam
            for tests (the default is the real rules).

    Returns:
        URL101-URL104 diagnostics, in the order of the findings, located at each finding's
        span, with the rule's default severity; passwords shown as ``***``.

    Raises:
        ConfigError: An ``exclude`` pattern is not a regular expression.
    """
    excluded = [re.compile(pattern) for pattern in options.exclude]
    plans = _plan(findings, excluded, options.send_credentials)
    targets = list(dict.fromkeys(target for plan in plans for _, target in plan.readings))
    cache = LinkCache(options.cache_path, ttl=options.cache_ttl, now=clock(), notice=notice)
    outcomes: dict[str, Outcome] = {}
    for target in targets:
        entry = cache.get(redact(target), options.accept)
        if entry is not None:
            outcomes[target] = Outcome(target, "ok", entry.status, entry.redirects, cached=True)
    missing = [target for target in targets if target not in outcomes]
    if missing:
        checked = asyncio.run(_check_all(missing, options, sleep, clock, policy))
        unchecked = sum(outcome.kind == "unchecked" for outcome in checked.values())
        if unchecked:
            notice(
                f"{unchecked} of {len(missing)} links not checked: the link checks ran out "
                f"of time (max-time {options.max_time:g} s; --max-time sets it)"
            )
        now = clock()
        for target, outcome in checked.items():
            outcomes[target] = outcome
            if outcome.resolves and outcome.status is not None:
                cache.put(redact(target), CacheEntry(outcome.status, outcome.redirects, now))
    cache.save()
    diagnostics: list[Diagnostic] = []
    for plan in plans:
        verdict = _judge(plan, outcomes, options)
        if verdict is not None:
            diagnostics.append(_diagnostic(plan.finding, *verdict))
    return diagnostics
