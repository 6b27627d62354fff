"""Validate URLs against RFC 1738: defects with rule, place and severity; parsed parts.

Strategy: :func:`validate` takes the URL exactly as given (no stripping, no decoding) and

1. splits off ``#fragment`` at the first ``#`` (§2.2: ``#`` delimits a fragment and is
   not part of the URL grammar) and checks the fragment loosely;
2. scans the rest once for lexical problems that are wrong wherever they stand: a ``%``
   that starts no escape, unsafe, control and non-ASCII characters, and (as §6 warnings)
   escapes of CR, LF and NUL. Each distinct offending character is reported once, at its
   first offset, with a count, so a hostile input cannot produce a flood of defects;
3. reads ``scheme ":"`` and hands the rest to the scheme's check from a
   :class:`~urlsift.validation.schemes.SchemeRegistry`, which adds structural defects and the parts.

A URL is valid iff no defect is an error. Strictness is :class:`~urlsift._model.Policy`:
the lenient findings (``~``, ``host?search`` without a path) are warnings by default and
errors under ``Policy(strict=True)``. Bad input never raises; only API misuse does. The
whole validation is linear in the length of the URL.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

from .._model import Defect, Parts, Policy
from .._record import record
from ..grammar import rfc as g
from .schemes import (
    FastEntry,
    Level,
    SchemeContext,
    SchemeRegistry,
    port_finding,
    quote,
    severity_of,
    shared_default_registry,
)

__all__ = ["LENIENT_UNSAFE_CHARACTERS", "Validation", "validate", "validate_readings"]

LENIENT_UNSAFE_CHARACTERS = frozenset("~")
"""Unsafe characters (§2.2) common in real URLs: warnings by default, errors when strict.

