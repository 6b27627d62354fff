"""The pattern choices of ``_context`` and ``_grammar``, measured against their alternatives.

Usage::

    .venv/bin/python benchmarks/bench_patterns.py

The module notes of ``urlsift.grammar.context`` and ``urlsift.grammar.rfc`` say *why* each pattern
is written as it is; this script measures the claims (figures live in
``benchmarks/README.md``, not in the code). On ``gen_text.py mail`` (20 MB, seed 1),
best of several runs, one process:

* the two triggers searched apart against one alternation ``<...|:...`` (MB/s);
* ``re`` against ``regex`` for the ``<`` trigger and for the colon trigger (``regex`` with
  one look-behind of variable width instead of one per word length), and the colon
  trigger without its letter pre-test and with the last two letters only; the triggers
  and colons counted;
* ``re`` against ``regex`` for one match of a URL token and of a clean http URL (us);
* the clean patterns' hostname (possessive runs) against ``HOSTNAME`` (one alternation
  per character) on the hosts of the text's URLs.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import regex
from ab_share import best, texts

from urlsift.extraction.scanner import DEFAULT_SCHEMES
from urlsift.grammar import rfc as g
from urlsift.grammar.context import (
    ANGLE_TRIGGER,
    NOT_AFTER_SCHEME_CHAR,
    compile_patterns,
    scheme_name,
)

SCHEMES = tuple(sorted(DEFAULT_SCHEMES))


def _count(pattern: re.Pattern[str], text: str) -> int:
    return sum(1 for _ in pattern.finditer(text))


def _per_call(call: Callable[[], object], calls: int = 200_000) -> float:
    # Microseconds per call, best of five rounds of ``calls`` calls.
    def rounds() -> None:
        for _ in range(calls):
            call()

    return best(rounds, 5) / calls * 1e6


def main() -> None:
    """Print each measurement on its own line."""
    text = texts()["gen-mail"]
    megabytes = len(text.encode("utf-8", "surrogateescape")) / 1e6
    patterns = compile_patterns(SCHEMES, 4096)
    words = "|".join(re.escape(w) for w in sorted({"url", *SCHEMES}))
    colon = patterns.colon_trigger
    no_pretest = re.compile(re.sub(r"^:\(\?<=[^)]*\)", ":", colon.pattern))
    # The letter test without its first class (the third letter from the colon).
    last_two = re.compile(re.sub(r"^:\(\?<=\[[^]]*\]", ":(?<=", colon.pattern))
    variable = regex.compile(rf":(?<={NOT_AFTER_SCHEME_CHAR}(?ai:{words}):)")
    alternation = re.compile(f"{ANGLE_TRIGGER}|{colon.pattern}")

    def ms(pattern: re.Pattern[str]) -> float:
        return best(lambda: _count(pattern, text), 5) * 1000

    angle_re = ms(patterns.angle_trigger)
    colon_re = ms(colon)
    both = ms(alternation)
    print(f"text: gen-mail, {megabytes:.1f} MB")
    print(f"colons {text.count(':'):,}; colon triggers {_count(colon, text):,}")
    for name, took in (("'<' trigger", angle_re), ("colon trigger", colon_re), ("<|:", both)):
        print(f"{name:34s} {took:7.1f} ms  {megabytes / took * 1000:7.0f} MB/s")
    print(f"{'<  trigger, regex':34s} {ms(regex.compile(ANGLE_TRIGGER)):7.1f} ms")
    print(f"{'colon trigger, regex variable-width':34s} {ms(variable):7.1f} ms")
    print(f"{'colon trigger, no letter test':34s} {ms(no_pretest):7.1f} ms")
    print(f"{'colon trigger, last two letters':34s} {ms(last_two):7.1f} ms")

    token = "http://www.example.org/some/path/index.html?q=1 and more"
    fast_token = re.compile(patterns.bare_token.pattern)
    slow_token = regex.compile(patterns.bare_token.pattern)
    print(
        f"{'URL token match':34s} re {_per_call(lambda: fast_token.match(token, 0)):.2f} us  "
        f"regex {_per_call(lambda: slow_token.match(token, 0)):.2f} us"
    )
    clean = "//www.example.org/some/path/index.html?q=1"
    fast = re.compile(g.clean_ip_schemepart(g.HTTP_CLEAN_TAIL))
    slow = regex.compile(g.clean_ip_schemepart(g.HTTP_CLEAN_TAIL))
    print(
        f"{'clean http schemepart fullmatch':34s} re {_per_call(lambda: fast.fullmatch(clean)):.2f}"
        f" us  regex {_per_call(lambda: slow.fullmatch(clean)):.2f} us"
    )

    host_of = re.compile(rf"{scheme_name()}://([A-Za-z0-9.\-]{{1,255}})")
    hosts = [m.group(1) for m in host_of.finditer(text)]
    runs = re.compile(g.CLEAN_HOSTNAME)
    alternations = re.compile(g.HOSTNAME)

    def match_all(pattern: re.Pattern[str]) -> Callable[[], object]:
        return lambda: [pattern.match(host) for host in hosts]

    print(
        f"{len(hosts):,} hosts: CLEAN_HOSTNAME {best(match_all(runs), 7) * 1000:.2f} ms  "
        f"HOSTNAME {best(match_all(alternations), 7) * 1000:.2f} ms"
    )


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s)")
