"""Dvoglavi Lav rules without state (RULES.md §11): key-card order, card points, duties, score.

The key card sets the trump suit and promotes its counterpart (7-J, 8-Q, 9-K, 10-A) to the
strongest rank; the order then descends cyclically (§11.3, in every suit: AMBIGUITY 43).

>>> from referee.cards import Card
>>> " ".join(r.code for r in key_order(Card.parse("JS").rank))
'7 A K Q J T 9 8'
>>> " ".join(r.code for r in key_order(Card.parse("7H").rank))
'J T 9 8 7 A K Q'
>>> score_deal(commitment=60, declarer_points=65, multiplier=1, six_cards=True)
(135, 35)
>>> repom_scores(62)
(120, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from referee.cards import Card, Rank, Suit

#: the cyclic ascending order of the Serbian deck (§1.3)
CYCLE: tuple[Rank, ...] = (
    Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE,
)  # fmt: skip
COUNTERPART: dict[Rank, Rank] = {
    Rank.SEVEN: Rank.JACK, Rank.EIGHT: Rank.QUEEN, Rank.NINE: Rank.KING, Rank.TEN: Rank.ACE,
    Rank.JACK: Rank.SEVEN, Rank.QUEEN: Rank.EIGHT, Rank.KING: Rank.NINE, Rank.ACE: Rank.TEN,
}  # fmt: skip

#: AMBIGUITY 42 reading (a): Big cards worth their Serbian number, 10 = 10, 7 = 5
POINTS_SERBIAN: dict[Rank, int] = {
    Rank.ACE: 4, Rank.KING: 3, Rank.QUEEN: 2, Rank.JACK: 1, Rank.TEN: 10, Rank.NINE: 0,
    Rank.EIGHT: 0, Rank.SEVEN: 5,
}  # fmt: skip
#: AMBIGUITY 42 reading (b): A 10, 10 10, 7 5, all others 0
POINTS_ACES_TENS: dict[Rank, int] = {
    Rank.ACE: 10, Rank.KING: 0, Rank.QUEEN: 0, Rank.JACK: 0, Rank.TEN: 10, Rank.NINE: 0,
    Rank.EIGHT: 0, Rank.SEVEN: 5,
}  # fmt: skip
POINT_TABLES: dict[str, dict[Rank, int]] = {
    "serbian": POINTS_SERBIAN,
    "aces-tens": POINTS_ACES_TENS,
}

EIGHT_OF_CLUBS = Card(Rank.EIGHT, Suit.CLUBS)
TOTAL = 100
ZONE_FROM = 90
OPPONENT_BONUS_FROM = 50

Strength = Callable[[Card], int]


def key_order(key_rank: Rank) -> tuple[Rank, ...]:
    """Ranks strongest first when a card of ``key_rank`` is the key card (§11.3 table)."""
    top = CYCLE.index(COUNTERPART[key_rank])
    return tuple(CYCLE[(top - i) % len(CYCLE)] for i in range(len(CYCLE)))


def strength_for(top: Rank) -> Strength:
    """A strength function (higher is stronger) with ``top`` the strongest rank."""
    base = CYCLE.index(top)
    table = {rank: (CYCLE.index(rank) - base - 1) % len(CYCLE) for rank in CYCLE}
    return lambda card: table[card.rank]


def trick_winner(cards: Sequence[Card], trump: Suit | None, strength: Strength) -> int:
    """Index of the winning card: the highest trump, else the highest card of the led suit."""
    best = 0
    for i in range(1, len(cards)):
        c, w = cards[i], cards[best]
        if c.suit is w.suit:
            if strength(c) > strength(w):
                best = i
        elif trump is not None and c.suit is trump:
            best = i
    return best


def duty(
    lead: Suit | None, trump: Suit | None, card: Card, other: Card, points: Mapping[Rank, int]
) -> str | None:
    """§11.7: follow suit; if void, trump; if void in both, pay the highest-point card.

    The rule broken by playing ``card`` had the seat also held ``other`` (monotone, §16.3).

    >>> duty(Suit.HEARTS, Suit.SPADES, Card.parse("KD"), Card.parse("7C"), POINTS_SERBIAN)
    'wrong-payment'
    >>> duty(Suit.HEARTS, Suit.SPADES, Card.parse("7C"), Card.parse("KD"), POINTS_SERBIAN) is None
    True
    """
    if lead is None or card.suit is lead:
        return None
    if other.suit is lead:
        return "follow-suit"
    if trump is not None and card.suit is trump:
        return None
    if trump is not None and other.suit is trump:
        return "must-trump"
    if points[other.rank] > points[card.rank]:
        return "wrong-payment"
    return None


def score_deal(
    *, commitment: int, declarer_points: int, multiplier: int, six_cards: bool
) -> tuple[int, int]:
    """(declarers, opponents) for one deal (§11.8, zone points §11.9, AMBIGUITY 48 (a)).

    >>> score_deal(commitment=60, declarer_points=65, multiplier=2, six_cards=True)
    (220, 35)
    >>> score_deal(commitment=70, declarer_points=60, multiplier=2, six_cards=False)
    (-140, 80)
    >>> score_deal(commitment=30, declarer_points=40, multiplier=1, six_cards=True)
    (55, 160)
    """
    c, k = commitment, multiplier
    d = declarer_points
    o = TOTAL - d
    neutral = 25 * k if six_cards else 0
    passed = d >= c
    declarers = k * c if passed else -k * c
    opponents = o if passed else k * o
    if passed:
        declarers += neutral
        if c + o > ZONE_FROM:
            declarers += 10 * (c + o - ZONE_FROM)
    else:
        opponents += neutral
    if o > OPPONENT_BONUS_FROM:
        opponents += 10 * (o - OPPONENT_BONUS_FROM)
    return declarers, opponents


def repom_scores(side_a_points: int) -> tuple[int, int]:
    """Repom Dvoglavog Lava (§11.10): 10 per point over 50, to that side only; (A, B).

    >>> repom_scores(50), repom_scores(38)
    ((0, 0), (0, 120))
    """
    b = TOTAL - side_a_points
    return 10 * max(0, side_a_points - 50), 10 * max(0, b - 50)
