"""``urlsift lint``: a documentation linter for broken URLs.

Strategy: the linter is an edge around the sans-IO core. :mod:`.walk` finds the files,
:mod:`.extract` turns one document's text into :class:`Finding` records (the appendix forms
through the core :class:`~urlsift.Scanner`, plus the links of Markdown, reStructuredText,
HTML and man pages), :mod:`.check` turns findings into :class:`Diagnostic` records under the
rule table of :mod:`.model`, :mod:`.links` optionally checks that links resolve, and
:mod:`.report` renders diagnostics. Nothing in here raises on bad document text: a document
the linter cannot read is itself a diagnostic.
"""

from .model import RULES, Diagnostic, Finding, Rule

__all__ = ["RULES", "Diagnostic", "Finding", "Rule"]
