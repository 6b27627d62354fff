"""Evidence that a bare URL ending at a line end continues on the next line.

RFC 1738's appendix leaves a bare URL broken across lines to the reader: only a wrapper
(``<URL:...>``) or a hyphen at the break says the URL goes on. Mail clients and editors
still cut long bare URLs where the line is full. This module holds the one definition of
the evidence, used by the scanner (to widen the span) and by ``urlsift lint``'s ``URL008``
(which warns on every answer but "no").

Three answers (issue 23), from :func:`continuation` and :func:`wrapped_continuation`:

* **join** (``wrapped``): every sign says a client wrapped the URL there. The joined
  reading is the URL, the cut one its first alternative (``continued-line``).
* **both** (``possible``): the signs are real but not decisive. The cut reading stays the
  URL, the joined one is offered (``possible-wrap``): the scanner gives the candidate a
  :class:`~urlsift.grammar.context.PossibleWrap` body, which
  :mod:`urlsift.extraction.rejoin` reads. A quoted-printable soft line break of text left
  encoded gives a :class:`~urlsift.grammar.context.SoftBreakWrap`: the joined reading
  leaves its ``=`` out, as decoding would.
* **no**: the URL ends at the line end.

A continuation may span several lines: each line end is asked again, and the URL stops at
the first line that is not its continuation. After a possible wrap the URL goes on over
decided and possible ones alike (the whole is one possible reading); after decided joins a
possible wrap ends it (the decided reading stays whole).

Promises:

* Pure and sans-IO: strings in, a small verdict out; nothing here reads the text around
  the two lines, so a decision never depends on where chunk boundaries fall.
* Bounded: every pattern is bounded, the next line is read at most
  :data:`MAX_NEXT_LINE` characters far (a longer one was not wrapped), and only the URL's
  part on its own line is read, so one call costs a bounded number of steps.
* Precision first: a wrong join costs a user more than a missed one, so the join needs
  every sign at once -- the shape of the next line, URL material in the continuation or
  at the cut, and a line as full as a wrapping client leaves it -- or a quote that the
  continuation closes. Weaker signs only offer the joined reading.

The signals (measured on ``corpora/wrapjoin/judged.txt`` and ``drawn.txt``; figures in
benchmarks/README.md; one case per shape in ``corpora/wrapjoin/shapes.txt``):

1. *Shape.* The next line starts with one run of URL characters (RFC 3986 characters and
   ``%``), without a scheme of its own, that does not start like prose punctuation, a
   list item, a label (``Binaries:``), a header or property name (``ATTENDEE;ROLE=``), a
   directive (``#EXTINF:``), a table row or an attribute list (``width=300 height=...``),
   and is no word of prose that holds URL material (``e.g.``, ``12:30``, a mail address).
   A piece led by a hyphen (``budget-cut-9`` + ``-billion-plan/``) may continue a slug:
   "both".
2. *URL material.* The continuation holds ``? = & % # ~``, a ``/`` with another sign, a
   file extension, or the cut ends where URLs rarely end (``- _ ? & = %``); or the joined
   reading gains a file extension the cut one lacks (``.tar.g`` + ``z``). A cut reading
   ending in a file name (``vortex.html``) followed by a word is a complete URL. A
   lower-case word after a directory URL (``.../people/`` + ``gstein``) that a full line
   could not hold is a possible path step ("both"), unless it is a function word of prose
   (``and``) or the next line is aligned in columns (a signature).
3. *Wrap column.* Clients wrap at 70 to 80 columns: the URL's line and the next one
   (without their quote prefixes, tabs expanded) are at most :data:`WRAP_COLUMN_MAX`
   wide, and the continuation would not have fitted on the URL's line (the two together
   exceed :data:`WRAP_COLUMN_MIN`). Shorter lines are ended by their writer (signatures,
   lists, a URL on a line of its own); a wider next line was not wrapped at all. Without
   the column (or with another indentation) URL material gives "both".
4. *Quote depth.* The same mail quote depth on both lines is needed for a join. Another
   depth (a reply re-wrapped by Exchange, GroupWise or Gmail: the continuation lost its
   ``> `` or took another) gives "both" when the continuation holds URL signs
   (``? = & % # ~``), else "no" (another speaker).
5. *Quotes.* A URL right after an opening quote (``"``, TeX's `` ` ``, ``\u201c``) that
   the continuation closes (``"https://x/`` + ``passport.cer"``) is joined.
6. *Ends.* A half-written query (``?os=``) before a space and the break may go on
   ("both"). A line of at most 76 characters ending in ``=`` is a quoted-printable soft
   break of text left encoded ("both", the ``=`` left out) unless it ends a half-written
   query on a line without quoted-printable escapes (``=3D``); the URL then goes on as
   decoding reads it, with the next line's first run of URL characters (after the quote
   prefix a reply added to both lines), whatever word that is: an encoder cuts where the
   line is full, so the prose signs above say nothing there. A run of three ``_`` or
   ``=`` ends the URL (a rule line).
7. *Code and records* (seen in outside projects' sources and data files, where 108 of
   110 joins were wrong before these rules): a URL in a code comment (``# ``, ``// ``,
   ``-- `` opening the line, or ``#``/``//`` after code) ends with the line; a quote
   opened before the URL and closed at its end (``'file:///tmp/x'``) ends it; a line of
   "name URL" records (``third_party2 -r3 file:///...``) or a setting (``url = ...`` over
   ``revision=head``) is not continued by a weak word; a path after a whole fragment
   (``#whatisword`` + ``/JT``) is only "both".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from ..grammar.context import (
    BARE_STOP,
    QUOTE_PREFIX,
    QUOTE_PREFIX_CHARS,
    SCHEME,
    PossibleWrap,
    SoftBreakWrap,
    compile_on_use,
    quote_key,
)

WRAP_COLUMN_MIN = 70
"""Narrowest wrap column taken into account: a URL line plus its continuation must be
longer, or the continuation would have fitted on the line."""

WRAP_COLUMN_MAX = 80
"""Widest wrap column: a longer URL line (quote prefix not counted) was not wrapped."""

MAX_NEXT_LINE = 512
"""Characters of the next line that the evidence may read (its start is what counts)."""

QP_LINE_LENGTH = 76
"""Longest line of quoted-printable text (RFC 2045 §6.7): a URL line this short ending in
``=`` is a soft line break of text left encoded, which only decoding can mend."""

MIN_URL_LINE = 40
"""Shortest URL line (quote prefix not counted) that a client could have wrapped."""

# The patterns below are compiled on their first use (compile_on_use): a scan that meets no
# line break after a URL never needs them.
# A line's head: its mail quote prefix and its indentation; on the next line, then its
# first word (a run of the characters a bare URL may hold). All bounded.
_HEAD = compile_on_use(rf"((?:{QUOTE_PREFIX})?)([ \t]{{0,64}})")
_HEAD_CHARS = QUOTE_PREFIX_CHARS  # a line starting otherwise has an empty head
_NEXT_LINE = compile_on_use(rf"((?:{QUOTE_PREFIX})?)([ \t]{{0,64}})([^{BARE_STOP}]{{1,512}})")
_NEXT_WORD = re.compile(rf"[^{BARE_STOP}]{{1,512}}")  # _NEXT_LINE's word, with no head
# A character that can make a word URL material: a path step, a dot, a digit, a sign.
_MATERIAL = compile_on_use(r"[/.0-9_?=&%#~]")
# Characters a URL continuation may hold (RFC 3986 unreserved, reserved, and '%').
_URL_CHARS = compile_on_use(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]{1,512}")
# Bounded scheme tests: an unbounded run over a long word of letters is quadratic.
_HAS_SCHEME = compile_on_use(rf"{SCHEME}:")
_HAS_URL = compile_on_use(rf"{SCHEME}://")
_TABLE_SEPARATORS = frozenset({"=", ":", "|", "->", "=>"})
# A file name extension, matched from a name's last dot (see _has_extension).
_EXTENSION = compile_on_use(
    r"\.(?:s?html?|xhtml|php\d?|aspx?|jsp|cgi|pl|txt|pdf|ps|gz|tgz|zip|tar|bz2|xz|Z|"
    r"xml|xsd|json|md|rst|png|jpe?g|gif|svg|c|h|py|patch|diff|rpm|deb|asc|cer)",
    re.IGNORECASE,
)
_LONGEST_EXTENSION = 6
# What _EXTENSION matches after the dot in ASCII text, lower-cased (its case-insensitive
# matching also folds a few non-ASCII letters: those go to the pattern).
_EXTENSION_LIST = (
    "html htm shtml shtm xhtml php aspx asp jsp cgi pl txt pdf ps gz tgz zip tar bz2 xz z "
    "xml xsd json md rst png jpeg jpg gif svg c h py patch diff rpm deb asc cer"
)
_EXTENSIONS = frozenset(_EXTENSION_LIST.split()) | {f"php{digit}" for digit in "0123456789"}
# A URL that is only a scheme and a host ending in a top-level domain: it is complete.
_BARE_HOST = compile_on_use(rf"{SCHEME}://[^/?#\s]{{0,255}}\.[A-Za-z]{{2,24}}")
# A bare URL's token ending in one of these ends a sentence (the scanner trims them).
_SENTENCE_STOPS = frozenset(".,;:!")
_LIST_ITEM = compile_on_use(r"(?:[0-9]{1,3}|[A-Za-z])[.)]")
_LONGEST_LIST_ITEM = 4
# Words of prose that hold URL material: an abbreviation ("e.g."), a time ("12:30"), a
# mail address (a signature's next line).
_PROSE_WORD = compile_on_use(
    r"(?:[A-Za-z]\.){1,3}[A-Za-z]?|[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?"
    r"|[A-Za-z0-9._+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}"
)
_LONGEST_SHORT_PROSE = 8  # the longest abbreviation or time; longer prose words hold "@"
_ATTRIBUTE = compile_on_use(r"[A-Za-z][A-Za-z0-9_-]{0,64}=")
# Punctuation that ends a sentence after a URL; not part of the continuation word's test.
_SENTENCE_END = ".,;:!?\"')]"
# A continuation starts with a letter, a digit or one of these (not "-", "(", "*", ">"...).
_CONTINUATION_START = frozenset("/%=&?._~#;")
# The cut URL ends in a character after which a URL rarely ends.
_OPEN_ENDINGS = frozenset("-_?&=%")
# A letter or digit, and a digit, "." or "_" (the word is ASCII when they are asked).
_ALNUM = compile_on_use(r"[A-Za-z0-9]")
_ASCII_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_DIGIT_OR_DOT = compile_on_use(r"[0-9._]")
# Signs in the continuation that it is part of a URL, not prose.
_URL_SIGNS = frozenset("?=&%#~")
# Words that begin a line of prose, never a path step after a directory URL ("...files/"
# + "and mirrors carry it too"): English articles, conjunctions, prepositions, pronouns and
# auxiliaries.
_FUNCTION_WORD_LIST = (
    "a an the and or but nor so yet for to of in on at by from with into onto as if then "
    "than that this these those it its is are was were be been being has have had do does "
    "did will would can could should may might must not no i you he she we they which who "
    "where when while also there here"
)
_FUNCTION_WORDS = frozenset(_FUNCTION_WORD_LIST.split())
# A header, property or directive name ("ATTENDEE;ROLE=...", "Subject:", "X-Foo:"): a
# line of its own, never a URL's rest.
_FIELD_NAME = compile_on_use(r"[A-Z][A-Z0-9-]{1,63}[;:]")
# A continuation that starts with a percent escape ("%20a%20report") or the rest of a hex
# id ("84295c22%40example.org"): prose never starts so.
_ESCAPE_START = compile_on_use(r"%[0-9A-Fa-f]{2}")
_HEX_RUN = compile_on_use(r"(?=[0-9a-f]{0,15}[0-9])(?=[0-9a-f]{0,15}[a-f])[0-9a-f]{6,16}")
# Quotes that may enclose a URL, by opener: a wrap inside them is closed on the next line.
_QUOTE_CLOSERS = {'"': '"', "`": "'", "'": "'", "\u201c": "\u201d", "\u2018": "\u2019"}
# The cut ends in one of these: a query half written ("?os=", "&", "?"); a space may follow
# it before the break (a client wrapped at the space, the URL was not complete).
_HALF_QUERY = frozenset("?=&")
# A run of this many "_" or "=" ends a bare URL: a rule line written right after it.
_RULE_RUN = 3
# A playlist or preprocessor directive after a URL ("#EXTM3U", "#EXT-X-ENDLIST", "#IF").
_DIRECTIVE = compile_on_use(r"#[A-Z]{2,}(?![a-z])")
# A quoted-printable escape ("=3D", "=20"): text left encoded.
_QP_ESCAPE = compile_on_use(r"=[0-9A-F]{2}")
# A query half written at the line's end: "?os=", "&type=".
_HALF_WRITTEN = compile_on_use(r"[?&][^?&=/\s]{1,64}=\Z")
_RULES = frozenset({"_" * _RULE_RUN, "=" * _RULE_RUN})
_SOFT_RULES = frozenset({"=" * (_RULE_RUN + 1)})  # a rule's run of "=", the break's one more
# A code comment the URL is written in: a line comment opened at the line's start (after a
# quote prefix and indentation: "# ", "// ", "-- ") or after code ("x = 1  # see ...").
# A comment ends at the line end; a wrapped one goes on behind its own marker, never in
# the next line's code ("# https://host/issues/475" + "self.make_file(").
_COMMENT_START = compile_on_use(r"(?:#{1,6}|/{2,4}|--)[ \t]")
_COMMENT_AFTER_CODE = compile_on_use(r"[ \t](?:#|//)[ \t]")
_COMMENT_LOOKBACK = 256  # characters before the URL searched for a comment marker
# The text before a URL on its line is a record's fields, not prose, when it is one to
# three words, each holding a character that is no letter ("third_party2 -r3 file:///...").
_RECORD_FIELDS = 3
_LONGEST_RECORD_HEAD = 192
# A configuration line's assignment before the URL ("url = https://...", "url=..."): the
# next line's "revision=head" is the next setting.
_ASSIGNMENT = compile_on_use(r"[A-Za-z][\w.-]{0,63}[ \t]{0,8}=[ \t]{0,8}")


JOIN, BOTH, SOFT_BOTH = 0, 1, 2
"""The answers of :func:`wrapped_continuation` when the URL goes on: a decided wrap, a
possible one, a possible one after a quoted-printable soft line break."""

BODY_TYPES: tuple[type[str], ...] = (str, PossibleWrap, SoftBreakWrap)
"""The body type of a URL by its strongest answer (:data:`JOIN` ... :data:`SOFT_BOTH`)."""


class Continuation(NamedTuple):
    """A bare URL's apparent continuation on the next line (a named tuple: made in one
    step, a quarter of the time a frozen dataclass takes, on the scanner's path)."""

    start: int
    """Index in the next line of the continuation's first character."""
    end: int
    """Index in the next line just past the continuation (a run of the characters a bare
    URL may hold; sentence punctuation at its end is the caller's to trim)."""
    word: str
    """The continuation as written, sentence punctuation at its end removed."""
    wrapped: bool
    """True when every sign says a client wrapped the URL there: the scanner joins (the
    answer "join")."""
    possible: bool
    """True when the signs are real but not decisive: the scanner keeps the cut reading
    first and offers the joined one (the answer "both", a ``possible-wrap`` warning).
    Both False: the URL only seems to continue (``urlsift lint`` warns, the scanner
    does not join)."""


