"""docs/lint-ci.md shows what urlsift lint prints (issue 25, item 7).

Every output example of docs/lint-ci.md (``text``, ``json``, ``jsonl``, ``github``,
``junit``, and the abridged ``sarif`` log) is the output of a real run on
``corpora/lint-ci/docs/guide.md`` (two problems: a bad host and a URL an editor wrapped),
run from ``corpora/lint-ci``. The test compares each fenced block with a fresh run;
``python tests/test_lint_ci_examples.py --write`` rewrites the blocks after a change to
the messages or the version (docs/releasing.md).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "lint-ci.md"
EXAMPLE = ROOT / "corpora" / "lint-ci"
FORMATS = ("text", "json", "jsonl", "github", "junit", "sarif")


def run(fmt: str, *extra: str) -> str:
    """The standard output of ``urlsift lint --format FMT docs/guide.md`` in the example."""
    done = subprocess.run(
        [sys.executable, "-m", "urlsift", "lint", "--format", fmt, *extra, "docs/guide.md"],
        cwd=EXAMPLE,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr  # problems found
    return done.stdout


def shown(fmt: str) -> str:
    """What the docs show for ``fmt`` (the SARIF log abridged to its first rule and result)."""
    out = run(fmt)
    if fmt != "sarif":
        return out
    log = json.loads(out)
    run_ = log["runs"][0]
    first = run_["results"][0]
    driver = run_["tool"]["driver"]
    driver["rules"] = [driver["rules"][first["ruleIndex"]]]
    first["ruleIndex"] = 0  # the index in the abridged rules array
    run_["results"] = [first]
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _block(doc: str, fmt: str) -> re.Match[str]:
    # The first fenced block after the format's heading (SARIF: the marked one).
    if fmt == "sarif":
        found = re.search(r"<!-- sarif-example -->\n```json\n(.*?)```", doc, re.S)
    else:
        heading = doc.index(f"## `{fmt}`")
        found = re.compile(r"```[a-z]*\n(.*?)```", re.S).search(doc, heading)
    assert found is not None, fmt
    return found


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_documented_example_is_a_real_run(fmt: str) -> None:
    doc = DOC.read_text(encoding="utf-8")
    assert _block(doc, fmt).group(1) == shown(fmt)


def test_the_example_has_one_finding_per_url_and_cause() -> None:
    # With the RFC1738 group selected, the bad host is still reported once (URL012).
    lines = run("text", "--extend-select", "RFC1738").splitlines()
    hosts = [line for line in lines if "my_host" in line]
    assert len(hosts) == 1
    assert " URL012 " in hosts[0]
    assert [line.split(" ")[1] for line in run("text").splitlines()] == ["URL012", "URL008"]


def write() -> None:
    doc = DOC.read_text(encoding="utf-8")
    for fmt in FORMATS:
        found = _block(doc, fmt)
        doc = doc[: found.start(1)] + shown(fmt) + doc[found.end(1) :]
    DOC.write_text(doc, encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        sys.exit("usage: python tests/test_lint_ci_examples.py --write")
