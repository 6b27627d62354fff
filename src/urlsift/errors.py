"""Exceptions for callers' mistakes.

Bad input *text* never raises: it becomes a :class:`~urlsift.Defect` on a result. These
exceptions are for misuse of the API or the command line (an unknown option value, an
unreadable path), and each knows the exit status the CLI should end with.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable


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


def failure_reason(exc: OSError) -> str:
    """Return the words a ``ReadFailure`` gives for a read error."""
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str):
        return reason
    return exc.strerror or str(exc)


MAX_LIMIT = 2**63 - 1
"""The largest limit :func:`check_limit` takes by default (what a C size can hold)."""


def check_limit(option: str, value: object, *, least: int = 1, most: int = MAX_LIMIT) -> int:
    """Return ``value`` as an ``int`` when it is a usable limit, else raise :class:`ConfigError`.

    The one check of the size and count limits that the library, the command line and the
    configuration files take: an integer (``int``, or any type with ``__index__``) from
    ``least`` to ``most``. A bool, a float (NaN and the infinities among them: a limit of
    ``nan`` compared false with everything and found nothing, silently), a string, or a
    number past ``most`` (``10**30`` overflowed deep inside) is refused.

    Args:
        option: the option's name, for the message.
        value: the value given.
        least: the smallest usable value.
        most: the largest usable value.
    """
    if not isinstance(value, bool):
        try:
            number = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if least <= number <= most:
                return number
    # The message is built only for a refused value (a Scanner checks three per unit).
    reason = "a positive integer" if least == 1 else f"an integer of at least {least}"
    raise ConfigError(option, value, f"must be {reason}, at most {most}")


def check_names(option: str, value: Iterable[str]) -> list[str]:
    """Return the names of a collection (``["http", "ftp"]``) as a list.

    A bare string is refused with :class:`ConfigError`: iterated, ``"http"`` is the names
    ``h``, ``t``, ``t``, ``p``, which are valid scheme names, and found ``h://...``.
    """
    if isinstance(value, str | bytes | bytearray):
        raise ConfigError(option, value, f"must be a collection of names, such as [{value!r}]")
    return list(value)
