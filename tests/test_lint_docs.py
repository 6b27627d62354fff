"""docs/lint.md agrees with the rule table, the configuration keys and the document set."""

from __future__ import annotations

import re
from pathlib import Path

from urlsift.lint.config import CONFIG_KEYS
from urlsift.lint.model import RULES
from urlsift.lint.walk import DEFAULT_INCLUDE

DOC = (Path(__file__).resolve().parent.parent / "docs" / "lint.md").read_text(encoding="utf-8")


def test_rule_table_matches_rules() -> None:
    rows = re.findall(r"^\| `(URL\d{3})` \| `([a-z-]+)` \| (error|warning) \| (.+) \|$", DOC, re.M)
    expected = [(r.code, r.name, r.severity, r.summary.replace("|", "\\|")) for r in RULES]
    assert rows == expected


def test_config_keys_documented() -> None:
    rows = re.findall(r"^\| `([a-z-]+)` \| ", DOC, re.M)
    assert [row for row in rows if row in CONFIG_KEYS or not row.startswith("URL")] == list(
        CONFIG_KEYS
    )


def test_default_document_set_documented() -> None:
    for glob in DEFAULT_INCLUDE:
        assert f"`{glob}`" in DOC


def test_readme_summary_lists_every_rule() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Linting documentation", 1)[1].split("\n## ", 1)[0]
    for rule in RULES:
        if rule.needs_network:
            assert rule.name in section
        else:
            assert re.search(
                rf"^\| {rule.code} \| {rule.name}\b.* \| {rule.severity} \|$", section, re.M
            )
