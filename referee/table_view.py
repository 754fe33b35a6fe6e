"""What the table sees of a deal played with known hands (RULES.md §16.1).

:class:`TableMirror` plays a deal twice: once with every hand known (it lists the legal
actions) and once as a table referee that sees only the public part of each action: no hands,
no face-down cards (talons, discards, the centre card, offers, stock draws), no hidden setup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.actions import Action, ActionType
from referee.cards import Card
from referee.deal import Deal, Mode
from referee.events import Event
from referee.game import Game

#: setup fields that lie face down on the table (talons, the centre card, the stock, the table
#: cards of Dvoglavi Lav): a table referee is never told them
HIDDEN_SETUP = ("centre", "table", "talon", "stock")


def public_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in setup.items() if k not in HIDDEN_SETUP}


class TableMirror:
    """A known-hands deal and its table-only twin, fed the same actions as the table sees them."""

    def __init__(
        self,
        game: Game,
        *,
        dealer: int,
        hands: Mapping[int, Sequence[Card]],
        setup: Mapping[str, Any],
    ) -> None:
        self.game = game
        self.known: Deal = game.new_deal(dealer=dealer, hands=hands, setup=setup, mode=Mode.TABLE)
        self.table: Deal = game.new_deal(dealer=dealer, setup=public_setup(setup), mode=Mode.TABLE)
        self.offered: dict[int, Card] = {}  # the last face-down offer of each seat

    def play(self, action: Action) -> list[Event]:
        """Play ``action`` on the known deal and its public form on the table; the table's
        events come back."""
        before = _tricks(self.known)
        self.known.play(action)
        self._before_table(action)
        events: list[Event] = []
        public = self.public(action)
        if action.type is ActionType.OFFER and action.card is not None:
            self.offered[action.seat] = action.card
        if public is not None:
            events.extend(self.table.play(public))
        pending: list[int] = getattr(self.table, "pending", [])
        while pending and not self.table.is_over:
            # an offer turned up (Ružička, SubRosa): the table now sees the card
            seat = pending[0]
            events.extend(self.table.play(Action(seat, ActionType.REVEAL, self.offered[seat])))
        if (
            action.type is ActionType.PLAY
            and self.game.name == "fortuna"
            and _tricks(self.known) > before
            and not self.table.is_over
            and _tricks(self.table) == before
        ):
            # with known hands the referee sees that the leader cannot open a second round;
            # at the table he says so ("no second round", AMBIGUITY 56)
            leader = getattr(self.table, "to_act", None)
            assert isinstance(leader, int)
            events.extend(self.table.play(Action(leader, ActionType.PASS)))
        return events

    def _before_table(self, action: Action) -> None:
        counts = getattr(self.known, "counts", None)
        rainbow = getattr(getattr(self.known, "facts", None), "rainbow", False)
        if rainbow and counts is not None and "backs" not in self.table.setup:
            # rainbow Satir: the colours of the backs are public (§7)
            self.table.setup["backs"] = {
                str(s): {suit.value: n for suit, n in c.items()} for s, c in counts.items()
            }

    def public(self, action: Action) -> Action | None:
        """The action as the table sees it (None: nothing reaches the table yet)."""
        kind, name = action.type, self.game.name
        if kind is ActionType.EXCHANGE and name == "ulti":
            # the discards go face down; the table sees them once both are down
            if getattr(self.known, "to_discard", 0):
                return None
            return Action(action.seat, ActionType.EXCHANGE)
        if kind is ActionType.EXCHANGE and name in ("veliki-satir", "velika-anarhija"):
            return Action(action.seat, ActionType.EXCHANGE, value=action.value)
        if kind is ActionType.EXCHANGE and name == "fortuna":
            return Action(action.seat, ActionType.EXCHANGE, action.card, value=action.value)
        if kind is ActionType.DISCARD and name == "fortuna":
            return Action(action.seat, ActionType.DISCARD)
        if kind is ActionType.OFFER:
            return Action(action.seat, ActionType.OFFER, value=action.value)
        if name == "gin-rummy" and not action.cards and kind in (ActionType.KNOCK, ActionType.SHOW):
            # the hands are exposed at the knock (§14.3)
            hand = self.known.hands[action.seat]  # type: ignore[attr-defined]
            return Action(action.seat, kind, action.card, tuple(sorted(hand)), action.value)
        if kind is ActionType.DRAW and (action.value or "stock") == "stock":
            return Action(action.seat, ActionType.DRAW, value=action.value)
        return action


def _tricks(deal: Deal) -> int:
    return len(getattr(deal, "tricks", ()))
