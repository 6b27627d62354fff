"""Text of an HTML mail part: the visible text, then every URL-bearing attribute value.

Strategy: :func:`~urlsift.sources.htmltokens.tokenize` (an HTML tokenizer that never
rejects input and is linear on any input) turns the markup into tokens; character
references are decoded, in text by :func:`html.unescape`, in attribute values by
:func:`~urlsift.sources.htmltokens.unescape_attribute` (as a browser reads each). The unit's
text is built in two sections so the scanner sees both what a reader sees and where the
links point:

1. the *visible text*: character data outside ``<script>``, ``<style>``, ``<head>``'s
   metadata, fallback content (``<iframe>``, ``<noembed>``, ``<noframes>``) and comments
   (a tag the part ends inside, which HTML drops, is read as text, so a URL in a truncated
   ``<a href="...`` is still found), with a line break added at block-level tags (``<p>``,
   ``<br>``, ``<div>``, ``<li>``, ``<tr>``...) so words from different blocks do not run
   together.
   Source line breaks inside text are kept as they are (a URL wrapped in the HTML source
   stays wrapped, just as it would in plain text);
2. after one empty line, *each attribute URL on its own line*, in document order without
   repeats: values of ``href``, ``src``, ``cite``, ``action``, ``background``, ``longdesc``,
   ``poster``, ``formaction``, ``data`` and ``manifest`` that carry a scheme (relative
   references cannot be resolved and are left out), and the ``url(...)`` and ``@import``
   URLs of CSS in ``style`` attributes and ``<style>`` elements (:mod:`urlsift.sources.css`).
   As the WHATWG URL parser does, leading and trailing whitespace is stripped and tabs and
   line breaks inside the value removed.

Two paths, one text: :func:`html_to_text` cuts the part with one split at every ``<``
that starts markup (each markup piece runs to the next ``>``), looks up what each markup
piece does by the piece as written (most pieces are tags of a common shape that repeat: a
line break or nothing, and the URLs of their attributes), joins the text and line breaks
between two pieces that change state at once, and hands those pieces, any other markup,
and the text of raw-text elements, to the tokenizer's own steps;
:func:`html_to_text_general` reads every token through
:func:`~urlsift.sources.htmltokens.tokenize`. Tests hold the two to the same text.

Work and memory are linear in the size of the part.
"""

from __future__ import annotations

import html
import re
from itertools import compress, count, repeat
from operator import contains

from ..grammar.context import scheme_name
from .css import css_urls
from .htmltokens import (
    _MARKUP_START,
    _RAW_END,
    RAW_TEXT_ELEMENTS,
    UNRENDERED_ELEMENTS,
    Token,
    _markup,
    _new,
    _token,
    tokenize,
    unescape_attribute,
)

URL_ATTRIBUTES = frozenset(
    {
        "href",
        "src",
        "cite",
        "action",
        "background",
        "longdesc",
        "poster",
        "formaction",
        "data",
        "manifest",
    }
)
"""Attribute names whose values are URLs."""

BLOCK_TAGS = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
        "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section",
        "table", "td", "th", "title", "tr", "ul",
    }
)  # fmt: skip
"""Tags that start or end a block: a line break is emitted at each."""

HIDDEN_TAGS = frozenset({"script", "style", "template", "head"})
"""Tags whose content is not visible text (``<title>`` inside ``<head>`` is an exception;
``<body>`` ends any unclosed ``<head>``)."""

# A value that starts with a scheme name and ":" (RFC 3986 §3.1) is an absolute URL.
# Unbounded (matched at the value's start only, so linear): a value with a scheme of any
# length is kept, as a browser would keep it.
_ABSOLUTE = re.compile(f"{scheme_name(None)}:")
_TAB_OR_NEWLINE = re.compile(r"[\t\r\n]")
# Where css_urls can find a URL: "url(" or "@import", matched as its tokens match them
# (ignoring case as re does: "\u0130" and "\u0131" are an "i" there, and no other letter
# of these has another form), each written from its first character that has one case,
# which re finds at once.
_CSS_URL_START = re.compile("\\((?<=[Uu][Rr][Ll]\\()|@[Ii\u0130\u0131][Mm][Pp][Oo][Rr][Tt]")


