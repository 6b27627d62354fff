"""One definition per piece of the context grammar, and the grammar's comments kept honest.

* The BNF lines written in ``grammar/rfc.py``'s comments are RFC 1738 §5's (checked against the
  RFC's text in ``corpora/rfc``), and its ``BNF`` table (quoted in defect messages) says the
  same as those comments.
* Every pattern that looks for a scheme name in text is derived from ``_grammar.SCHEME_CHARS``
  through ``_context.scheme_name``; no module spells the class out again.
* ``grammar.context``, ``extraction.textbuffer``, ``scanner`` and ``rejoin`` import one
  another one way only.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_layers import urlsift_imports
from urlsift import Scanner
from urlsift.grammar import context as _context
from urlsift.grammar import rfc as _grammar
from urlsift.lint.extract import ExtractOptions, extract_document

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "urlsift"
RFC1738 = ROOT / "corpora" / "rfc" / "rfc1738.txt"

# A rule as the comments write it: "# name = right-hand side", continued on lines indented
# past the "=" ("#             [ ..."). An RFC 822 comment ("; depends on protocol") ends it.
_RULE = re.compile(r"^# ([a-z0-9+_-]+) = (.*)$")
_CONTINUED = re.compile(r"^# {5,}(\S.*)$")
_RFC_COMMENT = re.compile(r"\s;\s.*\Z")

# BNF table entries that are urlsift's own, not lines of RFC 1738 §5 (see their comments in
# _grammar.py): https follows httpurl under its own name; the gopher search is *xchar.
_OWN_RULES = {"httpsurl", "gopher-search"}


def _normal(text: str) -> str:
    return " ".join(text.split())


def _comment_rules() -> dict[str, str]:
    """The BNF rules written in the comments above the grammar's sources, by name."""
    source = (SRC / "grammar" / "rfc.py").read_text(encoding="utf-8")
    # The rules of §5 come before the url table; later comments refer back to them.
    lines = source[: source.index("URL_SOURCES: dict")].splitlines()
    rules: dict[str, str] = {}
    name = ""
    for line in lines:
        rule = _RULE.match(line)
        continued = _CONTINUED.match(line)
        if rule:
            name = rule.group(1)
            assert name not in rules, f"rule {name} is written twice"
            rules[name] = rule.group(2)
        elif continued and name:
            rules[name] += " " + continued.group(1)
        else:
            name = ""
    return {k: _normal(_RFC_COMMENT.sub("", f"{k} = {v}")) for k, v in rules.items()}


def _rfc_section_5() -> str:
    text = RFC1738.read_text(encoding="utf-8")
    section = text[text.index("\n5. BNF for specific URL schemes") : text.index("\n6. Security")]
    # Drop the page footers and headers a rule may be split by.
    kept = [
        line
        for line in section.splitlines()
        if not re.search(r"\[Page \d+\]$|^RFC 1738 ", line) and "\f" not in line
    ]
    return _normal(_RFC_COMMENT.sub("", "\n".join(kept)).replace("\n", " "))


def test_the_comment_rules_are_rfc_1738_section_5() -> None:
    section = _rfc_section_5()
    rules = _comment_rules()
    assert len(rules) > 50  # the parse found the grammar
    for name, rule in rules.items():
        # The comments shorten the letter and digit lists with "...".
        pattern = re.escape(rule).replace(re.escape("..."), ".{1,200}?")
        assert re.search(pattern, section), f"{name}: {rule!r} is not RFC 1738 §5's text"


def test_the_bnf_table_equals_the_comments() -> None:
    rules = _comment_rules()
    for name, line in _grammar.BNF.items():
        if name in _OWN_RULES:
            assert name not in rules
            continue
        assert name in rules, f"BNF[{name!r}] has no comment in grammar/rfc.py"
        assert _normal(line) == rules[name], name


def test_the_bnf_check_catches_a_drift() -> None:
    # The comparison above is not vacuous: a changed table line is told apart.
    rules = _comment_rules()
    drifted = _grammar.BNF["user"].replace('"&"', '"&" | "@"')
    assert _normal(drifted) != rules["user"]
    assert _normal(_grammar.BNF["user"]) == rules["user"]


# --- one scheme-name definition -------------------------------------------------------

# A character class spelled out by hand: its body, for finding scheme-name classes.
_CLASS = re.compile(r"\[((?:\\.|[^\]\\])*)\]")
# The scheme characters besides letters and digits, however a class orders or escapes them.
_SCHEME_SIGNS = {"+", ".", "-"}
# Lines that still spell the class out (whichever module holds them), and why they may:
_SPELLED_ON_PURPOSE: set[str] = set()


