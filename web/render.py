"""The dashboard's pages, rendered from the runtime's snapshot by the Jinja2 templates in
``web/templates/`` (``web.templating``: autoescape on, every value is shown as text).

Each page (``page.html``, on ``base.html``) has a live part (``<main id="live"
data-partial=...>``) that the page script re-fetches from ``/partials/{name}`` whenever the live
feed reports a change: ``table.html``, ``tableview.html``, ``history.html``, ``summary.html``.
The words and values come from ``web.view.View``; this module lays out what the templates
repeat over (the seats, the score sheet's lines).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from web.cards import card_svg
from web.chart import charts
from web.deps import Finding
from web.match_pages import deal_records
from web.replay import replay_of
from web.table_view import camera_questions, felt_seats, on_the_felt, seat_lamps, takeover_of
from web.templating import TEMPLATES, href, render
from web.view import State, View, is_adjustment

__all__ = ["PAGES", "PAGE_PATHS", "View", "page", "partial"]

PAGES = ("table", "tableview", "history", "summary")
#: ``/`` as the first page of a browser tab on a touch screen held landscape shows the table
#: view instead (``/static/table.js``); a link between the pages, or ``?view=list``, keeps it
PAGE_PATHS = {"table": "/", "tableview": "/table", "history": "/history", "summary": "/summary"}
#: the action types the director's panel offers
ACTION_TYPES = ("play", "contract", "bid", "pass", "declare", "show", "kontra", "announce",
                "exchange")  # fmt: skip


def seat_rows(view: View) -> list[dict[str, Any]]:
    """The table page's seats: on turn, dealing, and what each has taken and holds."""
    deal = view.deal or {}
    to_act, dealer = deal.get("to_act"), deal.get("dealer")
    tricks_by_seat = view.tricks_won()
    hands = {int(s): n for s, n in (deal.get("hand_sizes") or {}).items()}
    rows = []
    for seat in range(view.players):
        extra = []
        if seat in tricks_by_seat:
            extra.append(f"{view.t('tricks_taken')}: {tricks_by_seat[seat]}")
        if seat in hands:
            extra.append(f"{hands[seat]} {view.t('cards_in_hand')}")
        rows.append({"seat": seat, "to_act": seat == to_act, "dealer": seat == dealer,
                     "extra": " · ".join(extra)})  # fmt: skip
    return rows


def _sheet_lines(view: View, finished: Mapping[Any, Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """The sheet's lines in order: a partija's head, its deal rows (each with its deal record,
    which a score correction's row has none of) and, once it is finished, its result."""
    records = iter(view.state.get("deals") or [])  # in sheet order
    partija = None
    for row in view.match.get("rows") or []:
        if row.get("partija") != partija:
            if partija in finished:
                yield {"kind": "result", "result": finished[partija]}
            partija = row.get("partija")
            yield {"kind": "partija", "number": partija}
        record = None if is_adjustment(row) else next(records, None)
        unconfirmed = record is not None and not record.get("confirmed", True)
        yield {"kind": "deal", "row": row, "record": record, "unconfirmed": unconfirmed}
    if partija in finished:
        yield {"kind": "result", "result": finished[partija]}


def sheet_of(view: View) -> dict[str, Any]:
    """The score sheet as players keep it (``templates/sheet.html``): a column pair per side
    (deal, running total), a row a deal; the foot is the running partija's own total, left out
    once the match is won and no partija runs."""
    match = view.match
    sides: list[str] = list(match.get("sides") or view.sides)
    finished = {p.get("number"): p for p in match.get("partije") or []}
    rows: Sequence[Mapping[str, Any]] = match.get("rows") or []
    running = match.get("partija", 1)
    last = rows[-1].get("partija") if rows else None
    return {
        "sides": sides, "width": 3 + 2 * len(sides), "lines": list(_sheet_lines(view, finished)),
        "running": running, "foot": not (match.get("winner") and last != running),
        "totals": match.get("totals") or {}, "points": match.get("points") or {},
    }  # fmt: skip


TEMPLATES.globals.update(
    card_svg=card_svg, seat_rows=seat_rows, sheet_of=sheet_of, charts_of=charts,
    deal_records=deal_records, replay_of=replay_of, felt_seats=felt_seats,
    seat_lamps=seat_lamps, on_the_felt=on_the_felt, takeover_of=takeover_of,
    camera_questions=camera_questions,
    PAGE_PATHS=PAGE_PATHS, ACTION_TYPES=ACTION_TYPES,
)  # fmt: skip


def page(
    *,
    state: State,
    lang: str,
    name: str,
    admin: bool = False,
    findings: Sequence[Finding] = (),
    options: Mapping[str, Any] | None = None,
    csrf: str | None = None,
) -> str:
    """A whole page: navigation, what the configuration cannot do, the live part, and (on the
    table page) the admin panel. ``options``: the page's query (the history's replay);
    ``csrf``: the director's session token when logged in."""
    view = View(state, lang, options)
    other = "en" if lang == "sr" else "sr"
    return str(
        render(
            "page.html",
            view=view,
            lang=lang,
            name=name,
            title=view.t(f"page_{name}"),
            table_id=state.get("table_id", ""),
            switch=href(PAGE_PATHS[name], lang=other, **view.options),
            query="".join(f"&{k}={v}" for k, v in view.options.items() if v is not None),
            seq=state.get("seq", 0),
            findings=findings,
            live=partial(state=state, lang=lang, name=name, options=options),
            admin=admin,
            csrf=csrf,
        )
    )


def partial(*, state: State, lang: str, name: str, options: Mapping[str, Any] | None = None) -> str:
    """The live part of page ``name`` (one of ``PAGES``)."""
    if name not in PAGES:
        raise ValueError(f"no page {name!r}: the pages are {', '.join(PAGES)}")
    return render(f"{name}.html", view=View(state, lang, options), lang=lang)
