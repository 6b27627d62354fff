"""Never crash, never lose: end-to-end property tests of the mail pipeline.

Archives are assembled from pieces (``From_`` separators valid and broken, hostile headers,
multiparts with and without boundaries, nested and encapsulated parts, quoted-printable and
base64 valid and truncated, bogus transfer encodings and charsets, ``format=flowed``,
HTML, NUL and 8-bit bytes, CRLF/LF mixes), written plain and gzip-compressed, and scanned
with :func:`urlsift.engines.runner.iter_results` for every input kind. What is asserted is only
what the documented rules guarantee:

* nothing raises, and every URL record has a non-empty ``raw`` and ``start < end``;
* the splitter's rule (mbox.py): a ``From_`` line opens a message when it is the first line
  of the archive or follows an empty line, and looks like an envelope. So when every
  separator the generator wrote obeys the rule (and bodies are mboxrd-quoted), the
  archive holds exactly those messages, plus one for non-blank text before the first;
* URLs planted in intact ``text/plain`` parts of structurally sound messages, on lines of
  their own, come out exactly once each, with the right message number, whatever the
  transfer encoding (quoted-printable soft breaks anywhere, ``format=flowed; delsp=yes``
  soft breaks inside the URL, a ``<URL:...>`` wrapper broken across lines);
* non-text parts are not scanned; gzip gives the same results as the plain file; ``auto``
  gives the same results as the kind that :func:`detect_kind` names.
"""

from __future__ import annotations

import base64
import gzip
import json
import random
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from urlsift._model import Url
from urlsift.cli import main
from urlsift.engines.runner import ReadFailure, ScanConfig, UnitDefects, iter_results
from urlsift.sources.archive import ArchiveStats, InputKind, detect_kind
from urlsift.sources.compress import MAGIC_LENGTH, sniff_compression
from urlsift.sources.options import MailOptions

_PROFILE_EXAMPLES = settings().max_examples  # 150 by default, 300 under the ci profile


