"""HTML of the dashboard, rendered from the runtime's snapshot (a JSON-ready dict).

Only presentation lives here: which seat is on turn, who won a trick and every score come from
the snapshot; the referee is asked only how to write a score (``format_score``) and which side
a seat belongs to (``side_of``). Every text comes from ``web.i18n``; every value is escaped.

Each page has a live part (``<main id="live" data-partial=...>``) that the page script re-fetches
from ``/partials/{name}`` whenever the live feed reports a change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from html import escape
from typing import Any

from referee.errors import RefereeError
from referee.game import Game
from referee.registry import load_game
from web.cards import card_svg, card_text
from web.deps import Finding
from web.i18n import t
from web.login_page import director_strip

State = Mapping[str, Any]
PAGES = ("table", "tableview", "history", "summary")
#: ``/`` as the first page of a browser tab on a touch screen held landscape shows the table
#: view instead (``/static/table.js``); a link between the pages, or ``?view=list``, keeps it
PAGE_PATHS = {"table": "/", "tableview": "/table", "history": "/history", "summary": "/summary"}


def href(path: str, **params: object) -> str:
    """``path`` with ``params`` added to its query (escaped for an attribute).

    >>> href("/?view=list", lang="en")
    '/?view=list&amp;lang=en'
    """
    query = "&".join(f"{k}={v}" for k, v in params.items() if v is not None)
    joined = path if not query else f"{path}{'&' if '?' in path else '?'}{query}"
    return e(joined)


def e(value: object) -> str:
    return escape("" if value is None else str(value))


@lru_cache(maxsize=32)
def _game(spec: str) -> Game | None:
    try:
        return load_game(spec)
    except RefereeError:
        return None


class View:
    """One rendering of a state in one language (helpers shared by every part)."""

    def __init__(self, state: State, lang: str, options: Mapping[str, Any] | None = None) -> None:
        self.state = state
        self.lang = lang
        self.options: Mapping[str, Any] = options or {}  # a page's query (the history's replay)
        spec = state.get("game")
        self.game = _game(spec) if isinstance(spec, str) else None
        self.names: list[str] = list(state.get("names") or [])
        self.deal: Mapping[str, Any] | None = state.get("deal")
        self.match: Mapping[str, Any] = state.get("match") or {}
        self.sides: list[str] = list(state.get("sides") or self.match.get("sides") or [])

    def t(self, key: str, **fields: object) -> str:
        return t(self.lang, key, **fields)

    def name(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return self.t("seat_no", seat=seat)

    def caller(self, seat: object) -> str:
        """Who called the director: a seat's name, or the whole table (no seat)."""
        return self.t("whole_table") if seat is None else self.name(seat)

    def side_label(self, side: object) -> str:
        """A side as the sheet heads it, with the names of its seats."""
        seats = [self.name(s) for s in range(self.players) if self.side_of(s) == side]
        named = self.t("side_name", side=side)
        return f"{named} ({' & '.join(seats)})" if seats else named

    def side_of(self, seat: int) -> str:
        if self.game is not None and 0 <= seat < self.game.players:
            return self.game.side_of(seat)
        return str(seat)

    def score(self, units: object) -> str:
        if isinstance(units, int) and self.game is not None:
            return self.game.format_score(units)
        return str(units)

    def card(self, code: object) -> str:
        return card_text(str(code), joker="Džoker" if self.lang == "sr" else "Joker")

    def rule(self, rule: object) -> str:
        key = f"rule_{rule}"
        text = self.t(key)
        return str(rule) if text == key else text

    def action_type(self, kind: object) -> str:
        key = f"act_{kind}"
        text = self.t(key)
        return str(kind) if text == key else text

    def detail(self, text: object) -> str:
        """A sheet row's detail; the runtime writes a director's correction as 'adjusted: ...'."""
        raw = "" if text is None else str(text)
        if raw.startswith("adjusted: "):
            return f"{self.t('adjustment')}: {raw[len('adjusted: ') :]}"
        return raw

    def suit(self, code: object) -> str:
        symbols = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
        if not isinstance(code, str) or code not in symbols:
            return e(code)
        colour = "red" if code in "HD" else "black"
        return f'<span class="suit {colour}">{symbols[code]}</span> {e(self.t("suit_" + code))}'

    @property
    def players(self) -> int:
        if self.game is not None:
            return self.game.players
        return len(self.names)


