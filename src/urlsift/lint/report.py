"""Renderers for ``urlsift lint`` diagnostics.

Strategy: one function per format, all with the signature of :data:`Writer`; the CLI picks
one from :data:`REPORTERS` by name. Renderers only format: the diagnostics arrive already
filtered, with their effective severity, sorted by :meth:`Diagnostic.sort_key`. Each
structured format is built as data by a pure function (:func:`json_document`,
:func:`sarif_log`, :func:`junit_tree`, :func:`github_command`) and only then written, so
tests can look at the data as well as the text.

Text that cannot be written as is: the core keeps input bytes that were not valid UTF-8 as
lone surrogates U+DC80..U+DCFF. No writer raises on them, and every output stays valid
UTF-8:

* ``json``/``jsonl`` are lossless: a lone surrogate becomes a ``\\udcXX`` JSON escape, which
  ``json.loads`` turns back into the same string (so do U+0085, U+2028 and U+2029, which
  some readers take for line ends);
* the human-facing formats (``sarif`` messages, ``github``, ``junit``) show the original
  byte as ``\\xNN`` (:func:`display_text`);
* SARIF ``uri`` values percent-encode the original bytes of the path.

JUnit XML also replaces the characters XML 1.0 forbids (most C0 controls, U+FFFE, U+FFFF)
with ``\\xNN``/``\\uNNNN`` text, so the document always parses.
"""

from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import PurePosixPath
from typing import TextIO
from urllib.parse import quote

from ..output.formats import visible
from .model import RULES, Diagnostic, Rule

Writer = Callable[[Sequence[Diagnostic], TextIO], None]

TOOL_NAME = "urlsift"
"""The tool's name in every report."""

RULES_DOC_PATH = "docs/lint.md"
"""Where the rule table lives in the source tree; each rule's anchor is its code in lower
case (``#url001``)."""

SARIF_SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
"""``$schema`` of the SARIF log (the OASIS SARIF 2.1.0 schema)."""

SARIF_SRCROOT = "%SRCROOT%"
"""``uriBaseId`` of relative artifact paths (the folder the linter ran in)."""

FINGERPRINT_KEY = "urlsift/v1"
"""Key of our ``partialFingerprints`` entry. Not ``primaryLocationLineHash``: GitHub's
upload action computes that one itself from the file and warns when a tool's value
differs."""

JUNIT_SUITE_NAME = "urlsift lint"
"""``name`` of the JUnit ``<testsuite>``."""

JUNIT_ERROR_CODES = frozenset({"URL010"})
"""Codes rendered as JUnit ``<error>`` (the check could not run) rather than ``<failure>``."""

_PROJECT_URL_LABELS = ("source", "repository", "homepage", "home")
"""``Project-URL`` labels (lower case) taken, in this order, as the project's home."""


# --- tool metadata ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ToolInfo:
    """What the reports say about the tool itself."""

    name: str
    """Tool name (``urlsift``)."""
    version: str
    """Installed version, from the package metadata."""
    information_uri: str | None
    """Absolute URI of the project (SARIF ``informationUri``), from the metadata's
    ``Project-URL``; None when it names none (the key is then left out: urlsift is not on
    PyPI, and a guessed address could be a page somebody else owns)."""
    source_uri: str | None = None
    """Absolute URI of the source repository, when the metadata names one; rules'
    ``helpUri`` point into it (``{source_uri}/blob/HEAD/docs/lint.md#url001``)."""

    def help_uri(self, rule: Rule) -> str | None:
        """Return the documentation URI of ``rule``, or None when no source URI is known."""
        if self.source_uri is None:
            return None
        return f"{self.source_uri.rstrip('/')}/blob/HEAD/{RULES_DOC_PATH}#{rule.code.lower()}"


@cache
def tool_info() -> ToolInfo:
    """Return the tool's name, version and project URIs from the installed metadata.

    The version is ``0+unknown`` when the package is not installed (e.g. run from a bare
    source tree); the project URI is None when the metadata names no ``Project-URL``.
    """
    try:
        meta = metadata.metadata(TOOL_NAME)
    except metadata.PackageNotFoundError:
        return ToolInfo(TOOL_NAME, "0+unknown", None)
    urls: dict[str, str] = {}
    for entry in meta.get_all("Project-URL") or ():
        label, _, url = str(entry).partition(",")
        urls.setdefault(label.strip().lower(), url.strip())
    source = next((urls[k] for k in _PROJECT_URL_LABELS if urls.get(k)), None)
    return ToolInfo(
        name=TOOL_NAME,
        version=str(meta["Version"]),
        information_uri=source,
        source_uri=source,
    )


