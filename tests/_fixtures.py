"""Reader for the scanner fixtures in corpora/context/*.txt (format: corpora/context/README.md)."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from urlsift import Url

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "corpora"


@dataclass
class Case:
    file: str
    name: str
    options: frozenset[str]
    text: str
    expected: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.file}:{self.name}"


def _decode(lines: list[str], options: frozenset[str]) -> str:
    text = "\n".join(lines)
    if "escapes" in options:
        text = ast.literal_eval('"""' + text.replace('"""', '\\"\\"\\"') + '"""')
    if "crlf" in options:
        text = text.replace("\n", "\r\n")
    if "no-eol" not in options:
        text += "\r\n" if "crlf" in options else "\n"
    return text


def _escape(text: str) -> str:
    """Write control characters and lone surrogates as Python escapes (for ``escapes`` cases)."""
    return "".join(
        c.encode("unicode_escape").decode("ascii")
        if c in "\\" or ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF
        else c
        for c in text
    )


def load(path: Path) -> list[Case]:
    cases: list[Case] = []
    state = "outside"
    name = ""
    options: frozenset[str] = frozenset()
    body: list[str] = []
    expect: list[str] = []

    def finish() -> None:
        if "escapes" in options:
            expect[:] = [ast.literal_eval('"' + line.replace('"', '\\"') + '"') for line in expect]
        cases.append(Case(path.name, name, options, _decode(body, options), list(expect)))

    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("=== "):
            if state != "outside":
                finish()
            header = line[4:].strip()
            opts: list[str] = []
            while header.endswith("]") and "[" in header:
                header, _, opt = header[:-1].rpartition("[")
                opts.extend(opt.split(","))
                header = header.strip()
            name, options, body, expect = header, frozenset(o.strip() for o in opts), [], []
            state = "input"
        elif state == "input" and line == "---":
            state = "expect"
        elif state == "input":
            body.append(line)
        elif state == "expect":
            if line == "" or line.startswith("#"):
                continue
            expect.append(line)
    if state != "outside":
        finish()
    return cases


def render(urls: list[Url], escapes: bool = False) -> list[str]:
    """Render results in the fixture's expectation format."""
    if escapes:
        return [_escape(line) for line in render(urls)]
    out: list[str] = []
    for url in urls:
        out.append(f"{url.kind} {url.line}:{url.column} {url.url}")
        out.extend(f"  alt {alt}" for alt in url.alternatives)
        if url.defects:
            out.append("  defects " + " ".join(d.code for d in url.defects))
    return out
