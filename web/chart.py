"""Each side's running score over the deals of a partija, as inline SVG drawn on the server.

One chart per partija on the sheet: a line per side through its total after each row of the
sheet (a director's correction is a row too), the last total written at the line's end. The
chart names itself (``<title>``, ``<desc>`` with every side's final total) and carries its
numbers as text in a table under it, so a screen reader and a test read the same values the
sheet shows. No script, no fonts, no network.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from web.render import View, e

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 64, 84, 16, 36
#: line colours, each at least 4.5 : 1 on white (its end label is text), and dash patterns,
#: so that the lines differ without colour too
STYLES: Sequence[tuple[str, str]] = (
    ("#1a4fa0", ""),
    ("#b3141f", "8 5"),
    ("#1b6b2f", "2 4"),
    ("#6b2fa0", "12 4 2 4"),
)


def _units(row: Mapping[str, Any], side: str) -> float | None:
    units = (row.get("totals_units") or {}).get(side)
    if isinstance(units, int | float):
        return float(units)
    try:
        return float(str((row.get("totals") or {}).get(side, "")).replace(",", "."))
    except ValueError:
        return None


def _partije(view: View) -> list[tuple[object, list[Mapping[str, Any]]]]:
    groups: list[tuple[object, list[Mapping[str, Any]]]] = []
    for row in view.match.get("rows") or []:
        if not groups or groups[-1][0] != row.get("partija"):
            groups.append((row.get("partija"), []))
        groups[-1][1].append(row)
    return groups


def score_charts(view: View) -> str:
    """A chart per partija of the sheet (nothing before the first deal is scored)."""
    sides = list(view.match.get("sides") or view.sides)
    charts = [_chart(view, number, rows, sides) for number, rows in _partije(view)]
    if not charts:
        return ""
    return (
        f'<section class="charts" id="charts"><h2>{e(view.t("chart_heading"))}</h2>'
        f"{''.join(charts)}</section>"
    )


def _chart(
    view: View, number: object, rows: Sequence[Mapping[str, Any]], sides: Sequence[str]
) -> str:
    values = {s: [_units(r, s) for r in rows] for s in sides}
    known = [v for vs in values.values() for v in vs if v is not None]
    low, high = min([0.0, *known]), max([0.0, *known])
    if high == low:
        high = low + 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (len(rows) - 1) if len(rows) > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    ident = f"chart-{e(number)}"
    title = view.t("chart_title", number=number)
    finals = "; ".join(
        f"{view.t('side_name', side=s)}: {(rows[-1].get('totals') or {}).get(s, '')}" for s in sides
    )
    parts = [
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>',
        f'<line class="axis" x1="{LEFT}" y1="{y(0):.1f}" x2="{LEFT + plot_w}" y2="{y(0):.1f}" '
        f'stroke="#555" stroke-width="1"/>',
    ]
    for v in sorted({low, 0.0, high}):  # the extremes and zero, written as the sheet does
        label = view.score(int(v)) if v == int(v) else f"{v:g}"
        parts.append(f'<text x="{LEFT - 6}" y="{y(v) + 5:.1f}" font-size="14" '
                     f'text-anchor="end" fill="#333">{e(label)}</text>')  # fmt: skip
    step = max(1, len(rows) // 12)
    for i, row in enumerate(rows):
        if i % step == 0 or i == len(rows) - 1:
            parts.append(f'<text x="{x(i):.1f}" y="{HEIGHT - 12}" font-size="14" '
                         f'text-anchor="middle" fill="#333">{e(row.get("deal"))}</text>')  # fmt: skip
    for k, side in enumerate(sides):
        colour, dash = STYLES[k % len(STYLES)]
        points = [(i, v) for i, v in enumerate(values[side]) if v is not None]
        line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in points)
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline data-side="{e(side)}" points="{line}" fill="none" '
                     f'stroke="{colour}" stroke-width="3"{dashes}/>')  # fmt: skip
        for i, v in points:
            text = (rows[i].get("totals") or {}).get(side, "")
            parts.append(
                f'<circle data-side="{e(side)}" data-row="{i}" data-total="{e(text)}" '
                f'cx="{x(i):.1f}" cy="{y(v):.1f}" r="4" fill="{colour}"><title>'
                f"{e(view.t('side_name', side=side))}, {e(view.t('deal_no', number=rows[i].get('deal')))}: "
                f"{e(text)}</title></circle>"
            )
        if points:
            i, v = points[-1]
            text = (rows[i].get("totals") or {}).get(side, "")
            parts.append(f'<text x="{x(i) + 8:.1f}" y="{y(v) + 5 + 14 * (k % 2):.1f}" '
                         f'font-size="16" font-weight="bold" fill="{colour}">'
                         f"{e(side)} {e(text)}</text>")  # fmt: skip
    head = "".join(f"<th>{e(view.t('side_name', side=s))}</th>" for s in sides)
    body = "".join(
        f'<tr data-row="{i}"><th>{e(row.get("deal"))}</th>'
        + "".join(
            f'<td class="num" data-side="{e(s)}">{e((row.get("totals") or {}).get(s, ""))}</td>'
            for s in sides
        )
        + "</tr>"
        for i, row in enumerate(rows)
    )
    return (
        f'<figure class="chart" data-partija="{e(number)}">'
        f'<svg class="score-chart" role="img" aria-labelledby="{ident}-t {ident}-d" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{ident}-t">{e(title)}</title>'
        f'<desc id="{ident}-d">{e(view.t("chart_desc", finals=finals))}</desc>'
        f"{''.join(parts)}</svg>"
        f"<figcaption><details><summary>{e(view.t('chart_numbers'))}</summary>"
        f'<table class="chart-numbers"><thead><tr><th>{e(view.t("deal"))}</th>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></details></figcaption></figure>"
    )
