"""Seeded generator of benchmark text: mail-like prose, URL-dense lines, mbox archives.

Strategy
--------
* **Deterministic.** Everything comes from one ``random.Random(seed)``; the same kind, seed
  and size give the same text, byte for byte, on every Python from 3.10.
* **Streaming.** Text is produced one message (or one block of dense lines) at a time, so
  a gigabyte needs no more memory than a message. Output stops at the first unit boundary
  at or after the requested size (so it is at most one message longer).
* **Planted URLs are known.** Every URL is made by :class:`_Urls` and written in one of
  RFC 1738's appendix forms by a table of renderers; the generator can record what
  ``urlsift.extract`` must find (:class:`Planted`: the rejoined URL, the form, how it was
  broken). Nothing else in the text is a URL: prose comes from a word list with no
  ``scheme:`` words, headers and code lines carry no URLs.
* **Mail-like.** RFC 822-style headers, prose paragraphs wrapped at 72 columns, quoted
  replies (``> `` and ``>> ``), signatures, code-ish lines, about one URL per 2 KB
  (:data:`URL_GAP`), mixed schemes, some URLs broken across lines inside wrappers
  (whitespace and hyphen breaks, also inside quoted text) and some bare URLs broken after
  a hyphen, prose punctuation after bare URLs.
* **Mbox.** A stream of messages with ``From_`` lines; bodies are plain 7/8-bit text,
  ``format=flowed``, quoted-printable, base64, or ``multipart/alternative`` with a
  ``text/html`` part.

Usage::

    python benchmarks/gen_text.py mail|dense|mbox --size 10M --seed 1 [-o FILE]
"""

from __future__ import annotations

import argparse
import base64
import html
import quopri
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

KINDS = ("mail", "dense", "mbox")
URL_GAP = (1024, 3072)
"""Bytes between two planted URLs in mail text: uniform in this range (mean 2 KB)."""
WIDTH = 72
"""Column at which prose is wrapped."""

# A word list (common English words and some mailing-list jargon; a few non-ASCII words so
# the text is UTF-8). No word is a URL scheme, "URL" or "From" (mbox separator).
_WORD_TABLE = """
    the of and to in is that it for was on are as with his they be at one have this had by word
    but not what all were we when your can said there use each which she do how their if will up
    other about out many then them these so some her would make like him into time has look two
    more write go see number no way could people my than first water been call who oil its now
    find long down day did get come made may part over new sound take only little work know
    place year live me back give most very after thing our just name good sentence man think say
    great where help through much before line right too mean old any same tell boy follow came
    want show also around form three small set put end does another well large must big even
    such because turn here why ask went men read need land different home us move try kind hand
    picture again change off play spell air away animal house point page letter mother answer
    found study still learn should world high kernel patch driver build compile release mirror
    archive list thread reply message board firmware boot loader module config toolchain
    binutils cross debug trace crash memory cache buffer interrupt timer port serial console
    network socket packet radio receiver antenna sample rate gain filter frequency bandwidth
    stream block flowgraph café naïve résumé Zürich Ångström
"""
WORDS = tuple(_WORD_TABLE.split())
NAMES = (
    "Ralf Baechle",
    "Jane Doe",
    "John Smith",
    "Maciej Rozycki",
    "Ulf Carlsson",
    "Marcus Müller",
    "Ann Lee",
    "Kurt Gödel",
)
TLDS = ("org", "com", "net", "edu", "de", "uk", "example")
CODE_LINES = (
    "    for (i = 0; i < n; i++) {",
    "        x->next = NULL;",
    "    }",
    "#include <stdio.h>",
    "$ make CFLAGS=-O2 ARCH=mips",
    "    ret = request_irq(irq, handler, 0, name, dev);",
    "diff -u a/drivers/char/serial.c b/drivers/char/serial.c",
    "@@ -120,7 +120,8 @@ static int probe(void)",
    "    if (err < 0) return err; /* see above */",
    "  tb.run(); // 2 samples per symbol",
)


