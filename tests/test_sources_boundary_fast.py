"""A multipart's boundary read from its Content-Type value as ``Message.get_boundary`` reads it.

``parse.boundary_of`` reads the common shape (``type/subtype; name=value; ...``, values
quoted without backslashes or tokens) itself (issue 26: every multipart of the fast path
asks for its boundary) and leaves any other value (RFC 2231 parameters, escapes, angle
brackets the stdlib strips, a bare ``boundary``) to the stdlib. The test holds the two to
the same answer, or the same exception, on values built from the pieces where they could
differ.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift.sources.headers import message_of
from urlsift.sources.parse import _SIMPLE_PARAMETERS, boundary_of

_VALUES = ['"abc"', "abc", '"a b "', '" a"', '""', '"<x>"', "<x>", '"a;b"', '"=_x=="', "=_x"]
_VALUES += ["'q'", '"<"', '">"', '"a\\"b"', 'x"y', '"a\nb"', '""x']
_NAMES = ["boundary", "BOUNDARY", "Boundary", "charset", "boundary*", "boundary*0", "micalg"]
PARAMETER = st.tuples(
    st.sampled_from([";", "; ", ";\n\t", " ;"]),
    st.sampled_from(_NAMES),
    st.sampled_from(["=", " = "]),
    st.sampled_from(_VALUES),
).map("".join)
VALUE = st.tuples(
    st.sampled_from(
        ["multipart/mixed", " multipart/alternative ", "a/b/c", "multipart", "boundary"]
    ),
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
