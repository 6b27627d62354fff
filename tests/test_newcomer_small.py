"""Issue 25, item 8: the small things a new user trips on.

``--invalid-only`` text lines say why; ``help(urlsift)`` shows types, not ForwardRef; the
README's streaming example reads real mail (bytes that are not UTF-8); the report draws a
warning-only defect in another colour than "invalid".
"""

from __future__ import annotations

import pydoc
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import urlsift
from urlsift.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_invalid_only_text_lines_give_the_reason(tmp_path: Path) -> None:
    text = tmp_path / "t.txt"
    text.write_text("a <URL:http://bad_host.example/> b http://ok.example/ c http://h:8o/x\n")
    result = CliRunner().invoke(main, ["scan", "--invalid-only", str(text)])
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{text}:1:3: http://bad_host.example/  [bad-hostname: ")
    assert lines[1].startswith(f"{text}:1:57: http://h:8o/x  [bad-port: ")
    plain = CliRunner().invoke(main, ["scan", str(text)]).stdout
    assert "[" not in plain  # without --invalid-only the format is unchanged


def test_help_shows_types_not_forward_references() -> None:
    page = pydoc.render_doc(urlsift, renderer=pydoc.plaintext)
    assert "ForwardRef" not in page
    # (pydoc of Python 3.13 writes a long signature over several " |" lines)
    words = re.sub(r"\(\s+", "(", " ".join(word for word in page.split() if word != "|"))
    assert "Candidate(kind: Literal['wrapped', 'angle', 'prefixed', 'bare'], raw: str" in words


def test_the_readme_streaming_example_reads_real_mail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    block = re.search(r"```python\nimport urlsift\n(.*?)```", README, re.DOTALL)
    assert block is not None
    start = block.group(1).index("with open(")
    example = block.group(1)[start:].split("\n\n")[0].replace("...", "found.append(url)")
    # Latin-1 bytes, as real archives hold them: invalid UTF-8.
    (tmp_path / "big.txt").write_bytes(b"caf\xe9 http://a.example/x\nna\xefve ftp://b.example/\n")
    monkeypatch.chdir(tmp_path)
    found: list[urlsift.Url] = []
    exec(example, {"urlsift": urlsift, "found": found})  # the README's lines as written
    assert [u.url for u in found] == ["http://a.example/x", "ftp://b.example/"]
    assert {u.source for u in found} == {"big.txt"}


def test_the_report_draws_warnings_apart_from_invalid(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the report extra is missing")
    from urlsift.report import charts

    text = tmp_path / "t.txt"
    text.write_text("http://a.example/~x http://b.example/~y <URL:http://bad_host.example/>\n")
    out = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["report", "-q", "-o", str(out), str(text)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    section = page[page.index('id="defects"') :]
    section = section[: section.index("</section>")]
    assert f"fill: {charts.INVALID_COLOR}" in section
    assert f"fill: {charts.WARNING_COLOR}" in section
    assert charts.WARNING_COLOR != charts.INVALID_COLOR
