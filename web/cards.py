"""Card pictures as inline SVG: no image files, no fonts to fetch, no network.

>>> 'data-card="TH"' in card_svg("10h")
True
>>> card_text("TH"), card_text("JK", joker="Džoker")
('10♥', 'Džoker')
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from referee.cards import Card
from referee.errors import CardError

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
def card_svg(code: str, *, label: str = "") -> str:
    """A 60×84 card face: rank in the corners, the suit large in the middle."""
    card = _parse(code)
    if card is None:
        text, colour, rank, symbol = escape(code), BLACK, escape(code), "?"
    elif card.suit is None:
        text, colour, rank, symbol = "JK", "#6b2fa0", "JK", "★"
    else:
        rank = "10" if card.rank.code == "T" else card.rank.code
        symbol = card.suit.symbol
        colour = RED if card.suit.value in "HD" else BLACK
        text = card.code
    title = escape(label or card_text(code))
    return (
        f'<svg class="card" data-card="{escape(text)}" role="img" aria-label="{title}" '
        f'width="60" height="84" viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{title}</title>"
        f'<rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#444"/>'
        f'<text x="6" y="17" font-size="14" font-weight="bold" fill="{colour}">{rank}</text>'
        f'<text x="6" y="31" font-size="13" fill="{colour}">{symbol}</text>'
        f'<text x="30" y="56" font-size="28" text-anchor="middle" fill="{colour}">{symbol}</text>'
        f'<text x="54" y="78" font-size="14" font-weight="bold" text-anchor="end" '
        f'fill="{colour}">{rank}</text>'
        f"</svg>"
    )


def card_back_svg() -> str:
    return (
        '<svg class="card back" role="img" aria-label="?" width="60" height="84" '
        'viewBox="0 0 60 84" xmlns="http://www.w3.org/2000/svg">'
        '<rect x="1" y="1" width="58" height="82" rx="6" fill="#2a4d8f" stroke="#444"/>'
        '<rect x="7" y="7" width="46" height="70" rx="4" fill="none" stroke="#fff" '
        'stroke-dasharray="3 3"/></svg>'
    )
