"""``python -m urlsift``: the same as the ``urlsift`` command."""

from .cli import run

run()