# The fast path (html_to_text) cuts the part with one split at every "<" that starts
# markup (as htmltokens._MARKUP_START says): the markup piece runs to the next ">" when no
# "<" comes first, else it is that "<" and the character after it. So the text pieces
# between hold no markup start, as the tokenizer's text tokens hold none.
_SPLIT = re.compile(f"({_MARKUP_START.pattern}[^<>]*>|{_MARKUP_START.pattern})")
# _SPLIT with each markup piece read to the next ">" whatever comes before it: re reads
# "[^>]*" at C speed, "[^<>]*" a character at a time through its class test.
_SPLIT_TO_GT = re.compile(f"({_MARKUP_START.pattern}[^>]*>)")


def _split(window: str) -> list[str]:
    # _SPLIT.split(window): text, markup, text, ..., text. Up to the window's last ">",
    # every markup start has a ">" after it, and _SPLIT_TO_GT's piece there is _SPLIT's
    # when it holds no "<" after its first character (_SPLIT's piece runs to the same
    # ">"; the next search starts at the same place): so when no piece holds a second
    # "<" (one count over them), that split is _SPLIT's. Else (a "<" inside an attribute
    # value, "<b<i>"), and after the last ">" (where _SPLIT_TO_GT would search to the
    # window's end from each markup start), _SPLIT itself. No piece crosses that ">".
    last = window.rfind(">") + 1
    if not last:
        return _SPLIT.split(window)
    head = _SPLIT_TO_GT.split(window if last == len(window) else window[:last])
    markups = head[1::2]
    if "".join(markups).count("<") != len(markups):
        return _SPLIT.split(window)
    if last < len(window):
        tail = _SPLIT.split(window[last:])
        head[-1] += tail[0]
        head += tail[1:]
    return head


# A markup piece of a common shape, matched whole: a start tag (groups 1-3: name,
# attributes, "/" of "/>") whose attributes are separated by white space, each value
# quoted with its closing quote or unquoted; an end tag without attributes (group 4); a
# comment or bogus comment (no group). Each shape is read as htmltokens reads it (a test
# holds them to it): every choice the pattern could take instead of the greedy one fails
# at the next character (a name or value cut short is followed by one of its own
# characters; an empty unquoted value only before ">"; no name starts with "=" or a
# quote), so the match is the tokenizer's reading. A piece holds one ">", its last
# character, so the tokenizer ends there the token it starts, wherever it is written:
# the piece's reading depends on no character after it.
_WS = "[\\t\\n\\f\\r ]"
_COMMON_MARKUP = re.compile(
    rf"""<(?:
        ([A-Za-z][^\t\n\f\r\ />]*)
        ((?:{_WS}+[^\t\n\f\r\ />="'<][^\t\n\f\r\ />=]*
            (?:{_WS}*={_WS}*(?:"[^"]*"|'[^']*'|[^\t\n\f\r\ >"'][^\t\n\f\r\ >]*|(?=>)))?
        ){{0,64}})
        {_WS}*(/?)>
      | /([A-Za-z][^\t\n\f\r\ />]*){_WS}*/?>
      | !--(?:>|->|.*?--!?>)|!(?!--)[^>]*>|\?[^>]*>
    )""",
    re.VERBOSE | re.DOTALL,
)
# Start tags after which the tokenizer reads text: raw text and RCDATA elements, plaintext.
_TEXT_ELEMENTS = frozenset(_RAW_END) | {"plaintext"}
# Start tags that change what is visible (see _start_tag).
_STATE_TAGS = HIDDEN_TAGS | {"body", "title"}
# Attributes html_to_text reads (URL_ATTRIBUTES and "style") with a value, searched in
# the lower-cased attributes of a tag: a tag without one has no attribute to read. (The
# tokenizer lower-cases each name; lowering the whole text gives the same letters.) A
# style value is read only for what css_urls can find there ("url(" or "@import" after
# html.unescape), so a tag whose attributes hold no "@", "&" or "url(" gives nothing from
# its style (most: Outlook's HTML styles nearly every tag).
_URL_NAME_ATTRIBUTE = re.compile("(?:" + "|".join(sorted(URL_ATTRIBUTES)) + f"){_WS}*=")
# The same search, quicker: each "=" is found at once and the name before it checked by a
# look-behind (one for each length of name); a name with white space before its "="
# (rare) by the search above.
_URL_NAME_EQUALS = re.compile(
    "=(?:"
    + "|".join(
        "(?<=" + "|".join(f"{name}=" for name in sorted(URL_ATTRIBUTES) if len(name) == size) + ")"
        for size in sorted({len(name) for name in URL_ATTRIBUTES})
    )
    + ")"
)
_SPACE_EQUALS = re.compile(f"{_WS}=")
_STYLE_ATTRIBUTE = re.compile(f"style{_WS}*=")


