"""urlsift lint configuration the way ruff does it: the closest configuration file governs
each file, globs relative to the configuration's folder, ``extend``, ``force-exclude``,
``per-file-ignores``, ``ignore-urls``, standard input with ``--stdin-filename``, malformed
files (exit 2 naming the file), ``--fail-on error``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import urlsift.lint.config as config
from urlsift.cli import main
from urlsift.lint.config import SettingsResolver, rebase_glob
from urlsift.lint.engine import lint_paths
from urlsift.lint.model import Diagnostic, Finding

# One line, three problems: URL007 (port 81), URL001 ('_' in a host name), and a
# localhost URL with a port (URL007) for the URL patterns.
LINE = "http://a.example:81/ http://b_c.example/ http://localhost:99/\n"


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _lint(cwd: Path, monkeypatch: pytest.MonkeyPatch, *args: str, stdin: bytes = b"") -> Result:
    monkeypatch.chdir(cwd)
    return CliRunner().invoke(main, ["lint", *args], input=stdin)


def _found(result: Result) -> list[tuple[str, str]]:
    """(path, code) of each diagnostic line."""
    out = []
    for line in result.stdout.splitlines():
        path, _, rest = line.partition(":")
        out.append((path, rest.split(" ", 2)[1]))
    return out


@pytest.fixture
def nested(tmp_path: Path) -> Path:
    """A project with a root configuration and a docs/ configuration of its own."""
    _tree(
        tmp_path,
        {
            "proj/pyproject.toml": '[tool.urlsift]\nignore = ["URL007"]\n',
            "proj/top.md": LINE,
            "proj/docs/pyproject.toml": '[tool.urlsift]\nselect = ["URL007"]\n',
            "proj/docs/a.md": LINE,
            # A pyproject.toml without [tool.urlsift] is passed over.
            "proj/docs/api/pyproject.toml": "[project]\nname = 'api'\n",
            "proj/docs/api/b.md": LINE,
            "elsewhere/.keep": "",
        },
    )
    return tmp_path


def test_closest_configuration_governs_each_file(
    nested: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Linted by path from another folder: the working folder has no say.
    result = _lint(nested / "elsewhere", monkeypatch, "../proj")
    assert _found(result) == [
        ("../proj/docs/a.md", "URL007"),
        ("../proj/docs/a.md", "URL007"),
        ("../proj/docs/api/b.md", "URL007"),
        ("../proj/docs/api/b.md", "URL007"),
        ("../proj/top.md", "URL001"),
    ]
    # Files named one by one get the same settings as in the walk.
    named = _lint(nested / "elsewhere", monkeypatch, "../proj/top.md", "../proj/docs/a.md")
    assert _found(named) == [
        ("../proj/docs/a.md", "URL007"),
        ("../proj/docs/a.md", "URL007"),
        ("../proj/top.md", "URL001"),
    ]


def test_urlsift_toml_wins_over_pyproject_in_one_folder(
    nested: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (nested / "proj" / "docs" / "urlsift.toml").write_text('select = ["URL001"]\n')
    result = _lint(nested / "proj", monkeypatch, "docs/a.md")
    assert _found(result) == [("docs/a.md", "URL001")]


def test_explicit_config_governs_every_file(nested: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(nested, {"shared.toml": 'select = ["URL001"]\nexclude = ["proj/top.md"]\n'})
    result = _lint(nested, monkeypatch, "--config", "shared.toml", "proj")
    # docs/ has its own configuration, but --config wins; its globs are relative to the
    # working folder.
    assert _found(result) == [("proj/docs/a.md", "URL001"), ("proj/docs/api/b.md", "URL001")]


def test_command_line_overrides_every_configuration(
    nested: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = _lint(nested / "proj", monkeypatch, "--select", "URL001", ".")
    assert _found(result) == [
        ("docs/a.md", "URL001"),
        ("docs/api/b.md", "URL001"),
        ("top.md", "URL001"),
    ]
    result = _lint(nested / "proj", monkeypatch, "--ignore", "URL001", ".")
    assert {path for path, _ in _found(result)} == {"docs/a.md", "docs/api/b.md"}


def test_file_under_no_configuration_gets_the_working_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(tmp_path, {"w/urlsift.toml": 'select = ["URL001"]\n', "loose/a.md": LINE})
    result = _lint(tmp_path / "w", monkeypatch, "../loose/a.md")
    assert _found(result) == [("../loose/a.md", "URL001")]


def test_exclude_is_relative_to_the_configuration_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(
        tmp_path,
        {
            "proj/urlsift.toml": 'exclude = ["docs/legacy/"]\nextend-exclude = ["*.old.md"]\n',
            "proj/docs/legacy/a.md": LINE,
            "proj/docs/new.md": "ok\n",
            "proj/docs/x.old.md": LINE,
            "proj/legacy/b.md": LINE,  # not docs/legacy: linted
        },
    )
    legacy = {(tmp_path / "proj/legacy/b.md").resolve()}
    cases = [("proj", "docs", set()), ("proj/docs", ".", set()), ("proj", ".", legacy)]
    for cwd, target, expected in [*cases, (".", "proj", legacy)]:
        result = _lint(tmp_path / cwd, monkeypatch, target)
        paths = {(tmp_path / cwd / path).resolve() for path, _ in _found(result)}
        assert paths == expected, (cwd, result.stdout)
        assert result.stderr.startswith("All checked: 1 file" if not expected else "Found")


def test_command_line_exclude_is_relative_to_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(
        tmp_path,
        {
            "urlsift.toml": "",
            "docs/urlsift.toml": "",
            "docs/old/a.md": LINE,
            "docs/b.md": "ok\n",
        },
    )
    result = _lint(tmp_path, monkeypatch, "--exclude", "docs/old/", ".")
    assert result.stdout == ""
    assert result.exit_code == 0


def test_force_exclude_for_names_passed_by_pre_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(
        tmp_path,
        {
            "pyproject.toml": '[tool.urlsift]\nexclude = ["vendor/", "CHANGELOG.md"]\n',
            "vendor/lib/a.md": LINE,
            "CHANGELOG.md": LINE,
            "docs/CHANGELOG.md": LINE,
            "ok.md": "fine\n",
        },
    )
    names = ["vendor/lib/a.md", "CHANGELOG.md", "docs/CHANGELOG.md", "ok.md"]
    # Default (as ruff): a file named on the command line is linted whatever `exclude` says.
    plain = _lint(tmp_path, monkeypatch, *names)
    assert {path for path, _ in _found(plain)} == {
        "vendor/lib/a.md",
        "CHANGELOG.md",
        "docs/CHANGELOG.md",
    }
    forced = _lint(tmp_path, monkeypatch, "--force-exclude", *names)
    assert (forced.exit_code, forced.stdout) == (0, "")
    assert forced.stderr == "All checked: 1 file, 0 URLs, no problems.\n"
    # The setting does the same; --no-force-exclude turns it off again.
    (tmp_path / "pyproject.toml").write_text(
        '[tool.urlsift]\nexclude = ["vendor/", "CHANGELOG.md"]\nforce-exclude = true\n'
    )
    assert _lint(tmp_path, monkeypatch, *names).stdout == ""
    assert _lint(tmp_path, monkeypatch, "--no-force-exclude", *names).stdout == plain.stdout
    # A folder named on the command line is dropped too.
    assert _lint(tmp_path, monkeypatch, "vendor").stdout == ""
    # From a subfolder, with a path that climbs out and back.
    sub = _lint(tmp_path / "docs", monkeypatch, "../vendor/lib/a.md", "CHANGELOG.md")
    assert sub.stdout == ""


def test_pre_commit_hook_entry_honours_exclude(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The shipped hook, run as pre-commit runs it: its entry, then the staged names.
    hooks = (Path(__file__).resolve().parent.parent / ".pre-commit-hooks.yaml").read_text()
    entry = next(line for line in hooks.splitlines() if line.strip().startswith("entry:"))
    program, command, *options = entry.split(":", 1)[1].split()
    assert (program, command) == ("urlsift", "lint")
    _tree(
        tmp_path,
        {
            "pyproject.toml": '[tool.urlsift]\nextend-exclude = ["docs/_build/"]\n',
            "docs/_build/page.html": '<a href="http://b_c.example/">x</a>\n',
            "docs/index.md": "fine\n",
        },
    )
    result = _lint(tmp_path, monkeypatch, *options, "docs/_build/page.html", "docs/index.md")
    assert (result.exit_code, result.stdout) == (0, "")


def test_force_exclude_outside_the_configuration_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --config: globs relative to the working folder; a named file outside it is matched
    # by its name alone.
    _tree(
        tmp_path,
        {
            "w/c.toml": 'exclude = ["NEWS.md", "docs/"]\nforce-exclude = true\n',
            "out/NEWS.md": LINE,
            "out/docs/a.md": LINE,
        },
    )
    result = _lint(tmp_path / "w", monkeypatch, "--config", "c.toml", "../out/NEWS.md")
    assert result.stdout == ""
    kept = _lint(tmp_path / "w", monkeypatch, "--config", "c.toml", "../out/docs/a.md")
    assert [code for _, code in _found(kept)] == ["URL007", "URL001", "URL007"]


def test_per_file_ignores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(
        tmp_path,
        {
            "pyproject.toml": (
                "[tool.urlsift.per-file-ignores]\n"
                '"docs/legacy/*.md" = ["URL001", "non-default-port"]\n'
                '"!docs/**" = ["URL007"]\n'
                "[tool.urlsift.extend-per-file-ignores]\n"
                '"NEWS.md" = ["URL0"]\n'
            ),
            "docs/legacy/a.md": LINE,
            "docs/b.md": LINE,
            "top.md": LINE,
            "NEWS.md": LINE,
        },
    )
    result = _lint(tmp_path / "docs", monkeypatch, "..")
    assert _found(result) == [
        ("../top.md", "URL001"),  # not under docs/: its URL007 are ignored
        ("b.md", "URL007"),
        ("b.md", "URL001"),
        ("b.md", "URL007"),
    ]
    # --select does not undo them (as in ruff).
    selected = _lint(tmp_path, monkeypatch, "--select", "URL001", "docs/legacy/a.md")
    assert selected.stdout == ""


def test_ignore_urls_apply_to_every_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(
        tmp_path,
        {
            "urlsift.toml": 'ignore-urls = ["http://localhost*", "re:_c\\\\.example"]\n',
            "a.md": LINE,
        },
    )
    result = _lint(tmp_path, monkeypatch, "a.md")
    assert _found(result) == [("a.md", "URL007")]
    assert "a.example:81" in result.stdout
    assert result.stderr.endswith("in 1 of 1 file.\n")
    more = _lint(tmp_path, monkeypatch, "--ignore-url", "http://a.example:81/", "a.md")
    assert (more.exit_code, more.stdout) == (0, "")
    assert more.stderr == "All checked: 1 file, 0 URLs, no problems.\n"  # all ignored


def test_ignore_urls_are_not_link_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import urlsift.lint.links as links

    _tree(
        tmp_path,
        {
            "urlsift.toml": 'ignore-urls = ["http://localhost*"]\n',
            "a.md": "http://localhost:8000/x http://up.example/\n",
            "sub/urlsift.toml": "[links]\ntimeout = 7\n",
            "sub/b.md": "http://localhost:8000/y\n",
        },
    )
    seen: list[tuple[list[str], float]] = []

    def fake(findings: list[Finding], options: links.LinkOptions) -> list[Diagnostic]:
        seen.append(([f.url for f in findings], options.timeout))
        return [
            Diagnostic(f.path, f.line, f.column, "URL101", "error", "m", f.url) for f in findings
        ]

    monkeypatch.setattr(links, "diagnose_links", fake)
    result = _lint(tmp_path, monkeypatch, "--check-links", "--select", "URL1", ".")
    # Each configuration's [links] table serves the files it governs.
    assert sorted(seen) == [(["http://localhost:8000/y"], 7.0), (["http://up.example/"], 10.0)]
    assert result.stdout == "a.md:1:25: URL101 m\nsub/b.md:1:1: URL101 m\n"


def test_stdin_with_stdin_filename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(
        tmp_path,
        {
            "pyproject.toml": (
                '[tool.urlsift]\nexclude = ["gen/"]\n'
                '[tool.urlsift.per-file-ignores]\n"docs/legacy/*" = ["URL001"]\n'
            ),
            "docs/urlsift.toml": 'select = ["URL004", "URL001"]\n',
            "docs/legacy/urlsift.toml": 'select = ["URL001", "URL007"]\n',
        },
    )
    text = ("[t](http://x.example/a b) " + LINE).encode()
    # The format comes from the name (a Markdown link with a space: URL004), the
    # configuration from its folder, and the name is reported.
    md = _lint(tmp_path, monkeypatch, "-", "--stdin-filename", "docs/x.md", stdin=text)
    assert _found(md) == [("docs/x.md", "URL004"), ("docs/x.md", "URL001")]
    assert md.exit_code == 1
    txt = _lint(tmp_path, monkeypatch, "--stdin-filename", "docs/x.txt", stdin=text)
    assert [code for _, code in _found(txt)] == ["URL001"]
    # Per-file ignores of docs/legacy/'s own configuration (none) vs the root's: the
    # closest configuration governs, and it has none.
    legacy = _lint(tmp_path, monkeypatch, "-", "--stdin-filename", "docs/legacy/y.md", stdin=text)
    assert [code for _, code in _found(legacy)] == ["URL007", "URL001", "URL007"]
    # From another folder the name is reported relative to the working folder.
    inner = _lint(tmp_path / "docs", monkeypatch, "-", "--stdin-filename", "x.md", stdin=text)
    assert [path for path, _ in _found(inner)] == ["x.md", "x.md"]
    # Without a name: "-", plain text, the working folder's configuration.
    bare = _lint(tmp_path, monkeypatch, "-", stdin=text)
    assert [path for path, _ in _found(bare)] == ["-"] * 3
    # force-exclude holds for the name.
    forced = _lint(
        tmp_path, monkeypatch, "--force-exclude", "-", "--stdin-filename", "gen/x.md", stdin=text
    )
    assert (forced.exit_code, forced.stdout) == (0, "")
    # Mixed with paths, or a name without '-': usage errors.
    assert _lint(tmp_path, monkeypatch, "-", "docs").exit_code == 2
    assert _lint(tmp_path, monkeypatch, "--stdin-filename", "a.md", "docs").exit_code == 2


def test_stdin_per_file_ignores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "urlsift.toml").write_text('[per-file-ignores]\n"legacy/*.md" = ["URL001"]\n')
    text = LINE.encode()
    result = _lint(tmp_path, monkeypatch, "-", "--stdin-filename", "legacy/a.md", stdin=text)
    assert [code for _, code in _found(result)] == ["URL007", "URL007"]


@pytest.mark.parametrize(
    ("files", "named", "words"),
    [
        ({"urlsift.toml": "select = [\n"}, "urlsift.toml", ["not valid TOML"]),
        ({"pyproject.toml": "[tool.urlsift\n"}, "pyproject.toml", ["not valid TOML"]),
        ({"urlsift.toml": "bogus = 1\n"}, "urlsift.toml", ["bogus", "unknown key"]),
        ({"urlsift.toml": "strict = 'yes'\n"}, "urlsift.toml", ["strict", "true or false"]),
        ({"urlsift.toml": 'ignore-urls = "re:("\n'}, "urlsift.toml", ["ignore-urls"]),
        ({"urlsift.toml": "per-file-ignores = 3\n"}, "urlsift.toml", ["per-file-ignores"]),
        (
            {"urlsift.toml": '[per-file-ignores]\n"*.md" = ["NOPE"]\n'},
            "urlsift.toml",
            ["per-file-ignores", "NOPE"],
        ),
        (
            {"urlsift.toml": '[per-file-ignores]\n"*.md" = [1]\n'},
            "urlsift.toml",
            ["per-file-ignores", "*.md", "rule selectors"],
        ),
        ({"urlsift.toml": 'extend = "missing.toml"\n'}, "urlsift.toml", ["extend", "no such"]),
        (
            {"urlsift.toml": 'extend = "b.toml"\n', "b.toml": 'extend = "urlsift.toml"\n'},
            "b.toml",
            ["a loop"],
        ),
        ({"urlsift.toml": 'extend = "b.toml"\n', "b.toml": "x = 1\n"}, "b.toml", ["x"]),
        # In a subfolder, found during the walk.
        ({"docs/urlsift.toml": "select = 3\n"}, "docs/urlsift.toml", ["select"]),
        ({"docs/pyproject.toml": "= 1\n"}, "docs/pyproject.toml", ["not valid TOML"]),
    ],
)
def test_malformed_configuration_exits_2_naming_the_file(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, str],
    named: str,
    words: list[str],
) -> None:
    _tree(tmp_path, {"docs/a.md": "x\n", **files})
    result = _lint(tmp_path, monkeypatch, ".")
    assert result.exit_code == 2, result.output
    message = " ".join(result.stderr.split())  # click wraps nothing, but be safe
    assert str(tmp_path / named) in message
    for word in words:
        assert word in message


def test_explicit_config_that_is_malformed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path, {"c.toml": "select = [\n", "a.md": "x\n"})
    result = _lint(tmp_path, monkeypatch, "--config", "c.toml", "a.md")
    assert result.exit_code == 2
    assert str(tmp_path / "c.toml") in result.stderr


def test_fail_on_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(tmp_path, {"urlsift.toml": "", "warn.md": "http://a.example:8080/\n", "err.md": LINE})
    warned = _lint(tmp_path, monkeypatch, "--fail-on", "error", "warn.md")
    assert warned.exit_code == 0
    assert "URL007" in warned.stdout  # still reported
    assert _lint(tmp_path, monkeypatch, "warn.md").exit_code == 1
    assert _lint(tmp_path, monkeypatch, "--fail-on", "error", "err.md").exit_code == 1
    # A severity override makes a warning fail the run again.
    (tmp_path / "urlsift.toml").write_text('severity = { URL007 = "error" }\n')
    assert _lint(tmp_path, monkeypatch, "--fail-on", "error", "warn.md").exit_code == 1


def test_extend_builds_on_a_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _tree(
        tmp_path,
        {
            "base.toml": (
                'ignore = ["URL001"]\nexclude = ["docs/gen/"]\n'
                '[per-file-ignores]\n"docs/old.md" = ["URL007"]\n'
            ),
            "docs/urlsift.toml": 'extend = "../base.toml"\nextend-select = ["URL001"]\n',
            "docs/gen/a.md": LINE,
            "docs/old.md": LINE,
        },
    )
    # The base's globs stay relative to the base's folder; the child's extend-select
    # re-selects what the base ignored (the layers stack, as ruff's do).
    result = _lint(tmp_path, monkeypatch, "docs")
    assert _found(result) == [("docs/old.md", "URL001")]


def test_rebase_glob() -> None:
    root, docs = Path("/p"), Path("/p/docs")
    assert rebase_glob("*.md", root, docs) == "*.md"
    assert rebase_glob("build/", root, docs) == "build/"
    assert rebase_glob("docs/old/", root, docs) == "/old/"
    assert rebase_glob("/docs/*.md", root, docs) == "/*.md"
    assert rebase_glob("!docs/keep.md", root, docs) == "!/keep.md"
    assert rebase_glob("src/x.md", root, docs) is None
    assert rebase_glob("old/", docs, root) == "old/"
    assert rebase_glob("gen/a.md", docs, root) == "/docs/gen/a.md"
    assert rebase_glob("../x/*.md", docs, root) == "/x/*.md"
    assert rebase_glob("**/gen/a.md", root, docs) == "**/gen/a.md"


def test_configuration_files_are_read_once_per_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {f"d{i}/s{j}/f{k}.md": "x\n" for i in range(4) for j in range(5) for k in range(10)}
    files["pyproject.toml"] = "[tool.urlsift]\n"
    files["d1/urlsift.toml"] = "strict = true\n"
    files["d2/pyproject.toml"] = "[project]\nname = 'x'\n"
    _tree(tmp_path, files)
    reads: list[Path] = []
    read_toml = config._read_toml

    def counting(path: Path) -> dict[str, object]:
        reads.append(path)
        return read_toml(path)

    monkeypatch.setattr(config, "_read_toml", counting)
    result = lint_paths(["."], SettingsResolver(tmp_path), cwd=tmp_path)
    assert result.files == 200
    # The root pyproject.toml: once to see that it holds [tool.urlsift], once to read it;
    # d1/urlsift.toml once; d2/pyproject.toml once (no table, passed over).
    assert sorted(p.relative_to(tmp_path).as_posix() for p in reads) == [
        "d1/urlsift.toml",
        "d2/pyproject.toml",
        "pyproject.toml",
        "pyproject.toml",
    ]


def test_extend_chain_is_bounded(tmp_path: Path) -> None:
    for i in range(18):
        text = f'extend = "c{i + 1}.toml"\n' if i < 17 else ""
        (tmp_path / f"c{i}.toml").write_text(text)
    assert len(config.read_config_chain(tmp_path / "c2.toml")) == 16
    with pytest.raises(config.ConfigError, match="more than 16 files"):
        config.read_config_chain(tmp_path / "c1.toml")
