"""Issue 15, archives: folders of mixed files, Maildir++ and partial Maildirs, MH folders
of named files, ``--count host``."""

from __future__ import annotations

import bz2
import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from urlsift import Url
from urlsift.cli import main
from urlsift.engines.runner import ReadFailure, ScanConfig, iter_results
from urlsift.sources.archive import ArchiveStats, detect_kind, folder_files

ROOT = Path(__file__).resolve().parent.parent
NOTMUCH = ROOT.parent / "shared" / "corpora" / "mail-samples" / "notmuch-test-corpora" / "test"
NOTMUCH_DEFAULT = NOTMUCH / "corpora" / "default"


def message(n: int, host: str = "example.org", date: str | None = None) -> bytes:
    when = date or f"Mon, {n % 28 + 1:02d} Jan 2001 10:00:00 +0000"
    return (
        f"From: a{n}@example.org\nSubject: m{n}\nDate: {when}\n"
        f"Message-ID: <{n}@example.org>\n\nsee http://{host}/m{n}\n"
    ).encode()


def mbox(count: int, first: int = 0) -> bytes:
    return b"".join(
        b"From a@example.org Mon Jan  1 10:00:00 2001\n" + message(first + i) + b"\n"
        for i in range(count)
    )


def maildir(
    root: Path, names: dict[str, bytes], subs: tuple[str, ...] = ("cur", "new", "tmp")
) -> Path:
    for sub in subs:
        (root / sub).mkdir(parents=True, exist_ok=True)
    for name, data in names.items():
        (root / name).write_bytes(data)
    return root


