"""Renderers for ``urlsift lint`` diagnostics.

Strategy: one function per format, all with the signature of :data:`Writer`; the CLI picks
one from :data:`REPORTERS` by name. Renderers only format: the diagnostics arrive already
filtered, with their effective severity, sorted by :meth:`Diagnostic.sort_key`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from .model import Diagnostic

Writer = Callable[[Sequence[Diagnostic], TextIO], None]


def write_text(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    """``path:line:col: CODE message``, one line per diagnostic."""
    for d in diagnostics:
        out.write(f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}\n")


REPORTERS: dict[str, Writer] = {
    "text": write_text,
}
"""Format name -> renderer (``--format``)."""