# -- the page shell --------------------------------------------------------------------------


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
    from web.picker import picker_dialog
    from web.table_view import ANNOUNCER

    view = View(state, lang, options)
    title = view.t(f"page_{name}")
    other = "en" if lang == "sr" else "sr"
    query = e("".join(f"&{k}={v}" for k, v in view.options.items() if v is not None))
    nav = "".join(
        f'<a href="{href(PAGE_PATHS[p], lang=lang)}"{" class=current" if p == name else ""}>'
        f"{e(view.t('page_' + p))}</a>"
        for p in PAGES
    )
    table_id = e(state.get("table_id", ""))
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(view.t('app_name'))} · {e(title)} · {table_id}</title>"
        f'<link rel="stylesheet" href="/static/style.css">'
        f'<link rel="stylesheet" href="/static/table.css">'
        f'<script src="/static/table.js"></script></head>'
        f'<body data-lang="{lang}">'
        f'<header><strong class="brand">{e(view.t("app_name"))}</strong>'
        f'<span class="table-id">{table_id}</span><nav>{nav}</nav>'
        f'<a class="lang" href="{href(PAGE_PATHS[name], lang=other, **view.options)}">'
        f"{e(view.t('lang_switch'))}</a>"
        f'<span id="live-status" class="status" data-ok="{e(view.t("live_connected"))}" '
        f'data-lost="{e(view.t("live_lost"))}"></span></header>'
        f"{config_findings(view, findings)}"
        f'<main id="live" data-partial="{name}" data-seq="{e(state.get("seq", 0))}" '
        f'data-query="{query}">{partial(state=state, lang=lang, name=name, options=options)}</main>'
        f"{ANNOUNCER if name == 'tableview' else ''}"
        f"{call_panel(view) if admin else ''}{admin_panel(view, csrf) if admin else ''}"
        f"{picker_dialog(view, login=not admin, csrf=csrf) if name in ('table', 'tableview') else ''}"
        f'<script src="/static/app.js"></script><script src="/static/picker.js"></script>'
        f"</body></html>"
    )


def config_findings(view: View, findings: Sequence[Finding]) -> str:
    """What the table's configuration cannot do (``kibic run`` found it at start)."""
    if not findings:
        return ""
    items = "".join(
        f'<li data-kind="{e(f.kind.value)}" data-key="{e(f.key)}">'
        f"{e(view.t('cfg_' + f.kind.value, **f.facts))}</li>"
        for f in findings
    )
    return (
        f'<section id="config-findings" class="config-findings" role="alert">'
        f"<h2>{e(view.t('cfg_title'))}</h2><ul>{items}</ul></section>"
    )


def partial(*, state: State, lang: str, name: str, options: Mapping[str, Any] | None = None) -> str:
    from web.match_pages import history_part, summary_part
    from web.table_view import table_view_part

    view = View(state, lang, options)
    renderers: dict[str, Callable[[View], str]] = {
        "table": table_part,
        "tableview": table_view_part,
        "history": history_part,
        "summary": summary_part,
    }
    return renderers[name](view)


# -- the table -------------------------------------------------------------------------------


def table_part(view: View) -> str:
    state = view.state
    if not state.get("game"):
        return f'<p class="empty">{e(view.t("no_game"))}</p>'
    title = state.get("title") or state.get("game")
    head = (
        f'<h1 id="game-title">{e(title)} <small>{e(state.get("game"))}</small></h1>'
        if title != state.get("game")
        else f'<h1 id="game-title">{e(title)}</h1>'
    )
    return (
        head
        + director_calls(view)
        + '<div class="grid">'
        + f'<section class="table-view">{seats(view)}{deal_info(view)}{current_trick(view)}'
        + f"{last_trick(view)}</section>"
        + f'<section class="side-panel">{agreement(view)}{score_sheet(view)}{penalties(view)}'
        + f"{pending(view)}"
        + f"{camera_status(view)}{event_log(view)}</section></div>"
    )


