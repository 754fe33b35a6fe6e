"""Gin rummy card facts: values, melds, the minimum-deadwood search, lay-offs, scores (RULES.md §14).

Classic gin rummy as the text (F3) describes it: aces are low only (A-2-3 is a run, Q-K-A and
K-A-2 are not), a meld is a set of 3 or 4 cards of one rank or a run of 3 or more cards of one
suit, and a card is in at most one meld. The meld arrangement is always the optimal one
(minimum deadwood), found by an exact search over the hand.

>>> from referee.cards import parse_cards
>>> min_deadwood(parse_cards("AS 2S 3S 7H 7D 7C 9C TC JC KD"))
10
>>> is_meld(parse_cards("QS KS AS")), is_meld(parse_cards("AS 2S 3S"))
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.cards import Card, Rank, Suit
from referee.wording import Said, part

ARRANGEMENT = part("gin.arrangement", "melds {melds}; deadwood {deadwood} = {points}")


def card_value(card: Card) -> int:
    """Ace 1, J/Q/K 10, the others their face value (§14.1)."""
    if card.rank is Rank.ACE:
        return 1
    return min(10, int(card.rank))


def run_rank(card: Card) -> int:
    """The card's place in a run: the Ace is low only (A=1 ... K=13)."""
    return 1 if card.rank is Rank.ACE else int(card.rank)


def is_set(cards: Sequence[Card]) -> bool:
    return len(cards) in (3, 4) and len({c.rank for c in cards}) == 1


def is_run(cards: Sequence[Card]) -> bool:
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(run_rank(c) for c in cards)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


def is_meld(cards: Sequence[Card]) -> bool:
    return is_set(cards) or is_run(cards)


