"""The benchmark text generator (benchmarks/gen_text.py) and urlsift agree on every URL.

The generator plants URLs in every form of RFC 1738's appendix, some broken across lines
(whitespace and hyphen breaks, inside quoted replies too), and records what must be found;
so these tests check the generator's promises (deterministic, about one URL per 2 KB, every
form and scheme) and, at the same time, that urlsift finds back exactly what was planted.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import urlsift
from urlsift.engines.runner import ScanConfig, iter_results

GEN_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "gen_text.py"
SIZE = 400_000


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_text", GEN_PATH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_text"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


gen_text = _load()
SCHEMES = {"http", "https", "ftp", "mailto", "news", "nntp", "gopher", "telnet", "file"}
SCHEMES |= {"wais", "prospero"}


@pytest.fixture(scope="module")
def mail() -> tuple[str, list[Any]]:
    text, planted = gen_text.generate("mail", SIZE, seed=7)
    return text, planted


def test_same_seed_same_text_other_seed_other_text() -> None:
    first = gen_text.generate("mail", 50_000, seed=11)
    assert gen_text.generate("mail", 50_000, seed=11) == first
    assert gen_text.generate("mail", 50_000, seed=12)[0] != first[0]
    assert "".join(gen_text.iter_text("dense", 20_000, seed=3)) == "".join(
        gen_text.iter_text("dense", 20_000, seed=3)
    )


@pytest.mark.parametrize("kind", ["mail", "dense", "mbox"])
def test_size_is_reached_and_not_overshot_by_more_than_a_unit(kind: str) -> None:
    size = len("".join(gen_text.iter_text(kind, 100_000, seed=2)).encode("utf-8"))
    assert 100_000 <= size < 110_000


def test_about_one_url_per_two_kilobytes(mail: tuple[str, list[Any]]) -> None:
    text, planted = mail
    per_url = len(text.encode("utf-8")) / len(planted)
    assert 1700 < per_url < 2500


def test_every_form_scheme_and_break_is_planted(mail: tuple[str, list[Any]]) -> None:
    _, planted = mail
    assert {p.kind for p in planted} == {"wrapped", "angle", "prefixed", "bare"}
    assert {p.scheme for p in planted} == SCHEMES
    breaks = Counter((p.broken, p.kind) for p in planted)
    assert breaks["space", "wrapped"]
    assert breaks["space", "angle"]
    assert breaks["hyphen", "bare"]
    assert breaks["hyphen", "wrapped"]
    assert any(p.broken and p.quoted == 1 for p in planted)
    assert any(p.quoted == 2 for p in planted)


def test_mail_text_looks_like_mail(mail: tuple[str, list[Any]]) -> None:
    text, _ = mail
    for marker in ("\nSubject: ", "\nMessage-ID: <", "\n> ", "\n>> ", "\n-- \n", "#include"):
        assert marker in text, marker
    assert "<URL:" in text
    assert "URL:" in text.replace("<URL:", "")
    assert not text.isascii()


def test_extract_finds_exactly_the_planted_urls(mail: tuple[str, list[Any]]) -> None:
    text, planted = mail
    found = urlsift.extract(text)
    assert [(u.url, u.kind) for u in found] == [(p.url, p.kind) for p in planted]
    assert all(u.valid for u in found)
    rejoined = [u for u in found if u.end_line > u.line]
    assert len(rejoined) == sum(1 for p in planted if p.broken)


def test_extract_finds_every_url_of_the_dense_text() -> None:
    text, planted = gen_text.generate("dense", 100_000, seed=5)
    assert len(planted) > 1500
    found = urlsift.extract(text)
    assert [(u.url, u.kind) for u in found] == [(p.url, p.kind) for p in planted]


def test_mbox_urls_are_found_through_the_mail_pipeline(tmp_path: Path) -> None:
    text, planted = gen_text.generate("mbox", 300_000, seed=9)
    path = tmp_path / "gen.mbox"
    path.write_text(text, encoding="utf-8")
    urls = [r for r in iter_results([str(path)], ScanConfig()) if isinstance(r, urlsift.Url)]
    plain = [u.url for u in urls if u.context and u.context.content_type == "text/plain"]
    assert plain == [p.url for p in planted]
    html = {u.url for u in urls if u.context and u.context.content_type == "text/html"}
    assert html
    assert html <= set(plain)
    encodings = ("quoted-printable", "base64", "format=flowed", "multipart/alternative")
    for marker in encodings:
        assert marker in text, marker
    assert text.startswith("From ")


def test_command_line_streams_to_stdout_and_file(tmp_path: Path) -> None:
    command = [sys.executable, str(GEN_PATH), "dense", "--size", "30K", "--seed", "4"]
    out = subprocess.run(command, capture_output=True, check=True).stdout
    target = tmp_path / "dense.txt"
    subprocess.run([*command, "-o", str(target)], check=True)
    assert out == target.read_bytes()
    assert out.decode("utf-8") == "".join(gen_text.iter_text("dense", 30_000, seed=4))


def test_parse_size() -> None:
    assert gen_text.parse_size("10M") == 10_000_000
    assert gen_text.parse_size("64k") == 64_000
    assert gen_text.parse_size("1G") == 10**9
    assert gen_text.parse_size("1234") == 1234