def director_calls(view: View) -> str:
    """The open calls for the director, each with the director's answer (an admin action)."""
    calls = view.state.get("calls") or []
    if not calls:
        return ""
    items = "".join(
        f'<li data-call="{e(c.get("id"))}" data-seat="{e(c.get("seat"))}">'
        f"<strong>{e(view.t('call_line', name=view.caller(c.get('seat'))))}</strong> "
        f'<button type="button" class="answer-call" data-call="{e(c.get("id"))}">'
        f"{e(view.t('call_answer'))}</button>{RESULT_LINE}</li>"
        for c in calls
    )
    return (
        f'<section id="director-calls" class="director-calls" role="alert">'
        f"<h2>{e(view.t('calls'))}</h2><ul>{items}</ul></section>"
    )


#: how many unconfirmed deals the table page offers to confirm (the most recent ones)
AGREE_SHOWN = 3


def agreement(view: View) -> str:
    """The last few unconfirmed finished deals (the sheet marks every one), each with a button
    per side that has not confirmed it yet."""
    items = []
    waiting = [r for r in view.state.get("deals") or [] if not r.get("confirmed", True)]
    for record in waiting[-AGREE_SHOWN:]:
        number = record.get("number")
        agreed = set(record.get("agreed") or [])
        parts = []
        for side in view.state.get("agreeing_sides") or []:
            label = view.side_label(side)
            if side in agreed:
                parts.append(f'<span class="agreed" data-side="{e(side)}">'
                             f"{e(view.t('agree_done', side=label))}</span>")  # fmt: skip
            else:
                parts.append(f'<button type="button" class="agree-deal" data-deal="{e(number)}" '
                             f'data-side="{e(side)}">{e(view.t("agree_side", side=label))}</button>')  # fmt: skip
        scores = ", ".join(f"{view.t('side_name', side=s)}: {v}"
                           for s, v in (record.get("scores") or {}).items())  # fmt: skip
        items.append(f'<li data-deal="{e(number)}">'
                     f"{e(view.t('agree_line', number=number, scores=scores))} "
                     f"{' '.join(parts)}{RESULT_LINE}</li>")  # fmt: skip
    if not items:
        return ""
    return (f'<section id="agree" class="agree"><h2>{e(view.t("agree_title"))}</h2>'
            f"<ul>{''.join(items)}</ul></section>")  # fmt: skip


def seats(view: View) -> str:
    deal = view.deal or {}
    to_act, dealer = deal.get("to_act"), deal.get("dealer")
    tricks_by_seat: dict[int, int] = {}
    for trick in deal.get("tricks") or []:
        winner = trick.get("winner")
        tricks_by_seat[winner] = tricks_by_seat.get(winner, 0) + 1
    hands = {int(s): n for s, n in (deal.get("hand_sizes") or {}).items()}
    rows = []
    for seat in range(view.players):
        marks = []
        if seat == dealer:
            marks.append(f'<span class="mark dealer">{e(view.t("dealer"))}</span>')
        if seat == to_act:
            marks.append(f'<span class="mark turn">{e(view.t("on_turn"))}</span>')
        extra = []
        if seat in tricks_by_seat:
            extra.append(f"{e(view.t('tricks_taken'))}: {tricks_by_seat[seat]}")
        if seat in hands:
            extra.append(f"{hands[seat]} {e(view.t('cards_in_hand'))}")
        classes = "seat" + (" to-act" if seat == to_act else "")
        rows.append(
            f'<li class="{classes}" data-seat="{seat}">'
            f'<span class="seat-name">{e(view.name(seat))}</span> '
            f'<span class="seat-no">{e(view.t("seat_no", seat=seat))} · '
            f"{e(view.t('side_name', side=view.side_of(seat)))}</span> "
            f"{''.join(marks)}"
            f'<span class="seat-extra">{" · ".join(extra)}</span></li>'
        )
    return f'<ul id="seats" class="seats">{"".join(rows)}</ul>'


