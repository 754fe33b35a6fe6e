"""How the demo's simulated players choose, with a seeded random generator: any legal action,
as a table plays, with rare moves made now and then; in gin rummy a player who plays for the
knock (a gin player who chose his discards at random would never get under the knock limit, and
every demo deal would end with no score)."""

from __future__ import annotations

import random
from typing import Any

from referee.actions import Action, ActionType
from referee.cards import Card, card_order
from referee.games.dvoglavac_deal import DvoglavacDeal
from referee.games.gin_deal import GinDeal
from referee.games.gin_rules import knock_deadwood, min_deadwood

#: how often a simulated player makes each rare table move when it is legal
RARE_MOVES = {ActionType.OPEN: 0.0, ActionType.SHOW: 0.15, ActionType.BREAK: 0.3}
#: how often a gin player who may knock does so (else he plays on for a better hand)
GIN_KNOCKS = 0.9
#: Dvoglavac: how often a player announces a Solo (or Podsolo) or doubles when he may; at
#: random he would do so in nearly every deal, and the Stara pairs and the Bank never play
DVOGLAVAC_RARE = {ActionType.ANNOUNCE: 0.04, ActionType.KONTRA: 0.15}


def table_choice(rng: random.Random, actions: list[Action], deal: Any = None) -> Action:
    """A seeded choice that plays like a table: rare moves (opening the hand, showing the
    joker Jack) only now and then, otherwise any legal action; in a gin ``deal`` whose hands
    are known, ``gin_choice``."""
    if isinstance(deal, GinDeal):
        chosen = gin_choice(rng, deal, actions)
        if chosen is not None:
            return chosen
    if isinstance(deal, DvoglavacDeal):
        for kind, share in DVOGLAVAC_RARE.items():  # once a turn, whichever Solo it is
            options = [a for a in actions if a.type is kind]
            if options and rng.random() < share:
                return rng.choice(options)
        actions = [a for a in actions if a.type not in DVOGLAVAC_RARE] or actions
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
