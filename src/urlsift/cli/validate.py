"""``urlsift validate``: check URLs given as arguments or on standard input.

Strategy: click glue only. Options come in, each URL goes through one library call
(:func:`urlsift.validation.rules.validate`), and the result is rendered as one line: text (one
greppable line per URL) or JSON Lines (``Validation.to_dict()``). Nothing here decides
validity. Exit status: 0 when every URL is valid, 1 when any is invalid, 2 for usage
errors (click's ``UsageError``) and when the output cannot be written. Standard input is
read as bytes and decoded as UTF-8 with ``surrogateescape``, as the text source does, so
undecodable bytes reach the validator (which reports them) instead of crashing the command.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator

import click

from .._model import Defect, Policy
from ..output.formats import visible_utf8
from ..validation.normalize import normalize
from ..validation.rules import Validation, validate
from ..validation.schemes import default_registry
from .main import exit_broken_pipe, exit_output_error

__all__ = ["render_jsonl", "render_text", "validate_command"]


def _render_defect(defect: Defect) -> str:
    prefix = "" if defect.severity == "error" else "warning "
    return f"{prefix}{defect.code} at {defect.offset}: {defect.message}"


def render_text(result: Validation) -> str:
    """Render a validation as one line: ``VALID url`` or ``INVALID url (code at N: ...)``.

    Args:
        result: the validation to render.

    Returns:
        The line, without a line ending; defects follow in parentheses, separated by
        ``; ``, warnings prefixed with ``warning``.
    """
    status = "VALID" if result.valid else "INVALID"
    line = f"{status} {visible_utf8(result.url)}"
    if result.defects:
        line += " (" + "; ".join(_render_defect(d) for d in result.defects) + ")"
    return visible_utf8(line)


def render_jsonl(result: Validation) -> str:
    """Render a validation as one JSON object on one line: ``Validation.to_dict()`` with
    ``normalized`` (:func:`urlsift.normalize`, as in ``scan`` records) after ``url``.

    Args:
        result: the validation to render.

    Returns:
        The JSON text, ASCII only, without a line ending.
    """
    data = result.to_dict()
    return json.dumps({"url": data.pop("url"), "normalized": normalize(result.url), **data})


def _read_lines(stream: Iterable[bytes]) -> Iterator[str]:
    # One URL per line: the line ending is removed, blank lines are skipped, nothing else
    # is stripped (silently trimming URLs hides defects).
    first = True
    for raw in stream:
        line = raw.decode("utf-8", "surrogateescape")
        if first and line.startswith("\ufeff"):
            line = line[1:]
        first = False
        line = line.removesuffix("\n").removesuffix("\r")
        if line.strip():
            yield line


def _urls(arguments: Iterable[str]) -> Iterator[str]:
    for argument in arguments:
        if argument == "-":
            with click.open_file("-", "rb") as stream:
                yield from _read_lines(stream)
        else:
            yield argument


_RENDERERS: dict[str, Callable[[Validation], str]] = {"text": render_text, "jsonl": render_jsonl}


@click.command("validate", short_help="Check URLs against RFC 1738, one per argument or line.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(sorted(_RENDERERS)),
    default="text",
    show_default=True,
    help="text: one 'VALID url' / 'INVALID url (defects)' line per URL; jsonl: one JSON "
    "object per URL.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Treat characters RFC 1738 calls unsafe but real URLs use ('~') and 'host?search' "
    "without a path as errors.",
)
@click.argument("urls", nargs=-1, metavar="URL...")
@click.pass_context
def validate_command(
    ctx: click.Context, output_format: str, strict: bool, urls: tuple[str, ...]
) -> None:
    """Check each URL against RFC 1738 ('-' reads URLs from standard input, one a line).

    Exit status 0 when all are valid, 1 when any is invalid, 2 on usage errors and when
    the output cannot be written.
    """
    if not urls:
        raise click.UsageError("give at least one URL, or '-' to read URLs from stdin", ctx)
    render = _RENDERERS[output_format]
    policy = Policy(strict=strict)
    registry = default_registry()
    all_valid = True
    for url in _urls(urls):
        result = validate(url, policy=policy, registry=registry)
        all_valid = all_valid and result.valid
        try:
            click.echo(render(result))
        except BrokenPipeError:
            exit_broken_pipe()
        except OSError as exc:  # a full disk: 2, never 1 ("invalid URL found")
            exit_output_error(exc)
    ctx.exit(0 if all_valid else 1)