def deal_info(view: View) -> str:
    deal = view.deal
    if deal is None:
        return f'<p class="empty">{e(view.t("no_deal"))}</p>'
    items = [
        (view.t("phase"), e(view.t(f"phase_{deal.get('phase')}"))),
        (view.t("dealer"), e(view.name(deal.get("dealer")))),
    ]
    if deal.get("to_act") is not None:
        items.append(
            (view.t("on_turn"), f'<span id="to-act">{e(view.name(deal["to_act"]))}</span>')
        )
    if deal.get("contract"):
        contract = str(deal["contract"])
        text = view.t(f"contract_{contract}")
        items.append((view.t("contract"), e(contract if text.startswith("contract_") else text)))
    if deal.get("trump"):
        items.append((view.t("trump"), f'<span id="trump">{view.suit(deal["trump"])}</span>'))
    if deal.get("joker_suit"):
        items.append(
            (view.t("joker_suit"), f'<span id="joker-suit">{view.suit(deal["joker_suit"])}</span>')
        )
    if deal.get("majority"):
        items.append((view.t("majority"), e(view.t("side_name", side=deal["majority"]))))
    rows = "".join(f"<dt>{e(k)}</dt><dd>{v}</dd>" for k, v in items)
    fans = deal.get("fans") or {}
    fan_html = ""
    if any(fans.values()):
        fan_rows = "".join(
            f'<li><span class="seat-name">{e(view.name(int(s)))}</span> '
            f'<span class="cards small">{"".join(card_svg(str(c)) for c in cards)}</span></li>'
            for s, cards in fans.items()
            if cards
        )
        fan_html = f'<h3>{e(view.t("fans"))}</h3><ul class="fans">{fan_rows}</ul>'
    return f'<dl id="deal-info" class="deal-info">{rows}</dl>{fan_html}'


def _trick_cards(view: View, trick: Mapping[str, Any]) -> str:
    from web.picker import played_button

    winner = trick.get("winner")
    items = []
    for seat, code in trick.get("plays") or []:
        cls = "play winner" if seat == winner else "play"
        drawn = played_button(view, seat, str(code), card_svg(str(code)))
        items.append(
            f'<figure class="{cls}" data-seat="{e(seat)}">{drawn}'
            f"<figcaption>{e(view.name(seat))}</figcaption></figure>"
        )
    return "".join(items)


def current_trick(view: View) -> str:
    deal = view.deal
    if deal is None:
        return ""
    trick = deal.get("trick")
    if not trick:
        return ""
    plays = trick.get("plays") or []
    body = (
        _trick_cards(view, trick) if plays else f'<p class="empty">{e(view.t("no_cards_yet"))}</p>'
    )
    return (
        f'<section id="trick" class="trick" data-number="{e(trick.get("number"))}" '
        f'data-plays="{len(plays)}"><h2>{e(view.t("current_trick"))}: '
        f"{e(view.t('trick_no', number=trick.get('number')))}</h2>"
        f'<p class="hint">{e(view.t("trick_leader", name=view.name(trick.get("leader"))))}</p>'
        f'<div class="cards">{body}</div></section>'
    )


def last_trick(view: View) -> str:
    deal = view.deal
    tricks = (deal or {}).get("tricks") or []
    if not tricks:
        return ""
    trick = tricks[-1]
    return (
        f'<section id="last-trick" class="trick last" data-number="{e(trick.get("number"))}">'
        f"<h3>{e(view.t('last_trick'))}: {e(view.t('trick_no', number=trick.get('number')))}"
        f" — {e(view.t('trick_winner', name=view.name(trick.get('winner'))))}</h3>"
        f'<div class="cards small">{_trick_cards(view, trick)}</div></section>'
    )


# -- the score sheet -------------------------------------------------------------------------


