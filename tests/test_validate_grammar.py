"""Table-driven tests of the RFC 1738 grammar and validator.

Two tables: the human-editable fixtures in ``corpora/validate/`` (whole URLs through
``validate()``), and ``PRODUCTIONS`` below (each §5 production's compiled pattern, with
strings it must and must not match). Every fixture is also checked against the full-URL
grammar pattern: under ``Policy(strict=True)`` the validator and the BNF agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
import regex

from urlsift._model import Policy
from urlsift.grammar import rfc as g
from urlsift.validation.rules import Validation, validate

from _fixtures import columns as fixture_columns

FIXTURES = Path(__file__).resolve().parent.parent / "corpora" / "validate"
STRICT = Policy(strict=True)

_ESCAPE = re.compile(r"\\(\\|t|n|r|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})")
_SIMPLE = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}


def _unescape(text: str) -> str:
    def one(match: re.Match[str]) -> str:
        body = match.group(1)
        return _SIMPLE.get(body) or chr(int(body[1:], 16))

    return _ESCAPE.sub(one, text)


@dataclass(frozen=True)
class Case:
    file: str
    line: int
    url: str
    codes: dict[str, int | None]
    parts: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def load(name: str) -> list[Case]:
    cases = []
    for number, columns in fixture_columns(FIXTURES / name, (2, 3)):
        codes: dict[str, int | None] = {}
        for token in columns[1].split():
            if token == "OK":
                continue
            code, _, offset = token.partition("@")
            codes[code] = int(offset) if offset else None
        parts = tuple(columns[2].split()) if len(columns) == 3 else ()
        cases.append(Case(name, number, _unescape(columns[0]), codes, parts))
    assert cases, f"no cases in {name}"
    return cases


VALID = load("valid.txt")
INVALID = load("invalid.txt")
STRICT_CASES = load("strict.txt")


def _check_codes(result: Validation, expected: dict[str, int | None]) -> None:
    got = {d.code for d in result.defects}
    assert got == set(expected), result.defects
    for code, offset in expected.items():
        if offset is not None:
            first = next(d for d in result.defects if d.code == code)
            assert first.offset == offset, first


def _check_parts(result: Validation, expected: tuple[str, ...]) -> None:
    parts = dict(result.parts)
    for token in expected:
        if token.startswith("-"):
            assert token[1:] not in parts, result.parts
        else:
            name, _, value = token.partition("=")
            assert parts.get(name) == value, (name, result.parts)


def _grammar_accepts(url: str) -> bool:
    body = url.split("#", 1)[0]
    scheme = body.split(":", 1)[0].lower() if ":" in body else ""
    pattern = g.URL_PATTERNS.get(scheme, g.URL_PATTERNS[""])
    return pattern.fullmatch(body) is not None


@pytest.mark.parametrize("case", VALID, ids=lambda c: c.id)
def test_valid_fixture(case: Case) -> None:
    result = validate(case.url)
    assert result.valid, result.defects
    assert all(d.severity == "warning" for d in result.defects)
    _check_codes(result, case.codes)
    _check_parts(result, case.parts)
    strict = validate(case.url, policy=STRICT)
    assert strict.valid, strict.defects
    assert _grammar_accepts(case.url)


@pytest.mark.parametrize("case", INVALID, ids=lambda c: c.id)
def test_invalid_fixture(case: Case) -> None:
    result = validate(case.url)
    assert not result.valid
    _check_codes(result, case.codes)
    _check_parts(result, case.parts)
    assert not validate(case.url, policy=STRICT).valid
    assert not _grammar_accepts(case.url) or "#" in case.url


@pytest.mark.parametrize("case", STRICT_CASES, ids=lambda c: c.id)
def test_strict_fixture(case: Case) -> None:
    lenient = validate(case.url)
    assert lenient.valid, lenient.defects
    assert {d.code for d in lenient.defects} == set(case.codes)
    strict = validate(case.url, policy=STRICT)
    assert not strict.valid
    _check_codes(strict, case.codes)
    _check_parts(strict, case.parts)
    assert not _grammar_accepts(case.url)


def test_every_defect_names_a_rule_and_an_offset() -> None:
    for case in INVALID + STRICT_CASES:
        for defect in validate(case.url, policy=STRICT).defects:
            assert defect.offset is not None
            assert 0 <= defect.offset <= len(case.url)
            assert re.match(r"^[a-z]+(?:-[a-z]+)*$", defect.code)
            assert defect.message


# --- each §5 production: strings its compiled pattern must and must not match -----------

PRODUCTIONS: dict[str, tuple[str, list[str], list[str]]] = {
    # name: (source, must match in full, must not match in full)
    "escape": (g.ESCAPE, ["%41", "%fF", "%00"], ["%4", "%G1", "%", "41"]),
    "uchar": (
        g.UCHAR,
        ["a", "Z", "9", "$", "-", "_", ".", "+", "!", "*", "'", "(", ")", ","],
        [";", "/", "?", ":", "@", "&", "=", "~", " ", "%"],
    ),
    "xchar": (g.XCHAR, ["a", ";", "/", "?", ":", "@", "&", "=", "%2f"], ["~", "#", " ", "%", "{"]),
    "digits": (g.DIGITS, ["0", "0123456789"], ["", "1a", " 1"]),
    "scheme": (g.SCHEME, ["http", "x-y.z+1", "HTTP", "1"], ["", "a_b", "a b", "a:"]),
    "alphadigit": (g.ALPHADIGIT, ["a", "Z", "5"], ["-", ".", "_"]),
    "domainlabel": (g.DOMAINLABEL, ["a", "1", "a-b", "a--b", "3com"], ["", "-a", "a-", "a.b"]),
    "toplabel": (g.TOPLABEL, ["a", "ab", "a-1", "a--1"], ["", "1a", "-a", "a-"]),
    "hostname": (
        g.HOSTNAME,
        ["a", "a.b", "1.b", "x-1.y.com", "a.b.c.d.e"],
        ["", "a.", ".a", "a..b", "a.1", "1.2.3.4", "a-.b", "a_b"],
    ),
    "hostnumber": (
        g.HOSTNUMBER,
        ["1.2.3.4", "255.255.255.255", "999.0.0.0"],
        ["1.2.3", "1.2.3.4.5", "a.2.3.4", "1..3.4"],
    ),
    "host": (g.HOST, ["h.example", "10.0.0.1", "localhost"], ["", "1.2.3", "h:1"]),
    "port": (g.PORT, ["80", "0"], ["", "8o", "-1"]),
    "hostport": (g.HOSTPORT, ["h", "h:1", "1.2.3.4:80"], ["h:", ":80", "h:1:2"]),
    "user": (g.USER, ["", "a;?&=%40"], [":", "@", "/"]),
    "password": (g.PASSWORD, ["", "p;?&="], [":", "@", "/"]),
    "login": (g.LOGIN, ["h", "u@h", "u:p@h:21", "@h", ":@h"], ["u@", "u@@h", "u:p:q@h"]),
    "urlpath": (g.URLPATH, ["", "a/b;c?d:e@f&g=h"], ["a b", "~"]),
    "ip-schemepart": (g.IP_SCHEMEPART, ["//h", "//u@h/x", "//h/"], ["h", "/h", "//"]),
    "fsegment": (g.FSEGMENT, ["", "a?:@&="], ["/", ";"]),
    "fpath": (g.FPATH, ["", "a/b", "/", "a?:@&=/"], [";", "a;b"]),
    "ftptype": (g.FTPTYPE, ["a", "I", "d"], ["x", "", "aa"]),
    "ftpurl": (
        g.FTPURL,
        ["ftp://h", "ftp://u:p@h/a/b;type=i", "FTP://h/;TYPE=D"],
        ["ftp://h/a;type=x", "ftp:/h", "ftp://h/a;b"],
    ),
    "fileurl": (
        g.FILEURL,
        ["file:///", "file://localhost/a", "file://h/a/b"],
        ["file://h", "file://u@h/", "file://h:1/"],
    ),
    "hsegment": (g.HSEGMENT, ["", "a;:@&="], ["/", "?"]),
    "hpath": (g.HPATH, ["", "a/b;c"], ["?", "a?b"]),
    "search": (g.SEARCH, ["", "a=b&c;d:e@f"], ["/", "?"]),
    "httpurl": (
        g.HTTPURL,
        ["http://h", "http://h/", "http://h:8/p?q"],
        ["http://u@h/", "http://h?q", "http://h/p?q?r"],
    ),
    "gtype": (g.GTYPE, ["1", "%09", "/"], ["", "12"]),
    "selector": (g.SELECTOR, ["", "a/b?c", "%20"], ["%09", "a%09b"]),
    "gopher+_string": (g.GOPHER_PLUS_STRING, ["", "+", "!+ABSTRACT%20+SMELL", "%09"], ["~"]),
    "gopherurl": (
        g.GOPHERURL,
        ["gopher://h", "gopher://h/", "gopher://h/1s%09q%09+"],
        ["gopher://u@h/", "gopher://h/1 s"],
    ),
    "encoded822addr": (g.ENCODED822ADDR, ["a@b", "a"], ["", "a b"]),
    "mailtourl": (g.MAILTOURL, ["mailto:a@b"], ["mailto:", "mailto:a b"]),
    "group": (g.GROUP, ["a", "comp.lang-c++_x9"], ["", "1a", "a/b", "a@b"]),
    "article": (g.ARTICLE, ["a@h", "a;/?:&=@1.2.3.4"], ["@h", "a@", "a@b@h"]),
    "grouppart": (g.GROUPPART, ["*", "a.b", "x@y"], ["**", "", "1"]),
    "newsurl": (g.NEWSURL, ["news:*", "news:a.b", "news:x@y"], ["news:", "news:a/b"]),
    "nntpurl": (
        g.NNTPURL,
        ["nntp://h/g", "nntp://h/g/1"],
        ["nntp://h", "nntp://h/g/", "nntp://h/1"],
    ),
    "telneturl": (
        g.TELNETURL,
        ["telnet://h", "telnet://u:p@h:2/"],
        ["telnet://h/x", "telnet://h//"],
    ),
    "database": (g.DATABASE, ["", "db%2F"], ["d/b", "d?b"]),
    "wtype": (g.WTYPE, ["", "TEXT"], ["a/b"]),
    "wpath": (g.WPATH, ["", "x%2Fy"], ["x/y"]),
    "waisdatabase": (g.WAISDATABASE, ["wais://h/db", "wais://h/"], ["wais://h"]),
    "waisindex": (g.WAISINDEX, ["wais://h/db?q", "wais://h/?"], ["wais://h/db"]),
    "waisdoc": (g.WAISDOC, ["wais://h/db/t/p", "wais://h///"], ["wais://h/db/t"]),
    "waisurl": (
        g.WAISURL,
        ["wais://h/db", "wais://h/db?q", "wais://h/db/t/p"],
        ["wais://h/db/t", "wais://h/db/t/p/q"],
    ),
    "psegment": (g.PSEGMENT, ["", "a?:@&="], ["/", ";"]),
    "ppath": (g.PPATH, ["", "/a/b", "a=b"], [";"]),
    "fieldname": (g.FIELDNAME, ["", "a?:@&"], ["=", ";"]),
    "fieldvalue": (g.FIELDVALUE, ["", "v?:@&"], ["=", ";"]),
    "fieldspec": (g.FIELDSPEC, [";a=b", ";="], [";a", "a=b", ";a=b=c"]),
    "prosperourl": (
        g.PROSPEROURL,
        ["prospero://h/x", "prospero://h//x;a=b;c=d"],
        ["prospero://h", "prospero://h/x;a"],
    ),
    "genericurl": (g.GENERICURL, ["x:", "x:y", "x://h:bad"], [":x", "x", "x:a b"]),
}


@pytest.mark.parametrize("name", sorted(PRODUCTIONS))
def test_production(name: str) -> None:
    source, good, bad = PRODUCTIONS[name]
    pattern = regex.compile(source)
    for text in good:
        assert pattern.fullmatch(text), (name, text)
    for text in bad:
        assert not pattern.fullmatch(text), (name, text)


def test_every_bnf_rule_is_in_the_grammar_module() -> None:
    # Every rule name on the left of §5 has a documented source in _grammar.
    spec = Path(g.__file__).read_text("utf-8")
    rules = {
        "genericurl",
        "url",
        "otherurl",
        "scheme",
        "schemepart",
        "ip-schemepart",
        "login",
        "hostport",
        "host",
        "hostname",
        "domainlabel",
        "toplabel",
        "alphadigit",
        "hostnumber",
        "port",
        "user",
        "password",
        "urlpath",
        "ftpurl",
        "fpath",
        "fsegment",
        "ftptype",
        "fileurl",
        "httpurl",
        "hpath",
        "hsegment",
        "search",
        "gopherurl",
        "gtype",
        "selector",
        "gopher+_string",
        "mailtourl",
        "encoded822addr",
        "newsurl",
        "grouppart",
        "group",
        "article",
        "nntpurl",
        "telneturl",
        "waisurl",
        "waisdatabase",
        "waisindex",
        "waisdoc",
        "database",
        "wtype",
        "wpath",
        "prosperourl",
        "ppath",
        "psegment",
        "fieldspec",
        "fieldname",
        "fieldvalue",
        "lowalpha",
        "hialpha",
        "alpha",
        "digit",
        "safe",
        "extra",
        "national",
        "punctuation",
        "reserved",
        "hex",
        "escape",
        "unreserved",
        "uchar",
        "xchar",
        "digits",
    }
    for rule in rules:
        assert re.search(rf"^# {re.escape(rule)} +=", spec, re.MULTILINE), rule


def test_rfc_examples_are_all_in_the_fixtures() -> None:
    # Every <URL:...> example of RFC 1738 §3 that is a complete URL is a valid fixture.
    urls = {case.url for case in VALID}
    for example in (
        "ftp://@host.com/",
        "ftp://host.com/",
        "ftp://foo:@host.com/",
        "ftp://myname@host.dom/%2Fetc/motd",
        "ftp://myname@host.dom/etc/motd",
        "ftp://myname@host.dom//etc/motd",
        "news:*",
        "file://vms.host.edu/disk$user/my/notes/note12345.txt",
        "prospero://host.dom//pros/name",
    ):
        assert example in urls
