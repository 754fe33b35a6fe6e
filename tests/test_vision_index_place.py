"""Where a card read by its corner index alone lies (``vision.index_place``): the card found whole
that it lies under, moved onto the index; and which corners of a card hold its own indices."""

from __future__ import annotations

import numpy as np
import pytest

from vision.index_place import INDEX_AT, at_a_corner, index_places, placed, shown_box

# a portrait card 100 x 140 px with its top-left corner at (100, 0)
CARD = np.array([[100, 0], [200, 0], [200, 140], [100, 140]], np.float32)
TOP_LEFT = (100 + INDEX_AT[0] * 100, INDEX_AT[1] * 140)


def _box(x: float, y: float, side: float = 10.0) -> tuple[float, float, float, float]:
    return x - side / 2, y - side / 2, x + side / 2, y + side / 2


def test_the_index_places_lie_inward_of_each_corner_along_its_short_and_long_side() -> None:
    places = index_places(CARD)
    assert places[0] == pytest.approx(TOP_LEFT)
    assert places[2] == pytest.approx((200 - INDEX_AT[0] * 100, 140 - INDEX_AT[1] * 140))
    # a landscape card: the short side is the one down from the top-left corner
    landscape = np.array([[0, 0], [140, 0], [140, 100], [0, 100]], np.float32)
    assert index_places(landscape)[0] == pytest.approx((INDEX_AT[1] * 140, INDEX_AT[0] * 100))


def test_a_fanned_under_card_is_the_card_over_it_moved_onto_its_index() -> None:
    # the card under it shows its top-left index 40 px left of the top card's
    quad = placed(_box(TOP_LEFT[0] - 40, TOP_LEFT[1]), [CARD + [0, 200], CARD])
    assert quad is not None  # moved from the card it overlaps, not the one below it
    assert quad.ravel().tolist() == pytest.approx((CARD + [-40, 0]).ravel().tolist())
    # its visible part: the strip the top card leaves, the card's whole height
    assert shown_box((300, 400, 3), quad, [CARD]) == pytest.approx((60, 0, 100, 140), abs=2)


def test_a_turned_neighbour_gives_the_card_its_turn() -> None:
    turn = np.radians(30)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    card = (CARD - [150, 70]) @ rotation.T + [300, 300]
    index = index_places(card)[0] + [-30, 5]
    where = placed((index[0] - 5, index[1] - 5, index[0] + 5, index[1] + 5), [card])
    assert where is not None
    assert where.ravel().tolist() == pytest.approx((card + [-30, 5]).ravel().tolist(), abs=1e-3)


def test_an_index_on_the_card_or_far_from_every_card_is_not_placed() -> None:
    assert placed(_box(150, 70), [CARD]) is None  # on the card: a card under it shows nothing
    assert placed(_box(350, 70), [CARD]) is None  # the card moved there would not overlap it
    assert placed(_box(50, 50), []) is None


def test_placing_picks_the_corner_that_moves_the_card_least() -> None:
    # just below the top card's bottom-left corner: its bottom-left index place is nearest
    x, y = 100 + INDEX_AT[0] * 100, 140 - INDEX_AT[1] * 140
    where = placed(_box(x, y + 30), [CARD])
    assert where is not None
    assert where.ravel().tolist() == pytest.approx((CARD + [0, 30]).ravel().tolist())


def test_an_index_corner_is_the_corner_the_index_reader_cuts_at_each_end() -> None:
    assert at_a_corner(CARD, TOP_LEFT)
    assert at_a_corner(CARD, (195, 135))  # the bottom-right corner
    assert at_a_corner(CARD, (195, 5))  # and the two others: some designs print four indices
    assert not at_a_corner(CARD, (150, 70))  # the middle of the card
    assert not at_a_corner(CARD, (150, 10))  # the top edge, between the corners
    assert not at_a_corner(CARD, (95, 10))  # off the card
