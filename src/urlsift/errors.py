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


class OutputError(UrlsiftError, OSError):
    """The output could not be written (a full disk, an I/O error): not the input's fault.

    The command line exits 2 for it, never 1, which says "invalid URL found". A reader that
    went away (``BrokenPipeError``) is not an output error: it has its own status.
    """

    def __init__(self, target: str, error: OSError) -> None:
        reason = error.strerror or str(error)
        super().__init__(error.errno, f"cannot write {target}: {reason}")
        self.target = target
        self.reason = reason
