"""Calibration: corners or ArUco markers -> homography and seat zones."""

from __future__ import annotations

import numpy as np

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
