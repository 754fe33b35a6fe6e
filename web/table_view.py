"""The table view (``/table``): the table drawn from above, for a tablet at the end of the table.

Each seat sits at its place around the felt: seat 0 at the bottom and the others in turn order
counter-clockwise seen from above (play "to the right", as most of the games are played), each
with its name, side and lamps showing what its LED shows (``firmware_bridge.patterns``: green on
turn, red once a revoke is proven, magenta while it calls the director, white when the deal is
over) and a dealer chip. The card a seat played to the current trick lies in front of it, drawn
as a card; once a trick is complete its cards stay until the next card is played, as on a real
table. Each side's score is large (readable from two metres on a 10-inch tablet), with the
contract and trump in the middle of the felt.

A proven violation of the deal takes over the view (``takeover``): who, which rule, the card
played and the card that proves it, in large type; ``/static/table.js`` shows it for a few
seconds once per device, announces it to screen readers, and the seat keeps its mark.

On a narrow screen the stylesheet stacks the seats, each with its card beside it.

Each card on the felt is a button: it opens the picker (``web.picker``) with the camera's
picture of the card and the deck's cards to correct it by.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from firmware_bridge.patterns import PATTERNS, Pattern
from web.cards import card_svg
from web.picker import played_button
from web.render import View, e

#: where seats sit around the felt, by number of players (seat 0 first, then in turn order)
PLACES: Mapping[int, tuple[str, ...]] = {
    1: ("bottom",),
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
    5: ("bottom", "right", "top-right", "top-left", "left"),
    6: ("bottom", "right", "top-right", "top", "top-left", "left"),
}

#: how long the takeover shows a proven violation, in milliseconds (read by ``table.js``)
TAKEOVER_MS = 6000


def place(seat: int, players: int) -> str:
    """Where ``seat`` sits at a table of ``players`` seen from above.

    >>> [place(s, 4) for s in range(4)]
    ['bottom', 'right', 'top', 'left']
    """
    places = PLACES.get(players)
    if places is None or not 0 <= seat < players:
        return "extra"
    return places[seat]


def lamp_colour(pattern: Pattern) -> str:
    """The LED's colour for ``pattern`` (its first lit step) as CSS hex.

    >>> lamp_colour(Pattern.TURN), lamp_colour(Pattern.REVOKE_PROVEN)
    ('#00ff00', '#ff0000')
    """
    for step in PATTERNS[pattern].steps:
        if step.red or step.green or step.blue:
            return f"#{step.red:02x}{step.green:02x}{step.blue:02x}"
    return "#000000"


def _lamp(view: View, pattern: Pattern, key: str, **fields: object) -> str:
    """A lamp as the LED shows it, named in words (the colour is never the only sign)."""
    blinking = PATTERNS[pattern].steps[-1].ms > 0 and len(PATTERNS[pattern].steps) > 1
    return (
        f'<span class="lamp{" blink" if blinking else ""}" data-pattern="{pattern.value}">'
        f'<svg class="led" width="18" height="18" viewBox="0 0 18 18" aria-hidden="true">'
        f'<circle cx="9" cy="9" r="8" fill="{lamp_colour(pattern)}" stroke="#000"/></svg>'
        f"{e(view.t(key, **fields))}</span>"
    )


def seat_lamps(view: View) -> dict[int, list[str]]:
    """Each seat's lamps: the turn, a proven violation, a call for the director, the deal's end."""
    deal = view.deal or {}
    lamps: dict[int, list[str]] = {seat: [] for seat in range(view.players)}
    over = deal.get("phase") == "over"
    calling: set[int] = set()
    for call in view.state.get("calls") or []:
        seat = call.get("seat")
        calling |= set(range(view.players)) if seat is None else {seat}
    for v in deal.get("violations") or []:
        seat = v.get("seat")
        if seat in lamps:
            lamps[seat].append(_lamp(view, Pattern.REVOKE_PROVEN, "tv_lamp_violation",
                                     rule=view.rule(v.get("rule"))))  # fmt: skip
    for seat in lamps:
        if seat in calling:
            lamps[seat].append(_lamp(view, Pattern.DIRECTOR_CALL, "tv_lamp_call"))
        if seat == deal.get("to_act") and not over:
            lamps[seat].append(_lamp(view, Pattern.TURN, "on_turn"))
        if over:
            lamps[seat].append(_lamp(view, Pattern.DEAL_OVER, "phase_over"))
    return lamps


def felt(
    view: View,
    *,
    plays: Sequence[Sequence[Any]],
    winner: object = None,
    lamps: Mapping[int, Sequence[str]] | None = None,
    centre: str = "",
    done: bool = False,
) -> str:
    """The table from above: every seat at its place with the card it played in front of it."""
    deal = view.deal or {}
    played = {int(seat): str(code) for seat, code in plays}
    taken = {int(s): n for s, n in (deal.get("taken") or {}).items()} if lamps is not None else {}
    marked = {v.get("seat") for v in deal.get("violations") or []} if lamps is not None else set()
    seats = []
    for seat in range(view.players):
        chips = []
        if lamps is not None and seat == deal.get("dealer"):
            chips.append(f'<span class="chip dealer">{e(view.t("dealer"))}</span>')
        if seat in taken and deal.get("tricks"):
            chips.append(f'<span class="chip">{e(view.t("tv_tricks", count=taken[seat]))}</span>')
        code = played.get(seat)
        drawn = card_svg(code) if code is not None else ""
        if code is not None and lamps is not None:  # the live view: tap to see, to correct
            drawn = played_button(view, seat, code, drawn)
        card = (
            f'<div class="tv-play{" won" if seat == winner else ""}">{drawn}</div>'
            if code is not None
            else '<div class="tv-play empty" aria-hidden="true"></div>'
        )
        card_attr = f' data-card="{e(code)}"' if code is not None else ""
        classes = ["tv-seat", f"at-{place(seat, view.players)}"]
        if lamps is not None and seat == deal.get("to_act") and deal.get("phase") != "over":
            classes.append("to-act")
        if seat in marked:
            classes.append("marked")
        seats.append(
            f'<div class="{" ".join(classes)}" data-seat="{seat}"'
            f"{card_attr}>"
            f'<div class="tv-plate"><span class="tv-name">{e(view.name(seat))}</span>'
            f'<span class="tv-side">{e(view.t("side_name", side=view.side_of(seat)))}</span>'
            f'<span class="tv-lamps">{"".join((lamps or {}).get(seat, ()))}{"".join(chips)}'
            f"</span></div>{card}</div>"
        )
    return (
        f'<div class="tv-felt players-{view.players}{" done" if done else ""}">'
        f'{"".join(seats)}<div class="tv-centre">{centre}</div></div>'
    )


def _contract(view: View) -> str:
    deal = view.deal or {}
    items = []
    if deal.get("contract"):
        contract = str(deal["contract"])
        text = view.t(f"contract_{contract}")
        items.append((view.t("contract"), e(contract if text.startswith("contract_") else text)))
    if deal.get("trump"):
        items.append((view.t("trump"), view.suit(deal["trump"])))
    if deal.get("joker_suit"):
        items.append((view.t("joker_suit"), view.suit(deal["joker_suit"])))
    return "".join(f'<p class="tv-fact"><span>{e(k)}</span> <b>{v}</b></p>' for k, v in items)


def scores(view: View) -> str:
    """Each side's running total, large, with the names of its seats and its won partije."""
    totals = view.match.get("totals") or {}
    points = view.match.get("points") or {}
    parts = []
    for side in view.sides:
        names = " & ".join(view.name(s) for s in range(view.players) if view.side_of(s) == side)
        parts.append(
            f'<div class="tv-score" data-side="{e(side)}">'
            f'<span class="tv-score-side">{e(view.t("side_name", side=side))}</span>'
            f'<span class="tv-score-names">{e(names)}</span>'
            f'<span class="tv-total">{e(totals.get(side, 0))}</span>'
            f'<span class="tv-points">{e(view.t("match_points"))}: {e(points.get(side, 0))}</span>'
            f"</div>"
        )
    return f'<div class="tv-scores" id="tv-scores">{"".join(parts)}</div>'


