"""Property tests: URLs generated from the RFC 1738 grammar validate; one broken rule fails.

Generators build each scheme's URL from its §5 productions (user, password, host, port,
paths, ...), so every generated URL must be valid, with the generated components as its
parts. Mutators then break exactly one rule and the validator must name it. A
differential test feeds strings assembled from URL-ish tokens to both the validator (under
``Policy(strict=True)``) and the compiled full-URL grammar: they must agree.
"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from urlsift._model import Policy
from urlsift.grammar import rfc as g
from urlsift.validation.rules import Validation, validate
from urlsift.validation.schemes import default_registry

STRICT = Policy(strict=True)
FAST = settings(max_examples=60, deadline=None)

ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGIT = "0123456789"
ALPHADIGIT = ALPHA + DIGIT
UNRESERVED = ALPHADIGIT + "$-_.+" + "!*'(),"
HEXDIGITS = "0123456789ABCDEFabcdef"

# escape = "%" hex hex (not CR, LF or NUL: those add an encoded-control warning)
escape = (
    st.tuples(st.sampled_from(HEXDIGITS), st.sampled_from(HEXDIGITS))
    .map(lambda h: "%" + h[0] + h[1])
    .filter(lambda e: e.lower() not in ("%0d", "%0a", "%00"))
)


def chars(extra: str, *, min_size: int = 0, max_size: int = 12) -> st.SearchStrategy[str]:
    """*[ uchar | extra... ]: unreserved characters, escapes and the rule's extras."""
    item = st.one_of(st.sampled_from(UNRESERVED + extra), escape)
    return st.lists(item, min_size=min_size, max_size=max_size).map("".join)


def label(first: str) -> st.SearchStrategy[str]:
    """domainlabel / toplabel: first char from ``first``, inner hyphens, alphadigit end."""
    inner = st.text(ALPHADIGIT + "-", max_size=6)
    return st.tuples(st.sampled_from(first), inner, st.sampled_from(ALPHADIGIT)).map(
        lambda t: t[0] + t[1] + t[2]
    ) | st.sampled_from(first)


# hostname = *[ domainlabel "." ] toplabel
hostname = st.tuples(st.lists(label(ALPHADIGIT), max_size=3), label(ALPHA)).map(
    lambda t: ".".join([*t[0], t[1]])
)
# hostnumber = digits "." digits "." digits "." digits (kept in 0-255: no range warning)
hostnumber = st.lists(st.integers(0, 255), min_size=4, max_size=4).map(
    lambda n: ".".join(map(str, n))
)
host = st.one_of(hostname, hostnumber)
user = chars(";?&=")
password = chars(";?&=", min_size=1)
fsegment = chars("?:@&=")
hsegment = chars(";:@&=")
search = chars(";:@&=")
xchars = chars(g.RESERVED)
xchars_no_tab = xchars.filter(lambda s: "%09" not in s)
group = st.tuples(st.sampled_from(ALPHA), st.text(ALPHADIGIT + "-.+_", max_size=10)).map("".join)
path = st.lists(fsegment, min_size=1, max_size=4).map("/".join)
hpath = st.lists(hsegment, min_size=1, max_size=4).map("/".join)


def parts_of(result: Validation) -> dict[str, str]:
    return dict(result.parts)


def codes(result: Validation) -> set[str]:
    return {d.code for d in result.defects}


def assert_valid(url: str) -> Validation:
    result = validate(url, policy=STRICT)
    assert result.valid, (url, result.defects)
    assert g.URL_PATTERNS.get(result.scheme, g.URL_PATTERNS[""]).fullmatch(url), url
    return result


# --- generated valid URLs, one test per scheme ------------------------------------------


