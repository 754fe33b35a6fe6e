"""How the demo's simulated players choose, with a seeded random generator: any legal action,
as a table plays, with rare moves made now and then. Chosen at random, some moves would make
every demo deal alike and unlike a table's, so they are weighed:

- a gin player plays for the knock (one who discarded at random never got under the knock
  limit: every deal ended with no score);
- an auction (Ulti, Dvoglavi Lav) is raised a step at a time and often passed (at random it
  went to the highest bid, and each soloist fell for hundreds of points);
- a doubling (kontra) is made now and then, and a Dvoglavac Solo rarely (at random nearly every
  deal was a Solo, and the Stara pairs and the Bank never played);
- a Fortuna player takes the game with a strong hand and plays to his side's goal
  (``kibic.demo_fortuna``: at random the soloist fell in nearly every deal)."""

from __future__ import annotations

import random
from typing import Any

from kibic.demo_fortuna import fortuna_choice
from referee.actions import Action, ActionType
from referee.cards import Card, card_order
from referee.games.dvoglavac_deal import DvoglavacDeal
from referee.games.fortuna_deal import FortunaDeal
from referee.games.gin_deal import GinDeal
from referee.games.gin_rules import knock_deadwood, min_deadwood

#: how often a simulated player makes each rare table move when it is legal
RARE_MOVES = {ActionType.OPEN: 0.0, ActionType.SHOW: 0.15, ActionType.BREAK: 0.3}
#: how often a gin player who may knock does so (else he plays on for a better hand)
GIN_KNOCKS = 0.9
#: how often a player doubles (kontra, any level) when he may, once a turn
KONTRA = 0.15
#: how often a Dvoglavac player announces a Solo (or Podsolo) when he may, once a turn
DVOGLAVAC_SOLO = 0.04
#: an auction: how often a player who may pass does so, and how many of the cheapest bids
#: (the referee lists them cheapest first) he chooses among when he bids
AUCTION_PASS, AUCTION_STEPS = 0.6, 3


def table_choice(rng: random.Random, actions: list[Action], deal: Any = None) -> Action:
    """A seeded choice that plays like a table (see the module's docstring): rare moves
    (opening the hand, showing the joker Jack, doubling) only now and then, an auction raised
    a step at a time, otherwise any legal action; in a gin ``deal`` whose hands are known,
    ``gin_choice``; in a Fortuna one, ``kibic.demo_fortuna.fortuna_choice``."""
    if isinstance(deal, GinDeal):
        chosen = gin_choice(rng, deal, actions)
        if chosen is not None:
            return chosen
    if isinstance(deal, FortunaDeal):
        chosen = fortuna_choice(rng, deal, actions)
        if chosen is not None:
            return chosen
    once = {ActionType.KONTRA: KONTRA}
    if isinstance(deal, DvoglavacDeal):
        once[ActionType.ANNOUNCE] = DVOGLAVAC_SOLO
    for kind, share in once.items():  # once a turn, whichever level or Solo it is
        options = [a for a in actions if a.type is kind]
        if options and rng.random() < share:
            return rng.choice(options)
    actions = [a for a in actions if a.type not in once] or actions
    bids = [a for a in actions if a.type is ActionType.BID]
    if bids:
        passes = [a for a in actions if a.type is ActionType.PASS]
        if passes and rng.random() < AUCTION_PASS:
            return rng.choice(passes)
        return rng.choice(bids[:AUCTION_STEPS])
    common = [a for a in actions if a.type not in RARE_MOVES]
    for action in actions:
        if action.type in RARE_MOVES and rng.random() < RARE_MOVES[action.type]:
            return action
    return rng.choice(common or actions)


def gin_choice(rng: random.Random, deal: GinDeal, actions: list[Action]) -> Action | None:
    """A gin player who plays for the knock: he knocks when he may (``GIN_KNOCKS`` of the
    time), takes the upcard only when it lowers his deadwood, discards a card that leaves the
    least deadwood and lays off every card he can. None where his hand is not known."""
    if not actions or any(deal.unknown[a.seat] for a in actions):
        return None
    knock = next((a for a in actions if a.type is ActionType.KNOCK), None)
    if knock is not None and rng.random() < GIN_KNOCKS:
        return knock
    discards = [a for a in actions if a.type is ActionType.DISCARD and a.card is not None]
    if discards:
        hand = deal.hands[discards[0].seat]
        left = {a: _deadwood(hand - {a.card}) for a in discards if a.card is not None}
        least = min(left.values())
        return rng.choice([a for a in discards if left[a] == least])
    upcard = next((a for a in actions if a.type is ActionType.DRAW and a.value == "upcard"), None)
    if upcard is not None and upcard.card is not None:
        hand = deal.hands[upcard.seat]
        if knock_deadwood(sorted(hand | {upcard.card}, key=card_order)) < _deadwood(hand):
            return upcard
        other = [a for a in actions if a.seat == upcard.seat and a is not upcard]
        return rng.choice(other) if other else upcard
    layoffs = [a for a in actions if a.type is ActionType.LAYOFF]
    return rng.choice(layoffs) if layoffs else None


def _deadwood(cards: set[Card]) -> int:
    return min_deadwood(sorted(cards, key=card_order))
