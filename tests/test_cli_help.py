"""Issue 15: ``urlsift --help`` lists every command with a whole sentence as its summary."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from urlsift.cli import main


def _summaries() -> dict[str, str]:
    ctx = click.Context(main)
    summaries = {}
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        assert command is not None
        summaries[name] = command.get_short_help_str(limit=20)  # a narrow listing
    return summaries


def test_there_are_the_four_commands() -> None:
    assert sorted(_summaries()) == ["lint", "report", "scan", "validate"]


@pytest.mark.parametrize("width", [40, 80, 200])
def test_every_summary_in_help_is_a_whole_sentence(width: int) -> None:
    result = CliRunner().invoke(main, ["--help"], terminal_width=width)
    assert result.exit_code == 0
    listing = " ".join(result.output.split("Commands:", 1)[1].split())
    assert "..." not in listing
    for name, summary in _summaries().items():
        assert summary[:1].isupper(), name
        assert summary.endswith("."), name
        assert "..." not in summary, name
        assert f"{name} {summary}" in listing