@FAST
@given(
    st.one_of(st.none(), st.tuples(user, st.one_of(st.none(), password))),
    host,
    st.one_of(st.none(), st.just(21)),
    st.one_of(st.none(), path),
    st.one_of(st.none(), st.sampled_from("aidAID")),
)
def test_ftp_generated(
    login: tuple[str, str | None] | None,
    h: str,
    port: int | None,
    p: str | None,
    ftptype: str | None,
) -> None:
    userinfo = (
        "" if login is None else login[0] + ("" if login[1] is None else ":" + login[1]) + "@"
    )
    url = f"ftp://{userinfo}{h}" + ("" if port is None else f":{port}")
    if p is not None:
        url += "/" + p + ("" if ftptype is None else ";type=" + ftptype)
    result = assert_valid(url)
    parts = parts_of(result)
    assert parts["host"] == h
    if login is not None:
        assert parts["user"] == login[0]
        if login[1] is not None:
            assert parts["password"] == login[1]
            assert "password-in-url" in codes(result)
    if p is not None:
        assert parts["path"] == p
        if ftptype is not None:
            assert parts["type"] == ftptype


@FAST
@given(host, st.one_of(st.none(), hpath), st.one_of(st.none(), search), st.booleans())
def test_http_generated(h: str, p: str | None, q: str | None, secure: bool) -> None:
    scheme = "https" if secure else "http"
    url = f"{scheme}://{h}"
    if p is not None:
        url += "/" + p + ("" if q is None else "?" + q)
    result = assert_valid(url)
    assert not result.defects
    assert parts_of(result)["host"] == h


@FAST
@given(host, st.one_of(st.none(), path))
def test_file_generated(h: str, p: str | None) -> None:
    h = st_choice_empty_host(h)
    url = f"file://{h}/{p or ''}"
    result = assert_valid(url)
    assert parts_of(result)["path"] == (p or "")


def st_choice_empty_host(h: str) -> str:
    # file allows an empty host; use it for hosts of one character.
    return "" if len(h) == 1 else h


@FAST
@given(
    host,
    st.one_of(st.none(), st.sampled_from(ALPHADIGIT + "+?/")),
    xchars_no_tab,
    st.one_of(st.none(), xchars_no_tab),
    st.one_of(st.none(), xchars),
)
def test_gopher_generated(
    h: str, gtype: str | None, selector: str, q: str | None, plus: str | None
) -> None:
    url = f"gopher://{h}/"
    if gtype is not None:
        url += gtype + selector
        if q is not None:
            url += "%09" + q + ("" if plus is None else "%09" + plus)
    result = assert_valid(url)
    if gtype is not None:
        assert parts_of(result)["gtype"] == gtype


@FAST
@given(chars(g.RESERVED, max_size=8), host)
def test_mailto_generated(local: str, domain: str) -> None:
    assume("%40" not in local.lower())
    result = assert_valid(f"mailto:{local}@{domain}")
    assert not result.defects


@FAST
@given(st.one_of(group, st.just("*"), st.tuples(chars(";/?:&=", min_size=1), host)))
def test_news_generated(grouppart: str | tuple[str, str]) -> None:
    text = grouppart if isinstance(grouppart, str) else f"{grouppart[0]}@{grouppart[1]}"
    result = assert_valid(f"news:{text}")
    assert next(iter(parts_of(result).values())) == text


@FAST
@given(host, group, st.one_of(st.none(), st.integers(0, 10**9)))
def test_nntp_generated(h: str, grp: str, article: int | None) -> None:
    url = f"nntp://{h}/{grp}" + ("" if article is None else f"/{article}")
    result = assert_valid(url)
    assert parts_of(result)["group"] == grp


@FAST
@given(st.one_of(st.none(), st.tuples(user, st.one_of(st.none(), password))), host, st.booleans())
def test_telnet_generated(login: tuple[str, str | None] | None, h: str, slash: bool) -> None:
    userinfo = (
        "" if login is None else login[0] + ("" if login[1] is None else ":" + login[1]) + "@"
    )
    assert_valid(f"telnet://{userinfo}{h}" + ("/" if slash else ""))


@FAST
@given(host, chars(""), st.one_of(st.none(), search, st.tuples(chars(""), chars(""))))
def test_wais_generated(h: str, db: str, rest: str | tuple[str, str] | None) -> None:
    url = f"wais://{h}/{db}"
    if isinstance(rest, str):
        url += "?" + rest
    elif rest is not None:
        url += f"/{rest[0]}/{rest[1]}"
    result = assert_valid(url)
    assert parts_of(result)["database"] == db


