"""No file-system error ends a lint run (issues 22 and 24): each is a per-path ``URL010``
diagnostic, the rest is linted, and the exit status is 2, as for ``scan``.

Covered: a Markdown footnote whose text starts on the next line (once read as a link
target and opened: ``File name too long``), link targets no file can have (too long, a NUL
byte), a folder that will not list and a folder that may not be searched (simulated: the
tests may run as root, for whom permission bits do not hold), a symbolic link to nothing,
names that are not UTF-8, named FIFOs (no pre-check may wait for a writer, nor race one),
and a thousand nested folders (no recursion). A Hypothesis test lints random trees of
hostile names, links, pipes and unreadable paths and never meets an internal error.
"""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urlsift.cli import main
from urlsift.lint.engine import lint_paths

BAD = "see http://a.example:9x/ here\n"  # URL012 (a port that is not a number)
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file system")


def lint(cwd: Path, *args: str) -> Result:
    old = Path.cwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, ["lint", *args])
    finally:
        os.chdir(old)


def codes(result: Result) -> list[tuple[str, str]]:
    out = []
    for line in result.stdout.splitlines():
        where, _, rest = line.partition(": ")
        out.append((where.split(":")[0], rest.split(" ")[0]))
    return sorted(out)


# --- issue 22: the footnote crash, and link targets no file can have ------------------


def test_a_footnote_whose_text_starts_on_the_next_line_is_no_link(tmp_path: Path) -> None:
    text = "Text[^1].\n\n[^1]:\n    " + "word " * 100 + "\n"
    (tmp_path / "a.md").write_text(text, encoding="utf-8")
    result = lint(tmp_path, "a.md")
    assert "internal error" not in result.output
    assert result.exit_code == 0, result.output
    assert codes(result) == []


@pytest.mark.parametrize(
    "target", ["w" * 300 + ".md", "a%00b.md", ("d" * 200 + "/") * 30 + "x.md"], ids=str.__len__
)
def test_a_link_target_no_file_can_have_is_missing_not_fatal(tmp_path: Path, target: str) -> None:
    (tmp_path / "a.md").write_text(f"[x]({target})\n\n[y]:\n    {target}\n\n[y][]\n")
    (tmp_path / "b.md").write_text(BAD)
    result = lint(tmp_path, ".")
    assert "internal error" not in result.output
    assert result.exit_code == 1, result.output
    assert ("a.md", "URL015") in codes(result)
    assert ("b.md", "URL012") in codes(result)


# --- issue 22: unreadable folders, broken links, names that are not UTF-8 --------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a.md").write_text(BAD)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "b.md").write_text(BAD)
    (tmp_path / "z.md").write_text(BAD)
    return tmp_path


def _refuse(monkeypatch: pytest.MonkeyPatch, name: str, where: Callable[[str], bool]) -> None:
    # Make os.<name> fail with EACCES for the paths `where` picks (root ignores mode bits).
    real = getattr(os, name)

    def refusing(path: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(path, (str, os.PathLike)) and where(os.fspath(path)):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, name, refusing)


