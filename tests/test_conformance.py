"""Conformance over every registered game: seeded random legal play, undo, points, replay."""

from __future__ import annotations

import json
import random

import pytest

from referee.deal import Mode
from referee.perft import specs
from referee.registry import load_game
from referee.transcript import replay

DEALS_PER_GAME = 6


def play_out(spec: str, seed: int):  # type: ignore[no-untyped-def]
    game = load_game(spec)
    rng = random.Random(seed)
    dealer = seed % game.players
    hands, setup = game.deal_cards(rng, dealer=dealer)
    deal = game.new_deal(dealer=dealer, hands=hands, setup=setup, mode=Mode.TABLE)
    steps = 0
    while not deal.is_over:
        actions = deal.legal_actions()
        assert actions, f"{spec}: no legal action in phase {deal.snapshot().get('phase')}"
        deal.play(rng.choice(actions))
        steps += 1
        assert steps < 2000, f"{spec}: the deal does not end"
    return game, deal, hands


@pytest.mark.parametrize("spec", specs())
def test_random_legal_play_deals_every_card_once(spec: str) -> None:
    for seed in range(DEALS_PER_GAME):
        game, deal, hands = play_out(spec, seed)
        dealt = [c for cards in hands.values() for c in cards]
        assert len(dealt) == len(set(dealt))
        played = [a.card for a in deal.actions if a.type.value == "play" and a.card is not None]
        assert len(played) == len(set(played)), "a card was played twice"
        assert deal.result is not None
        assert not deal.violations, "legal play must never be flagged"
        if deal.conserves_card_points:
            assert sum(deal.card_points_by_side().values()) == game.card_points_total


@pytest.mark.parametrize("spec", specs())
def test_undo_restores_the_previous_state_exactly(spec: str) -> None:
    game = load_game(spec)
    rng = random.Random(99)
    hands, setup = game.deal_cards(rng, dealer=0)
    deal = game.new_deal(dealer=0, hands=hands, setup=setup, mode=Mode.TABLE)
    while not deal.is_over:
        before = json.dumps(deal.snapshot(), sort_keys=True)
        legal_before = [str(a) for a in deal.legal_actions()]
        action = rng.choice(deal.legal_actions())
        deal.play(action)
        assert deal.undo() == action
        assert json.dumps(deal.snapshot(), sort_keys=True) == before
        assert [str(a) for a in deal.legal_actions()] == legal_before
        deal.play(action)


@pytest.mark.parametrize("spec", specs())
def test_replayed_transcript_equals_live_play(spec: str) -> None:
    for seed in range(3):
        game, deal, _ = play_out(spec, 1000 + seed)
        data = {"game": game.name, "options": game.options.non_default(),
                "deals": [deal.to_transcript()]}  # fmt: skip
        rep = replay(json.loads(json.dumps(data)))
        again = rep.deals[0]
        assert again.result == deal.result
        assert json.dumps(again.snapshot(), sort_keys=True) == json.dumps(
            deal.snapshot(), sort_keys=True
        )