@dataclass(frozen=True)
class Arrangement:
    """Melds (sets and maximal runs, each sorted) and the deadwood cards of one hand."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]

    @property
    def deadwood_points(self) -> int:
        return sum(card_value(c) for c in self.deadwood)

    def describe(self) -> str:
        return self.said().text

    def said(self) -> Said:
        """The arrangement as a statement (melds, deadwood and its points)."""
        melds = " | ".join(" ".join(c.code for c in m) for m in self.melds) or "-"
        dead = " ".join(c.code for c in self.deadwood) or "-"
        return ARRANGEMENT(melds=melds, deadwood=dead, points=self.deadwood_points)


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: (run_rank(c), c.suit.value if c.suit else "")))


def format_hand(cards: Iterable[Card]) -> str:
    """Cards in ascending run order (aces first), as players spread them."""
    return " ".join(c.code for c in _sorted(cards))


def candidate_melds(cards: Sequence[Card]) -> list[int]:
    """Every meld inside ``cards`` as a bitmask over their positions (runs of every length)."""
    index = {card: i for i, card in enumerate(cards)}
    masks: list[int] = []
    by_rank: dict[Rank, list[int]] = {}
    by_suit: dict[Suit, dict[int, int]] = {}
    for card, i in index.items():
        by_rank.setdefault(card.rank, []).append(i)
        assert card.suit is not None
        by_suit.setdefault(card.suit, {})[run_rank(card)] = i
    for positions in by_rank.values():
        if len(positions) >= 3:
            full = sum(1 << i for i in positions)
            if len(positions) == 4:
                masks.append(full)
                masks.extend(full & ~(1 << i) for i in positions)
            else:
                masks.append(full)
    for ranks in by_suit.values():
        for low in ranks:
            mask, high = 1 << ranks[low], low + 1
            while high in ranks:
                mask |= 1 << ranks[high]
                if high - low >= 2:
                    masks.append(mask)
                high += 1
    return masks


class _Search:
    """Exact maximum melded value over a hand (bitmask DP on the lowest card)."""

    def __init__(self, cards: Sequence[Card]) -> None:
        self.cards = tuple(cards)
        self.values = [card_value(c) for c in self.cards]
        self.melds = candidate_melds(self.cards)
        self.meld_value = {m: sum(self.values[i] for i in _bits(m)) for m in self.melds}
        self.by_low: dict[int, list[int]] = {}
        for m in self.melds:
            self.by_low.setdefault(m & -m, []).append(m)
        self.memo: dict[int, int] = {0: 0}

    def best(self, mask: int) -> int:
        memo = self.memo
        got = memo.get(mask)
        if got is not None:
            return got
        low = mask & -mask
        value = self.best(mask ^ low)
        for m in self._melds_with(low, mask):
            value = max(value, self.meld_value[m] + self.best(mask ^ m))
        memo[mask] = value
        return value

    def _melds_with(self, low: int, mask: int) -> list[int]:
        return [m for m in self.melds if m & low and m & mask == m]

    def arrangements(self, mask: int) -> list[list[int]]:
        """Every optimal choice of melds for ``mask`` (as lists of meld masks)."""
        if mask == 0:
            return [[]]
        target = self.best(mask)
        low = mask & -mask
        out: list[list[int]] = []
        if self.best(mask ^ low) == target:
            out.extend(self.arrangements(mask ^ low))
        for m in self._melds_with(low, mask):
            if self.meld_value[m] + self.best(mask ^ m) == target:
                out.extend([m, *rest] for rest in self.arrangements(mask ^ m))
        return out


def _bits(mask: int) -> list[int]:
    out, i = [], 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def min_deadwood(cards: Sequence[Card]) -> int:
    """The minimum deadwood count of ``cards`` over every meld arrangement."""
    search = _Search(cards)
    full = (1 << len(search.cards)) - 1
    return sum(search.values) - search.best(full)


def knock_deadwood(cards: Sequence[Card]) -> int:
    """The lowest deadwood reachable by discarding one card of an 11-card hand (the search is
    shared between the discards, so this is one search, not eleven)."""
    search = _Search(cards)
    full = (1 << len(search.cards)) - 1
    total = sum(search.values)
    return min(
        total - search.values[i] - search.best(full ^ (1 << i)) for i in range(len(search.cards))
    )


def best_arrangement(cards: Sequence[Card]) -> Arrangement:
    """One optimal arrangement (deterministic: the first the search finds)."""
    return optimal_arrangements(cards)[0]


def optimal_arrangements(cards: Sequence[Card]) -> list[Arrangement]:
    """Every arrangement of minimum deadwood, adjacent runs of one suit merged, no duplicates."""
    search = _Search(cards)
    full = (1 << len(search.cards)) - 1
    seen: set[tuple[tuple[Card, ...], ...]] = set()
    out: list[Arrangement] = []
    for choice in search.arrangements(full):
        melds = _merge_runs([_sorted(search.cards[i] for i in _bits(m)) for m in choice])
        key = tuple(sorted(melds, key=lambda m: (run_rank(m[0]), len(m), m[0].sort_key)))
        if key in seen:
            continue
        seen.add(key)
        used = {c for m in melds for c in m}
        dead = _sorted(c for c in search.cards if c not in used)
        out.append(Arrangement(key, dead))
    return out


def _merge_runs(melds: list[tuple[Card, ...]]) -> list[tuple[Card, ...]]:
    """Join runs of one suit that touch (3-4-5 and 6-7-8 of a suit lie down as 3..8)."""
    runs = [m for m in melds if not is_set(m) or is_run(m)]
    sets = [m for m in melds if is_set(m) and not is_run(m)]
    merged = True
    while merged:
        merged = False
        for a in runs:
            for b in runs:
                if a is not b and a[0].suit is b[0].suit and run_rank(a[-1]) + 1 == run_rank(b[0]):
                    runs.remove(a)
                    runs.remove(b)
                    runs.append(a + b)
                    merged = True
                    break
            if merged:
                break
    return sets + runs


def layoffs_fit(melds: Sequence[Sequence[Card]], layoffs: Sequence[Card]) -> bool:
    """Can every card of ``layoffs`` be laid off on ``melds`` (sets take their 4th card, runs
    grow at either end, also through other laid-off cards)?"""
    targets: list[list[int]] = []
    for card in layoffs:
        options = []
        for j, meld in enumerate(melds):
            if is_set(meld) and not is_run(meld):
                if len(meld) == 3 and meld[0].rank is card.rank:
                    options.append(j)
            elif meld[0].suit is card.suit:
                low, high = run_rank(meld[0]), run_rank(meld[-1])
                r = run_rank(card)
                if r < low or r > high:
                    options.append(j)
        if not options:
            return False
        targets.append(options)
    assignment = [0] * len(layoffs)

    def valid() -> bool:
        for j, meld in enumerate(melds):
            extra = [layoffs[i] for i in range(len(layoffs)) if assignment[i] == j]
            if not extra:
                continue
            if is_set(meld) and not is_run(meld):
                if len(extra) > 1:
                    return False
            elif not is_run(list(meld) + extra):
                return False
        return True

    def search(i: int) -> bool:
        if i == len(layoffs):
            return valid()
        for j in targets[i]:
            assignment[i] = j
            if search(i + 1):
                return True
        return False

    return search(0)


def layoff_candidates(melds: Sequence[Sequence[Card]], laid: Sequence[Card]) -> set[Card]:
    """Cards that could be laid off next on ``melds`` after ``laid`` (for legal-action lists)."""
    out: set[Card] = set()
    for meld in melds:
        if is_set(meld) and not is_run(meld):
            if len(meld) == 3 and not any(c.rank is meld[0].rank for c in laid):
                suits = {c.suit for c in meld}
                out.update(Card(meld[0].rank, s) for s in Suit if s not in suits)
        else:
            suit = meld[0].suit
            ranks = {run_rank(c) for c in meld} | {run_rank(c) for c in laid if c.suit is suit}
            low, high = run_rank(meld[0]), run_rank(meld[-1])
            while low - 1 in ranks:
                low -= 1
            while high + 1 in ranks:
                high += 1
            for r in (low - 1, high + 1):
                if 1 <= r <= 13:
                    assert suit is not None
                    out.add(Card(Rank.ACE if r == 1 else Rank(r), suit))
    return out


@dataclass(frozen=True)
class HandScore:
    """The score of one hand: who scores how much and why (before the spade doubling)."""

    winner: int | None
    points: int
    kind: str  # "gin", "knock", "undercut"
    knocker_deadwood: int
    defender_deadwood: int


def score_hand(
    *,
    knocker: int,
    knocker_deadwood: int,
    defender_deadwood: int,
    gin_bonus: int = 20,
    undercut_bonus: int = 10,
    gin_can_be_undercut: bool = False,
) -> HandScore:
    """§14.4. Vectors G1-G4:

    >>> score_hand(knocker=0, knocker_deadwood=5, defender_deadwood=23).points
    18
    >>> s = score_hand(knocker=0, knocker_deadwood=8, defender_deadwood=8); (s.winner, s.points)
    (1, 10)
    >>> score_hand(knocker=0, knocker_deadwood=8, defender_deadwood=6).points
    12
    >>> score_hand(knocker=1, knocker_deadwood=0, defender_deadwood=30).points
    50
    """
    k, o = knocker_deadwood, defender_deadwood
    defender = 1 - knocker
    if k == 0 and not (gin_can_be_undercut and o == 0):
        return HandScore(knocker, o + gin_bonus, "gin", k, o)
    if k < o:
        return HandScore(knocker, o - k, "knock", k, o)
    return HandScore(defender, k - o + undercut_bonus, "undercut", k, o)


def stakes_settlement(
    *, winner_score: int, loser_score: int, winner_hands: int, loser_hands: int
) -> int:
    """§14.5 net won at the end of a game (G6: 105/60 points, 5/3 hands won -> 185).

    >>> stakes_settlement(winner_score=105, loser_score=60, winner_hands=5, loser_hands=3)
    185
    >>> stakes_settlement(winner_score=100, loser_score=0, winner_hands=3, loser_hands=0)
    360
    """
    bonus = 200 if loser_hands == 0 else 100
    return bonus + 20 * (winner_hands - loser_hands) + (winner_score - loser_score)
