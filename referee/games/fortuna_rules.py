"""Fortuna rules without state (RULES.md §12): jokers, trumps, duties, two-round tricks, scores.

The shown card (joker-trump) makes the four cards of its rank jokers, a suit of their own that
may be played at any time, and its suit trump (seven cards, the shown one being a joker).

>>> from referee.cards import Card, parse_cards
>>> j = Jokers(Card.parse("QS"))
>>> [j.role(c) for c in parse_cards("QH AS 9D")]
['J', 'T', 'D']
>>> winner_index(parse_cards("QD QC AS"), j)
0
>>> format_decades(12), format_decades(37), format_decades(7), format_decades(-3)
('10+2', '30+7', '7', '-3')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from referee.cards import Card, Rank, Suit

JOKER = "J"
TRUMP = "T"
FORTUNA = Card(Rank.KING, Suit.CLUBS)


@dataclass(frozen=True)
class Jokers:
    """The joker-trump shown by the soloist: its rank gives the jokers, its suit the trump."""

    shown: Card
    #: each card's role, remembered once asked (the duties ask it for every pair of cards)
    _roles: dict[Card, str] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    @cached_property
    def rank(self) -> Rank:
        return self.shown.rank

    @cached_property
    def trump(self) -> Suit:
        assert self.shown.suit is not None
        return self.shown.suit

    def role(self, card: Card) -> str:
        """``"J"`` for a joker, ``"T"`` for a trump (never a joker), else the suit letter."""
        known = self._roles.get(card)
        if known is None:
            known = self._roles[card] = self._role(card)
        return known

    def _role(self, card: Card) -> str:
        if card.rank is self.rank:
            return JOKER
        if card.suit is self.trump:
            return TRUMP
        assert card.suit is not None
        return card.suit.value

    def beats(self, card: Card, winner: Card) -> bool:
        """§12.6: among jokers the first wins; a joker beats all else; then trump; then rank."""
        rc, rw = self.role(card), self.role(winner)
        if rw == JOKER:
            return False
        if rc == JOKER:
            return True
        if rc == TRUMP and rw != TRUMP:
            return True
        return card.suit is winner.suit and card.rank > winner.rank


def winner_index(cards: Sequence[Card], jokers: Jokers) -> int:
    """Index of the winning card over all rounds of a trick (sequential, AMBIGUITY 56)."""
    best = 0
    for i in range(1, len(cards)):
        if jokers.beats(cards[i], cards[best]):
            best = i
    return best


def duty(lead: Card | None, card: Card, other: Card, jokers: Jokers) -> str | None:
    """Follow the led "suit" (jokers are one), else trump, else anything; a joker is always
    legal. On a joker lead without a joker: trump if possible (AMBIGUITY 54 (b)).

    >>> from referee.cards import Card as C
    >>> j = Jokers(C.parse("QS"))
    >>> [duty(C.parse("9H"), C.parse(x), C.parse("7S"), j) for x in ("QH", "7S", "8C")]
    [None, None, 'must-trump']
    >>> duty(C.parse("AS"), C.parse("9D"), C.parse("QS"), j) is None  # FO3
    True
    """
    return duties(lead, jokers)(card, other)


def duties(lead: Card | None, jokers: Jokers) -> Callable[[Card, Card], str | None]:
    """``duty`` after one led card, as a function of ``(card, other)``."""
    if lead is None:
        return lambda card, other: None
    led, role = jokers.role(lead), jokers.role

    def judge(card: Card, other: Card) -> str | None:
        rc, ro = role(card), role(other)
        if rc == JOKER or rc == led:
            return None
        if ro == led:
            return "follow-suit"
        if rc == TRUMP:
            return None
        if ro == TRUMP:
            return "must-trump"
        return None

    return judge


class Bracket:
    """What a leader may open a second round with, by his current score (§12.6, AMBIGUITY 55)."""

    @staticmethod
    def allows(score: int, card: Card, winner: Card, jokers: Jokers) -> bool:
        """
        >>> j = Jokers(Card.parse("QS"))
        >>> w = Card.parse("AH")
        >>> [Bracket.allows(s, Card.parse("7S"), w, j) for s in (10, 15, 25, 30)]
        [True, True, False, False]
        >>> [Bracket.allows(s, Card.parse("QD"), w, j) for s in (10, 15, 25, 30)]
        [True, True, True, False]
        """
        if score >= 30 or not jokers.beats(card, winner):
            return False
        role = jokers.role(card)
        if score <= 10:
            return True
        if score <= 20:
            return role in (JOKER, TRUMP)
        return role == JOKER


#: points for a pass: (cards in hand, talon exchanged) -> normal points (§12.7)
PASS_POINTS = {(6, False): 1, (8, False): 2, (10, True): 4, (10, False): 5}
FALL = -3


def deal_points(*, passed: bool, hand: int, exchanged: bool, fortuna: bool, na_znanje: bool) -> int:
    """The soloist's score for the deal (§12.7).

    >>> deal_points(passed=True, hand=10, exchanged=False, fortuna=True, na_znanje=False)
    10
    >>> deal_points(passed=False, hand=10, exchanged=False, fortuna=True, na_znanje=False)
    -6
    >>> deal_points(passed=True, hand=10, exchanged=True, fortuna=True, na_znanje=True)
    7
    """
    if na_znanje:
        return (7 if exchanged else 9) if passed else -6
    base = PASS_POINTS[(hand, exchanged and hand == 10)] if passed else FALL
    return 2 * base if fortuna else base


def format_decades(units: int) -> str:
    """A score written as base decade + reserve (§12.8): 12 is "10+2", 37 is "30+7"."""
    if units < 10:
        return str(units)
    base = min(30, 10 * (units // 10))
    return f"{base}+{units - base}"
