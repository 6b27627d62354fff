"""RFC 1738 §5 BNF as documented regex source strings, compiled in one place at the bottom.

Strategy: every production of §5 appears below as a regex *source string* named after the
rule, with the BNF line it encodes in the comment above it, so the grammar can be read and
checked against the RFC line by line. Deliberate deviations carry a ``DEVIATION`` comment
with the reason. The sources are compiled once, in the section at the end of the module
(each on its first use); nothing else in urlsift compiles grammar patterns.

Invariants:

* Linear time. No source nests one unbounded repetition inside another, except the
  prospero ``*[ fieldspec ]`` (see its comment), where both levels are possessive and every
  inner run stops at a delimiter it cannot contain, so there is exactly one way to split the
  input and the engine never backtracks. Repetitions whose follower can never start with one
  of their own characters are possessive (``*+``, ``++``) for the same reason. The test
  suite feeds a megabyte of adversarial input per scheme to the compiled patterns.
* Component rules that are a plain repetition (``user``, ``hsegment`` ...) are written as
  ``(?:[chars]|escape)*+``, so ``pattern.match(url, pos, end).end()`` is the first offset
  where the rule stops matching: the validator uses that to say *where* a rule fails.
* Scheme names and the literal ``;type=`` are matched case-insensitively (see DEVIATION
  notes); everything else is exactly the RFC.

This module only imports the standard library and ``regex``; it does no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

# ---------------------------------------------------------------------------------------
# Miscellaneous definitions (§5, end of the section). Character-class *bodies* (without the
# surrounding brackets) are named *_CHARS so that rules can combine them in one class.
# ---------------------------------------------------------------------------------------

# lowalpha = "a" | "b" | ... | "z"
LOWALPHA_CHARS = "a-z"
# hialpha = "A" | "B" | ... | "Z"
HIALPHA_CHARS = "A-Z"
# alpha = lowalpha | hialpha
ALPHA_CHARS = LOWALPHA_CHARS + HIALPHA_CHARS
ALPHA = f"[{ALPHA_CHARS}]"
# digit = "0" | "1" | ... | "9"
DIGIT_CHARS = "0-9"
DIGIT = f"[{DIGIT_CHARS}]"
# safe = "$" | "-" | "_" | "." | "+"
SAFE_CHARS = r"$\-_.+"
# extra = "!" | "*" | "'" | "(" | ")" | ","
EXTRA_CHARS = r"!*'(),"
# national = "{" | "}" | "|" | "\" | "^" | "~" | "[" | "]" | "`"
NATIONAL = "{}|\\^~[]`"
# punctuation = "<" | ">" | "#" | "%" | <">
PUNCTUATION = '<>#%"'
# reserved = ";" | "/" | "?" | ":" | "@" | "&" | "="
RESERVED = ";/?:@&="
RESERVED_CHARS = RESERVED  # no character of it is special inside a regex class
# hex = digit | "A" | "B" | "C" | "D" | "E" | "F" | "a" | "b" | "c" | "d" | "e" | "f"
HEX = "[0-9A-Fa-f]"
# escape = "%" hex hex
ESCAPE = f"%{HEX}{HEX}"
# unreserved = alpha | digit | safe | extra
UNRESERVED_CHARS = ALPHA_CHARS + DIGIT_CHARS + SAFE_CHARS + EXTRA_CHARS
UNRESERVED = f"[{UNRESERVED_CHARS}]"
# uchar = unreserved | escape
UCHAR = f"(?:{UNRESERVED}|{ESCAPE})"
# xchar = unreserved | reserved | escape
XCHAR = f"(?:[{UNRESERVED_CHARS}{RESERVED_CHARS}]|{ESCAPE})"
# digits = 1*digit
DIGITS = f"{DIGIT}++"

# Unsafe characters (§2.2): the space, ``national`` and ``punctuation``. They are never
# part of any rule below; the validator reports them by themselves (``unsafe-character``).
UNSAFE = " " + NATIONAL + PUNCTUATION

# ---------------------------------------------------------------------------------------
# The generic form (§5, start of the section).
# ---------------------------------------------------------------------------------------

# scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]
# DEVIATION: hialpha is accepted too. The comment above the rule in §5 says "interpreters
# should use case-ignore" and §2.1 asks programs to treat "HTTP" like "http".
# SCHEME_CHARS is urlsift's one definition of the characters of a scheme name: the context
# grammar (``_context.scheme_name``: a letter first, bounded) and every reader that asks
# "does this text start with a scheme?" derive their patterns from it.
SCHEME_CHARS = rf"{ALPHA_CHARS}{DIGIT_CHARS}+\-."
SCHEME = f"[{SCHEME_CHARS}]++"

# schemepart = *xchar | ip-schemepart
# (ip-schemepart only uses xchar characters, so *xchar alone decides membership; the
# validator still parses a "//" schemepart of an unknown scheme to report its parts.)
SCHEMEPART = f"{XCHAR}*+"

# genericurl = scheme ":" schemepart
GENERICURL = f"{SCHEME}:{SCHEMEPART}"

# otherurl = genericurl
OTHERURL = GENERICURL

# ---------------------------------------------------------------------------------------
# The common Internet scheme syntax (§3.1, §5 "URL schemeparts for ip based protocols").
# ---------------------------------------------------------------------------------------

# alphadigit = alpha | digit
ALPHADIGIT = f"[{ALPHA_CHARS}{DIGIT_CHARS}]"

# A character inside a label after its first one: a letter, a digit, or a hyphen that is
# followed by another letter, digit or hyphen (so a label never ends with "-").
_LABEL_CONTINUATION = rf"(?:{ALPHADIGIT}|-(?=[{ALPHA_CHARS}{DIGIT_CHARS}\-]))"

# domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
DOMAINLABEL = f"{ALPHADIGIT}{_LABEL_CONTINUATION}*+"

# toplabel = alpha | alpha *[ alphadigit | "-" ] alphadigit
TOPLABEL = f"{ALPHA}{_LABEL_CONTINUATION}*+"

# hostname = *[ domainlabel "." ] toplabel
# DEVIATION (form only, same language): written without a repetition of domainlabel, which
# would nest two unbounded repetitions. Instead one flat run of label characters and dots
# (a dot must be followed by a letter or digit, so labels are never empty) ends at the last
# "." before the toplabel. The flat run gives characters back one at a time and the
# toplabel cannot cross a ".", so finding the split is linear.
HOSTNAME = (
    rf"(?:{ALPHADIGIT}(?:{_LABEL_CONTINUATION}|\.(?={ALPHADIGIT}))*\.)?"
    rf"{TOPLABEL}"
)

# hostnumber = digits "." digits "." digits "." digits
HOSTNUMBER = rf"{DIGITS}\.{DIGITS}\.{DIGITS}\.{DIGITS}"

# host = hostname | hostnumber
# Atomic: the longest hostname (or the hostnumber) is the only split that can be followed
# by ":", "/" or the end, so the engine need not come back into the host.
HOST = f"(?>{HOSTNAME}|{HOSTNUMBER})"

# port = digits
PORT = DIGITS

# hostport = host [ ":" port ]
HOSTPORT = f"{HOST}(?::{PORT})?"

# user = *[ uchar | ";" | "?" | "&" | "=" ]
USER = f"(?:[{UNRESERVED_CHARS};?&=]|{ESCAPE})*+"

# password = *[ uchar | ";" | "?" | "&" | "=" ]
PASSWORD = f"(?:[{UNRESERVED_CHARS};?&=]|{ESCAPE})*+"

# login = [ user [ ":" password ] "@" ] hostport
LOGIN = f"(?:{USER}(?::{PASSWORD})?@)?{HOSTPORT}"

# urlpath = *xchar    ; depends on protocol see section 3.1
URLPATH = f"{XCHAR}*+"

# ip-schemepart = "//" login [ "/" urlpath ]
IP_SCHEMEPART = f"//{LOGIN}(?:/{URLPATH})?"

# ---------------------------------------------------------------------------------------
# FTP (§3.2)
# ---------------------------------------------------------------------------------------

# fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
FSEGMENT = f"(?:[{UNRESERVED_CHARS}?:@&=]|{ESCAPE})*+"

# fpath = fsegment *[ "/" fsegment ]
# DEVIATION (form only, same language): one flat repetition of fsegment characters and "/",
# instead of a repetition of a repetition.
FPATH = f"(?:[{UNRESERVED_CHARS}?:@&=/]|{ESCAPE})*+"

# ftptype = "A" | "I" | "D" | "a" | "i" | "d"
FTPTYPE = "[AIDaid]"

# ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]
# DEVIATION: "ftp" and ";type=" are matched case-insensitively: §5 uses the conventions of
# RFC 822, whose quoted literals are case-insensitive, and §2.1 asks for case-ignore
# scheme names.
TYPE_LITERAL = "(?i:;type=)"
FTPURL = f"(?i:ftp)://{LOGIN}(?:/{FPATH}(?:{TYPE_LITERAL}{FTPTYPE})?)?"

# ---------------------------------------------------------------------------------------
# FILE (§3.10)
# ---------------------------------------------------------------------------------------

# fileurl = "file://" [ host | "localhost" ] "/" fpath
# ("localhost" is itself a hostname, so HOST covers it.)
FILEURL = f"(?i:file)://(?:{HOST})?/{FPATH}"

# ---------------------------------------------------------------------------------------
# HTTP (§3.3)
# ---------------------------------------------------------------------------------------

# hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
HSEGMENT = f"(?:[{UNRESERVED_CHARS};:@&=]|{ESCAPE})*+"

# hpath = hsegment *[ "/" hsegment ]
# DEVIATION (form only, same language): flat, as for fpath.
HPATH = f"(?:[{UNRESERVED_CHARS};:@&=/]|{ESCAPE})*+"

# search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
SEARCH = f"(?:[{UNRESERVED_CHARS};:@&=]|{ESCAPE})*+"

# httpurl = "http://" hostport [ "/" hpath [ "?" search ]]
HTTPURL = rf"(?i:http)://{HOSTPORT}(?:/{HPATH}(?:\?{SEARCH})?)?"

# DEVIATION (scheme not in RFC 1738): https follows the http production with its own name.
HTTPSURL = rf"(?i:https)://{HOSTPORT}(?:/{HPATH}(?:\?{SEARCH})?)?"

# ---------------------------------------------------------------------------------------
# GOPHER (§3.4)
# ---------------------------------------------------------------------------------------

# An xchar other than the escape "%09" (the encoded tab that ends a selector or search).
_XCHAR_BUT_TAB = rf"(?:[{UNRESERVED_CHARS}{RESERVED_CHARS}]|%(?!09){HEX}{HEX})"

# gtype = xchar
GTYPE = XCHAR

# selector = *xchar
# DEVIATION: "%09" is excluded. §3.4.1: a selector never contains a tab, and the "%09"
# that follows it in the gopherurl rule is the separator; with *xchar the BNF would be
# ambiguous.
SELECTOR = f"{_XCHAR_BUT_TAB}*+"

# The search of a gopher URL is written with "search" in §5, but §3.4 says no characters
# are reserved within the gopher-path, so it is read as *xchar without "%09" (DEVIATION:
# the http "search" rule would forbid "/" and "?", which §3.4.2 does not).
GOPHER_SEARCH = f"{_XCHAR_BUT_TAB}*+"

# gopher+_string = *xchar
GOPHER_PLUS_STRING = f"{XCHAR}*+"

# gopherurl = "gopher://" hostport [ / [ gtype [ selector
#             [ "%09" search [ "%09" gopher+_string ] ] ] ] ]
GOPHERURL = (
    f"(?i:gopher)://{HOSTPORT}"
    f"(?:/(?:{GTYPE}(?:{SELECTOR}(?:%09{GOPHER_SEARCH}(?:%09{GOPHER_PLUS_STRING})?)?)?)?)?"
)

# ---------------------------------------------------------------------------------------
# MAILTO (§3.5)
# ---------------------------------------------------------------------------------------

# encoded822addr = 1*xchar               ; further defined in RFC822
ENCODED822ADDR = f"{XCHAR}++"

# mailtourl = "mailto:" encoded822addr
MAILTOURL = f"(?i:mailto):{ENCODED822ADDR}"

# ---------------------------------------------------------------------------------------
# NEWS (§3.6) and NNTP (§3.7)
# ---------------------------------------------------------------------------------------

# The part of "group" after its first letter.
GROUP_TAIL = rf"[{ALPHA_CHARS}{DIGIT_CHARS}\-.+_]*+"

# group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
GROUP = f"{ALPHA}{GROUP_TAIL}"

# The part of "article" before its "@".
ARTICLE_UNIQUE = f"(?:[{UNRESERVED_CHARS};/?:&=]|{ESCAPE})++"

# article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
ARTICLE = f"{ARTICLE_UNIQUE}@{HOST}"

# grouppart = "*" | group | article
GROUPPART = rf"(?:\*|{GROUP}|{ARTICLE})"

# newsurl = "news:" grouppart
NEWSURL = f"(?i:news):{GROUPPART}"

# nntpurl = "nntp://" hostport "/" group [ "/" digits ]
NNTPURL = f"(?i:nntp)://{HOSTPORT}/{GROUP}(?:/{DIGITS})?"

# ---------------------------------------------------------------------------------------
# TELNET (§3.8)
# ---------------------------------------------------------------------------------------

# telneturl = "telnet://" login [ "/" ]
TELNETURL = f"(?i:telnet)://{LOGIN}/?"

# ---------------------------------------------------------------------------------------
# WAIS (§3.9)
# ---------------------------------------------------------------------------------------

# database = *uchar
DATABASE = f"{UCHAR}*+"
# wtype = *uchar
WTYPE = f"{UCHAR}*+"
# wpath = *uchar
WPATH = f"{UCHAR}*+"

# waisdatabase = "wais://" hostport "/" database
WAISDATABASE = f"(?i:wais)://{HOSTPORT}/{DATABASE}"
# waisindex = "wais://" hostport "/" database "?" search
WAISINDEX = rf"(?i:wais)://{HOSTPORT}/{DATABASE}\?{SEARCH}"
# waisdoc = "wais://" hostport "/" database "/" wtype "/" wpath
WAISDOC = f"(?i:wais)://{HOSTPORT}/{DATABASE}/{WTYPE}/{WPATH}"

# waisurl = waisdatabase | waisindex | waisdoc
# (Factored so that hostport and database are matched once: same language.)
WAISURL = rf"(?i:wais)://{HOSTPORT}/{DATABASE}(?:\?{SEARCH}|/{WTYPE}/{WPATH})?"

# ---------------------------------------------------------------------------------------
# PROSPERO (§3.11)
# ---------------------------------------------------------------------------------------

# psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
PSEGMENT = f"(?:[{UNRESERVED_CHARS}?:@&=]|{ESCAPE})*+"

# ppath = psegment *[ "/" psegment ]
# DEVIATION (form only, same language): flat, as for fpath.
PPATH = f"(?:[{UNRESERVED_CHARS}?:@&=/]|{ESCAPE})*+"

# fieldname = *[ uchar | "?" | ":" | "@" | "&" ]
FIELDNAME = f"(?:[{UNRESERVED_CHARS}?:@&]|{ESCAPE})*+"

# fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ]
FIELDVALUE = f"(?:[{UNRESERVED_CHARS}?:@&]|{ESCAPE})*+"

# fieldspec = ";" fieldname "=" fieldvalue
FIELDSPEC = f";{FIELDNAME}={FIELDVALUE}"

# prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
# The one nested repetition of this module: fieldname and fieldvalue runs stop at "=" and
# ";", which they cannot contain, and every level is possessive, so the split is unique.
PROSPEROURL = f"(?i:prospero)://{HOSTPORT}/{PPATH}(?:{FIELDSPEC})*+"

# ---------------------------------------------------------------------------------------
# url = httpurl | ftpurl | newsurl | nntpurl | telneturl | gopherurl |
#       waisurl | mailtourl | fileurl | prosperourl | otherurl
# Kept as a table keyed by lower-case scheme name; "" stands for otherurl.
# ---------------------------------------------------------------------------------------

URL_SOURCES: dict[str, str] = {
    "ftp": FTPURL,
    "file": FILEURL,
    "http": HTTPURL,
    "https": HTTPSURL,
    "gopher": GOPHERURL,
    "mailto": MAILTOURL,
    "news": NEWSURL,
    "nntp": NNTPURL,
    "telnet": TELNETURL,
    "wais": WAISURL,
    "prospero": PROSPEROURL,
    "": OTHERURL,
}

# The BNF line each rule name stands for, quoted in defect messages.
BNF: dict[str, str] = {
    "scheme": 'scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]',
    "genericurl": 'genericurl = scheme ":" schemepart',
    "schemepart": "schemepart = *xchar | ip-schemepart",
    "ip-schemepart": 'ip-schemepart = "//" login [ "/" urlpath ]',
    "login": 'login = [ user [ ":" password ] "@" ] hostport',
    "hostport": 'hostport = host [ ":" port ]',
    "host": "host = hostname | hostnumber",
    "hostname": 'hostname = *[ domainlabel "." ] toplabel',
    "domainlabel": 'domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit',
    "toplabel": 'toplabel = alpha | alpha *[ alphadigit | "-" ] alphadigit',
    "hostnumber": 'hostnumber = digits "." digits "." digits "." digits',
    "port": "port = digits",
    "user": 'user = *[ uchar | ";" | "?" | "&" | "=" ]',
    "password": 'password = *[ uchar | ";" | "?" | "&" | "=" ]',
    "urlpath": "urlpath = *xchar",
    "escape": 'escape = "%" hex hex',
    "fpath": 'fpath = fsegment *[ "/" fsegment ]',
    "fsegment": 'fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]',
    "ftptype": 'ftptype = "A" | "I" | "D" | "a" | "i" | "d"',
    "ftpurl": 'ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]',
    "fileurl": 'fileurl = "file://" [ host | "localhost" ] "/" fpath',
    "httpurl": 'httpurl = "http://" hostport [ "/" hpath [ "?" search ]]',
    "httpsurl": 'httpsurl = "https://" hostport [ "/" hpath [ "?" search ]] (as httpurl)',
    "hpath": 'hpath = hsegment *[ "/" hsegment ]',
    "hsegment": 'hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]',
    "search": 'search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]',
    "gopherurl": (
        'gopherurl = "gopher://" hostport [ / [ gtype [ selector '
        '[ "%09" search [ "%09" gopher+_string ] ] ] ] ]'
    ),
    "gtype": "gtype = xchar",
    "selector": "selector = *xchar",
    "gopher-search": "search (gopher) = *xchar",
    "gopher+_string": "gopher+_string = *xchar",
    "mailtourl": 'mailtourl = "mailto:" encoded822addr',
    "encoded822addr": "encoded822addr = 1*xchar",
    "newsurl": 'newsurl = "news:" grouppart',
    "grouppart": 'grouppart = "*" | group | article',
    "group": 'group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]',
    "article": 'article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host',
    "nntpurl": 'nntpurl = "nntp://" hostport "/" group [ "/" digits ]',
    "digits": "digits = 1*digit",
    "telneturl": 'telneturl = "telnet://" login [ "/" ]',
    "waisurl": "waisurl = waisdatabase | waisindex | waisdoc",
    "waisdoc": 'waisdoc = "wais://" hostport "/" database "/" wtype "/" wpath',
    "database": "database = *uchar",
    "wtype": "wtype = *uchar",
    "wpath": "wpath = *uchar",
    "prosperourl": 'prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]',
    "ppath": 'ppath = psegment *[ "/" psegment ]',
    "psegment": 'psegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]',
    "fieldspec": 'fieldspec = ";" fieldname "=" fieldvalue',
    "fieldname": 'fieldname = *[ uchar | "?" | ":" | "@" | "&" ]',
    "fieldvalue": 'fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ]',
}

# Component rules the validator checks one span at a time. Each is a possessive repetition,
# so ``match(url, pos, end).end()`` is where the rule stops matching. Keys are BNF names.
COMPONENT_SOURCES: dict[str, str] = {
    "user": USER,
    "password": PASSWORD,
    "fpath": FPATH,
    "hpath": HPATH,
    "search": SEARCH,
    "urlpath": URLPATH,
    "schemepart": SCHEMEPART,
    "selector": SELECTOR,
    "gopher-search": GOPHER_SEARCH,
    "gopher+_string": GOPHER_PLUS_STRING,
    "encoded822addr": f"{XCHAR}*+",
    "group": GROUP_TAIL,
    "article": f"(?:[{UNRESERVED_CHARS};/?:&=]|{ESCAPE})*+",
    "database": DATABASE,
    "wtype": WTYPE,
    "wpath": WPATH,
    "ppath": PPATH,
    "fieldname": FIELDNAME,
    "fieldvalue": FIELDVALUE,
    "digits": f"{DIGIT}*+",
}

# Diagnostics for hostnames, run on the host text alone (offsets relative to its start);
# the first match of any of them, by position, is the first place the hostname rule fails.
# Each entry: (rule name for the message, pattern source, what is wrong).
HOST_DIAGNOSTIC_SOURCES: tuple[tuple[str, str, str], ...] = (
    ("host", r"\A\[", "starts an IPv6 literal, which RFC 1738 does not define (RFC 2732 does)"),
    ("hostname", rf"[^{ALPHA_CHARS}{DIGIT_CHARS}.\-]", "is not a letter, digit, '-' or '.'"),
    ("domainlabel", r"\A\.|\.(?=\.)", "starts an empty label"),
    ("toplabel", r"\.\Z", "ends the host name: the toplabel after it is empty"),
    ("domainlabel", r"(?:\A|(?<=\.))-", "starts a label; labels start with a letter or digit"),
    ("domainlabel", r"-(?=\.|\Z)", "ends a label; labels end with a letter or digit"),
)

# Lexical scan of a URL (fragment removed): a "%" that does not start an escape, or any
# character that is neither unreserved, reserved nor "%".
LEXICAL_OFFENDER = rf"%(?!{HEX}{HEX})|[^{UNRESERVED_CHARS}{RESERVED_CHARS}%]"

# A run of such characters (component checks step over them: the scan reports them).
LEXICAL_RUN = rf"(?:{LEXICAL_OFFENDER})+"

# Loose lexical scan of a fragment: escapes must be well formed; controls, non-ASCII
# characters, the space and the free-text delimiters < > " are reported. The national
# characters and "#" are tolerated there (the fragment is not part of the URL grammar).
FRAGMENT_OFFENDER = rf'%(?!{HEX}{HEX})|[\x00-\x20\x7f<>"]|[^\x00-\x7f]'

# Escapes of CR, LF and NUL (RFC 1738 §6: embedded encoded delimiters).
ENCODED_CONTROL = "%(?:0[dDaA]|00)"

# ---------------------------------------------------------------------------------------
# Clean schemeparts: the validator's fast path.
# ---------------------------------------------------------------------------------------
# A *clean* schemepart is the part after "scheme:" of a URL that the full checks would find
# valid, with the parts they would report as named groups, in URL order. Each is a
# sub-language of its scheme's rule, chosen so that the only defects the full checks could
# find are warnings of two checks the validator reruns on a match: the port check (on the
# ``port`` group: non-default, reserved or out-of-range ports) and the lexical scan of
# ``~`` (see ``validation.validate_clean``). So: no "%" (escapes, and encoded controls,
# take the full checks), no hostnumber (hostnumber-out-of-range), no password
# (password-in-url) and no "." in a user name (deceptive-userinfo). Hosts are atomic, as in
# HOST, so the engine never comes back into them (linear). The validator tries the pattern
# first and falls back to the full checks when it does not match; a property test holds
# the two to the same results.

# Characters that are valid wherever a uchar or an xchar may stand (no escapes).
_U = UNRESERVED_CHARS
_X = UNRESERVED_CHARS + RESERVED_CHARS


# hostname = *[ domainlabel "." ] toplabel, for the clean patterns: the same language as
# HOSTNAME, written as runs (a label is runs of alphadigits joined by runs of "-"), with
# every repetition possessive: faster in ``re`` than HOSTNAME's one alternation per
# character (benchmarks/bench_patterns.py). Possessive labels never give back a "." they
# took, so where HOSTNAME would match a shorter host ending before a "." (a last label
# starting with a digit: "a.b.2c"), this matches nothing; in a clean pattern no host may
# be followed by ".", so both reject the URL. Inside a URL that matches, both take the
# same host. A test holds the two to the same matches over every short string of host
# characters.
_CLEAN_DOMAINLABEL = f"{ALPHADIGIT}++(?:-++{ALPHADIGIT}++)*+"
_CLEAN_TOPLABEL = f"{ALPHA}{ALPHADIGIT}*+(?:-++{ALPHADIGIT}++)*+"
CLEAN_HOSTNAME = rf"(?:{_CLEAN_DOMAINLABEL}\.)*+{_CLEAN_TOPLABEL}"


def clean_ip_schemepart(tail: str, *, user: bool = False) -> str:
    """Return a clean ``"//" login tail`` schemepart (see above).

    Args:
        tail: the pattern after hostport (with its leading ``/``), named groups inside.
        user: allow ``user "@"`` before the host (a user name without ".", no password).
    """
    user_chars = _U.replace(".", "")
    login = f"(?:(?P<user>[{user_chars};?&=]*+)@)?" if user else ""
    return f"//{login}(?P<host>{CLEAN_HOSTNAME})(?::(?P<port>{DIGITS}))?{tail}"


# http, https:  "//" hostport [ "/" hpath [ "?" search ]]
HTTP_CLEAN_TAIL = rf"(?:/(?P<path>[{_U};:@&=/]*+)(?:\?(?P<search>[{_U};:@&=]*+))?)?"
# ftp:  "//" login [ "/" fpath [ ";type=" ftptype ]] (fsegment has no ";", so ";type="
# can only end the URL)
FTP_CLEAN_TAIL = rf"(?:/(?P<path>[{_U}?:@&=/]*+)(?:{TYPE_LITERAL}(?P<type>{FTPTYPE}))?)?"
# gopher:  "//" hostport [ "/" [ gtype [ selector ]]] (no "%", so no "%09" search)
GOPHER_CLEAN_TAIL = f"(?:/(?:(?P<gtype>[{_X}])(?P<selector>[{_X}]*+))?)?"
# nntp:  "//" hostport "/" group [ "/" digits ]
NNTP_CLEAN_TAIL = f"/(?P<group>{GROUP})(?:/(?P<article>{DIGITS}))?"
# telnet:  "//" login [ "/" ]
TELNET_CLEAN_TAIL = "/?"
# wais:  "//" hostport "/" database [ "?" search | "/" wtype "/" wpath ]
WAIS_CLEAN_TAIL = (
    rf"/(?P<database>[{_U}]*+)"
    rf"(?:\?(?P<search>[{_U};:@&=]*+)|/(?P<wtype>[{_U}]*+)/(?P<wpath>[{_U}]*+))?"
)
# file:  "//" [ host ] "/" fpath (no port)
FILE_CLEAN_SCHEMEPART = rf"//(?P<host>{CLEAN_HOSTNAME})?/(?P<path>[{_U}?:@&=/]*+)"
# prospero:  "//" hostport "/" ppath (fieldspecs take the full checks)
PROSPERO_CLEAN_TAIL = f"/(?P<path>[{_U}?:@&=/]*+)"

# mailto: an encoded822addr with an "@" (so no bad-address warning) and no "%".
MAILTO_CLEAN_SCHEMEPART = f"(?P<address>(?=[{_U};/?:&=]*+@)[{_X}]++)"

# news: a group name, or an article whose host is a hostname (the "*" form takes the full
# checks). The article part is the whole schemepart, as the full checks report it.
NEWS_CLEAN_SCHEMEPART = f"(?:(?P<group>{GROUP})|(?P<article>[{_U};/?:&=]++@{CLEAN_HOSTNAME}))"


# =======================================================================================
# Compilation: the one place urlsift compiles grammar patterns.
# =======================================================================================


def _stdlib_is_enough() -> bool:
    # The stdlib ``re`` knows possessive repetitions and atomic groups from Python 3.11.
    try:
        re.compile("(?>a*+)")
    except re.error:
        return False
    return True


_STDLIB_RE = _stdlib_is_enough()


def compile_grammar(source: str) -> re.Pattern[str]:
    """Compile a pattern that may hold possessive runs or atomic groups (the grammar's,
    and normalize's shapes): with ``re`` where it has them (Python 3.11+), else with
    ``regex``."""
    # Where ``re`` can, it compiles the grammar: it matches these patterns faster than
    # ``regex`` (benchmarks/bench_patterns.py). Python 3.10 uses
    # ``regex``, which has the same Pattern API (match/fullmatch/search/finditer with pos
    # and endpos) and gives the same results here (the test suite runs on both). ``regex``
    # ships no type stubs, so its pattern is typed as the ``re`` equivalent.
    if _STDLIB_RE:
        return re.compile(source)
    import regex  # only where re cannot (a runtime dependency for Python 3.10)

    return cast("re.Pattern[str]", regex.compile(source))


_PATTERN_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split")


class _PatternOnUse:
    """A pattern compiled on its first use (see :func:`compile_on_use`)."""

    __slots__ = ("_compile", "_compiled", "_flags", "_source", *_PATTERN_METHODS)

    def __init__(
        self, source: str, flags: int, compile: Callable[[str, int], re.Pattern[str]]
    ) -> None:
        self._source = source
        self._flags = flags
        self._compile = compile

    def __getattr__(self, name: str) -> Any:
        # Called only for what is not set: the first use compiles the pattern and sets its
        # methods here, so later calls find them without coming back (``pattern``,
        # ``groups`` and the like are read from the compiled pattern each time).
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._pattern(), name)

    def _pattern(self) -> re.Pattern[str]:
        try:
            return self._compiled
        except AttributeError:
            pass
        compiled = self._compile(self._source, self._flags)
        for method in _PATTERN_METHODS:
            setattr(self, method, getattr(compiled, method))
        self._compiled: re.Pattern[str] = compiled
        return compiled

    def __repr__(self) -> str:
        return f"compile_on_use({self._source!r}, {self._flags!r})"

    def __eq__(self, other: object) -> bool:
        # As the compiled pattern compares (by source and flags), without compiling two.
        if isinstance(other, _PatternOnUse):
            return (self._source, self._flags) == (other._source, other._flags)
        return self._pattern() == other

    def __hash__(self) -> int:
        return hash(self._pattern())

    def __reduce__(self) -> tuple[object, ...]:
        return (_PatternOnUse, (self._source, self._flags, self._compile))


def compile_on_use(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, done when the pattern is first used.

    For the module-level patterns of rarely taken paths (the wrap evidence, page breaks):
    a run that never takes the path never compiles them, which is most of a small input's
    start-up. Once compiled, a call costs what the pattern's own method does (the methods
    are set on the object); ``pattern``, ``groups`` and the like are forwarded.
    """
    return cast("re.Pattern[str]", _PatternOnUse(source, flags, re.compile))


def _grammar_on_use(source: str) -> re.Pattern[str]:
    # compile_grammar(source), done when the pattern is first used.
    return cast("re.Pattern[str]", _PatternOnUse(source, 0, _compile_grammar))


def _compile_grammar(source: str, flags: int) -> re.Pattern[str]:
    return compile_grammar(source)  # (the grammar's patterns take no flags)


class _CompiledOnUse(Mapping[str, "re.Pattern[str]"]):
    """Patterns by name, each compiled on its first lookup (the sources are fixed)."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self._sources = sources
        self._compiled: dict[str, re.Pattern[str]] = {}

    def __getitem__(self, key: str) -> re.Pattern[str]:
        pattern = self._compiled.get(key)
        if pattern is None:
            pattern = self._compiled[key] = compile_grammar(self._sources[key])
        return pattern

    def __iter__(self) -> Iterator[str]:
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)


URL_PATTERNS: Mapping[str, re.Pattern[str]] = _CompiledOnUse(URL_SOURCES)
"""Full-URL patterns per lower-case scheme ("" = otherurl); use with ``fullmatch``.

Compiled on first use: the scan's validator never needs them (it checks URLs component
by component), and compiling all twelve took a tenth of the command's start-up."""


