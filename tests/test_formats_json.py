"""The JSON Lines writer's direct record encoding equals encoding the record's dict."""

from __future__ import annotations

import io
import json

from hypothesis import given
from hypothesis import strategies as st

from urlsift import Defect, MessageContext, Parts, Url, extract
from urlsift.output.formats import JsonlWriter, _json_line, url_json

# Text that stresses JSON string encoding: quotes, backslashes, controls, non-ASCII, lone
# surrogates (undecodable input bytes), and characters JSON escapes specially.
_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from(
            # C1 controls (U+0080..U+009F) and U+2028, U+2029 are escaped; U+00A0 and "€"
            # share their UTF-8 lead bytes (C2, E2) and are not.
            [*'a/:"\\\n\t\x00\x1f\x7f\u2028\u2029é€😀\x80\x85\x9f\xa0', "\udc80", "\udcff"]
        ),
        st.characters(),
    ),
    max_size=20,
)
_OPTIONAL = st.one_of(st.none(), _TEXT)
_DEFECTS = st.lists(
    st.builds(
        Defect,
        code=st.sampled_from(["bad-escape", "ambiguous-hyphen"]),
        message=_TEXT,
        severity=st.sampled_from(["error", "warning"]),
        offset=st.one_of(st.none(), st.integers(0, 99)),
    ),
    max_size=3,
).map(tuple)
_CONTEXTS = st.one_of(
    st.none(),
    st.builds(
        MessageContext,
        message=st.integers(1, 10**6),
        message_offset=st.integers(0, 10**12),
        message_id=_OPTIONAL,
        date=_OPTIONAL,
        from_=_OPTIONAL,
        subject=_OPTIONAL,
        part=st.sampled_from(["1", "2.1"]),
        content_type=st.sampled_from(["text/plain", "header", "text/html"]),
    ),
)
_URLS = st.builds(
    Url,
    url=_TEXT,
    alternatives=st.lists(_TEXT, max_size=3).map(tuple),
    raw=_TEXT,
    kind=st.sampled_from(["wrapped", "angle", "prefixed", "bare"]),
    scheme=_TEXT,
    start=st.integers(0, 10**9),
    end=st.integers(0, 10**9),
    line=st.integers(1, 10**6),
    column=st.integers(1, 10**4),
    end_line=st.integers(1, 10**6),
    source=_TEXT,
    defects=_DEFECTS,
    valid=st.booleans(),
    fragment=_OPTIONAL,
    # Repeated names too: the dict keeps the first position and the last value.
    parts=st.lists(st.tuples(st.sampled_from(["host", "path", "x"]), _TEXT), max_size=4).map(Parts),
    context=_CONTEXTS,
)


@given(_URLS)
def test_direct_encoding_equals_encoding_the_dict(url: Url) -> None:
    line = url_json(url)
    assert line == _json_line(url.to_dict())
    assert url_json(url) == line  # again, with the parts' JSON kept from the first time
    assert json.loads(line) == json.loads(_json_line(url.to_dict()))
    line.encode("utf-8")  # always valid UTF-8, lone surrogates escaped
    assert len(line.splitlines()) == 1  # C1 controls, U+2028, U+2029 escaped


@given(_URLS)
def test_writer_writes_one_line_per_record(url: Url) -> None:
    out = io.StringIO()
    JsonlWriter(out).write(url)
    assert out.getvalue().count("\n") == 1
    assert out.getvalue() == url_json(url) + "\n"  # (the writer closes the line itself)


def test_line_separators_inside_strings_are_escaped() -> None:
    # U+2028, U+2029 and U+0085 end a line for str.splitlines (and older JavaScript): a
    # record must stay one line whoever splits the output. Found by the pipeline fuzz test.
    (url,) = extract("<URL:http://a.example/x\n\u2028\x85y\u2029>")
    line = url_json(url)
    assert len(line.splitlines()) == 1
    assert "\\u2028" in line
    assert "\\u0085" in line
    assert json.loads(line) == url.to_dict()


@given(st.lists(_URLS, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_kept_context_json_never_leaks_between_records(urls: list[Url], rng: object) -> None:
    # Records that share a URL text (with the same or other field objects) and message
    # contexts, written in any order and again: each line is its own record's.
    from dataclasses import replace

    first = urls[0]
    shared = [
        replace(first, raw=u.raw, start=u.start, context=u.context, source=u.source) for u in urls
    ] + [replace(u, url=first.url) for u in urls]
    # the first record with one verdict field of another at a time
    for name in ("normalized", "alternatives", "scheme", "defects", "valid", "fragment", "parts"):
        shared += [replace(first, **{name: getattr(u, name)}) for u in urls]
    records = urls + shared + urls
    rng.shuffle(records)  # type: ignore[attr-defined]
    for url in records:
        assert url_json(url) == _json_line(url.to_dict())


@given(_TEXT.filter(lambda text: "\udc80" not in text and "\udcff" not in text) | st.text())
def test_line_separators_are_found_in_the_utf8(text: str) -> None:
    # The writer looks for U+0080..U+009F, U+2028 and U+2029 in a line's UTF-8 bytes.
    import re

    from urlsift.output.formats import _as_utf8_text

    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        assert _as_utf8_text(text) is None
        return
    written = _as_utf8_text(text)
    assert written is not None
    assert (written != text) == bool(re.search("[\x80-\x9f\u2028\u2029]", text))
    assert not re.search("[\x80-\x9f\u2028\u2029]", written)
