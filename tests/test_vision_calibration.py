"""Calibration: corners or ArUco markers -> homography and seat zones."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import Card, Deck
from vision.calibration import TableCalibration, find_markers, wedge_zones
from vision.synthetic import MAT_SIZE, SyntheticTable


def test_four_seats_from_corners() -> None:
    cal = TableCalibration.from_corners([(100, 50), (900, 50), (900, 650), (100, 650)],
                                        mat_size=(800.0, 600.0), n_seats=4)  # fmt: skip
    assert [cal.seat_at_pixel(p) for p in [(500, 600), (880, 350), (500, 70), (120, 350)]] == [
        0,
        1,
        2,
        3,
    ]
    assert cal.seat_at_pixel((50, 50)) is None  # off the mat
    np.testing.assert_allclose(cal.to_table(np.array([[500, 350]])), [[400, 300]], atol=1e-3)


def test_three_seat_wedges_cover_the_mat() -> None:
    zones = wedge_zones((900.0, 700.0), 3)
    assert len(zones) == 3
    cal = TableCalibration(np.eye(3), (900.0, 700.0), zones)
    # seat 0 at the bottom, seat 1 upper right, seat 2 upper left
    assert cal.seat_at_table((450, 650)) == 0
    assert cal.seat_at_table((850, 100)) == 1
    assert cal.seat_at_table((50, 100)) == 2


def test_round_trip_through_config() -> None:
    cal = TableCalibration.from_corners([(0, 0), (640, 10), (630, 480), (5, 470)],
                                        mat_size=(900.0, 700.0), n_seats=4)  # fmt: skip
    again = TableCalibration.from_dict(cal.to_dict())
    np.testing.assert_allclose(again.homography, cal.homography)
    assert again.mat_size == cal.mat_size
    assert [z.shape for z in again.zones] == [z.shape for z in cal.zones]


def test_aruco_calibration_matches_the_renderer() -> None:
    table = SyntheticTable(
        [(0, Card.parse("AS"))], n_seats=4, deck=Deck.PIQUET_32, seed=5, fast=True
    )
    frame = table.render(0)
    assert sorted(find_markers(frame)) == [0, 1, 2, 3]
    cal = TableCalibration.from_aruco(frame, mat_size=MAT_SIZE, n_seats=4)
    probe = np.array([[100, 100], [450, 350], [800, 600]], np.float32)
    pixels = table.calibration.to_image(probe)
    np.testing.assert_allclose(cal.to_table(pixels), probe, atol=2.0)  # within 2 mm


def test_the_marker_watch_calibrates_again_only_after_two_checks_that_saw_a_move() -> None:
    """A frame shifted by (12, 5) px once (a single check: could be a hand) changes nothing;
    shifted at two checks in a row, the table is calibrated again where the mat now lies."""
    import cv2

    from vision.calibration import MarkerWatch

    table = SyntheticTable(
        [(0, Card.parse("AS"))], n_seats=4, deck=Deck.PIQUET_32, seed=5, fast=True
    )
    frame = table.render(0)
    h, w = frame.shape[:2]
    moved = cv2.warpAffine(frame, np.array([[1, 0, 12], [0, 1, 5]], np.float32), (w, h),
                           flags=cv2.INTER_NEAREST, borderValue=(40, 45, 50))  # fmt: skip
    cal = TableCalibration.from_aruco(frame, mat_size=MAT_SIZE, n_seats=4)
    watch = MarkerWatch(cal, n_seats=4, every=2)
    assert [watch.check(f) for f in (moved, moved, frame, frame, moved)] == [None] * 5
    assert watch.check(moved) is None  # the first check (frame 6) that saw the move
    assert watch.check(frame) is None  # frame 7 is not looked at
    again = watch.check(moved)  # frame 8: the second check in a row
    assert again is not None and again[1] == pytest.approx(13.0, abs=1.0)
    probe = np.array([[100, 100], [450, 350]], np.float32)
    np.testing.assert_allclose(again[0].to_image(probe), cal.to_image(probe) + [12, 5], atol=1.5)
    assert watch.calibration is again[0] and watch.check(moved) is None


def test_corners_given_in_the_cameras_pixels_serve_frames_scaled_to_fit() -> None:
    """Corners measured on 1920 x 1080 frames, the frames read at 1280 x 720: a pixel of the
    scaled frame maps to the mat point its camera pixel maps to, and to the same seat."""
    cal = TableCalibration.from_corners([(150, 60), (1780, 90), (1750, 1030), (170, 1010)],
                                        mat_size=MAT_SIZE, n_seats=4)  # fmt: skip
    scaled = cal.scaled((2 / 3, 2 / 3))
    pixels = np.array([[960, 540], [200, 100], [1700, 1000], [960, 1000]], np.float32)
    np.testing.assert_allclose(scaled.to_table(pixels * 2 / 3), cal.to_table(pixels), atol=1e-2)
    assert [scaled.seat_at_pixel((x * 2 / 3, y * 2 / 3)) for x, y in pixels] == [
        cal.seat_at_pixel((x, y)) for x, y in pixels
    ]
    assert cal.seat_at_pixel((960, 1000)) == 0
    # without the scale the same pixel of the scaled frame lies elsewhere on the mat
    assert not np.allclose(cal.to_table(pixels * 2 / 3), cal.to_table(pixels), atol=1.0)
