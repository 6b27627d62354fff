"""Output formats of ``urlsift lint``: exact output, SARIF schema, escaping, round trips."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from urlsift.lint import report
from urlsift.lint.model import RULES, Diagnostic
from urlsift.lint.report import (
    REPORTERS,
    ToolInfo,
    artifact_location,
    display_text,
    escape_data,
    escape_property,
    github_command,
    sarif_log,
)

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "corpora" / "sarif" / "sarif-schema-2.1.0.json"
HOOKS_PATH = ROOT / ".pre-commit-hooks.yaml"
CI_DOC = ROOT / "docs" / "lint-ci.md"

REAL_TOOL_INFO = report.tool_info

TOOL = ToolInfo("urlsift", "9.8.7", "https://example.org/urlsift", None)
TOOL_WITH_SOURCE = ToolInfo(
    "urlsift", "9.8.7", "https://example.org/urlsift", "https://example.org/src/urlsift"
)

DIAGNOSTICS = (
    Diagnostic("docs/guide.md", 3, 5, "URL001", "error", "bad host", "http://a_b.example/", 3, 25),
    Diagnostic(
        "docs/guide.md",
        7,
        1,
        "URL008",
        "warning",
        'continues on the next line: "http://example.com/a\nb"',
        "http://example.com/a",
        8,
        2,
    ),
    Diagnostic("notes dir/ünï.txt", 2, 10, "URL006", "warning", "password 100%: a,b"),
    Diagnostic("bin.dat", 1, 1, "URL010", "error", "cannot decode: invalid start byte"),
)
"""Fixed input of the exact-output tests: a span on one line, a span over two lines with a
quote and a newline in the message, a path with a space and non-ASCII and a message with
``%``, ``:`` and ``,`` (no URL, no end), and an unreadable file."""


@pytest.fixture(autouse=True)
def fixed_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(report, "tool_info", lambda: TOOL)


def render(name: str, diagnostics: Sequence[Diagnostic] = DIAGNOSTICS) -> str:
    out = io.StringIO()
    REPORTERS[name](diagnostics, out)
    return out.getvalue()


@cache
def sarif_validator() -> jsonschema.protocols.Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


# --- registry and text ---------------------------------------------------------------------


def test_every_format_is_registered() -> None:
    assert set(REPORTERS) == {"text", "json", "jsonl", "sarif", "github", "junit"}


def test_text_exact() -> None:
    assert render("text") == (
        "docs/guide.md:3:5: URL001 bad host\n"
        "docs/guide.md:7:1: URL008 continues on the next line: "
        '"http://example.com/a\nb"\n'
        "notes dir/ünï.txt:2:10: URL006 password 100%: a,b\n"
        "bin.dat:1:1: URL010 cannot decode: invalid start byte\n"
    )


@pytest.mark.parametrize("name", sorted(REPORTERS))
def test_no_diagnostics(name: str) -> None:
    text = render(name, ())
    if name in ("text", "jsonl", "github"):
        assert text == ""
    elif name == "json":
        assert json.loads(text)["diagnostics"] == []
    elif name == "sarif":
        log = json.loads(text)
        sarif_validator().validate(log)
        assert log["runs"][0]["results"] == []
    else:
        root = ET.fromstring(text)
        assert root.attrib["tests"] == "0"
        assert root.find("testsuite/testcase") is None


# --- json / jsonl --------------------------------------------------------------------------


def test_json_exact() -> None:
    expected = {
        "tool": "urlsift",
        "version": "9.8.7",
        "diagnostics": [d.to_dict() for d in DIAGNOSTICS],
        "summary": {"errors": 2, "warnings": 2, "files": 3},
    }
    text = render("json")
    assert text == json.dumps(expected, ensure_ascii=False, indent=2) + "\n"
    assert list(json.loads(text)) == ["tool", "version", "diagnostics", "summary"]
    assert "ünï" in text  # not \u-escaped


def test_jsonl_exact() -> None:
    lines = render("jsonl").splitlines()
    assert lines == [json.dumps(d.to_dict(), ensure_ascii=False) for d in DIAGNOSTICS]
    assert lines[2] == (
        '{"path": "notes dir/ünï.txt", "line": 2, "column": 10, "end_line": null, '
        '"end_column": null, "code": "URL006", "name": "password-in-url", '
        '"severity": "warning", "message": "password 100%: a,b", "url": null}'
    )


@pytest.mark.parametrize("name", ["json", "jsonl"])
def test_json_lone_surrogates_are_escaped_and_round_trip(name: str) -> None:
    d = Diagnostic("caf\udce9.md", 1, 2, "URL005", "error", "raw byte \udcff", "http://x/\udc80")
    text = render(name, [d])
    text.encode("utf-8")  # valid UTF-8: would raise on a raw surrogate
    for escape in ("\\udce9", "\\udcff", "\\udc80"):
        assert escape in text
    data = json.loads(text)
    record = data["diagnostics"][0] if name == "json" else data
    assert record == d.to_dict()


# --- sarif ---------------------------------------------------------------------------------


def test_sarif_schema_file_is_the_official_schema() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert schema["properties"]["version"]["enum"] == ["2.1.0"]
    jsonschema.Draft7Validator.check_schema(schema)


def test_sarif_validates_against_schema() -> None:
    log = json.loads(render("sarif"))
    sarif_validator().validate(log)


def test_sarif_schema_rejects_a_broken_log() -> None:
    # The validator is not vacuous: a result without a message or with line 0 is refused.
    log = json.loads(render("sarif"))
    broken = json.loads(json.dumps(log))
    del broken["runs"][0]["results"][0]["message"]
    with pytest.raises(jsonschema.ValidationError):
        sarif_validator().validate(broken)
    broken = json.loads(json.dumps(log))
    broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    with pytest.raises(jsonschema.ValidationError):
        sarif_validator().validate(broken)


def test_sarif_exact_results() -> None:
    log = json.loads(render("sarif"))
    assert log["$schema"] == report.SARIF_SCHEMA_URI
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert {k: v for k, v in driver.items() if k != "rules"} == {
        "name": "urlsift",
        "version": "9.8.7",
        "informationUri": "https://example.org/urlsift",
    }
    assert run["columnKind"] == "unicodeCodePoints"
    fingerprints = [r.pop("partialFingerprints") for r in run["results"]]
    assert run["results"] == [
        {
            "ruleId": "URL001",
            "ruleIndex": 0,
            "level": "error",
            "message": {"text": "bad host"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": "docs/guide.md", "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 25},
                    }
                }
            ],
        },
        {
            "ruleId": "URL008",
            "ruleIndex": 7,
            "level": "warning",
            "message": {"text": 'continues on the next line: "http://example.com/a\nb"'},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": "docs/guide.md", "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": 7, "startColumn": 1, "endLine": 8, "endColumn": 2},
                    }
                }
            ],
        },
        {
            "ruleId": "URL006",
            "ruleIndex": 5,
            "level": "warning",
            "message": {"text": "password 100%: a,b"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {
                            "uri": "notes%20dir/%C3%BCn%C3%AF.txt",
                            "uriBaseId": "%SRCROOT%",
                        },
                        "region": {"startLine": 2, "startColumn": 10},
                    }
                }
            ],
        },
        {
            "ruleId": "URL010",
            "ruleIndex": 9,
            "level": "error",
            "message": {"text": "cannot decode: invalid start byte"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": "bin.dat", "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": 1, "startColumn": 1},
                    }
                }
            ],
        },
    ]
    for fp in fingerprints:
        assert list(fp) == [report.FINGERPRINT_KEY]
        assert re.fullmatch(r"[0-9a-f]{32}:1", fp[report.FINGERPRINT_KEY])
    assert len({fp[report.FINGERPRINT_KEY] for fp in fingerprints}) == 4
    assert render("sarif") == (
        json.dumps(sarif_log(DIAGNOSTICS, TOOL), ensure_ascii=False, indent=2) + "\n"
    )


def test_sarif_rules_are_the_whole_table() -> None:
    driver = sarif_log([], TOOL_WITH_SOURCE)["runs"][0]["tool"]["driver"]  # type: ignore[index]
    rules = driver["rules"]
    assert [r["id"] for r in rules] == [rule.code for rule in RULES]
    for descriptor, rule in zip(rules, RULES, strict=True):
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"] == {"text": rule.summary}
        assert descriptor["fullDescription"]["text"].startswith(rule.summary)
        assert descriptor["defaultConfiguration"] == {"level": rule.severity}
        assert descriptor["helpUri"] == (
            f"https://example.org/src/urlsift/blob/HEAD/docs/lint.md#{rule.code.lower()}"
        )
        assert rule.code in descriptor["help"]["text"]
    # Without a known source repository there is no helpUri (it must be absolute).
    plain = sarif_log([], TOOL)["runs"][0]["tool"]["driver"]["rules"]  # type: ignore[index]
    assert all("helpUri" not in r for r in plain)
    sarif_validator().validate(sarif_log([], TOOL_WITH_SOURCE))


def test_sarif_rule_index_points_at_the_rule() -> None:
    diagnostics = [Diagnostic("a.md", 1, 1, rule.code, rule.severity, "m") for rule in RULES]
    run = sarif_log(diagnostics, TOOL)["runs"][0]  # type: ignore[index]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_sarif_fingerprints_ignore_the_line_and_count_duplicates() -> None:
    def fp(diagnostics: Sequence[Diagnostic]) -> list[str]:
        run = sarif_log(diagnostics, TOOL)["runs"][0]  # type: ignore[index]
        return [r["partialFingerprints"][report.FINGERPRINT_KEY] for r in run["results"]]

    a = Diagnostic("a.md", 3, 1, "URL001", "error", "bad", "http://x/")
    moved = Diagnostic("a.md", 40, 7, "URL001", "error", "bad", "http://x/")
    other_file = Diagnostic("b.md", 3, 1, "URL001", "error", "bad", "http://x/")
    other_url = Diagnostic("a.md", 3, 1, "URL001", "error", "bad", "http://y/")
    assert fp([a]) == fp([moved])
    assert fp([a])[0] != fp([other_file])[0] != fp([other_url])[0]
    twice = fp([a, moved])
    assert [f[-2:] for f in twice] == [":1", ":2"]
    assert twice[0][:-2] == twice[1][:-2]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("docs/a.md", {"uri": "docs/a.md", "uriBaseId": "%SRCROOT%"}),
        ("./docs//a.md", {"uri": "docs/a.md", "uriBaseId": "%SRCROOT%"}),
        (
            "my docs/naïve #1?.md",
            {"uri": "my%20docs/na%C3%AFve%20%231%3F.md", "uriBaseId": "%SRCROOT%"},
        ),
        ("a:b.md", {"uri": "a%3Ab.md", "uriBaseId": "%SRCROOT%"}),
        ("docs\\win.md", {"uri": "docs/win.md", "uriBaseId": "%SRCROOT%"}),
        ("caf\udce9.md", {"uri": "caf%E9.md", "uriBaseId": "%SRCROOT%"}),
        ("/srv/docs/a b.md", {"uri": "file:///srv/docs/a%20b.md"}),
        ("C:\\docs\\a.md", {"uri": "file:///C:/docs/a.md"}),
    ],
)
def test_artifact_location(path: str, expected: dict[str, str]) -> None:
    assert artifact_location(path) == expected


def test_sarif_regions() -> None:
    def region(d: Diagnostic) -> dict[str, int]:
        run = sarif_log([d], TOOL)["runs"][0]  # type: ignore[index]
        return run["results"][0]["locations"][0]["physicalLocation"]["region"]  # type: ignore[no-any-return]

    base = Diagnostic("a.md", 4, 6, "URL001", "error", "m")
    assert region(base) == {"startLine": 4, "startColumn": 6}
    # line/column 0 (unknown) are clamped to 1: GitHub rejects startLine < 1
    assert region(Diagnostic("a.md", 0, 0, "URL010", "error", "m")) == {
        "startLine": 1,
        "startColumn": 1,
    }
    with_end = Diagnostic("a.md", 4, 6, "URL001", "error", "m", None, 5, 3)
    assert region(with_end) == {"startLine": 4, "startColumn": 6, "endLine": 5, "endColumn": 3}
    end_column_only = Diagnostic("a.md", 4, 6, "URL001", "error", "m", None, None, 9)
    assert region(end_column_only) == {
        "startLine": 4,
        "startColumn": 6,
        "endLine": 4,
        "endColumn": 9,
    }
    backwards = Diagnostic("a.md", 4, 6, "URL001", "error", "m", None, 4, 2)
    assert region(backwards) == {"startLine": 4, "startColumn": 6, "endLine": 4}
    before_start = Diagnostic("a.md", 4, 6, "URL001", "error", "m", None, 3, 2)
    assert region(before_start) == {"startLine": 4, "startColumn": 6}


def test_sarif_odd_inputs_validate() -> None:
    odd = [
        Diagnostic("dir with space/ÿ €.md", 1, 1, "URL005", "error", 'quote " and\nnewline\r\t'),
        Diagnostic("caf\udce9/\ud800.md", 2, 3, "URL001", "error", "byte \udcff", "http://\udc80/"),
        Diagnostic("/abs/päth.md", 9, 1, "URL102", "warning", "", None, None, None),
        Diagnostic("a.md", 0, 0, "URL103", "error", "timeout", "http://x/", 0, 0),
    ]
    text = render("sarif", odd)
    text.encode("utf-8")
    log = json.loads(text)
    sarif_validator().validate(log)
    results = log["runs"][0]["results"]
    assert results[1]["message"]["text"] == "byte \\xff"
    assert results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "caf%E9/%ED%A0%80.md"
    )
    assert results[2]["message"]["text"] == "URL102"  # SARIF needs a message
    for result in results:
        assert_uri_reference(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])


_URI_REFERENCE = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*")


def assert_uri_reference(uri: str) -> None:
    # jsonschema checks "uri-reference" only with optional packages; check RFC 3986's
    # character set here, and that a relative reference has no scheme-like first segment.
    assert _URI_REFERENCE.fullmatch(uri), uri
    if not uri.startswith("file:"):
        assert ":" not in uri.split("/", 1)[0], uri


def test_tool_info_from_metadata() -> None:
    real = REAL_TOOL_INFO()
    assert real.name == "urlsift"
    assert re.match(r"\d+\.\d+", real.version)
    # urlsift names no Project-URL (it is not on PyPI): no guessed address is written.
    assert real.information_uri is None or real.information_uri.startswith("https://")
    if real.source_uri is None:
        assert real.help_uri(RULES[0]) is None
    else:
        assert real.help_uri(RULES[0]).endswith("/docs/lint.md#url001")  # type: ignore[union-attr]


# --- github --------------------------------------------------------------------------------


def test_github_exact() -> None:
    assert render("github") == (
        "::error file=docs/guide.md,line=3,col=5,endLine=3,endColumn=25,"
        "title=URL001 invalid-syntax::bad host\n"
        "::warning file=docs/guide.md,line=7,endLine=8,title=URL008 continued-line::"
        'continues on the next line: "http://example.com/a%0Ab"\n'
        "::warning file=notes dir/ünï.txt,line=2,col=10,title=URL006 password-in-url::"
        "password 100%25: a,b\n"
        "::error file=bin.dat,line=1,col=1,title=URL010 unreadable-file::"
        "cannot decode: invalid start byte\n"
    )


def test_github_escaping() -> None:
    assert escape_data("a%b\r\nc:d,e") == "a%25b%0D%0Ac:d,e"
    assert escape_property("a%b\r\nc:d,e") == "a%25b%0D%0Ac%3Ad%2Ce"
    assert escape_property("raw\udcff") == "raw\\xff"
    d = Diagnostic("we:ird,name%.md", 1, 2, "URL001", "error", "x\ny")
    assert github_command(d) == (
        "::error file=we%3Aird%2Cname%25.md,line=1,col=2,title=URL001 invalid-syntax::x%0Ay"
    )


def _github_unescape(text: str) -> str:
    return re.sub(r"%(25|0D|0A|3A|2C)", lambda m: chr(int(m.group(1), 16)), text)


def _parse_github(line: str) -> tuple[str, dict[str, str], str]:
    assert line.startswith("::")
    head, message = line[2:].split("::", 1)
    command, props = head.split(" ", 1)
    fields = dict(item.split("=", 1) for item in props.split(","))
    return command, {k: _github_unescape(v) for k, v in fields.items()}, _github_unescape(message)


# --- junit ---------------------------------------------------------------------------------


def test_junit_exact() -> None:
    assert render("junit") == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuites name="urlsift lint" tests="4" failures="3" errors="1" skipped="0">\n'
        '  <testsuite name="urlsift lint" tests="4" failures="3" errors="1" skipped="0">\n'
        '    <testcase classname="docs/guide.md" name="URL001 (invalid-syntax) 3:5">\n'
        '      <failure type="URL001" message="bad host">docs/guide.md:3:5: URL001 bad host\n'
        "URL: http://a_b.example/</failure>\n"
        "    </testcase>\n"
        '    <testcase classname="docs/guide.md" name="URL008 (continued-line) 7:1">\n'
        '      <failure type="URL008" message="continues on the next line: '
        '&quot;http://example.com/a&#10;b&quot;">docs/guide.md:7:1: URL008 continues on the '
        'next line: "http://example.com/a\n'
        'b"\n'
        "URL: http://example.com/a</failure>\n"
        "    </testcase>\n"
        '    <testcase classname="notes dir/ünï.txt" name="URL006 (password-in-url) 2:10">\n'
        '      <failure type="URL006" message="password 100%: a,b">notes dir/ünï.txt:2:10: '
        "URL006 password 100%: a,b</failure>\n"
        "    </testcase>\n"
        '    <testcase classname="bin.dat" name="URL010 (unreadable-file) 1:1">\n'
        '      <error type="URL010" message="cannot decode: invalid start byte">bin.dat:1:1: '
        "URL010 cannot decode: invalid start byte</error>\n"
        "    </testcase>\n"
        "  </testsuite>\n"
        "</testsuites>\n"
    )


def test_junit_parse_back() -> None:
    root = ET.fromstring(render("junit"))
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == int(suite.attrib["tests"]) == len(DIAGNOSTICS)
    failures = [c for c in cases if c.find("failure") is not None]
    errors = [c for c in cases if c.find("error") is not None]
    assert len(failures) == int(suite.attrib["failures"]) == 3
    assert len(errors) == int(suite.attrib["errors"]) == 1
    assert [c.attrib["classname"] for c in cases] == [d.path for d in DIAGNOSTICS]
    second = cases[1].find("failure")
    assert second is not None
    assert second.attrib["message"] == DIAGNOSTICS[1].message  # newline kept in attribute
    assert second.attrib["type"] == "URL008"


def test_junit_control_characters_and_surrogates() -> None:
    d = Diagnostic("a\x01\udcff.md", 1, 1, "URL005", "error", "nul\x00 esc\x1b cr\r ff\ufffe")
    text = render("junit", [d])
    text.encode("utf-8")
    case = ET.fromstring(text).find("testsuite/testcase")
    assert case is not None
    assert case.attrib["classname"] == "a\\x01\\xff.md"
    failure = case.find("failure")
    assert failure is not None
    assert failure.attrib["message"] == "nul\\x00 esc\\x1b cr\\r ff\\ufffe"


# --- any text at all -----------------------------------------------------------------------

_ODD_CHARS = st.one_of(
    st.characters(),
    st.integers(0xD800, 0xDFFF).map(chr),
    st.integers(0, 0x1F).map(chr),
    st.sampled_from(["\x7f", "\ufffe", "\uffff", "%", ":", ",", '"', "<", "&"]),
)
_ODD_TEXT = st.text(_ODD_CHARS, max_size=30)
_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


@st.composite
def diagnostics(draw: st.DrawFn) -> list[Diagnostic]:
    items = []
    for _ in range(draw(st.integers(0, 3))):
        rule = draw(st.sampled_from(RULES))
        line = draw(st.integers(0, 10**6))
        column = draw(st.integers(0, 500))
        items.append(
            Diagnostic(
                path=draw(_ODD_TEXT),
                line=line,
                column=column,
                code=rule.code,
                severity=draw(st.sampled_from(["error", "warning"])),
                message=draw(_ODD_TEXT),
                url=draw(st.none() | _ODD_TEXT),
                end_line=draw(st.none() | st.integers(0, 10**6)),
                end_column=draw(st.none() | st.integers(0, 500)),
            )
        )
    return items


def _check_json(items: list[Diagnostic], text: str) -> None:
    data = json.loads(text)
    for record, d in zip(data["diagnostics"], items, strict=True):
        _assert_round_trip(record, d)


def _check_jsonl(items: list[Diagnostic], text: str) -> None:
    lines = text.splitlines()
    assert len(lines) == len(items)
    for line, d in zip(lines, items, strict=True):
        _assert_round_trip(json.loads(line), d)


def _assert_round_trip(record: dict[str, Any], d: Diagnostic) -> None:
    # A high surrogate followed by a low one cannot survive JSON (readers join the two
    # escapes into one character); every other string comes back unchanged.
    if any(_PAIR.search(s) for s in (d.path, d.message, d.url or "")):
        return
    assert record == d.to_dict()


def _check_sarif(items: list[Diagnostic], text: str) -> None:
    log = json.loads(text)
    sarif_validator().validate(log)
    results = log["runs"][0]["results"]
    assert len(results) == len(items)
    for result in results:
        location = result["locations"][0]["physicalLocation"]
        assert_uri_reference(location["artifactLocation"]["uri"])
        assert location["region"]["startLine"] >= 1


def _check_github(items: list[Diagnostic], text: str) -> None:
    lines = text.split("\n")
    assert lines.pop() == ""
    assert len(lines) == len(items)
    for line, d in zip(lines, items, strict=True):
        assert "\r" not in line
        command, props, message = _parse_github(line)
        assert command == d.severity
        assert props["file"] == display_text(d.path)
        assert message == display_text(d.message)


def _check_junit(items: list[Diagnostic], text: str) -> None:
    root = ET.fromstring(text)
    cases = root.findall("testsuite/testcase")
    assert len(cases) == len(items) == int(root.attrib["tests"])
    problems = root.findall("testsuite/testcase/failure") + root.findall("testsuite/testcase/error")
    assert len(problems) == int(root.attrib["failures"]) + int(root.attrib["errors"])


CHECKS: dict[str, Callable[[list[Diagnostic], str], None]] = {
    "json": _check_json,
    "jsonl": _check_jsonl,
    "sarif": _check_sarif,
    "github": _check_github,
    "junit": _check_junit,
}


@pytest.mark.parametrize("name", sorted(set(REPORTERS) - {"text"}))
@given(items=diagnostics())
def test_any_text_never_breaks_a_writer(name: str, items: list[Diagnostic]) -> None:
    text = render(name, items)
    text.encode("utf-8")  # never a raw surrogate
    CHECKS[name](items, text)


# --- pre-commit hook and CI docs ---------------------------------------------------------


def _hooks() -> list[dict[str, str]]:
    # A tolerant reader for the flat list-of-mappings shape of .pre-commit-hooks.yaml (no
    # PyYAML): "- key: value" starts a hook, "  key: value" continues it.
    hooks: list[dict[str, str]] = []
    for raw in HOOKS_PATH.read_text(encoding="utf-8").splitlines():
        line = raw.split(" #", 1)[0].rstrip()
        if not line or line.lstrip().startswith("#"):
            continue
        match = re.fullmatch(r"(- |  )([A-Za-z_]+):\s*(.*)", line)
        assert match, f"unexpected line in {HOOKS_PATH.name}: {raw!r}"
        if match.group(1) == "- ":
            hooks.append({})
        hooks[-1][match.group(2)] = match.group(3).strip("'\"")
    return hooks


def test_pre_commit_hooks() -> None:
    hooks = {h["id"]: h for h in _hooks()}
    assert set(hooks) == {"urlsift-lint", "urlsift-lint-links"}
    main = hooks["urlsift-lint"]
    assert main["entry"] == "urlsift lint --force-exclude"  # pre-commit names files
    assert main["language"] == "python"
    assert main["pass_filenames"] == "true"
    assert main["types"] == "[text]"
    re.compile(main["files"])  # a valid regular expression
    assert re.search(main["files"], "docs/index.md")
    assert re.search(main["files"], "README.rst")
    assert not re.search(main["files"], "src/urlsift/cli.py")
    links = hooks["urlsift-lint-links"]
    assert links["entry"] == "urlsift lint --force-exclude --check-links"
    assert links["stages"] == "[manual]"
    for hook in hooks.values():
        assert {"id", "name", "entry", "language", "description"} <= set(hook)


def test_ci_doc_shows_every_format() -> None:
    doc = CI_DOC.read_text(encoding="utf-8")
    for name in REPORTERS:
        assert f"--format {name}" in doc or f"`{name}`" in doc, name
    assert "github/codeql-action/upload-sarif" in doc
    assert "security-events: write" in doc
    assert "id: urlsift-lint" in doc


def test_ci_doc_sarif_example_is_valid() -> None:
    # The SARIF example in the docs is a real log: it validates against the schema.
    doc = CI_DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- sarif-example -->\s*```json\n(.*?)```", doc, re.S)
    assert match, "docs/lint-ci.md lost its marked SARIF example"
    sarif_validator().validate(json.loads(match.group(1)))


# --- through the CLI -------------------------------------------------------------------------
# In a subprocess, as CI runs it: the real stdout, its encoding and the exit status.


@pytest.fixture(scope="module")
def docs_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("docs")
    (root / "bad.md").write_text(
        "See <URL:http://exa mple.com/> and http://user:secret@example.com:8080/x\n"
        "and http://exa_mple.com/ and http://example.com/%zz\n",
        encoding="utf-8",
    )
    (root / "good.md").write_text("See <URL:http://example.com/>.\n", encoding="utf-8")
    return root


def _lint(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "urlsift", "lint", *args],
        cwd=root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )


@pytest.fixture(scope="module")
def text_run(docs_tree: Path) -> subprocess.CompletedProcess[str]:
    return _lint(docs_tree, "--format", "text", "bad.md")


@pytest.mark.parametrize("name", sorted(REPORTERS))
def test_cli_formats_and_exit_codes(
    name: str, docs_tree: Path, text_run: subprocess.CompletedProcess[str]
) -> None:
    clean = _lint(docs_tree, "--format", name, "good.md")
    assert clean.returncode == 0, clean.stderr
    dirty = _lint(docs_tree, "--format", name, "bad.md")
    assert dirty.returncode == text_run.returncode == 1, dirty.stderr
    expected = len(text_run.stdout.splitlines())
    assert expected > 0
    out = dirty.stdout
    if name == "text":
        assert out == text_run.stdout
        assert clean.stdout == ""
    elif name == "json":
        assert len(json.loads(out)["diagnostics"]) == expected
        assert json.loads(clean.stdout)["summary"] == {"errors": 0, "warnings": 0, "files": 0}
    elif name == "jsonl":
        assert len(out.splitlines()) == expected
        assert clean.stdout == ""
    elif name == "sarif":
        log = json.loads(out)
        sarif_validator().validate(log)
        assert len(log["runs"][0]["results"]) == expected
        sarif_validator().validate(json.loads(clean.stdout))
    elif name == "github":
        assert len([line for line in out.splitlines() if line.startswith("::")]) == expected
        assert clean.stdout == ""
    else:
        assert int(ET.fromstring(out).attrib["tests"]) == expected
        assert ET.fromstring(clean.stdout).attrib["tests"] == "0"