class _CompiledOnLookup(dict[str, "re.Pattern[str]"]):
    """Patterns by name in a dict, each compiled and added on its first lookup (a lookup
    of a compiled one costs what a dict's does; only those are iterated)."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        super().__init__()
        self._sources = sources

    def __missing__(self, key: str) -> re.Pattern[str]:
        pattern = self[key] = compile_grammar(self._sources[key])
        return pattern


COMPONENT_PATTERNS: dict[str, re.Pattern[str]] = _CompiledOnLookup(COMPONENT_SOURCES)
"""Component repetitions; ``match`` gives the longest valid prefix, ``fullmatch`` the test.
Each is compiled on its first lookup (a scan meets a handful of the rules)."""

# The patterns below are module attributes compiled on first use (by the module's
# __getattr__, which then stores each as an ordinary attribute): a scan of a few http URLs
# needs few of them, and compiling all took 3 ms of every start-up. The clean patterns go
# into every registry's scheme objects (``IpScheme.clean``), so they are compiled later
# still: on the fast path's first use of each (``_grammar_on_use``).
SCHEME_PATTERN: re.Pattern[str]
HOST_PATTERN: re.Pattern[str]
HOSTNUMBER_PATTERN: re.Pattern[str]
GROUP_PATTERN: re.Pattern[str]
HOST_DIAGNOSTICS: tuple[tuple[str, re.Pattern[str], str], ...]
LEXICAL_OFFENDER_PATTERN: re.Pattern[str]
LEXICAL_RUN_PATTERN: re.Pattern[str]
FRAGMENT_OFFENDER_PATTERN: re.Pattern[str]
ENCODED_CONTROL_PATTERN: re.Pattern[str]
ESCAPE_PATTERN: re.Pattern[str]
HTTP_CLEAN_PATTERN: re.Pattern[str]
FTP_CLEAN_PATTERN: re.Pattern[str]
GOPHER_CLEAN_PATTERN: re.Pattern[str]
NNTP_CLEAN_PATTERN: re.Pattern[str]
TELNET_CLEAN_PATTERN: re.Pattern[str]
WAIS_CLEAN_PATTERN: re.Pattern[str]
FILE_CLEAN_PATTERN: re.Pattern[str]
PROSPERO_CLEAN_PATTERN: re.Pattern[str]
MAILTO_CLEAN_PATTERN: re.Pattern[str]
NEWS_CLEAN_PATTERN: re.Pattern[str]

_ON_USE: dict[str, Callable[[], object]] = {
    "SCHEME_PATTERN": lambda: compile_grammar(SCHEME),
    "HOST_PATTERN": lambda: compile_grammar(HOST),
    "HOSTNUMBER_PATTERN": lambda: compile_grammar(HOSTNUMBER),
    "GROUP_PATTERN": lambda: compile_grammar(GROUP),
    "HOST_DIAGNOSTICS": lambda: tuple(
        (rule, compile_grammar(source), what) for rule, source, what in HOST_DIAGNOSTIC_SOURCES
    ),
    "LEXICAL_OFFENDER_PATTERN": lambda: compile_grammar(LEXICAL_OFFENDER),
    "LEXICAL_RUN_PATTERN": lambda: compile_grammar(LEXICAL_RUN),
    "FRAGMENT_OFFENDER_PATTERN": lambda: compile_grammar(FRAGMENT_OFFENDER),
    "ENCODED_CONTROL_PATTERN": lambda: compile_grammar(ENCODED_CONTROL),
    "ESCAPE_PATTERN": lambda: compile_grammar(ESCAPE),
    "HTTP_CLEAN_PATTERN": lambda: _grammar_on_use(clean_ip_schemepart(HTTP_CLEAN_TAIL)),
    "FTP_CLEAN_PATTERN": lambda: _grammar_on_use(clean_ip_schemepart(FTP_CLEAN_TAIL, user=True)),
    "GOPHER_CLEAN_PATTERN": lambda: _grammar_on_use(clean_ip_schemepart(GOPHER_CLEAN_TAIL)),
    "NNTP_CLEAN_PATTERN": lambda: _grammar_on_use(clean_ip_schemepart(NNTP_CLEAN_TAIL)),
    "TELNET_CLEAN_PATTERN": lambda: _grammar_on_use(
        clean_ip_schemepart(TELNET_CLEAN_TAIL, user=True)
    ),
    "WAIS_CLEAN_PATTERN": lambda: _grammar_on_use(clean_ip_schemepart(WAIS_CLEAN_TAIL)),
    "FILE_CLEAN_PATTERN": lambda: _grammar_on_use(FILE_CLEAN_SCHEMEPART),
    "PROSPERO_CLEAN_PATTERN": lambda: _grammar_on_use(clean_ip_schemepart(PROSPERO_CLEAN_TAIL)),
    "MAILTO_CLEAN_PATTERN": lambda: _grammar_on_use(MAILTO_CLEAN_SCHEMEPART),
    "NEWS_CLEAN_PATTERN": lambda: _grammar_on_use(NEWS_CLEAN_SCHEMEPART),
}


def __getattr__(name: str) -> object:
    # The first use of an attribute of _ON_USE: compile it and keep it as a global (later
    # uses are plain attribute lookups that never come here).
    build = _ON_USE.get(name)
    if build is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = build()
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_ON_USE})
