"""The table view (``/table``): the table drawn from above, for a tablet at the end of the table.

Each seat sits at its place around the felt: seat 0 at the bottom and the others in turn order
counter-clockwise seen from above (play "to the right", as most of the games are played), each
with its name, side and lamps showing what its LED shows (``firmware_bridge.patterns``: green on
turn, red once a revoke is proven, magenta while it calls the director, white when the deal is
over) and a dealer chip. The card a seat played to the current trick lies in front of it, drawn
as a card; once a trick is complete its cards stay until the next card is played, as on a real
table. Each side's score is large (readable from two metres on a 10-inch tablet), with the
contract and trump in the middle of the felt. On a landscape screen (a tablet, a laptop, a
club's television) the view fills the screen and its type and cards follow the screen's height
(``static/table.css``).

A proven violation of the deal takes over the view (``takeover``): who, which rule, the card
played and the card that proves it, in large type; ``/static/table.js`` shows it for a few
seconds once per device, announces it to screen readers, and the seat keeps its mark.

On a narrow screen the stylesheet stacks the seats, each with its card beside it.

Each card on the felt is a button: it opens the picker (``templates/picker.html``) with the
camera's picture of the card and the deck's cards to correct it by.

This module says what is where (``felt_seats``, ``seat_lamps``, ``takeover_of``); the
template ``templates/tableview.html`` (and the ``felt`` macro it shares with the replay) draws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from firmware_bridge.patterns import PATTERNS, Pattern
from web.view import View

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


def _lamp(view: View, pattern: Pattern, key: str, **fields: object) -> dict[str, Any]:
    """A lamp as the LED shows it, named in words (the colour is never the only sign)."""
    steps = PATTERNS[pattern].steps
    return {"pattern": pattern.value, "blink": steps[-1].ms > 0 and len(steps) > 1,
            "colour": lamp_colour(pattern), "text": view.t(key, **fields)}  # fmt: skip


def seat_lamps(view: View) -> dict[int, list[dict[str, Any]]]:
    """Each seat's lamps: the turn, a proven violation, a call for the director, the deal's end."""
    deal = view.deal or {}
    lamps: dict[int, list[dict[str, Any]]] = {seat: [] for seat in range(view.players)}
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


def felt_seats(
    view: View,
    plays: Sequence[Sequence[Any]],
    winner: object = None,
    lamps: Mapping[int, Sequence[Mapping[str, Any]]] | None = None,
) -> list[dict[str, Any]]:
    """Every seat at its place with the card it played in front of it (``macros.html``'s
    ``felt``). With ``lamps`` it is the live view: the seat on turn, the dealer, the tricks
    taken and the marks of proven violations show, and a card is a button (tap to see, to
    correct); without, a replayed trick."""
    live = lamps is not None
    deal = view.deal or {}
    played = {int(seat): str(code) for seat, code in plays}
    won = view.tricks_won() if live and deal.get("tricks") else None
    marked = {v.get("seat") for v in deal.get("violations") or []} if live else set()
    asked = {r.get("seat") for r in view.state.get("pending") or []} if live else set()
    seats = []
    for seat in range(view.players):
        classes = ["tv-seat", f"at-{place(seat, view.players)}"]
        if live and seat == deal.get("to_act") and deal.get("phase") != "over":
            classes.append("to-act")
        if seat in marked:
            classes.append("marked")
        seats.append({
            "seat": seat, "classes": " ".join(classes), "code": played.get(seat),
            "lamps": (lamps or {}).get(seat, ()), "dealer": live and seat == deal.get("dealer"),
            "taken": won.get(seat, 0) if won is not None else None,
            "won": seat == winner, "button": live, "asked": seat in asked,
        })  # fmt: skip
    return seats


def camera_questions(view: View) -> list[str]:
    """Each question the camera is waiting on, worded for the players: whose card, the cards
    it may be. The play waits for the director's answer (on the list page), so the table says
    why it waits."""
    out = []
    for request in view.state.get("pending") or []:
        cards = " / ".join(view.card(c) for c in request.get("candidates") or [])
        out.append(view.t("tv_asked", name=view.name(request.get("seat")), cards=cards or "?"))
    return out


def on_the_felt(view: View) -> dict[str, Any]:
    """The trick the live view shows: the current one, or a complete trick until the next
    card is played (as on a real table), with its caption."""
    deal = view.deal or {}
    trick = deal.get("trick") or {}
    plays, winner, done = trick.get("plays") or [], None, False
    caption = view.t("trick_no", number=trick.get("number")) if trick else ""
    finished = deal.get("tricks") or []
    if not plays and finished:
        last = finished[-1]
        plays, winner, done = last.get("plays") or [], last.get("winner"), True
        caption = (f"{view.t('trick_no', number=last.get('number'))}: "
                   f"{view.t('trick_winner', name=view.name(winner))}")  # fmt: skip
    return {"plays": plays, "winner": winner, "done": done, "caption": caption}


def takeover_of(view: View) -> dict[str, Any] | None:
    """The latest proven violation of the deal, which takes over the view (hidden until
    ``table.js`` shows it, once per device: ``key`` names it); ``None`` when the deal has none."""
    violations = list((view.deal or {}).get("violations") or [])
    if not violations:
        return None
    v = violations[-1]
    key = ":".join(str(x) for x in (view.state.get("table_id"), len(view.state.get("deals") or []),
                                     view.state.get("deal_number"), len(violations), v.get("seat"),
                                     v.get("rule"), v.get("trick"), v.get("card")))  # fmt: skip
    return {"violation": v, "key": key, "ms": TAKEOVER_MS}
