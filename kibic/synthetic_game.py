"""The ``synthetic`` camera source of ``kibic run``: a legal game of the table's own game.

Each deal is simulated (seeded) from the runtime's match: its dealer, the setup the rules
impose, hands dealt by the game. The moves a camera cannot see (bids, contracts,
declarations) go into the runtime as the players would say them (source ``synthetic``), each
when its turn comes; the plays are drawn on the synthetic table, frame by frame, for the camera
to read. So a trial run without a camera looks like a table rather than a shuffled deck.

If the camera misreads a card, the deal waits (the last frame is shown again) until a person
has answered the question or entered the card, then the next deal begins.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from kibic.runtime import TableRuntime
from referee.actions import Action, ActionType
from referee.cards import Card, Deck
from referee.deal import Mode
from referee.errors import RefereeError

WAIT_S = 0.5  # between repeats of the last frame while the runtime's deal is unfinished


@dataclass(frozen=True)
class PlannedDeal:
    """A simulated legal deal: its start and its actions in order."""

    dealer: int
    setup: dict[str, Any]
    actions: tuple[Action, ...]

    @property
    def plays(self) -> list[tuple[int, Card]]:
        return [(a.seat, a.card) for a in self.actions if a.type is ActionType.PLAY and a.card]

    def spoken(self) -> list[tuple[int, Action]]:
        """Each move a camera cannot see, with how many plays come before it."""
        out, plays = [], 0
        for action in self.actions:
            if action.type is ActionType.PLAY:
                plays += 1
            else:
                out.append((plays, action))
        return out


def plan_deal(runtime: TableRuntime, rng: random.Random) -> PlannedDeal:
    """The next deal of the runtime's match, played legally with seeded choices."""
    from kibic.demo_players import table_choice

    game, match = runtime.game, runtime.match
    assert match is not None
    hands, setup = game.deal_cards(rng, dealer=match.dealer)
    setup = {**setup, **match.next_setup}
    deal = game.new_deal(dealer=match.dealer, hands=hands, setup=setup, mode=Mode.TABLE)
    while not deal.is_over:
        deal.play(table_choice(rng, as_seen(deal, deal.legal_actions()), deal))
    return PlannedDeal(match.dealer, setup, tuple(deal.actions))


def as_seen(deal: Any, actions: list[Action]) -> list[Action]:
    """The legal actions as a camera reports them: a play is its seat and card only (whether a
    card went on the pile or beside it is no part of a sighting), so the plan makes only plays
    that mean, read that way, what the referee will take them for."""
    seen: list[Action] = []
    for action in actions:
        if action.type is ActionType.PLAY and action.card is not None and action.value:
            bare = Action.play(action.seat, action.card)
            if bare in seen:
                continue
            try:
                deal.check(bare)
            except RefereeError:
                continue
            action = bare
        if action not in seen:
            seen.append(action)
    return seen or actions


class SyntheticGame:
    """Frames of a legal game of ``runtime``'s game (a frame source: iterable, ``close()``)."""

    def __init__(
        self, runtime: TableRuntime, *, deck: Deck, seed: int = 0, deals: int | None = None
    ) -> None:
        self.runtime = runtime
        self.deck = deck
        self.seed = seed
        self.deals = deals  # None: until the source is closed
        self.planned: list[PlannedDeal] = []
        self._spoken: list[tuple[int, Action]] = []  # the current deal's moves not said yet
        self._closed = False

    def _plays_recorded(self) -> int:
        deal = self.runtime.deal
        if deal is None:
            return 0
        return sum(1 for a in deal.actions if a.type is ActionType.PLAY)

    def _deal_open(self) -> bool:
        deal = self.runtime.deal
        return deal is not None and not deal.is_over and bool(deal.actions)

    def __iter__(self) -> Iterator[np.ndarray]:
        self.runtime.add_action_listener(self._after)
        try:
            yield from self._frames()
        finally:
            self.runtime.remove_action_listener(self._after)

    def _speak(self) -> None:
        """The moves a camera cannot see that are due now: each after the plays before it
        (so also when the camera reports several plays at once)."""
        while self._spoken and self._spoken[0][0] <= self._plays_recorded():
            self.runtime.submit(self._spoken.pop(0)[1], source="synthetic")

    def _after(self, action: Action) -> None:
        if action.type is ActionType.PLAY:
            self._speak()

    def _frames(self) -> Iterator[np.ndarray]:
        from vision.synthetic import SyntheticTable

        rng = random.Random(self.seed)
        players = self.runtime.game.players
        if self._deal_open():
            raise RuntimeError("a deal is in progress: the synthetic game starts with a new deal")
        while not self._closed and (self.deals is None or len(self.planned) < self.deals):
            plan = plan_deal(self.runtime, rng)
            self.planned.append(plan)
            self.runtime.start_deal(setup=plan.setup, dealer=plan.dealer)
            self._spoken = plan.spoken()
            # the same seed each deal: the camera stays where it was over the same mat
            table = SyntheticTable(
                plan.plays, n_seats=players, deck=self.deck, seed=self.seed, fast=True
            )
            frame: np.ndarray | None = None
            for frame in table:
                self._speak()
                yield frame
                if self._closed:
                    return
            self._speak()
            while self._deal_open() and not self._closed and frame is not None:
                time.sleep(WAIT_S)  # a question for a person: the deal waits for the answer
                yield frame

    def close(self) -> None:
        self._closed = True
