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
    Severity,
    TextUnit,
    Url,
)
from .api import Judge, extract, iter_urls, judge, scan_unit, scan_units
from .errors import ConfigError, SourceError, UrlsiftError
from .normalize import normalize
from .rejoin import Readings, rejoin
from .scanner import (
    DEFAULT_MAX_URL_LENGTH,
    DEFAULT_MAX_WRAPPER_LENGTH,
    DEFAULT_SCHEMES,
    Scanner,
)
from .schemes import SchemeRegistry, default_registry
from .validation import Validation, validate, validate_readings

# help() and pydoc list each record's fields with their descriptions (built when read).
document_fields(Candidate, Defect, MessageContext, Policy, TextUnit, Url, Validation)

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
    "Readings",
    "Scanner",
    "SchemeRegistry",
    "Severity",
    "SourceError",
    "TextUnit",
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