def _attribute_url_list(attributes: str) -> tuple[str, ...]:
    # The URLs the attributes of a start tag _COMMON_MARKUP read give, in order (none when
    # no URL attribute has a value, nor a style that holds "@", "&" or "url(").
    # (A URL attribute gives a URL only when its value holds the ":" after a scheme,
    # as written or from a character reference.)
    lowered = attributes.lower()
    found: dict[str, None] = {}
    amp = "&" in lowered
    if ((amp or ":" in lowered) and _has_url_name(lowered)) or (
        (amp or "@" in lowered or "url(" in lowered)
        and _STYLE_ATTRIBUTE.search(lowered) is not None
    ):
        _common_attribute_urls(attributes, found)
    return tuple(found)


def _has_url_name(lowered: str) -> bool:
    # _URL_NAME_ATTRIBUTE.search(lowered) is not None, found quicker.
    if _URL_NAME_EQUALS.search(lowered) is not None:
        return True
    return _SPACE_EQUALS.search(lowered) is not None and (
        _URL_NAME_ATTRIBUTE.search(lowered) is not None
    )


# What each markup piece does, by the piece as written (a part's tags repeat: the shared
# archives' 98,095 markup pieces are 5,418 distinct strings), in a _Readings: `texts` the
# text of a piece that changes no state ("\n" for a block tag, else ""), `linked` the text
# and URLs of such a piece whose attributes give URLs (4,207 of the archives' pieces: a
# run looks them up as it reaches them), `states` the reading of a common tag that
# changes what is visible or starts a text element (_State) and None for other markup
# (which the general path reads). Bounded: pieces of at most _MAX_KEPT_PIECE characters;
# when the kept readings would hold more than _MAX_KEPT_BYTES, new tables replace them
# (html_to_text reads one _Readings a window, so its tables agree with each other even
# when another thread replaces them).
_State = tuple[bool, str, bool, tuple[str, ...]]
"""A start tag (True, its lower-case name, "/>", its attributes' URLs) or an end tag
(False, its name, False, ())."""
_MAX_KEPT_PIECE = 2048  # characters
# What the kept readings may hold, in about bytes: a piece's characters and about 100 for
# its entry, about 150 more and the URLs' characters for a linked piece (the archives'
# parts keep 5,107 pieces, about 1.5 million; 12,600 new links a MiB of HTML would hold 4).
_MAX_KEPT_BYTES = 3 << 19
_ENTRY_BYTES = 100
_LINK_BYTES = 150


class _Readings:
    __slots__ = ("kept", "linked", "states", "texts")

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.linked: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.states: dict[str, _State | None] = {}
        self.kept = 0  # bytes, as _MAX_KEPT_BYTES counts them


_readings = _Readings()


def _read_piece(piece: str) -> tuple[str, tuple[str, ...]] | None:
    # The text and URLs of a markup piece that changes no state, remembered; None for
    # the others (remembered in `states`: a state piece's reading, or None for other
    # markup).
    found = _COMMON_MARKUP.fullmatch(piece)
    if found is None:  # other markup: the general path reads it
        _keep(piece, None, None)
        return None
    name, attributes, closing, end_name = found.groups()
    urls: tuple[str, ...] = ()
    if name is not None:
        name = name.lower()
        if attributes:
            urls = _attribute_url_list(attributes)
        if name in _STATE_TAGS or name in _TEXT_ELEMENTS:
            _keep(piece, None, (True, name, closing == "/", urls))
            return None
    elif end_name is not None:
        name = end_name.lower()
        if name in HIDDEN_TAGS or name == "title":
            _keep(piece, None, (False, name, False, ()))
            return None
    else:
        name = ""  # a comment
    read = ("\n" if name in BLOCK_TAGS else "", urls)
    _keep(piece, read, None)
    return read