@FAST
@given(
    host,
    st.lists(chars("?:@&="), min_size=1, max_size=3).map("/".join),
    st.lists(st.tuples(chars("?:@&"), chars("?:@&")), max_size=3),
)
def test_prospero_generated(h: str, ppath: str, fields: list[tuple[str, str]]) -> None:
    url = f"prospero://{h}/{ppath}" + "".join(f";{n}={v}" for n, v in fields)
    result = assert_valid(url)
    assert parts_of(result)["path"] == ppath


@FAST
@given(st.text("abcdefghijklmnopqrstuvwxyz0123456789+-.", min_size=1, max_size=8), xchars)
def test_generic_generated(scheme: str, schemepart: str) -> None:
    assume(scheme not in default_registry())  # schemes with a grammar of their own
    assert_valid(f"{scheme}:{schemepart}")


# --- mutations: break one rule, expect its code -----------------------------------------

non_digits = st.text(ALPHA + "-+.", min_size=1, max_size=4)


@FAST
@given(host, non_digits, path)
def test_ftp_port_mutation(h: str, bad_port: str, p: str) -> None:
    result = validate(f"ftp://{h}:{bad_port}/{p}")
    assert not result.valid
    assert "bad-port" in codes(result)
    bad = next(d for d in result.defects if d.code == "bad-port")
    assert bad.offset == len(f"ftp://{h}:")


@FAST
@given(host, path, st.characters(codec="ascii").filter(lambda c: c not in "aidAID#"))
def test_ftp_type_mutation(h: str, p: str, ftptype: str) -> None:
    result = validate(f"ftp://{h}/{p};type={ftptype}")
    assert "bad-ftp-type" in codes(result)
    assert not result.valid


@FAST
@given(hostname, st.sampled_from(["-", "_x", ".", "..x", "-.x", ".1", ".x-"]))
def test_hostname_mutation(h: str, junk: str) -> None:
    result = validate(f"http://{h}{junk}/")
    assert codes(result) == {"bad-hostname"}


@FAST
@given(host, hpath, search, st.sampled_from("/?"))
def test_http_search_mutation(h: str, p: str, q: str, reserved: str) -> None:
    url = f"http://{h}/{p}?{q}{reserved}"
    result = validate(url)
    assert codes(result) == {"reserved-character"}
    assert result.defects[0].offset == len(url) - 1


@FAST
@given(user.filter(lambda u: "?" not in u), host)
def test_http_userinfo_mutation(u: str, h: str) -> None:
    # ("?" would end the host part early: http://host?search, a lenient finding.)
    assert "userinfo-not-allowed" in codes(validate(f"http://{u}@{h}/"))


@FAST
@given(host, hpath, st.integers(0, len(HEXDIGITS) - 1), st.sampled_from("gGz%/ "))
def test_escape_mutation(h: str, p: str, i: int, junk: str) -> None:
    url = f"http://{h}/{p}%{HEXDIGITS[i]}{junk}"
    result = validate(url)
    assert "bad-escape" in codes(result)
    assert next(d for d in result.defects if d.code == "bad-escape").offset == len(
        f"http://{h}/{p}"
    )


@FAST
@given(host, st.sampled_from(DIGIT), group)
def test_news_group_mutation(h: str, digit: str, grp: str) -> None:
    assert codes(validate(f"news:{digit}{grp}")) == {"bad-news-group"}
    assert codes(validate(f"nntp://{h}/{digit}{grp}")) == {"bad-news-group"}


@FAST
@given(host, group, st.integers(0, 999), non_digits)
def test_nntp_article_mutation(h: str, grp: str, n: int, junk: str) -> None:
    assert codes(validate(f"nntp://{h}/{grp}/{n}{junk}")) == {"bad-article-number"}


@FAST
@given(host, chars("", min_size=1))
def test_telnet_path_mutation(h: str, junk: str) -> None:
    assert codes(validate(f"telnet://{h}/{junk}")) == {"path-not-allowed"}


@FAST
@given(host, chars(""), chars(""))
def test_wais_wpath_mutation(h: str, db: str, wtype: str) -> None:
    assert codes(validate(f"wais://{h}/{db}/{wtype}")) == {"missing-wpath"}


