"""Dvoglavac rules without state (RULES.md §15): trumps, the trick winner, duties, the Bank.

Trumps (AMBIGUITY 74): Q♣ > Q♠ > Q♥ > Q♦ > J♣ > J♠ > J♥ > J♦ > A♦ > 10♦ > K♦ > 9♦; plain suits
A > 10 > K > 9. A Solo may name another trump suit; a Podsolo sends the Queens back to their
suits (A > 10 > K > Q > 9). Identical cards: the first played wins, so a card beats another
only if strictly stronger.

>>> from referee.cards import parse_cards
>>> NORMAL = Scheme()
>>> winner_index(parse_cards("QC#1 9D QC#2 AD"), NORMAL)
0
>>> winner_index(parse_cards("AH 9H QD#1 JC#2"), NORMAL)
2
>>> winner_index(parse_cards("AH QH#1 AH#2 KH"), Scheme(queens=False))
0
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from referee.cards import Card, Rank, Suit

TRUMP = "T"
SUIT_ORDER = {Suit.CLUBS: 4, Suit.SPADES: 3, Suit.HEARTS: 2, Suit.DIAMONDS: 1}
PLAIN_POWER = {Rank.ACE: 5, Rank.TEN: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.NINE: 1}
POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 0}
TOTAL = 240
TO_PASS = 121
SCHNEIDER = 30
BANK = 500
STARA = (Card(Rank.QUEEN, Suit.CLUBS, 1), Card(Rank.QUEEN, Suit.CLUBS, 2))


class Kind(enum.Enum):
    """What the deal is: the Stara pair, "Igram sa prvim štihom", Solo or Podsolo."""

    NORMAL = "normal"
    FIRST_TRICK = "first-trick"
    SOLO = "solo"
    PODSOLO = "podsolo"


@dataclass(frozen=True)
class Scheme:
    """Which cards are trumps: Queens (not in Podsolo), Jacks, and the trump suit."""

    queens: bool = True
    suit: Suit = Suit.DIAMONDS
    #: each card's following suit, remembered once asked (the duties ask it for every pair of
    #: cards in a hand, every time the legal plays are listed)
    _eff: dict[Card, str] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    _power: dict[Card, int] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def is_trump(self, card: Card) -> bool:
        return self.eff(card) == TRUMP

    def eff(self, card: Card) -> str:
        """The card's suit for following: ``"T"`` for every trump, else its own suit letter."""
        known = self._eff.get(card)
        if known is None:
            known = self._eff[card] = self._following_suit(card)
        return known

    def _following_suit(self, card: Card) -> str:
        if card.rank is Rank.JACK or (self.queens and card.rank is Rank.QUEEN):
            return TRUMP
        assert card.suit is not None
        return TRUMP if card.suit is self.suit else card.suit.value

    def power(self, card: Card) -> int:
        """The card's strength within its following suit (asked for every pair judged)."""
        known = self._power.get(card)
        if known is None:
            known = self._power[card] = self._strength(card)
        return known

    def _strength(self, card: Card) -> int:
        assert card.suit is not None
        if card.rank is Rank.QUEEN and self.queens:
            return 40 + SUIT_ORDER[card.suit]
        if card.rank is Rank.JACK:
            return 30 + SUIT_ORDER[card.suit]
        return PLAIN_POWER[card.rank]


def beats(card: Card, winner: Card, scheme: Scheme) -> bool:
    """Does ``card`` (played later) beat the current ``winner``? Equal cards never do."""
    ec, ew = scheme.eff(card), scheme.eff(winner)
    if ec == ew:
        return scheme.power(card) > scheme.power(winner)
    return ec == TRUMP


def winner_index(cards: Sequence[Card], scheme: Scheme) -> int:
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], scheme):
            best = i
    return best


def duty(
    lead: Card | None, winner: Card | None, card: Card, other: Card, scheme: Scheme
) -> str | None:
    """§15.7: follow (trumps are one suit), overtake the winning card, trump, overtrump.

    AMBIGUITY 66 (a)/(c1): overtake the current winning card if possible (a trumped plain-suit
    trick frees the followers); void and unable to overtrump, a lower trump is still due.

    >>> from referee.cards import Card as C
    >>> S = Scheme()
    >>> [duty(C.parse("AH"), C.parse("AH"), C.parse(x), C.parse("QC#1"), S) for x in ("KH", "TH")]
    [None, None]
    >>> duty(C.parse("KH"), C.parse("KH"), C.parse("9H"), C.parse("AH"), S)
    'must-overtake'
    """
    return duties(lead, winner, scheme)(card, other)