# Every field, in Continuation's order, through tuple.__new__ (the named tuple's own __new__
# is a Python function doing the same after binding its parameters), as the scanner makes
# its candidates.
_new_continuation: Callable[[type[Continuation], tuple[object, ...]], Continuation] = tuple.__new__


def _line_width(text: str) -> int:
    """Width in columns of ``text`` (tabs to multiples of eight)."""
    return len(text.expandtabs(8)) if "\t" in text else len(text)


def _has_extension(text: str) -> bool:
    """Does ``text`` end in a file name extension (``.html``, ``.tar.gz``...)?"""
    end = text[-_LONGEST_EXTENSION:]
    dot = end.rfind(".")
    if dot < 0:
        return False
    name = end[dot + 1 :]
    if name.isascii():  # the pattern's own answer, from a table (it is asked often)
        return name.lower() in _EXTENSIONS
    return _EXTENSION.fullmatch(text, len(text) - len(end) + dot) is not None


def _opener(url: str, line: str) -> str:
    """The character right before the URL on its line ("" at the line's start)."""
    return line[-len(url) - 1 : -len(url)] if len(line) > len(url) else ""


def _quoted(url: str, line: str, next_line: str, after: int) -> bool:
    """Is the URL inside a quote opened right before it and closed right after the
    continuation (``"https://x/`` + ``Users"``, TeX's `` `http://x/`` + ``y.html'``)?"""
    closer = _QUOTE_CLOSERS.get(_opener(url, line))
    if closer is None or closer in url:
        return False
    return next_line[after : after + 1] == closer or next_line[after - 1 : after] == closer


