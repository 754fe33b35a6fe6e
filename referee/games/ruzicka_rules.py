"""Pure rules of Ružička and SubRosa (RULES.md §9, §10): overtaking, card values, settlement.

A card ``c`` overtakes the top card ``T`` of the central pile (§9.6, AMBIGUITY 19: the led suit
``L``, ranks compared across suits) iff it is a higher card of the led suit, or an
equal-or-higher card of the joker suit. SubRosa's big declarations replace this rule (§10.4).

>>> from referee.cards import Card, Rank, Suit
>>> c = Card.parse
>>> overtakes(c("8S"), c("7S"), Suit.SPADES, Suit.HEARTS)
True
>>> overtakes(c("8H"), c("8S"), Suit.SPADES, Suit.HEARTS)
True
>>> overtakes(c("7H"), c("8S"), Suit.SPADES, Suit.HEARTS)
False
>>> overtakes(c("TS"), c("9H"), Suit.SPADES, Suit.HEARTS)  # RZ1 round II: led suit over a joker
True
>>> overtakes(c("7S"), c("AS"), Suit.SPADES, Suit.HEARTS, rule=PlayRule.MALI_PREVRAT)  # SR10
True
>>> rotated_order(Rank.JACK)  # SR14: J > 10 > 9 > 8 > 7 > A > K > Q
['J', 'T', '9', '8', '7', 'A', 'K', 'Q']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from referee.cards import Card, Rank, Suit
from referee.wording import Said, detail, part

SWEPT_ONLY = part("ruzicka.swept_only", "{side} swept the opponents: {cards} card points only")
TALLY = part("ruzicka.tally", "{side}: {cards} card points + {rounds} rounds")
TALLY_LAST = part(
    "ruzicka.tally_last", "{side}: {cards} card points + {rounds} rounds + 5 last trick"
)
BONUS = part("ruzicka.bonus", "{side} +{points} {why}")
FALLS = part("ruzicka.fall", "{side} falls {points}: {why}")
CHANGE_KEPT = part("ruzicka.change_kept", "joker change kept ({mine}:{theirs})")
CHANGE_FELL = part("ruzicka.change_fell", "joker change fell ({mine}:{theirs})")
SWEPT = part("ruzicka.swept", "swept (Štigljenje)")
#: the detail line of a settled deal: the notes above, in order
SETTLED = detail("ruzicka.settled", "{notes}")

NATURAL: tuple[Rank, ...] = (
    Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE,
)  # fmt: skip
BASE_POINTS: Mapping[Rank, int] = {Rank.JACK: 1, Rank.QUEEN: 2, Rank.KING: 3, Rank.ACE: 4}
#: §9.10 Otvoreno: cards laid open -> bonus of the opener's side on success
OPEN_BONUS: Mapping[int, int] = {3: 6, 4: 10, 5: 15, 6: 20, 7: 25, 8: 30}
ROUND_POINT = 1
LAST_TRICK = 5
FALL = -30
CHANGE_BONUS = 8
EGALITE_BONUS = 20


class PlayRule(enum.Enum):
    """The overtaking rule in force: §9.6, or the one of SubRosa's strongest big declaration."""

    NORMAL = "normal"
    EIGHT_SMALL = "8-malih"  # 35: any card of the led suit (or the joker suit)
    MALI_PREVRAT = "mali-prevrat"  # 40: 8<9<10<J<Q<K<A<7
    SARENI_NIZ = "sareni-niz"  # 45: the same rank over the same rank, joker suit always
    VELIKI_PREVRAT = "veliki-prevrat"  # 50: J<Q<K<A<7<8<9<10


_MALI = {r: i for i, r in enumerate((Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN,
                                     Rank.KING, Rank.ACE, Rank.SEVEN))}  # fmt: skip
_VELIKI = {r: i for i, r in enumerate((Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.SEVEN,
                                       Rank.EIGHT, Rank.NINE, Rank.TEN))}  # fmt: skip


