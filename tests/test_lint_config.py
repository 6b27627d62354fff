"""Configuration of urlsift lint: files, selectors, errors, layers; suppression comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from urlsift.errors import ConfigError
from urlsift.lint.check import Suppressions
from urlsift.lint.config import (
    ALL_CODES,
    CliOptions,
    build_settings,
    find_config,
    load_settings,
    resolve_selectors,
)
from urlsift.lint.model import Diagnostic


def test_selectors_codes_prefixes_names_all() -> None:
    assert resolve_selectors(["URL003"], "x") == {"URL003"}
    assert resolve_selectors(["url00"], "x") == {f"URL00{i}" for i in range(1, 10)}
    assert resolve_selectors(["ambiguous-hyphen, URL1"], "x") == {
        "URL003",
        "URL101",
        "URL102",
        "URL103",
        "URL104",
    }
    assert resolve_selectors(["ALL"], "x") == ALL_CODES
    with pytest.raises(ConfigError, match="unknown rule selector"):
        resolve_selectors(["URL999"], "--select")


def test_layers() -> None:
    table = {"ignore": ["URL007"], "severity": {"URL003": "error"}, "strict": True}
    settings = build_settings(table)
    assert "URL007" not in settings.select
    assert settings.severity_of("URL003", "warning") == "error"
    assert settings.strict
    cli = CliOptions(select=("URL0",), ignore=("URL001",), strict=False)
    settings = build_settings(table, cli)
    assert "URL007" in settings.select  # --select replaces the file's selection
    assert "URL001" not in settings.select
    assert not settings.strict


@pytest.mark.parametrize(
    ("table", "match"),
    [
        ({"selectt": ["URL001"]}, "unknown key"),
        ({"select": [1]}, "list of strings"),
        ({"select": ["NOPE"]}, "unknown rule selector"),
        ({"strict": "yes"}, "true or false"),
        ({"severity": {"URL003": "fatal"}}, "error"),
        ({"severity": {"NOPE": "error"}}, "unknown rule selector"),
        ({"links": 3}, "must be a table"),
    ],
)
def test_config_errors(table: dict[str, object], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        build_settings(table)


def test_find_config_pyproject_and_urlsift_toml(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.urlsift]\nignore = ["URL003"]\n')
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    (tmp_path / "a" / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no table
    assert find_config(sub) == tmp_path / "pyproject.toml"
    assert "URL003" not in load_settings(sub).select
    (tmp_path / "urlsift.toml").write_text('ignore = ["URL004"]\n')
    assert find_config(sub) == tmp_path / "urlsift.toml"
    settings = load_settings(sub)
    assert "URL004" not in settings.select
    assert "URL003" in settings.select


def test_bad_toml_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "urlsift.toml"
    path.write_text("select = [\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(tmp_path, config=path)


def _d(line: int, code: str) -> Diagnostic:
    return Diagnostic("p", line, 1, code, "error", "m")


def test_suppressions() -> None:
    text = (
        "a  # urlsift: ignore\n"
        "b  <!-- urlsift: ignore[URL003, password-in-url] -->\n"
        ".. urlsift: ignore-next-line[URL0]\n"
        "d\n"
        "e  urlsift: ignore[NOPE]\n"
    )
    s = Suppressions.parse(text)
    assert s.silences(_d(1, "URL001"))
    assert s.silences(_d(2, "URL003"))
    assert s.silences(_d(2, "URL006"))
    assert not s.silences(_d(2, "URL001"))
    assert s.silences(_d(4, "URL005"))
    assert not s.silences(_d(4, "URL101"))
    assert not s.silences(_d(5, "URL001"))  # unknown selectors silence nothing
    whole = Suppressions.parse('.\\" urlsift: ignore-file[URL005]\n')
    assert whole.silences(_d(9, "URL005"))
    assert not whole.silences(_d(9, "URL001"))
