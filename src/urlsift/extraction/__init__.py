"""Extraction: where URLs are written in a text, and what each one reads as.

Text in, :class:`~urlsift.Candidate` spans and their readings out, sans-IO:
:class:`.scanner.Scanner` finds the four forms of RFC 1738's appendix (``<URL:...>``,
``<scheme:...>``, ``URL:`` prefixes, bare URLs) in text fed in chunks, with
:mod:`.textbuffer` keeping the undecided tail and :mod:`.wrap` deciding whether a mail
client wrapped a bare URL; :func:`.rejoin.rejoin` turns a candidate into its readings
(whitespace and quote prefixes removed, both readings at a break after a hyphen).

Promise: results identical wherever chunk boundaries fall; bounded buffers; linear time;
bad text is data, never an exception. Imports only the record model and
:mod:`urlsift.grammar`: nothing here validates, reads files or writes output.
"""

from .rejoin import Readings, rejoin
from .scanner import DEFAULT_MAX_URL_LENGTH, DEFAULT_MAX_WRAPPER_LENGTH, DEFAULT_SCHEMES, Scanner

__all__ = [
    "DEFAULT_MAX_URL_LENGTH",
    "DEFAULT_MAX_WRAPPER_LENGTH",
    "DEFAULT_SCHEMES",
    "Readings",
    "Scanner",
    "rejoin",
]