def strength(card: Card, rule: PlayRule = PlayRule.NORMAL, top_rank: Rank | None = None) -> int:
    """The power of ``card`` under ``rule``; ``top_rank`` is the 7-u-boji redeal's top rank."""
    if top_rank is not None:
        # §10.4 7 u boji: the rank that was missing is on top, the cyclic order descends from it
        return (NATURAL.index(card.rank) - NATURAL.index(top_rank) - 1) % 8
    if rule is PlayRule.MALI_PREVRAT:
        return _MALI[card.rank]
    if rule is PlayRule.VELIKI_PREVRAT:
        return _VELIKI[card.rank]
    return NATURAL.index(card.rank)


def rotated_order(top_rank: Rank) -> list[str]:
    """The ranks from strongest to weakest in a 7-u-boji redeal (for display and tests)."""
    ranks = sorted(NATURAL, key=lambda r: -strength(Card(r, Suit.SPADES), top_rank=top_rank))
    return [r.code for r in ranks]


def overtakes(
    card: Card,
    top: Card,
    lead: Suit,
    joker: Suit | None,
    *,
    rule: PlayRule = PlayRule.NORMAL,
    special: Suit | None = None,
    top_rank: Rank | None = None,
) -> bool:
    """Does ``card`` overtake ``top`` (§9.6; SubRosa §10.4 rules and the Special Suit)?"""
    if special is not None:
        # AMBIGUITY 37 (e): the Special Suit overtakes any other top; once on top, only a higher
        # card of the Special Suit overtakes it and the joker suit no longer applies
        if top.suit is special:
            return card.suit is special and strength(card, top_rank=top_rank) > strength(
                top, top_rank=top_rank
            )
        if card.suit is special:
            return True
    if rule is PlayRule.EIGHT_SMALL:
        return card.suit is lead or (joker is not None and card.suit is joker)
    if rule is PlayRule.SARENI_NIZ:
        return card.rank is top.rank or (joker is not None and card.suit is joker)
    mine, theirs = strength(card, rule, top_rank), strength(top, rule, top_rank)
    if card.suit is lead and mine > theirs:
        return True
    return joker is not None and card.suit is joker and mine >= theirs


class Pile:
    """What decides whether a card overtakes the pile (``overtakes``): its top card, the led
    suit, the joker suit and the rule in force (SubRosa: the Special Suit and top rank of a
    7-u-boji redeal), worked out once for all the cards of a hand. (A plain class: compiled,
    it is made without a call to the interpreter, which a dataclass's ``__init__`` needs.)

    >>> from referee.cards import Card
    >>> pile = Pile(Card.parse("8S"), Suit.SPADES, Suit.HEARTS)
    >>> pile.overtaken_by(Card.parse("8H")), pile.overtaken_by(Card.parse("7S"))
    (True, False)
    """

    def __init__(
        self, top: Card, lead: Suit, joker: Suit | None, rule: PlayRule = PlayRule.NORMAL,
        special: Suit | None = None, top_rank: Rank | None = None,
    ) -> None:  # fmt: skip
        self.top = top
        self.lead = lead
        self.joker = joker
        self.rule = rule
        self.special = special
        self.top_rank = top_rank

    def overtaken_by(self, card: Card) -> bool:
        return overtakes(
            card, self.top, self.lead, self.joker, rule=self.rule, special=self.special,
            top_rank=self.top_rank,
        )  # fmt: skip


def card_value(card: Card, *, sevens: bool = False, tens: bool = False) -> int:
    """Ružička card points (J1 Q2 K3 A4); Mali Prevrat makes each 7 worth 5, Veliki each 10 worth
    10 (AMBIGUITY 36: cumulative)."""
    if sevens and card.rank is Rank.SEVEN:
        return 5
    if tens and card.rank is Rank.TEN:
        return 10
    return BASE_POINTS.get(card.rank, 0)


