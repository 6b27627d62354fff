"""``urlsift.normalize``: the fixtures in corpora/normalize, properties, and the records."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import urlsift
from urlsift.cli import main
from urlsift.validation.normalize import _normalize, normalize

from _fixtures import columns as fixture_columns

FIXTURES = Path(__file__).resolve().parent.parent / "corpora" / "normalize"


@dataclass(frozen=True)
class Pair:
    file: str
    number: int
    first: str
    second: str

    @property
    def id(self) -> str:
        return f"{self.file}:{self.number}"


def _load(name: str) -> list[Pair]:
    # Two columns and a note at most.
    return [
        Pair(name, number, cells[0], cells[1])
        for number, cells in fixture_columns(FIXTURES / name, (2, 3))
    ]


EQUIVALENCES = _load("equivalences.txt")
DIFFERENT = _load("different.txt")


@pytest.mark.parametrize("case", EQUIVALENCES, ids=lambda c: c.id)
def test_normal_form_fixture(case: Pair) -> None:
    expected = case.first if case.second == "=" else case.second
    assert normalize(case.first) == expected
    assert normalize(expected) == expected


@pytest.mark.parametrize("case", DIFFERENT, ids=lambda c: c.id)
def test_different_fixture(case: Pair) -> None:
    assert normalize(case.first) != normalize(case.second)


def test_fixture_files_hold_cases() -> None:
    assert len(EQUIVALENCES) > 80
    assert len(DIFFERENT) > 20
    verbatim = (FIXTURES / "equivalences.txt").read_text(encoding="utf-8").count("verbatim:")
    assert verbatim >= 10


def test_unchanged_url_is_returned_as_is() -> None:
    # The records share the string: no copy per URL when nothing changes.
    for url in ("http://example.com/x", "mailto:a@b.example", "no scheme", ""):
        assert normalize(url) is url


def test_a_port_too_long_for_int_is_compared_as_text() -> None:
    # int() refuses strings of more than 4,300 digits: normalize() must not raise.
    for scheme in ("http", "HTTP"):
        zeros = f"{scheme}://h:{'0' * 5000}80/"
        assert normalize(zeros) == "http://h/"
        nines = f"{scheme}://h:{'9' * 5000}/"
        assert normalize(nines) == "http://h:" + "9" * 5000 + "/"


# ---------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------

# Text that looks like URLs: every delimiter normalize() looks at, hex digits, letters in
# both cases, non-ASCII and lone surrogates.
_URLISH = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("%:/@?#[].,;=&~\"'-_+!*HhTtPpSsAaFf0123789 \t\n\xe9\u0130\udc80")),
        st.characters(),
    ),
    max_size=40,
)
_PREFIXES = st.sampled_from(
    ["", "http://", "HTTP://", "https://", "ftp://", "gopher://", "telnet://", "file://",
     "nntp://", "wais://", "prospero://", "mailto:", "MailTo:", "news:", "x-y://", "a:"]
)  # fmt: skip


@given(_PREFIXES, _URLISH)
def test_never_raises_and_is_a_fixed_point(prefix: str, rest: str) -> None:
    once = normalize(prefix + rest)
    assert isinstance(once, str)
    assert normalize(once) == once


@given(st.text(max_size=60))
def test_any_text_is_a_fixed_point(text: str) -> None:
    assert normalize(normalize(text)) == normalize(text)


def _random_case(draw: st.DrawFn, text: str) -> str:
    flips = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    return "".join(c.upper() if flip else c for c, flip in zip(text, flips, strict=True))


_LABEL = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=10)
_PATH = st.text(alphabet="abcXYZ019-._~/;=&?#$!*'(),+", max_size=20)


@st.composite
def _case_variants(draw: st.DrawFn) -> tuple[str, str]:
    """A URL with a //host and the same URL with scheme, host and escapes in other cases."""
    scheme = draw(st.sampled_from(["http", "https", "ftp", "gopher", "telnet", "x-y"]))
    host = ".".join(draw(st.lists(_LABEL, min_size=1, max_size=4)))
    escape = draw(st.sampled_from(["", "%2f", "%7e", "%3a", "%c3%a9", "%41"]))
    path = draw(_PATH)
    url = f"{scheme}://{host}/{escape}{path}"
    variant = (
        f"{_random_case(draw, scheme)}://{_random_case(draw, host)}/"
        f"{_random_case(draw, escape)}{path}"
    )
    return url, variant


@given(_case_variants())
def test_case_variants_of_scheme_host_and_escapes_are_equal(pair: tuple[str, str]) -> None:
    url, variant = pair
    assert normalize(variant) == normalize(url)


