"""Issue 15: ``Url.parts`` is a read-only, hashable mapping (:class:`urlsift.Parts`)."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Mapping

import pytest

import urlsift
from urlsift import Parts, extract, validate
from urlsift.output.formats import url_json


def test_parts_read_as_a_mapping() -> None:
    (url,) = extract("see http://Example.COM:8080/a/b?q=1 today")
    parts = url.parts
    assert isinstance(parts, Parts)
    assert isinstance(parts, Mapping)
    assert parts["host"] == "Example.COM"
    assert parts.get("port") == "8080"
    assert parts.get("user") is None
    assert "path" in parts
    assert "user" not in parts
    assert list(parts) == ["host", "port", "path", "search"]
    assert dict(parts) == {"host": "Example.COM", "port": "8080", "path": "a/b", "search": "q=1"}
    assert len(parts) == 4
    assert parts.pairs == (
        ("host", "Example.COM"),
        ("port", "8080"),
        ("path", "a/b"),
        ("search", "q=1"),
    )
    with pytest.raises(KeyError):
        parts["user"]


def test_parts_are_frozen_and_hashable() -> None:
    parts = validate("ftp://u:p@ftp.example.org/pub").parts
    assert isinstance(parts, Parts)
    with pytest.raises(AttributeError):
        parts._pairs = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        parts.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        parts["host"] = "x"  # type: ignore[index]
    assert hash(parts) == hash(Parts(parts.pairs))
    assert {parts, Parts(parts.pairs)} == {parts}
    (url,) = extract("ftp://u:p@ftp.example.org/pub")
    assert hash(url) == hash(copy.copy(url))  # the record stays hashable


def test_parts_compare_with_parts_mappings_and_the_old_tuple() -> None:
    pairs = (("host", "h.example"), ("path", "x"))
    parts = Parts(pairs)
    assert parts == Parts(list(pairs))
    assert parts == pairs  # what Url.parts was before
    assert parts == {"path": "x", "host": "h.example"}
    assert parts != {"host": "h.example"}
    assert parts != Parts(pairs[:1])
    assert parts != "host"
    assert not Parts()
    assert Parts() == {}


def test_a_repeated_name_keeps_its_first_place_and_last_value() -> None:
    parts = Parts((("a", "1"), ("b", "2"), ("a", "3")))
    assert list(parts) == ["a", "b"]
    assert parts["a"] == "3"
    assert len(parts) == 2
    assert dict(parts) == dict(parts.pairs)


def test_parts_pickle_and_json_are_unchanged() -> None:
    urls = extract("<URL:http://a.example:81/x#frag> mailto:joe@example.org bad:// x")
    again = pickle.loads(pickle.dumps(urls))
    assert again == urls
    assert all(type(u.parts) is Parts for u in again)
    for url in urls:
        assert json.loads(url_json(url)) == url.to_dict()
    assert urls[0].to_dict()["parts"] == {"host": "a.example", "port": "81", "path": "x"}
    assert repr(urls[1].parts) == "Parts({'address': 'joe@example.org'})"


def test_a_url_without_parts_has_the_empty_mapping() -> None:
    url = urlsift.Url("u", "u", (), "u", "bare", "", 0, 1, 1, 1, 1)
    assert url.parts == {}
    assert url.parts is urlsift._model.NO_PARTS
