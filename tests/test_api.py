"""The library API: extract, iter_urls, Scanner, records."""

from __future__ import annotations

import dataclasses
import inspect
import io

import pytest

import urlsift
from urlsift import ConfigError, Scanner, Url
from urlsift._model import MessageContext, TextUnit


def test_public_names() -> None:
    for name in ("extract", "iter_urls", "Scanner", "Url", "Defect", "Candidate", "rejoin"):
        assert name in urlsift.__all__
        assert hasattr(urlsift, name)


def test_extract_returns_frozen_slotted_records() -> None:
    (url,) = urlsift.extract("see http://a.example/ now")
    assert isinstance(url, Url)
    with pytest.raises(dataclasses.FrozenInstanceError):
        url.url = "x"  # type: ignore[misc]
    assert not hasattr(url, "__dict__")
    assert url.scheme == "http"
    assert url.source == "-"


def test_candidates_are_immutable_named_tuples() -> None:
    scanner = urlsift.Scanner()
    (candidate,) = scanner.feed("see <URL:http://a.example/> now") + scanner.close()
    assert isinstance(candidate, urlsift.Candidate)
    with pytest.raises(AttributeError):
        candidate.body = "x"  # type: ignore[misc]
    assert not hasattr(candidate, "__dict__")
    assert candidate._replace(body="x").body == "x"
    assert (candidate.kind, candidate.body, candidate.terminated) == (
        "wrapped",
        "http://a.example/",
        True,
    )


def test_iter_urls_takes_chunks_and_streams() -> None:
    text = "a <URL:ftp://h.example/x\n y> b http://c.example/\n"
    expected = [u.url for u in urlsift.extract(text)]
    assert [u.url for u in urlsift.iter_urls(iter(text))] == expected
    assert [u.url for u in urlsift.iter_urls(io.StringIO(text))] == expected
    assert next(u.url for u in urlsift.iter_urls([text], source="mem")) == "ftp://h.example/xy"


def test_iter_urls_is_lazy() -> None:
    def chunks() -> object:
        yield "http://a.example/ " * 10000
        raise AssertionError("read past the first URLs")

    first = next(iter(urlsift.iter_urls(chunks())))  # type: ignore[arg-type]
    assert first.url == "http://a.example/"


def test_iter_urls_rejects_a_plain_string() -> None:
    with pytest.raises(TypeError):
        urlsift.iter_urls("http://a.example/")
    with pytest.raises(TypeError):
        urlsift.extract(b"http://a.example/")  # type: ignore[arg-type]


def test_schemes_are_configurable_per_call() -> None:
    text = "irc://irc.example/chan http://a.example/"
    assert [u.url for u in urlsift.extract(text, schemes=["irc"])] == ["irc://irc.example/chan"]
    assert [u.url for u in urlsift.extract(text)] == ["http://a.example/"]


@pytest.mark.parametrize("bad", [["1http"], [""], ["ht tp"], []])
def test_bad_scheme_configuration_raises_config_error(bad: list[str]) -> None:
    with pytest.raises(ConfigError) as info:
        urlsift.extract("x", schemes=bad)
    assert info.value.exit_code == 2


def test_scanner_rejects_feed_after_close_and_tiny_limits() -> None:
    scanner = Scanner()
    scanner.close()
    assert scanner.close() == []
    with pytest.raises(RuntimeError):
        scanner.feed("x")
    with pytest.raises(ConfigError):
        Scanner(max_url_length=1)


def test_scanner_instances_do_not_share_state() -> None:
    one, two = Scanner(["irc"]), Scanner()
    assert one.schemes == ("irc",)
    assert "irc" not in two.schemes


def test_to_dict_and_fragment() -> None:
    (url,) = urlsift.extract("<URL:http://a.example/p#sec-2>")
    data = url.to_dict()
    assert data["url"] == "http://a.example/p#sec-2"
    assert data["fragment"] == "sec-2"
    assert data["kind"] == "wrapped"
    assert data["defects"] == []


