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
import sys
from typing import Any, BinaryIO, ClassVar, NoReturn, TextIO

import click

from ..errors import OutputError

EXIT_UNREADABLE = 2
EXIT_INVALID = 1
EXIT_OUTPUT = 2
"""The status of a command whose output could not be written (a full disk)."""
EXIT_BROKEN_PIPE = 141
"""The status of a command whose standard output was closed by its reader: 128 + SIGPIPE
(13), as a shell reports a program killed by that signal (written out: the ``signal``
module, which builds its enums on import, is otherwise not needed by a run)."""


def _stdout_to_devnull() -> None:
    # Whatever is still buffered for standard output can no longer fail to be written.
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def exit_broken_pipe() -> NoReturn:
    """Stop quietly because the reader of standard output went away (``| head``).

    Standard output is pointed at ``/dev/null`` so that the interpreter's final flush
    cannot fail again, and the process exits with :data:`EXIT_BROKEN_PIPE`, the status a
    shell gives ``cat`` or ``grep`` in the same place.
    """
    _stdout_to_devnull()
    sys.exit(EXIT_BROKEN_PIPE)


def exit_output_error(error: OSError) -> NoReturn:
    """Stop because the output could not be written (a full disk): say so, exit 2.

    Not 1, which says "invalid URL found", nor 0: what was written is incomplete. Every
    command ends so (``scan`` in every format, ``validate``, ``lint``, ``report``).
    """
    if isinstance(error, OutputError):
        message = error.strerror
    else:
        message = f"cannot write the output: {error.strerror or error}"
    with contextlib.suppress(OSError):
        click.echo(f"urlsift: {message}", err=True)
    _stdout_to_devnull()
    sys.exit(EXIT_OUTPUT)


class _GuardedBuffer(io.BufferedIOBase):
    """Standard output's byte buffer, whose write errors are :class:`OutputError`.

    So a command tells a failed write (a full disk) from any other error where it happens;
    a reader going away stays ``BrokenPipeError``. Closing it leaves standard output open.
    """

    def __init__(self, buffer: BinaryIO) -> None:
        super().__init__()
        self._buffer = buffer

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._buffer.fileno()

    def isatty(self) -> bool:
        return self._buffer.isatty()

    def write(self, data: Any) -> int:
        try:
            return self._buffer.write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError("the output", exc) from exc

    def flush(self) -> None:
        if self._buffer.closed:
            # Its owner closed it (a test runner's capture), and this wrapper is being
            # finalized later: there is nothing left to write to.
            return
        try:
            self._buffer.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError("the output", exc) from exc


def utf8_stdout(write_through: bool = False) -> TextIO:
    """Standard output as UTF-8 that writes undecodable input bytes back as they were.

    A failed write raises :class:`~urlsift.errors.OutputError` (see :func:`exit_output_error`).
    ``write_through``: each write goes to standard output's buffer at once. Give the
    stream back with :func:`release_stdout` when done.
    """
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # already a text-only stream (e.g. under a test runner)
        return sys.stdout
    guarded: Any = _GuardedBuffer(buffer)  # a BufferedIOBase, which typeshed does not take
    return io.TextIOWrapper(
        guarded,
        encoding="utf-8",
        errors="surrogateescape",
        newline="\n",
        line_buffering=False,
        write_through=write_through,
    )


def release_stdout(out: TextIO) -> None:
    """Flush a stream of :func:`utf8_stdout` and leave standard output's buffer to its
    owner (a dropped wrapper would otherwise close what it wraps when collected)."""
    if out is not sys.stdout and isinstance(out, io.TextIOWrapper):
        out.flush()
        out.detach()


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