def test_a_folder_that_will_not_list_is_reported_and_the_rest_linted(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _refuse(monkeypatch, "scandir", lambda p: p.endswith("locked"))
    _refuse(monkeypatch, "open", lambda p: p.endswith("locked"))  # (walks open folders)
    result = lint(tree, ".")
    assert "internal error" not in result.output
    assert result.exit_code == 2, result.output
    assert codes(result) == [("a.md", "URL012"), ("locked", "URL010"), ("z.md", "URL012")]
    assert "cannot list the folder: Permission denied" in result.stdout


def test_a_folder_that_may_not_be_searched_is_reported_and_the_rest_linted(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No search permission: looking for locked/urlsift.toml fails (once "internal error:
    # PermissionError ... urlsift.toml" and nothing reported), and so does listing it.
    inside = os.path.join(tree, "locked", "")
    _refuse(monkeypatch, "stat", lambda p: p.startswith(inside))
    _refuse(monkeypatch, "scandir", lambda p: p.rstrip("/").endswith("locked"))
    _refuse(monkeypatch, "open", lambda p: p.rstrip("/").endswith("locked"))
    result = lint(tree, ".")
    assert "internal error" not in result.output
    assert result.exit_code == 2, result.output
    assert codes(result) == [("a.md", "URL012"), ("locked", "URL010"), ("z.md", "URL012")]


def test_a_file_that_will_not_open_in_a_folder_exits_2(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _refuse(monkeypatch, "open", lambda p: p.endswith("b.md"))
    result = lint(tree, ".")
    assert result.exit_code == 2, result.output
    assert ("locked/b.md", "URL010") in codes(result)
    assert ("z.md", "URL012") in codes(result)


@POSIX
def test_a_symbolic_link_to_nothing_is_reported_and_the_rest_linted(tree: Path) -> None:
    (tree / "dead.md").symlink_to(tree / "nowhere.md")
    (tree / "dead.png").symlink_to(tree / "nowhere.png")  # not a document: not reported
    result = lint(tree, ".")
    assert result.exit_code == 2, result.output
    assert ("dead.md", "URL010") in codes(result)
    assert "symbolic link to nothing" in result.stdout
    assert ("z.md", "URL012") in codes(result)
    assert not any(path == "dead.png" for path, _ in codes(result))


@POSIX
@pytest.mark.skipif(sys.platform == "darwin", reason="APFS refuses names that are not UTF-8")
@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "sarif", "github", "junit"])
def test_names_that_are_not_utf8_are_linted_and_reported(tmp_path: Path, fmt: str) -> None:
    name = os.fsdecode(b"caf\xe9 \x1b[31m.md")
    (tmp_path / name).write_text(BAD)
    (tmp_path / os.fsdecode(b"d\xff")).mkdir()
    (tmp_path / os.fsdecode(b"d\xff") / "in.md").write_text(BAD)
    result = lint(tmp_path, ".", "--format", fmt)
    assert "internal error" not in result.output
    assert result.exit_code == 1, result.output


# --- issue 24 item 6: named FIFOs; no pre-check waits for, or races, a writer ------------


@POSIX
@pytest.mark.timeout(30)
def test_a_named_fifo_without_a_writer_does_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.md")
    result = lint(tmp_path, "pipe.md")
    assert result.exit_code == 0, result.output


@POSIX
@pytest.mark.timeout(60)
def test_a_named_fifo_with_a_writer_is_read_every_time(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    for _ in range(5):

        def write() -> None:
            with fifo.open("w") as out:  # waits for the reader, as `printf > pipe` does
                out.write(BAD)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        time.sleep(0.2)  # the writer is waiting in open()
        result = lint(tmp_path, "pipe.md")
        writer.join(10)
        assert codes(result) == [("pipe.md", "URL012")], result.output


@POSIX
@pytest.mark.timeout(30)
@pytest.mark.parametrize("command", ["lint", "scan"])
def test_a_fifo_named_gitignore_is_not_read(tmp_path: Path, command: str) -> None:
    (tmp_path / "sub").mkdir()
    os.mkfifo(tmp_path / "sub" / ".gitignore")
    (tmp_path / "sub" / "a.md").write_text(BAD)
    result = CliRunner().invoke(main, [command, str(tmp_path)])
    assert "a.example" in result.stdout


@POSIX
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="opens a FIFO read-write")
@pytest.mark.timeout(30)
def test_a_named_fifo_is_opened_once_by_the_reader_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every open of the FIFO is counted: a pre-check that opens it (as main's did) takes
    # the writer's data, or waits for a writer that never comes.
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    opened: list[str] = []
    real_os_open, real_io_open = os.open, io.open

    def os_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        if os.fspath(path) in (str(fifo), "pipe.md"):
            opened.append("os.open")
        return real_os_open(path, *args, **kwargs)

    def io_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(path, (str, os.PathLike)) and os.fspath(path) in (str(fifo), "pipe.md"):
            opened.append("io.open")
        return real_io_open(path, *args, **kwargs)

    writer = os.open(fifo, os.O_RDWR)  # Linux: does not wait for a reader
    os.write(writer, BAD.encode())
    closer = threading.Timer(0.5, os.close, [writer])  # then the reader sees the end
    closer.start()
    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(io, "open", io_open)
    try:
        result = lint(tmp_path, "pipe.md")
    finally:
        closer.join()
    assert opened == ["os.open"]  # read_document's non-blocking open, nothing before it
    assert codes(result) == [("pipe.md", "URL012")]


# --- issue 24 item 9: walks without recursion --------------------------------------------


@pytest.fixture
def deep(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "deep"
    bottom = str(folder)
    os.mkdir(bottom)
    for _ in range(1200):  # past Python's default recursion limit (1000)
        bottom += "/d"
        os.mkdir(bottom)  # (os.makedirs and Path.mkdir(parents=True) recurse)
    Path(bottom, "a.md").write_text(BAD)
    yield folder
    if sys.platform != "win32":  # shutil.rmtree recurses too: remove it with rm
        subprocess.run(["rm", "-rf", str(folder)], check=False)


def test_lint_walks_any_depth_of_folders(deep: Path) -> None:
    result = lint(deep.parent, "deep")
    assert "internal error" not in result.output
    assert result.exit_code == 1, result.output
    assert [code for _, code in codes(result)] == ["URL012"]


def test_scan_walks_any_depth_of_folders(deep: Path) -> None:
    result = CliRunner().invoke(main, ["scan", "--format", "jsonl", str(deep)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "http://a.example:9x/" in result.stdout


def test_lint_paths_of_a_deep_tree_from_the_library(deep: Path) -> None:
    assert [d.code for d in lint_paths([str(deep)], cwd=deep.parent).diagnostics] == ["URL012"]


# --- a random tree of hostile names, links, pipes and refusals -------------------------

NAME_BYTES = st.binary(min_size=1, max_size=12).map(
    lambda b: b.replace(b"/", b"_").replace(b"\0", b"_")
)
NAMES = st.one_of(
    NAME_BYTES.filter(lambda b: b not in (b".", b"..")),
    st.sampled_from([b"a.md", b"b.rst", b"c.html", b"README", b"x.txt", b".gitignore"]),
    st.integers(200, 255).map(lambda n: b"n" * (n - 3) + b".md"),
)
CONTENT = st.sampled_from(
    [
        BAD,
        "[^1]:\n    " + "word " * 80,
        "[x](" + "w" * 300 + ".md)",
        "[y](a%00b.md#top)\n:doc:`" + "v" * 300 + "`",
        "*\n!keep.md\n",
        "\ufeff# T\n\n<http://evil.example\\@127.0.0.1/>",
        "",
    ]
)
KINDS = st.sampled_from(["file", "dir", "dangling", "loop", "fifo", "refused", "file-link"])


@POSIX
@pytest.mark.timeout(300)
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(entries=st.lists(st.tuples(st.integers(0, 3), NAMES, KINDS, CONTENT), max_size=14))
def test_random_hostile_trees_never_end_in_an_internal_error(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    entries: list[tuple[int, bytes, str, str]],
) -> None:
    root = tmp_path_factory.mktemp("hostile")
    folders = [root]
    refused: set[str] = set()
    for parent, raw, kind, content in entries:
        where = folders[parent % len(folders)]
        path = Path(os.fsdecode(os.path.join(os.fsencode(where), raw)))
        if os.path.lexists(path):
            continue
        try:
            if kind == "dir":
                path.mkdir()
                folders.append(path)
            elif kind == "dangling":
                path.symlink_to(where / "nowhere")
            elif kind == "loop":
                path.symlink_to(path)
            elif kind == "fifo":
                os.mkfifo(path)
            elif kind == "file-link":
                path.symlink_to(folders[0])
            else:
                path.write_text(content, encoding="utf-8", errors="surrogateescape")
                if kind == "refused":
                    refused.add(str(path))
        except OSError:  # a name the file system will not take
            continue
    refused.update(str(folder) for folder in folders[1::2])  # every other folder
    for name in ("scandir", "open", "stat"):
        _refuse(monkeypatch, name, lambda p: p.rstrip("/") in refused)
    with monkeypatch.context() as inner:
        inner.setenv("XDG_CACHE_HOME", str(root / ".cache"))
        result = lint(root, ".")
        named = lint(root, *[str(p.relative_to(root)) for p in _files(root)][:20])
    for run in (result, named):
        assert "internal error" not in run.output
        assert run.exception is None or isinstance(run.exception, SystemExit), run.exception
        assert run.exit_code in (0, 1, 2)


def _files(root: Path) -> Iterator[Path]:
    for folder, _dirs, files in os.walk(root):
        for name in files:
            yield Path(folder) / name
