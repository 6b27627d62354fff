# Read, never executed: executing it would fail.
import nowhere_module  # noqa

extensions = ["sphinx.ext.autosummary", "myst_parser"]
extensions.append("local_pages")
raise SystemExit("conf.py must not be executed by urlsift")
