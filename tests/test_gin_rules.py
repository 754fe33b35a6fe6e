"""Gin rummy card facts: values, melds, the minimum-deadwood search, lay-offs, vectors G1-G7."""

from __future__ import annotations

import pytest

from referee.cards import Card, parse_cards
from referee.games.gin_rules import (
    card_value,
    is_meld,
    knock_deadwood,
    layoff_candidates,
    layoffs_fit,
    min_deadwood,
    optimal_arrangements,
    score_hand,
    stakes_settlement,
)


def test_card_values_ace_one_faces_ten() -> None:
    values = [card_value(c) for c in parse_cards("AS 2H 9D TC JS QH KD")]
    assert values == [1, 2, 9, 10, 10, 10, 10]


@pytest.mark.parametrize(
    ("cards", "meld"),
    [
        ("AS 2S 3S", True),  # G5: A-2-3 is a run
        ("QS KS AS", False),  # G5: Q-K-A is not
        ("KS AS 2S", False),  # G5: K-A-2 is not
        ("7H 7D 7C", True),
        ("7H 7D 7C 7S", True),
        ("7H 8H 9D", False),
        ("5C 6C 7C 8C 9C TC JC", True),
        ("AS 2S", False),
    ],
)
def test_melds_g5(cards: str, meld: bool) -> None:
    assert is_meld(parse_cards(cards)) is meld


def test_minimum_deadwood_chooses_the_best_arrangement() -> None:
    # 8S 8C 8D as a set would leave 6S 7S 6C 7C as deadwood (26); two runs leave only 8D.
    hand = parse_cards("6S 7S 8S 6C 7C 8C 8D KH KD 2H")
    assert min_deadwood(hand) == 8 + 10 + 10 + 2
    best = optimal_arrangements(hand)
    assert len(best) == 1
    assert {tuple(c.code for c in m) for m in best[0].melds} == {
        ("6C", "7C", "8C"),
        ("6S", "7S", "8S"),
    }


def test_gin_hand_has_zero_deadwood_and_long_runs_lie_down_whole() -> None:
    hand = parse_cards("3H 4H 5H 6H 7H 8H 9C 9D 9S KS")
    assert min_deadwood(hand) == 10
    arrangement = optimal_arrangements(hand)[0]
    assert ("3H", "4H", "5H", "6H", "7H", "8H") in {
        tuple(c.code for c in m) for m in arrangement.melds
    }


def test_tied_arrangements_are_all_listed() -> None:
    # KS sits in J-Q-K of spades or in the set of kings: both leave 38 points of deadwood.
    hand = parse_cards("JS QS KS KH KD 2C 3C 4C 9D 9H")
    assert min_deadwood(hand) == 38
    arrangements = optimal_arrangements(hand)
    assert sorted(a.describe() for a in arrangements) == [
        "melds 2C 3C 4C | JS QS KS; deadwood 9D 9H KD KH = 38",
        "melds 2C 3C 4C | KD KH KS; deadwood 9D 9H JS QS = 38",
    ]
    melds = [a.melds for a in arrangements]
    # a lay-off must fit one arrangement the knocker could have laid: TS or KC, not both
    assert any(layoffs_fit(m, parse_cards("TS")) for m in melds)
    assert any(layoffs_fit(m, parse_cards("KC")) for m in melds)
    assert not any(layoffs_fit(m, parse_cards("TS KC")) for m in melds)


def test_openspiel_eleven_card_tie_flaw_kibic_finds_the_knock() -> None:
    """OpenSpiel's min_deadwood on these 11 cards is 12 (it picks the two sets 5-5-5/6-6-6 and
    drops the highest deadwood card); discarding 6C instead leaves 4-5-6H and 3-4-5-6S with
    deadwood 2D 3C 5D = 10, a legal knock. Kibic's search is exact."""
    hand = parse_cards("2D 3C 3S 4H 4S 5D 5H 5S 6C 6H 6S")
    assert knock_deadwood(hand) == 10
    after = [c for c in hand if c != Card.parse("6C")]
    assert min_deadwood(after) == 10
    assert optimal_arrangements(after)[0].describe() == (
        "melds 3S 4S 5S 6S | 4H 5H 6H; deadwood 2D 3C 5D = 10"
    )
    # every other discard is worse
    assert all(min_deadwood([x for x in hand if x != c]) > 10 for c in hand if c.code != "6C")


def test_layoffs_fit_sets_and_runs_through_each_other() -> None:
    melds = [parse_cards("5H 6H 7H"), parse_cards("9S 9D 9C")]
    assert layoffs_fit(melds, parse_cards("8H 9H"))  # 9H through 8H onto the run
    assert layoffs_fit(melds, parse_cards("4H 3H 9H 8H"))
    assert layoffs_fit(melds, parse_cards("9H"))  # the fourth nine: the set takes it
    assert not layoffs_fit([melds[0]], parse_cards("9H"))  # not next to the run
    assert not layoffs_fit(melds, parse_cards("TH"))
    assert not layoffs_fit([parse_cards("QS KS AS")[:2] + parse_cards("JS")], parse_cards("AS"))
    assert layoff_candidates(melds, []) == set(parse_cards("4H 8H 9H"))


@pytest.mark.parametrize(
    ("k", "o", "winner", "points", "kind"),
    [
        (5, 23, 0, 18, "knock"),  # G1
        (8, 8, 1, 10, "undercut"),  # G2
        (8, 6, 1, 12, "undercut"),  # G3
        (0, 30, 0, 50, "gin"),  # G4
        (0, 0, 0, 20, "gin"),  # AMBIGUITY 72: a gin is never undercut
    ],
)
def test_hand_scores_g1_to_g4(k: int, o: int, winner: int, points: int, kind: str) -> None:
    score = score_hand(knocker=0, knocker_deadwood=k, defender_deadwood=o)
    assert (score.winner, score.points, score.kind) == (winner, points, kind)


def test_literal_reading_lets_a_zero_defender_undercut_gin() -> None:
    score = score_hand(knocker=0, knocker_deadwood=0, defender_deadwood=0, gin_can_be_undercut=True)
    assert (score.winner, score.points, score.kind) == (1, 10, "undercut")


def test_stakes_settlement_g6_and_shutout() -> None:
    assert stakes_settlement(winner_score=105, loser_score=60, winner_hands=5, loser_hands=3) == 185
    assert stakes_settlement(winner_score=110, loser_score=0, winner_hands=4, loser_hands=0) == 390
