"""Ružička (RULES.md §9): 4 players in partnerships, 32 cards, multi-round tricks, 53 points a
deal, partija to 301, match of 3 partije, correction below -200.

A deal in progress can be scripted in one line (the position string of tests and tools):

>>> from referee.cards import parse_cards
>>> game = Ruzicka()
>>> hands = {0: parse_cards("7S TS KS AH 9S QS 7H TH"), 1: parse_cards("8S 9D 8C TC JH QH KH 8D"),
...          2: parse_cards("8H AD QC KD TD JD QD 7C"), 3: parse_cards("9H JS AS 7D 9C JC KC AC")}
>>> deal = game.new_deal(dealer=3, hands=hands)
>>> _ = play_script(deal, "7S 8S 8H 9H | TS 9D- AD- JS | KS 8C QC AS | AH TC KD 7D")
>>> t = deal.snapshot()["tricks"][0]
>>> t["winner"], len(t["rounds"]), len(t["plays"]), deal.to_act  # RZ1: seat I wins 16 cards
(0, 4, 16, 0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from referee.actions import Action, ActionType
from referee.cards import Card, Deck
from referee.events import Event
from referee.game import Game, GameOptions
from referee.games.ruzicka_deal import JOKER_JACK, RuzickaDeal
from referee.games.ruzicka_rules import BASE_POINTS
from referee.wording import refusal

R_SCRIPT_BUT_DEAL_OVER = refusal(
    "ruzicka.script_but_deal_over", "script: {token!r} but the deal is over"
)
R_SCRIPT_OPEN_NEEDS_CARDS = refusal(
    "ruzicka.script_open_needs_cards",
    "script: 'open' needs the cards (open:7S,8S,9S) with hidden hands",
)

CORRECTION_FLOOR = -200


@dataclass(frozen=True)
class RuzickaOptions(GameOptions):
    #: Otvoreno (§9.10) allowed; off gives seeded random play whole deals (perft, conformance)
    otvoreno: bool = True


class Ruzicka(Game):
    """Ružička: free play, overtaking on a central pile, the joker suit (♥ unless changed)."""

    name = "ruzicka"
    aliases: ClassVar[tuple[str, ...]] = ("ružička", "ruzička", "ruza")
    title = "Ružička"
    partners_opposite: ClassVar[bool] = True
    Options = RuzickaOptions
    partija_target: ClassVar[int] = 301
    match_target: ClassVar[int] = 3
    perft_variants: ClassVar[tuple[str, ...]] = ("ruzicka(otvoreno=false)",)

    @property
    def players(self) -> int:
        return 4

    @property
    def deck(self) -> Deck:
        return Deck.PIQUET_32

    def card_points(self, card: Card) -> int:
        return BASE_POINTS.get(card.rank, 0)

    deal_class = RuzickaDeal

    def deal_cards(
        self, rng: random.Random, *, dealer: int = 0
    ) -> tuple[dict[int, list[Card]], dict[str, Any]]:
        """§9.3: packets of 3-2-3, starting with the forehand."""
        cards = list(self.deck.cards)
        rng.shuffle(cards)
        hands: dict[int, list[Card]] = {s: [] for s in range(self.players)}
        it = iter(cards)
        for packet in (3, 2, 3):
            for step in range(1, self.players + 1):
                seat = (dealer + step) % self.players
                hands[seat].extend(next(it) for _ in range(packet))
        return hands, {}

    def correct(self, totals: dict[str, int]) -> dict[str, int]:
        """§9.13: a side below -200 is lifted to exactly -200, the other gains as much.

        >>> Ruzicka().correct({"A": -230, "B": 150})  # RS7
        {'A': -200, 'B': 180}
        """
        low = min(totals.values())
        if low >= CORRECTION_FLOOR:
            return totals
        lift = CORRECTION_FLOOR - low
        return {side: value + lift for side, value in totals.items()}

    def first_dealer_of_partija(self, due: int, winner: str) -> int:
        """§9.3, AMBIGUITY 18 (a): the seat due to deal is skipped if it is on the winning side.

        >>> Ruzicka().first_dealer_of_partija(0, "A"), Ruzicka().first_dealer_of_partija(0, "B")
        (1, 0)
        """
        if self.side_of(due) == winner:
            return (due + 1) % self.players
        return due


GAMES: tuple[type[Game], ...] = (Ruzicka,)


def script_action(deal: RuzickaDeal, token: str) -> Action:
    """One token of a script (see ``play_script``) as the action of the seat to act."""
    seat = deal.pending[0] if deal.pending else deal.to_act
    if seat is None:
        raise R_SCRIPT_BUT_DEAL_OVER.error(token=token)
    if token == "?":
        return Action(seat, ActionType.OFFER)
    if token.startswith("?"):
        return Action(seat, ActionType.OFFER, Card.parse(token[1:]))
    if token.lower() == "k":
        return Action(seat, ActionType.KNOCK)
    if token.startswith("!"):
        return Action(seat, ActionType.SHOW, Card.parse(token[1:]), value=JOKER_JACK)
    if token.startswith("="):
        return Action(seat, ActionType.REVEAL, Card.parse(token[1:]))
    if token.startswith("open"):
        _, _, rest = token.partition(":")
        if rest:
            cards = tuple(Card.parse(c) for c in rest.split(","))
        elif deal.hands is not None:
            cards = tuple(sorted(deal.hands[seat]))
        else:
            raise R_SCRIPT_OPEN_NEEDS_CARDS.error()
        return Action(seat, ActionType.OPEN, cards=cards)
    if token.startswith("decl:"):
        parts = token.split(":")[1:]
        name = ":".join(parts[:-1]) if len(parts) > 1 else parts[0]
        listed = parts[-1] if len(parts) > 1 else ""
        shown = tuple(Card.parse(c) for c in listed.split(",")) if listed else ()
        return Action(seat, ActionType.DECLARE, cards=shown, value=name)
    if token.startswith("brejk:"):
        return Action(seat, ActionType.BREAK, Card.parse(token[6:]), value="overtake")
    mode = {"+": "overtake", "-": "discard"}.get(token[-1])
    return Action.play(seat, token[:-1] if mode else token, mode)


def play_script(deal: RuzickaDeal, script: str) -> list[Event]:
    """Play a one-line script for whoever is to act.

    Tokens: ``7S`` a card (on the pile when it can overtake, else beside it), ``7S+`` / ``7S-``
    on the pile / beside it, ``?`` or ``?7S`` a face-down offer, ``k`` a knock, ``!JD`` a Jack
    shown (joker change), ``=7S`` the turned-up offer named, ``open`` or ``open:7S,8S,9S``
    Otvoreno, ``brejk:TC`` a play announced as Brejk, ``decl:NAME:7S,8S,9S`` a SubRosa
    declaration; ``|`` and ``/`` separate rounds and tricks for the reader.
    """
    events: list[Event] = []
    for token in script.split():
        if token in ("|", "/"):
            continue
        events.extend(deal.play(script_action(deal, token)))
    return events