def test_validate_is_a_library_function() -> None:
    result = urlsift.validate("ftp://host:21x/a;type=q")
    assert isinstance(result, urlsift.Validation)
    assert not result.valid
    assert [(d.code, d.offset) for d in result.defects] == [("bad-port", 13), ("bad-ftp-type", 22)]
    assert urlsift.validate("http://www.example.com/").valid


def test_wrapper_holding_only_quote_prefixes_reports_nothing() -> None:
    # Found by the scanner fuzzer: "<URL: \n>    >" closed on the next line's text after
    # its quote prefix, and the URL came out empty (like "<URL:>", it holds nothing).
    assert urlsift.extract("> a <URL: \n>    > b") == []
    assert urlsift.extract("> a <URL: \n> \n") == []
    found = urlsift.extract("> <URL:\n> http://a.example/>")
    assert [u.url for u in found] == ["http://a.example/"]


def test_judge_cache_is_bounded_and_changes_nothing() -> None:
    text = " ".join(f"http://h{i % 5}.example/~{i % 3} ftp://h.example/a-\nb" for i in range(40))
    scanner = urlsift.Scanner()
    candidates = scanner.feed(text) + scanner.close()
    uncached = urlsift.Judge(cache_size=0)
    small = urlsift.Judge(cache_size=3)
    for candidate in candidates:
        assert small(candidate) == uncached(candidate)
        assert len(small._cache) <= 3
        assert len(small._seen) <= 3
    assert not uncached._cache
    assert not uncached._seen


def test_judge_caches_a_verdict_from_its_second_sighting() -> None:
    scanner = urlsift.Scanner()
    candidates = scanner.feed("http://a.example/ http://b.example/ " * 3) + scanner.close()
    judge = urlsift.Judge()
    judge(candidates[0])
    judge(candidates[1])
    assert not judge._cache  # each seen once: nothing kept
    judge(candidates[2])
    assert list(judge._cache) == ["http://a.example/"]
    # The cached verdict gives the same record as a fresh judge.
    assert judge(candidates[4]) == urlsift.Judge(cache_size=0)(candidates[4])


@pytest.mark.parametrize("extra", [(), (urlsift.Defect("unknown-charset", "m", "warning"),)])
def test_judge_all_gives_what_judging_one_by_one_gives(extra: tuple[urlsift.Defect, ...]) -> None:
    # judge_all is the pipeline's loop with the one-reading path inline: every kind of
    # candidate (one reading, cached or not; wrapped over lines; hyphen alternatives;
    # unterminated) gives the record __call__ gives, with and without unit defects.
    text = (
        "http://a.example/ <URL:ftp://b.example/x\n  y> http://a.example/ "
        "<http://c.example/p-\nq> URL:news:comp.lang <URL:http://open.example/\n\n"
        "http://e.example:80/~u#f mailto:x@y.example\n"
    ) * 3
    scanner = urlsift.Scanner()
    candidates = scanner.feed(text) + scanner.close()
    context = MessageContext(message=3, message_offset=10)
    one_by_one = urlsift.Judge()
    expected = [one_by_one(c, source="s", context=context, extra_defects=extra) for c in candidates]
    got = urlsift.Judge().judge_all(candidates, source="s", context=context, extra_defects=extra)
    assert got == expected
    assert {u.kind for u in got} == {"bare", "wrapped", "angle", "prefixed"}


@pytest.mark.parametrize("record", [Url, MessageContext, TextUnit])
def test_a_record_init_takes_the_dataclass_parameters(record: type) -> None:
    # The records made per URL or per part set each slot directly (urlsift._record):
    # same parameters, defaults and results as the dataclass __init__, still frozen.
    specs = dataclasses.fields(record)
    params = list(inspect.signature(record.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in specs]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in specs
    ]
    values = {f.name: f"value of {f.name}" for f in specs}
    made = record(**values)
    assert dataclasses.asdict(made) == values
    assert record(*values.values()) == made
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, specs[0].name, "x")
