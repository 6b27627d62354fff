"""``--check-links`` round two (issue 24): caches that are not urlsift's, URLs browsers
read otherwise, an overall deadline.

Every test runs under the ``connections`` guard of ``test_lint_links``: nothing but
127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from test_lint_links import Server, finding, run
from urlsift.cli import main
from urlsift.errors import ConfigError
from urlsift.lint._linkcache import SIGNATURE, CacheEntry, LinkCache
from urlsift.lint.config import CliOptions, SettingsResolver
from urlsift.lint.engine import lint_paths
from urlsift.lint.links import DEFAULT_MAX_TIME, LinkOptions, diagnose_links

pytest_plugins = ["test_lint_links"]  # its fixtures: connections, server, options

VICTIM = b"export PATH=$HOME/bin:$PATH  # a user's file, not a cache\n"


# --- item 1: a cache file is recognised by its signature; found configs write nothing -----


@pytest.mark.parametrize(
    "content",
    [VICTIM, b"", b"not json", b'{"format": 1, "entries": {"x": 3}}', b"[1, 2]"],
    ids=["shell-rc", "empty", "text", "broken-format-1", "json-list"],
)
def test_a_file_without_the_signature_is_never_replaced(
    server: Server, options: LinkOptions, content: bytes
) -> None:
    assert options.cache_path is not None
    options.cache_path.write_bytes(content)
    notes: list[str] = []
    url = server.url("/ok")
    assert diagnose_links([finding(url)], options, clock=lambda: 1e9, notice=notes.append) == []
    assert options.cache_path.read_bytes() == content  # untouched
    assert len(notes) == 1
    assert "not a urlsift link cache" in notes[0]
    assert "nothing is written to it" in notes[0]
    assert sorted(os.listdir(options.cache_path.parent)) == ["links.json"]  # no stray temp


def test_a_cache_urlsift_wrote_starts_with_the_signature_and_is_reused(
    server: Server, options: LinkOptions
) -> None:
    url = server.url("/ok")
    run([finding(url)], options)
    assert options.cache_path is not None
    raw = options.cache_path.read_bytes()
    assert raw.startswith(SIGNATURE)
    assert url in json.loads(raw)["entries"]
    run([finding(url)], options)
    assert len(server.requests()) == 1


def test_a_whole_format_1_cache_is_read_and_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "links.json"
    old = {"entries": {"http://a.example/": {"status": 200, "redirects": [], "checked": 5.0}}}
    path.write_text(json.dumps({**old, "format": 1}, indent=1, sort_keys=True) + "\n")
    cache = LinkCache(path, ttl=100.0, now=10.0)
    assert cache.problem is None
    assert set(cache.entries) == {"http://a.example/"}
    cache.put("http://b.example/", CacheEntry(200, (), 9.0))
    assert cache.save()
    assert path.read_bytes().startswith(SIGNATURE)
    assert set(LinkCache(path, ttl=100.0, now=10.0).entries) == {
        "http://a.example/",
        "http://b.example/",
    }


def test_a_corrupt_cache_of_urlsifts_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "links.json"
    path.write_bytes(SIGNATURE + b' "entries": {"u": [')  # truncated
    notes: list[str] = []
    cache = LinkCache(path, ttl=100.0, now=10.0, notice=notes.append)
    assert "is not JSON" in notes[0]
    assert "replaced" in notes[0]
    cache.put("http://b.example/", CacheEntry(200, (), 9.0))
    assert cache.save()
    assert set(LinkCache(path, ttl=100.0, now=10.0).entries) == {"http://b.example/"}


def test_a_fifo_at_the_cache_path_is_not_opened_blocking(tmp_path: Path) -> None:
    path = tmp_path / "links.json"
    os.mkfifo(path)
    cache = LinkCache(path, ttl=100.0, now=10.0)  # would hang on a blocking open
    assert cache.problem is not None
    assert "not a regular file" in cache.problem
    cache.put("http://b.example/", CacheEntry(200, (), 9.0))
    assert not cache.save()
    assert path.is_fifo()


def test_a_file_taken_over_between_load_and_save_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "links.json"
    cache = LinkCache(path, ttl=100.0, now=10.0)  # no file yet: ours to create
    path.write_bytes(VICTIM)
    cache.put("http://b.example/", CacheEntry(200, (), 9.0))
    assert not cache.save()
    assert path.read_bytes() == VICTIM


def _tree_with_found_config(root: Path, cache_path: str) -> Path:
    project = root / "pr"
    (project / "docs").mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        f"[tool.urlsift.links]\ncache-path = {json.dumps(cache_path)}\n", encoding="utf-8"
    )
    return project


@pytest.mark.parametrize("spelling", ["absolute", "relative", "home", "dotdot"])
def test_a_found_config_cannot_point_the_cache_at_a_users_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    victim = tmp_path / "home" / ".bashrc"
    victim.parent.mkdir()
    victim.write_bytes(VICTIM)
    monkeypatch.setenv("HOME", str(victim.parent))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    value = {
        "absolute": str(victim),
        "relative": os.path.relpath(victim, tmp_path / "pr"),
        "home": "~/.bashrc",
        "dotdot": "..",
    }[spelling]
    project = _tree_with_found_config(tmp_path, value)
    with pytest.raises(ConfigError, match="cache-path"):
        SettingsResolver(project / "docs", CliOptions(check_links=True))
    assert victim.read_bytes() == VICTIM


def test_a_found_config_names_a_file_in_the_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = _tree_with_found_config(tmp_path, "project-links.json")
    settings = SettingsResolver(project / "docs", CliOptions(check_links=True)).default
    options = LinkOptions.from_config(settings.links)
    assert options.cache_path == tmp_path / "cache" / "urlsift" / "project-links.json"


def test_an_explicit_config_may_put_the_cache_anywhere(tmp_path: Path) -> None:
    config = tmp_path / "mine.toml"
    config.write_text(f'[links]\ncache-path = "{tmp_path / "elsewhere.json"}"\n')
    settings = SettingsResolver(tmp_path, CliOptions(check_links=True), config).default
    assert LinkOptions.from_config(settings.links).cache_path == tmp_path / "elsewhere.json"


def test_lint_with_a_found_config_never_writes_the_users_file(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # End to end: a found config may name a plain file name; the cache lands in the cache
    # folder, and a user's file there without the signature is still left alone.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = _tree_with_found_config(tmp_path, "bashrc")
    (project / "docs" / "a.md").write_text(f"See <{server.url('/ok')}>.\n")
    victim = tmp_path / "cache" / "urlsift" / "bashrc"
    victim.parent.mkdir(parents=True)
    victim.write_bytes(VICTIM)
    resolver = SettingsResolver(project, CliOptions(check_links=True))
    result = lint_paths(["docs"], resolver, cwd=project)
    assert result.diagnostics == ()
    assert victim.read_bytes() == VICTIM


# --- item 2: URLs browsers read otherwise are not checked, they are reported ------------


def test_a_backslash_before_the_host_is_reported_not_requested(
    server: Server, options: LinkOptions
) -> None:
    port = server.base.rsplit(":", 1)[1]
    url = f"http://evil.example\\@127.0.0.1:{port}/ok"
    (diagnostic,) = run([finding(url)], options)
    assert server.requests() == []  # 127.0.0.1 was not asked
    assert diagnostic.code == "URL101"
    assert "evil.example/@127.0.0.1" in diagnostic.message
    assert "browsers" in diagnostic.message


@pytest.mark.parametrize("path", ["/a\\b", "/\\\\evil.example/"])
def test_a_backslash_in_the_path_is_reported_not_requested(
    server: Server, options: LinkOptions, path: str
) -> None:
    (diagnostic,) = run([finding(server.url(path))], options)
    assert server.requests() == []
    assert diagnostic.code == "URL101"
    assert "backslash" in diagnostic.message


def test_a_backslash_in_the_query_is_the_same_for_both(
    server: Server, options: LinkOptions
) -> None:
    assert run([finding(server.url("/ok?x=a\\b"))], options) == []


def test_a_redirect_to_a_location_with_a_backslash_is_not_followed(
    server: Server, options: LinkOptions
) -> None:
    port = server.base.rsplit(":", 1)[1]
    location = f"http://evil.example\\@127.0.0.1:{port}/ok"
    url = server.url("/to")
    server.routes["/to"] = lambda handler, method: handler.answer(302, Location=location)
    diagnostics = run([finding(url)], options)
    assert [d.code for d in diagnostics] == ["URL101"]
    assert "backslash" in diagnostics[0].message
    assert [path for _method, path in server.requests()] == ["/to"]


# --- item 17: one deadline for all the link checks of a run ----------------------------


def test_max_time_gives_up_the_links_still_being_checked(
    server: Server, options: LinkOptions, capsys: pytest.CaptureFixture[str]
) -> None:
    hurried = dataclasses.replace(options, timeout=30.0, max_time=0.5)
    slow = [finding(server.url(f"/slow?n={n}"), line=n) for n in range(40)]
    started = time.monotonic()
    result = diagnose_links([finding(server.url("/ok"), line=99), *slow], hurried)
    assert time.monotonic() - started < 10.0  # not 40 x 30 s, nor 30 s
    assert {d.code for d in result} == {"URL103"}
    assert sorted(d.line for d in result) == list(range(40))  # each one not checked, named
    assert all(
        "not checked: the checks ran out of time (max-time 0.5 s)" in d.message for d in result
    )
    err = capsys.readouterr().err
    assert "40 of 41 links not checked" in err
    assert hurried.cache_path is not None
    stored = json.loads(hurried.cache_path.read_text(encoding="utf-8"))
    assert list(stored["entries"]) == [server.url("/ok")]  # what finished is kept


def test_max_time_has_a_default_and_is_configurable() -> None:
    assert LinkOptions().max_time == DEFAULT_MAX_TIME == 300.0
    assert LinkOptions.from_config({"max-time": 60}).max_time == 60.0
    for bad in (0, -1, float("inf"), float("nan"), "60"):
        with pytest.raises(ConfigError, match="max-time"):
            LinkOptions.from_config({"max-time": bad})


def test_max_time_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("nothing to check\n")
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        ok = CliRunner().invoke(main, ["lint", "--check-links", "--max-time", "5", "a.md"])
        bad = CliRunner().invoke(main, ["lint", "--check-links", "--max-time", "0", "a.md"])
    finally:
        os.chdir(old)
    assert ok.exit_code == 0, ok.output
    assert bad.exit_code == 2
