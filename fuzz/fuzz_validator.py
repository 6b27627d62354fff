"""Fuzz harness: the RFC 1738 validator on arbitrary text.

Input layout: the whole input, decoded as UTF-8 with ``surrogateescape``, is one URL; its
lines are also validated together as the readings of one URL.

Invariants (anything else is a finding):

* :func:`urlsift.validate` never raises, under the default and the strict policy;
* ``valid`` iff no defect is an error; defects are ordered by offset and each offset lies
  within the URL (``0 <= offset <= len(url)``); codes are stable kebab-case names;
* the result echoes the URL, its scheme is lower case, its fragment is what follows the
  first ``#``, its parts are pairs of strings, and ``to_dict`` is JSON-ready;
* the strict policy reports the same codes and never accepts what the lenient one rejects;
* validating the same string twice (or with a shared registry) gives equal results;
* :func:`urlsift.validate_readings` picks the only valid reading, or the first, and
  returns the same validations as :func:`urlsift.validate` one by one;
* :func:`urlsift.validation.normalize` never raises, its result is a fixed point and at most one
  character longer than the URL (an empty path's "/"), and a URL without ``:`` comes
  back unchanged.

Run: ``python fuzz/fuzz_validator.py CORPUS_DIR fuzz/seeds/validator -dict=fuzz/validator.dict``
(see fuzz/README.md).
"""

from __future__ import annotations

import json
import re

# Run as a script, this folder is on sys.path; the tests put it there too.
from _harness import instrumented, run_atheris

with instrumented(__name__, ("urlsift",)):
    from urlsift import (
        Policy,
        Validation,
        default_registry,
        normalize,
        validate,
        validate_readings,
    )

_STRICT = Policy(strict=True)
_REGISTRY = default_registry()
_CODE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_MAX_READINGS = 8


def _check(url: str, result: Validation) -> None:
    assert result.url == url, result
    assert result.valid == (not any(d.severity == "error" for d in result.defects)), result
    offsets = [d.offset for d in result.defects]
    assert all(o is not None and 0 <= o <= len(url) for o in offsets), (url, result.defects)
    assert offsets == sorted(o or 0 for o in offsets), result.defects
    assert all(_CODE.fullmatch(d.code) for d in result.defects), result.defects
    assert result.scheme == result.scheme.lower(), result
    assert result.fragment == (url.split("#", 1)[1] if "#" in url else None), result
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in result.parts.items()), result
    json.dumps(result.to_dict())


def TestOneInput(data: bytes) -> None:  # noqa: N802 - the name atheris and libFuzzer use
    """Check the validator's invariants on one fuzz input (raises on a finding)."""
    url = data.decode("utf-8", "surrogateescape")
    lenient = validate(url)
    strict = validate(url, policy=_STRICT)
    _check(url, lenient)
    _check(url, strict)
    assert [d.code for d in strict.defects] == [d.code for d in lenient.defects], url
    assert strict.valid <= lenient.valid, url
    assert validate(url) == lenient, url
    assert validate(url, registry=_REGISTRY) == lenient, url

    readings = url.split("\n")[:_MAX_READINGS]
    index, results = validate_readings(readings, registry=_REGISTRY)
    assert results == tuple(validate(r) for r in readings), readings
    valid = [i for i, r in enumerate(results) if r.valid]
    assert index == (valid[0] if len(valid) == 1 else 0), (index, valid)

    normal = normalize(url)
    assert normalize(normal) == normal, (url, normal)
    assert len(normal) <= len(url) + 1, (url, normal)  # at most an empty path's "/"
    if ":" not in url:
        assert normal == url, (url, normal)


def main() -> None:
    """Run this harness under atheris; libFuzzer options come from the command line."""
    run_atheris(TestOneInput)


if __name__ == "__main__":
    main()