def urls(paths: list[str], jobs: int = 1, **config: object) -> list[Url]:
    results = iter_results(paths, ScanConfig(**config), jobs=jobs)  # type: ignore[arg-type]
    return [r for r in results if isinstance(r, Url)]


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A folder of mixed files, as a user keeps documents and mail side by side."""
    top = tmp_path / "docs"
    (top / "notes").mkdir(parents=True)
    (top / "notes.txt").write_text("plain http://text.example/a and <URL:ftp://f.example/x>\n")
    (top / "one.eml").write_bytes(message(1, "eml.example"))
    (top / "list.mbox.gz").write_bytes(gzip.compress(mbox(3)))
    (top / "notes" / "more.txt.bz2").write_bytes(bz2.compress(b"bz http://bz.example/\n"))
    (top / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0http://binary.example/\n")
    (top / "skip.log").write_text("http://excluded.example/\n")
    maildir(
        top / "Mail",
        {"cur/1.M1.h:2,S": message(2, "maildir.example"), "new/2.M2.h": message(3)},
    )
    return top


# -- folders of mixed files ------------------------------------------------------------------


def test_a_folder_of_mixed_files_is_walked_each_file_by_its_kind(mixed: Path) -> None:
    found = [(Path(u.source).relative_to(mixed).as_posix(), u.url) for u in urls([str(mixed)])]
    assert found == [
        ("Mail/cur/1.M1.h:2,S", "http://maildir.example/m2"),
        ("Mail/new/2.M2.h", "http://example.org/m3"),
        ("list.mbox.gz", "http://example.org/m0"),
        ("list.mbox.gz", "http://example.org/m1"),
        ("list.mbox.gz", "http://example.org/m2"),
        ("notes/more.txt.bz2", "http://bz.example/"),
        ("notes.txt", "http://text.example/a"),
        ("notes.txt", "ftp://f.example/x"),
        ("one.eml", "http://eml.example/m1"),
        ("skip.log", "http://excluded.example/"),
    ]
    mail = [u for u in urls([str(mixed)]) if u.context is not None]
    assert [u.context.message for u in mail if u.context] == [1, 2, 1, 2, 3, 1]


def test_walked_paths_keep_the_spelling_given(mixed: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(mixed.parent)
    sources = {u.source for u in urls(["docs"])}
    assert "docs/notes.txt" in sources
    assert "docs/Mail/new/2.M2.h" in sources


def test_binaries_are_skipped_and_counted(mixed: Path) -> None:
    stats = ArchiveStats()
    results = list(iter_results([str(mixed)], stats=stats))
    assert not any(isinstance(r, Url) and "binary.example" in r.url for r in results)
    assert stats.binaries_skipped == 1
    assert "1 binary file skipped" in stats.summary()
    result = CliRunner().invoke(main, ["scan", str(mixed)])
    assert result.exit_code == 0
    assert "1 binary file skipped" in result.stderr


def test_exclude_globs_and_gitignore(mixed: Path) -> None:
    found = {u.url for u in urls([str(mixed)], exclude=("*.log", "notes/"))}
    assert "http://excluded.example/" not in found
    assert "http://bz.example/" not in found
    assert "http://text.example/a" in found  # notes.txt is no folder: "notes/" keeps it
    (mixed / ".gitignore").write_text("*.eml\n")
    result = CliRunner().invoke(main, ["scan", "--exclude", "*.log", str(mixed)])
    assert "eml.example" not in result.stdout
    assert "excluded.example" not in result.stdout
    assert "maildir.example" in result.stdout
    everything = CliRunner().invoke(main, ["scan", "--no-gitignore", str(mixed)])
    assert "eml.example" in everything.stdout
    assert "excluded.example" in everything.stdout


def test_a_file_given_by_name_is_scanned_even_when_binary(mixed: Path) -> None:
    assert [u.url for u in urls([str(mixed / "picture.png")])] == ["http://binary.example/"]


def test_walk_order_is_the_same_with_two_jobs(mixed: Path, tmp_path: Path) -> None:
    # Enough files for several work items.
    for i in range(12):
        (mixed / f"x{i:02d}.mbox").write_bytes(mbox(4, first=10 * i))
    one = list(iter_results([str(mixed), str(mixed / "notes.txt")], stats=(s1 := ArchiveStats())))
    two = list(
        iter_results([str(mixed), str(mixed / "notes.txt")], stats=(s2 := ArchiveStats()), jobs=2)
    )
    assert one == two
    assert s1 == s2
    assert s1.binaries_skipped == 1
    runner = CliRunner()
    out1 = runner.invoke(main, ["scan", "--format", "jsonl", "-j", "1", str(mixed)])
    out2 = runner.invoke(main, ["scan", "--format", "jsonl", "-j", "2", str(mixed)])
    assert out1.stdout == out2.stdout
    assert out1.stderr == out2.stderr
    assert len(out1.stdout.splitlines()) > 50


def test_a_folder_with_a_numbered_text_file_is_not_an_mh_folder(tmp_path: Path) -> None:
    (tmp_path / "2024").write_text("a year of notes: http://year.example/\n")
    (tmp_path / "readme.txt").write_text("http://readme.example/\n")
    assert [u.url for u in urls([str(tmp_path)])] == [
        "http://year.example/",
        "http://readme.example/",
    ]


# -- Maildir++ and partial Maildirs ----------------------------------------------------------


def test_maildir_plus_plus_folders_are_read(tmp_path: Path) -> None:
    box = maildir(tmp_path / "Maildir", {"cur/a:2,": message(1), "new/b": message(2)})
    maildir(box / ".Sent", {"cur/c:2,S": message(3)})
    maildir(box / ".Lists.foo", {"new/d": message(4)})
    (box / "maildirfolder").write_text("")
    (box / "dovecot-uidlist").write_text("3 V1 N2\n")
    (box / "tmp" / "partial").write_bytes(message(99))
    files = folder_files(str(box), "auto")
    assert [Path(f).relative_to(box).as_posix() for f in files] == [
        "cur/a:2,",
        "new/b",
        ".Lists.foo/new/d",
        ".Sent/cur/c:2,S",
    ]
    found = urls([str(box)])
    assert [(u.url, u.context.message if u.context else 0) for u in found] == [
        ("http://example.org/m1", 1),
        ("http://example.org/m2", 2),
        ("http://example.org/m4", 3),
        ("http://example.org/m3", 4),
    ]


def test_a_maildir_holding_only_cur_is_a_maildir(tmp_path: Path) -> None:
    box = maildir(tmp_path / "lkml", {"cur/1:2,": message(1), "cur/2:2,": message(2)}, ("cur",))
    assert detect_kind(str(box)) == "maildir"
    assert len(urls([str(box)])) == 2
    # ... but a lone cur/ of documents is no Maildir: the folder is walked.
    docs = tmp_path / "docs"
    (docs / "new").mkdir(parents=True)
    (docs / "new" / "changes.txt").write_text("http://changes.example/\n")
    assert [u.url for u in urls([str(docs)])] == ["http://changes.example/"]
    assert all(u.context is None for u in urls([str(docs)]))


@pytest.mark.skipif(not NOTMUCH_DEFAULT.is_dir(), reason="shared mail samples not present")
def test_the_notmuch_maildir_gives_all_its_messages() -> None:
    files = sorted(p for p in NOTMUCH_DEFAULT.rglob("*") if p.is_file())
    assert len(files) == 53
    stats = ArchiveStats()
    results = list(iter_results([str(NOTMUCH_DEFAULT)], stats=stats))
    assert not any(isinstance(r, ReadFailure) for r in results)
    assert stats.messages == 53
    assert sorted(folder_files(str(NOTMUCH_DEFAULT), "auto")) == [str(f) for f in files]
    assert list(iter_results([str(NOTMUCH_DEFAULT)], jobs=2)) == results


@pytest.mark.skipif(not NOTMUCH_DEFAULT.is_dir(), reason="shared mail samples not present")
def test_the_notmuch_cur_only_maildir_needs_no_input_kind() -> None:
    lkml = NOTMUCH / "corpora" / "lkml"
    assert detect_kind(str(lkml)) == "maildir"
    stats = ArchiveStats()
    list(iter_results([str(lkml)], stats=stats))
    assert stats.messages == len(list((lkml / "cur").iterdir()))


# -- MH folders of named files ---------------------------------------------------------------


def test_mh_kind_on_a_folder_of_named_files_says_what_happened(tmp_path: Path) -> None:
    for name in ("alpha.eml", "beta.eml"):
        (tmp_path / name).write_bytes(message(1))
    result = CliRunner().invoke(main, ["scan", "--input-kind", "mh", str(tmp_path)])
    assert result.exit_code == 2
    assert "no message file named by number" in result.stderr
    assert "2 files with other names" in result.stderr
    for jobs in ("1", "2"):
        again = CliRunner().invoke(main, ["scan", "-j", jobs, "--input-kind", "mh", str(tmp_path)])
        assert again.stderr == result.stderr
    # Without --input-kind, the files are scanned each as a message.
    auto = CliRunner().invoke(main, ["scan", str(tmp_path)])
    assert auto.exit_code == 0
    assert auto.stdout.count("http://example.org/m1") == 2


def test_maildir_kind_on_a_folder_without_cur_or_new_says_so(tmp_path: Path) -> None:
    (tmp_path / "a.eml").write_bytes(message(1))
    result = CliRunner().invoke(main, ["scan", "--input-kind", "maildir", str(tmp_path)])
    assert result.exit_code == 2
    assert "no cur/ or new/ folder, so not a Maildir" in result.stderr


def test_an_empty_mh_folder_is_still_fine(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["scan", "--input-kind", "mh", str(tmp_path)])
    assert result.exit_code == 0


# -- --count host ---------------------------------------------------------------------------


def test_count_by_host_folds_case_and_www(tmp_path: Path) -> None:
    archive = tmp_path / "list.mbox"
    bodies = [
        ("http://WWW.Example.COM/a", "Tue, 02 Jan 2001 10:00:00 +0000"),
        ("http://Example.com/b", "Mon, 01 Jan 2001 10:00:00 +0000"),
        ("https://www.example.com/a", "Fri, 05 Jan 2001 10:00:00 +0000"),
        ("mailto:joe@Example.com", "Wed, 03 Jan 2001 10:00:00 +0000"),
        ("http://other.example/", "Thu, 04 Jan 2001 10:00:00 +0000"),
        ("news:comp.lang.c", "Thu, 04 Jan 2001 10:00:00 +0000"),
    ]
    archive.write_bytes(
        b"".join(
            f"From a Mon Jan  1 10:00:00 2001\nFrom: a@b.example\nDate: {date}\n\n"
            f"see {url}\n\n".encode()
            for url, date in bodies
        )
    )
    result = CliRunner().invoke(main, ["scan", "--count", "host", str(archive)])
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "      4 example.com  [Mon, 01 Jan 2001 10:00:00 +0000 .. "
        "Fri, 05 Jan 2001 10:00:00 +0000]  (4 URLs)",
        "      1 other.example  [Thu, 04 Jan 2001 10:00:00 +0000 .. "
        "Thu, 04 Jan 2001 10:00:00 +0000]  (1 URL)",
    ]
    rows = CliRunner().invoke(main, ["scan", "--format", "jsonl", "--count", "host", str(archive)])
    first = json.loads(rows.stdout.splitlines()[0])
    assert first == {
        "host": "example.com",
        "count": 4,
        "first_date": "Mon, 01 Jan 2001 10:00:00 +0000",
        "last_date": "Fri, 05 Jan 2001 10:00:00 +0000",
        "urls": 4,
    }
    csv = CliRunner().invoke(main, ["scan", "--format", "csv", "--count", "host", str(archive)])
    assert csv.stdout.splitlines()[0] == "host,count,first_date,last_date,urls"


def test_count_alone_still_counts_urls_and_takes_a_path_after_it(tmp_path: Path) -> None:
    (tmp_path / "host").write_text("http://a.example/ http://a.example/\n")
    (tmp_path / "f.txt").write_text("http://a.example/\n")
    runner = CliRunner()
    by_url = runner.invoke(main, ["scan", "--count", str(tmp_path / "f.txt")])
    assert by_url.stdout == "      1 http://a.example/\n"
    at_end = runner.invoke(main, ["scan", str(tmp_path / "f.txt"), "--count"])
    assert at_end.stdout == by_url.stdout
    dashed = runner.invoke(main, ["scan", "--count", "url", "--", str(tmp_path / "host")])
    assert dashed.stdout == "      2 http://a.example/\n"


def test_host_rows_follow_the_jsonl_schema(tmp_path: Path) -> None:
    import jsonschema

    schema = json.loads((ROOT / "docs" / "scan-jsonl.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema)
    archive = tmp_path / "a.mbox"
    archive.write_bytes(mbox(5))
    out = CliRunner().invoke(main, ["scan", "--format", "jsonl", "--count", "host", str(archive)])
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert rows == [
        {
            "host": "example.org",
            "count": 5,
            "first_date": "Mon, 01 Jan 2001 10:00:00 +0000",
            "last_date": "Mon, 05 Jan 2001 10:00:00 +0000",
            "urls": 5,
        }
    ]
    for row in rows:
        validator.validate(row)
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({**rows[0], "host": ""})
