"""The ``urlsift`` command group: one module per command, each imported when it is used.

The commands live beside this module (:mod:`.scan`, :mod:`.validate`, :mod:`.lint`,
:mod:`.report`); each is click glue: options in, one call into the library, rendering out.
This module holds what they share: the group, the program entry point :func:`run`, and
the exit statuses (0 clean; 1 a problem found, with ``--check`` for ``scan``; 2 an
unreadable input or a usage error, which wins over 1; :data:`EXIT_BROKEN_PIPE` when the
reader of standard output went away).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import io
import os
import signal
import sys
from typing import ClassVar, NoReturn, TextIO

import click

EXIT_UNREADABLE = 2
EXIT_INVALID = 1
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE
"""The status of a command whose standard output was closed by its reader (141)."""


def exit_broken_pipe() -> NoReturn:
    """Stop quietly because the reader of standard output went away (``| head``).

    Standard output is pointed at ``/dev/null`` so that the interpreter's final flush
    cannot fail again, and the process exits with :data:`EXIT_BROKEN_PIPE`, the status a
    shell gives ``cat`` or ``grep`` in the same place.
    """
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    sys.exit(EXIT_BROKEN_PIPE)


def utf8_stdout() -> TextIO:
    """Standard output as UTF-8 that writes undecodable input bytes back as they were."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # already a text-only stream (e.g. under a test runner)
        return sys.stdout
    return io.TextIOWrapper(
        buffer,
        encoding="utf-8",
        errors="surrogateescape",
        newline="\n",
        line_buffering=False,
        write_through=False,
    )


class _LazyGroup(click.Group):
    """A group that imports a subcommand's module only when the subcommand is used.

    ``lint`` pulls in Markdown, gitignore and report machinery (about 50 ms of imports);
    ``scan`` on a small file should not pay for it, nor ``validate`` for the engines.
    """

    lazy: ClassVar[dict[str, tuple[str, str]]] = {
        "scan": ("urlsift.cli.scan", "scan"),
        "validate": ("urlsift.cli.validate", "validate_command"),
        "lint": ("urlsift.cli.lint", "lint_command"),
        "report": ("urlsift.cli.report", "report_command"),
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module, attribute = self.lazy[cmd_name]
            command: click.Command = getattr(importlib.import_module(module), attribute)
            return command
        return super().get_command(ctx, cmd_name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="urlsift")
def main() -> None:
    """Find URLs in free text as RFC 1738's appendix describes."""


def run() -> None:
    """The ``urlsift`` program: :func:`main`, with the garbage collector set for a stream.

    A scan makes millions of short-lived objects and almost no reference cycles. The
    objects alive after start-up (modules, compiled patterns) are frozen out of the
    collector's passes, and the youngest generation is collected every 20,000 allocations
    instead of 700: 5% faster on mail text, and cycles are still collected. (Only the
    program does this; :func:`main` called in-process, as by tests, leaves the collector
    alone.)
    """
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
    main(prog_name="urlsift")
