"""The one reader of the fixture files under corpora/.

Every fixture file is UTF-8 text read by the same few steps, each here once:

* :func:`data_lines`: numbered lines, less blank lines and ``#`` comment lines (the
  one-case-a-line files: ``corpora/validate``, ``corpora/normalize``,
  ``corpora/peers/disagreements.txt``, ``corpora/mail-expected``);
* :func:`columns`: those lines cut at TABs, with the number of columns checked;
* :func:`sections`: a file cut at header lines (``=== name`` in ``corpora/context``,
  ``== name`` in ``corpora/peers/*.cases``, ``## group`` in ``corpora/lint``), each
  section with its name, line number and lines.

On top of them: :func:`load` and :func:`render` for the scanner fixtures
(``corpora/context``, format: ``corpora/context/README.md``) and :func:`mail_records` for
the mail fixtures (``corpora/mail-expected``, format: its README.md).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from urlsift import Url
from urlsift.engines.runner import Result, UnitDefects

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "corpora"


def data_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a fixture file with their numbers, less blank and ``#`` lines."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(n, line) for n, line in enumerate(lines, 1) if line.strip() and line[0] != "#"]


def columns(path: Path, counts: tuple[int, ...]) -> list[tuple[int, list[str]]]:
    """:func:`data_lines` cut at TABs; each must have one of ``counts`` columns."""
    out = []
    for number, line in data_lines(path):
        cells = line.split("\t")
        if len(cells) not in counts:
            raise ValueError(f"{path.name}:{number}: expected {counts} TAB-separated columns")
        out.append((number, cells))
    return out


@dataclass(frozen=True)
class Section:
    """The lines of a fixture file from one header line to the next."""

    name: str
    """The header line less its marker, stripped."""
    number: int
    """The header's line number."""
    lines: list[str]
    """The lines after the header, as written (comments and blank lines included)."""


def sections(path: Path, marker: str) -> list[Section]:
    """Cut a fixture file at the lines starting with ``marker`` (text before the first
    one, such as a header comment, is skipped)."""
    found: list[Section] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if line.startswith(marker):
            found.append(Section(line[len(marker) :].strip(), number, []))
        elif found:
            found[-1].lines.append(line)
    return found


def split_at(lines: Iterable[str], separator: str) -> list[list[str]]:
    """``lines`` cut at each line equal to ``separator`` (which is dropped)."""
    pieces: list[list[str]] = [[]]
    for line in lines:
        if line == separator:
            pieces.append([])
        else:
            pieces[-1].append(line)
    return pieces


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
    """The scanner fixtures of one ``corpora/context`` file."""
    cases: list[Case] = []
    for section in sections(path, "=== "):
        header = section.name
        opts: list[str] = []
        while header.endswith("]") and "[" in header:
            header, _, opt = header[:-1].rpartition("[")
            opts.extend(opt.split(","))
            header = header.strip()
        options = frozenset(o.strip() for o in opts)
        body, *rest = split_at(section.lines, "---")
        expect = [line for line in rest[0] if line and not line.startswith("#")] if rest else []
        if "escapes" in options:
            expect = [ast.literal_eval('"' + line.replace('"', '\\"') + '"') for line in expect]
        cases.append(Case(path.name, header, options, _decode(body, options), expect))
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


def mail_records(results: Iterable[Result]) -> list[str]:
    """Results in the mail fixtures' format (``corpora/mail-expected/README.md``)."""
    out: list[str] = []
    for record in results:
        if not isinstance(record, (Url, UnitDefects)):
            out.append(f"? {record.path} {record.reason}")
            continue
        where = "0#0"
        if record.context is not None:
            where = f"{record.context.message}#{record.context.part}"
        if isinstance(record, UnitDefects):
            out.extend(f"! {where} {defect.code}" for defect in record.defects)
            continue
        out.append(f"{where} {record.line}:{record.column} {record.url}")
        if record.defects:
            out.append("  defects " + " ".join(d.code for d in record.defects))
    return out