def _fuzz(share: int, floor: int = 5) -> settings:
    # A share of the profile's examples, so the module stays well under 20 s by default.
    return settings(
        max_examples=max(floor, _PROFILE_EXAMPLES // share),
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )


KINDS: tuple[InputKind, ...] = ("auto", "mbox", "mail", "text")

# -- pieces ------------------------------------------------------------------------------

VALID_SEPARATORS = (
    b"From alice@example.com Thu Sep 13 12:30:05 2001",
    b"From MAILER-DAEMON Sat Sep  1 20:58 EDT 2001",
    b"From - Mon Jan  1 00:00:00 2024",
    b"From bob@example.org  Fri Feb 29 23:59:59 +0100 2008",
)
BROKEN_SEPARATORS = (
    b"From nobody",  # no time of day, no year: body text
    b"From carol@example.com 12:30",  # no year
    b"From dave@example.com 2001",  # no time of day
)

SAFE_FILLER = (
    "Hello, world.",
    "",
    "> quoted line of an earlier mail",
    ">> deeper quote",
    "From the desk of nobody",  # mboxrd-quoted by the archive writer
    ">From a quoted From line",
    "-- ",
    "caf\u00e9 na\u00efve",
    "see <URL:ftp://other.example/pub/file.txt> for details",
    "or http://other.example/a/b?c=d.",
    "mail mailto:someone@other.example today",
    "URL:http://other.example/prefixed",
    "a (http://other.example/wiki/Foo_(bar)) link",
    "tab\tseparated\tline",
    "=?utf-8?q?not_a_header?=",
    "--not-a-boundary",
    "=3D not QP here",
)
RISKY_FILLER = (
    "<URL:http://other.example/never-closed",
    "<http://other.example/angle but broken",
    "http://other.exam-",
    "ple/hyphen-break",
    "<URL:http://other.exa\tmple/\x00nul>",
    "\u2028\u0085odd line separators",
    "\x00\x01\x7f control bytes",
)
RAW_LINES = (b"\xff\xfe\x80 8-bit junk \xc3\x28", b"nul\x00in\x00line", b"\xe9t\xe9 latin-1")

HTML_BODIES = (
    '<p>Visit <a href="http://html.other.example/a">this</a> page.</p>',
    "<html><head><title>t</title><style>p{}</style></head><body>x<br>y</body></html>",
    "<script>var u = 'http://other.example/script';</script><!-- unclosed comment",
    "<a href='javascript:alert(1)'>x</a> &amp; &#x110000; &bogus; <img src=cid:x>",
    "<div><p>unclosed <b>tags <i>everywhere",
    '<a href="\n http://other.exa\tmple/ws ">ws</a><![CDATA[ http://other.example/c ]]>',
)

SUBJECTS = (
    b"plain subject",
    b"=?utf-8?q?caf=C3=A9?=",
    b"=?x-bogus-charset?Q?hi?=",
    b"=?utf-8?B?!!!?=",
    b"=?iso-8859-1?q?=FF?=",
    b"=?utf-8?q?unterminated",
    b"=?rot13?q?uryyb?=",
    b"raw 8-bit \xe9\xff subject",
    b"=?utf-8?b?" + base64.b64encode(b"\xff\xfe") + b"?=",
)
MESSAGE_IDS = (b"<id@example.com>", b"<<<<>>>>", b"", b"<\xff\xfe@example.com>", b"<a@b> <c@d>")
SENDERS = (
    b"Alice <alice@example.com>",
    b"=?bogus?q?x?= <a@example.com>",
    b"\xff\xfe <x@example.com>",
    b"",
)
DATES = (b"Thu, 13 Sep 2001 12:30:05 +0000", b"garbage", b"")
EXTRA_HEADERS = (
    b"X-Nul: a\x00b",
    b"X-Eight: caf\xe9 \xff",
    b"X-Weird-Name!#$%: value",
    b"List-Post: <mailto:list@other.example>",
    b"Archived-At: <http://other.example/archive>",
    b"Received: from x by y; Thu, 13 Sep 2001 12:30:05 +0000",
    b"Content-Disposition: inline",
)
HEADER_MUTATIONS = (
    b"no colon on this line",  # ends the header block early (the rest becomes body)
    b" leading continuation",
    b"Bad Name: x",
    b"Content-Type: multipart/mixed",  # no boundary
    b"Content-Transfer-Encoding: base64",
    b'Content-Type: text/plain; charset="unterminated',
    b"Content-Type: text/plain; charset*=''%ff%fe",
    b"X-CR: a\rb\rc",
)
RANDOM_PREFIXES = (
    b"",
    b"From a Thu Sep 13 12:30:05 2001\n",
    b"\x01\x01\x01\x01\n",
    b"Content-Type: multipart/mixed; boundary=x\n\n--x\n",
    b"Subject: s\n\n",
)
CHARSETS = (None, "utf-8", "UTF-8", "iso-8859-1", "x-bogus-charset", "rot13")
TRANSFER_ENCODINGS = (
    None,
    "7bit",
    "8bit",
    "quoted-printable",
    "Quoted-Printable",
    "base64",
    "base64-truncated",
    "base64-garbage",
    "x-bogus-cte",
)


@dataclass
class Built:
    """One message or part as bytes, with the URLs planted in it."""

    header: list[bytes]
    body: bytes
    planted: list[str] = field(default_factory=list)
    attached: list[str] = field(default_factory=list)


class Maker:
    """Assembles messages from pieces; ``draw`` makes the structural choices, ``rnd`` the
    fine-grained ones (line ends, soft-break positions)."""

    def __init__(self, draw: Callable[[Any], Any], rnd: random.Random) -> None:
        self.draw = draw
        self.rnd = rnd
        self.ids = 0
        self.eol_mode = "\n"

    def new_id(self) -> int:
        self.ids += 1
        return self.ids

    def eol(self) -> bytes:
        if self.eol_mode == "mixed":
            return self.rnd.choice((b"\n", b"\r\n"))
        return self.eol_mode.encode()

    def join(self, lines: list[bytes]) -> bytes:
        # Every line ends with a line end.
        return b"".join(line + self.eol() for line in lines)

    # -- text bodies ---------------------------------------------------------------------

    def planted_block(self, flowed_delsp: bool, flowed: bool) -> tuple[list[str], str]:
        url = f"http://planted-{self.new_id()}.example/"
        shape = self.draw(st.sampled_from(["bare", "wrapped", "broken-wrapper", "flowed-split"]))
        if shape == "wrapped":
            return ["", f"<URL:{url}w>", ""], url + "w"
        if shape == "broken-wrapper" and not flowed:
            inner = url + "w>"
            cut = self.rnd.randrange(1, len(inner) - 1)
            indent = self.draw(st.sampled_from(["", " ", "      ", "\t"]))
            return ["", "<URL:" + inner[:cut], indent + inner[cut:], ""], url + "w"
        if shape == "flowed-split" and flowed_delsp:
            cut = self.rnd.randrange(8, len(url) - 1)
            # RFC 3676 with DelSp=yes: the space before the soft break is deleted.
            return ["", url[:cut] + " ", url[cut:], ""], url
        return ["", url, ""], url

    def text_lines(self, safe: bool, count: int) -> list[bytes]:
        pool = SAFE_FILLER if safe else SAFE_FILLER + RISKY_FILLER
        out: list[bytes] = []
        for _ in range(count):
            if self.rnd.random() < 0.1:
                out.append(self.rnd.choice(RAW_LINES))
            else:
                out.append(self.rnd.choice(pool).encode("utf-8"))
        return out

    def encode_lines(self, lines: list[str], charset: str | None) -> list[bytes]:
        codec = "latin-1" if charset == "iso-8859-1" else "utf-8"
        return [line.encode(codec, "replace") for line in lines]

    def qp(self, lines: list[bytes]) -> bytes:
        # RFC 2045 §6.7, with soft line breaks at random places (never inside an =XX).
        out: list[bytes] = []
        for line in lines:
            tokens = []
            for i, byte in enumerate(line):
                if byte in (0x20, 0x09) and i == len(line) - 1:
                    tokens.append(b"=%02X" % byte)  # trailing white space is encoded
                elif (33 <= byte <= 126 and byte != 0x3D) or byte in (0x20, 0x09):
                    tokens.append(bytes([byte]))
                else:
                    tokens.append(b"=%02X" % byte)
            current = b""
            for token in tokens:
                if current and (len(current) + len(token) > 72 or self.rnd.random() < 0.1):
                    out.append(current + b"=")
                    current = b""
                current += token
            out.append(current)
        return self.join(out)

    def transfer_encode(self, lines: list[bytes], cte: str | None) -> tuple[bytes, bool]:
        """(encoded body, intact: the decoder gets the lines back exactly)."""
        if cte is not None and cte.lower() == "quoted-printable":
            return self.qp(lines), True
        if cte is not None and cte.startswith("base64"):
            raw = self.join(lines)
            encoded = base64.b64encode(raw)
            if cte == "base64-truncated" and len(encoded) > 4:
                encoded = encoded[: self.rnd.randrange(1, len(encoded) - 1)]
            elif cte == "base64-garbage":
                at = self.rnd.randrange(0, len(encoded) + 1)
                encoded = encoded[:at] + b"!!*==" + encoded[at:]
            body_lines = [encoded[i : i + 76] for i in range(0, len(encoded), 76)]
            return self.join(body_lines), cte == "base64"
        return self.join(lines), True

    def text_leaf(self, sound: bool) -> Built:
        subtype = self.draw(st.sampled_from(["plain", "plain", "plain", "html", "enriched"]))
        charset = self.draw(st.sampled_from(CHARSETS))
        cte = self.draw(st.sampled_from(TRANSFER_ENCODINGS))
        flowed = delsp = False
        params = ""
        if charset is not None:
            params += (
                f"; charset={charset}" if self.rnd.random() < 0.5 else f'; charset="{charset}"'
            )
        if subtype == "plain" and self.draw(st.booleans()):
            flowed = True
            delsp = self.draw(st.booleans())
            params += "; format=flowed" + ("; delsp=yes" if delsp else "")
        header = []
        if self.draw(st.booleans()) or params:
            ctype = "TEXT/PLAIN" if subtype == "plain" and self.rnd.random() < 0.2 else None
            header.append(f"Content-Type: {ctype or 'text/' + subtype}{params}".encode())
        if cte is not None:
            written = "base64" if cte.startswith("base64") else cte
            header.append(b"Content-Transfer-Encoding: " + written.encode())
        if subtype == "html":
            markup = [self.rnd.choice(HTML_BODIES) for _ in range(self.rnd.randrange(1, 4))]
            body, _ = self.transfer_encode(self.encode_lines(markup, charset), cte)
            return Built(header, body)
        text: list[bytes] = []
        planted: list[str] = []
        intact = cte not in ("base64-truncated", "base64-garbage")
        # A charset that is no ASCII superset (rot13 is refused as a codec) never applies.
        can_plant = sound and subtype == "plain" and intact
        for _ in range(self.draw(st.integers(1, 3))):
            text += self.text_lines(safe=can_plant, count=self.rnd.randrange(0, 5))
            if flowed and self.rnd.random() < 0.5 and text:
                text[-1] += b" "  # a flowed (soft-broken) line
            if can_plant:
                block, url = self.planted_block(flowed and delsp, flowed)
                text += self.encode_lines(block, charset)
                planted.append(url)
        body, _ = self.transfer_encode(text, cte)
        return Built(header, body, planted)

    def attachment_leaf(self) -> Built:
        url = f"http://attach-{self.new_id()}.example/"
        payload = b"\x89PNG\r\n\x1a\n" + url.encode() + b"\n" + bytes(range(256))
        ctype = self.draw(st.sampled_from(["application/octet-stream", "image/png"]))
        encoded = base64.b64encode(payload)
        body = self.join([encoded[i : i + 76] for i in range(0, len(encoded), 76)])
        header = [
            f'Content-Type: {ctype}; name="a.bin"'.encode(),
            b"Content-Transfer-Encoding: base64",
            b'Content-Disposition: attachment; filename="a.bin"',
        ]
        return Built(header, body, attached=[url])

    # -- structure -----------------------------------------------------------------------

    def part(self, sound: bool, depth: int) -> Built:
        choice = self.draw(
            st.sampled_from(["text", "text", "text", "attachment", "multipart", "rfc822"])
        )
        if choice == "multipart" and depth < 3:
            return self.multipart(sound, depth + 1)
        if choice == "rfc822" and depth < 3:
            inner = self.message(sound, depth + 1)
            body = self.join(inner.header) + self.eol() + inner.body
            return Built([b"Content-Type: message/rfc822"], body, inner.planted, inner.attached)
        if choice == "attachment":
            return self.attachment_leaf()
        return self.text_leaf(sound)

    def multipart(self, sound: bool, depth: int) -> Built:
        subtype = self.draw(st.sampled_from(["mixed", "alternative", "related"]))
        boundary = f"=_b{self.new_id()}_{self.rnd.randrange(10**6)}"
        quoted = self.draw(st.booleans())
        param = f'; boundary="{boundary}"' if quoted else f"; boundary={boundary}"
        if not sound:
            param = self.draw(st.sampled_from([param, "", '; boundary="wrong"', "; boundary="]))
        header = [f"Content-Type: multipart/{subtype}{param}".encode()]
        lines: list[bytes] = []
        if self.rnd.random() < 0.5:
            lines += self.text_lines(safe=True, count=2)  # preamble
        planted: list[str] = []
        attached: list[str] = []
        for _ in range(self.draw(st.integers(1, 3))):
            child = self.part(sound, depth)
            lines.append(b"--" + boundary.encode())
            body = self.join([*child.header, b""]) + child.body
            lines.append(body.rstrip(b"\r\n"))
            planted += child.planted
            attached += child.attached
        if self.draw(st.booleans()) or not sound:
            if self.draw(st.booleans()):
                lines.append(b"--" + boundary.encode() + b"--")
                if self.rnd.random() < 0.3:
                    lines += self.text_lines(safe=True, count=2)  # epilogue
        else:
            lines.append(b"--" + boundary.encode() + b"--")
        return Built(header, self.join(lines), planted, attached)

    def deep(self) -> Built:
        # Nesting beyond MAX_MIME_DEPTH: scanned as raw text (mime-too-deep).
        levels = self.draw(st.sampled_from([66, 80]))
        url = f"http://planted-{self.new_id()}.example/"
        lines: list[bytes] = []
        for level in range(levels):
            inner = b"Content-Type: multipart/mixed; boundary=d" + str(level + 1).encode()
            lines += [b"--d" + str(level).encode(), inner, b""]
        lines += [
            b"--d" + str(levels).encode(),
            b"Content-Type: text/plain",
            b"",
            b"",
            url.encode(),
            b"",
        ]
        lines += [b"--d" + str(level).encode() + b"--" for level in range(levels, -1, -1)]
        header = [b"Content-Type: multipart/mixed; boundary=d0"]
        return Built(header, self.join(lines), [url])

    def message(self, sound: bool, depth: int = 0) -> Built:
        shape = self.draw(st.sampled_from(["single", "single", "multipart", "deep"]))
        if shape == "deep" and depth == 0 and sound:
            built = self.deep()
        elif shape == "multipart":
            built = self.multipart(sound, depth + 1)
        else:
            built = self.part(sound, depth + 1)
            if built.header[:1] == [b"Content-Type: message/rfc822"]:
                built = self.text_leaf(sound)
        header = [b"MIME-Version: 1.0", *built.header]
        extra = [
            b"From: " + self.draw(st.sampled_from(SENDERS)),
            b"Subject: " + self.draw(st.sampled_from(SUBJECTS)),
            b"Date: " + self.draw(st.sampled_from(DATES)),
            b"Message-ID: " + self.draw(st.sampled_from(MESSAGE_IDS)),
            *self.draw(st.lists(st.sampled_from(EXTRA_HEADERS), max_size=3)),
        ]
        fold_lines = self.draw(st.sampled_from([0, 0, 1, 40, 4000]))
        if fold_lines:
            folded = (self.eol() + b" ").join(b"a" * 70 for _ in range(fold_lines))
            extra.append(b"X-Huge: " + folded)
        if sound:
            header += extra  # the MIME fields first: a header cap never drops them
        else:
            header = extra + header
            for _ in range(self.draw(st.integers(1, 2))):
                mutation = self.draw(st.sampled_from(HEADER_MUTATIONS))
                header.insert(self.rnd.randrange(0, len(header) + 1), mutation)
            if self.draw(st.booleans()):
                built.body = built.body.replace(b"\n", b"\r")  # lone CR line ends
            return Built(header, built.body)  # nothing asserted: nothing planted
        return Built(header, built.body, built.planted, built.attached)


def _mbox_quote(data: bytes) -> bytes:
    # mboxrd: one more ">" before every line matching ">*From ".
    lines = data.split(b"\n")
    return b"\n".join(
        b">" + line if line.lstrip(b">").startswith(b"From ") else line for line in lines
    )


@dataclass
class Archive:
    data: bytes
    shape: str  # "mbox" or "single"
    messages: int | None  # messages an mbox split must give, when the rule decides it
    planted: Counter[tuple[str, int]] | None  # (url, message number), when assertable
    attached: list[str]


@st.composite
def archives(draw: Callable[[Any], Any]) -> Archive:
    maker = Maker(draw, draw(st.randoms(use_true_random=False)))
    shape = draw(st.sampled_from(["mbox", "mbox", "single"]))
    maker.eol_mode = draw(st.sampled_from(["\n", "\r\n", "mixed"]))
    if shape == "single":
        sound = draw(st.sampled_from([True, True, False]))
        msg = maker.message(sound)
        data = maker.join(msg.header) + maker.eol() + msg.body
        return Archive(data, shape, 1, Counter((url, 1) for url in msg.planted), msg.attached)
    out: list[bytes] = []
    preamble = draw(st.sampled_from(["", "blank", "text"]))
    number = 0
    if preamble == "blank":
        out.append(maker.eol() * draw(st.integers(1, 3)))
    elif preamble == "text":
        out.append(b"junk before the first separator http://other.example/pre" + maker.eol())
        out.append(maker.eol())
        number = 1
    planted: Counter[tuple[str, int]] = Counter()
    attached: list[str] = []
    all_valid = True
    for index in range(draw(st.integers(1, 4))):
        kinds = ["valid"] if index == 0 else ["valid", "valid", "broken", "no-blank"]
        kind = draw(st.sampled_from(kinds))
        if kind == "valid":
            separator = draw(st.sampled_from(VALID_SEPARATORS))
            number += 1
        elif kind == "broken":
            separator = draw(st.sampled_from(BROKEN_SEPARATORS))
            all_valid = False
        else:
            separator = draw(st.sampled_from(VALID_SEPARATORS))
            all_valid = False
            if out and out[-1].strip(b"\r\n") == b"":
                out.pop()  # the empty line that would make it a separator
        sound = draw(st.sampled_from([True, True, False]))
        msg = maker.message(sound)
        data = maker.join(msg.header) + maker.eol() + msg.body
        if not data.endswith(b"\n"):
            data += maker.eol()
        out.append(separator + maker.eol() + _mbox_quote(data))
        out.append(maker.eol())  # RFC 4155: every message ends with an empty line
        planted.update((url, number) for url in msg.planted)
        attached += msg.attached
    if draw(st.booleans()):
        out.pop()  # no empty line after the last message
    return Archive(
        b"".join(out),
        shape,
        number if all_valid else None,
        planted if all_valid else None,
        attached if all_valid else [],
    )


# -- running -----------------------------------------------------------------------------


Scan = tuple[list[tuple[Any, ...]], list[Url], ArchiveStats]


def _scan(path: Path, kind: InputKind, options: MailOptions | None = None) -> Scan:
    stats = ArchiveStats()
    config = ScanConfig(kind=kind, options=options or MailOptions())
    records: list[tuple[Any, ...]] = []
    urls: list[Url] = []
    for result in iter_results([str(path)], config, stats=stats):
        if isinstance(result, Url):
            assert result.raw, result
            assert result.start < result.end, result
            assert result.end - result.start == len(result.raw), result
            assert result.url, result
            urls.append(result)
            ctx = result.context
            where = (ctx.message, ctx.message_offset, ctx.part, ctx.content_type) if ctx else None
            codes = tuple(d.code for d in result.defects)
            records.append(("url", result.url, result.start, result.end, where, codes))
        elif isinstance(result, UnitDefects):
            assert result.defects
            ctx = result.context
            records.append(
                (
                    "defects",
                    (ctx.message, ctx.part) if ctx else None,
                    tuple(d.code for d in result.defects),
                )
            )
        else:
            assert isinstance(result, ReadFailure)
            records.append(("failure", result.reason))
    numbers = [u.context.message for u in urls if u.context is not None]
    assert numbers == sorted(numbers)  # archive order
    assert all(1 <= n <= max(stats.messages, 1) for n in numbers)
    return records, urls, stats


def _write(directory: Path, name: str, data: bytes) -> tuple[Path, Path]:
    plain = directory / name
    plain.write_bytes(data)
    packed = directory / (name + ".gz")
    packed.write_bytes(gzip.compress(data, mtime=0))
    return plain, packed


def _check_all_kinds(plain: Path, packed: Path) -> dict[str, Scan]:
    scans: dict[str, Scan] = {}
    # Decompression is applied once: a plain file that itself looks compressed is not
    # the same input once gzipped again.
    compressed = sniff_compression(plain.read_bytes()[:MAGIC_LENGTH]) != "none"
    for kind in KINDS:
        first = _scan(plain, kind)
        second = _scan(packed, kind)
        if not compressed:
            assert first[0] == second[0], kind  # gzip changes nothing
            assert first[2].messages == second[2].messages
            assert first[2].bytes_read == second[2].bytes_read == plain.stat().st_size
        scans[kind] = first
    if not compressed:
        detected = detect_kind(str(plain))
        assert scans["auto"][0] == scans[detected][0]
    assert scans["mail"][2].messages == 1
    assert scans["text"][2].messages == 0
    return scans


def _tempdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="urlsift-fuzz-") as name:
        yield Path(name)


