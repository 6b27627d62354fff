# Read, never executed: executing it would fail.
import nowhere_module  # noqa

AUTHOR = "Fixture"
PATH = "content"
raise SystemExit("pelicanconf.py must not be executed by urlsift")