@FAST
@given(host, chars("?:@&="), chars("?:@&", min_size=1))
def test_prospero_fieldspec_mutation(h: str, ppath: str, name: str) -> None:
    assert codes(validate(f"prospero://{h}/{ppath};{name}")) == {"bad-fieldspec"}


@FAST
@given(host, st.integers(1, 65535))
def test_file_port_mutation(h: str, port: int) -> None:
    assert codes(validate(f"file://{h}:{port}/x")) == {"port-not-allowed"}


@FAST
@given(
    st.sampled_from(["http", "ftp", "gopher", "nntp", "telnet", "wais", "prospero"]),
    host,
    st.integers(1, 65535),
)
def test_port_warnings(scheme: str, h: str, port: int) -> None:
    defaults = {
        "http": 80,
        "ftp": 21,
        "gopher": 70,
        "nntp": 119,
        "telnet": 23,
        "wais": 210,
        "prospero": 1525,
    }
    tail = {"nntp": "/g", "wais": "/db", "prospero": "/x"}.get(scheme, "/")
    result = validate(f"{scheme}://{h}:{port}{tail}")
    assert result.valid
    expected = (
        set()
        if port == defaults[scheme]
        else {"reserved-port"}
        if port < 1024
        else {"non-default-port"}
    )
    assert codes(result) & {"reserved-port", "non-default-port"} == expected


@FAST
@given(hostname.filter(lambda h: "." in h), hostname)
def test_deceptive_userinfo(fake: str, real: str) -> None:
    result = validate(f"ftp://{fake}@{real}/")
    assert "deceptive-userinfo" in codes(result)
    assert result.valid


# --- differential: validator under strict policy == compiled BNF ------------------------

TOKENS = [
    "a",
    "Z",
    "1",
    "0",
    "9",
    "x-y",
    ".",
    "-",
    "_",
    "+",
    "*",
    "!",
    "'",
    "~",
    " ",
    "[",
    "]",
    "%",
    "%41",
    "%2f",
    "%09",
    "%0",
    "%g1",
    "%0d",
    ":",
    "/",
    "//",
    "?",
    "@",
    ";",
    "=",
    "&",
    ";type=",
    ";TYPE=a",
    "d",
    "i",
    "localhost",
    "1.2.3.4",
    "300",
    "h.example",
    "a-",
    "-a",
    "\u00e9",
    "\t",
    "$",
    ",",
    "(",
    "*",
]
PREFIXES = [
    "http://",
    "https://",
    "HTTP://",
    "ftp://",
    "file://",
    "gopher://",
    "mailto:",
    "news:",
    "nntp://",
    "telnet://",
    "wais://",
    "prospero://",
    "foo:",
    "foo://",
    "x.y+z:",
    "",
    ":",
    "http:",
    "news:a@",
    "nntp://h/",
    "wais://h/db/",
    "prospero://h/x;",
    "ftp://u:p@h/",
]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(PREFIXES), st.lists(st.sampled_from(TOKENS), max_size=8).map("".join))
def test_validator_agrees_with_grammar(prefix: str, tail: str) -> None:
    url = prefix + tail
    result = validate(url, policy=STRICT)
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    pattern = g.URL_PATTERNS.get(scheme, g.URL_PATTERNS[""])
    assert result.valid == bool(pattern.fullmatch(url)), (url, result.defects)


# --- general properties -----------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.text(max_size=40)
    | st.sampled_from(PREFIXES).flatmap(lambda p: st.text(max_size=30).map(lambda t: p + t))
)
def test_never_raises_and_is_consistent(url: str) -> None:
    lenient = validate(url)
    strict = validate(url, policy=STRICT)
    for result in (lenient, strict):
        assert result.valid == all(d.severity == "warning" for d in result.defects)
        assert all(d.offset is not None and 0 <= d.offset <= len(url) for d in result.defects)
        offsets = [d.offset or 0 for d in result.defects]
        assert offsets == sorted(offsets)
    assert [d.code for d in lenient.defects] == [d.code for d in strict.defects]
    assert strict.valid <= lenient.valid
    assert lenient.fragment == (url.split("#", 1)[1] if "#" in url else None)
