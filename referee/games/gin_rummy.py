"""Gin rummy, "džin remi" (RULES.md §14, source F3): two players, 52 cards, game to 100.

Classic gin rummy where F3 is silent: the knock limit is 10, gin scores the defender's
deadwood plus 20, an undercut (the defender's deadwood equal to or lower than the knocker's)
scores the difference plus 10, and a gin is never undercut (AMBIGUITY 72). Lay-offs against
gin are allowed, as the text says. The variant of F3 (option ``oklahoma``): a spade as the
first upcard doubles the hand, and the upcard's value is the knock limit.

>>> from referee.registry import load_game
>>> game = load_game("gin-rummy(oklahoma=true)")
>>> game.players, game.deck.value, game.spec
(2, 'french-52', 'gin-rummy(oklahoma=true)')
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.cards import Card, Deck
from referee.deal import DealResult
from referee.errors import OptionsError
from referee.game import Game, GameOptions
from referee.games.gin_deal import HAND_SIZE, GinDeal
from referee.games.gin_rules import stakes_settlement
from referee.match import Match
from referee.wording import refusal

R_GIN_RUMMY_KNOCK_LIMIT = refusal(
    "gin.gin_rummy_knock_limit", "gin-rummy: knock-limit must be 0..10, not {knock_limit}"
)
R_GIN_RUMMY_BONUSES_PENALTY = refusal(
    "gin.gin_rummy_bonuses_penalty", "gin-rummy: bonuses and the penalty cannot be negative"
)


@dataclass(frozen=True)
class GinRummyOptions(GameOptions):
    knock_limit: int = 10
    gin_bonus: int = 20
    undercut_bonus: int = 10
    #: F3's variant: a spade first upcard doubles the hand; the upcard's value is the limit
    oklahoma: bool = False
    #: AMBIGUITY 72: the text lets the defender lay off against gin too
    layoff_on_gin: bool = True
    #: AMBIGUITY 72 reading (a): a gin met by a zero-deadwood defender is undercut
    gin_undercut: bool = False
    #: at the wall the next player may take the last discard, only to knock (OpenSpiel's rule;
    #: the text's default, AMBIGUITY 71, ends the hand as soon as the stock is down to 2)
    wall_knock: bool = False
    #: points to the other player for a proven illegal knock or draw out of turn (F3: silent)
    penalty: int = 10


class GinRummy(Game[GinRummyOptions]):
    """Gin rummy for two; scores are the points of one hand, to the winner of the hand."""

    name = "gin-rummy"
    aliases: ClassVar[tuple[str, ...]] = ("gin", "dzin-remi", "džin-remi")
    title = "Gin rummy (džin remi)"
    Options = GinRummyOptions
    partija_target: ClassVar[int] = 100
    perft_variants: ClassVar[tuple[str, ...]] = ("gin-rummy(oklahoma=true)",)

    def validate_options(self) -> None:
        o = self.options
        if not 0 <= o.knock_limit <= 10:
            raise R_GIN_RUMMY_KNOCK_LIMIT.error(OptionsError, knock_limit=o.knock_limit)
        if min(o.gin_bonus, o.undercut_bonus, o.penalty) < 0:
            raise R_GIN_RUMMY_BONUSES_PENALTY.error(OptionsError)

    @property
    def players(self) -> int:
        return 2

    @property
    def deck(self) -> Deck:
        return Deck.FRENCH_52

    deal_class = GinDeal

    def deal_cards(
        self, rng: random.Random, *, dealer: int = 0
    ) -> tuple[dict[int, list[Card]], dict[str, Any]]:
        """One card at a time, the opponent first (§14.2); then the upcard and the stock."""
        cards = list(self.deck.cards)
        rng.shuffle(cards)
        first = 1 - dealer
        hands = {first: cards[0 : 2 * HAND_SIZE : 2], dealer: cards[1 : 2 * HAND_SIZE : 2]}
        setup = {
            "upcard": cards[2 * HAND_SIZE].code,
            "stock": [c.code for c in cards[2 * HAND_SIZE + 1 :]],
        }
        return hands, setup

    def dealer_after(self, dealer: int, result: DealResult | None) -> int:
        """§14.2: the winner of the hand deals the next; a dead hand is dealt again by the same
        dealer (AMBIGUITY 70)."""
        winner = result.extra.get("winner") if result is not None else None
        return dealer if winner is None else int(winner)

    def next_dealer_after(
        self, dealer: int, result: DealResult | None, *, partija_over: bool
    ) -> int:
        return self.dealer_after(dealer, result)

    def final_result(self, match: Match, winner: str) -> dict[str, int]:
        """§14.5: the net of each game's (partija's) settlement for stakes."""
        net = {s: 0 for s in self.sides}
        for number in range(1, match.partija):
            for side, value in self.settlement(match, number).items():
                net[side] += value
        return net

    def settlement(self, match: Match, partija: int | None = None) -> dict[str, int]:
        """§14.5 settlement for stakes of a finished game (partija): the winner's net gain.

        A hand won is a hand in which the player scored (AMBIGUITY 73).
        """
        number = partija if partija is not None else match.partija - 1
        rows = [r for r in match.rows if r.partija == number]
        if not rows:
            return {s: 0 for s in self.sides}
        totals = rows[-1].totals
        winner = max(totals, key=lambda s: totals[s])
        loser = "1" if winner == "0" else "0"
        # a director's correction is no hand won
        won = {
            s: sum(1 for r in rows if r.scores.get(s, 0) > 0 and not r.adjustment)
            for s in self.sides
        }
        net = stakes_settlement(
            winner_score=totals[winner], loser_score=totals[loser],
            winner_hands=won[winner], loser_hands=won[loser],
        )  # fmt: skip
        return {winner: net, loser: -net}


GAMES: tuple[type[Game], ...] = (GinRummy,)
