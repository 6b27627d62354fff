"""Sans-IO scanner: text in through :meth:`Scanner.feed`, :class:`Candidate` spans out.

Strategy
--------
The scanner finds where URLs are written, in the four forms of RFC 1738's appendix and
RFC 3986 App. C, and decides each span's extent; it never reads files, never rejoins and
never validates (see :mod:`urlsift.extraction.rejoin` and :mod:`urlsift.validation.rules`).

* **Two trigger patterns** (:data:`urlsift.grammar.context.ANGLE_TRIGGER` and
  :data:`~urlsift.grammar.context.COLON_TRIGGER_TEMPLATE`) find every place a candidate may
  start: a ``<`` followed by ``scheme:``, or a ``:`` preceded by a known scheme word or by
  ``URL``; the scanner takes whichever comes first. A small handler per form then decides
  the span.
* **Left to right, never back.** After a span is decided the scan resumes at its end, so an
  occurrence is reported once, in the widest form it is in (a wrapped URL is not also bare).
* **A bare URL crosses a line end** after a hyphen (RFC 1738 appendix), or where the
  evidence of :mod:`urlsift.extraction.wrap` says a mail client wrapped it (a join) or may have (a
  possible wrap: the candidate's body is then a :class:`urlsift.grammar.context.PossibleWrap`, so
  that rejoining keeps the cut reading first); that decision reads the whole next line,
  so it waits until the line is in the buffer.
* **One buffer, one decider.** The text, its absolute offsets, line numbers and the quote
  prefix of the line it starts in are kept by :class:`urlsift.extraction.textbuffer.TextBuffer`;
  this module decides, and tells the buffer which text is decided.
* **Chunking never changes results.** Every decision reads only characters present in the
  buffer; a decision that would read past the buffer's end is *deferred* (the handler
  returns ``None``) and retried when more text arrives or at :meth:`Scanner.close`.
* **Bounded buffers, linear time.** Spans are capped (``DEFAULT_MAX_URL_LENGTH``,
  ``DEFAULT_MAX_WRAPPER_LENGTH``), so a deferred span holds at most that much text; what
  is decided is dropped from the buffer. Text is scanned in blocks of ``block_size``
  characters, so feeding one character at a time costs no more than feeding it whole.
  Every pattern is bounded (see :mod:`urlsift.grammar.context`). Inside one span too: a handler
  that refuses its trigger (the scan then resumes one character later) decides it before
  walking text that may hold later triggers, a bare URL is walked in segments that stop at
  each closing bracket (never past the bracket that ends it), and a deferred span is
  walked again only once as much new text has arrived, so every character is examined a
  bounded number of times whatever the span cap (``tests/test_adversarial_scan.py``
  counts the pattern work).
* **Bad text is data.** Nothing here raises on input text: NUL bytes, lone surrogates from
  invalid UTF-8 and megabyte lines are just characters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from re import Match

from .._model import Candidate, Kind
from ..errors import ConfigError, check_limit, check_names
from ..grammar.context import (
    BLANK_LINE_RE,
    IP_LITERAL_SPAN,
    MAX_SCHEME_LENGTH,
    PAGE_BREAK_SPAN,
    PSEUDO_SCHEMES,
    QUOTE_PREFIX_CHARS,
    REGISTERED_SCHEMES,
    SCHEME_NAME,
    TRAILING_PUNCT,
    TRIGGER_LOOKAHEAD,
    URL_PREFIX_WORD,
    Patterns,
    compile_patterns,
    quote_key,
)
from .textbuffer import TextBuffer
from .wrap import BODY_TYPES, JOIN, WrapAnswers, wrapped_continuation

DEFAULT_SCHEMES: tuple[str, ...] = (
    "ftp",
    "http",
    "https",
    "gopher",
    "mailto",
    "news",
    "nntp",
    "telnet",
    "wais",
    "file",
    "prospero",
)
"""Schemes recognised in bare URLs (and prefixed ones) unless configured otherwise."""

DEFAULT_MAX_URL_LENGTH = 4096
"""Longest bare or prefixed URL kept, in characters; longer ones are cut (``url-too-long``)."""

DEFAULT_MAX_WRAPPER_LENGTH = 4096
"""Longest wrapper span (from ``<`` to ``>``), in characters, before it counts as unclosed."""

DEFAULT_BLOCK_SIZE = 1 << 16
"""Characters gathered from :meth:`Scanner.feed` before a scanning pass runs."""

# Characters kept before the resume position, so the trigger's look-behind (a scheme word,
# the glue before it and the line break before that) sees the same text whatever the
# chunking.
_LOOKBEHIND_KEEP = MAX_SCHEME_LENGTH + 3
# Closing brackets: the first one without its opener inside a bare URL ends the URL.
# ("[", "]", "{" and "}" are unsafe (RFC 1738 §2.2): any of them ends a bare URL.)
_CLOSERS = {
    ")": "(",
    "\uff09": "\uff08",  # fullwidth parentheses
    "\u300d": "\u300c",  # CJK corner brackets
    "\u300f": "\u300e",
    "\u3011": "\u3010",
}
_OPENERS = {opener: closer for closer, opener in _CLOSERS.items()}


# What may follow "<URL:" when a pseudo-URL is inside: a gap, or a pseudo scheme's initial.
_PSEUDO_LEADS = frozenset(" \t" + "".join(s[0] + s[0].upper() for s in PSEUDO_SCHEMES))
# Stops after which the bare-URL walk has more to decide: closing brackets (the balance
# rule), "[" (an IP literal host), "{" (a sigil before it is dropped).
_RARE_STOPS = frozenset(_CLOSERS) | {"[", "{"}
# Characters _trim may drop from a bare URL's end.
_TRIMMED = TRAILING_PUNCT | {"-", "_", "="}
# A run of this many of one of these ends a bare URL: a rule line ("index.html______").
_RULE_CHARS = frozenset("_=")
_RULE_RUN = 3
# Sigils of brace templates and markup ("${USER}", "%{d}", AmigaGuide's "@{fg text}"):
# dropped from a bare URL's end when the "{" that follows ended the URL.
_BRACE_SIGILS = frozenset("$%@")
# Markdown emphasis marks: dropped from a bare URL's end when one stands right before it.
_EMPHASIS = frozenset("*_~")
_LINE_ENDS = ("\n", "\r")
_SPACES = (" ", "\t")
# What may follow a URL that goes on: a line end, or the spaces before one (the hyphen rule
# and the wrap evidence both answer "no" after anything else).
_GOES_ON = frozenset("\n\r \t")
# A bare URL ending in one of these before spaces and a line break may go on (see _wrap).
_HALF_QUERY = frozenset("?=&")
# A continuation line of a hyphen-broken bare URL must hold more than prose punctuation.
_NOT_CONTINUATION = frozenset(".,;:!?'\")]}")
# Characters of a continuation line read to decide that it continues the URL.
_CONTINUATION_LOOK = 64
# Candidate's tuple constructor without the named tuple's Python-level __new__ (_make
# gives every field, in order; tests/test_hot_paths.py checks the count).
_new_tuple: Callable[[type[Candidate], tuple[object, ...]], Candidate] = tuple.__new__
# Most characters skipped before the URL inside an unclosed wrapper (whitespace after URL:).
_MAX_LEADING_SPACE = 64


# Text around a split point that must hold no form feed: an RFC page break (which a wrapper
# may cross, blank lines and all) spans less than this.
_PAGE_BREAK_MARGIN = PAGE_BREAK_SPAN + 2


def find_boundary(text: str, start: int, *, final: bool = False) -> int | None:
    """Return a point at or after ``start`` where ``text`` can be cut without changing a scan.

    The point follows a line break and begins a blank line, with no form feed nearby. No
    span crosses such a line (a bare URL stops at whitespace, a hyphen break needs a
    non-blank next line, and a blank line ends a wrapper unless it begins an RFC page
    break, which needs a form feed), so scanning ``text[:p]`` and then ``text[p:]`` with
    ``origin`` set (each closed) gives exactly the candidates of scanning ``text`` whole.

    Args:
        text: the text (its first character at a line start).
        start: where to start looking.
        final: ``text`` is all there is (otherwise a point needs ``PAGE_BREAK_SPAN``
            characters after it, to rule out a page break).

    Returns:
        The index, or None when there is none (yet).
    """
    pos = start
    while True:
        m = BLANK_LINE_RE.search(text, pos)
        if m is None:
            return None
        p = int(m.end())
        if p + _PAGE_BREAK_MARGIN > len(text) and not final:
            return None
        if "\f" not in text[max(0, p - _PAGE_BREAK_MARGIN) : p + _PAGE_BREAK_MARGIN]:
            return p
        pos = p


MAX_LENGTH_LIMIT = 2**31 - 1
"""The largest ``max_url_length`` and ``max_wrapper_length`` a :class:`Scanner` takes: the
caps are repetition bounds of its patterns, which the ``re`` module holds under 2**32."""


def normalize_schemes(schemes: Iterable[str] | None) -> tuple[str, ...]:
    """Check and lower-case a configured scheme set.

    Args:
        schemes: scheme names, any case; ``None`` means :data:`DEFAULT_SCHEMES`.

    Returns:
        The sorted, de-duplicated, lower-case names.

    Raises:
        ConfigError: a name is not a syntactically valid scheme, or the set is empty.
    """
    if schemes is None:
        return tuple(sorted(DEFAULT_SCHEMES))
    names: set[str] = set()
    for name in schemes:
        if not isinstance(name, str) or not SCHEME_NAME.match(name):
            raise ConfigError(
                "scheme", name, "not a scheme name (letter, then letters, digits, +-.)"
            )
        names.add(name.lower())
    if not names:
        raise ConfigError("scheme", "", "at least one scheme is needed")
    return tuple(sorted(names))


def _scheme_setup(schemes: Iterable[str] | None) -> tuple[tuple[str, ...], frozenset[str]]:
    # The normalised bare-URL schemes, and every scheme recognised after "<" or "URL:".
    names = normalize_schemes(schemes)
    return names, REGISTERED_SCHEMES | frozenset(names)


_DEFAULT_SETUP = _scheme_setup(None)


def _in_authority(buf: str, start: int, end: int) -> bool:
    """Is ``buf[start:end]`` inside a URL's authority: no "/", "?" or "#" (RFC 3986 §3.2)?"""
    return all(buf.find(stop, start, end) < 0 for stop in "/?#")


