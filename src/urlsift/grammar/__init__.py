"""Stage 0 of the pipeline: the grammar, as documented regular-expression source.

:mod:`.rfc` is RFC 1738 §5's BNF (with the RFC 3986 pieces it needs), one fragment per
rule, each under the rule it encodes; :mod:`.context` is how URLs are written *in text*
(RFC 1738's appendix, RFC 3986 App. C): the trigger patterns, the one scheme-name
pattern, quote prefixes, trailing punctuation. Every pattern is compiled once, here, and
is linear (possessive or atomic repetitions only).

Promise: pattern source and compiled patterns, nothing else; no I/O, and no import of
any other stage. Every stage above may use it (the sources find ``scheme:`` in HTML and
headers with the same scheme-name pattern as the scanner). Internal: not a public API.
"""
