"""``python -m urlsift``: the same as the ``urlsift`` command."""

from .cli.main import run

run()