@given(
    st.sampled_from(["mailto:", "MAILTO:", "Mailto:"]),
    st.text(alphabet="abcXYZ.-_+", min_size=1, max_size=10),
    st.lists(_LABEL, min_size=1, max_size=3).map(".".join),
    st.data(),
)
def test_mailto_address_case_is_folded(
    scheme: str, local: str, domain: str, data: st.DataObject
) -> None:
    cased = data.draw(
        st.builds(
            lambda flips: "".join(
                c.upper() if flip else c for c, flip in zip(domain, flips, strict=False)
            ),
            st.lists(st.booleans(), min_size=len(domain), max_size=len(domain)),
        )
    )
    assert normalize(f"{scheme}{local}@{cased}") == f"mailto:{local.lower()}@{domain}"


@given(st.sampled_from(["http", "https", "ftp"]), _LABEL, _PATH)
def test_default_port_and_empty_port_are_dropped(scheme: str, host: str, path: str) -> None:
    port = {"http": 80, "https": 443, "ftp": 21}[scheme]
    plain = normalize(f"{scheme}://{host}/{path}")
    assert normalize(f"{scheme}://{host}:{port}/{path}") == plain
    assert normalize(f"{scheme}://{host}:/{path}") == plain
    assert normalize(f"{scheme}://{host}:{port + 1}/{path}") != plain


_SHAPES = st.tuples(
    st.sampled_from(["http", "https", "ftp", "gopher", "telnet", "nntp", "wais", "prospero",
                     "file", "mailto", "news", "x-y", "HTTP"]),
    st.sampled_from([":", "://"]),
    st.sampled_from(["", "u@", "U:P@", "a@b@", "%41@"]),
    st.sampled_from(["h.example", "H.example", "localhost", "", "h%2e", "[::1]"]),
    st.sampled_from(["", ":", ":80", ":080", ":21", ":70", ":8080", ":1525", ":x"]),
    st.sampled_from(["", "/", "/1", "/1#f", "/11", "/./a", "/a/..", "/.x", "/a%7e", "?q", "#f"]),
    st.text(alphabet="aZ/.:@?#%1,\"=&", max_size=8),
)  # fmt: skip


@given(_SHAPES)
def test_the_shortcut_agrees_with_the_full_path(shape: tuple[str, ...]) -> None:
    # normalize() returns URLs that look normal at once; they must be normal indeed.
    url = "".join(shape)
    assert normalize(url) == _normalize(url)


@given(
    st.sampled_from(["mailto:", "Mailto:", "MAILTO:", "mAiLtO:", "ma\u0131lto:"]),
    st.text(alphabet='aZ\u00e9,"%@.?#-_/:K\u212a', max_size=12),
    st.sampled_from(["@", "@@", ""]),
    st.text(alphabet="aZ.-\u00e9", max_size=8),
)
def test_the_mailto_shortcut_agrees_with_the_full_path(
    scheme: str, local: str, at: str, domain: str
) -> None:
    # A mailto of one address in any case is lowered at once (_MAILTO_ONE); the full path
    # must agree, also where the shortcut does not apply (a list, a quote, an escape).
    url = scheme + local + at + domain
    assert normalize(url) == _normalize(url)


@pytest.mark.parametrize("case", EQUIVALENCES + DIFFERENT, ids=lambda c: c.id)
def test_the_shortcut_agrees_on_the_fixtures(case: Pair) -> None:
    for url in (case.first, case.second):
        assert normalize(url) == _normalize(url)


# ---------------------------------------------------------------------------------------
# Records, formats and the command line
# ---------------------------------------------------------------------------------------

_VARIANTS_TEXT = (
    "see http://www.mips.com and HTTP://WWW.MIPS.COM:80/ and http://www.mips.com/\n"
    "<mailto:usrp-users@lists.ettus.com> <mailto:USRP-users@lists.ettus.com>\n"
    "Mailto:carstenl@mips.com mailto:carstenl@MIPS.com http://www.mips.com/x\n"
)


def test_records_carry_url_as_written_and_its_normal_form() -> None:
    found = urlsift.extract(_VARIANTS_TEXT)
    assert [(u.url, u.normalized) for u in found] == [
        ("http://www.mips.com", "http://www.mips.com/"),
        ("HTTP://WWW.MIPS.COM:80/", "http://www.mips.com/"),
        ("http://www.mips.com/", "http://www.mips.com/"),
        ("mailto:usrp-users@lists.ettus.com", "mailto:usrp-users@lists.ettus.com"),
        ("mailto:USRP-users@lists.ettus.com", "mailto:usrp-users@lists.ettus.com"),
        ("Mailto:carstenl@mips.com", "mailto:carstenl@mips.com"),
        ("mailto:carstenl@MIPS.com", "mailto:carstenl@mips.com"),
        ("http://www.mips.com/x", "http://www.mips.com/x"),
    ]
    assert found[0].to_dict()["normalized"] == "http://www.mips.com/"


