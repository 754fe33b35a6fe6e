"""How the demo's Fortuna players choose (RULES.md §12), where a choice at random made every
deal alike: a player took the game with any hand and then played at random, and the soloist,
who must take every trick or none once the first is played, fell in nearly every deal.

- A player takes the game only with a hand that can win every trick, with a strong joker-trump
  (many cards of one rank, the jokers, and of one suit, the trump), or none, with low cards
  (``TAKE``, by the cards in hand); else he says "Dalje".
- The soloist shows the card that makes the most of his hand when he plays for every trick,
  and the one that leaves him the fewest jokers and high trumps when he plays for none.
- In play each side plays to its goal: the soloist to take every trick (or none, once he has
  lost the first), the other two against it. A player who wants the trick plays the least card
  that takes it; one who does not, the least card he has. A trick's leader opens the second
  round only when his side wants the trick.

The hands are known to the demo (it deals them); with hidden hands these players choose nothing
and the demo's random choice stands.
"""

from __future__ import annotations

import random

from referee.actions import Action, ActionType
from referee.cards import Card, Rank
from referee.games.fortuna_deal import FortunaDeal, Stage
from referee.games.fortuna_rules import JOKER, TRUMP, Jokers, winner_index

#: by the cards in hand (10, 8, then 6 after two rounds of "Dalje"): the least strength
#: (``strength``) a card of a hand takes the game with to win every trick, and the least share
#: of low cards (nine and under) it takes it with to win none; with fewer cards a player
#: takes more readily (a third round of "Dalje" is a redeal)
TAKE: dict[int, tuple[float, float]] = {10: (1.2, 0.6), 8: (1.15, 0.55), 6: (0.9, 0.5)}
#: the ranks a player who plays for no trick is glad to hold
LOW = frozenset({Rank.SEVEN, Rank.EIGHT, Rank.NINE})


def strength(hand: set[Card] | frozenset[Card], shown: Card) -> int:
    """What ``hand`` makes of ``shown`` as its joker-trump: two for each joker it holds (the
    cards of ``shown``'s rank), one for each trump (the rest of its suit)."""
    jokers = sum(c.rank is shown.rank for c in hand)
    trumps = sum(c.suit is shown.suit and c.rank is not shown.rank for c in hand)
    return 2 * jokers + trumps


def best_shown(hand: set[Card] | frozenset[Card]) -> tuple[Card, int]:
    """The card of ``hand`` that makes the strongest joker-trump, and its strength (the
    lowest card of the best first: card codes break ties, for a seeded demo)."""
    return max(((c, strength(hand, c)) for c in sorted(hand, key=lambda c: c.code)),
               key=lambda pair: pair[1])  # fmt: skip


def low_cards(hand: set[Card] | frozenset[Card]) -> int:
    return sum(c.rank in LOW for c in hand)


def intent(hand: set[Card] | frozenset[Card]) -> str | None:
    """What a hand takes the game for: ``all`` (a strong joker-trump), ``nothing`` (low
    cards), or None (it says "Dalje")."""
    least_all, least_none = TAKE.get(len(hand), TAKE[10])
    if best_shown(hand)[1] >= least_all * len(hand):
        return "all"
    return "nothing" if low_cards(hand) >= least_none * len(hand) else None


def safest_shown(hand: set[Card] | frozenset[Card]) -> Card:
    """For a soloist who plays for no trick: the card that leaves him the fewest jokers and
    high trumps."""

    def danger(shown: Card) -> int:
        high = sum(c.suit is shown.suit and c.rank not in LOW for c in hand)
        return 2 * sum(c.rank is shown.rank for c in hand) + high

    return min(sorted(hand, key=lambda c: c.code), key=danger)


def power(card: Card, jokers: Jokers) -> tuple[int, int]:
    """How strong ``card`` is, to order a player's cards from least to most: a joker, then a
    trump, then any other card, each by rank."""
    role = jokers.role(card)
    return ({JOKER: 2, TRUMP: 1}.get(role, 0), int(card.rank))


def fortuna_choice(rng: random.Random, deal: FortunaDeal, actions: list[Action]) -> Action | None:
    """The choice of a player who plays to his side's goal (see the module's docstring); None
    where these players do not choose (hidden hands, a stage they leave to chance)."""
    if not actions or deal.hands is None:
        return None
    seat = actions[0].seat
    hand = deal.hands[seat]
    if deal.stage is Stage.TAKING:
        take = next((a for a in actions if a.type is ActionType.ANNOUNCE and a.value == "take"),
                    None)  # fmt: skip
        passing = next((a for a in actions if a.type is ActionType.PASS), None)
        if take is None or passing is None:
            return None
        return take if intent(hand) is not None else passing
    if deal.stage is Stage.SHOW:
        shown = best_shown(hand)[0] if intent(hand) == "all" else safest_shown(hand)
        return next((a for a in actions if a.type is ActionType.SHOW and a.card == shown), None)
    if deal.stage is Stage.PLAY and deal.jokers is not None and deal.trick is not None:
        return _play(deal, deal.jokers, seat, actions)
    return None


def _play(deal: FortunaDeal, jokers: Jokers, seat: int, actions: list[Action]) -> Action | None:
    plays = [a for a in actions if a.type is ActionType.PLAY and a.card is not None]
    if not plays:
        return None
    trick = deal.trick
    assert trick is not None
    soloist = seat == deal.soloist
    # the first trick decides the soloist's goal: he plays it for what he took the game for
    # (the others, who cannot see it, play it to take it); after it he wants his goal, and
    # the others want what he does not
    goal = deal.goal
    if goal is None and soloist:
        assert deal.hands is not None
        goal = intent(deal.hands[seat] | {c for s, c in trick.plays if s == seat})
    wants = goal == "all" if soloist else goal != "all"
    if trick.plays and len(trick.plays) % deal.players == 0:  # the leader: a second round?
        stop = next((a for a in actions if a.type is ActionType.PASS), None)
        if not wants and stop is not None:
            return stop
    ordered = sorted(plays, key=lambda a: power(a.card, jokers))  # type: ignore[arg-type]
    if not wants:
        return next((a for a in ordered if not _takes(trick.cards, a.card, jokers)), ordered[0])
    if not trick.plays:
        return ordered[-1]  # a lead that wants the trick: the strongest card
    return next((a for a in ordered if _takes(trick.cards, a.card, jokers)), ordered[0])


def _takes(cards: list[Card], card: Card | None, jokers: Jokers) -> bool:
    """Whether ``card`` played now would be the trick's winning card."""
    assert card is not None
    return not cards or winner_index([*cards, card], jokers) == len(cards)
