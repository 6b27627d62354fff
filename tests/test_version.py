"""The version story (issue 25, item 1): one version, readable, and installs that can work."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from click.testing import CliRunner

import urlsift
from urlsift.cli import main

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_version_comes_from_pyproject() -> None:
    assert urlsift.__version__ == PROJECT["version"]
    assert CliRunner().invoke(main, ["--version"]).stdout.split()[-1] == PROJECT["version"]


def test_the_changelog_keeps_an_unreleased_section_and_names_the_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (\S+)", changelog, re.M)
    assert headings[0] == "Unreleased"
    assert PROJECT["version"] in headings


def test_no_document_installs_urlsift_from_an_index_it_is_not_on() -> None:
    # A bare "pip install urlsift" needs a published package: the docs install from the
    # repository (docs/releasing.md, which alone quotes the bare form, to say it fails).
    # 'urlsift[extra]' stands for the extra installed either way, as README's Install says.
    bare = re.compile(r"pip install +urlsift\b(?!\[)")
    for document in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if document.name == "releasing.md":
            continue
        text = document.read_text(encoding="utf-8")
        assert not bare.search(text), document.name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`pip install 'urlsift[dask]'` means the extra installed either way" in readme
    assert "git+https://" in readme
