"""Suit powers, legal play and the trick winner shared by the Satir family (RULES.md §2).

Hearts are the permanent trump, diamonds the joker suit (win on an equal-or-higher rank),
clubs resist trump, spades resist the joker suit. ``strength`` maps a rank to its power
(Veliki Satir: ace high; Mali Satir: seven highest).

>>> from referee.cards import parse_cards
>>> satir_winner(parse_cards("5S 9S 2H KS"))
2
>>> satir_winner(parse_cards("5C 9C 9D KC"))
3
>>> satir_winner(parse_cards("5S AH 3C 9S"), anarchy=True)
3
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.cards import Card, Rank, Suit

Strength = Callable[[Card], int]

TRUMP = Suit.HEARTS
JOKER = Suit.DIAMONDS
TRUMP_RESISTANT = Suit.CLUBS
JOKER_RESISTANT = Suit.SPADES


def natural_strength(card: Card) -> int:
    return int(card.rank)


def mali_strength(card: Card) -> int:
    """Mali Satir: 7 > A > K > Q > J > 10 > 9 > 8 (RULES.md §8.1)."""
    return 15 if card.rank is Rank.SEVEN else int(card.rank)


def powers(cards: Sequence[Card], *, anarchy: bool) -> tuple[bool, bool]:
    """(hearts are trump, diamonds are joker) for a trick (§2.3; Velika Anarhija §6)."""
    lead = cards[0].suit
    if anarchy:
        suits = {c.suit for c in cards}
        return TRUMP_RESISTANT not in suits, JOKER_RESISTANT not in suits
    return lead is not TRUMP_RESISTANT, lead is not JOKER_RESISTANT


def beats(c: Card, w: Card, lead: Suit, hearts: bool, joker: bool, strength: Strength) -> bool:
    """Does ``c`` (played later) beat the current winner ``w``? The rules of §2.4, in order."""
    if not contending(c, lead, hearts, joker):
        return False
    if c.suit is w.suit:
        return strength(c) > strength(w)
    if c.suit is JOKER and joker:
        return strength(c) >= strength(w)
    if w.suit is JOKER and joker:
        return strength(c) > strength(w)
    if c.suit is TRUMP:
        return True
    return False


def contending(card: Card, lead: Suit, hearts: bool, joker: bool) -> bool:
    return card.suit is lead or (card.suit is TRUMP and hearts) or (card.suit is JOKER and joker)


def satir_winner(
    cards: Sequence[Card], *, anarchy: bool = False, strength: Strength = natural_strength
) -> int:
    """Index of the winning card of a complete trick (§2.5)."""
    lead = cards[0].suit
    assert lead is not None
    hearts, joker = powers(cards, anarchy=anarchy)
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], lead, hearts, joker, strength):
            best = i
    return best


def satir_duty(lead: Suit | None, card: Card, other: Card) -> str | None:
    """§2.2: follow suit, else play a heart; a breach is a revoke."""
    if lead is None:
        return None
    if card.suit is lead:
        return None
    if other.suit is lead:
        return "follow-suit"
    if card.suit is not TRUMP and other.suit is TRUMP:
        return "must-trump"
    return None


def to_tenths(cards: int, per_point: int) -> int:
    """Cards taken → score in tenths: P = cards // per_point, R = the rest (§3.6).

    >>> to_tenths(28, 5), to_tenths(52, 5), to_tenths(17, 4), to_tenths(28, 3)
    (53, 102, 41, 91)
    """
    return 10 * (cards // per_point) + cards % per_point
