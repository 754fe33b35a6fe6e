"""Veliki Satir for 4, 3 and 2 players, Velika Anarhija and Satir u duginim bojama (RULES.md §3-§7).

Scores are integer tenths written P.R (§0.6): ``format_score(124) == '12.4'``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.cards import Card, Deck
from referee.errors import OptionsError
from referee.game import Game, GameOptions
from referee.games.satir_deal import SatirDeal, SatirFacts
from referee.games.satir_rules import natural_strength
from referee.wording import refusal

R_VELIKI_SATIR_PLAYERS_MUST = refusal(
    "satir.veliki_satir_players_must", "veliki-satir: players must be 2, 3 or 4, not {players}"
)
R_VELIKA_ANARHIJA_PLAYED_BY = refusal(
    "satir.velika_anarhija_played_by", "velika-anarhija is played by 4 players"
)
R_SATIR_U_DUGINIM_BOJAMA = refusal(
    "satir.duginim_bojama_players", "satir-u-duginim-bojama is played by 4 players"
)

# §3.7: (each non-offending side, offending side) in tenths
VELIKI_PENALTY = {"zatvoreno": (100, 0), "aktivno": (200, 0), "pasivno": (50, -100)}


@dataclass(frozen=True)
class VelikiSatirOptions(GameOptions):
    players: int = 4


class SatirGame(Game):
    """Shared bookkeeping of the Satir family: tenths, correction below zero, partija, match."""

    score_scale: ClassVar[int] = 10
    partners_opposite: ClassVar[bool] = True  # with 4 players; 3 and 2 play for themselves
    partija_target: ClassVar[int] = 500
    match_target: ClassVar[int] = 3
    facts: SatirFacts

    def correct(self, totals: dict[str, int]) -> dict[str, int]:
        """§3.6 Korekcija: a total below zero is lifted to 0 and every other side gains as much."""
        low = min(totals.values())
        if low >= 0:
            return totals
        return {side: value - low for side, value in totals.items()}

    deal_class = SatirDeal

    def deal_cards(
        self, rng: random.Random, *, dealer: int = 0
    ) -> tuple[dict[int, list[Card]], dict[str, Any]]:
        cards = list(self.deck.cards)
        rng.shuffle(cards)
        per = self.facts.tricks if self.players < 4 else len(cards) // self.players
        hands = {s: cards[s * per : (s + 1) * per] for s in range(self.players)}
        setup: dict[str, Any] = {}
        rest = cards[per * self.players :]
        if rest:
            setup["centre"] = [c.code for c in rest]
        n = self.facts.fan_size
        setup["fans"] = {str(s): [c.code for c in reversed(h[-n:])] for s, h in hands.items()}
        return hands, setup


class VelikiSatir(SatirGame):
    """Veliki Satir: hearts trump, diamonds joker, clubs resist trump, spades resist the joker."""

    name = "veliki-satir"
    aliases: ClassVar[tuple[str, ...]] = ("satir", "velikisatir", "veliki-satir-4")
    title = "Veliki Satir"
    Options = VelikiSatirOptions
    perft_variants: ClassVar[tuple[str, ...]] = (
        "veliki-satir(players=3)",
        "veliki-satir(players=2)",
    )

    def validate_options(self) -> None:
        players = self.options.players  # type: ignore[attr-defined]
        if players not in (2, 3, 4):
            raise R_VELIKI_SATIR_PLAYERS_MUST.error(OptionsError, players=players)
        per_point = {4: 5, 3: 4, 2: 3}[players]
        self.facts = SatirFacts(
            tricks=13,
            fan_size=5,
            per_point=per_point,
            majority={4: 7, 3: 5, 2: 7}[players],  # §3.6, §4, AMBIGUITY 12
            centre={4: 0, 3: 1, 2: 2}[players],
            penalty=VELIKI_PENALTY,  # AMBIGUITY 11: the same amounts for 3 and 2 players
            strength=natural_strength,
        )

    @property
    def players(self) -> int:
        return int(self.options.players)  # type: ignore[attr-defined]

    @property
    def deck(self) -> Deck:
        return {4: Deck.FRENCH_52, 3: Deck.CUT_40, 2: Deck.CUT_28}[self.players]

    @property
    def match_target(self) -> int:  # type: ignore[override]
        return 10 if self.players == 3 else 3

    def partija_points(self, totals: Mapping[str, int], winner: str) -> dict[str, int]:
        """3 players: game points 3/2/1 by place, 0 below 25.0; ties share the higher place."""
        if self.players != 3:
            return super().partija_points(totals, winner)
        points: dict[str, int] = {}
        for side, value in totals.items():
            place = 1 + sum(1 for other in totals.values() if other > value)
            points[side] = 0 if value < 250 else 4 - place
        return points


class VelikaAnarhija(VelikiSatir):
    """§6: a club anywhere in the trick disarms hearts; a spade anywhere disarms diamonds."""

    name = "velika-anarhija"
    aliases: ClassVar[tuple[str, ...]] = ("anarhija",)
    title = "Velika Anarhija"
    perft_variants: ClassVar[tuple[str, ...]] = ()

    def validate_options(self) -> None:
        super().validate_options()
        if self.players != 4:
            raise R_VELIKA_ANARHIJA_PLAYED_BY.error(OptionsError)
        self.facts = dataclasses.replace(self.facts, anarchy=True)


class SatirDuginimBojama(VelikiSatir):
    """§7: suits are public from the backs, so every revoke is proven at once."""

    name = "satir-u-duginim-bojama"
    aliases: ClassVar[tuple[str, ...]] = ("duginim-bojama", "rainbow-satir", "dugin-satir")
    title = "Satir u duginim bojama"
    perft_variants: ClassVar[tuple[str, ...]] = ()

    def validate_options(self) -> None:
        super().validate_options()
        if self.players != 4:
            raise R_SATIR_U_DUGINIM_BOJAMA.error(OptionsError)
        self.facts = dataclasses.replace(self.facts, rainbow=True)

    def deal_cards(
        self, rng: random.Random, *, dealer: int = 0
    ) -> tuple[dict[int, list[Card]], dict[str, Any]]:
        hands, setup = super().deal_cards(rng, dealer=dealer)
        return hands, setup


GAMES: tuple[type[Game], ...] = (VelikiSatir, VelikaAnarhija, SatirDuginimBojama)
