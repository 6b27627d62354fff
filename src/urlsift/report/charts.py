"""Charts of the report as inline SVG, drawn with matplotlib (the ``report`` extra).

Promise: each function takes figures from :class:`~urlsift.report.aggregate.ReportData`
and returns one ``<svg>`` element as text, with no script, no external reference and
glyphs drawn as paths (so it looks the same without the fonts, and the page needs no
network). Output is deterministic: fixed element ids, no date in the metadata. matplotlib
is used through its object API (``Figure`` and the SVG canvas), never ``pyplot``, so no
GUI backend is chosen and no global figure state is kept.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, cast

import matplotlib
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure

from .aggregate import ReportData

VALID_COLOR = "#0072b2"  # Okabe-Ito blue / vermilion: told apart with any colour vision
INVALID_COLOR = "#d55e00"
BAR_COLOR = "#009e73"
WIDTH = 6.4  # inches; at 72 px per inch the charts fit beside their tables
MAX_MONTH_BARS = 120
"""Months drawn as separate bars; more are drawn as filled steps (the same heights)."""

_STYLE: dict[str, Any] = {
    "svg.fonttype": "path",
    "svg.hashsalt": "urlsift-report",
    "text.parse_math": False,  # a "$" in a host name is text, not mathtext
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 10,
    "axes.titleweight": "bold",
}


def _style() -> AbstractContextManager[None]:
    # Any: matplotlib's stubs type the keys as a Literal of every rc name.
    return matplotlib.rc_context(cast(Any, _STYLE))


def _printable(labels: Sequence[str]) -> list[str]:
    # Lone surrogates (input bytes that were not UTF-8) as \udcXX: the font code takes
    # only encodable text.
    return [label.encode("utf-8", "backslashreplace").decode("utf-8") for label in labels]


def _svg(figure: Figure) -> str:
    FigureCanvasSVG(figure)
    buffer = io.StringIO()
    with _style():
        figure.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buffer.getvalue()
    # Keep the <svg> element only (the XML declaration and DOCTYPE are not HTML), and let
    # the page scale it.
    text = text[text.index("<svg") :]
    return re.sub(r'<svg ([^>]*?)width="[^"]*" height="[^"]*"', r"<svg \1", text, count=1)


def _figure(height: float) -> Figure:
    with _style():
        return Figure(figsize=(WIDTH, height), layout="constrained")


def _tick_every(count: int, most: int) -> int:
    return max(1, -(-count // most))


def months_chart(data: ReportData) -> str:
    """Stacked bars: valid and invalid URL records per month."""
    with _style():
        figure = _figure(2.8)
        axes = figure.add_subplot()
        labels = [row.month for row in data.months]
        x = range(len(labels))
        valid = [row.urls - row.invalid for row in data.months]
        invalid = [row.invalid for row in data.months]
        if len(labels) <= MAX_MONTH_BARS:
            axes.bar(x, valid, width=0.85, color=VALID_COLOR, label="valid")
            axes.bar(x, invalid, width=0.85, bottom=valid, color=INVALID_COLOR, label="invalid")
        else:  # one filled outline per series: a patch per month made 1,200 months take 9 s
            edges = [i - 0.5 for i in range(len(labels) + 1)]
            total = [v + i for v, i in zip(valid, invalid, strict=True)]
            axes.stairs(valid, edges, fill=True, color=VALID_COLOR, label="valid")
            axes.stairs(
                total, edges, baseline=valid, fill=True, color=INVALID_COLOR, label="invalid"
            )
        step = _tick_every(len(labels), 12)
        axes.set_xticks(list(x)[::step], labels[::step], rotation=45, ha="right")
        axes.set_ylabel("URLs")
        axes.set_title("URLs per month (by the message's Date)")
        axes.legend(frameon=False)
        return _svg(figure)


def hosts_chart(data: ReportData) -> str:
    """A heat map: top hosts (rows) by period (columns), each cell with its count."""
    with _style():
        rows = len(data.hosts)
        figure = _figure(0.75 + 0.3 * max(rows, 1))
        axes = figure.add_subplot()
        grid = [list(row.per_period) for row in data.hosts] or [[0]]
        mesh = axes.pcolormesh(grid, cmap="Blues", edgecolors="white", linewidth=0.5)
        peak = max(max(row) for row in grid) or 1
        if len(data.periods) <= 16:  # room for the numbers in the cells
            for y, counts in enumerate(grid):
                for x, count in enumerate(counts):
                    shade = "white" if count > peak * 0.6 else "black"
                    axes.text(x + 0.5, y + 0.5, str(count), ha="center", va="center", color=shade)
        axes.invert_yaxis()
        hosts = _printable([row.host for row in data.hosts])
        axes.set_yticks([y + 0.5 for y in range(rows)], hosts)
        step = _tick_every(len(data.periods), 16)
        ticks = [x + 0.5 for x in range(len(data.periods))][::step]
        axes.set_xticks(ticks, list(data.periods)[::step])
        axes.tick_params(length=0)
        for side in ("left", "bottom"):
            axes.spines[side].set_visible(False)
        figure.colorbar(mesh, ax=axes, label="URLs", shrink=0.8)
        axes.set_title("Top hosts over time")
        return _svg(figure)


def bars_chart(
    title: str,
    labels: Sequence[str],
    values: Sequence[float],
    texts: Sequence[str],
    axis: str,
    color: str = BAR_COLOR,
) -> str:
    """Horizontal bars, largest on top, each labelled with its text (as its table shows it)."""
    with _style():
        figure = _figure(0.7 + 0.26 * max(len(labels), 1))
        axes = figure.add_subplot()
        y = list(range(len(labels)))
        bars = axes.barh(y, list(values), color=color)
        axes.bar_label(bars, labels=list(texts), padding=2)
        axes.set_yticks(y, _printable(labels))
        axes.invert_yaxis()
        axes.set_xlabel(axis)
        axes.margins(x=0.15)
        axes.set_title(title)
        return _svg(figure)