def duties(
    lead: Card | None, winner: Card | None, scheme: Scheme
) -> Callable[[Card, Card], str | None]:
    """``duty`` for one trick position, as a function of ``(card, other)``."""
    if lead is None or winner is None:
        return lambda card, other: None
    led = scheme.eff(lead)
    overtakes: dict[Card, bool] = {}  # does a card beat the winning card (asked per pair)
    following = scheme._eff  # each card's following suit, once the scheme was asked it

    def over(card: Card) -> bool:
        known = overtakes.get(card)
        if known is None:
            known = overtakes[card] = beats(card, winner, scheme)
        return known

    def judge(card: Card, other: Card) -> str | None:
        ec = following.get(card) or scheme.eff(card)
        eo = following.get(other) or scheme.eff(other)
        if ec == led:
            if eo == led and not over(card) and over(other):
                return "must-overtake"
            return None
        if eo == led:
            return "follow-suit"
        if ec != TRUMP:
            return "must-trump" if eo == TRUMP else None
        if eo == TRUMP and not over(card) and over(other):
            return "must-overtrump"
        return None

    return judge


def level(loser_points: int, loser_tricks: int) -> int:
    """1 for a plain result, 2 for Šnajder (loser ≤ 30), 3 for Švarc (loser took no trick)."""
    if loser_tricks == 0:
        return 3
    if loser_points <= SCHNEIDER:
        return 2
    return 1


def pair_scores(
    declarers: Sequence[int], declarer_points: int, declarer_tricks: int, tricks: int
) -> tuple[bool, dict[int, int], int]:
    """A pair game against the Bank (§15.8, AMBIGUITY 79 (b), (d)): (passed, per seat, Bank).

    >>> pair_scores([0, 2], 130, 7, 12)
    (True, {0: 5, 2: 5}, -10)
    >>> pair_scores([0, 2], 215, 11, 12)
    (True, {0: 10, 2: 10}, -20)
    >>> pair_scores([0, 2], 110, 5, 12)
    (False, {1: 5, 3: 5}, -10)
    """
    passed = declarer_points >= TO_PASS
    if passed:
        amount = 5 * level(TOTAL - declarer_points, tricks - declarer_tricks)
        winners = list(declarers)
    else:
        amount = 5 * level(declarer_points, declarer_tricks)
        winners = [s for s in range(4) if s not in declarers]
    return passed, {s: amount for s in winners}, -amount * len(winners)


def solo_scores(
    soloist: int, points: int, tricks_won: int, tricks: int, multiplier: int
) -> tuple[bool, dict[int, int]]:
    """A solo, directly between the players (§15.8): ±15/30/45 against ∓5/10/15 each, × k.

    >>> solo_scores(1, 215, 11, 12, 1)
    (True, {0: -10, 1: 30, 2: -10, 3: -10})
    >>> solo_scores(1, 100, 4, 12, 2)
    (False, {0: 10, 1: -30, 2: 10, 3: 10})
    """
    passed = points >= TO_PASS
    if passed:
        each = 5 * level(TOTAL - points, tricks - tricks_won) * multiplier
    else:
        each = -5 * level(points, tricks_won) * multiplier
    return passed, {s: (3 * each if s == soloist else -each) for s in range(4)}


def parse_announcement(value: str) -> tuple[Kind, Suit | None]:
    """``solo``, ``solo-S``, ``podsolo``, ``podsolo-H``, ``first-trick`` → (kind, named suit)."""
    text = value.strip().lower()
    head, _, suit = text.partition("-")
    if text in ("first-trick", "igram-sa-prvim-stihom"):
        return Kind.FIRST_TRICK, None
    if head not in ("solo", "podsolo"):
        raise ValueError(value)
    named = Suit.parse(suit) if suit else None
    return (Kind.SOLO if head == "solo" else Kind.PODSOLO), named


ANNOUNCEMENTS: tuple[str, ...] = (
    "solo", "solo-C", "solo-S", "solo-H", "podsolo", "podsolo-C", "podsolo-S", "podsolo-H",
)  # fmt: skip
