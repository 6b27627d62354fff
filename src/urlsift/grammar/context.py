"""The context grammar: how URLs are written in free text (RFC 1738 appendix).

Strategy: every pattern the scanner uses is written here as a documented regex *source*
string, named after what it recognises, and compiled in one place (:func:`compile_patterns`,
cached per scheme set); the sources that depend on the configuration are built by small
functions (:func:`colon_trigger`, :func:`bare_token` ...). The scanner never builds a
pattern itself. Each piece has one definition here that every reader of text uses: the
scheme name (:func:`scheme_name`), the mail quote prefix (:data:`QUOTE_PREFIX`,
:func:`quote_key`, :func:`strip_quote_prefix`), the punctuation trimmed after a URL.

Linear time is a hard rule: no pattern has nested unbounded quantifiers, and every
repetition that can run into free text is bounded (``{0,N}``), so one match attempt costs at
most a fixed number of steps and a scan never goes quadratic (the ReDoS bugs of linkify-it,
Django's urlize and url-regex all came from nested quantifiers over URL characters).

Speed: each trigger pattern starts with one literal character (``<`` or ``:``), so the regex
engine skips ahead with a fast single-character search and only then looks around it. The
two are searched separately and merged by the scanner: an alternation ``<...|:...`` makes the
engine test a character set at every position instead, which is several times slower on
mail text than the two on their own, and a case-insensitive alternation of scheme words at
every position is slower still.

Engines: every pattern is compiled with the stdlib ``re``, whose calls cost a fraction of
``regex``'s (the scanner makes several calls per URL) and whose searches are faster too,
the colon trigger included (written with one fixed-width look-behind per word length,
where ``regex`` could take one of variable width). ``benchmarks/bench_patterns.py``
measures each of these choices; the figures are in ``benchmarks/README.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from .._record import record
from .rfc import ALPHA_CHARS, DIGIT_CHARS, SCHEME_CHARS
from .rfc import compile_on_use as compile_on_use  # re-exported: extraction imports it here

MAX_SCHEME_LENGTH = 64
"""Longest scheme name recognised (bounds every look-around)."""


def scheme_name(max_length: int | None = MAX_SCHEME_LENGTH, min_length: int = 1) -> str:
    """Return the pattern source of a scheme name as written in text (no colon, no group).

    RFC 1738 §5:   scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]
    (its characters are ``_grammar.SCHEME_CHARS``, the one definition). Deviation: a scheme
    must start with a letter (RFC 2396 §3.1 / RFC 3986 §3.1), so that times ("12:30") and
    list markers ("1.:") are never schemes. Case-insensitive, as §2.1 says. The patterns
    that look for a scheme name in text are built here; a reader that needs other bounds
    (CommonMark's autolink: 2 to 32 characters) passes them and says why.

    Args:
        max_length: the longest name matched; ``None`` for no bound, which only a pattern
            anchored at one place may use (a search must stay linear).
        min_length: the shortest name matched.
    """
    if max_length is None:
        rest = "*" if min_length == 1 else f"{{{min_length - 1},}}"
    else:
        rest = f"{{{min_length - 1},{max_length - 1}}}"
    return f"[{ALPHA_CHARS}][{SCHEME_CHARS}]{rest}"


SCHEME = scheme_name()
"""A scheme name, at most :data:`MAX_SCHEME_LENGTH` characters (bounds every look-around)."""

# The appendix's prefix: "URL:" (any case). Only recognised at the start of a word, so that
# "CURL:" or "X-URL:" headers are not prefixes.
URL_PREFIX_WORD = "url"

# A scheme name must not continue a word: "xhttp:" is not "http:". The plain trigger
# refuses a letter, a digit or "." before the word (the scheme characters but "+" and
# "-"), but not "+" or "-" ("+news:", "-http://"): the scanner decides those (see GLUE).
# It refuses a "/" too: a scheme name that ends a path is no URL's start
# ("PATH=/usr/lib/news:/bin", "/var/spool/ftp:").
NOT_AFTER_SCHEME_CHAR = rf"(?<![{ALPHA_CHARS}{DIGIT_CHARS}./])"

# A URL glued to the text before it: "(R-XX)   -http://...", "fiber.https://...",
# "git+https://..." (pip's VCS URLs: the https URL is what is fetched). A scheme word right
# after a "-", ".", "+" or digit (GLUE) is a URL when "//" follows its colon; never after a
# letter ("xhttp://" is still no URL). Without "//" ("news:", "mailto:") a glued word is
# prose ("e-mailto:", "foo.news:") unless it follows a "+" or "-" that starts the line: a
# quote or list mark ("+news:abc123$1@news.example.net"). "URL:" never takes glue ("X-URL:"
# is a header name). The trigger finds "." and digit glue with glued_words (only where
# "//" follows) and "+" and "-" glue with the plain words; the scanner then applies the
# rule to "+" and "-".
GLUE = frozenset("-.+0123456789")
"""Scheme characters that may stand right before a scheme word glued to them."""


def glued_words(length: int, words: Iterable[str]) -> str:
    """A look-behind before a colon: one of ``words`` (all ``length`` long, regex-escaped)
    right after a "." or a digit, captured as group ``g<length>``."""
    return rf"(?<=[.0-9](?P<g{length}>(?ai:{'|'.join(words)})):)"


# Triggers: where a candidate may begin. The scanner takes whichever comes first.
#   "<" followed by scheme ":"          -> a wrapper <URL:...> or an angle bracket <scheme:...>
ANGLE_TRIGGER = rf"<(?={SCHEME}:)"
#   ":" preceded by a known scheme word -> a bare URL, or the URL: prefix
# It finds the colon first and then checks the word before it with bounded look-behinds. A
# cheap one first tests the three characters before the colon against the words' last
# three (``last_letters``: character classes of both ASCII cases, see _letters_class; a
# class is left out when a word is too short to have that letter), which turns away most
# colons of prose and headers ("Subject:", "12:30", "Note:"; with the last two letters
# alone, "Date:", "To:" and "time:" passed, and the search was a quarter slower on real
# mail). Then one look-behind per word length (``re`` wants a fixed width
# in each), the words of that length captured as group ``w<length>`` (see colon_words):
# the group that matched is ``m.lastgroup``. The word must be the whole run of scheme
# characters before the colon but a glue "+" or "-" and what precedes it; a word that ends
# another goes after it: "s-ftp:" is "s-ftp" when both "ftp" and "s-ftp" are configured
# (the order costs nothing at the colons that match no word, which are nearly all). Scheme
# names are ASCII, so the words are matched ASCII-only (``(?i)`` alone would let the
# Kelvin sign match "k" and the long s "s"). The letter test and the fixed-width
# look-behinds each make the search faster (see bench_patterns.py). The glued words (groups
# ``g<length>``) come after the plain words behind a "//" test, so they cost nothing but
# that test, and only at colons that passed the letter test. The source is built by
# colon_trigger from colon_words and glued_words.


def colon_words(length: int, words: Iterable[str]) -> str:
    """A look-behind before a colon: one of ``words`` (all ``length`` long, regex-escaped),
    not continuing a word, captured as group ``w<length>``."""
    return rf"(?<={NOT_AFTER_SCHEME_CHAR}(?P<w{length}>(?ai:{'|'.join(words)})):)"


def colon_trigger(last_letters: str, words: str, glued: str) -> str:
    """The colon trigger: a ":" whose preceding characters pass ``last_letters`` (a
    sequence of character classes), then the ``words`` look-behinds (alternatives of
    :func:`colon_words`), then the ``glued`` ones (of :func:`glued_words`) where "//"
    follows (none when ``glued`` is empty: the schemes are "url" alone)."""
    if not glued:
        return rf":(?<={last_letters}:)(?:{words})"
    return rf":(?<={last_letters}:)(?:{words}|(?=//)(?:{glued}))"


TRIGGER_LOOKAHEAD = 1 + MAX_SCHEME_LENGTH + 1
"""Characters after a trigger's start that the trigger pattern may look at."""

# Mail quote prefix at the start of a line: "> ", ">> ", "> > ", with up to three leading
# spaces (as in indented quotations). Bounded: at most 16 levels.
# Two prefixes are the same speaker's when their keys (quote_key) are equal. This is the
# one definition: the scanner, the rejoiner (strip_quote_prefix) and the wrap evidence of
# urlsift.extraction.wrap all read prefixes with it.
QUOTE_PREFIX = r"(?:[ \t]{0,3}>){1,16}[ \t]?"
QUOTE_PREFIX_SPAN = 16 * 4 + 1
"""Longest text :data:`QUOTE_PREFIX` can match (a match never extends past it)."""
QUOTE_PREFIX_CHARS = " \t>"
"""The characters a :data:`QUOTE_PREFIX` is made of (a line starting otherwise has none)."""

QUOTE_PREFIX_RE = compile_on_use(QUOTE_PREFIX)
"""The quote prefix at a line start (use with ``match``)."""


# The bodies of bare URLs carried over a possible wrap (urlsift.extraction.wrap decides, the
# scanner makes them, urlsift.extraction.rejoin reads them): here, below both in the import order.


class PossibleWrap(str):
    """The body of a bare URL that the scanner carried over line breaks a client may have
    wrapped, without the signs of a decided wrap (the answer "both").

    The text is the span's, unchanged (it compares, hashes and slices as that ``str``);
    the type tells :func:`urlsift.extraction.rejoin.rejoin` to keep the reading cut at the
    first line break as the URL and to offer the joined one in ``alternatives``, with a
    ``possible-wrap`` warning.
    """

    __slots__ = ()


class SoftBreakWrap(PossibleWrap):
    """A :class:`PossibleWrap` whose lines end in the ``=`` of a quoted-printable soft line
    break, in text left encoded: the joined reading leaves each such ``=`` out (as decoding
    would)."""

    __slots__ = ()


def quote_key(prefix: str) -> str:
    """Return a quote prefix with its spaces removed: ``"> > "`` and ``">>"`` match."""
    return prefix.replace(" ", "").replace("\t", "")


def strip_quote_prefix(line: str, key: str) -> str:
    """Return ``line`` without its quote prefix when that prefix's key is ``key``.

    Args:
        line: a line of text (no line break).
        key: the :func:`quote_key` of the prefix to remove (not empty).

    Returns:
        The line after the prefix, or the line unchanged when it starts with no prefix or
        with another speaker's.
    """
    m = QUOTE_PREFIX_RE.match(line)
    if m is None or quote_key(m.group()) != key:
        return line
    return line[m.end() :]


# Characters that prose puts after a URL and that are not taken as part of a bare URL
# (ASCII sentence punctuation; the Unicode closing quotes and ideographic full stop and
# comma are never legal in a URL anyway). The scanner trims them from a bare URL's end and
# the rejoiner from the reading cut at a wrapped line end.
TRAILING_PUNCT = frozenset(".,;:!?'\u00bb\u201d\u2019\u203a\u3002\uff0c")


# Characters that end a bare URL: whitespace, "<", ">", '"', control characters (never
# part of a URL; they would glue binary junk to it), and the invisible formatting
# characters (zero-width space, bidi marks, embeddings and isolates, word joiner, BOM;
# not ZWJ/ZWNJ, which Indic and Arabic scripts need inside words),
# which RFC 3987 §4.1 forbids in IRIs and which right-to-left text puts around URLs.
#
# RFC 1738 §2.2:  unsafe = "{" | "}" | "|" | "\" | "^" | "~" | "[" | "]" | "`"
# ("All unsafe characters must always be encoded within a URL.") They end a bare URL too,
# so that markup ("@{fg shine}http://shop.example/@{fg text}"), a literal "\n" in spam text,
# Markdown code spans ("`http://x/`") and brace templates ("http://%{d}/", "{ps,pdf}") are
# not taken into it. Deviations: "~" is kept (real URLs are full of it), and so is a
# bracketed IP literal host right after "//" (RFC 3986 §3.2.2: "http://[::1]:8080/"; see
# IP_LITERAL). Inside a wrapper the appendix's rules stand: the wrapper's content is kept
# whole and the validator flags the unsafe characters.
UNSAFE = r"{}|\\^\[\]`"
# White space as ``str.isspace`` and ``re``'s ``\s`` know it, written out: a class of
# characters and ranges alone compiles to one lookup table, while ``\s`` (a category) is
# tested apart for every character, and these classes walk every bare URL.
WHITE_SPACE = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
BARE_STOP = (
    WHITE_SPACE + r"<>\"\x00-\x1f\x7f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2069\ufeff" + UNSAFE
)

# RFC 3986 §3.2.2:  IP-literal = "[" ( IPv6address / IPvFuture ) "]"
#                   IPvFuture  = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
# Loosely (the validator judges it): hex digits, colons and dots with at least one colon,
# or the IPvFuture form; bounded. Only recognised as a bare URL's host, right after "//".
IP_LITERAL = (
    r"\[(?:[0-9A-Fa-f.]{0,39}:[0-9A-Fa-f:.]{1,44}"
    r"|[vV][0-9A-Fa-f]{1,8}\.[A-Za-z0-9\-._~!$&'()*+,;=:]{1,64})\]"
)
IP_LITERAL_SPAN = 90
"""Longer than any match of :data:`IP_LITERAL`."""


def bare_token(limit: int) -> str:
    """A bare URL token: a run of at most ``limit`` non-stop characters.

    The scanner passes one more than its URL length limit, so hitting it can be told apart.
    """
    return rf"[^{BARE_STOP}]{{0,{limit}}}"


# The brackets of the bare-URL balance rule (scanner._CLOSERS and their openers). A bare
# URL is walked in segments that stop at each closing bracket (bare_segment), so
# the balance is decided once per closer and no character of the URL is walked twice; the
# openers of each segment are counted with OPENER.
CLOSER = r")\uff09\u300d\u300f\u3011"
OPENER = r"[(\uff08\u300c\u300e\u3010]"


def bare_segment(limit: int) -> str:
    """One segment of a bare URL: a run of at most ``limit`` characters that are neither
    stops nor closing brackets (the scanner also passes the URL's end bound as ``endpos``)."""
    return rf"[^{BARE_STOP}{CLOSER}]{{0,{limit}}}"


# Inside a wrapper the content runs to the next ">", "<" or line end; each line is
# searched for the first of those.
WRAPPER_STOP = r"[<>\n]"

# A capitalised word that starts prose: a hyphen after punctuation at a line end does not
# break a URL when the next line starts with one ("...com.-" then "You received this").
PROSE_WORD = r"[A-Z][a-z]{0,30}[ \t\r\n,;:!?]"

# Horizontal whitespace (a wrapper's continuation line is blank when it holds only this).
HSPACE = r"[ \t\r\f\v]"
HSPACE_RUN = r"[ \t\r\f\v]{0,256}"

# An RFC page break inside a wrapper (RFC 7322 §4.2 page layout): blank lines, the page
# footer ending in "[Page N]", a form feed, the next page's header line ("RFC NNNN ...
# Month Year"), blank lines. A wrapper broken across pages continues after it, and the
# rejoiner drops it. Every part is bounded; PAGE_BREAK_SPAN is an upper bound of a match.
RFC_PAGE_BREAK = (
    r"(?:[ \t]{0,16}\r?\n){0,8}"
    r"[^\n\f]{0,100}\[Page [0-9]{1,5}\][ \t]{0,16}\r?\n"
    r"\f[ \t]{0,16}(?:\r?\n)?"
    r"(?:RFC [0-9]{1,5}[^\n\f]{0,100}\r?\n)?"
    r"(?:[ \t]{0,16}\r?\n){0,8}"
)
PAGE_BREAK_SPAN = 600

# Whitespace between "URL:" and the scheme of a prefixed URL (spaces and tabs only).
PREFIX_GAP = r"[ \t]{0,16}"


@record
class Patterns:
    """The compiled patterns one scanner configuration needs."""

    angle_trigger: re.Pattern[str]
    colon_trigger: re.Pattern[str]
    bare_token: re.Pattern[str]
    bare_segment: re.Pattern[str]
    opener: re.Pattern[str]
    wrapper_stop: re.Pattern[str]
    quote_prefix: re.Pattern[str]
    hspace_run: re.Pattern[str]
    prefix_gap: re.Pattern[str]
    page_break: re.Pattern[str]
    scheme_ahead: re.Pattern[str]
    ip_literal: re.Pattern[str]
    prose_word: re.Pattern[str]


def _letters_class(names: list[str], index: int) -> str:
    """A character class of the names' characters at ``index``, in both cases.

    Empty (no test) when a name is too short to have one.
    """
    if any(len(name) < -index for name in names):
        return ""
    chars = {c for name in names for c in (name[index].lower(), name[index].upper())}
    return "[" + "".join(re.escape(c) for c in sorted(chars)) + "]"


@lru_cache(maxsize=32)
def compile_patterns(schemes: tuple[str, ...], max_url_length: int) -> Patterns:
    """Compile the scanner's patterns for a set of bare-URL schemes.

    Args:
        schemes: lower-case scheme names recognised in bare URLs, already validated.
        max_url_length: the longest bare URL the scanner keeps (the token bound).

    Returns:
        The compiled :class:`Patterns`; cached, so scanners with one configuration share it.
    """
    names = sorted({URL_PREFIX_WORD, *schemes})
    by_length: dict[int, list[str]] = {}
    for name in names:
        by_length.setdefault(len(name), []).append(re.escape(name))
    glued_by_length = {
        length: [word for word in group if word != URL_PREFIX_WORD]
        for length, group in by_length.items()
    }

    # Longest words first only when a word ends a longer one ("ftp", "s-ftp"); otherwise
    # at most one length can match at a colon, and the short lengths, where the common
    # words are ("http", "ftp"), are tried first.
    longest_first = any(len(a) < len(b) and b.endswith(a) for a in names for b in names)

    def alternatives(
        look_behind: Callable[[int, Iterable[str]], str], groups: dict[int, list[str]]
    ) -> str:
        return "|".join(
            look_behind(length, group)
            for length, group in sorted(groups.items(), reverse=longest_first)
            if group
        )

    last_letters = "".join(_letters_class(names, index) for index in (-3, -2, -1))
    words = alternatives(colon_words, by_length)
    trigger = colon_trigger(last_letters, words, alternatives(glued_words, glued_by_length))
    return Patterns(
        angle_trigger=ANGLE_TRIGGER_RE,
        colon_trigger=re.compile(trigger),
        bare_token=compile_on_use(bare_token(max_url_length + 1)),
        bare_segment=re.compile(bare_segment(max_url_length + 1)),
        opener=OPENER_RE,
        wrapper_stop=compile_on_use(WRAPPER_STOP),
        quote_prefix=QUOTE_PREFIX_RE,
        hspace_run=compile_on_use(HSPACE_RUN),
        prefix_gap=compile_on_use(PREFIX_GAP),
        page_break=PAGE_BREAK_RE,
        scheme_ahead=compile_on_use(rf"{SCHEME}:"),
        ip_literal=IP_LITERAL_RE,
        prose_word=compile_on_use(PROSE_WORD),
    )


SCHEME_NAME = compile_on_use(rf"{SCHEME}\Z")
"""A whole string that is a syntactically valid scheme name (used to check options)."""

BLANK_LINE_RE = compile_on_use(r"\n(?=[ \t\r]{0,256}\n)")
"""A line break followed by a blank line without a form feed (a point no span crosses,
unless an RFC page break is near: see ``scanner.find_boundary``)."""

ANGLE_TRIGGER_RE = re.compile(ANGLE_TRIGGER)
"""The ``<`` trigger (the same for every scheme set)."""

PAGE_BREAK_RE = compile_on_use(RFC_PAGE_BREAK)
"""An RFC page break (see :data:`RFC_PAGE_BREAK`), as the scanner matches it inside a wrapper:
at the start of a blank line."""

PAGE_BREAK_IN_BODY_RE = compile_on_use(rf"(?<=\n)(?={HSPACE_RUN}\n){RFC_PAGE_BREAK}")
"""The same break found again by the rejoiner in a wrapper's body: only where the scanner
could have seen it (right after a line break, on a blank line), so text that merely looks
like a page footer on a URL's own line is never removed."""

IP_LITERAL_RE = compile_on_use(IP_LITERAL)
"""A bracketed IP literal host (see :data:`IP_LITERAL`)."""

OPENER_RE = compile_on_use(OPENER)
"""An opening bracket of the bare-URL balance rule."""

# Pseudo-URLs that name no resource: script code a browser runs ("javascript:",
# "vbscript:") and the browser's own pages ("about:blank"). Google Groups hides addresses
# as "name...@gmail.com <javascript:>"; web pages pasted into mail carry "<javascript:void(0)>".
# In angle brackets, in <URL:...> wrappers and after "URL:" their span is decided as usual
# and then skipped: not reported, and nothing inside it is found either. (They are never
# bare-URL schemes unless configured; a configured one is reported.) "data:" URLs carry
# their resource (RFC 2397) and are reported.
PSEUDO_SCHEMES = frozenset({"javascript", "vbscript", "about"})

# Schemes recognised in angle brackets and after "URL:" even when they are not in the
# configured bare-URL set: permanent and common provisional schemes of the IANA URI scheme
# registry. Without such a list, XML tags like <xsl:template> or <o:p> would read as URLs.
# (An angle bracket or prefix is also accepted for any scheme followed by "//", and for
# experimental "x-" schemes; a <URL:...> wrapper accepts any scheme at all.)
_REGISTERED_SCHEME_TABLE = """
    aaa aaas about acap acct acr afp afs aim apt attachment bitcoin blob callto cap chrome
    cid coap coaps content crid cvs dat data dav dict dns doi dtn ed2k example facetime fax
    feed file finger fish ftp geo git go gopher gtalk h323 http https iax icap im imap info
    ipfs ipn ipp ipps irc irc6 ircs iris iris.beep iris.lwz iris.xpc iris.xpcs isbn jabber
    jar javascript ldap ldaps magnet mailserver mailto maps market mid mms modem msrp msrps
    mtqp mupdate mvn news nfs ni nih nntp opaquelocktoken pkcs11 pop pres prospero proxy
    reload res resource rmi rsync rtmp rtsp rtsps rtspu service session sftp sgn shttp sieve
    sip sips skype smb sms snews snmp soap.beep soap.beeps ssh steam stun stuns svn tag tel
    telnet tftp thismessage tip tn3270 turn turns tv udp urn uuid vemmi view-source vnc wais
    webcal ws wss xcon xcon-userid xmlrpc.beep xmlrpc.beeps xmpp z39.50 z39.50r z39.50s
"""
REGISTERED_SCHEMES = frozenset(_REGISTERED_SCHEME_TABLE.split())