def _is_scheme_class(body: str) -> bool:
    rest = body
    for span in ("A-Z", "a-z", "0-9"):
        if span not in rest:
            return False
        rest = rest.replace(span, "")
    return set(rest.replace("\\", "")) == _SCHEME_SIGNS


@pytest.mark.parametrize(
    "path", sorted(p for p in SRC.rglob("*.py") if p != SRC / "grammar" / "rfc.py")
)
def test_no_module_spells_the_scheme_class_out(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for lineno, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#") or line.strip() in _SPELLED_ON_PURPOSE:
            continue
        bodies = _CLASS.findall(line)
        assert not any(map(_is_scheme_class, bodies)), f"{path.name}:{lineno}: {line.strip()}"


def test_the_spelled_class_check_finds_the_old_copies() -> None:
    # The four copies the scheme patterns were before (the check would find them).
    for old in (
        r"[A-Za-z][A-Za-z0-9+.\-]{0,63}",
        r"([A-Za-z][A-Za-z0-9+.\-]{0,31}):",
        r"[A-Za-z][A-Za-z0-9+.\-]*:",
        r"[a-zA-Z0-9+\-.]++",
    ):
        assert any(map(_is_scheme_class, _CLASS.findall(old))), old


def test_scheme_name_is_built_from_the_one_class() -> None:
    assert f"[{_grammar.SCHEME_CHARS}]++" == _grammar.SCHEME
    assert _context.scheme_name(_context.MAX_SCHEME_LENGTH) == _context.SCHEME
    one = re.compile(_context.scheme_name() + r"\Z")
    for name in ("http", "git+ssh", "z39.50", "A", "a" * _context.MAX_SCHEME_LENGTH):
        assert one.match(name), name
    for name in ("1a", "+a", "a_b", "", "a" * (_context.MAX_SCHEME_LENGTH + 1)):
        assert not one.match(name), name
    autolink = re.compile(_context.scheme_name(32, 2) + r"\Z")
    assert [bool(autolink.match("a" * n)) for n in (1, 2, 32, 33)] == [False, True, True, False]
    assert re.compile(_context.scheme_name(None) + r"\Z").match("a" * 1000)


def test_lint_reads_a_configured_long_scheme_in_a_markdown_link() -> None:
    # Document links used a 32-character scheme bound of their own, so a Markdown link to
    # a configured scheme of 33 to 64 characters (the scanner's bound) was taken for a
    # relative path (a local link, checked as a missing file) and its URL for a bare one.
    scheme = "x" * 40
    text = f"see [it]({scheme}:thing) and {scheme}:other\n"
    found = extract_document(text, "doc.md", "markdown", ExtractOptions(schemes=(scheme,)))
    assert [(f.url, f.origin) for f in found.findings] == [
        (f"{scheme}:thing", "markdown-link"),
        (f"{scheme}:other", "bare"),
    ]
    assert found.local_links == ()


# --- quote prefixes -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "key", "rest"),
    [
        ("> http://x/", ">", "http://x/"),
        (">> a", ">>", "a"),
        ("> > a", ">>", "a"),
        ("  >\t> a", ">>", "a"),
        ("> > a", ">", "> > a"),  # another speaker: left as it is
        (">a", ">>", ">a"),
        ("a > b", ">", "a > b"),
        ("    > a", ">", "    > a"),  # four spaces: an indented line, not a prefix
    ],
)
def test_strip_quote_prefix(line: str, key: str, rest: str) -> None:
    assert _context.strip_quote_prefix(line, key) == rest


# Lines of quoted mail around URLs that continue on the next line (hyphen breaks,
# wrappers, client wraps), with prefixes of one and of other speakers.
_PREFIXES = st.sampled_from(["", "> ", ">> ", "> > ", "   > ", "    > ", ">", "\t> "])
_CONTENT = st.sampled_from(
    [
        " ",
        "http://example.org/a-",
        "<URL:ftp://x.example/a",
        "<http://y.example/",
        ">",
        "b/c.html",
        "path-",
        "word",
        "http://example.org/" + "p" * 40,
    ]
)
_QUOTED_MAIL = st.lists(
    st.tuples(_PREFIXES, st.lists(_CONTENT, max_size=4).map("".join)).map("".join),
    max_size=10,
).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(_QUOTED_MAIL)
def test_continuation_lines_carry_the_first_lines_prefix_or_none(text: str) -> None:
    # What makes strip_quote_prefix the rejoiner's rule: a continuation line the scanner
    # takes into a span starts with the first line's quote prefix (by key), or with none.
    scanner = Scanner()
    for candidate in scanner.feed(text) + scanner.close():
        if not candidate.quote_prefix:
            continue
        key = _context.quote_key(candidate.quote_prefix)
        for line in candidate.body.split("\n")[1:]:
            m = _context.QUOTE_PREFIX_RE.match(line)
            assert m is None or _context.quote_key(m.group()) == key, (text, candidate)