def takeover(view: View) -> str:
    """The latest proven violation of the deal, in large type (hidden until ``table.js`` shows
    it); nothing when the deal has none."""
    violations = list((view.deal or {}).get("violations") or [])
    if not violations:
        return ""
    v = violations[-1]
    seat, rule = v.get("seat"), view.rule(v.get("rule"))
    key = ":".join(str(x) for x in (view.state.get("table_id"), len(view.state.get("deals") or []),
                                     view.state.get("deal_number"), len(violations), seat,
                                     v.get("rule"), v.get("trick"), v.get("card")))  # fmt: skip
    evidence = []
    if v.get("card"):
        evidence.append(
            f'<figure class="tv-evidence" data-role="played">{card_svg(str(v["card"]))}'
            f"<figcaption>{e(view.t('tv_played', card=view.card(v['card']), trick=v.get('trick')))}"
            f"</figcaption></figure>"
        )
    if v.get("witness"):
        proof = view.t("tv_proof", card=view.card(v["witness"]), trick=v.get("proven_at_trick"))
        evidence.append(
            f'<figure class="tv-evidence" data-role="witness">{card_svg(str(v["witness"]))}'
            f"<figcaption>{e(proof)}</figcaption></figure>"
        )
    return (
        f'<section id="takeover" class="takeover" hidden data-key="{e(key)}" '
        f'data-ms="{TAKEOVER_MS}" data-seat="{e(seat)}" data-rule="{e(v.get("rule"))}" '
        f'aria-labelledby="takeover-title">'
        f'<h2 id="takeover-title">{e(view.t("tv_takeover"))}</h2>'
        f'<p class="takeover-who">{e(view.t("tv_who", name=view.name(seat), rule=rule))}</p>'
        f'<div class="takeover-cards">{"".join(evidence)}</div>'
        f'<p class="takeover-evidence">{e(view.t("evidence"))}: {e(v.get("evidence"))}</p>'
        f'<button type="button" class="takeover-close">{e(view.t("tv_close"))}</button>'
        f"</section>"
    )


