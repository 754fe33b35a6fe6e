"""Helpers to script Satir deals in tests."""

from __future__ import annotations

from typing import Any

from referee.actions import Action, ActionType
from referee.deal import Deal, Mode
from referee.registry import load_game


def scripted(
    spec: str,
    contract: str,
    tricks: list[str],
    *,
    dealer: int = 3,
    mode: Mode = Mode.TABLE,
    **setup: Any,
) -> tuple[Deal, list[Any]]:
    """Play ``tricks`` ("5S 9S 2H KS", cards in play order from the seat to act)."""
    game = load_game(spec)
    hands = setup.pop("hands", None)
    deal = game.new_deal(dealer=dealer, hands=hands, setup=setup, mode=mode)
    events = list(deal.play(Action(deal.forehand, ActionType.CONTRACT, value=contract)))
    for trick in tricks:
        for code in trick.split():
            seat = deal.to_act  # type: ignore[attr-defined]
            events.extend(deal.play(Action.play(seat, code)))
    return deal, events
