"""Exceptions for callers' mistakes.

Bad input *text* never raises: it becomes a :class:`~urlsift.Defect` on a result. These
exceptions are for misuse of the API or the command line (an unknown option value, an
unreadable path), and each knows the exit status the CLI should end with.
"""

from __future__ import annotations


class UrlsiftError(Exception):
    """Base class of every exception urlsift raises on purpose."""

    exit_code: int = 2


class ConfigError(UrlsiftError, ValueError):
    """An option or argument has a value urlsift cannot use (e.g. a malformed scheme name)."""

    def __init__(self, option: str, value: object, reason: str) -> None:
        super().__init__(f"invalid {option} {value!r}: {reason}")
        self.option = option
        self.value = value
        self.reason = reason


class SourceError(UrlsiftError, OSError):
    """A path could not be opened or read."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