# --- text that cannot be written as is ---------------------------------------------------

_SURROGATE = re.compile("[\ud800-\udfff]")
_JSON_UNSAFE = re.compile("[\ud800-\udfff\x85\u2028\u2029]")
_ESCAPED_BYTES = re.compile("[\udc80-\udcff]+")  # surrogateescape's bytes 0x80..0xFF
_OTHER_SURROGATE = re.compile("[\ud800-\udc7f\udd00-\udfff]")
_OTHER_SURROGATE_SPLIT = re.compile("([\ud800-\udc7f\udd00-\udfff])")
# XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF];
# surrogates are gone by the time this applies (display_text), CR is kept out of text
# because parsers normalise it to LF.
_XML_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\ufffe\uffff]")


def display_text(text: str) -> str:
    """Return ``text`` fit for people and for UTF-8: lone surrogates become ``\\xNN``.

    A run of surrogates U+DC80..U+DCFF stands for undecodable input bytes 0x80..0xFF; the
    bytes are restored, and those that are still not UTF-8 are shown as ``\\xNN`` (bytes
    that form valid UTF-8 again decode normally). Any other lone surrogate is shown as
    ``\\udNNN``.
    """
    if _SURROGATE.search(text) is None:
        return text
    text = _ESCAPED_BYTES.sub(
        lambda m: bytes(ord(c) - 0xDC00 for c in m.group()).decode("utf-8", "backslashreplace"),
        text,
    )
    return _OTHER_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _json_escape_unsafe(encoded: str) -> str:
    # json.dumps(ensure_ascii=False) leaves lone surrogates raw inside string literals; the
    # six-character escape is the same string to any JSON reader and is valid UTF-8. NEL,
    # LS and PS are escaped too: line readers (str.splitlines, JavaScript) break lines there.
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


def _json_dumps(data: object, *, indent: int | None = None) -> str:
    return _json_escape_unsafe(json.dumps(data, ensure_ascii=False, indent=indent))


def _xml_text(text: str) -> str:
    # Escape what XML 1.0 cannot carry, CR included (a parser would turn it into LF).
    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _XML_UNSAFE.sub(escape, display_text(text).replace("\r", "\\r"))


def _path_bytes(path: str) -> bytes:
    # The original bytes of an escaped byte (U+DC80..U+DCFF); any other lone surrogate
    # keeps its code unit (surrogatepass) rather than failing.
    parts = _OTHER_SURROGATE_SPLIT.split(path)
    return b"".join(
        part.encode("utf-8", "surrogatepass" if i % 2 else "surrogateescape")
        for i, part in enumerate(parts)
    )


# --- text --------------------------------------------------------------------------------


