"""Lay the report's figures out as one self-contained HTML page.

Promise: :func:`render_html` returns a complete HTML document with inline CSS and inline
SVG charts: no script, no external resource, so it opens anywhere without a network. Each
chart sits beside a table of the same numbers (read by screen readers, copied by people,
checked by the tests); every table cell is a count defined in
:mod:`urlsift.report.aggregate`, and the page says how each is counted. Tables carry ids
(``t-summary``, ``t-months``, ``t-hosts``, ``t-schemes``, ``t-defects``,
``t-message-defects``, ``t-messages``) and numeric cells a ``data-count`` with the exact
integer.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from html import escape

from . import charts
from .aggregate import ReportData

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;
color:#1b1f24;background:#f6f7f9}
header{background:#1b1f24;color:#fff;padding:18px 28px}
header h1{margin:0;font-size:22px}
header p{margin:4px 0 0;color:#c9d1d9;font-size:13px}
main{padding:8px 28px 28px;max-width:1400px}
section{background:#fff;border:1px solid #d8dee4;border-radius:8px;margin:18px 0;
padding:14px 18px}
section h2{margin:0 0 8px;font-size:17px}
.pair{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}
.chart{flex:1 1 540px;max-width:640px}
.chart svg{width:100%;height:auto}
.numbers{flex:1 1 320px;overflow:auto}
.chart+.numbers{max-height:440px}
table{border-collapse:collapse;font-size:13px}
th,td{padding:3px 8px;border-bottom:1px solid #eaeef2;text-align:left;vertical-align:top}
#t-messages th[scope=row]{white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
thead th{position:sticky;top:0;background:#f6f8fa}
caption{caption-side:bottom;text-align:left;color:#57606a;font-size:12px;padding-top:6px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:0;padding:0}
.cards div{background:#fff;border:1px solid #d8dee4;border-radius:8px;padding:10px 16px;
min-width:130px}
.cards dt{color:#57606a;font-size:12px}.cards dd{margin:0;font-size:22px;font-weight:600}
.subject{max-width:380px;overflow-wrap:anywhere}
footer{color:#57606a;font-size:12px;padding:0 28px 24px}
"""


def _share(part: int, whole: int) -> str:
    # One decimal, or two below 0.1% so that a count above zero never reads as 0.0%.
    if not whole:
        return "-"
    percent = 100 * part / whole
    return f"{percent:.2f}%" if 0 < percent < 0.095 else f"{percent:.1f}%"


def _count(value: int) -> str:
    return f'<td class="n" data-count="{value}">{value:,}</td>'