def _keep(piece: str, read: tuple[str, tuple[str, ...]] | None, state: _State | None) -> None:
    # Remember a piece's reading: `read` for a piece that changes no state, else `state`
    # (None: other markup). New tables replace the kept ones when they would hold more
    # than _MAX_KEPT_BYTES.
    global _readings
    if len(piece) > _MAX_KEPT_PIECE:
        return
    size = len(piece) + _ENTRY_BYTES
    urls = () if read is None else read[1]
    if urls:
        size += _LINK_BYTES + sum(map(len, urls))
    readings = _readings
    readings.kept += size
    if readings.kept > _MAX_KEPT_BYTES:
        readings = _readings = _Readings()
        readings.kept = size
    if read is None:
        readings.states[piece] = state
    elif urls:
        readings.linked[piece] = read
    else:
        readings.texts[piece] = read[0]


# One attribute of a start tag _COMMON_MARKUP read (its group 2): the name, and the value
# (double-quoted, single-quoted or bare; all empty when there is none).
_COMMON_ATTRIBUTE = re.compile(
    rf"""{_WS}+([^\t\n\f\r\ />="'<][^\t\n\f\r\ />=]*)
        (?:{_WS}*={_WS}*(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r\ >"'][^\t\n\f\r\ >]*))?)?""",
    re.VERBOSE,
)


# Character references most HTML mail holds (quoted replies are "&gt; " lines), replaced
# before html.unescape sees the text: each is a whole reference there too (a reference
# never holds "&", so none before it reaches into it), and the character that replaces it
# is in no reference name, so a name before it that now runs into it gives the same
# longest match. Fewer references for html.unescape's Python callback. (A replace that
# finds nothing costs less than a test for the reference and a replace.)


def _unescape(text: str) -> str:
    # html.unescape(text), "&gt;", "&nbsp;", "&quot;" and "&lt;" replaced first.
    text = text.replace("&gt;", ">").replace("&nbsp;", "\xa0")
    if "&" in text:
        text = text.replace("&quot;", '"').replace("&lt;", "<")
        if "&" in text:
            return html.unescape(text)
    return text


def _add_url(value: str, urls: dict[str, None]) -> None:
    url = value.strip()
    if "\t" in url or "\n" in url or "\r" in url:
        url = _TAB_OR_NEWLINE.sub("", url)
    if _ABSOLUTE.match(url):
        urls[url] = None


def _css_urls(css: str, urls: dict[str, None]) -> None:
    if "@" not in css and "url(" not in css.lower():
        return  # no url(...) and no @import: nothing to read (most style attributes)
    if _CSS_URL_START.search(css) is None:
        return  # "@" only in other at-rules (@font-face, @media, @page...)
    for found in css_urls(css):
        _add_url(found.value, urls)


def _common_attribute_urls(attributes: str, urls: dict[str, None]) -> None:
    # _attribute_urls for the attributes of a tag _COMMON_MARKUP read (its group 3).
    for name, double, single, bare in _COMMON_ATTRIBUTE.findall(attributes):
        value = double or single or bare
        if value:
            name = name.lower()
            if name in URL_ATTRIBUTES:
                _add_url(unescape_attribute(value), urls)
            elif name == "style":
                _css_urls(unescape_attribute(value), urls)


def _attribute_urls(markup: str, token: Token, urls: dict[str, None]) -> None:
    for name, start, end in token.attributes:
        if end > start:
            if name in URL_ATTRIBUTES:
                _add_url(unescape_attribute(markup[start:end]), urls)
            elif name == "style":
                _css_urls(unescape_attribute(markup[start:end]), urls)


def _apply(
    markup: str,
    token: Token,
    pieces: list[str],
    urls: dict[str, None],
    hidden: int,
    in_title: bool,
) -> tuple[int, bool]:
    # One token of the general path; returns the new (hidden depth, in_title).
    kind, name = token.kind, token.name
    if kind == "text" or kind == "cut":  # a cut tag is read as text, URLs and all
        if kind == "text" and name == "style":  # raw text: no references to decode
            _css_urls(markup[token.start : token.end], urls)
        if name in UNRENDERED_ELEMENTS or (hidden and not in_title):
            return hidden, in_title
        written = markup[token.start : token.end]
        raw = kind == "text" and name in RAW_TEXT_ELEMENTS
        pieces.append(written if raw else html.unescape(written))
    elif kind == "start":
        _attribute_urls(markup, token, urls)
        return _start_tag(name, token.self_closing, pieces, hidden, in_title)
    elif kind == "end":
        return _end_tag(name, pieces, hidden, in_title)
    return hidden, in_title