class Scanner:
    """Find URL spans in text fed in chunks of any size.

    ``feed`` and ``close`` return the candidates decided so far, in text order; the
    concatenation of all returned lists does not depend on how the text was chunked.

    Example::

        scanner = Scanner()
        found = scanner.feed("see <URL:ftp://ds.in\\n  ternic.net/rfc>.")
        found += scanner.close()
    """

    def __init__(
        self,
        schemes: Iterable[str] | None = None,
        *,
        max_url_length: int = DEFAULT_MAX_URL_LENGTH,
        max_wrapper_length: int = DEFAULT_MAX_WRAPPER_LENGTH,
        block_size: int = DEFAULT_BLOCK_SIZE,
        origin: tuple[int, int] = (0, 1),
    ) -> None:
        """Create a scanner.

        Args:
            schemes: schemes recognised in bare URLs (default :data:`DEFAULT_SCHEMES`).
            max_url_length: cap on a bare or prefixed URL, in characters.
            max_wrapper_length: cap on a ``<...>`` span, in characters.
            block_size: characters gathered before a scanning pass.
            origin: ``(offset, line)`` of the first character fed, when the text is a
                piece of a larger one that starts at a line start (offsets and lines of
                the candidates are then those of the larger text).

        Raises:
            ConfigError: a scheme name or a limit is unusable.
        """
        most = MAX_LENGTH_LIMIT
        max_url_length = check_limit("max_url_length", max_url_length, least=16, most=most)
        max_wrapper_length = check_limit(
            "max_wrapper_length", max_wrapper_length, least=16, most=most
        )
        block_size = check_limit("block_size", block_size, least=16)
        if schemes is not None:
            schemes = check_names("schemes", schemes)
        # A scanner is made per text unit (per MIME part in an archive): the default
        # scheme set's derived values are computed once.
        names, known = _DEFAULT_SETUP if schemes is None else _scheme_setup(schemes)
        self.schemes: tuple[str, ...] = names
        self._known_schemes = known
        self._max_url = max_url_length
        self._max_wrapper = max_wrapper_length
        self._block_size = block_size
        self._p: Patterns = compile_patterns(self.schemes, max_url_length)
        self.reset(origin)

    # -- public API ---------------------------------------------------------------------

    def reset(self, origin: tuple[int, int] = (0, 1)) -> None:
        """Forget the text so far and start a new one, as a new scanner of this
        configuration would (a pipeline scanning many short texts, such as the parts of a
        mail archive, makes one scanner and resets it per text).

        Args:
            origin: ``(offset, line)`` of the new text's first character (see the
                constructor).
        """
        self._text = TextBuffer(origin)  # the undecided text, its offsets and lines
        self._pos = 0  # scanning resumes here (index into self._text.text)
        # Undecided text after the resume position: the next pass waits until at least as
        # much has arrived, so a deferred span is walked again at most once per doubling
        # (fed in small blocks, a 4 KB hyphen chain was walked once per block).
        self._wait = 0
        self._skipping = False  # inside the rest of a bare URL cut at the length bound
        self._closed = False
        # The wrap evidence's last answers (urlsift.extraction.wrap.wrapped_continuation's
        # memo): this scanner's text only, so one scan never reuses another's work.
        self._answers: WrapAnswers = {}

    def finds_nothing_in(self, text: str) -> bool:
        """Whether a new scanner of this configuration, fed ``text`` whole and closed, is
        sure to return no candidate (a cheap test before any scanning state is built).

        True only when ``text`` is shorter than a block (so that the scanner's one pass
        would read it whole, from its start) and neither trigger (``<`` before a scheme,
        a scheme word before ``:``) matches anywhere in it: that pass would then end at
        once, since every candidate starts at a trigger. Most parts of a mail archive
        hold no URL; this turns them away with two searches, each stopping at the first
        trigger it finds.

        Args:
            text: the whole text.
        """
        patterns = self._p
        return (
            len(text) < self._block_size
            and patterns.colon_trigger.search(text) is None
            and patterns.angle_trigger.search(text) is None
        )

    def scan_whole(self, text: str, origin: tuple[int, int] = (0, 1)) -> list[Candidate]:
        """Scan one whole text from a fresh start: ``reset(origin)``, ``feed(text)`` and
        ``close()`` in one call, with their result (the scanner is left closed).

        For many short texts (the parts of a mail archive) this builds no state for a text
        in which neither trigger matches (:meth:`finds_nothing_in`'s test, whose searches
        the scan then starts from), and a text shorter than a block is scanned in its one
        pass without the chunk queue.

        Args:
            text: the whole text.
            origin: ``(offset, line)`` of its first character (see the constructor).

        Returns:
            Every candidate of the text, in text order.

        Raises:
            TypeError: ``text`` is not a ``str``.
        """
        if type(text) is not str or len(text) >= self._block_size:
            self.reset(origin)  # several passes: the general way (feed checks the type)
            found = self.feed(text)
            found += self.close()
            return found
        patterns = self._p
        colon = patterns.colon_trigger.search(text)
        angle = patterns.angle_trigger.search(text)
        if colon is None and angle is None:
            # No trigger: the one pass would end at once. A closed scanner holds no text
            # (close and this method drop it); any other is closed, as close() leaves it.
            if not self._closed:
                self._closed = True
                self._text.clear()
            return []
        self._closed = True
        self._text.restart(origin, text)
        self._skipping = False
        if self._answers:
            self._answers = {}
        found = self._run(True, (angle, colon))
        self._text.clear()
        return found

    def feed(self, text: str) -> list[Candidate]:
        """Add text; return the candidates that are now decided.

        Args:
            text: the next chunk of decoded text (any length, may be empty).

        Returns:
            Candidates decided by this call, in text order (often empty until a block fills).

        Raises:
            RuntimeError: the scanner was already closed (a programming error).
            TypeError: ``text`` is not a ``str`` (bytes must be decoded first;
                :func:`urlsift.iter_urls` decodes binary input).
        """
        if not isinstance(text, str):
            raise TypeError(
                f"Scanner.feed() takes decoded text (str), not {type(text).__name__}; "
                "decode bytes first, or pass a binary stream to urlsift.iter_urls()"
            )
        if self._closed:
            raise RuntimeError("Scanner.feed() called after close()")
        if not text:
            return []
        waiting = self._text.add(text)
        if waiting < self._block_size or waiting < self._wait:
            return []
        return self._run(final=False)

    def close(self) -> list[Candidate]:
        """Declare the end of the text; return the remaining candidates.

        Returns:
            The candidates not yet returned. Calling ``close`` again returns ``[]``.
        """
        if self._closed:
            return []
        self._closed = True
        found = self._run(final=True)
        self._text.clear()
        return found

    # -- scanning pass ------------------------------------------------------------------

    def _run(
        self, final: bool, first: tuple[Match[str] | None, Match[str] | None] | None = None
    ) -> list[Candidate]:
        # ``first``: the two triggers' first matches at or after the resume position, when
        # the caller searched already (scan_whole).
        out: list[Candidate] = []
        angle_search = self._p.angle_trigger.search
        colon_search = self._p.colon_trigger.search
        # The next match of each trigger at or after ``pos``, and where it starts (``n``
        # when there is none): a match found from an earlier position stays the next one
        # until ``pos`` passes it, so each trigger's searches cover the buffer once
        # (linear), whichever of the two comes first.
        if first is None:
            buf = self._text.flush()
            pos = self._pos
            angle = angle_search(buf, pos)
            colon = colon_search(buf, pos)
        else:  # scan_whole: the text is in the buffer, nothing queued, from its start
            buf = self._text.text
            pos = 0
            angle, colon = first
        n = len(buf)
        a = n if angle is None else angle.start()
        c = n if colon is None else colon.start()
        while True:
            if self._skipping:
                pos = self._skip_token(pos, final)
                if self._skipping:
                    break
            if a < pos and angle is not None:
                angle = angle_search(buf, pos)
                a = n if angle is None else angle.start()
            if c < pos and colon is not None:
                colon = colon_search(buf, pos)
                c = n if colon is None else colon.start()
            if c < a and colon is not None:  # a colon trigger first
                t = c
                # The one group that matched is the scheme word (see colon_words).
                word: str = colon[colon.lastindex or 0]
                w = t - len(word)
                if w < pos:
                    pos = t + 1  # the word belongs to the span decided before: not a trigger
                    continue
                if w > 0 and buf[w - 1] in "+-":  # glue the trigger lets through
                    glued = self._glued(w, t, word, final)
                    if glued is None:
                        pos = w
                        break
                    if not glued:
                        pos = t + 1
                        continue
                if word.lower() == URL_PREFIX_WORD:
                    step = self._at_prefix(t, final, out)
                else:
                    step = self._bare_at(w, "bare", w, t, final, out)
                    if step == -1:
                        step = t + 1
                if step is None:  # deferred: retry from the word when more text arrives
                    pos = w
                    break
            elif angle is not None:
                t = a
                step = self._at_angle(t, final, out)
                if step is None:  # deferred: retry from the trigger when more text arrives
                    pos = t
                    break
            else:
                # A "<" in the last few characters may become a trigger when more text comes.
                pos = n if final else max(pos, n - TRIGGER_LOOKAHEAD)
                break
            pos = step
        self._pos = pos
        self._wait = n - pos
        if not final:
            self._drop_decided()
        return out

    def _skip_token(self, pos: int, final: bool) -> int:
        """Skip the rest of a bare URL that was cut at the length bound."""
        buf = self._text.text
        token = self._p.bare_token
        while True:
            m = token.match(buf, pos)
            end = m.end() if m else pos
            if end == len(buf) and not final:
                return end  # still inside the token: keep skipping when more text comes
            if end - pos <= self._max_url:
                self._skipping = False
                return end
            pos = end

    def _drop_decided(self) -> None:
        """Drop decided text from the buffer, keeping what look-behinds need."""
        cut = self._pos - _LOOKBEHIND_KEEP
        if cut > 0:
            self._pos -= self._text.discard(cut)

    # -- candidates ---------------------------------------------------------------------

    def _make(
        self,
        kind: Kind,
        start: int,
        end: int,
        body: str,
        prefix: str,
        at: tuple[int, int] | None,
        terminated: bool = True,
        truncated: bool = False,
    ) -> Candidate:
        # ``at``: (line, absolute line start) of ``start`` when the caller already has it.
        # Arguments are positional in the hot calls (cheaper than keywords).
        text = self._text
        line, line_start = text.line_at(start) if at is None else at
        base = text.base
        buf = text.text
        end_line = line + buf.count("\n", start, end - 1) if end - 1 > start else line
        # Every field, in Candidate's order, through tuple.__new__: the named tuple's own
        # __new__ is a Python function that does the same after binding its parameters.
        return _new_tuple(
            Candidate,
            (
                kind,
                buf[start:end],
                body,
                base + start,
                base + end,
                line,
                base + start - line_start + 1,
                end_line,
                prefix,
                terminated,
                truncated,
            ),
        )

    def _recognised(self, scheme: str, after: int, final: bool) -> bool | None:
        """Is ``scheme`` (followed by ``:`` ending at ``after``) a URL scheme in context?

        Returns None when the answer needs characters not yet in the buffer.
        """
        name = scheme.lower()
        if name in self._known_schemes or name.startswith("x-"):
            return True
        if after + 2 > len(self._text.text) and not final:
            return None
        return self._text.text.startswith("//", after)

    def _glued(self, start: int, colon: int, word: str, final: bool) -> bool | None:
        """Is the scheme word at ``start``, right after a "+" or "-", a URL? (See GLUE.)

        Yes when "//" follows the colon, or when the "+" or "-" starts its line; never for
        ``URL:`` ("X-URL:" is a header name). Returns None when the answer needs characters
        not yet in the buffer.
        """
        if word.lower() == URL_PREFIX_WORD:
            return False
        buf = self._text.text
        if colon + 3 > len(buf) and not final:
            return None
        if buf.startswith("//", colon + 1):
            return True
        # The look-behind kept before the resume position covers buf[start - 2].
        return start == 1 or (start >= 2 and buf[start - 2] == "\n")

    # -- handlers: each returns the resume index, or None to defer ------------------------

    def _at_angle(self, t: int, final: bool, out: list[Candidate]) -> int | None:
        """Handle ``<scheme:`` at ``t``: a ``<URL:...>`` wrapper or a ``<scheme:...>``."""
        buf = self._text.text
        n = len(buf)
        m = self._p.scheme_ahead.match(buf, t + 1)
        if m is None:  # cannot happen: the trigger's look-ahead matched the same text
            return t + 1
        word = m.group()[:-1].lower()
        if word == URL_PREFIX_WORD:
            kind: Kind = "wrapped"
            content = m.end()
            word = ""
            if content == n or buf[content] in _PSEUDO_LEADS:
                gap = self._p.prefix_gap.match(buf, content)
                inner = self._p.scheme_ahead.match(buf, gap.end() if gap else content)
                if inner is None and n - content < TRIGGER_LOOKAHEAD + 16 and not final:
                    return None
                word = inner.group()[:-1].lower() if inner else ""
        else:
            known = self._recognised(word, m.end(), final)
            if known is None:
                return None
            if not known:
                return t + 1
            kind = "angle"
            content = t + 1
        if word in PSEUDO_SCHEMES:  # decided, then skipped: see PSEUDO_SCHEMES
            return self._wrapper(t, kind, content, final, [])
        return self._wrapper(t, kind, content, final, out)

    def _wrapper(
        self, t: int, kind: Kind, content: int, final: bool, out: list[Candidate]
    ) -> int | None:
        """Find the end of a ``<...>`` span whose content starts at ``content``."""
        buf = self._text.text
        n = len(buf)
        at = self._text.line_at(t)
        prefix = self._text.quote_prefix(at[1], t)
        key = quote_key(prefix) if prefix else ""
        limit = t + self._max_wrapper
        stop = self._p.wrapper_stop
        i = content
        empty = True  # no text yet but whitespace, quote prefixes and page breaks
        while True:
            m = stop.search(buf, i, min(n, limit))
            if m is None:
                if limit > n and not final:
                    return None
                return self._unclosed(t, kind, content, min(n, limit), limit <= n, prefix, out)
            empty = empty and not buf[i : m.start()].strip()
            ch = m.group()
            if ch == ">":
                end: int = m.end()
                if empty:
                    return end  # "<URL:>" (or "<URL:\n> >") holds nothing to report
                body = buf[content : end - 1]
                out.append(self._make(kind, t, end, body, prefix, at))
                return end
            if ch == "<":
                return self._unclosed(t, kind, content, m.start(), False, prefix, out)
            # A line break: strip the first line's quote prefix, stop at a blank line.
            j = m.end()
            if key:
                if self._text.prefix_undecided(j, final):
                    return None
                q = self._p.quote_prefix.match(buf, j)
                if q is not None:
                    if quote_key(q.group()) != key:  # another speaker's text: stop here
                        return self._unclosed(t, kind, content, m.start(), False, prefix, out)
                    j = q.end()
            h = self._p.hspace_run.match(buf, j)
            k = h.end() if h else j
            if k == n:
                if not final:
                    return None
                return self._unclosed(t, kind, content, m.start(), False, prefix, out)
            if buf[k] == "\n":
                # A blank line ends the wrapper, unless it begins an RFC page break.
                after = self._page_break(j, final) if not key else -1
                if after is None:
                    return None
                if after < 0:
                    return self._unclosed(t, kind, content, m.start(), False, prefix, out)
                j = after
            i = j

    def _page_break(self, j: int, final: bool) -> int | None:
        """Return the index after an RFC page break starting at ``j``, or -1 if none.

        Returns None when the answer needs text not yet in the buffer.
        """
        if len(self._text.text) - j < PAGE_BREAK_SPAN and not final:
            return None
        m = self._p.page_break.match(self._text.text, j)
        return -1 if m is None else int(m.end())

    def _unclosed(
        self,
        t: int,
        kind: Kind,
        content: int,
        stop: int,
        at_bound: bool,
        prefix: str,
        out: list[Candidate],
    ) -> int:
        """Report an unclosed wrapper: its URL runs to the first whitespace after it."""
        buf = self._text.text
        i = content
        lead_end = min(stop, content + _MAX_LEADING_SPACE)
        while i < lead_end and buf[i].isspace():
            i += 1
        j = i
        run_end = min(stop, i + self._max_url)
        while j < run_end and not buf[j].isspace():
            j += 1
        if j == i:
            return max(content, t + 1)
        if kind == "angle":
            # "<http: is a scheme" is prose, as "http: is" would be without the bracket.
            colon = buf.find(":", i, j)
            if colon < 0 or not buf[colon + 1 : j].strip("/"):
                return t + 1
        truncated = at_bound and j == stop
        out.append(self._make(kind, t, j, buf[i:j], prefix, None, False, truncated))
        return j

    def _at_prefix(self, t: int, final: bool, out: list[Candidate]) -> int | None:
        """Handle ``URL:`` (colon at ``t``): a prefixed URL if a known scheme follows."""
        buf = self._text.text
        gap = self._p.prefix_gap.match(buf, t + 1)
        s = gap.end() if gap else t + 1
        m = self._p.scheme_ahead.match(buf, s)
        if m is None:
            if s + TRIGGER_LOOKAHEAD > len(buf) and not final:
                return None
            return t + 1
        scheme = m.group()[:-1]
        known = self._recognised(scheme, m.end(), final)
        if known is None:
            return None
        if not known:
            return t + 1
        if scheme.lower() in PSEUDO_SCHEMES:  # decided, then skipped: see PSEUDO_SCHEMES
            out = []
        step = self._bare_at(t - len(URL_PREFIX_WORD), "prefixed", s, m.end() - 1, final, out)
        return t + 1 if step == -1 else step

    def _bare_at(
        self, start: int, kind: Kind, url_start: int, colon: int, final: bool, out: list[Candidate]
    ) -> int | None:
        """Decide a bare (or prefixed) URL whose scheme starts at ``url_start``.

        ``colon`` is the index of the colon after the scheme (the caller's trigger found it).

        Returns the resume index, None to defer, or -1 when there is no URL here. A -1
        makes the scan resume one character after the trigger, so it must cost O(1) or
        cover only text in which no trigger can start: ``scheme::`` is refused before the
        URL is walked, and a URL found empty after the walk ("http://.") held nothing but
        slashes and trailing punctuation.
        """
        text = self._text
        buf = text.text
        n = len(buf)
        after = buf[colon + 1 : colon + 2]
        if after == ":":  # a double colon is a Perl or C++ name ("HTTP::Request")
            return -1
        if not after and not final:
            return None
        line, line_start = text.line_at(start)
        first = line_start - text.base
        if first >= 0 and buf[first] not in QUOTE_PREFIX_CHARS:
            prefix = key = ""  # most lines: no quote prefix (the buffer's own first test)
        else:
            prefix = text.quote_prefix(line_start, start)
            key = quote_key(prefix) if prefix else ""
        cap = url_start + self._max_url + 1  # reaching it means the URL is too long
        limit = cap if cap < n else n
        segment = self._p.bare_segment
        depth: dict[str, int] | None = None  # the balance rule's state, from the first closer
        possible = JOIN  # the URL crosses a possible wrap: _wrap's BOTH or SOFT_BOTH
        wrap_joined = False  # ... or a decided one before
        counted = url_start  # openers before this index are in ``depth``
        i = url_start
        held = first  # where the line holding the walk's end starts (relative, maybe < 0)
        closed = False  # True only in the turn that ends the walk (at a closer)
        while True:
            m = segment.match(buf, i, limit)
            e = m.end() if m is not None else i  # the pattern matches the empty string
            if e < limit and buf[e] in _RARE_STOPS:  # one test for the rare cases
                char = buf[e]
                if char == "[":
                    if buf.startswith("//", colon + 1) and (
                        e == colon + 3 or (buf[e - 1] == "@" and _in_authority(buf, colon + 3, e))
                    ):
                        # An IP literal host, after "//" or a user ("http://[::1]:8080/",
                        # "ftp://u:p@[2001:db8::1]/"): its brackets are kept.
                        if e + IP_LITERAL_SPAN > n and not final:
                            return None
                        literal = self._p.ip_literal.match(buf, e)
                        if literal is not None:
                            i = literal.end()
                            continue
                elif char == "{":
                    # A template or markup sigil before "{" ("${x}", "%{d}", "@{fg text}").
                    if buf[e - 1] in _BRACE_SIGILS and e - 1 > colon:
                        e -= 1
                else:  # a closing bracket: decide the balance
                    if depth is None:
                        depth = {}
                    e, closed, counted = self._balance(counted, e, limit, depth)
            if e >= cap:  # the bound covers the whole span
                cut = cap - 1
                # A bound inside the line break of a wrap join: cut at the line's end.
                while buf[cut - 1] in "\r\n\t " and cut - 1 > colon:
                    cut -= 1
                body = buf[url_start:cut]
                if possible:
                    body = BODY_TYPES[possible](body)
                out.append(self._make(kind, start, cut, body, prefix, None, True, True))
                self._skipping = True
                return cut
            if not closed and e == n and not final:
                return None
            # The URL's text stops at e. Whether it continues on the next line is decided
            # by _next_line (the hyphen rule) or, for a bare URL at a line end, by the wrap
            # evidence of urlsift.extraction.wrap; the cheap tests first, as most URLs end here.
            if closed or e == i:
                break
            after = buf[e : e + 1]
            if after not in _GOES_ON:  # most URLs: neither rule reads on past other text
                break
            if buf[e - 1] == "-":
                j = self._next_line(e, key, final)
            elif (after in _LINE_ENDS and buf[e + 1 : e + 2] != after) or (
                after in _SPACES and buf[e - 1] in _HALF_QUERY
            ):
                # A line end, not a blank line after it ("\n\n", "\r\r"; "\r\n\r\n" is
                # _wrap's own first test), or spaces before one: the wrap evidence decides.
                # It answers "join", "both" (a possible wrap: the cut reading stays the
                # URL) or no. A possible wrap after decided joins ends the URL; after a
                # possible one, the URL goes on over decided and possible ones alike.
                found = wrapped_continuation(buf, url_start, e, held, final, self._answers)
                if found is None:
                    return None
                j, answer = found
                if answer != JOIN:
                    if wrap_joined:
                        break
                    possible = max(possible, answer)
                elif j >= 0 and not possible:
                    wrap_joined = True
            else:
                break
            if j is None:
                return None
            if j < 0:
                break
            i = j
            held = buf.rfind("\n", e, j) + 1  # the continuation's line
        end = self._trim(url_start, e) if buf[e - 1] in _TRIMMED else e
        # Markdown emphasis around a bare URL ("**http://x/**", "_http://x_"): the marks
        # that close it are not part of the URL.
        if url_start and buf[url_start - 1] in _EMPHASIS and kind == "bare":
            stripped = buf[url_start:end].rstrip(buf[url_start - 1])
            if len(stripped) < end - url_start:
                end = self._trim(url_start, url_start + len(stripped))
        # Nothing after "scheme:" (or only slashes): "news: today" is prose, not a URL. (The
        # trim may have dropped the colon too: "http:".) Only a URL ending in "/" is counted.
        if end <= colon + 1 or (
            buf[end - 1] == "/" and end - colon - 1 <= buf.count("/", colon + 1, end)
        ):
            return -1
        body = buf[url_start:end] if not possible else BODY_TYPES[possible](buf[url_start:end])
        out.append(self._make(kind, start, end, body, prefix, (line, line_start)))
        return end

    def _balance(
        self, counted: int, e: int, limit: int, depth: dict[str, int]
    ) -> tuple[int, bool, int]:
        """Apply the bracket balance rule at the closing bracket ``buf[e]``.

        The first closing bracket without its opener ends a bare URL ("[a](http://x)");
        a balanced one is kept ("/wiki/Foo_(bar)") and the URL's text runs on to the next
        stop, closer or ``limit``. ``depth`` (opener -> count still open) holds the openers
        before ``counted``; the ones from there on are counted here, once each. Returns
        ``(end, ended at a closer, counted)``.
        """
        buf = self._text.text
        opener = self._p.opener
        segment = self._p.bare_segment
        while True:
            o = opener.search(buf, counted, e)
            while o is not None:
                char = o.group()
                depth[char] = depth.get(char, 0) + 1
                o = opener.search(buf, o.end(), e)
            match = _CLOSERS[buf[e]]
            if not depth.get(match):
                return e, True, e
            depth[match] -= 1
            counted = e + 1
            m = segment.match(buf, counted, limit)
            e = m.end() if m is not None else counted
            if e == limit or buf[e] not in _CLOSERS:
                return e, False, counted

    def _next_line(self, e: int, key: str, final: bool) -> int | None:
        """Where a bare URL whose text stops at ``e`` continues on the next line, if it does.

        The one place that decides whether a bare URL spans a line end. The RFC 1738
        appendix's rule: a line break right after a hyphen continues the URL when the next
        line (after the first line's quote prefix and indentation) starts with more than
        prose punctuation. Not after a run of two or more hyphens (a ruler "-----", a dash
        or a signature separator "--": no word is broken there), and not when the hyphen
        follows punctuation and the next line starts with a capitalised word ("...com.-" +
        "You received ...": a sentence, not a URL's rest).

        Called when the text stops at a line end right after a hyphen (``buf[e - 1]``).
        Returns the index where the continuation starts, -1 when the URL ends at ``e``, or
        None when the answer needs more text.
        """
        buf = self._text.text
        if buf[e - 2] == "-":  # buf[e - 1] is a hyphen, and "scheme:" precedes it
            return -1
        n = len(buf)
        hspace = self._p.hspace_run
        h = hspace.match(buf, e)
        k = h.end() if h else e
        if k == n:
            return None if not final else -1
        if buf[k] != "\n":
            return -1
        j = k + 1
        if key:
            if self._text.prefix_undecided(j, final):
                return None
            q = self._p.quote_prefix.match(buf, j)
            if q is not None and quote_key(q.group()) == key:
                j = q.end()
        h = hspace.match(buf, j)
        j = h.end() if h else j
        if j == n and not final:
            return None
        nxt = self._p.bare_segment.match(buf, j, j + _CONTINUATION_LOOK)
        seg_end = nxt.end() if nxt else j
        if seg_end == n and not final:
            return None
        if not any(c not in _NOT_CONTINUATION for c in buf[j:seg_end]):
            return -1
        if buf[e - 2] in TRAILING_PUNCT and self._p.prose_word.match(buf, j, seg_end + 1):
            return -1
        return j

    def _trim(self, start: int, end: int) -> int:
        """Drop prose punctuation from a bare URL's end.

        Closing brackets need no rule here: the first unbalanced one already ended the
        URL, so every closer left is balanced ("/wiki/Foo_(bar)" keeps its ")").
        """
        buf = self._text.text
        if buf[end - 1] not in _TRIMMED:  # most URLs: nothing to drop
            return end
        while end > start:
            char = buf[end - 1]
            if char in TRAILING_PUNCT:
                end -= 1
            elif char == "-" and buf[end - 2] == "-":
                # A run of two or more hyphens at the end is a dash, a ruler or a signature
                # separator ("http://x.example/.--"), not part of the URL.
                while buf[end - 1] == "-":
                    end -= 1
            elif char in _RULE_CHARS and buf[end - _RULE_RUN : end] == char * _RULE_RUN:
                # A run of three or more "_" or "=" is a rule line written right after the
                # URL ("index.html______"), not part of it.
                while buf[end - 1] == char:
                    end -= 1
            else:
                break
        return end
