"""The pip count (``vision.pips``): a number card's pips counted on a drawn face, a picture or an
ace seen as one large blob, a card contradicted only by more pips than its rank has (never by
being covered), and the tracker's ``pip_check`` asking about a card whose face says otherwise."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.cards import Deck
from tests.test_vision_detector import _face, _lay, _table
from tests.test_vision_tracker_learned import _cards, _Says
from vision.card_faces import design_for_seed, render_face
from vision.pips import PipCount, contradicts, count_pips
from vision.stills import frame_corners, track_still
from vision.tracker import TrackerConfig


@pytest.mark.parametrize("rank", ["2", "3", "4", "5", "6", "7", "8", "T"])
def test_a_number_card_shows_as_many_pips_as_its_rank(rank: str) -> None:
    assert count_pips(_face(f"{rank}S")) == PipCount(10 if rank == "T" else int(rank), False)


def test_the_corner_indices_are_not_counted_where_a_design_draws_them_further_in() -> None:
    design = design_for_seed("french", 6)  # its index pips lie 0.14 of the width in
    counts = [count_pips(render_face(f"french:{r}D", design)).pips for r in "2345678"]
    assert counts == [2, 3, 4, 5, 6, 7, 8]


@pytest.mark.parametrize("code", ["JH", "QS", "KD", "AC"])
def test_a_picture_or_an_ace_is_one_large_blob_and_contradicts_nothing(code: str) -> None:
    count = count_pips(_face(code))
    assert count.large
    assert not any(contradicts(f"{rank}S", count) for rank in "23456789TJQKA")


def test_pips_beside_a_picture_are_not_counted() -> None:
    """A court card of a real deck has suit signs beside its figure, and the figure's lines break
    it into blobs of many sizes: the pips are then a small part of the ink, and nothing is
    counted."""
    face = _face("4S").copy()
    rng = np.random.default_rng(5)
    for _ in range(40):  # a figure's pieces, of many sizes, across the middle
        x, y = int(rng.integers(40, 110)), int(rng.integers(50, 160))
        axes = (int(rng.integers(2, 14)), int(rng.integers(2, 9)))
        cv2.ellipse(face, (x, y), axes, float(rng.uniform(0, 180)), 0, 360, (40, 40, 150), -1)
    assert count_pips(_face("4S")) == PipCount(4, False)
    count = count_pips(face)
    assert count == PipCount(0, True) and not contradicts("KS", count)


def test_a_card_is_contradicted_only_by_more_pips_than_its_rank_has() -> None:
    eight = count_pips(_face("8S"))
    assert [r for r in "23456789TJQKA" if contradicts(f"{r}S", eight)] == [
        "2", "3", "4", "5", "6", "7", "J", "Q", "K", "A"]  # fmt: skip
    assert not contradicts("JK", eight)  # the Joker is not checked


def test_a_covered_card_shows_fewer_pips_never_more() -> None:
    face = _face("8S").copy()
    h = face.shape[0]
    face[h // 2 :] = face[h // 2 + 2, face.shape[1] // 2]  # its lower half under a plain card
    count = count_pips(face)
    assert 2 <= count.pips < 8 and not contradicts("8S", count)


def test_a_face_without_ink_shows_nothing_and_a_grey_image_is_refused() -> None:
    assert count_pips(np.full((210, 150, 3), 230, np.uint8)) == PipCount(0, False)
    refused = r"a face is a BGR image, not an array of shape \(210, 150\)"
    with pytest.raises(ValueError, match=refused):
        count_pips(np.full((210, 150), 230, np.uint8))


def test_the_pip_check_asks_about_a_card_whose_face_shows_more_pips() -> None:
    """An eight of spades read surely as the two: committed as read without the check, asked
    with it; read as the eight, committed either way."""
    felt = _table(720, 1280)
    _lay(felt, _face("8S"), (640, 360), 15, 170)
    corners = frame_corners(felt)
    check = TrackerConfig(pip_check=True)

    def cards(label: str, config: TrackerConfig) -> list[tuple[str, str]]:
        return _cards(track_still(felt, _Says(label, 0.99), deck=Deck.FRENCH_52,
                                  corners=corners, config=config))  # fmt: skip

    assert cards("french:2S", TrackerConfig()) == [("seen", "2S")]
    assert cards("french:2S", check) == [("asked", "2S")]
    assert cards("french:8S", check) == [("seen", "8S")]