# -- properties --------------------------------------------------------------------------


@_fuzz(share=3)
@given(archives())
def test_generated_archives_never_crash_and_never_lose(archive: Archive) -> None:
    for directory in _tempdir():
        name = "archive.mbox" if archive.shape == "mbox" else "message.eml"
        plain, packed = _write(directory, name, archive.data)
        scans = _check_all_kinds(plain, packed)
    split = "mbox" if archive.shape == "mbox" else "mail"
    records, urls, stats = scans[split]
    assert not any(r[0] == "failure" for r in records)
    if archive.messages is not None:
        assert stats.messages == archive.messages
    if archive.planted is not None:
        found = Counter(
            (u.url, u.context.message) for u in urls if "planted-" in u.url and u.context
        )
        assert found == archive.planted
        assert all(u.url not in archive.attached for u in urls)  # attachments: not scanned


@_fuzz(share=3)
@given(st.sampled_from(RANDOM_PREFIXES), st.binary(max_size=3000))
def test_random_bytes_never_crash(prefix: bytes, data: bytes) -> None:
    for directory in _tempdir():
        plain, packed = _write(directory, "random.bin", prefix + data)
        _check_all_kinds(plain, packed)


@_fuzz(share=5)
@given(st.binary(min_size=1, max_size=2000), st.integers(min_value=1, max_value=200))
def test_damaged_gzip_never_crashes(data: bytes, cut: int) -> None:
    # A truncated gzip stream: what was decoded is scanned, the damage is reported.
    packed = gzip.compress(b"From a Thu Sep 13 12:30:05 2001\n\n" + data, mtime=0)
    for directory in _tempdir():
        path = directory / "damaged.gz"
        path.write_bytes(packed[: max(10, len(packed) - cut)])
        for kind in KINDS:
            records, _, _ = _scan(path, kind)
            if kind in ("mbox", "mail"):
                assert not any(r[0] == "failure" for r in records)


@_fuzz(share=15, floor=3)
@given(archives())
def test_cli_jsonl_on_generated_archives(archive: Archive) -> None:
    for directory in _tempdir():
        plain, packed = _write(directory, "archive.mbox", archive.data)
        expected = sum(1 for r in iter_results([str(plain)]) if isinstance(r, Url))
        for path in (plain, packed):
            result = CliRunner().invoke(main, ["scan", "--format", "jsonl", str(path)])
            assert result.exit_code == 0, result.output
            lines = result.stdout.splitlines()
            records = [json.loads(line) for line in lines]
            assert all(isinstance(r, dict) for r in records)
            assert sum(1 for r in records if "url" in r) == expected