# --- import direction -----------------------------------------------------------------

# Module -> the modules of this group it may import (the one-way order of the core).
_ORDER = {
    "grammar.rfc": set(),
    "grammar.context": {"grammar.rfc"},
    "extraction.textbuffer": {"grammar.context"},
    "extraction.wrap": {"grammar.context"},
    "extraction.scanner": {"grammar.context", "extraction.textbuffer", "extraction.wrap"},
    "extraction.rejoin": {"grammar.context"},
}


def _package_imports(name: str) -> set[str]:
    path = SRC.joinpath(*name.split(".")).with_suffix(".py")
    return urlsift_imports(path, SRC) & set(_ORDER)


@pytest.mark.parametrize("name", sorted(_ORDER))
def test_core_grammar_modules_import_one_way(name: str) -> None:
    assert _package_imports(name) <= _ORDER[name]


def test_no_import_circle_between_context_scanner_rejoin() -> None:
    graph = {name: _package_imports(name) for name in _ORDER}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph[start]:
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert not [name for name in graph if reaches(name, name, set())]
    assert "extraction.scanner" not in graph["extraction.rejoin"]


# -- the colon trigger against a plain reading of its rule ------------------------------------

_WORD_CHARS = "aAbBsSx+-.1"


def _reference_words(text: str, names: list[str]) -> list[tuple[int, str]]:
    # Each colon preceded by a configured word (ASCII case-insensitive) that does not
    # continue a word or end a path (no letter, digit, "." or "/" before it), or, for all
    # but "url", that
    # follows a "." or digit with "//" after the colon (glue); the longest word first when
    # one word ends another, as compile_patterns orders them.
    longest_first = any(len(a) < len(b) and b.endswith(a) for a in names for b in names)
    order = sorted(names, key=len, reverse=longest_first)
    found = []
    for t, char in enumerate(text):
        if char != ":":
            continue
        before = text[:t].lower()
        plain = [
            w
            for w in order
            if before.endswith(w)
            and not re.match(r"[a-zA-Z0-9./]", text[t - len(w) - 1 : t - len(w)])
        ]
        glued = [
            w
            for w in order
            if w != "url"
            and before.endswith(w)
            and re.fullmatch(r"[.0-9]", text[t - len(w) - 1 : t - len(w)])
            and text.startswith("//", t + 1)
        ]
        if plain or glued:
            found.append((t, (plain or glued)[0]))
    return found


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(alphabet="abs+-.1", min_size=1, max_size=5), min_size=1, max_size=4),
    st.data(),
)
def test_the_colon_trigger_finds_what_its_rule_says(raw: list[str], data: st.DataObject) -> None:
    # The letter pre-test (the last three letters of the words) and the per-length
    # look-behinds only make the search faster: every colon the rule accepts is found,
    # with its word, whatever the configured names' lengths and endings. The text is made
    # of the names (in any case), "url", colons, "//" and single characters.
    names = sorted({name for name in raw if name[0].isalpha()} | {"url"})
    pieces = st.one_of(
        st.sampled_from(names).map(str.upper),
        st.sampled_from(names),
        st.sampled_from([":", "://", "//", " ", "\n"]),
        st.text(alphabet=_WORD_CHARS, min_size=1, max_size=2),
    )
    text = "".join(data.draw(st.lists(pieces, max_size=24)))
    patterns = _context.compile_patterns(tuple(n for n in names if n != "url"), 4096)
    found = [
        (m.start(), m[m.lastindex or 0].lower()) for m in patterns.colon_trigger.finditer(text)
    ]
    assert found == _reference_words(text, names)


def test_url_alone_as_scheme_gives_no_glue_branch() -> None:
    # With "url" the only scheme there are no glued words: the trigger must not fire at
    # every "url://" after a letter (it once matched an empty glue branch: "l://q").
    scanner = Scanner(["url"])
    found = scanner.feed("see url://x.y Xurl://q .url://z and URL:http://a.b/ ") + scanner.close()
    assert [c.raw for c in found] == ["URL:http://a.b/"]


def test_white_space_is_what_str_isspace_and_re_s_call_white_space() -> None:
    # BARE_STOP spells white space out (a class of characters compiles to one lookup
    # table, `\s` is tested apart): the same characters as `\s` and str.isspace, so a
    # Python whose Unicode tables differ would fail here, not scan differently.
    spelled = re.compile(f"[{_context.WHITE_SPACE}]")
    category = re.compile(r"\s")
    for code in range(0x110000):
        char = chr(code)
        assert (spelled.match(char) is not None) == char.isspace(), hex(code)
        assert (category.match(char) is not None) == char.isspace(), hex(code)
