"""The public API of the validator: Validation, validate_readings, registries, policy."""

from __future__ import annotations

import dataclasses
import json

import pytest

from urlsift._model import Defect, Policy
from urlsift.errors import ConfigError
from urlsift.validation.rules import Validation, validate, validate_readings
from urlsift.validation.schemes import (
    DEFAULT_MAX_DEFECTS_PER_CODE,
    GenericScheme,
    OpaqueScheme,
    SchemeContext,
    SchemeRegistry,
    default_registry,
)


def test_validation_is_frozen_and_slotted() -> None:
    result = validate("http://h/")
    assert not hasattr(result, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.valid = False  # type: ignore[misc]


def test_to_dict_is_json_ready() -> None:
    result = validate("http://u@h.example/#top")
    out = result.to_dict()
    assert json.loads(json.dumps(out)) == out
    assert out["fragment"] == "top"
    assert out["parts"] == {"user": "u", "host": "h.example", "path": ""}
    assert [d.code for d in result.defects] == ["userinfo-not-allowed"]
    assert out["defects"] == [d.to_dict() for d in result.defects]


def test_valid_iff_no_error() -> None:
    result = validate("ftp://u:p@h/")
    assert result.valid
    assert {d.severity for d in result.defects} == {"warning"}


def test_scheme_is_lower_case_or_empty() -> None:
    assert validate("HtTp://h/").scheme == "http"
    assert validate("no scheme here").scheme == ""
    assert validate("a_b:c").scheme == ""


def test_fragment_offsets_point_into_the_full_url() -> None:
    url = "http://h/a#b%zz"
    (defect,) = validate(url).defects
    assert defect.code == "bad-escape"
    assert url[defect.offset or 0] == "%"
    assert defect.offset == 12


def test_validate_rejects_non_str() -> None:
    with pytest.raises(TypeError):
        validate(b"http://h/")  # type: ignore[arg-type]


def test_readings_single_valid_alternative_becomes_primary() -> None:
    index, results = validate_readings(["http://h:80-80/", "http://h:8080/"])
    assert index == 1
    assert [r.valid for r in results] == [False, True]


@pytest.mark.parametrize(
    ("readings", "expected"),
    [
        (["http://h/a-b", "http://h/ab"], 0),  # both valid: keep the rejoiner's choice
        (["http://h/a b", "http://h/a%zz"], 0),  # none valid
        (["http://h/"], 0),
        (["bad url", "also bad", "http://h/"], 2),
    ],
)
def test_readings_otherwise_keep_first(readings: list[str], expected: int) -> None:
    assert validate_readings(readings)[0] == expected


def test_readings_need_at_least_one() -> None:
    with pytest.raises(ValueError, match="at least one"):
        validate_readings([])


def test_default_registry_is_fresh_each_time() -> None:
    first = default_registry()
    second = default_registry()
    assert first is not second
    first.register(OpaqueScheme("ftp", lambda ctx, s, e: None), replace=True)
    assert validate("ftp:anything", registry=first).valid
    assert not validate("ftp:anything", registry=second).valid
    assert not validate("ftp:anything").valid


def test_callers_without_a_registry_share_one_built_once() -> None:
    # validate() and Judge() given no registry use one registry, built once (building it
    # cost more than a validation); one given a registry keeps its own.
    from urlsift.api import Judge
    from urlsift.validation.schemes import shared_default_registry

    assert Judge()._registry is Judge()._registry is shared_default_registry()
    mine = default_registry()
    assert Judge(registry=mine)._registry is mine
    assert validate("http://a.example/").valid
    assert shared_default_registry() is not mine


def test_registry_names_and_lookup() -> None:
    registry = default_registry()
    assert list(registry) == sorted(
        [
            "file",
            "ftp",
            "gopher",
            "http",
            "https",
            "mailto",
            "news",
            "nntp",
            "prospero",
            "telnet",
            "wais",
        ]
    )
    assert len(registry) == 11
    assert "HTTP" in registry
    assert registry.lookup("NEWS").name == "news"
    assert isinstance(registry.lookup("x-unknown"), GenericScheme)
    copy = registry.copy()
    copy.register(OpaqueScheme("x-new", lambda ctx, s, e: None))
    assert "x-new" in copy
    assert "x-new" not in registry


def test_registry_rejects_duplicates_and_bad_names() -> None:
    registry = default_registry()
    with pytest.raises(ConfigError, match="already registered"):
        registry.register(OpaqueScheme("news", lambda ctx, s, e: None))
    with pytest.raises(ConfigError):
        registry.register(OpaqueScheme("bad name", lambda ctx, s, e: None))


def test_custom_scheme_reports_through_the_context() -> None:
    def body(ctx: SchemeContext, start: int, end: int) -> None:
        ctx.part("value", start, end)
        if ctx.url[start:end] != "ok":
            ctx.report("not-ok", start, 'x-test = "ok"')

    registry = SchemeRegistry([OpaqueScheme("x-test", body)])
    assert validate("x-test:ok", registry=registry).parts == (("value", "ok"),)
    bad = validate("X-TEST:no", registry=registry)
    assert bad.defects == (Defect("not-ok", 'x-test = "ok"', "error", 7),)


def test_defects_per_code_are_capped() -> None:
    url = "prospero://h/x" + ";a" * 1000
    result = validate(url)
    assert len([d for d in result.defects if d.code == "bad-fieldspec"]) == (
        DEFAULT_MAX_DEFECTS_PER_CODE
    )


def test_lexical_defects_are_grouped() -> None:
    url = "http://h/" + "".join(chr(0x100 + i) for i in range(500)) + " " * 3
    result = validate(url)
    assert [d.code for d in result.defects] == ["non-ascii-character", "unsafe-character"]
    assert "(500 such characters)" in result.defects[0].message


def test_policy_only_changes_lenient_findings() -> None:
    url = "http://h?x~"
    lenient = validate(url)
    strict = validate(url, policy=Policy(strict=True))
    assert [(d.code, d.severity) for d in lenient.defects] == [
        ("search-without-path", "warning"),
        ("unsafe-character", "warning"),
    ]
    assert [(d.code, d.severity) for d in strict.defects] == [
        ("search-without-path", "error"),
        ("unsafe-character", "error"),
    ]


def test_messages_name_the_rule() -> None:
    cases = {
        "ftp://h:x/": "port = digits",
        "ftp://h/a;type=q": 'ftptype = "A" | "I" | "D"',
        "news:1x": "group = alpha",
        "http://a..b/": "domainlabel =",
        "http://h/%x1": 'escape = "%" hex hex',
        "wais://h/d?a/b": "search = *[",
    }
    for url, rule in cases.items():
        messages = [d.message for d in validate(url).defects]
        assert any(rule in m for m in messages), (url, messages)


def test_results_are_values() -> None:
    assert validate("http://h/x") == validate("http://h/x")
    assert isinstance(validate("http://h/x"), Validation)
