"""The one mapping of physical card faces onto logical cards.

Serbian deck (RULES.md §1.4): ``<1-4><suit letter>``, lower case for the small house and upper
case for the Big house: 4L = A, 3L = K, 2L = Q, 1L = J, 4 = 10, 3 = 9, 2 = 8, 1 = 7. Suit letters
r (Ruža, ♥), d (Dunja, ♦), z (Zeleno, ♠; legacy l), š or s (Šišarka, ♣). The Joker is X.

German/Hungarian deck: suits P (Piros ♥), T (Tök ♦), Z (Zöld ♠), M (Makk ♣); ranks 7 8 9 10,
U (Unter = J), O (Ober = Q), K (König/Király), A (Ass/Ász).

>>> card_from_face("3l", Deck.SERBIAN_33)
Card.parse('9S')
>>> face_label(Card.parse("QH"), Deck.GERMAN_32)
'PO'
>>> face_label(Card.parse("AC"), Deck.SERBIAN_33)
'4Š'
"""

from __future__ import annotations

from referee.cards import Card, Deck, Rank, Suit
from referee.errors import CardError

_SRB_SUIT = {"r": Suit.HEARTS, "d": Suit.DIAMONDS, "z": Suit.SPADES, "l": Suit.SPADES,
             "š": Suit.CLUBS, "s": Suit.CLUBS}  # fmt: skip
_SRB_LETTER = {Suit.HEARTS: "r", Suit.DIAMONDS: "d", Suit.SPADES: "z", Suit.CLUBS: "š"}
_SRB_SMALL = {1: Rank.SEVEN, 2: Rank.EIGHT, 3: Rank.NINE, 4: Rank.TEN}
_SRB_BIG = {1: Rank.JACK, 2: Rank.QUEEN, 3: Rank.KING, 4: Rank.ACE}

_GER_SUIT = {"P": Suit.HEARTS, "T": Suit.DIAMONDS, "Z": Suit.SPADES, "M": Suit.CLUBS}
_GER_LETTER = {suit: letter for letter, suit in _GER_SUIT.items()}
_GER_RANK = {"7": Rank.SEVEN, "8": Rank.EIGHT, "9": Rank.NINE, "10": Rank.TEN, "U": Rank.JACK,
             "O": Rank.QUEEN, "K": Rank.KING, "A": Rank.ACE}  # fmt: skip
_GER_CODE = {rank: code for code, rank in _GER_RANK.items()}

SERBIAN_SUIT_NAMES = {Suit.HEARTS: "Ruža", Suit.DIAMONDS: "Dunja", Suit.SPADES: "Zeleno",
                      Suit.CLUBS: "Šišarka"}  # fmt: skip
GERMAN_SUIT_NAMES = {Suit.HEARTS: "Piros", Suit.DIAMONDS: "Tök", Suit.SPADES: "Zöld",
                     Suit.CLUBS: "Makk"}  # fmt: skip


def face_label(card: Card, deck: Deck) -> str:
    """The label printed on (or used by vision for) the physical face of ``card`` in ``deck``."""
    if card.logical not in deck:
        raise CardError(f"card {card} is not in the {deck.value} deck")
    if card.is_joker:
        return "X" if deck is Deck.SERBIAN_33 else "JK"
    assert card.suit is not None
    if deck is Deck.SERBIAN_33:
        big = card.rank >= Rank.JACK
        number = card.rank - (Rank.TEN if big else Rank.SIX)
        letter = _SRB_LETTER[card.suit]
        return f"{number}{letter.upper() if big else letter}"
    if deck is Deck.GERMAN_32:
        return f"{_GER_LETTER[card.suit]}{_GER_CODE[card.rank]}"
    return card.logical.code


def card_from_face(label: str, deck: Deck) -> Card:
    """The logical card shown by a physical face label of ``deck`` (case matters for Serbian)."""
    text = label.strip()
    if text.lower().startswith("sr:"):
        text, deck = text[3:], Deck.SERBIAN_33
    if deck is Deck.SERBIAN_33:
        if text.upper() in ("X", "JK"):
            return Card(Rank.JOKER, None)
        if len(text) == 2 and text[0] in "1234" and text[1].lower() in _SRB_SUIT:
            number, letter = int(text[0]), text[1]
            ranks = _SRB_SMALL if letter.islower() else _SRB_BIG
            return Card(ranks[number], _SRB_SUIT[letter.lower()])
        raise CardError(f"unknown Serbian face {label!r} (expected e.g. 1r, 4Š, 3z, X)")
    if deck is Deck.GERMAN_32:
        upper = text.upper()
        if len(upper) >= 2 and upper[0] in _GER_SUIT and upper[1:] in _GER_RANK:
            return Card(_GER_RANK[upper[1:]], _GER_SUIT[upper[0]])
        raise CardError(f"unknown German face {label!r} (expected e.g. PO, ZU, M10, TA)")
    card = Card.parse(text)
    if card.logical not in deck:
        raise CardError(f"card {card} is not in the {deck.value} deck")
    return card


def serbian_letter(suit: Suit) -> str:
    return _SRB_LETTER[suit]
