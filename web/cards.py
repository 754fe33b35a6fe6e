"""Card pictures as inline SVG: no image files, no fonts to fetch, no network.

>>> 'data-card="TH"' in card_svg("10h")
True
>>> card_text("TH"), card_text("JK", joker="Džoker")
('10♥', 'Džoker')
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup

from referee.cards import Card
from referee.errors import CardError
from web.templating import render

RED = "#c0182a"
BLACK = "#111"


def _parse(code: str) -> Card | None:
    try:
        return Card.parse(code)
    except CardError:
        return None


def card_text(code: str, *, joker: str = "Joker") -> str:
    """A card for running text: ``10♥``, ``A♠``; unknown codes are shown as given."""
    card = _parse(code)
    if card is None:
        return code
    if card.suit is None:
        return joker
    rank = "10" if card.rank.code == "T" else card.rank.code
    return f"{rank}{card.suit.symbol}"


@lru_cache(maxsize=128)
def card_svg(code: str, *, label: str = "") -> Markup:
    """A 60×84 card face (``templates/card.svg``): rank in the corners, the suit large in the
    middle."""
    card = _parse(code)
    if card is None:
        shown, colour, rank, symbol = code, BLACK, code, "?"
    elif card.suit is None:
        shown, colour, rank, symbol = "JK", "#6b2fa0", "JK", "★"
    else:
        rank = "10" if card.rank.code == "T" else card.rank.code
        symbol = card.suit.symbol
        colour = RED if card.suit.value in "HD" else BLACK
        shown = card.code
    return render("card.svg", code=shown, title=label or card_text(code), colour=colour,
                  rank=rank, symbol=symbol)  # fmt: skip