def _start_tag(
    name: str, self_closing: bool, pieces: list[str], hidden: int, in_title: bool
) -> tuple[int, bool]:
    # What a start tag named ``name`` (lower case) opens; returns (hidden, in_title).
    if self_closing:
        pass  # <br/>, <img .../>: a self-closing tag never opens an element
    elif name in HIDDEN_TAGS:
        hidden += 1
    elif name == "body":
        hidden = 0  # a <body> ends an unclosed <head> or <style>
    elif name == "title":
        in_title = True
    if name in BLOCK_TAGS:
        pieces.append("\n")
    return hidden, in_title


def _end_tag(name: str, pieces: list[str], hidden: int, in_title: bool) -> tuple[int, bool]:
    # What an end tag named ``name`` (lower case) closes; returns (hidden, in_title).
    if name in HIDDEN_TAGS:
        hidden = max(0, hidden - 1)
    elif name == "title":
        in_title = False
    if name in BLOCK_TAGS:
        pieces.append("\n")
    return hidden, in_title


def _joined(pieces: list[str], urls: dict[str, None]) -> str:
    text = "".join(pieces)
    if urls:
        if text and not text.endswith("\n"):
            text += "\n"
        text += "\n" + "\n".join(urls) + "\n"
    return text


def html_to_text_general(markup: str) -> str:
    """:func:`html_to_text` by the general path alone: every token of
    :func:`~urlsift.sources.htmltokens.tokenize`, one at a time (the reference the fast
    path is held to)."""
    pieces: list[str] = []
    urls: dict[str, None] = {}  # insertion-ordered set
    hidden = 0  # depth of open hidden elements
    in_title = False
    for token in tokenize(markup):
        hidden, in_title = _apply(markup, token, pieces, urls, hidden, in_title)
    return _joined(pieces, urls)


def html_to_text(markup: str) -> str:
    """Return the scannable text of an HTML document or fragment.

    Args:
        markup: the decoded HTML source.

    Returns:
        The visible text, then (after an empty line) each absolute URL found in a
        URL-bearing attribute on its own line. The tokenizer accepts any markup; should
        this ever raise, the MIME layer falls back to the raw markup with an
        ``html-parse-error`` defect.
    """
    # The fast path: _SPLIT cuts the part into text and markup pieces; what each markup
    # piece does is looked up by the piece as written (_read_piece the first time). The
    # pieces between two that change state (or that the general path reads) are a run:
    # its text pieces (those holding "&" unescaped one by one, as the tokenizer's text
    # tokens are) and its markup pieces' line breaks are joined at once, its URLs added
    # in order. A piece that changes state is read from its remembered reading, other
    # markup by the general path, the text of a text element (style, title...) to its end
    # tag; the split is then taken up again where that reading ends. The same tokens, so
    # the same text as html_to_text_general.
    pieces: list[str] = []
    urls: dict[str, None] = {}  # insertion-ordered set
    hidden = 0  # depth of open hidden elements
    in_title = False
    length = len(markup)
    start = 0
    while start < length:
        stop = markup.find("<", start + _WINDOW) if length - start > _WINDOW else -1
        start, hidden, in_title = _read_window(
            markup, start, length if stop < 0 else stop, pieces, urls, hidden, in_title
        )
    return _joined(pieces, urls)


# The fast path splits a part a window at a time, each window ending before a "<" (so
# before a markup piece or within text at a "<", where no character reference runs on),
# and holds one window's pieces at a time: the memory it adds stays bounded on a long
# part.
_WINDOW = 1 << 16  # characters


