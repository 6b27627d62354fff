"""urlsift: pull URLs out of free text the way RFC 1738's appendix says.

Finds ``<URL:...>`` wrappers, ``<scheme:...>`` angle brackets, ``URL:`` prefixes and bare
URLs; rejoins URLs broken across lines (whitespace and hyphen rules, mail quote prefixes);
checks every URL against the RFC 1738 §5 grammar of its scheme (:func:`validate`);
reports every problem as a :class:`Defect` instead of raising.
"""

from ._fielddocs import document_fields
from ._model import (
    Candidate,
    Defect,
    Kind,
    MessageContext,
    Parts,
    Policy,
    ReadFailure,
    Severity,
    TextUnit,
    UnitDefects,
    Url,
)
from ._moved import install as _install_moved_paths
from .api import Judge, extract, iter_urls, judge, scan_unit, scan_units
from .errors import ConfigError, SourceError, UrlsiftError
from .extraction import (
    DEFAULT_MAX_URL_LENGTH,
    DEFAULT_MAX_WRAPPER_LENGTH,
    DEFAULT_SCHEMES,
    Readings,
    Scanner,
    rejoin,
)
from .validation import (
    SchemeRegistry,
    Validation,
    default_registry,
    normalize,
    validate,
    validate_readings,
)

_install_moved_paths()  # urlsift.scanner, urlsift.plan...: see _moved.MOVED

# help() and pydoc list each record's fields with their descriptions (built when read).
document_fields(
    Candidate, Defect, MessageContext, Policy, ReadFailure, TextUnit, UnitDefects, Url, Validation
)

__all__ = [
    "DEFAULT_MAX_URL_LENGTH",
    "DEFAULT_MAX_WRAPPER_LENGTH",
    "DEFAULT_SCHEMES",
    "Candidate",
    "ConfigError",
    "Defect",
    "Judge",
    "Kind",
    "MessageContext",
    "Parts",
    "Policy",
    "ReadFailure",
    "Readings",
    "Scanner",
    "SchemeRegistry",
    "Severity",
    "SourceError",
    "TextUnit",
    "UnitDefects",
    "Url",
    "UrlsiftError",
    "Validation",
    "default_registry",
    "extract",
    "iter_urls",
    "judge",
    "normalize",
    "rejoin",
    "scan_unit",
    "scan_units",
    "validate",
    "validate_readings",
]
