"""reST documents shared by the docutils oracle test and the ``--rst-parser`` tests."""

from __future__ import annotations

STRUCTURE_CASE = (
    "Title\n=====\n\n"
    ".. image:: https://img.example/v.svg?maxAge=86400\n"
    "    :target: https://pypi.example/project/\n"
    "    :alt: PyPI Version Badge\n\n"
    ".. figure:: https://fig.example/f.png\n   :width: 50\n\n"
    "   Caption with https://caption.example/x inside.\n\n"
    "__ http://sourceforge.example/tracker/?group_id=5470\n\n"
    "``AAA[,BBB]...``\n    List of initials.\n\n"
    "Edit :file:`setup.cfg` and :code:`'https://code.example'`, not\n"
    "``https://literal.example`` but `the site <https://site.example/>`_\n"
    "and https://bare.example/x, `https://label.example <https://to.example/>`_.\n\n"
    ">>> url = 'https://doctest.example/'\n\n"
    ".. a comment with https://comment.example/\n\n"
    "* a bullet::\n\n    https://in-literal.example/\n\n"
    "  - https://after-literal.example/\n"
)
"""reST structure that is not prose (image options, a figure caption, an anonymous target,
roles, literals, a doctest, a comment, a literal block in a list) beside real links."""