_QUOTE_ENDS = frozenset(_QUOTE_CLOSERS.values())


def _record_head(before: str) -> bool:
    """Is ``before`` (a line's text before its URL) a record's fields, not prose?"""
    if len(before) > _LONGEST_RECORD_HEAD:
        return False
    words = before.split()
    return 0 < len(words) <= _RECORD_FIELDS and not any(word.isalpha() for word in words)


def _in_comment(line: str, head: int, url_start: int) -> bool:
    """Is the URL starting at ``line[url_start]`` inside a code comment (``line[:head]``
    is the line's quote prefix and indentation)?"""
    start = max(0, head - 1, url_start - _COMMENT_LOOKBACK)
    if (
        line.find("#", start, url_start) < 0
        and line.find("//", start, url_start) < 0
        and line.find("--", head, head + 2) < 0
    ):
        return False  # (most lines: no marker before the URL: three finds)
    if _COMMENT_START.match(line, head, url_start) is not None:
        return True
    return _COMMENT_AFTER_CODE.search(line, start, url_start) is not None


def continuation(
    url: str, line: str, next_line: str, *, spaced: bool = False
) -> Continuation | None:
    """Return the continuation of a bare URL that ends its line, if it seems to have one.

    Args:
        url: the URL's text as found on its line (its whole token, before sentence
            punctuation is trimmed).
        line: the URL's line up to the URL's end (what follows on the line is blank).
        next_line: the following line without its line break (may be cut after
            :data:`MAX_NEXT_LINE` characters).
        spaced: a space stands between the URL and the line break (only a half-written
            query, ending in ``? = &``, may go on then, and only as "both").

    Returns:
        The continuation (``wrapped``: the scanner joins; ``possible``: it offers both
        readings; neither: only ``urlsift lint`` warns), or None when the next line does
        not continue the URL.
    """
    # The cheap tests first: most URLs at a line end are followed by prose.
    if next_line[:1] in _HEAD_CHARS:
        nxt = _NEXT_LINE.match(next_line)
        if nxt is None:
            return None
        next_prefix, next_indent = nxt.group(1, 2)
        raw_start, after = nxt.span(3)
    else:  # most lines: no quote prefix, no indentation (the same match, cheaper)
        bare = _NEXT_WORD.match(next_line)
        if bare is None:
            return None
        next_prefix = next_indent = ""
        raw_start, after = 0, bare.end()
    if not url:
        return None
    raw = next_line[raw_start:after]
    word = raw.rstrip(_SENTENCE_END)
    last = url[-1]
    if not word or last in _SENTENCE_STOPS:
        return None  # "ftp://oss.sgi.com." ends a sentence
    if last in _QUOTE_ENDS and _QUOTE_CLOSERS.get(_opener(url, line)) == last:
        return None  # "url = 'file:///tmp/index'": the quote opened before it closed it
    if spaced and last not in _HALF_QUERY:
        return None  # a space before the break: the URL was complete
    material = _MATERIAL.search(word) is not None or last in _OPEN_ENDINGS
    quoted = step = False
    if not material:
        # A quote opened before the URL and closed after the word makes it material.
        quoted = _quoted(url, line, next_line, after)
        # A directory URL before a lower-case word: the word may be the next path step
        # ("http://www.example.com/people/" + "gstein"), or prose; only a full line
        # tells. Not before aligned columns (a signature's or a table's next row: a tab,
        # three spaces), not a function word of prose.
        step = (
            last == "/"
            and not quoted
            and word == raw
            and word.isalnum()
            and word.islower()
            and word not in _FUNCTION_WORDS
            and "\t" not in next_line
            and "   " not in next_line[after:]
        )
        if not (quoted or step) and len(word) > _LONGEST_EXTENSION:
            return None  # a word of prose (too long to be a file name's extension)
        material = quoted
    if url[-_RULE_RUN:] in _RULES:
        return None  # "index.html______": a rule line runs into the URL, it ends there
    # A piece led by a hyphen ("budget-cut-9" + "-billion-plan/"): the cut ends in a
    # slug's word and the piece goes on with one.
    hyphen_led = (
        word[0] == "-"
        and word[1:2].isalnum()
        and last.isalnum()
        and "-" in url[url.rfind("/") + 1 :]
    )
    colon = ":" in word  # (a scheme and a field name need one; a field name may have ";")
    if (
        raw.endswith(":")  # a label: "Binaries:", "then:"
        or not (word[0].isalnum() or word[0] in _CONTINUATION_START or hyphen_led)
        or not _URL_CHARS.fullmatch(word)
        or (colon and _HAS_SCHEME.match(word))
        or word[:4].lower() == "www."
        # "ATTENDEE;ROLE=...": a property line of its own
        or ((colon or ";" in word) and _FIELD_NAME.match(word))
    ):
        return None
    cut_complete = _has_extension(url)
    gains_extension = len(word) <= _LONGEST_EXTENSION and (
        not cut_complete and _has_extension(url + word)
    )
    if not material and not gains_extension and not step:
        return None  # a word of prose
    if line[:1] in _HEAD_CHARS:
        head = _HEAD.match(line)
        assert head is not None  # the pattern matches ""
        prefix, indent = head.group(1, 2)
    else:  # most lines: no quote prefix, no indentation
        prefix = indent = ""
    # The line's text before the URL, after its quote prefix and indentation.
    head_end, url_start = len(prefix) + len(indent), len(line) - len(url)
    if _in_comment(line, head_end, url_start):
        return None  # a comment ends at the line end; code or a comment marker follows
    if (word[0] not in _ASCII_ALNUM and _ALNUM.search(word) is None) or (
        len(raw) <= _LONGEST_LIST_ITEM and _LIST_ITEM.fullmatch(raw)
    ):
        return None  # a rule ("______") or a list item ("2) https://...")
    if (len(word) <= _LONGEST_SHORT_PROSE or "@" in raw) and (
        _PROSE_WORD.fullmatch(word) or (raw != word and _PROSE_WORD.fullmatch(raw))
    ):
        return None  # "e.g.", "12:30", "joe@example.com"
    if word[0] == "#" and (":" in word or _DIRECTIVE.match(word)):
        return None  # a directive ("#EXTINF:9.0", "#EXT-X-ENDLIST"), not "#L2685"
    tail = next_line[after : after + MAX_NEXT_LINE]
    rest = tail.split(None, 1)  # the next word, and the line after it
    if rest:
        first = rest[0]
        if first in _TABLE_SEPARATORS or _HAS_URL.search(first):
            return None  # a table row ("g?y  =  http://a/b/c/g?y") or a list of URLs
        gap = tail[:2]
        if (gap == "  " or "\t" in gap) and any(_HAS_URL.search(w) for w in tail.split()):
            return None  # a table row in aligned columns ("C#     Compression     https://...")
        if "=" in word and _ATTRIBUTE.match(word) and _ATTRIBUTE.match(first):
            return None  # an attribute list: "width=300 height=200"
    if (
        "=" in word
        and _ATTRIBUTE.match(word)
        and last not in _OPEN_ENDINGS
        and "?" not in url
        and _ASSIGNMENT.fullmatch(line, head_end, url_start)
    ):
        return None  # settings: "url = https://host/x.git" over "revision=head"
    signs = not _URL_SIGNS.isdisjoint(word)
    # Another quote depth: a client re-wrapped a reply (the continuation lost its "> " or
    # took another one), or another speaker. Only URL signs in the continuation tell.
    same_depth = prefix == next_prefix or quote_key(prefix) == quote_key(next_prefix)
    if not same_depth and not signs:
        return None  # another speaker's text
    if material and not quoted:
        quoted = _quoted(url, line, next_line, after)
    if (
        # (a scheme and a host hold no "/" but the two after the colon)
        (cut_complete or (url.count("/") == 2 and _BARE_HOST.fullmatch(url)))
        and (word[0].isalnum() or word[0] == "#")
        and not quoted
    ):
        # "vortex.html" + "3c59x.c:...", "errata.pdf" + "#28", "aachen.de" + "D-52062"
        return None
    slash = "/" in word and (
        word.count("/") > 1 or _DIGIT_OR_DOT.search(word) is not None or word[0] == "/"
    )
    strong = signs or slash or _has_extension(word) or gains_extension or last in _OPEN_ENDINGS
    if (
        not strong
        and _record_head(line[head_end:url_start])
        and any(_HAS_URL.search(w) for w in rest)
    ):
        # A list of "name URL" records ("third_party3 file:///..." over "third_party2 -r3
        # file:///..."): the next line names a URL of its own, a weak word is its name.
        return None
    width = _line_width(line[len(prefix) :])
    full = (
        MIN_URL_LINE <= width <= WRAP_COLUMN_MAX
        and width + len(word) > WRAP_COLUMN_MIN
        # The line after a wrap was wrapped at the same column (or ends the paragraph).
        and _line_width(next_line[len(next_prefix) :]) <= WRAP_COLUMN_MAX
    )
    # A path after a whole fragment ("...#whatisword" + "/JT"): a fragment comes last, so
    # only a route in it ("#/settings" + "/users") goes on so; not decisive.
    path_after_fragment = word[0] == "/" and "#" in url and "/" not in url[url.rfind("#") :]
    decisive = same_depth and not spaced and not hyphen_led and not path_after_fragment
    wrapped = decisive and (
        (indent == next_indent and full and (material or gains_extension))
        # Inside a quote opened before the URL and closed after the continuation.
        or quoted
    )
    possible = not wrapped and (
        strong
        or quoted
        # A continuation only a URL starts so: a percent escape, the rest of a hex id.
        or _ESCAPE_START.match(word) is not None
        or _HEX_RUN.match(word) is not None
        or hyphen_led
        or (step and full and indent == next_indent and same_depth)
    )
    if not (wrapped or possible):
        return None
    return _new_continuation(Continuation, (raw_start, after, word, wrapped, possible))