def _read_window(
    markup: str,
    start: int,
    end_of_window: int,
    pieces: list[str],
    urls: dict[str, None],
    hidden: int,
    in_title: bool,
) -> tuple[int, int, bool]:
    # html_to_text's steps on markup[start:end_of_window]; returns where the next window
    # starts (past this one when a reading runs on past its end), hidden, in_title.
    readings = _readings
    known, linked, states = readings.texts, readings.linked, readings.states
    length = len(markup)
    window = markup if start == 0 and end_of_window == length else markup[start:end_of_window]
    split = _split(window)  # text, markup, text, ..., text
    markups = split[1::2]
    texts = list(map(known.get, markups))  # None: not read yet, linked, state, other
    gives: list[tuple[str, ...] | None] = [None] * len(markups)
    last = len(markups)
    first = 0  # the run starts at text piece split[2 * first]
    at, at_offset = 0, start  # a piece of the split and its offset in markup
    while True:
        stop = first  # the run ends before markup piece `stop`
        while True:
            try:
                stop = texts.index(None, stop)
            except ValueError:
                stop = last
                break
            piece = markups[stop]
            text = known.get(piece)  # read earlier in this part
            if text is not None:
                texts[stop] = text
            elif piece in linked:
                texts[stop], gives[stop] = linked[piece]
            elif piece in states:
                break
            else:
                read = _read_piece(piece)
                if read is None:
                    break
                texts[stop], gives[stop] = read
            stop += 1
        if stop > first:
            for given in filter(None, gives[first:stop]):
                for url in given:
                    urls[url] = None
        if hidden and not in_title:  # no text shown, only block tags' line breaks
            if stop > first:
                pieces.append("".join(texts[first:stop]))  # type: ignore[arg-type]
        else:
            run = split[2 * first : 2 * stop + 1]
            for i in compress(count(0, 2), map(contains, run[0::2], repeat("&"))):
                run[i] = _unescape(run[i])
            if stop > first:
                run[1::2] = texts[first:stop]  # type: ignore[assignment]
            pieces.append("".join(run))
        if stop == last:
            return end_of_window, hidden, in_title
        # The piece that ends the run: a common tag that changes state, or other markup.
        index = 2 * stop + 1
        state = states.get(split[index])  # None: other markup, or read in other tables
        if state is not None:
            opens, name, self_closing, given = state
            for url in given:
                urls[url] = None
            if not opens:
                hidden, in_title = _end_tag(name, pieces, hidden, in_title)
                first = stop + 1
                continue
            hidden, in_title = _start_tag(name, self_closing, pieces, hidden, in_title)
            if name not in _TEXT_ELEMENTS:
                first = stop + 1
                continue
            at_offset += sum(map(len, split[at : index + 1]))
            at = index + 1
            end = at_offset
        else:
            at_offset += sum(map(len, split[at:index]))
            at = index
            token = _markup(markup, at_offset)
            if token is None:  # "</" at the end: text
                token = _token("text", at_offset, length)
            hidden, in_title = _apply(markup, token, pieces, urls, hidden, in_title)
            end = token.end
            name = token.name if token.kind == "start" else ""
        if name == "plaintext":  # the rest is text
            if end < length:
                token = _token("text", end, length)
                hidden, in_title = _apply(markup, token, pieces, urls, hidden, in_title)
            return length, hidden, in_title
        raw_end = _RAW_END.get(name)
        if raw_end is not None:  # the element's text runs to its end tag
            found = raw_end.search(markup, end)
            text_end = length if found is None else found.start()
            if text_end > end:
                token = _new(Token, ("text", end, text_end, name, (), False))
                hidden, in_title = _apply(markup, token, pieces, urls, hidden, in_title)
            end = text_end
        if end >= end_of_window:
            return end, hidden, in_title
        # Take the split up again at `end`: where a piece starts, or in the piece it falls
        # inside, whose rest is text up to the split's next markup piece (a piece holds no
        # "<" after its first character; the next markup start is where that markup piece
        # starts). A token ends at a ">", a markup start or the end of the part, and a
        # markup piece holds no ">" before its last character, so that piece is a text
        # piece; a markup piece's rest would be read the same way.
        while at_offset < end:
            at_offset += len(split[at])
            at += 1
        if at_offset > end:
            rest = markup[end:at_offset]
            if at % 2:  # inside a text piece
                at -= 1
                split[at] = rest
            else:  # inside a markup piece: its rest joins the text piece after it
                split[at] = rest + split[at]
            at_offset = end
        elif at % 2:  # a markup piece starts at `end`: no text before it
            at -= 1
            split[at] = ""
        first = at // 2