def score_sheet(view: View) -> str:
    """The sheet as players keep it: a column pair per side (deal, running total), a row a deal.

    Each finished partija closes with its final score and winner; the foot is the running
    partija's own total, named by its number, so no total line contradicts the rows above it.
    """
    match = view.match
    sides: list[str] = list(match.get("sides") or view.sides)
    rows: Sequence[Mapping[str, Any]] = match.get("rows") or []
    finished = {p.get("number"): p for p in match.get("partije") or []}
    running = match.get("partija", 1)
    width = 3 + 2 * len(sides)
    head_sides = "".join(
        f'<th colspan="2" scope="colgroup">{e(view.t("side_name", side=s))}</th>' for s in sides
    )
    sub = "".join(f"<th>{e(view.t('score'))}</th><th>{e(view.t('total'))}</th>" for _ in sides)
    body: list[str] = []
    partija = None
    # the deal records in sheet order (a score correction's row has none)
    records = iter(view.state.get("deals") or [])
    for row in rows:
        if row.get("partija") != partija:
            if partija in finished:
                body.append(_partija_result(view, finished[partija], sides))
            partija = row.get("partija")
            body.append(
                f'<tr class="partija"><th colspan="{width}">'
                f"{e(view.t('partija_no', number=partija))}</th></tr>"
            )
        cells = []
        for s in sides:
            mark = (
                f' <abbr title="{e(view.t("corrected"))}">*</abbr>' if row.get("corrected") else ""
            )
            cells.append(
                f'<td class="num">{e((row.get("scores") or {}).get(s, ""))}</td>'
                f'<td class="num total" data-side="{e(s)}">'
                f"{e((row.get('totals') or {}).get(s, ''))}{mark}</td>"
            )
        adjusted = str(row.get("detail") or "").startswith("adjusted: ")
        record = None if adjusted else next(records, None)
        unconfirmed = record is not None and not record.get("confirmed", True)
        flag = (f' <span class="unconfirmed">{e(view.t("unconfirmed"))}</span>'
                if unconfirmed else "")  # fmt: skip
        number = f' data-deal="{e(record.get("number"))}"' if record is not None else ""
        if record is not None:
            number += f' data-confirmed="{"no" if unconfirmed else "yes"}"'
        body.append(
            f'<tr class="deal-row"{number}>'
            f"<td>{e(row.get('deal'))}</td>"
            f"<td>{e(view.name(row.get('dealer')))}</td>{''.join(cells)}"
            f'<td class="detail">{e(view.detail(row.get("detail")))}{flag}</td></tr>'
        )
    if partija in finished:
        body.append(_partija_result(view, finished[partija], sides))
    if not rows:
        body.append(f'<tr><td colspan="{width}" class="empty">{e(view.t("no_rows"))}</td></tr>')
    totals = match.get("totals") or {}
    foot = "".join(
        f'<td></td><td class="num total" data-side="{e(s)}">{e(totals.get(s, ""))}</td>'
        for s in sides
    )
    # once the match is won, no partija runs: the foot would only repeat the next one's start
    foot_html = (
        ""
        if match.get("winner") and partija != running
        else f'<tfoot><tr id="sheet-totals" data-partija="{e(running)}"><th colspan="2">'
        f"{e(view.t('partija_total', number=running))}</th>{foot}<td></td></tr></tfoot>"
    )
    points = match.get("points") or {}
    points_text = " : ".join(f"{e(s)} {e(points.get(s, 0))}" for s in sides)
    return (
        f'<section class="sheet"><h2>{e(view.t("score_sheet"))}</h2>'
        f'<table id="score-sheet"><thead><tr><th rowspan="2">{e(view.t("deal"))}</th>'
        f'<th rowspan="2">{e(view.t("dealer"))}</th>{head_sides}'
        f'<th rowspan="2">{e(view.t("detail"))}</th></tr><tr>{sub}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody>{foot_html}</table>"
        f'<p class="points">{e(view.t("match_points"))}: {points_text}</p></section>'
    )


