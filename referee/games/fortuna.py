"""Fortuna (RULES.md §12): 3 players, all tricks or none, jokers, two-round tricks, to 31.

Scores are written in decades (§12.8): ``format_score(12) == "10+2"``. The decades are only a
notation (AMBIGUITY 57): a player whose score is 30 or more when a deal starts wins the partija
by passing a solo in that deal (without second rounds); the deal's setup carries the current
scores (``"scores": {"0": 31, ...}``) because the second-round brackets depend on them.
Negative scores stand uncorrected (AMBIGUITY 58). The soloist deals next; after three all-pass
rounds the same dealer deals again (AMBIGUITY 52).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.cards import Card, Deck
from referee.game import Game, GameOptions
from referee.games.fortuna_deal import FortunaDeal
from referee.games.fortuna_rules import format_decades


@dataclass(frozen=True)
class FortunaOptions(GameOptions):
    pass


class Fortuna(Game):
    """The soloist shows a joker-trump and must take every trick or none."""

    name = "fortuna"
    aliases: ClassVar[tuple[str, ...]] = ("fortuna-3",)
    title = "Fortuna"
    Options = FortunaOptions
    match_target: ClassVar[int] = 3

    @property
    def players(self) -> int:
        return 3

    @property
    def deck(self) -> Deck:
        return Deck.PIQUET_32  # AMBIGUITY 51: 3 × 10 + 2

    deal_class = FortunaDeal

    def deal_cards(
        self, rng: random.Random, *, dealer: int = 0
    ) -> tuple[dict[int, list[Card]], dict[str, Any]]:
        """3 each, 3 each, 2 face down to the talon, then 4 each (§12.3)."""
        cards = list(self.deck.cards)
        rng.shuffle(cards)
        order = [(dealer + 1 + i) % 3 for i in range(3)]
        hands: dict[int, list[Card]] = {s: [] for s in range(3)}
        it = iter(cards)
        talon: list[Card] = []
        for packet in (3, 3, 0, 4):
            if packet == 0:
                talon = [next(it), next(it)]
                continue
            for seat in order:
                hands[seat].extend(next(it) for _ in range(packet))
        return hands, {"talon": [c.code for c in talon]}

    def partija_winner_with_marks(
        self, totals: Mapping[str, int], marks: Mapping[str, int]
    ) -> str | None:
        """AMBIGUITY 57 (b): a solo passed from 30 or more "exits" and wins the partija."""
        for seat in range(self.players):
            if marks.get(f"exit:{seat}", 0):
                return str(seat)
        return None

    def next_dealer_after(self, dealer: int, result: Any, *, partija_over: bool) -> int:
        """The soloist deals next; after a redeal the same dealer deals again."""
        soloist = result.extra.get("soloist") if result is not None else None
        if isinstance(soloist, int):
            return soloist
        return dealer

    def format_score(self, units: int) -> str:
        return format_decades(units)


GAMES: tuple[type[Game], ...] = (Fortuna,)
