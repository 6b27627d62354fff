"""Hostile input, round two (issue 24 item 7): limits and scheme sets given to the library.

``Scanner(max_url_length=nan)`` (or ``inf``) found nothing, silently; ``10**30`` raised
OverflowError; ``extract(text, schemes="http")`` iterated the letters and found ``h://``
URLs; ``max-file-size = 10**20`` in a lint configuration gave "internal error:
OverflowError". Every limit is now checked in one place (:func:`urlsift.errors.check_limit`),
and a bare string where a collection of scheme names belongs is refused
(:func:`urlsift.errors.check_names`), with :class:`~urlsift.errors.ConfigError`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from urlsift import extract, iter_urls
from urlsift.api import scan_units
from urlsift.errors import ConfigError
from urlsift.extraction.scanner import Scanner

URLSIFT = Path(sys.executable).with_name("urlsift")
BAD_LIMITS = [float("nan"), float("inf"), -float("inf"), 10**30, 2**40, True, "4096", 100.0, 15]


@pytest.mark.parametrize("value", BAD_LIMITS, ids=repr)
@pytest.mark.parametrize("option", ["max_url_length", "max_wrapper_length", "block_size"])
def test_the_scanner_refuses_unusable_limits(option: str, value: object) -> None:
    if option == "block_size" and value == 2**40:
        return  # a block size has no pattern bound: any integer from 16 is usable
    with pytest.raises(ConfigError, match=option):
        Scanner(**{option: value})  # type: ignore[arg-type]


def test_library_limits_go_through_one_check() -> None:
    from urlsift.errors import check_limit

    class Index:  # numpy's integers and the like: anything with __index__
        def __index__(self) -> int:
            return 4096

    assert check_limit("n", Index()) == 4096
    assert Scanner(max_url_length=Index()).feed("see http://a.example/x y") == []  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="max_url_length"):
        scan_units([], max_url_length=float("nan"))  # type: ignore[arg-type]


def test_a_large_usable_limit_still_finds_urls() -> None:
    scanner = Scanner(max_url_length=2**31 - 1, max_wrapper_length=2**31 - 1)
    found = scanner.feed("see http://a.example/x and <URL:http://b.example/>\n")
    found += scanner.close()
    assert len(found) == 2


@pytest.mark.parametrize("schemes", ["http", b"http", "http,ftp"])
def test_one_string_is_not_a_set_of_schemes(schemes: object) -> None:
    text = "see http://a.example/ and h://b.example/\n"
    with pytest.raises(ConfigError, match="collection"):
        extract(text, schemes=schemes)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="collection"):
        list(iter_urls([text], schemes=schemes))  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="collection"):
        Scanner(schemes)  # type: ignore[arg-type]
    assert [u.url for u in extract(text, schemes=["http"])] == ["http://a.example/"]
    assert [u.url for u in extract(text, schemes=("http",))] == ["http://a.example/"]


@pytest.mark.parametrize("value", ["100000000000000000000", "nan", "inf", "1e6"])
def test_lint_config_limits_are_usage_errors(tmp_path: Path, value: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.urlsift]\nmax-file-size = {value}\n")
    (tmp_path / "a.md").write_text("http://a.example/\n")
    done = subprocess.run(
        [str(URLSIFT), "lint", "a.md"],
        cwd=tmp_path,
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2
    assert b"internal error" not in done.stderr
    assert b"max-file-size" in done.stderr
