"""``urlsift report``: an archive's URLs as one self-contained HTML page.

:mod:`~urlsift.report.aggregate` counts records in bounded memory (standard library only);
:mod:`~urlsift.report.render` and :mod:`~urlsift.report.charts` lay the figures out, with
matplotlib (the ``report`` extra: ``pip install 'urlsift[report]'``). Importing this
package imports neither.
"""
