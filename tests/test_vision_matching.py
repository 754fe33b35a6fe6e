"""The evaluation's one-to-one matching of labelled boxes and found cards."""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from referee.cards import Card, Deck
from vision.evaluate import EvalReport, _score, miss_cause
from vision.matching import match_boxes
from vision.pipeline import ImageCard
from vision.recognizer import Prediction


def test_matching_is_the_best_of_every_small_case() -> None:
    """Against every one-to-one pairing of small random overlap matrices: the most labels
    matched at 0.5 or more, then the largest total overlap."""
    rng = np.random.default_rng(17)
    for _ in range(200):
        n, m = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        overlaps = rng.choice([0.0, 0.3, 0.5, 0.6, 0.8, 0.95], size=(n, m)).tolist()
        found = match_boxes(overlaps)
        assert len(set(found.values())) == len(found)
        assert all(overlaps[i][j] >= 0.5 for i, j in found.items())
        best = max(
            (sum(o >= 0.5 for o in picked), sum(o for o in picked if o >= 0.5))
            for p in permutations(range(max(n, m)), n)
            for picked in [[overlaps[i][p[i]] if p[i] < m else 0.0 for i in range(n)]]
        )
        got = (len(found), sum(overlaps[i][j] for i, j in found.items()))
        assert got[0] == best[0] and got[1] == pytest.approx(best[1])


def test_matching_finds_the_most_labels_then_the_most_overlap() -> None:
    # label 0 fits card 0 best, but only card 0 fits label 1: both are found
    assert match_boxes([[0.9, 0.6], [0.7, 0.0]]) == {0: 1, 1: 0}
    assert match_boxes([[0.7, 0.0], [0.9, 0.6]]) == {0: 0, 1: 1}
    # as many found either way: the larger total overlap wins
    assert match_boxes([[0.9, 0.6], [0.6, 0.9]]) == {0: 0, 1: 1}
    # under 0.5 is no match; more cards than labels, and none at all
    assert match_boxes([[0.4, 0.49]]) == {}
    assert match_boxes([[0.2, 0.8, 0.6]]) == {0: 1}
    assert match_boxes([[0.6], [0.7], [0.55]]) == {1: 0}
    assert match_boxes([]) == {} and match_boxes([[], []]) == {}


def _card(code: str, box: tuple[float, float, float, float]) -> ImageCard:
    x0, y0, x1, y1 = box
    return ImageCard(
        card=Card.parse(code), face=f"french:{code}", deck=Deck.FRENCH_52, confidence=0.9,
        corners=((x0, y0), (x1, y0), (x1, y1), (x0, y1)),
        prediction=Prediction(f"french:{code}", 0.9, ()), visible=box,
    )  # fmt: skip


def test_the_count_does_not_depend_on_the_order_of_the_labels() -> None:
    # three cards slid over one another: the queen's label overlaps the king's card most, but
    # the king's label overlaps nothing else
    queen, king = (0.0, 0.0, 100.0, 140.0), (20.0, 0.0, 120.0, 140.0)
    cards = [_card("KS", (18.0, 0.0, 120.0, 140.0)), _card("QH", (-30.0, 0.0, 70.0, 140.0))]
    truth = [("queen", queen), ("king", king)]
    for labels in (truth, truth[::-1]):
        best = EvalReport()
        _score(best, "pile", cards, labels)
        assert (best.found, best.rank_correct, best.mistakes) == (2, 2, [])
    first, second = EvalReport(), EvalReport()  # experiments 1 to 16 counted by the xml's order
    _score(first, "pile", cards, truth, matching="order")
    _score(second, "pile", cards, truth[::-1], matching="order")
    assert (first.found, second.found) == (1, 2)
    assert first.mistakes == ["pile: queen read as KS", "pile: king not found (shared)"]
    assert first.misses == {"shared": 1, "box off": 0, "read as no card": 0, "nothing near": 0}
    with pytest.raises(ValueError, match="matching must be one of best, order, not 'greedy'"):
        _score(EvalReport(), "pile", cards, truth, matching="greedy")


def test_each_label_not_found_is_counted_under_its_cause() -> None:
    assert miss_cause([0.7, 0.2]) == "shared"
    assert miss_cause([0.5]) == "shared"
    assert miss_cause([0.49, 0.1]) == "box off"
    assert miss_cause([0.25]) == "box off"
    assert miss_cause([0.24]) == "nothing near"
    assert miss_cause([]) == "nothing near"
    assert miss_cause([0.2], [0.1, 0.5]) == "read as no card"
    assert miss_cause([0.3], [0.9]) == "box off"
    assert miss_cause([0.2], [0.49]) == "nothing near"
    # two labels of a tight pile, one card found over both; a card a third off another label;
    # a label with nothing near it
    cards = [_card("AH", (0.0, 0.0, 100.0, 140.0)), _card("9C", (300.0, 0.0, 400.0, 140.0))]
    truth = [("ace", (0.0, 0.0, 100.0, 140.0)), ("ten", (8.0, 0.0, 108.0, 140.0)),
             ("nine", (220.0, 0.0, 320.0, 140.0)), ("king", (600.0, 0.0, 700.0, 140.0))]  # fmt: skip
    report = EvalReport()
    _score(report, "table", cards, truth)
    assert report.found == 1 and report.rank_correct == 1
    assert report.misses == {"shared": 1, "box off": 0, "read as no card": 0, "nothing near": 2}
    # the nine's box overlaps the found nine by 20 x 140 / (180 x 140) = 0.11: nothing near;
    # widened to overlap it by a third, it is a box off
    truth[2] = ("nine", (250.0, 0.0, 350.0, 140.0))
    report = EvalReport()
    _score(report, "table", cards, truth)
    assert report.misses == {"shared": 1, "box off": 1, "read as no card": 0, "nothing near": 1}
    assert sorted(report.mistakes) == [
        "table: king not found (nothing near)",
        "table: nine not found (box off)",
        "table: ten not found (shared)",
    ]
    assert report.summary()["misses"] == report.misses
    # a region read as no card over the king: it is not found, and that says why
    report = EvalReport()
    _score(report, "table", cards, truth, no_card=[(598.0, 2.0, 700.0, 140.0)])
    assert report.found == 1
    assert report.misses == {"shared": 1, "box off": 1, "read as no card": 1, "nothing near": 0}
