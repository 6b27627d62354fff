"""``urlsift report``: the command, its inputs, its failures, and the page it writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import urlsift.report
from urlsift.cli import main

ROOT = Path(__file__).resolve().parent.parent
MAIL = sorted(str(p) for p in (ROOT / "corpora" / "mail").glob("*.eml"))

pytest.importorskip("matplotlib", reason="the report extra is missing")


def _invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_report_of_mail_files(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    code, _, err = _invoke("report", "--headers", "-o", str(out), *MAIL)
    assert code == 0, err
    assert f"wrote {out}" in err
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    for table in ("t-summary", "t-months", "t-hosts", "t-schemes", "t-defects", "t-messages"):
        assert f'<table id="{table}">' in page
    assert page.count("<svg") == 4  # months, hosts, schemes, defects
    assert "<script" not in page


def test_plain_text_with_undecodable_bytes_and_odd_hosts(tmp_path: Path) -> None:
    # No dates: no months chart, hosts as totals. A "$" in a host is not mathtext; bytes
    # that were not UTF-8 are shown escaped, and the page stays UTF-8.
    text = tmp_path / "notes.txt"
    text.write_bytes(
        b"http://\xff\xfe.example/x http://a$b$c.org/ http://www.A.org/ ftp://a.org/\n"
    )
    out = tmp_path / "r.html"
    assert _invoke("report", "-q", "-o", str(out), str(text))[0] == 0
    page = out.read_bytes().decode("utf-8")
    assert page.count("<svg") == 3  # hosts, schemes, defects
    assert '<th scope="row">a.org</th><td class="n" data-count="2">' in page
    assert "a$b$c.org" in page
    assert "\\udcff\\udcfe.example" in page
    assert '<th scope="row">undated URL records</th><td class="n" data-count="4">' in page


def test_the_same_input_gives_the_same_page(tmp_path: Path) -> None:
    pages = []
    for name in ("a.html", "b.html"):
        assert _invoke("report", "-q", "-o", str(tmp_path / name), *MAIL)[0] == 0
        pages.append((tmp_path / name).read_bytes())
    assert pages[0] == pages[1]


def test_jsonl_from_standard_input_gives_the_scanned_page(tmp_path: Path) -> None:
    _, jsonl, _ = _invoke("scan", "-q", "--format", "jsonl", *MAIL)
    assert _invoke("report", "-q", "-o", str(tmp_path / "scan.html"), *MAIL)[0] == 0
    code, page, err = _invoke("report", "-q", "--from-jsonl", "-", "-o", "-", stdin=jsonl)
    assert code == 0, err
    scanned = (tmp_path / "scan.html").read_text(encoding="utf-8")
    assert page.split("</header>")[1] == scanned.split("</header>")[1]


def test_a_count_table_is_not_records(tmp_path: Path) -> None:
    _, rows, _ = _invoke("scan", "-q", "--count", "--format", "jsonl", *MAIL)
    source = tmp_path / "counts.jsonl"
    source.write_text(rows, encoding="utf-8")
    code, _, err = _invoke("report", "--from-jsonl", str(source), "-o", str(tmp_path / "r.html"))
    assert code == 2
    assert f"{source}:1: not a urlsift scan record" in err
    assert not (tmp_path / "r.html").exists()


def test_jsonl_that_is_not_utf8(tmp_path: Path) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_bytes(b'{"url": "http://\xff"}\n')
    code, _, err = _invoke("report", "--from-jsonl", str(source), "-o", str(tmp_path / "r.html"))
    assert code == 2
    assert "not UTF-8" in err


def test_paths_and_jsonl_together_are_a_usage_error(tmp_path: Path) -> None:
    jsonl = tmp_path / "x.jsonl"
    jsonl.write_text("", encoding="utf-8")
    code, _, err = _invoke("report", "--from-jsonl", str(jsonl), "-o", "-", MAIL[0])
    assert code == 2
    assert "not both" in err


def test_an_unreadable_path_is_reported_and_the_rest_reported_on(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    code, _, err = _invoke("report", "-o", str(out), str(tmp_path / "missing.mbox"), MAIL[0])
    assert code == 2
    assert "cannot read" in err
    assert out.exists()


def test_an_output_that_cannot_be_written(tmp_path: Path) -> None:
    code, _, err = _invoke("report", "-o", str(tmp_path / "no" / "r.html"), MAIL[0])
    assert code == 2
    assert "cannot write" in err


def test_without_the_extra_it_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # As if matplotlib had never been installed: the report modules that import it are
    # forgotten, both as modules and as attributes of their package.
    for name in ("render", "charts"):
        monkeypatch.delitem(sys.modules, f"urlsift.report.{name}", raising=False)
        monkeypatch.delattr(urlsift.report, name, raising=False)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    code, _, err = _invoke("report", "-o", str(tmp_path / "r.html"), MAIL[0])
    assert code == 2
    assert "pip install 'urlsift[report]'" in err
    assert not (tmp_path / "r.html").exists()


def test_scan_never_imports_the_plotting_library() -> None:
    program = (
        "import sys\n"
        "from urlsift.cli import main\n"
        "try:\n"
        f"    main(['scan', '-q', {str(ROOT / 'corpora' / 'rfc' / 'rfc1738.txt')!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "plotting = [m for m in sys.modules if m.startswith(('matplotlib', 'numpy'))]\n"
        "sys.stderr.write(json.dumps(sorted(plotting)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", "import json\n" + program],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stderr.splitlines()[-1]) == []


def test_listed_with_a_one_line_summary() -> None:
    code, text, _ = _invoke("--help")
    assert code == 0
    assert "report    Write an HTML report of the URLs in PATHS." in text