def card_points(cards: Iterable[Card], *, sevens: bool = False, tens: bool = False) -> int:
    return sum(card_value(c, sevens=sevens, tens=tens) for c in cards)


def other_side(side: str) -> str:
    return "B" if side == "A" else "A"


@dataclass(frozen=True)
class Tally:
    """What a side took in play: card points, rounds (cards / 4), the last trick."""

    cards: int
    rounds: int
    last: bool

    @property
    def play(self) -> int:
        return self.cards + ROUND_POINT * self.rounds + (LAST_TRICK if self.last else 0)


@dataclass
class Settlement:
    """The inputs of a deal's score (§9.12, §10.6); ``settle()`` applies them."""

    tallies: dict[str, Tally]
    sweep: str | None = None  # the side that took all 8 rounds
    changer: str | None = None  # the side that changed the joker suit
    egalite: bool = False
    bonuses: dict[str, list[tuple[int, Said]]] = field(default_factory=dict)
    falls: dict[str, list[tuple[int, Said]]] = field(default_factory=dict)
    swept_value: int = FALL  # SubRosa: -(value) of the swept side's big declaration

    def bonus(self, side: str, points: int, why: Said) -> None:
        self.bonuses.setdefault(side, []).append((points, why))

    def fall(self, side: str, points: int, why: Said) -> None:
        self.falls.setdefault(side, []).append((points, why))

    def settle(self) -> tuple[dict[str, int], Said]:
        """Scores per side and the detail line.

        >>> s = Settlement({"A": Tally(27, 5, True), "B": Tally(13, 3, False)})
        >>> s.settle()[0]  # RS1
        {'A': 37, 'B': 16}
        >>> s = Settlement({"A": Tally(19, 3, True), "B": Tally(21, 5, False)}, changer="A")
        >>> s.settle()[0]  # RS2: A changed to ♦, 27 : 26
        {'A': 35, 'B': 26}
        >>> s = Settlement({"A": Tally(21, 5, False), "B": Tally(19, 3, True)}, changer="A")
        >>> s.settle()[0]  # RS3: 26 : 27, the change falls
        {'A': -30, 'B': 27}
        >>> s = Settlement({"A": Tally(40, 8, True), "B": Tally(0, 0, False)}, sweep="A")
        >>> s.settle()[0]  # RS5
        {'A': 40, 'B': -30}
        """
        notes: list[Said] = []
        scores: dict[str, int] = {}
        for side, tally in self.tallies.items():
            if side == self.sweep:
                scores[side] = tally.cards  # §9.11: card points only, no rounds, no last trick
                notes.append(SWEPT_ONLY(side=side, cards=tally.cards))
            else:
                scores[side] = tally.play
                kind = TALLY_LAST if tally.last else TALLY
                notes.append(kind(side=side, cards=tally.cards, rounds=tally.rounds))
        if self.changer is not None:
            mine = self.tallies[self.changer].play
            theirs = self.tallies[other_side(self.changer)].play
            if mine > theirs:
                bonus = EGALITE_BONUS if self.egalite else CHANGE_BONUS
                self.bonus(self.changer, bonus, CHANGE_KEPT(mine=mine, theirs=theirs))
            else:
                self.fall(self.changer, FALL, CHANGE_FELL(mine=mine, theirs=theirs))
        if self.sweep is not None:
            self.fall(other_side(self.sweep), self.swept_value, SWEPT())
        for side, items in self.bonuses.items():
            for points, why in items:
                scores[side] += points
                notes.append(BONUS(side=side, points=points, why=why))
        for side, items in self.falls.items():
            # AMBIGUITY 29: one fall per side, the most negative one
            points, why = min(items, key=lambda item: (item[0], item[1].text))
            scores[side] = points
            notes.append(FALLS(side=side, points=points, why=why))
        return scores, SETTLED(notes=notes)