# Longest line (from its start to the URL's end) that may have been wrapped: a longer line
# is wider than any wrap column (tabs only widen it).
_LONGEST_LINE = 256


def _soft_break(line: str) -> bool:
    """Does ``line`` (ending where the URL does) end in a quoted-printable soft line break
    of text left encoded? Yes for a line of at most 76 characters ending in "=", but a
    query's half-written "?key=" on a line without quoted-printable escapes ("=3D").
    A quote prefix is not counted: a reply that quotes encoded text adds it after the
    encoder wrapped the line ("> " + 76 characters)."""
    if line[-1:] != "=":
        return False
    width = len(line)
    if width > QP_LINE_LENGTH and line[:1] in _HEAD_CHARS:
        head = _HEAD.match(line)
        width -= 0 if head is None else len(head.group(1))
    if width > QP_LINE_LENGTH:
        return False
    return _HALF_WRITTEN.search(line) is None or _QP_ESCAPE.search(line) is not None


NO_CONTINUATION = (-1, JOIN)
""":func:`wrapped_continuation`'s answer when the URL ends at its line end."""


def _soft_continuation(url: str, line: str, next_line: str, spaced: bool) -> tuple[int, int]:
    """The answer after a quoted-printable soft line break of text left encoded (``line``
    ends in its ``=``): ``(start in next_line or -1, answer)``.

    Decoding removes the ``=`` and the line break and nothing else, whatever the words
    around them: an encoder cuts lines at 76 characters, not where prose allows. So the URL
    goes on as the decoded text reads, with the next line's first run of URL characters
    when it starts right there (after the quote prefix a reply added to both lines), and
    the prose evidence of :func:`continuation` is not asked. Never more than "both": the
    text is not decoded, so the break may be an ``=`` that ends the URL.
    """
    if spaced or url[-_RULE_RUN - 1 :] in _SOFT_RULES:
        return NO_CONTINUATION  # white space or a rule of "=" before the break: not soft
    at = 0
    if line[:1] in _HEAD_CHARS and next_line[:1] in _HEAD_CHARS:
        head, next_head = _HEAD.match(line), _HEAD.match(next_line)
        assert head is not None  # the pattern matches ""
        assert next_head is not None
        prefix, next_prefix = head.group(1), next_head.group(1)
        if prefix and (prefix == next_prefix or quote_key(prefix) == quote_key(next_prefix)):
            # A reply quoted the encoded lines: the same prefix on both is not the text's
            # (a prefix on the URL's line alone is: the encoder cut the quoted text).
            if next_head.group(2):
                return NO_CONTINUATION  # the encoded line starts with a space
            at = len(next_prefix)
    word = _NEXT_WORD.match(next_line, at)
    if word is None or not word.group().rstrip(_SENTENCE_END):
        return NO_CONTINUATION  # a stop, or only punctuation the scanner would trim
    return at, SOFT_BOTH


