"""Ulti (RULES.md §13, source F2): three players, the German/Hungarian 32-card deck.

One soloist against two defenders; bids are sets of components scored independently, each
doubled separately (kontra ... ×64) by the defender who doubled it; the soloist is paid by (or
pays) both defenders. Scores per seat, in points. Where the texts are silent the standard
Hungarian rules are followed (see ``referee.games.ulti_rules``).

>>> from referee.registry import load_game
>>> game = load_game("ulti")
>>> game.players, game.deck.value, game.card_points_total
(3, 'german-32', 80)
>>> hands, setup = game.deal_cards(__import__("random").Random(1), dealer=2)
>>> [len(hands[s]) for s in range(3)], setup["dealing"]
([12, 10, 10], 'cut')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.cards import Card, Deck
from referee.errors import OptionsError
from referee.game import Game, GameOptions
from referee.games.ulti_deal import CLAIMS, UltiDeal
from referee.games.ulti_rules import card_points
from referee.wording import refusal

R_ULTI_SETTLEMENT_PAYMENT_WRITING = refusal(
    "ulti.ulti_settlement_payment_writing", "ulti: settlement is 'payment' or 'writing'"
)
R_ULTI_DEALING_CUT_KNOCK = refusal(
    "ulti.ulti_dealing_cut_knock", "ulti: dealing is 'cut' or 'knock'"
)
R_UNKNOWN_CLAIM_DELI_NE = refusal(
    "ulti.unknown_claim_deli_ne", "unknown claim {claim!r} (deli, ne-deli)"
)


@dataclass(frozen=True)
class UltiOptions(GameOptions):
    #: F2 / RULES.md §13.8: only one defender gives kontra (the right one first). True: each
    #: defender may double for himself, as many Hungarian tables play.
    kontra_by_both: bool = False
    #: "payment" (the soloist is paid by / pays both defenders) or "writing" (AMBIGUITY 68)
    settlement: str = "payment"
    #: "cut" (7 to the forehand, then packets of 5) or "knock" (12 / 10 / 10), §13.3
    dealing: str = "cut"


def deal_packets(cards: Sequence[Card], *, dealer: int, knock: bool) -> dict[int, list[Card]]:
    """§13.3: after a cut, 7 cards to the forehand then packets of 5 round the table; after a
    knock, 12 to the forehand (AMBIGUITY 60) and 10 to each other player."""
    forehand, middle = (dealer + 1) % 3, (dealer + 2) % 3
    hands: dict[int, list[Card]] = {forehand: [], middle: [], dealer: []}
    sizes = (
        [(forehand, 12), (middle, 10), (dealer, 10)]
        if knock
        else [(forehand, 7)]
        + [(seat, 5) for _ in range(2) for seat in (middle, dealer, forehand)][:5]
    )
    pos = 0
    for seat, size in sizes:
        hands[seat].extend(cards[pos : pos + size])
        pos += size
    return hands


class Ulti(Game[UltiOptions]):
    """Ulti for three; see the module docstring."""

    name = "ulti"
    aliases: ClassVar[tuple[str, ...]] = ("ulti-hu", "madjarice")
    title = "Ulti"
    Options = UltiOptions
    perft_variants: ClassVar[tuple[str, ...]] = ()

    def validate_options(self) -> None:
        if self.options.settlement not in ("payment", "writing"):
            raise R_ULTI_SETTLEMENT_PAYMENT_WRITING.error(OptionsError)
        if self.options.dealing not in ("cut", "knock"):
            raise R_ULTI_DEALING_CUT_KNOCK.error(OptionsError)

    @property
    def players(self) -> int:
        return 3

    @property
    def deck(self) -> Deck:
        return Deck.GERMAN_32

    def card_points(self, card: Card) -> int:
        return card_points(card)

    deal_class = UltiDeal

    def partija_tracker(self) -> KecHercTracker:
        """§13.4: the partija ends by "Kec herc deli / ne deli" (and 3 more deals)."""
        return KecHercTracker()

    def deal_cards(
        self, rng: random.Random, *, dealer: int = 0
    ) -> tuple[dict[int, list[Card]], dict[str, Any]]:
        cards = list(self.deck.cards)
        rng.shuffle(cards)
        knock = self.options.dealing == "knock"
        return deal_packets(cards, dealer=dealer, knock=knock), {"dealing": self.options.dealing}


@dataclass
class KecHerc:
    """§13.4 "Kec herc deli / ne deli": when does the partija end? (AMBIGUITY 61: the holder
    is who had A♥ after the auction; the 3 more deals include the one about to be dealt.)

    Feed every finished deal with ``record(holder, next_dealer, claims)``; ``over`` says the
    partija is finished.

    >>> k = KecHerc()
    >>> k.record(holder=1, next_dealer=1, claims=[(0, "deli")]), k.remaining
    (False, None)
    >>> k.record(holder=2, next_dealer=2, claims=[]), k.record(holder=0, next_dealer=0, claims=[])
    (False, False)
    >>> k.record(holder=0, next_dealer=1, claims=[]), k.remaining
    (False, 3)
    >>> [k.record(holder=None, next_dealer=0, claims=[]) for _ in range(3)]
    [False, False, True]
    """

    claim: str | None = None
    claimed_by: int | None = None
    remaining: int | None = None
    history: list[tuple[int | None, int, bool]] = field(default_factory=list)

    def record(self, *, holder: int | None, next_dealer: int, claims: Sequence[Any]) -> bool:
        if self.remaining is not None:
            self.remaining -= 1
            return self.over
        if self.claim is None and claims:
            seat, claim = claims[0]
            if claim not in CLAIMS:
                raise R_UNKNOWN_CLAIM_DELI_NE.error(OptionsError, claim=claim)
            self.claim, self.claimed_by = claim, int(seat)
        if self.claim is None:
            return False
        deals = holder is not None and holder == next_dealer
        holds = deals if self.claim == "deli" else not deals
        self.history.append((holder, next_dealer, holds))
        if not holds:
            self.remaining = 3
        return self.over

    @property
    def over(self) -> bool:
        return self.remaining is not None and self.remaining <= 0


GAMES: tuple[type[Game], ...] = (Ulti,)


class KecHercTracker:
    """Feeds each finished Ulti deal (who held A♥, the claims) to :class:`KecHerc`."""

    def __init__(self) -> None:
        self.state = KecHerc()

    def record(self, result: Any, next_dealer: int) -> bool:
        extra = result.extra
        return self.state.record(
            holder=extra.get("ace_of_hearts"),
            next_dealer=next_dealer,
            claims=extra.get("claims", []),
        )
