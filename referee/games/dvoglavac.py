"""Dvoglavac (RULES.md §15): 4 players each for himself, 48 cards doubled, the Bank of 500.

Score columns are the four seats and ``Bank``. Transfers only are written (AMBIGUITY 79 (b)):
the ``Bank`` column holds the Bank's change, so the Bank's balance is 500 + its total, and
every row sums to zero ("na papiru se uvek nalazi ukupno 500 bodova"). A partija ends when the
Bank is at or below zero and every player has played a clean Solo (``solo:<seat>`` marks); the
highest total wins. A compulsory-solo deal is marked with ``"compulsory": true`` in its setup:
its dealer must announce a Solo if nobody before him announced one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.cards import Card, Deck
from referee.game import Game, GameOptions
from referee.games.dvoglavac_deal import DvoglavacDeal
from referee.games.dvoglavac_rules import BANK, POINTS


@dataclass(frozen=True)
class DvoglavacOptions(GameOptions):
    pass


class Dvoglavac(Game):
    """Permanent trumps, compulsory overtaking, partners found from the two Queens of clubs."""

    name = "dvoglavac"
    aliases: ClassVar[tuple[str, ...]] = ("doppelkopf", "dvoglavac-48")
    title = "Dvoglavac"
    Options = DvoglavacOptions

    @property
    def players(self) -> int:
        return 4

    @property
    def deck(self) -> Deck:
        return Deck.DOPPELKOPF_48

    @property
    def sides(self) -> tuple[str, ...]:
        return ("0", "1", "2", "3", "Bank")

    def card_points(self, card: Card) -> int:
        return POINTS[card.rank]

    deal_class = DvoglavacDeal

    def deal_cards(
        self, rng: random.Random, *, dealer: int = 0
    ) -> tuple[dict[int, list[Card]], dict[str, Any]]:
        """12 cards each, one at a time, from the player left of the dealer (§15.3)."""
        cards = list(self.deck.cards)
        rng.shuffle(cards)
        hands: dict[int, list[Card]] = {s: [] for s in range(4)}
        for i, card in enumerate(cards):
            hands[(dealer + 1 + i) % 4].append(card)
        return hands, {}

    def bank_balance(self, totals: Mapping[str, int]) -> int:
        return BANK + totals.get("Bank", 0)

    def partija_winner_with_marks(
        self, totals: Mapping[str, int], marks: Mapping[str, int]
    ) -> str | None:
        """§15.9: the Bank is emptied and everyone has played a Solo: the highest total wins."""
        if self.bank_balance(totals) > 0:
            return None
        if any(marks.get(f"solo:{s}", 0) < 1 for s in range(4)):
            return None
        players = {s: totals[s] for s in ("0", "1", "2", "3")}
        best = max(players.values())
        top = [s for s, v in players.items() if v == best]
        return top[0] if len(top) == 1 else None

    def next_deal_rule(
        self, totals: Mapping[str, int], marks: Mapping[str, int]
    ) -> tuple[int | None, dict[str, Any]]:
        """§15.6 Prisiljeni Solo: once the Bank is empty, a player still owing a clean Solo deals
        a compulsory-solo deal, again and again until he has played one."""
        owing = self.owes_solo(marks)
        if self.bank_balance(totals) > 0 or not owing:
            return None, {}
        return owing[0], {"compulsory": True}

    def owes_solo(self, marks: Mapping[str, int]) -> list[int]:
        """Seats that have not yet played a clean Solo in this partija (Prisiljeni Solo)."""
        return [s for s in range(4) if marks.get(f"solo:{s}", 0) < 1]


GAMES: tuple[type[Game], ...] = (Dvoglavac,)