def table_view_part(view: View) -> str:
    """The live part of ``/table``."""
    state = view.state
    if not state.get("game"):
        return f'<p class="empty">{e(view.t("no_game"))}</p>'
    deal = view.deal or {}
    trick = deal.get("trick") or {}
    plays, winner, done = trick.get("plays") or [], None, False
    caption = ""
    if trick:
        caption = view.t("trick_no", number=trick.get("number"))
    finished = deal.get("tricks") or []
    if not plays and finished:  # a complete trick stays on the felt until the next card
        last = finished[-1]
        plays, winner, done = last.get("plays") or [], last.get("winner"), True
        caption = (f"{view.t('trick_no', number=last.get('number'))}: "
                   f"{view.t('trick_winner', name=view.name(winner))}")  # fmt: skip
    phase = view.t(f"phase_{deal.get('phase')}") if deal else view.t("no_deal")
    centre = (
        f'<p class="tv-phase">{e(phase)}</p>'
        f'<p class="tv-trick" id="tv-trick" data-done="{"yes" if done else "no"}">{e(caption)}</p>'
        f"{_contract(view)}"
    )
    title = state.get("title") or state.get("game")
    return (
        f'<section id="tableview" class="tv" aria-labelledby="game-title">'
        f'<h1 id="game-title" class="tv-title">{e(title)}'
        f' <a class="tv-list" href="/?view=list&amp;lang={view.lang}">{e(view.t("tv_list"))}</a>'
        f"</h1>{scores(view)}"
        f"{felt(view, plays=plays, winner=winner, lamps=seat_lamps(view), centre=centre, done=done)}"
        f"</section>{takeover(view)}"
    )


#: outside the live part (so it survives each redraw): where ``table.js`` announces a takeover
ANNOUNCER = (
    '<div id="announcer" class="visually-hidden" role="alert" aria-live="assertive" '
    'aria-atomic="true"></div>'
)
