"""Mali Satir (RULES.md §8): 32 cards, sevens highest, three-card fans, 8 tricks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from referee.cards import Deck
from referee.game import Game, GameOptions
from referee.games.satir import SatirGame
from referee.games.satir_deal import SatirFacts
from referee.games.satir_rules import mali_strength

# §8.5 and AMBIGUITY 16: (each non-offending side, offending side) in tenths
MALI_PENALTY = {"zatvoreno": (60, 0), "aktivno": (120, 0), "pasivno": (20, -60)}


@dataclass(frozen=True)
class MaliSatirOptions(GameOptions):
    pass


class MaliSatir(SatirGame):
    name = "mali-satir"
    aliases: ClassVar[tuple[str, ...]] = ("malisatir",)
    title = "Mali Satir"
    Options = MaliSatirOptions
    partija_strictly_above: ClassVar[bool] = True  # "do 50.1": more than 50.0

    def validate_options(self) -> None:
        self.facts = SatirFacts(
            tricks=8,
            fan_size=3,
            per_point=5,
            majority=4,  # the side that first wins its 4th trick, even at 4:4
            centre=0,
            penalty=MALI_PENALTY,
            strength=mali_strength,
        )

    @property
    def players(self) -> int:
        return 4

    @property
    def deck(self) -> Deck:
        return Deck.PIQUET_32


GAMES: tuple[type[Game], ...] = (MaliSatir,)
