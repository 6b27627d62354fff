"""Content-Type values read as the stdlib's ``Message`` reads them.

``parse.boundary_of`` (``get_boundary``), ``headers.text_params_of`` (``get_params``: the
charset, format=flowed, DelSp) and ``headers.content_type_of`` (``get_content_type``) read
the common shape (``type/subtype; name=value; ...``, values quoted without backslashes or
tokens) themselves (issue 26: every part of the fast path asks, and a scan of common
messages does not import the ``email`` package) and leave any other value (RFC 2231
parameters, escapes, angle brackets the stdlib strips, a bare ``boundary``, 8-bit
characters) to the stdlib. The tests hold the two to the same answer, or the same
exception, on values built from the pieces where they could differ.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift.sources.headers import (
    _SIMPLE_PARAMETERS,
    _text_params,
    content_type_of,
    message_of,
    text_params_of,
)
from urlsift.sources.parse import boundary_of

_VALUES = ['"abc"', "abc", '"a b "', '" a"', '""', '"<x>"', "<x>", '"a;b"', '"=_x=="', "=_x"]
_VALUES += ["'q'", '"<"', '">"', '"a\\"b"', 'x"y', '"a\nb"', '""x']
_VALUES += ['"UTF-8"', "ISO-8859-1", '" utf-8 "', "flowed", '"Flowed"', "yes", '"YES"', "no", ""]
_NAMES = ["boundary", "BOUNDARY", "Boundary", "charset", "boundary*", "boundary*0", "micalg"]
_NAMES += ["Charset", "charset*", "format", "FORMAT", "delsp", "DelSp", "delsp*0"]
PARAMETER = st.tuples(
    st.sampled_from([";", "; ", ";\n\t", " ;"]),
    st.sampled_from(_NAMES),
    st.sampled_from(["=", " = "]),
    st.sampled_from(_VALUES),
).map("".join)
_TYPES = ["multipart/mixed", " multipart/alternative ", "a/b/c", "multipart", "boundary"]
_TYPES += [
    "text/plain",
    "Text/PLAIN",
    " text/html",
    "text /plain",
    "text/",
    "/",
    "",
    "t\u00e9xt/plain",
    "text",  # a type without "/", or none: the parameters are read all the same
    " ",
    'a"b',
    '"text/plain"',
    "te;xt",
]
VALUE = st.tuples(
    st.sampled_from(_TYPES),
    st.lists(PARAMETER, max_size=4).map("".join),
    st.sampled_from(["", ";", " ", "; "]),
).map("".join)


def _answer(read: object, value: str) -> object:
    try:
        return read(value)  # type: ignore[operator]
    except Exception as exc:  # the stdlib raises on some RFC 2231 parameters
        return type(exc)


def _stdlib(value: str) -> str | None:
    return message_of([("Content-Type", value)]).get_boundary()


@settings(max_examples=1000, deadline=None)
@given(VALUE)
def test_boundary_as_the_stdlib_reads_it(value: str) -> None:
    boundary_of.cache_clear()
    assert _answer(boundary_of, value) == _answer(_stdlib, value)


def test_the_common_shape_is_read_without_the_stdlib() -> None:
    value = 'multipart/signed; micalg=pgp-sha1;\n\tprotocol="a/b"; boundary="=_a b "'
    assert _SIMPLE_PARAMETERS.fullmatch(value)
    assert boundary_of(value) == _stdlib(value) == "=_a b"


def _stdlib_type(value: str) -> str:
    return message_of([("Content-Type", value)]).get_content_type()


@settings(max_examples=1000, deadline=None)
@given(VALUE, st.booleans())
def test_text_parameters_and_type_as_the_stdlib_reads_them(value: str, plain: bool) -> None:
    text_params_of.cache_clear()
    content_type_of.cache_clear()
    stdlib = _answer(lambda v: _text_params(message_of([("Content-Type", v)]), plain), value)
    assert _answer(lambda v: text_params_of(v, plain), value) == stdlib
    assert content_type_of(value) == _stdlib_type(value)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(' \t\n;=/"\\<>*aA\u00e9xt-p'), max_size=30))
def test_any_value_is_read_as_the_stdlib_reads_it(value: str) -> None:
    text_params_of.cache_clear()
    content_type_of.cache_clear()
    for plain in (True, False):
        assert _text_answers(value, plain)
    assert content_type_of(value) == _stdlib_type(value)


def _text_answers(value: str, plain: bool) -> bool:
    stdlib = _answer(lambda v: _text_params(message_of([("Content-Type", v)]), plain), value)
    return _answer(lambda v: text_params_of(v, plain), value) == stdlib


def test_the_common_text_shapes_are_read_without_the_stdlib() -> None:
    value = 'text/plain; charset="UTF-8"; format=flowed; delsp=yes'
    assert _SIMPLE_PARAMETERS.fullmatch(value)
    assert text_params_of(value, True) == ("utf-8", True, True)
    assert text_params_of(value, False) == ("utf-8", False, False)
    assert content_type_of(" Text/Plain ; x=y") == "text/plain"