def write_text(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    """``path:line:col: CODE message``, one line per diagnostic.

    The path is a file's name as the file system has it: control characters in it are
    shown as ``\\xNN`` (:func:`urlsift.output.formats.visible`), as in every human-readable
    output; the message is made visible where it is built.
    """
    for d in diagnostics:
        out.write(f"{visible(d.path)}:{d.line}:{d.column}: {d.code} {d.message}\n")


# --- json / jsonl ------------------------------------------------------------------------


def summary(diagnostics: Sequence[Diagnostic]) -> dict[str, int]:
    """Return ``{"errors", "warnings", "files"}``: counts by severity, and the number of
    distinct paths with at least one diagnostic."""
    errors = sum(1 for d in diagnostics if d.severity == "error")
    return {
        "errors": errors,
        "warnings": len(diagnostics) - errors,
        "files": len({d.path for d in diagnostics}),
    }


def json_document(diagnostics: Sequence[Diagnostic], tool: ToolInfo) -> dict[str, object]:
    """Return the ``--format json`` document as data.

    Keys, in order: ``tool`` (name), ``version`` (tool version), ``diagnostics`` (a list of
    :meth:`Diagnostic.to_dict`), ``summary`` (:func:`summary`).
    """
    return {
        "tool": tool.name,
        "version": tool.version,
        "diagnostics": [d.to_dict() for d in diagnostics],
        "summary": summary(diagnostics),
    }


def write_json(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    """One JSON document (:func:`json_document`), indented by two spaces."""
    out.write(_json_dumps(json_document(diagnostics, tool_info()), indent=2) + "\n")


def write_jsonl(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    """One :meth:`Diagnostic.to_dict` object per line; nothing at all for no diagnostics."""
    for d in diagnostics:
        out.write(_json_dumps(d.to_dict()) + "\n")


# --- sarif -------------------------------------------------------------------------------

_RULE_INDEX: dict[str, int] = {rule.code: i for i, rule in enumerate(RULES)}


def artifact_location(path: str) -> dict[str, str]:
    """Return the SARIF ``artifactLocation`` of a diagnostic's path.

    A relative path becomes a relative URI reference with ``/`` separators, percent-encoded
    as UTF-8 (undecodable file-name bytes are encoded as the original bytes), resolved
    against ``%SRCROOT%``. An absolute path becomes a ``file:`` URI without base.
    """
    posix = path.replace("\\", "/")
    absolute = posix.startswith("/") or re.match(r"[A-Za-z]:/", posix) is not None
    parts = PurePosixPath(posix).parts if posix else ()
    if absolute:
        prefix = "file://" if posix.startswith("/") else "file:///"
        return {"uri": prefix + quote(_path_bytes(posix), safe="/:")}
    uri = quote(_path_bytes("/".join(p for p in parts if p != ".")), safe="/")
    # A first segment with ':' would read as a scheme; quote() keeps no ':' (safe='/').
    return {"uri": uri, "uriBaseId": SARIF_SRCROOT}


def _region(d: Diagnostic) -> dict[str, int]:
    # SARIF lines and columns are 1-based (GitHub rejects startLine < 1); endColumn is the
    # column just past the region, as in Diagnostic. A region may not end before it starts.
    line, column = max(1, d.line), max(1, d.column)
    region = {"startLine": line, "startColumn": column}
    end_line = d.end_line if d.end_line is not None else (line if d.end_column else None)
    if end_line is None or end_line < line:
        return region
    region["endLine"] = end_line
    if d.end_column is not None and (end_line > line or d.end_column >= column):
        region["endColumn"] = max(1, d.end_column)
    return region


def fingerprint(d: Diagnostic) -> str:
    """Return a stable digest of what a diagnostic is about: code, path and URL (or message).

    The line is left out on purpose, so an alert survives edits above it.
    """
    subject = d.url if d.url is not None else d.message
    data = b"\0".join(_path_bytes(s) for s in (d.code, d.path, subject))
    return hashlib.sha256(data).hexdigest()[:32]


def _sarif_rule(rule: Rule, tool: ToolInfo) -> dict[str, object]:
    full = rule.summary + (" Reported only with `--check-links`." if rule.needs_network else "")
    descriptor: dict[str, object] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": full},
        "defaultConfiguration": {"level": rule.severity},
    }
    help_uri = tool.help_uri(rule)
    if help_uri is not None:
        descriptor["helpUri"] = help_uri
    descriptor["help"] = {
        "text": f"{rule.code} ({rule.name}): {full} See {RULES_DOC_PATH}.",
        "markdown": f"**{rule.code}** `{rule.name}`: {full}\n\nSee `{RULES_DOC_PATH}`.",
    }
    descriptor["properties"] = {"tags": ["urlsift", "links" if rule.needs_network else "urls"]}
    return descriptor


def sarif_log(diagnostics: Sequence[Diagnostic], tool: ToolInfo) -> dict[str, object]:
    """Return a SARIF 2.1.0 log with one run as data.

    ``tool.driver.rules`` lists every rule of :data:`~urlsift.lint.model.RULES` (in table
    order, so ``ruleIndex`` is stable); each result has ``ruleId``, ``ruleIndex``, ``level``,
    ``message.text``, one physical location and a ``partialFingerprints`` entry
    (:data:`FINGERPRINT_KEY`: :func:`fingerprint` plus ``:n`` for the n-th result with the
    same digest, as CodeQL does).
    """
    seen: dict[str, int] = {}
    results: list[dict[str, object]] = []
    for d in diagnostics:
        digest = fingerprint(d)
        seen[digest] = seen.get(digest, 0) + 1
        message = display_text(d.message)
        results.append(
            {
                "ruleId": d.code,
                "ruleIndex": _RULE_INDEX[d.code],
                "level": d.severity,
                "message": {"text": message or d.code},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": artifact_location(d.path),
                            "region": _region(d),
                        }
                    }
                ],
                "partialFingerprints": {FINGERPRINT_KEY: f"{digest}:{seen[digest]}"},
            }
        )
    driver: dict[str, object] = {"name": tool.name, "version": tool.version}
    if tool.information_uri is not None:
        driver["informationUri"] = tool.information_uri
    driver["rules"] = [_sarif_rule(rule, tool) for rule in RULES]
    return {
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }


def write_sarif(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    """A SARIF 2.1.0 log (:func:`sarif_log`) for GitHub code scanning and other viewers."""
    out.write(_json_dumps(sarif_log(diagnostics, tool_info()), indent=2) + "\n")


# --- github ------------------------------------------------------------------------------

# The escapes of the Actions toolkit (@actions/core, command.ts): data escapes %, CR, LF;
# property values also escape ':' and ','.
_DATA_ESCAPES: Mapping[str, str] = {"%": "%25", "\r": "%0D", "\n": "%0A"}
_PROPERTY_ESCAPES: Mapping[str, str] = {**_DATA_ESCAPES, ":": "%3A", ",": "%2C"}
_DATA_RE = re.compile("[%\r\n]")
_PROPERTY_RE = re.compile("[%\r\n:,]")


def escape_data(text: str) -> str:
    """Escape a workflow command's message (``%``, CR, LF)."""
    return _DATA_RE.sub(lambda m: _DATA_ESCAPES[m.group()], display_text(text))


def escape_property(text: str) -> str:
    """Escape a workflow command's property value (``%``, CR, LF, ``:``, ``,``)."""
    return _PROPERTY_RE.sub(lambda m: _PROPERTY_ESCAPES[m.group()], display_text(text))


def github_command(d: Diagnostic) -> str:
    """Return the ``::error``/``::warning`` workflow command that annotates ``d``.

    Columns are only sent for one-line spans: GitHub refuses ``col``/``endColumn`` when
    ``line`` and ``endLine`` differ.
    """
    region = _region(d)
    props: list[tuple[str, object]] = [("file", d.path), ("line", region["startLine"])]
    end_line = region.get("endLine", region["startLine"])
    if end_line == region["startLine"]:
        props.append(("col", region["startColumn"]))
    if "endLine" in region:
        props.append(("endLine", end_line))
    if "endColumn" in region and end_line == region["startLine"]:
        props.append(("endColumn", region["endColumn"]))
    props.append(("title", f"{d.code} {d.rule.name}"))
    rendered = ",".join(f"{key}={escape_property(str(value))}" for key, value in props)
    return f"::{d.severity} {rendered}::{escape_data(d.message)}"


def write_github(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    """GitHub Actions workflow commands: one annotation per diagnostic."""
    for d in diagnostics:
        out.write(github_command(d) + "\n")


# --- junit -------------------------------------------------------------------------------


def junit_tree(diagnostics: Sequence[Diagnostic]) -> ET.Element:
    """Return the JUnit XML document as an element tree.

    ``<testsuites>`` holds one ``<testsuite name="urlsift lint">`` with one ``<testcase>``
    per diagnostic (``classname`` = path, ``name`` = ``CODE (name) line:col``), so GitLab
    and Jenkins list every problem on its own line, grouped by file. Each test case holds a
    ``<failure type="CODE" message="...">`` (``<error>`` for :data:`JUNIT_ERROR_CODES`)
    whose text is ``path:line:col: CODE message`` and the URL. With no diagnostics the
    suite is empty (``tests="0"``).
    """
    failures = sum(1 for d in diagnostics if d.code not in JUNIT_ERROR_CODES)
    counts = {
        "tests": str(len(diagnostics)),
        "failures": str(failures),
        "errors": str(len(diagnostics) - failures),
        "skipped": "0",
    }
    root = ET.Element("testsuites", {"name": JUNIT_SUITE_NAME, **counts})
    suite = ET.SubElement(root, "testsuite", {"name": JUNIT_SUITE_NAME, **counts})
    for d in diagnostics:
        case = ET.SubElement(
            suite,
            "testcase",
            {
                "classname": _xml_text(d.path),
                "name": f"{d.code} ({d.rule.name}) {d.line}:{d.column}",
            },
        )
        tag = "error" if d.code in JUNIT_ERROR_CODES else "failure"
        problem = ET.SubElement(case, tag, {"type": d.code, "message": _xml_text(d.message)})
        body = f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}"
        if d.url is not None:
            body += f"\nURL: {d.url}"
        problem.text = _xml_text(body)
    return root


def write_junit(diagnostics: Sequence[Diagnostic], out: TextIO) -> None:
    """JUnit XML (:func:`junit_tree`), UTF-8, indented."""
    root = junit_tree(diagnostics)
    ET.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(root, encoding="unicode") + "\n")


REPORTERS: dict[str, Writer] = {
    "text": write_text,
    "json": write_json,
    "jsonl": write_jsonl,
    "sarif": write_sarif,
    "github": write_github,
    "junit": write_junit,
}
"""Format name -> renderer (``--format``)."""