def test_a_cached_verdict_gives_the_same_normal_form() -> None:
    judge = urlsift.Judge()
    scanner = urlsift.Scanner()
    candidates = scanner.feed("HTTP://A.example " * 4) + scanner.close()
    made = [judge(c) for c in candidates]
    assert judge._cache  # the later ones came from the cache
    assert {u.normalized for u in made} == {"http://a.example/"}


def test_a_promoted_reading_is_the_one_normalized() -> None:
    # A port broken as "80-"/"80": only the joined reading is valid and becomes the URL.
    (url,) = urlsift.extract("<URL:HTTP://H.example:80-\n80/x>")
    assert url.url == "HTTP://H.example:8080/x"
    assert url.normalized == "http://h.example:8080/x"


def _scan(*args: str, text: str = _VARIANTS_TEXT) -> str:
    result = CliRunner().invoke(main, ["scan", *args, "-"], input=text)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_jsonl_records_always_carry_normalized() -> None:
    rows = [json.loads(line) for line in _scan("--format", "jsonl").splitlines()]
    assert all("normalized" in row for row in rows)
    assert rows[1]["url"] == "HTTP://WWW.MIPS.COM:80/"
    assert rows[1]["normalized"] == "http://www.mips.com/"
    assert list(rows[0])[:3] == ["url", "normalized", "alternatives"]


def test_csv_has_a_normalized_column() -> None:
    rows = list(csv.DictReader(io.StringIO(_scan("--format", "csv"))))
    assert [r["normalized"] for r in rows][:3] == ["http://www.mips.com/"] * 3
    assert rows[1]["url"] == "HTTP://WWW.MIPS.COM:80/"


def test_unique_keeps_the_first_spelling_of_each_normal_form() -> None:
    urls = [line.split(": ", 1)[1] for line in _scan("--unique").splitlines()]
    assert urls == [
        "http://www.mips.com",
        "mailto:usrp-users@lists.ettus.com",
        "Mailto:carstenl@mips.com",
        "http://www.mips.com/x",
    ]


def test_count_merges_equivalent_spellings_under_the_first_one() -> None:
    rows = [json.loads(line) for line in _scan("--count", "--format", "jsonl").splitlines()]
    assert [(r["url"], r["count"], r["normalized"], r["variants"]) for r in rows] == [
        (
            "http://www.mips.com",
            3,
            "http://www.mips.com/",
            ["HTTP://WWW.MIPS.COM:80/", "http://www.mips.com/"],
        ),
        (
            "mailto:usrp-users@lists.ettus.com",
            2,
            "mailto:usrp-users@lists.ettus.com",
            ["mailto:USRP-users@lists.ettus.com"],
        ),
        ("Mailto:carstenl@mips.com", 2, "mailto:carstenl@mips.com", ["mailto:carstenl@MIPS.com"]),
        ("http://www.mips.com/x", 1, "http://www.mips.com/x", []),
    ]


def test_count_text_and_csv_show_the_variants() -> None:
    first = _scan("--count").splitlines()[0]
    assert first.split()[:2] == ["3", "http://www.mips.com"]
    assert first.endswith("(also HTTP://WWW.MIPS.COM:80/ http://www.mips.com/)")
    rows = list(csv.DictReader(io.StringIO(_scan("--count", "--format", "csv"))))
    assert rows[0]["count"] == "3"
    assert rows[0]["normalized"] == "http://www.mips.com/"
    assert rows[0]["variants"] == "HTTP://WWW.MIPS.COM:80/ http://www.mips.com/"
    assert rows[-1]["variants"] == ""


def test_unique_and_count_agree_with_jobs(tmp_path: Path) -> None:
    # Worker processes send records back pickled: the normal form travels with them.
    path = tmp_path / "a.txt"
    path.write_text(_VARIANTS_TEXT * 50, encoding="utf-8")
    one = CliRunner().invoke(main, ["scan", "--count", str(path)]).stdout
    two = CliRunner().invoke(main, ["scan", "--count", "-j", "2", str(path)]).stdout
    assert one == two
    assert one.split()[:2] == ["150", "http://www.mips.com"]
