"""Dvoglavi Lav (RULES.md §11): 4 players in partnerships, the key card, 100 card points.

Sides A (seats 0, 2) and B (seats 1, 3). A partija is played to 1000 (reached or passed,
AMBIGUITY 49) with the excess carried over, or won by 10 štih-mač sweeps (tally marks per
partija); the match is 5 partije, and ``match_result`` adds the 1000-point match bonus.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.cards import Card, Deck, Rank
from referee.errors import OptionsError
from referee.game import Game, GameOptions
from referee.games.dvoglavi_lav_deal import DvoglaviLavDeal
from referee.games.dvoglavi_lav_rules import POINT_TABLES
from referee.wording import refusal

R_DVOGLAVI_LAV_POINTS_MUST = refusal(
    "lav.dvoglavi_lav_points_must", "dvoglavi-lav: points must be one of {known}, not {points!r}"
)
R_DVOGLAVI_LAV_PLAYER_GAME = refusal(
    "lav.dvoglavi_lav_player_game",
    "dvoglavi-lav: only the 4-player game is described (AMBIGUITY 41)",
)

PARTIJA = 1000
SWEEPS_TO_WIN = 10
MATCH_BONUS = 1000


@dataclass(frozen=True)
class DvoglaviLavOptions(GameOptions):
    #: card values (AMBIGUITY 42): "serbian" (A4 K3 Q2 J1 10=10 7=5) or "aces-tens"
    points: str = "serbian"
    players: int = 4


class DvoglaviLav(Game):
    """Trump and card order set by the key card; follow, trump, else pay the top-value card."""

    name = "dvoglavi-lav"
    aliases: ClassVar[tuple[str, ...]] = ("dvoglavilav", "lav", "dvoglavi_lav")
    title = "Dvoglavi Lav"
    partners_opposite: ClassVar[bool] = True
    Options = DvoglaviLavOptions
    partija_target: ClassVar[int] = PARTIJA
    match_target: ClassVar[int] = 5

    def validate_options(self) -> None:
        opts: DvoglaviLavOptions = self.options  # type: ignore[assignment]
        if opts.points not in POINT_TABLES:
            known = ", ".join(POINT_TABLES)
            raise R_DVOGLAVI_LAV_POINTS_MUST.error(OptionsError, known=known, points=opts.points)
        if opts.players != 4:
            # AMBIGUITY 41: the 3- and 2-player variants are not described.
            raise R_DVOGLAVI_LAV_PLAYER_GAME.error(OptionsError)
        self.points_table: dict[Rank, int] = POINT_TABLES[opts.points]

    @property
    def players(self) -> int:
        return 4

    @property
    def deck(self) -> Deck:
        return Deck.PIQUET_32

    def card_points(self, card: Card) -> int:
        return self.points_table[card.rank]

    deal_class = DvoglaviLavDeal

    def match_result(
        self, partije: Sequence[tuple[str, Mapping[str, int]]], winner: str
    ) -> dict[str, int]:
        """§11.11: the winners get 1000 more, then the difference of the summed partije."""
        return match_result(partije, winner)

    def deal_cards(
        self, rng: random.Random, *, dealer: int = 0
    ) -> tuple[dict[int, list[Card]], dict[str, Any]]:
        """3 + 3 into the hand, then 2 face down on the table in front of each player (§11.4)."""
        cards = list(self.deck.cards)
        rng.shuffle(cards)
        order = [(dealer + 1 + i) % 4 for i in range(4)]
        hands: dict[int, list[Card]] = {s: [] for s in range(4)}
        it = iter(cards)
        for packet in (3, 3, 2):
            for seat in order:
                hands[seat].extend(next(it) for _ in range(packet))
        table = {str(s): [c.code for c in hands[s][-2:]] for s in range(4)}
        return hands, {"table": table}

    # -- sheet -----------------------------------------------------------------------------------
    def correct(self, totals: dict[str, int]) -> dict[str, int]:
        """§11.8: a negative total is lifted to 0 and the other side gains as much (DL9)."""
        low = min(totals.values())
        if low >= 0:
            return totals
        return {side: value - low for side, value in totals.items()}

    def partija_winner_with_marks(
        self, totals: Mapping[str, int], marks: Mapping[str, int]
    ) -> str | None:
        """1000 points, or 10 štih-mač sweeps in the partija (§11.11)."""
        swept = [s for s in ("A", "B") if marks.get(s, 0) >= SWEEPS_TO_WIN]
        if len(swept) == 1:
            return swept[0]
        return self.partija_winner(totals)

    def next_partija_totals(self, totals: Mapping[str, int], winner: str) -> dict[str, int]:
        """The winner carries the points above 1000 into the next partija; the loser starts at 0."""
        return {s: (max(0, v - PARTIJA) if s == winner else 0) for s, v in totals.items()}


def match_result(partije: Sequence[tuple[str, Mapping[str, int]]], winner: str) -> dict[str, int]:
    """The net match result (§11.11): each side's partija totals summed, +1000 to the winner,
    then the difference. ``partije`` lists (partija winner, final totals) pairs.

    >>> match_result([("A", {"A": 1020, "B": 400}), ("B", {"A": 300, "B": 1000})], "A")
    {'A': 920, 'B': -920}
    """
    sums = {"A": 0, "B": 0}
    for _, totals in partije:
        for side in sums:
            sums[side] += totals.get(side, 0)
    sums[winner] += MATCH_BONUS
    loser = "B" if winner == "A" else "A"
    net = sums[winner] - sums[loser]
    return {winner: net, loser: -net}


GAMES: tuple[type[Game], ...] = (DvoglaviLav,)