def _table(
    table_id: str,
    headers: Sequence[str],
    rows: Iterable[Sequence[str]],
    caption: str,
    numeric_from: int = 1,
) -> str:
    head = "".join(
        f'<th scope="col"{" class=n" if i >= numeric_from else ""}>{escape(h)}</th>'
        for i, h in enumerate(headers)
    )
    body = "".join(f"<tr>{''.join(cells)}</tr>" for cells in rows)
    return (
        f'<table id="{table_id}"><caption>{escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def _label(text: str) -> str:
    return f'<th scope="row">{escape(text)}</th>'


def _section(section_id: str, title: str, chart: str, table: str) -> str:
    label = escape(f"Chart: {title}; its numbers are in the table beside it", quote=True)
    inner = f'<div class="chart" role="img" aria-label="{label}">{chart}</div>' if chart else ""
    return (
        f'<section id="{section_id}"><h2>{escape(title)}</h2><div class="pair">{inner}'
        f'<div class="numbers">{table}</div></div></section>'
    )


def _summary(data: ReportData) -> str:
    cards = [
        ("URLs", f"{data.urls:,}"),
        ("invalid", _share(data.invalid, data.urls)),
        ("messages", f"{data.messages:,}"),
        ("hosts", f"{data.distinct_hosts:,}"),
    ]
    card_html = "".join(f"<div><dt>{k}</dt><dd>{v}</dd></div>" for k, v in cards)
    rows = [
        (_label("URL records"), _count(data.urls)),
        (_label("invalid URL records"), _count(data.invalid)),
        (_label("messages (or files) with records"), _count(data.messages)),
        (_label("undated URL records"), _count(data.undated)),
        (_label("distinct hosts (folded)"), _count(data.distinct_hosts)),
        (_label("URL records without a host"), _count(data.hostless)),
    ]
    table = _table(
        "t-summary",
        ("what", "count"),
        rows,
        "Every count is a number of JSONL records, as the notes at the end define.",
    )
    return (
        f'<section id="summary"><h2>Summary</h2><div class="pair"><dl class="cards">'
        f'{card_html}</dl><div class="numbers">{table}</div></div></section>'
    )


def _more(count: int, what: str) -> str:
    # The label of the row (or bar) that stands for the items not listed.
    return f"+{count:,} more {what}"


def _months(data: ReportData) -> str:
    rows = [(_label(r.month), _count(r.urls), _count(r.invalid)) for r in data.months]
    hidden = data.distinct_months - sum(1 for r in data.months if r.urls)
    more = ""
    if hidden > 0:
        rows.append((_label(_more(hidden, "months")), _count(data.other_months), "<td></td>"))
        more = f" Only the {len(data.months):,} months with most records are listed."
    table = _table(
        "t-months",
        ("month", "URLs", "invalid"),
        rows,
        f"URL records by the year and month of their message's Date header as written; "
        f"{data.undated:,} undated records are not shown.{more}",
    )
    chart = charts.months_chart(data) if data.months else ""
    return _section("months", "URLs per month", chart, table)


def _hosts(data: ReportData) -> str:
    rows = [
        (_label(h.host), _count(h.total), *(_count(n) for n in h.per_period)) for h in data.hosts
    ]
    table = _table(
        "t-hosts",
        ("host", "all", *data.periods),
        rows,
        f"URL records per host (lower case, without a leading www.), all of them and the "
        f"dated ones per period; {data.hostless:,} records have no host (mailto:, news: ...).",
    )
    if data.hosts and data.periods:
        chart = charts.hosts_chart(data)
    elif data.hosts:  # nothing dated (plain text): the totals only
        chart = charts.bars_chart(
            "URLs per host",
            [h.host for h in data.hosts],
            [h.total for h in data.hosts],
            [f"{h.total:,}" for h in data.hosts],
            "URLs",
        )
    else:
        chart = ""
    return _section("hosts", "Top hosts over time", chart, table)


def _schemes(data: ReportData) -> str:
    listed = list(data.schemes)
    hidden = data.distinct_schemes - len(listed)
    if hidden > 0:  # the schemes beyond the top ones, as one row and one bar
        listed.append((_more(hidden, "schemes"), data.other_schemes))
    rows = [(_label(s), _count(n), f'<td class="n">{_share(n, data.urls)}</td>') for s, n in listed]
    table = _table("t-schemes", ("scheme", "URLs", "share"), rows, "URL records per scheme field.")
    chart = (
        charts.bars_chart(
            "URLs per scheme",
            [name for name, _ in listed],
            [n for _, n in listed],
            [f"{n:,}" for _, n in listed],
            "URLs",
        )
        if listed
        else ""
    )
    return _section("schemes", "Schemes", chart, table)


def _defects(data: ReportData) -> str:
    rows = [
        (
            _label("invalid (any error)"),
            "<td>error</td>",
            _count(data.invalid),
            f'<td class="n">{_share(data.invalid, data.urls)}</td>',
        )
    ]
    rows += [
        (
            _label(d.code),
            f"<td>{escape(', '.join(d.severities))}</td>",
            _count(d.urls),
            f'<td class="n">{_share(d.urls, data.urls)}</td>',
        )
        for d in data.defects
    ]
    table = _table(
        "t-defects",
        ("defect", "severity", "URLs", "share"),
        rows,
        "URL records with valid false, and URL records carrying each defect code (a record "
        "with a code twice counts once); shares are of all URL records.",
        numeric_from=2,
    )
    counts = [data.invalid, *(d.urls for d in data.defects)]
    chart = (
        charts.bars_chart(
            "Share of URLs: invalid, and with each defect",
            ["invalid", *(d.code for d in data.defects)],
            [100 * n / data.urls for n in counts],
            [_share(n, data.urls) for n in counts],
            "share of URLs (%)",
            charts.INVALID_COLOR,
        )
        if data.urls
        else ""
    )
    html = _section("defects", "Invalid URLs and defects", chart, table)
    if data.message_defects:
        code_rows = [(_label(code), _count(n)) for code, n in data.message_defects]
        html += _section(
            "message-defects",
            "Problems reading the messages",
            "",
            _table(
                "t-message-defects",
                ("defect", "count"),
                code_rows,
                'Defects of the {"record": "defects"} records: a message whose MIME structure, '
                "charset or encoding had a problem.",
            ),
        )
    return html


def _messages(data: ReportData) -> str:
    rows = []
    for m in data.top_messages:
        ref = m.ref
        name = os.path.basename(ref.source) or ref.source
        where = name if ref.number is None else f"{name}#{ref.number}"
        rows.append(
            (
                f'<th scope="row" title="{escape(ref.source)}">{escape(where)}</th>',
                f"<td>{escape(ref.date or '')}</td>",
                f'<td class="subject">{escape(ref.subject or "")}</td>',
                _count(m.urls),
                _count(m.invalid),
                _count(m.url_defects),
                _count(m.message_defects),
                _count(m.defects),
            )
        )
    table = _table(
        "t-messages",
        ("message", "date", "subject", "URLs", "invalid", "URL defects", "message defects", "all"),
        rows,
        "Messages by their defects: every entry of their URL records' defects lists plus "
        "those of their defect record; ties in archive order. name#n is message n of "
        "the archive (hover for its path).",
        numeric_from=3,
    )
    return _section("messages", "Messages with most defects", "", table)


_NOTES = """<section id="notes"><h2>How the numbers are counted</h2><p>Every number is a count
of the records <code>urlsift scan --format jsonl</code> writes for the same input with the same
options (this report read them, or scanned the input the same way). A URL record counts once
in the totals, its month, its scheme and its host, once for each distinct defect code it
carries, and once as invalid when its <code>valid</code> field is false. Its month is the
year and month of its message's <code>date</code> field as written (the sender's local date).
Its host is <code>parts.host</code> in lower case without a leading <code>www.</code>. A
message is a run of records with the same <code>source</code> and <code>message</code>.</p>
</section>"""


def render_html(data: ReportData, *, title: str, inputs: str) -> str:
    """Return the report page.

    Args:
        data: the figures.
        title: the page's heading.
        inputs: what was read, in words (shown under the heading).

    Returns:
        A complete HTML document.
    """
    body = (
        _summary(data)
        + _months(data)
        + _hosts(data)
        + _schemes(data)
        + _defects(data)
        + _messages(data)
        + _NOTES
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<header><h1>{escape(title)}</h1><p>{escape(inputs)}</p></header>"
        f"<main>{body}</main><footer>Made by urlsift report.</footer></body></html>\n"
    )