def _partija_result(view: View, result: Mapping[str, Any], sides: Sequence[str]) -> str:
    """The closing line of a finished partija: its final totals and who won it."""
    totals = result.get("totals") or {}
    cells = "".join(
        f'<td></td><td class="num total" data-side="{e(s)}">{e(totals.get(s, ""))}</td>'
        for s in sides
    )
    won = view.t("partija_won_by", side=result.get("winner"))
    return (
        f'<tr class="partija-result" data-partija="{e(result.get("number"))}" '
        f'data-winner="{e(result.get("winner"))}"><th colspan="2">'
        f"{e(view.t('partija_final', number=result.get('number')))}</th>{cells}"
        f'<td class="winner">{e(won)}</td></tr>'
    )


# -- penalties, pending confirmations, the log -----------------------------------------------


def violation_item(
    view: View, v: Mapping[str, Any], *, where: str = "", scores: Mapping[str, Any] | None = None
) -> str:
    line = view.t(
        "violation_line",
        name=view.name(v.get("seat")),
        rule=view.rule(v.get("rule")),
        trick=v.get("trick"),
        card=view.card(v.get("card")) if v.get("card") else "—",
    )
    witness = ""
    if v.get("witness") or v.get("proven_at_trick"):
        witness = view.t(
            "witness_line",
            proven=v.get("proven_at_trick"),
            witness=view.card(v.get("witness")) if v.get("witness") else "—",
        )
    return (
        f'<li class="violation" data-rule="{e(v.get("rule"))}" data-seat="{e(v.get("seat"))}">'
        f"{f'<span class=where>{e(where)}</span> ' if where else ''}"
        f"<strong>{e(view.t('violation'))}:</strong> {e(line)}"
        f"{f'<br><span class=witness>{e(witness)}</span>' if witness else ''}"
        f"{_penalty_line(view, scores)}"
        f'<blockquote class="evidence"><b>{e(view.t("evidence"))}:</b> '
        f"{e(v.get('evidence'))}</blockquote></li>"
    )


def _penalty_line(view: View, scores: Mapping[str, Any] | None) -> str:
    if not scores:
        return ""
    text = ", ".join(f"{view.t('side_name', side=s)}: {view.score(v)}" for s, v in scores.items())
    return f'<br><span class="penalty"><b>{e(view.t("penalty"))}:</b> {e(text)}</span>'


def penalties(view: View) -> str:
    items: list[str] = []
    deal = view.deal or {}
    finished = deal.get("phase") == "over"  # then the history record below carries them
    for v in [] if finished else deal.get("violations") or []:
        items.append(violation_item(view, v))
    for s in deal.get("suspected") or []:
        items.append(
            f'<li class="suspected" data-seat="{e(s.get("seat"))}">'
            f"<strong>{e(view.t('suspected'))}:</strong> "
            f"{e(view.name(s.get('seat')))}, {e(view.rule(s.get('rule')))}, "
            f"{e(view.t('trick_no', number=s.get('trick')))}, {e(view.card(s.get('card')))}</li>"
        )
    for record in reversed(view.state.get("deals") or []):
        for v in record.get("violations") or []:
            where = view.t("deal_no", number=record.get("number"))
            items.append(violation_item(view, v, where=where, scores=record.get("scores")))
    body = "".join(items) or f'<li class="empty">{e(view.t("no_penalties"))}</li>'
    return f'<section class="penalties"><h2>{e(view.t("penalties"))}</h2><ul id="penalties">{body}</ul></section>'


def pending(view: View) -> str:
    from web.picker import crop_figure

    requests = view.state.get("pending") or []
    if not requests:
        return ""
    items = []
    for req in requests:
        options = []
        for code, conf in zip(
            req.get("candidates") or [], req.get("confidences") or [], strict=False
        ):
            options.append(
                f'<button type="button" class="confirm-card" data-request="{e(req.get("id"))}" '
                f'data-card="{e(code)}">{card_svg(str(code))}'
                f"<span>{e(view.t('confirm'))} {e(view.card(code))} "
                f"({float(conf) * 100:.0f}%)</span></button>"
            )
        why = ""
        if req.get("profile_card"):
            why = (f' <span class="why">'
                   f"{e(view.t('pending_profile', card=view.card(req['profile_card'])))}</span>")  # fmt: skip
        rid = e(req.get("id"))
        items.append(
            f'<li data-request="{rid}">'
            f"{e(view.t('pending_line', name=view.name(req.get('seat'))))}{why}"
            f'<div class="cards">{crop_figure(view, req.get("crop"))}{"".join(options)}</div>'
            f'<form class="answer-form" data-request="{rid}">'
            f"<label>{e(view.t('pending_other'))} {deck_select(view)}</label> "
            f'<button type="submit">{e(view.t("confirm"))}</button> '
            f'<button type="button" class="dismiss" data-request="{rid}">'
            f"{e(view.t('pending_dismiss'))}</button></form>{RESULT_LINE}</li>"
        )
    return f'<section class="pending"><h2>{e(view.t("pending"))}</h2><ul id="pending">{"".join(items)}</ul></section>'