# Most spaces read between a half-written query's end and the line break.
_MAX_TRAILING_SPACE = 16
# The spaces before a break (a tuple: "" is in no tuple, while it is in every string).
_SPACES = (" ", "\t")
# What a next line that holds no word to go on with starts with: a line end (a blank line),
# or an ASCII character that can start neither a word nor a head (where _NEXT_WORD fails
# at once).
_NO_NEXT_WORD = frozenset(
    char for char in map(chr, range(128)) if char not in _HEAD_CHARS and not _NEXT_WORD.match(char)
) | {"\r", "\n"}


WrapAnswers = dict[tuple[int, str, str, bool], tuple[int, int]]
"""A memo of :func:`wrapped_continuation`: (the URL's length on its line, the line up to the
URL's end, the next line, a space before the break) -> (start of the continuation in the
next line or -1, answer)."""

MAX_ANSWERS = 1024
"""Most answers a :data:`WrapAnswers` memo keeps (it is cleared when full)."""


def wrapped_continuation(
    buf: str,
    url_start: int,
    end: int,
    line_start: int,
    final: bool,
    answers: WrapAnswers | None = None,
) -> tuple[int, int] | None:
    """Decide, in the scanner's buffer, whether a bare URL goes on past a wrapped line.

    The scanner's hook at a bare URL's end. Reads only ``buf`` from the URL's line to the
    end of the next line, at most :data:`MAX_NEXT_LINE` characters past the break, so the
    answer is the same whatever the chunking: when that much is not in the buffer yet the
    answer is "wait" (None), unless ``final``.

    Args:
        buf: the scanner's buffer.
        url_start: index of the URL's first character.
        end: index just past the URL's token as found so far.
        line_start: index of the start of the line holding ``end`` (the URL's first line,
            or a line it was carried to); negative when that line began before the buffer.
        final: no more text will come.
        answers: a memo of earlier answers, for a caller that asks again and again (the
            scanner keeps one per scan: mail quotes the same lines in reply after reply).

    Returns:
        ``(index, answer)``: the index where the URL continues on the next line, and
        :data:`JOIN`, :data:`BOTH` or :data:`SOFT_BOTH`; :data:`NO_CONTINUATION` when it
        does not continue; None when the answer needs text not yet in the buffer.
    """
    # The cheapest answer first, from the line alone: too short to have been wrapped (the
    # quote prefix only shortens it; a tab may widen it), longer than any wrap column, or
    # begun before the buffer (a line the buffer did not keep whole is that long).
    if line_start < 0 or end - line_start > _LONGEST_LINE:
        return NO_CONTINUATION
    if end - line_start < MIN_URL_LINE and buf.find("\t", line_start, end) < 0:
        return NO_CONTINUATION
    n = len(buf)
    char = buf[end : end + 1]
    if char == "\n":  # most calls: the URL ends its line
        following = end + 1
        spaced = False
    else:
        k = end
        spaced = False
        if char in _SPACES and buf[end - 1] in _HALF_QUERY:
            # "forum.php? " + "thread=77114": a client wrapped at a space after a
            # half-written query (bounded: a longer run of spaces is a layout, not a wrap).
            stop = min(n, k + _MAX_TRAILING_SPACE)
            while k < stop and buf[k] in " \t":
                k += 1
            spaced = True
        if k < n and buf[k] == "\r":
            k += 1
        if k >= n:
            return None if not final else NO_CONTINUATION
        if buf[k] != "\n":
            return NO_CONTINUATION  # more text on the line, or a space before the break
        following = k + 1
    if buf[following : following + 1] in _NO_NEXT_WORD:
        # A blank line ends the paragraph; a line that starts with "<", a quote mark or
        # another stop holds no word to go on with (continuation's first test).
        return NO_CONTINUATION
    stop = buf.find("\n", following, following + MAX_NEXT_LINE)
    if stop < 0:
        if following + MAX_NEXT_LINE > n and not final:
            return None
        if following + MAX_NEXT_LINE <= n:
            return NO_CONTINUATION  # a next line this long was not wrapped
        stop = n
    if buf[stop - 1] == "\r":
        stop -= 1
    next_line = buf[following:stop]
    if not next_line.strip(_HEAD_CHARS):
        return NO_CONTINUATION  # a quoted blank line ("> "): no word (the same test)
    line = buf[line_start:end]
    url_from = url_start if url_start > line_start else line_start
    if answers is None:
        at, answer = _answer(buf[url_from:end], line, next_line, spaced)
    else:
        # The answer is a function of the two lines and where the URL starts on the first
        # (bounded: a cleared memo only costs the asking again).
        key = (end - url_from, line, next_line, spaced)
        known = answers.get(key)
        if known is None:
            known = _answer(buf[url_from:end], line, next_line, spaced)
            if len(answers) >= MAX_ANSWERS:
                answers.clear()
            answers[key] = known
        at, answer = known
    return NO_CONTINUATION if at < 0 else (following + at, answer)


def _answer(url: str, line: str, next_line: str, spaced: bool) -> tuple[int, int]:
    """:func:`wrapped_continuation`'s answer from the URL's part on its line, that line up
    to the URL's end and the next line: ``(start in next_line or -1, answer)``."""
    if _soft_break(line):
        return _soft_continuation(url, line, next_line, spaced)
    found = continuation(url, line, next_line, spaced=spaced)
    if found is None:
        return NO_CONTINUATION
    return found.start, JOIN if found.wrapped else BOTH
