"""Fitting a detector's quad to the card's edges (``vision.refine``), on generated photos."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.refine import grey_for_refine, refine_quad


def _rect(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    """Corners of a w x h rectangle turned by ``angle`` degrees: top-left first, clockwise
    (before the turn)."""
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return (local @ rot.T + [cx, cy]).astype(np.float32)


def _photo(card: np.ndarray, *, light_right_of: float | None = None) -> np.ndarray:
    """A white card on a dark grey photo 480 x 640 (BGR); with ``light_right_of``, the photo
    right of that x is as white as the card."""
    img = np.full((480, 640, 3), 60, np.uint8)
    if light_right_of is not None:
        img[:, int(light_right_of) :] = 235
    pts = np.round(card * 16).astype(np.int32)
    cv2.fillConvexPoly(img, pts, (235, 235, 235), cv2.LINE_AA, 4)
    return img


def _worst_corner(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.linalg.norm(a - b, axis=1).max())


@pytest.mark.parametrize("angle", [0.0, 20.0, -35.0, 90.0])
def test_an_offset_quad_is_moved_onto_the_card(angle: float) -> None:
    card = _rect(320, 240, 140, 200, angle)
    # the detector's guess: 8 px right, 6 px up, 6 % too big and turned 3 degrees
    guess = _rect(328, 234, 140 * 1.06, 200 * 1.06, angle + 3.0)
    assert _worst_corner(guess, card) > 12
    fitted = refine_quad(grey_for_refine(_photo(card)), guess)
    assert _worst_corner(fitted, card) < 3.0  # one patch pixel is 2 photo px here
    # the corners keep their order: each is the one nearest the guess's same corner
    assert [int(np.argmin(np.linalg.norm(card - p, axis=1))) for p in fitted] == [0, 1, 2, 3]


def test_a_quad_already_on_the_card_is_kept_as_it_is() -> None:
    card = _rect(300, 250, 150, 210, 12.0)
    fitted = refine_quad(grey_for_refine(_photo(card)), card)
    assert np.array_equal(fitted, card)


def test_a_side_without_an_edge_keeps_the_detectors_size() -> None:
    # the card's right side lies on a background as light as the card: no edge there, so
    # the right side is placed the detector's width from the left edge that is found
    card = _rect(300, 240, 140, 200, 0.0)
    guess = _rect(310, 240, 150, 200, 0.0)  # 10 px too wide, shifted right by 10 px
    photo = _photo(card, light_right_of=370.0)  # the card's right side is at x = 370
    fitted = refine_quad(grey_for_refine(photo), guess)
    left = fitted[:, 0].min()
    assert abs(left - 230.0) <= 2.0  # the real left edge
    assert abs((fitted[:, 0].max() - left) - 150.0) <= 2.0  # the detector's width kept
    assert abs(fitted[:, 1].min() - 140.0) <= 2.0 and abs(fitted[:, 1].max() - 340.0) <= 2.0


def test_no_edges_or_a_tiny_card_leave_the_quad_alone() -> None:
    blank = np.full((480, 640), 128.0, np.float32)
    guess = _rect(320, 240, 140, 200, 10.0)
    assert np.array_equal(refine_quad(blank, guess), guess)
    tiny = _rect(100, 100, 8, 11, 0.0)
    photo = grey_for_refine(_photo(_rect(102, 101, 8, 11, 0.0)))
    assert np.array_equal(refine_quad(photo, tiny), tiny)


def test_a_quad_far_off_the_card_is_not_dragged_onto_it() -> None:
    # the nearest edges are a quarter of the card away: beyond the search, and sides that
    # would differ by more than 15 %: the detector's quad stays
    card = _rect(320, 240, 140, 200, 0.0)
    guess = _rect(320 + 60, 240, 140, 200, 0.0)
    fitted = refine_quad(grey_for_refine(_photo(card)), guess)
    assert np.array_equal(fitted, guess)
