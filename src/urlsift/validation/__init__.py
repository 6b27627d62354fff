"""Validation: is a reading a URL by RFC 1738 §5, and which rule does it break?

:func:`.rules.validate` checks one URL against the grammar of its scheme, found in a
per-instance :class:`.schemes.SchemeRegistry` (never a module global), and returns a
:class:`.rules.Validation` whose defects name the rule that failed (stable codes,
``docs/defects.md``); :func:`.rules.validate_readings` chooses among a candidate's
readings; :func:`.normalize.normalize` gives the RFC 3986 §6.2.2-6.2.3 normal form that
``--unique`` and ``--count`` compare.

Promise: pure functions of the text and the registry; an invalid URL is data, never an
exception. Imports only the record model, the errors and :mod:`urlsift.grammar`.
"""

from .normalize import normalize
from .rules import Validation, validate, validate_readings
from .schemes import SchemeRegistry, default_registry

__all__ = [
    "SchemeRegistry",
    "Validation",
    "default_registry",
    "normalize",
    "validate",
    "validate_readings",
]