Only ``~`` (home directories: ``http://host/~user/``). ``[`` and ``]`` stay errors: in a
host they would be an IPv6 literal, which RFC 1738 does not know (RFC 2732 came later),
and elsewhere they are rare and were among the characters gateways mangled.
"""

# Names of the unsafe characters' BNF sets, for messages.
_UNSAFE_SET = {
    **dict.fromkeys(g.NATIONAL, "national"),
    **dict.fromkeys(g.PUNCTUATION, "punctuation"),
    " ": "space",
}

# Control characters by name, for messages about escapes.
_CONTROL_NAMES = {"0d": "CR", "0a": "LF", "00": "NUL"}


@record
class Validation:
    """The outcome of validating one URL."""

    url: str
    """The URL as given, fragment included."""
    valid: bool
    """False iff any defect has severity ``error``."""
    scheme: str
    """The scheme in lower case; empty when missing or malformed."""
    defects: tuple[Defect, ...]
    """Findings ordered by offset (offsets index :attr:`url`)."""
    parts: Parts
    """Parsed components by name, in URL order, as written (not decoded); only those
    present (a read-only mapping: :class:`~urlsift.Parts`)."""
    fragment: str | None
    """The text after the first ``#``, or None when there is no ``#``."""

    def to_dict(self) -> dict[str, object]:
        """Return the result as a JSON-ready mapping.

        Returns:
            ``{url, valid, scheme, defects: [...], parts: {...}}`` plus ``fragment`` when
            the URL has one.
        """
        out: dict[str, object] = {
            "url": self.url,
            "valid": self.valid,
            "scheme": self.scheme,
            "defects": [d.to_dict() for d in self.defects],
            "parts": dict(self.parts),
        }
        if self.fragment is not None:
            out["fragment"] = self.fragment
        return out


def _scan_key(ch: str) -> str:
    # Findings are grouped per unsafe character (13 at most), and per kind for "%", control
    # and non-ASCII characters, so the number of lexical defects is bounded.
    code_point = ord(ch)
    if code_point < 0x20 or code_point == 0x7F:
        return "control"
    if code_point > 0x7F:
        return "non-ascii"
    return ch


def _scan_characters(ctx: SchemeContext, start: int, end: int, *, fragment: bool) -> None:
    # One defect per group of offending characters: at its first offset, with its count.
    url = ctx.url
    pattern = g.FRAGMENT_OFFENDER_PATTERN if fragment else g.LEXICAL_OFFENDER_PATTERN
    first: dict[str, int] = {}
    count: dict[str, int] = {}
    for match in pattern.finditer(url, start, end):
        key = _scan_key(match.group())
        if key not in first:
            first[key] = match.start()
            count[key] = 0
        count[key] += 1
    for key, offset in first.items():
        code, message, level = _lexical_finding(
            url[offset], url[offset + 1 : offset + 3], count[key], fragment
        )
        ctx.report(code, offset, message, level)


def _lexical_finding(ch: str, after: str, count: int, fragment: bool) -> tuple[str, str, Level]:
    # The finding for the first of ``count`` offending characters like ``ch`` (``after``:
    # the next two characters), its message saying where and how many.
    code, message, level = _classify(ch, after)
    where = "in the fragment: " if fragment else ""
    times = f" ({count} such characters)" if count > 1 else ""
    return code, f"{where}{message}{times}", level


def _classify(ch: str, after: str) -> tuple[str, str, Level]:
    # Code, message and level for one offending character (``after``: the next two chars).
    code_point = ord(ch)
    if ch == "%":
        return (
            "bad-escape",
            f"{g.BNF['escape']}: '%' is followed by {quote(after)}, not two hex digits; "
            "a literal '%' must be written %25",
            "error",
        )
    if code_point < 0x20 or code_point == 0x7F:
        return (
            "control-character",
            f"control character {quote(ch)} must be encoded as %{code_point:02X} "
            "(octets 00-1F and 7F have no graphic character, RFC 1738 §2.2)",
            "error",
        )
    if 0xDC80 <= code_point <= 0xDCFF:
        return (
            "non-ascii-character",
            f"byte 0x{code_point - 0xDC00:02X} (not valid UTF-8) must be encoded as "
            f"%{code_point - 0xDC00:02X} (URLs are written in graphic US-ASCII)",
            "error",
        )
    if code_point > 0x7F:
        octets = "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))
        return (
            "non-ascii-character",
            f"{quote(ch)} (U+{code_point:04X}) is not US-ASCII; encode its octets "
            f"(as UTF-8: {octets}) (RFC 1738 §2.2)",
            "error",
        )
    rule = _UNSAFE_SET.get(ch, "unsafe")
    level: Level = "lenient" if ch in LENIENT_UNSAFE_CHARACTERS else "error"
    return (
        "unsafe-character",
        f"{rule} character {quote(ch)} is unsafe and must be encoded as "
        f"%{code_point:02X} (RFC 1738 §2.2)",
        level,
    )


def _scan_encoded_controls(ctx: SchemeContext, start: int, end: int) -> None:
    # RFC 1738 §6: encoded delimiters (CR, LF, NUL) may smuggle protocol commands.
    first: dict[str, int] = {}
    count: dict[str, int] = {}
    for match in g.ENCODED_CONTROL_PATTERN.finditer(ctx.url, start, end):
        key = match.group().lower()
        first.setdefault(key, match.start())
        count[key] = count.get(key, 0) + 1
    for key, offset in first.items():
        times = f" ({count[key]} times)" if count[key] > 1 else ""
        ctx.report(
            "encoded-control",
            offset,
            f"{quote(ctx.url[offset : offset + 3])} encodes {_CONTROL_NAMES[key[1:]]}; "
            f"it must not be decoded before transmission (RFC 1738 §6){times}",
            "warning",
        )


def _read_scheme(ctx: SchemeContext, end: int) -> int:
    # Offset of the ":" after a well-formed scheme, or -1 after reporting why there is none.
    url = ctx.url
    colon = url.find(":", 0, end)
    if colon == -1:
        ctx.report("missing-scheme", 0, f"{g.BNF['genericurl']}: no ':' ends a scheme name")
        return -1
    if colon == 0:
        ctx.report("missing-scheme", 0, f"{g.BNF['scheme']}: the scheme before ':' is empty")
        return -1
    match = g.SCHEME_PATTERN.match(url, 0, colon)
    stop = match.end() if match else 0
    if stop != colon:
        ctx.report("bad-scheme", stop, f"{g.BNF['scheme']}: {quote(url[stop])} is not allowed")
        return -1
    return colon


# Entries of a registry's fast table (``SchemeRegistry.fast_table``), one per scheme name
# as written: a text can spell a name in many cases ("HTTP", "Http"), so the table is
# emptied when it reaches this size.
_FAST_TABLE_SIZE = 64


def _fast_entry(registry: SchemeRegistry, written: str) -> FastEntry | None:
    # The fast table's entry for a scheme name as written (None: no clean pattern).
    table = registry.fast_table
    if len(table) >= _FAST_TABLE_SIZE:
        table.clear()
    name = written.lower()
    scheme = registry.lookup(name)
    clean: re.Pattern[str] | None = getattr(scheme, "clean", None)
    entry: FastEntry | None = None
    if clean is not None:
        index = clean.groupindex
        names = tuple(sorted(index, key=index.__getitem__))
        if len(names) != clean.groups:
            raise ValueError("a clean pattern's groups must all be named")
        entry = (name, scheme, clean, names, index.get("port", 0))
    table[written] = entry
    return entry


# What :func:`validate` concludes, as a plain tuple in the field order of
# :class:`Validation`: for ``Judge``, which copies the fields into each ``Url`` and has no
# use for the record (0.5 us, a quarter of the fast path).
CleanFields = tuple[str, bool, str, tuple[Defect, ...], Parts, str | None]


def fields_of(result: Validation) -> CleanFields:
    """A :class:`Validation`'s fields as the tuple :func:`clean_fields` returns."""
    return (result.url, result.valid, result.scheme, result.defects, result.parts, result.fragment)


def validate_clean(url: str, registry: SchemeRegistry, policy: Policy | None) -> Validation | None:
    """Validate a URL by the fast path alone: what :func:`validate` returns, or None.

    None means the fast path does not decide (the full checks must). For callers that
    validate many URLs with one registry; not part of the public API.
    """
    found = clean_fields(url, registry, policy)
    return None if found is None else Validation(*found)


def clean_fields(url: str, registry: SchemeRegistry, policy: Policy | None) -> CleanFields | None:
    """:func:`validate_clean`'s result as a tuple of :class:`Validation`'s fields, or None."""
    # The fast path (most URLs in real text are plain): the scheme offers a ``clean``
    # pattern, it matches the part before any "#", and the fragment holds nothing the loose
    # fragment scan reports. The URL is then valid; the only defects it can have are those
    # of the port check, rerun on the ``port`` group, and the lexical scan's finding for
    # "~" (the one lenient unsafe character). "~" is matched as "$" would be: every rule
    # that allows "$" steps over "~" and leaves it to the lexical scan.
    colon = url.find(":")
    if colon <= 0 or not url.isascii():
        return None
    written = url[:colon]
    try:
        entry = registry.fast_table[written]
    except KeyError:
        entry = _fast_entry(registry, written)
    if entry is None:
        return None
    scheme_name, scheme, clean, names, port = entry
    end = url.find("#", colon)
    fragment = None
    if end == -1:
        end = len(url)
    else:
        if g.FRAGMENT_OFFENDER_PATTERN.search(url, end + 1) is not None:
            return None
        fragment = url[end + 1 :]
    tilde = url.find("~", colon, end)
    m = clean.fullmatch(url if tilde == -1 else url.replace("~", "$"), colon + 1, end)
    if m is None:
        return None
    if tilde == -1:
        values: tuple[str | None, ...] = m.groups()
    else:  # the values as written, "~" and all
        values = tuple(None if a == -1 else url[a:b] for a, b in m.regs[1:])
    # Pairs whose value is None are dropped, so every value is a str (mypy cannot see it).
    # names and values have the same length (_fast_entry), so zip needs no strict test
    # (its keyword argument alone costs a tenth of this step), and a loop keeps zip's own
    # pairs (a comprehension is a function call of its own on Python 3.11).
    pairs: Iterable[tuple[str, str]] = zip(names, values)  # type: ignore[arg-type]  # noqa: B905
    if None in values:
        kept = []
        for pair in pairs:
            if pair[1] is not None:
                kept.append(pair)
        pairs = kept
    parts = Parts(tuple(pairs))
    port_value = values[port - 1] if port else None
    if tilde == -1 and port_value is None:
        return (url, True, scheme_name, (), parts, fragment)  # the common case
    # The two findings a clean URL can have, made as the full checks make them: the
    # lexical scan's for "~" (the clean pattern let no other offender through) and the
    # port check's (the port group holds digits only).
    strict = policy is not None and policy.strict
    defects: list[Defect] = []
    if tilde != -1:
        code, message, level = _tilde_finding(url.count("~", 0, end))
        defects.append(Defect(code, message, severity_of(level, strict), tilde))
    if port_value is not None:
        finding = port_finding(scheme.name, scheme.default_port, port_value)
        if finding is not None:
            code, message, level = finding
            defects.append(Defect(code, message, severity_of(level, strict), m.start(port)))
    if len(defects) == 2 and m.start(port) < tilde:  # in offset order, as validate() sorts
        defects.reverse()
    valid = not any(d.severity == "error" for d in defects)
    return (url, valid, scheme_name, tuple(defects), parts, fragment)


@functools.lru_cache(maxsize=64)
def _tilde_finding(count: int) -> tuple[str, str, Level]:
    # The lexical scan's finding for a URL whose only offending characters are "~".
    return _lexical_finding("~", "", count, False)


def _offset(defect: Defect) -> int:
    return defect.offset or 0


def validate(
    url: str, *, policy: Policy | None = None, registry: SchemeRegistry | None = None
) -> Validation:
    """Validate one URL against RFC 1738.

    Args:
        url: the URL exactly as found (wrapper removed); it is neither stripped nor
            decoded.
        policy: strictness; default ``Policy()`` (lenient findings are warnings).
        registry: scheme checks; default the schemes of
            :func:`~urlsift.validation.schemes.default_registry` (one registry, shared).

    Returns:
        A :class:`Validation` with the defects (ordered by offset), parts and fragment.

    Raises:
        TypeError: ``url`` is not a ``str``.
    """
    if not isinstance(url, str):
        raise TypeError(f"validate() needs a str, not {type(url).__name__}")
    registry = registry if registry is not None else shared_default_registry()
    quick = validate_clean(url, registry, policy)
    if quick is not None:
        return quick
    return validate_checks(url, registry, policy)


def validate_checks(url: str, registry: SchemeRegistry, policy: Policy | None) -> Validation:
    """Validate a URL by the full checks alone, for when :func:`validate_clean` gave None.

    Not part of the public API (see :func:`validate`).
    """
    hash_at = url.find("#")
    policy = policy if policy is not None else Policy()
    ctx = SchemeContext(url, policy)
    end = len(url) if hash_at == -1 else hash_at
    _scan_characters(ctx, 0, end, fragment=False)
    _scan_encoded_controls(ctx, 0, end)
    fragment = None
    if hash_at != -1:
        fragment = url[hash_at + 1 :]
        _scan_characters(ctx, hash_at + 1, len(url), fragment=True)
    scheme = ""
    colon = _read_scheme(ctx, end)
    if colon != -1:
        scheme = url[:colon].lower()
        registry.lookup(scheme).check(ctx, colon + 1, end)
    defects = tuple(sorted(ctx.defects, key=_offset))
    return Validation(
        url=url,
        valid=not any(d.severity == "error" for d in defects),
        scheme=scheme,
        defects=defects,
        parts=Parts(ctx.parts),
        fragment=fragment,
    )


def validate_readings(
    readings: Sequence[str],
    *,
    policy: Policy | None = None,
    registry: SchemeRegistry | None = None,
) -> tuple[int, tuple[Validation, ...]]:
    """Validate a URL's readings and choose the primary one.

    When exactly one reading is valid it becomes primary; otherwise the first reading
    (the rejoiner's own choice) stays primary. Example: a port broken as ``80-``/``80``
    gives ``http://h:80-80/`` and ``http://h:8080/``; only the second is valid.

    Args:
        readings: the rejoiner's readings, primary first.
        policy: strictness, as for :func:`validate`.
        registry: scheme checks, as for :func:`validate`.

    Returns:
        ``(index of the primary reading, validations in the order given)``.

    Raises:
        ValueError: ``readings`` is empty.
    """
    if not readings:
        raise ValueError("validate_readings() needs at least one reading")
    registry = registry if registry is not None else shared_default_registry()
    results = tuple(validate(r, policy=policy, registry=registry) for r in readings)
    return primary_reading([result.valid for result in results]), results


def primary_reading(valid: Sequence[bool]) -> int:
    """The index of the primary reading, given whether each reading is valid.

    The one reading that is valid, when exactly one is; otherwise the first (the
    rejoiner's own choice). The rule of :func:`validate_readings`.
    """
    return valid.index(True) if valid.count(True) == 1 else 0


def chosen_fields(
    readings: Sequence[str], registry: SchemeRegistry, policy: Policy | None
) -> tuple[int, CleanFields]:
    """:func:`primary_reading`'s choice among a URL's readings, and the chosen reading's
    validation fields (as :func:`clean_fields` returns them), validating only what the
    choice needs.

    A valid first reading is primary whatever the others are (alone valid or one of
    several), so they are not validated then: a possible wrap's joined reading and a hyphen
    break's readings without the hyphen are mostly left unvalidated. ``readings`` must not
    be empty.
    """
    results: list[CleanFields] = []
    for text in readings:
        found = clean_fields(text, registry, policy) or fields_of(
            validate_checks(text, registry, policy)
        )
        if not results and found[1]:
            return 0, found
        results.append(found)
    index = primary_reading([fields[1] for fields in results])
    return index, results[index]