@dataclass(frozen=True, slots=True)
class Planted:
    """A URL the generator wrote, and what ``urlsift.extract`` must report for it."""

    url: str
    """The URL as it must be reported (``Url.url``): rejoined, hyphen kept."""
    kind: str
    """The appendix form: ``wrapped``, ``angle``, ``prefixed`` or ``bare``."""
    scheme: str
    """Lower-case scheme."""
    broken: str
    """How it was broken across lines: ``""`` (not), ``space`` or ``hyphen``."""
    quoted: int
    """Quote depth of the text it was written in (0: not quoted)."""


def parse_size(text: str) -> int:
    """Parse ``10M``, ``512K``, ``1G`` or a plain number of bytes (powers of 1000)."""
    units = {"K": 10**3, "M": 10**6, "G": 10**9}
    text = text.strip().upper().removesuffix("B")
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


class _Urls:
    """Make RFC 1738-valid URLs of every scheme; ``hyphen=True`` puts a hyphen inside."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.makers: dict[str, Callable[[bool], str]] = {
            "http": lambda h: f"http://{self.host(h)}{self.port(80)}/{self.path(h)}{self.query()}",
            "https": lambda h: f"https://{self.host(h)}/{self.path(h)}{self.query()}",
            "ftp": lambda h: f"ftp://{self.user()}{self.host(h)}/{self.path(h)}{self.ftptype()}",
            "mailto": lambda h: (
                f"mailto:{self.word()}{'-' if h else '.'}{self.word()}@{self.host(False)}"
            ),
            "news": lambda h: self.news(h),
            "nntp": lambda h: (
                f"nntp://{self.host(h)}/comp.{self.word()}/{self.rng.randrange(1, 99999)}"
            ),
            "gopher": lambda h: f"gopher://{self.host(h)}:70/1/{self.path(h)}",
            "telnet": lambda h: f"telnet://{self.user()}{self.host(h)}{self.port(23)}/",
            "file": lambda h: (
                f"file://{self.rng.choice(('', self.host(h)))}/{self.path(h) or self.word()}"
            ),
            "wais": lambda h: f"wais://{self.host(h)}:210/{self.word()}?{self.word()}",
            "prospero": lambda h: f"prospero://{self.host(h)}:1525/{self.path(h)};type=text",
        }
        # Weights: the web schemes dominate, as in real mail; every scheme occurs.
        self.schemes = tuple(self.makers)
        self.weights = (30, 20, 12, 8, 5, 3, 3, 3, 3, 2, 2)

    def word(self) -> str:
        return self.rng.choice(_ASCII_WORDS)

    def host(self, hyphen: bool) -> str:
        sep = "-" if hyphen else self.rng.choice(("", "", "."))
        return f"{self.rng.choice(('www.', 'ftp.', ''))}{self.word()}{sep}{self.word()}." + (
            self.rng.choice(TLDS)
        )

    def port(self, default: int) -> str:
        return f":{default + self.rng.randrange(1, 9000)}" if self.rng.random() < 0.1 else ""

    def user(self) -> str:
        return f"{self.word()}@" if self.rng.random() < 0.1 else ""

    def path(self, hyphen: bool) -> str:
        parts = [self.word() for _ in range(self.rng.randrange(0, 4))]
        if hyphen:
            parts.append(f"{self.word()}-{self.word()}")
        if self.rng.random() < 0.5:
            parts.append(f"{self.word()}{self.rng.randrange(100)}.{self.rng.choice(_EXT)}")
        if self.rng.random() < 0.05:
            parts.insert(0, f"~{self.word()}")
        return "/".join(parts)

    def query(self) -> str:
        if self.rng.random() < 0.8:
            return ""
        return f"?{self.word()}={self.rng.randrange(1000)}&{self.word()}={self.word()}"

    def ftptype(self) -> str:
        return ";type=i" if self.rng.random() < 0.1 else ""

    def news(self, hyphen: bool) -> str:
        if self.rng.random() < 0.3:
            return f"news:{self.rng.randrange(10**6)}.{self.word()}@{self.host(hyphen)}"
        return f"news:comp.{self.word()}{'-' if hyphen else '.'}{self.word()}"

    def make(self, hyphen: bool) -> tuple[str, str]:
        """Return (scheme, url)."""
        scheme = self.rng.choices(self.schemes, self.weights)[0]
        return scheme, self.makers[scheme](hyphen)


_ASCII_WORDS = tuple(w for w in WORDS if w.isascii())
_EXT = ("html", "txt", "tar.gz", "ps", "pdf", "c", "patch")
# Prose around a bare or prefixed URL: (before, after); the after part is prose punctuation
# that the URL must not keep.
_BARE_CONTEXT = (
    ("", ""),
    ("", ""),
    ("", "."),
    ("", ","),
    ("", ";"),
    ("", ":"),
    ("", "!"),
    ("", "?"),
    ("(", ")"),
    ("(see ", ")."),
    ('"', '"'),
    ("'", "'"),
)
# The appendix forms and their weights: (kind, weight, may break at whitespace).
_FORMS = (("wrapped", 3, True), ("angle", 3, True), ("prefixed", 1, False), ("bare", 6, False))


class Generator:
    """Seeded text generator; ``planted`` collects the URLs written when ``record`` is set.

    Args:
        seed: seed of the ``random.Random`` every choice comes from.
        record: keep a :class:`Planted` for every URL written (the correctness tests).
    """

    def __init__(self, seed: int, record: bool = False) -> None:
        self.rng = random.Random(seed)
        self.urls = _Urls(self.rng)
        self.record = record
        self.planted: list[Planted] = []
        self._since = 0  # bytes of prose since the last URL
        self._gap = self.rng.randrange(*URL_GAP)
        self._quoted = 0
        self._breaks = True
        self._links: dict[str, str] | None = None  # token -> URL, while writing HTML
        self._prose = 0  # bytes of the current unit already counted in _since

    # -- URLs ---------------------------------------------------------------------------

    def url_token(self, breaks: bool = True) -> str:
        """Return one URL written in a random appendix form (maybe broken across lines)."""
        rng = self.rng
        kind, _, spaced = rng.choices(_FORMS, [w for _, w, _ in _FORMS])[0]
        broken = ""
        if breaks and self._breaks:
            roll = rng.random()
            if roll < 0.10:
                broken = "hyphen"
            elif roll < 0.25 and spaced:
                broken = "space"
        scheme, url = self.urls.make(broken == "hyphen")
        written = url
        if broken == "hyphen":
            cut = url.index("-", url.index(":") + 1) + 1
            indent = " " * rng.randrange(2, 8) if spaced else ""
            written = f"{url[:cut]}\n{indent}{url[cut:]}"
        elif broken == "space":
            start = url.index(":") + 2
            cut = rng.randrange(start, len(url))
            while url[cut - 1] == "-":
                cut -= 1
            written = f"{url[:cut]}\n{' ' * rng.randrange(1, 12)}{url[cut:]}"
        if kind == "wrapped":
            token = f"<URL:{rng.choice(('', '', ' '))}{written}>"
            token += rng.choice(("", "", ".", ","))
        elif kind == "angle":
            token = f"<{written}>" + rng.choice(("", "", ".", ","))
        else:
            before, after = rng.choice(_BARE_CONTEXT)
            token = f"{before}{'URL:' if kind == 'prefixed' else ''}{written}{after}"
        if self.record:
            self.planted.append(Planted(url, kind, scheme, broken, self._quoted))
        if self._links is not None:
            self._links[token] = url
        return token

    # -- prose --------------------------------------------------------------------------

    def sentence(self) -> list[str]:
        words = self.rng.choices(WORDS, k=self.rng.randrange(4, 18))
        words[0] = words[0].capitalize()
        words[-1] += self.rng.choice((".", ".", ".", "?", "!", ","))
        return words

    def paragraph(self, breaks: bool = True) -> list[str]:
        """Return the tokens of one paragraph; plants a URL when the gap is used up."""
        tokens: list[str] = []
        for _ in range(self.rng.randrange(1, 5)):
            tokens += self.sentence()
            size = sum(len(t) + 1 for t in tokens)
            if self._since + size >= self._gap:
                tokens.append(self.url_token(breaks))
                self._since = -size
                self._gap = self.rng.randrange(*URL_GAP)
        size = sum(len(t) + 1 for t in tokens)
        self._since += size
        self._prose += size
        return tokens

    @staticmethod
    def wrap(tokens: list[str], width: int = WIDTH) -> list[str]:
        """Greedy wrap; a token holding a line break (a broken URL) keeps it."""
        lines: list[str] = []
        line = ""
        for token in tokens:
            if line and len(line) + 1 + len(token.split("\n", 1)[0]) > width:
                lines.append(line)
                line = ""
            line = f"{line} {token}" if line else token
            if "\n" in line:
                *done, line = line.split("\n")
                lines += done
        if line:
            lines.append(line)
        return lines

    def body(self, quote: str = "") -> list[str]:
        """Lines of a message body: prose, a quoted reply, code, a signature."""
        rng = self.rng
        out: list[str] = [rng.choice(("Hi,", "Hello all,", f"{rng.choice(NAMES)} wrote:")), ""]
        for _ in range(rng.randrange(1, 5)):
            out += [*self.wrap(self.paragraph()), ""]
        if rng.random() < 0.6:
            out.append(f"On {self.date()}, {rng.choice(NAMES)} wrote:")
            for depth in (2, 1) if rng.random() < 0.4 else (1,):
                self._quoted = depth
                prefix = rng.choice((">" * depth + " ", "> " * depth))
                for _ in range(rng.randrange(1, 4)):
                    out += [prefix + line for line in self.wrap(self.paragraph(), 70)]
                    out.append(prefix.rstrip())
                self._quoted = 0
            out.append("")
            out += [*self.wrap(self.paragraph()), ""]
        if rng.random() < 0.3:
            out += [*rng.sample(CODE_LINES, rng.randrange(2, 6)), ""]
        out += ["-- ", rng.choice(NAMES)]
        if self._since >= self._gap * 0.8 and rng.random() < 0.5:  # a home page
            out.append(self.url_token(breaks=False))
            self._since = 0
            self._gap = rng.randrange(*URL_GAP)
        return out

    # -- headers and messages -----------------------------------------------------------

    def date(self) -> str:
        rng = self.rng
        return (
            f"{rng.choice(('Mon', 'Tue', 'Wed', 'Thu', 'Fri'))}, {rng.randrange(1, 29)} "
            f"{rng.choice(('Jan', 'Mar', 'Jun', 'Oct'))} {rng.randrange(1996, 2020)} "
            f"{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d} +0100"
        )

    def headers(self, number: int) -> list[str]:
        rng = self.rng
        name = rng.choice(NAMES)
        address = f"{name.split()[0].lower()}@{self.urls.host(False)}"
        subject = " ".join(rng.choices(_ASCII_WORDS, k=rng.randrange(2, 8)))
        return [
            f"From: {name} <{address}>",
            f"To: {rng.choice(_ASCII_WORDS)}-list@{self.urls.host(False)}",
            f"Subject: {rng.choice(('', 'Re: ', 'Re: [PATCH] '))}{subject}",
            f"Date: {self.date()}",
            f"Message-ID: <{number}.{rng.randrange(10**9)}@{self.urls.host(False)}>",
            *(self.received() for _ in range(rng.randrange(1, 5))),
            f"Return-Path: <{address}>",
            f"X-Mailer: {rng.choice(('Mutt/1.2.5i', 'Pine 4.33', 'Evolution 3.28.5'))}",
            f"List-Id: <{rng.choice(_ASCII_WORDS)}.lists.{self.urls.host(False)}>",
            "Precedence: bulk",
        ]

    def received(self) -> str:
        rng = self.rng
        host, relay = self.urls.host(False), self.urls.host(False)
        return (
            f"Received: from {host} ({host} [192.0.2.{rng.randrange(1, 255)}])\n"
            f"\tby {relay} (8.11.2/8.11.2) with ESMTP id f{rng.randrange(10**8)}\n"
            f"\tfor <{rng.choice(_ASCII_WORDS)}@{relay}>; {self.date()}"
        )

    def _counted(self, unit: str) -> str:
        """Count the unit's bytes outside paragraphs towards the URL gap; return the unit."""
        self._since += len(unit) - self._prose
        self._prose = 0
        return unit

    def mail_message(self, number: int) -> str:
        """One message as plain text (headers, blank line, body)."""
        return self._counted("\n".join([*self.headers(number), "", *self.body(), "", ""]))

    def dense_block(self) -> str:
        """Twenty lines of two to six URLs each, separated by a few words."""
        lines = []
        for _ in range(20):
            parts: list[str] = []
            for _ in range(self.rng.randrange(2, 7)):
                parts += self.rng.choices(_ASCII_WORDS, k=self.rng.randrange(0, 3))
                parts.append(self.url_token(breaks=False))
            lines.append(" ".join(parts))
        return "\n".join(lines) + "\n"

    # -- mbox ---------------------------------------------------------------------------

    def mbox_message(self, number: int) -> str:
        """One mbox message: ``From_`` line, headers, a body in a random encoding."""
        rng = self.rng
        head = self.headers(number)
        sender = head[0].rsplit("<", 1)[1].rstrip(">")
        stamp = f"{rng.choice(('Mon', 'Sat'))} Jan {rng.randrange(1, 29):2d} 10:00:00 2001"
        head = [f"From {sender} {stamp}", *head, "MIME-Version: 1.0"]
        roll = rng.random()
        if roll < 0.45:
            text = "\n".join(self.body())
            charset = "us-ascii" if text.isascii() else "utf-8"
            head += [
                f"Content-Type: text/plain; charset={charset}",
                "Content-Transfer-Encoding: 8bit",
            ]
            body = text
        elif roll < 0.6:
            head += ["Content-Type: text/plain; charset=utf-8; format=flowed"]
            body = self.flowed()
        elif roll < 0.75:
            head += ["Content-Type: text/plain; charset=utf-8", _QP]
            body = _qp("\n".join(self.body()))
        elif roll < 0.85:
            head += ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64"]
            body = _b64("\n".join(self.body()))
        else:
            boundary = f"=_{number}_{rng.randrange(10**9)}"
            head += [f'Content-Type: multipart/alternative; boundary="{boundary}"']
            self._breaks = False  # the same paragraphs go into both parts, unbroken
            self._links = {}
            paragraphs = [self.paragraph() for _ in range(rng.randrange(1, 4))]
            links, self._links, self._breaks = self._links, None, True
            plain = "\n\n".join("\n".join(self.wrap(p)) for p in paragraphs)
            markup = "\n".join(f"<p>{_html_paragraph(p, links)}</p>" for p in paragraphs)
            body = "\n".join(
                [
                    "This is a multi-part message in MIME format.",
                    f"--{boundary}",
                    "Content-Type: text/plain; charset=utf-8",
                    "",
                    plain,
                    f"--{boundary}",
                    "Content-Type: text/html; charset=utf-8",
                    _QP,
                    "",
                    _qp(f"<html><body>\n{markup}\n</body></html>"),
                    f"--{boundary}--",
                ]
            )
        lines = [">" + line if line.startswith("From ") else line for line in body.split("\n")]
        return self._counted("\n".join([*head, "", *lines, "", ""]))

    def flowed(self) -> str:
        """A ``format=flowed`` body: soft line breaks are a space before the line end."""
        self._breaks = False
        out: list[str] = []
        for _ in range(self.rng.randrange(1, 4)):
            lines = self.wrap(self.paragraph(), 66)
            out += [line + " " for line in lines[:-1]] + lines[-1:] + [""]
        self._breaks = True
        return "\n".join(out)

    # -- streams ------------------------------------------------------------------------

    def units(self, kind: str) -> Iterator[str]:
        """Yield the text of ``kind`` one unit (message or block) at a time, forever."""
        make = {"mail": self.mail_message, "mbox": self.mbox_message}.get(kind)
        number = 0
        while True:
            number += 1
            yield self.dense_block() if make is None else make(number)


