"""The rules of urlsift lint, one by one (positive and negative), and the URL008 fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from urlsift.lint.check import DEFECT_RULES, continuation, diagnose, visible
from urlsift.lint.config import ALL_CODES, LintSettings
from urlsift.lint.engine import lint_text
from urlsift.lint.model import RULE_BY_CODE

from _fixtures import sections, split_at

CASES = Path(__file__).resolve().parent.parent / "corpora" / "lint" / "continued-line.txt"


def _codes(text: str, path: str = "doc.txt", **settings: object) -> list[tuple[int, int, str]]:
    # Every rule, the opt-in RFC1738 group included (these tests go rule by rule).
    settings.setdefault("select", ALL_CODES)
    _, found = lint_text(text, path, LintSettings(**settings))  # type: ignore[arg-type]
    return [(d.line, d.column, d.code) for d in found]


def _load_cases() -> list[tuple[str, str]]:
    # "## positive" and "## negative" sections, their cases separated by "--" lines.
    cases: list[tuple[str, str]] = []
    groups = sections(CASES, "## ")
    if groups and groups[-1].lines[-1:] == [""]:
        groups[-1].lines.pop()  # after the file's last line end
    for section in groups:
        *pieces, last = split_at(section.lines, "--")
        cases.extend((section.name, "\n".join(body) + "\n") for body in pieces)
        if last:
            cases.append((section.name, "\n".join(last) + "\n"))
    return cases


@pytest.mark.parametrize(("group", "text"), _load_cases())
def test_continued_line_fixtures(group: str, text: str) -> None:
    codes = [code for _, _, code in _codes(text, select=frozenset({"URL008"}))]
    assert codes == (["URL008"] if group == "positive" else []), text


def test_fixture_file_has_both_groups() -> None:
    groups = [group for group, _ in _load_cases()]
    assert groups.count("positive") >= 5
    assert groups.count("negative") >= 8


def test_continuation_predicate_directly() -> None:
    assert continuation("http://a.example/x_", "", "http://a.example/x_", "more") == "more"
    assert continuation("http://a.example/x", " trailing", "", "a/b/c.html") is None
    assert continuation("http://a.example/", "", "", "") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x http://h.example:21x/\n", [(1, 22, "URL012")]),  # one per cause (issue 25)
        ("x http://h.example/\n", []),
        ("x <URL:http://h.example/a\n\nnext\n", [(1, 3, "URL002")]),
        ("x <URL:http://h.example/a>\n", []),
        ("x <URL:http://h.exa-\nmple/>\n", [(1, 3, "URL003")]),
        ("x <URL:http://h.exa\nmple/>\n", []),
        ("x <http://h.example/a|b>\n", [(1, 22, "URL005")]),
        ("x http://h.example/a%7Cb\n", []),
        ("x ftp://u:pw@h.example/\n", [(1, 11, "URL006")]),
        ("x ftp://u@h.example/\n", []),
        ("x http://h.example:8080/\n", [(1, 20, "URL007")]),
        ("x http://h.example:80/\n", []),
        ("x http://h.example?q=1\n", [(1, 19, "URL009")]),
        ("x http://h.example/?q=1\n", []),
    ],
)
def test_text_rules(text: str, expected: list[tuple[int, int, str]]) -> None:
    assert _codes(text) == expected


def test_url004_in_markdown_and_not_in_rst() -> None:
    assert _codes("[a](http://h.example/a b)\n", "d.md") == [(1, 5, "URL004")]
    assert _codes("[a](http://h.example/ab)\n", "d.md") == []
    rst = "`a <http://h.example/a\n   b>`_\n"
    assert _codes(rst, "d.rst") == []


def test_url005_tilde_is_a_warning_unless_strict() -> None:
    _, found = lint_text("http://h.example/~u/\n", "d.txt")
    assert found == []  # the RFC1738 group is opt-in
    _, found = lint_text("http://h.example/~u/\n", "d.txt", LintSettings(select=ALL_CODES))
    assert [(d.code, d.severity) for d in found] == [("URL005", "warning")]
    settings = LintSettings(strict=True, select=ALL_CODES)
    _, found = lint_text("http://h.example/~u/\n", "d.txt", settings)
    assert [(d.code, d.severity) for d in found] == [("URL005", "error")]


def test_url001_keeps_every_broken_rule() -> None:
    # Each broken rule once: the breakage rules (URL012, URL013) stand for URL001's view.
    found = _codes("x http://h.example:21x/a%zz\n")
    assert [code for *_, code in found] == ["URL012", "URL013"]
    assert [code for *_, code in _codes("x http://h.example/a;b%zz\n")] == ["URL013"]
    assert [code for *_, code in _codes("x nntp://h/g/x\n")] == ["URL001"]  # no twin


def test_defect_table_names_known_rules() -> None:
    for rules in DEFECT_RULES.values():
        assert rules[0] in RULE_BY_CODE
        assert rules[1] in RULE_BY_CODE


def test_messages_stay_on_one_line() -> None:
    assert visible("http://a\x07b") == "http://a\\x07b"
    assert visible("x" * 300).endswith("...")
    findings, _ = lint_text("http://h.example/\udcff\n", "d.txt")
    for d in diagnose(findings, "http://h.example/\udcff\n"):
        assert "\n" not in d.message
        d.message.encode("utf-8")


@pytest.mark.timeout(20)
def test_continuation_check_is_linear_on_a_long_word() -> None:
    # A long word after a continuation candidate used to be searched for "scheme://" from
    # every start (quadratic: 160 KB took 13 s, 1 MB minutes). Linear, this takes well
    # under a second; the timeout only catches a return of the quadratic search.
    text = "see http://a.example/x/\na/b.html " + "a" * 1_000_000 + " b\n"
    diagnostics = lint_text(text, "notes.txt")[1]
    assert [d.code for d in diagnostics] == ["URL008"]
