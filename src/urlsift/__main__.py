"""``python -m urlsift``: the same as the ``urlsift`` command."""

from .cli import main

main(prog_name="urlsift")