_QP = "Content-Transfer-Encoding: quoted-printable"


def _qp(text: str) -> str:
    return quopri.encodestring(text.encode("utf-8")).decode("ascii")


def _b64(text: str) -> str:
    return base64.encodebytes(text.encode("utf-8")).decode("ascii").rstrip("\n")


def _html_paragraph(tokens: list[str], links: dict[str, str]) -> str:
    """Render prose tokens as HTML; a URL token becomes a link around its own text."""
    out = []
    for token in tokens:
        text = html.escape(token, quote=False)
        url = links.get(token)
        out.append(text if url is None else f'<a href="{html.escape(url)}">{text}</a>')
    return " ".join(out)


def iter_text(
    kind: str, size: int, seed: int = 1, generator: Generator | None = None
) -> Iterator[str]:
    """Yield text of ``kind`` in chunks until at least ``size`` UTF-8 bytes are out.

    Args:
        kind: ``mail``, ``dense`` or ``mbox``.
        size: target size in bytes; the output ends at the first unit boundary past it.
        seed: the random seed (ignored when ``generator`` is given).
        generator: a :class:`Generator` to use (e.g. one that records planted URLs).

    Returns:
        An iterator of ``str`` chunks (one message or dense block each).
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    gen = generator if generator is not None else Generator(seed)
    units = gen.units(kind)
    written = 0
    while written < size:  # never makes a unit it does not yield (planted stays exact)
        unit = next(units)
        written += len(unit.encode("utf-8"))
        yield unit


def generate(kind: str, size: int, seed: int = 1) -> tuple[str, list[Planted]]:
    """Return the whole text of ``kind`` and the URLs planted in it (small sizes only).

    Args:
        kind: ``mail``, ``dense`` or ``mbox``.
        size: target size in bytes.
        seed: the random seed.

    Returns:
        The text and the planted URLs in text order (for ``mbox``, the URLs of HTML parts
        are listed again after their text part).
    """
    gen = Generator(seed, record=True)
    return "".join(iter_text(kind, size, generator=gen)), gen.planted


def write(kind: str, size: int, seed: int, stream: TextIO) -> int:
    """Write generated text to ``stream``; return the bytes written."""
    written = 0
    for chunk in iter_text(kind, size, seed):
        stream.write(chunk)
        written += len(chunk.encode("utf-8"))
    return written


def main(argv: list[str] | None = None) -> int:
    """Command line: write generated text to a file or standard output."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("kind", choices=KINDS)
    parser.add_argument("--size", default="10M", help="target size: 10M, 512K, 1G (default 10M)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", help="file to write (default: standard output)")
    args = parser.parse_args(argv)
    size = parse_size(args.size)
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="\n") as out:
            write(args.kind, size, args.seed, out)
        return 0
    out = open(sys.stdout.fileno(), "w", encoding="utf-8", newline="\n", closefd=False)  # noqa: SIM115
    try:
        write(args.kind, size, args.seed, out)
        out.flush()
    except BrokenPipeError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