def deck_select(view: View) -> str:
    """A select of every card of the game's deck (a camera question's answer)."""
    cards = view.game.deck.cards if view.game is not None else ()
    options = "".join(f'<option value="{e(c.code)}">{e(view.card(c.code))}</option>' for c in cards)
    return f'<select name="card">{options}</select>'


def camera_status(view: View) -> str:
    """One line on the camera: calibrated or waiting for the mat, and how much of the deck in
    use it has learnt; nothing for a table without a camera."""
    cam = view.state.get("camera")
    if not cam:
        return ""
    state = view.t("camera_ready" if cam.get("calibrated") else "camera_waiting")
    if cam.get("stopped"):
        state = view.t("camera_stopped", why=cam["stopped"])
    parts = [state, view.t("camera_deck", deck=cam.get("deck", ""))]
    prof = cam.get("profile")
    if prof:
        key = "camera_profile" if prof.get("enrolled") else "camera_profile_empty"
        parts.append(view.t(key, enrolled=prof.get("enrolled", 0), of=prof.get("of", 0),
                            learnt=prof.get("learnt", 0)))  # fmt: skip
        if not prof.get("saved"):
            parts.append(view.t("camera_profile_unsaved"))
    return (f'<section class="camera"><h2>{e(view.t("camera"))}</h2>'
            f'<p id="camera-status">{" · ".join(e(p) for p in parts)}</p></section>')  # fmt: skip


def event_text(view: View, event: Mapping[str, Any]) -> str:
    kind = str(event.get("kind", ""))
    violation = event.get("violation") or {}
    fields: dict[str, object] = {
        "name": view.name(event.get("seat", violation.get("seat"))),
        "card": view.card(event.get("card")),
        "trick": event.get("trick", ""),
        "type": view.action_type(event.get("type", "")),
        "value": event.get("value") or " ".join(view.card(c) for c in event.get("cards") or []),
        "rule": view.rule(event.get("rule", violation.get("rule"))),
        "side": event.get("winner", ""),
        "text": event.get("text") or event.get("reason") or "",
        "kind": kind,
    }
    if kind == "trick_won":
        fields["name"] = view.name(event.get("winner"))
    if kind.startswith("director_"):
        fields["name"] = view.caller(event.get("seat"))
    if kind == "card_corrected":
        source = str(event.get("source") or "")
        fields["source"] = view.t("source_director") if source == "director" else source
        fields["was"] = view.card(event.get("was"))
    if kind == "deal_agreed":
        fields["side"] = view.side_label(event.get("side"))
        fields["number"] = event.get("deal", "")
    if kind == "deal_scored":
        scores = event.get("scores") or {}
        fields["scores"] = ", ".join(f"{s}: {view.score(v)}" for s, v in scores.items())
    key = f"ev_{kind}"
    if view.t(key) == key:
        extra = event.get("text") or event.get("reason") or event.get("detail") or ""
        return f"{kind} {extra}".strip()
    return view.t(key, **fields)


