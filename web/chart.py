"""Each side's running score over the deals of a partija, as inline SVG drawn on the server.

One chart per partija on the sheet: a line per side through its total after each row of the
sheet (a director's correction is a row too), the last total written at the line's end. The
chart names itself (``<title>``, ``<desc>`` with every side's final total) and carries its
numbers as text in a table under it, so a screen reader and a test read the same values the
sheet shows. No script, no fonts, no network.

This module measures (``charts``: where each point, label and line goes); the template
``templates/chart.html`` draws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from web.view import is_adjustment

if TYPE_CHECKING:
    from web.render import View

WIDTH, HEIGHT = 640, 240
# the right margin holds each line's end label: a player's name (up to 12 letters) and total
LEFT, RIGHT, TOP, BOTTOM = 64, 150, 16, 36
#: line colours, each at least 4.5 : 1 on white (its end label is text), and dash patterns,
#: so that the lines differ without colour too
STYLES: Sequence[tuple[str, str]] = (
    ("#1a4fa0", ""),
    ("#b3141f", "8 5"),
    ("#1b6b2f", "2 4"),
    ("#6b2fa0", "12 4 2 4"),
    ("#7a4400", "4 3 1 3"),  # a fifth: Dvoglavac's bank beside its four players
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


def charts(view: View) -> list[dict[str, Any]]:
    """A chart per partija of the sheet (none before the first deal is scored)."""
    sides = list(view.match.get("sides") or view.sides)
    return [_chart(view, number, rows, sides) for number, rows in _partije(view)]


def _chart(
    view: View, number: object, rows: Sequence[Mapping[str, Any]], sides: Sequence[str]
) -> dict[str, Any]:
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

    def total(i: int, side: str) -> object:
        return (rows[i].get("totals") or {}).get(side, "")

    finals = "; ".join(f"{view.side_title(s)}: {total(len(rows) - 1, s)}" for s in sides)
    # the extremes and zero, written as the sheet does
    y_labels = [
        (f"{y(v) + 5:.1f}", view.score(int(v)) if v == int(v) else f"{v:g}")
        for v in sorted({low, 0.0, high})
    ]
    step = max(1, len(rows) // 12)
    x_labels = [  # a deal's number under its point; a director's correction has none of its own
        (f"{x(i):.1f}", row.get("deal"))
        for i, row in enumerate(rows)
        if (i % step == 0 or i == len(rows) - 1) and not is_adjustment(row)
    ]
    lines: list[dict[str, Any]] = []
    ends: list[dict[str, Any]] = []
    for k, side in enumerate(sides):
        colour, dash = STYLES[k % len(STYLES)]
        points = [(i, v) for i, v in enumerate(values[side]) if v is not None]
        end: dict[str, Any] | None = None
        if points:
            i, v = points[-1]
            end = {"x": f"{x(i) + 8:.1f}", "y": y(v) + 5, "total": total(i, side)}
            ends.append(end)
        lines.append({
            "side": side, "colour": colour, "dash": dash, "end": end,
            "points": " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in points),
            "dots": [{"row": i, "x": f"{x(i):.1f}", "y": f"{y(v):.1f}", "total": total(i, side),
                      "deal": rows[i].get("deal")} for i, v in points],
        })  # fmt: skip
    spread_labels(ends)
    return {
        "number": number, "sides": sides, "rows": rows, "finals": finals,
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": LEFT + plot_w,
        "zero": f"{y(0):.1f}", "y_labels": y_labels, "x_labels": x_labels, "lines": lines,
    }  # fmt: skip


LABEL_GAP = 16  # px between the baselines of two end labels (their text is 16 px)


def spread_labels(ends: list[dict[str, Any]]) -> None:
    """Move the lines' end labels (``y``: their baseline at the line's end) apart, top to
    bottom, so that no two are closer than ``LABEL_GAP`` (sides ending level would write over
    each other), keeping the lowest inside the chart; then write each ``y`` as the template
    does.

    >>> ends = [{"y": 50.0}, {"y": 50.0}, {"y": 120.0}, {"y": 52.0}]
    >>> spread_labels(ends)
    >>> [e["y"] for e in ends]
    ['50.0', '66.0', '120.0', '82.0']
    """
    order = sorted(ends, key=lambda e: e["y"])
    for above, below in zip(order, order[1:], strict=False):
        below["y"] = max(below["y"], above["y"] + LABEL_GAP)
    overflow = order[-1]["y"] - HEIGHT if order else 0.0
    if overflow > 0:  # the lowest below the chart: all that touch it move up together
        order[-1]["y"] -= overflow
        for below, above in zip(order[::-1], order[-2::-1], strict=False):
            above["y"] = min(above["y"], below["y"] - LABEL_GAP)
    for end in ends:
        end["y"] = f"{end['y']:.1f}"