def event_log(view: View, limit: int = 14) -> str:
    events = [ev for ev in (view.state.get("log") or []) if ev.get("kind") != "turn"]
    items = "".join(
        f'<li data-kind="{e(ev.get("kind"))}">{e(event_text(view, ev))}</li>'
        for ev in reversed(events[-limit:])
    )
    alerts = "".join(f"<li>{e(text)}</li>" for text in (view.state.get("alerts") or [])[-5:])
    alerts_html = (
        f'<h3>{e(view.t("alerts"))}</h3><ul id="alerts" class="alerts">{alerts}</ul>'
        if alerts
        else ""
    )
    return (
        f'<section class="log"><h2>{e(view.t("log"))}</h2><ol id="log">{items}</ol>'
        f"{alerts_html}</section>"
    )


# -- the admin panel (outside the live part, so typing is never interrupted) -----------------


#: where an admin form's outcome (ok, 401, 409...) is written, beside the control that caused it
RESULT_LINE = '<p class="form-result" role="status" aria-live="polite"></p>'


def call_panel(view: View) -> str:
    """Calling the director: for everyone at the table, no password (outside the live part)."""
    seats = "".join(
        f'<option value="{i}">{i} — {e(view.name(i))}</option>' for i in range(view.players)
    )
    return (
        f'<form id="call-form" class="call" data-api="/api/director-calls" '
        f'data-ok="{e(view.t("call_ok"))}">'
        f'<label>{e(view.t("call_seat"))} <select name="seat">'
        f'<option value="">{e(view.t("whole_table"))}</option>{seats}</select></label> '
        f'<button type="submit">{e(view.t("call_director"))}</button>{RESULT_LINE}</form>'
    )


def admin_panel(view: View, csrf: str | None = None) -> str:
    types = ("play", "contract", "bid", "pass", "declare", "show", "kontra", "announce", "exchange")
    options = "".join(f'<option value="{x}">{x}</option>' for x in types)
    seats = "".join(
        f'<option value="{i}">{i} — {e(view.name(i))}</option>' for i in range(view.players)
    )
    sides = "".join(f'<option value="{e(s)}">{e(s)}</option>' for s in view.sides)
    names = ", ".join(view.names)

    def label(key: str, control: str) -> str:
        return f"<label>{e(view.t(key))} {control}</label>"

    return (
        f'<aside id="admin" class="admin" data-ok="{e(view.t("ok"))}" '
        f'data-unauthorized="{e(view.t("err_401"))}" data-error="{e(view.t("err_prefix"))}" '
        f'data-forbidden="{e(view.t("err_403"))}" data-csrf="{e(csrf or "")}">'
        f"<h2>{e(view.t('admin'))}</h2>"
        + director_strip(view.lang, csrf=csrf, here=f"/?lang={view.lang}")
        + f'<form id="action-form" data-api="/api/actions"><h3>{e(view.t("enter_action"))}</h3>'
        + label("seat", f'<select name="seat">{seats}</select>')
        + label("action_type", f'<select name="type">{options}</select>')
        + label("card", '<input name="card" size="4" placeholder="AS">')
        + label("cards", '<input name="cards" size="16" placeholder="AS KD 10H">')
        + label("value", '<input name="value" size="12" placeholder="zatvoreno">')
        + f'<button type="submit">{e(view.t("send"))}</button>{RESULT_LINE}</form>'
        + f'<form id="undo-form" data-api="/api/undo"><button type="submit">'
        f"{e(view.t('undo'))}</button>{RESULT_LINE}</form>"
        + f'<form id="adjust-form" data-api="/api/score-adjustments"><h3>{e(view.t("adjust"))}</h3>'
        + label("side", f'<select name="side">{sides}</select>')
        + label("units", '<input name="units" type="number" step="1" value="0">')
        + label("reason", '<input name="reason" size="20">')
        + f'<button type="submit">{e(view.t("save"))}</button>{RESULT_LINE}</form>'
        + f'<form id="start-form" data-api="/api/game"><h3>{e(view.t("start_game"))}</h3>'
        + label("game_spec", f'<input name="spec" value="{e(view.state.get("game") or "")}">')
        + label("names_hint", f'<input name="names" size="30" value="{e(names)}">')
        + f'<button type="submit">{e(view.t("start"))}</button>{RESULT_LINE}</form>'
        + "</aside>"
    )
