"""Calibration: the homography from camera pixels to the table mat, and the seat zones on it.

Table coordinates are millimetres on the mat, origin at its top-left corner as the camera sees
it. Seats are numbered in the order of play, seat 0 at the bottom edge of the image, going
counter-clockwise as seen from above (bottom, right, top, left for four). Each seat owns a
wedge from the mat's centre to its edge; a played card lies in the wedge of the seat that
played it, whether in front of the player or in the central pile.

The mat carries ArUco markers (``DICT_4X4_50``, ``MARKER_SIDE`` mm) with ids 0, 1, 2, 3 in its
top-left, top-right, bottom-right and bottom-left corners, centred ``MARKER_INSET`` mm in from
both edges; or the four mat corners are given by hand.

>>> cal = TableCalibration.from_corners([(0, 0), (800, 0), (800, 600), (0, 600)],
...                                     mat_size=(800.0, 600.0), n_seats=4)
>>> cal.seat_at_pixel((400, 560)), cal.seat_at_pixel((780, 300)), cal.seat_at_pixel((400, 20))
(0, 1, 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

ARUCO_DICT = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left
MARKER_SIDE = 50.0  # mm
MARKER_INSET = 45.0  # mm from each edge to a marker's centre


def marker_centers(mat_size: tuple[float, float]) -> list[tuple[float, float]]:
    """Mat coordinates of the marker centres, in MARKER_IDS order."""
    w, h = mat_size
    i = MARKER_INSET
    return [(i, i), (w - i, i), (w - i, h - i), (i, h - i)]


class CalibrationError(ValueError):
    """The mat could not be located in the frame."""


def _ray_to_rect(cx: float, cy: float, angle: float, w: float, h: float) -> tuple[float, float]:
    dx, dy = math.cos(angle), math.sin(angle)
    ts = []
    if dx > 1e-9:
        ts.append((w - cx) / dx)
    if dx < -1e-9:
        ts.append(-cx / dx)
    if dy > 1e-9:
        ts.append((h - cy) / dy)
    if dy < -1e-9:
        ts.append(-cy / dy)
    t = min(ts)
    return cx + t * dx, cy + t * dy


def seat_angle(seat: int, n_seats: int) -> float:
    """Direction (radians, image convention: y down) from the mat centre towards ``seat``."""
    return math.pi / 2 - 2 * math.pi * seat / n_seats


def wedge_zones(
    mat_size: tuple[float, float], n_seats: int, steps: int = 12
) -> tuple[np.ndarray, ...]:
    """One polygon per seat: the wedge of the mat facing it."""
    w, h = mat_size
    cx, cy = w / 2, h / 2
    zones = []
    for seat in range(n_seats):
        a = seat_angle(seat, n_seats)
        lo, hi = a - math.pi / n_seats, a + math.pi / n_seats
        pts = [(cx, cy)] + [
            _ray_to_rect(cx, cy, lo + (hi - lo) * k / steps, w, h) for k in range(steps + 1)
        ]
        zones.append(np.array(pts, np.float32))
    return tuple(zones)


@dataclass(frozen=True)
class TableCalibration:
    """Pixels -> mat millimetres (``homography``), the mat size and the seat zones on the mat."""

    homography: np.ndarray
    mat_size: tuple[float, float]
    zones: tuple[np.ndarray, ...]

    @property
    def n_seats(self) -> int:
        return len(self.zones)

    @classmethod
    def from_corners(cls, corners: Sequence[Sequence[float]] | np.ndarray, *, mat_size: tuple[float, float],
                     n_seats: int) -> TableCalibration:  # fmt: skip
        """Mat corners in pixels: top-left, top-right, bottom-right, bottom-left."""
        w, h = mat_size
        src = np.asarray(corners, np.float32).reshape(4, 2)
        dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
        return cls(cv2.getPerspectiveTransform(src, dst), (w, h), wedge_zones((w, h), n_seats))

    @classmethod
    def from_aruco(cls, frame: np.ndarray, *, mat_size: tuple[float, float],
                   n_seats: int) -> TableCalibration:  # fmt: skip
        """Find the four corner markers and map their centres to ``marker_centers``."""
        return cls.from_markers(find_markers(frame), mat_size=mat_size, n_seats=n_seats)

    @classmethod
    def from_markers(cls, found: dict[int, tuple[float, float]], *,
                     mat_size: tuple[float, float], n_seats: int) -> TableCalibration:  # fmt: skip
        """From the marker centres ``find_markers`` gave (all four needed)."""
        missing = [i for i in MARKER_IDS if i not in found]
        if missing:
            raise CalibrationError(f"ArUco markers {missing} not found on the mat")
        src = np.array([found[i] for i in MARKER_IDS], dtype=np.float32)
        dst = np.array(marker_centers(mat_size), dtype=np.float32)
        w, h = mat_size
        return cls(cv2.getPerspectiveTransform(src, dst), (w, h), wedge_zones((w, h), n_seats))

    def scaled(self, scale: tuple[float, float]) -> TableCalibration:
        """The same table seen in frames scaled by ``scale`` (x, y; ``sources.fit_frame``):
        corners given in the camera's own pixels serve the frames scaled to fit."""
        undo = np.diag([1.0 / scale[0], 1.0 / scale[1], 1.0])
        return TableCalibration(self.homography @ undo, self.mat_size, self.zones)

    def to_table(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
        inverse = np.linalg.inv(self.homography)
        return cv2.perspectiveTransform(pts, inverse).reshape(-1, 2)

    def seat_at_table(self, point: tuple[float, float]) -> int | None:
        """The seat whose zone holds a mat point, None off the mat."""
        x, y = float(point[0]), float(point[1])
        w, h = self.mat_size
        if not (0 <= x <= w and 0 <= y <= h):
            return None
        for seat, zone in enumerate(self.zones):
            if cv2.pointPolygonTest(zone.reshape(-1, 1, 2), (x, y), False) >= 0:
                return seat
        return None

    def seat_at_pixel(self, pixel: tuple[float, float]) -> int | None:
        p = self.to_table(np.array([pixel], np.float32))[0]
        return self.seat_at_table((float(p[0]), float(p[1])))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for the table's configuration."""
        return {
            "homography": self.homography.astype(float).tolist(),
            "mat_size": list(self.mat_size),
            "zones": [zone.astype(float).tolist() for zone in self.zones],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableCalibration:
        w, h = (float(v) for v in data["mat_size"])
        return cls(
            np.array(data["homography"], np.float64),
            (w, h),
            tuple(np.array(zone, np.float32) for zone in data["zones"]),
        )


def find_markers(frame: np.ndarray) -> dict[int, tuple[float, float]]:
    """Centres of the ArUco markers in a BGR or grey frame, by id."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT))
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, tuple[float, float]] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        c = quad.reshape(4, 2).mean(axis=0)
        found[int(marker_id)] = (float(c[0]), float(c[1]))
    return found


def marker_shift(calibration: TableCalibration,
                 found: dict[int, tuple[float, float]]) -> float | None:  # fmt: skip
    """How far (pixels, the largest of the four) the mat's markers ``found`` in a frame
    (``find_markers``) lie from where ``calibration`` puts them; None unless all four are seen
    (a hand or a card over one says nothing). A camera knocked or turned since it was
    calibrated shows as a shift."""
    if any(i not in found for i in MARKER_IDS):
        return None
    expected = calibration.to_image(np.array(marker_centers(calibration.mat_size), np.float32))
    seen = np.array([found[i] for i in MARKER_IDS], np.float32)
    return float(np.linalg.norm(seen - expected, axis=1).max())


# A table calibrated from the mat's markers looks for them again every RECHECK_FRAMES frames;
# when all four lie more than MOVED_PX pixels from where the calibration puts them, at two
# checks in a row (one could be a marker half under a hand), the camera was knocked or turned.
RECHECK_FRAMES = 30
MOVED_PX = 8.0


class MarkerWatch:
    """Notices a knocked camera: ``check`` each frame; every ``every`` frames the markers are
    looked for, and after two checks in a row that find them moved by more than ``moved_px``
    it gives the table calibrated again from the markers it found (and the shift)."""

    def __init__(self, calibration: TableCalibration, *, n_seats: int,
                 every: int = RECHECK_FRAMES, moved_px: float = MOVED_PX) -> None:  # fmt: skip
        self.calibration, self.n_seats = calibration, n_seats
        self.every, self.moved_px = every, moved_px
        self.frames = 0
        self.moved = False  # the last check found the markers shifted

    def check(self, frame: np.ndarray) -> tuple[TableCalibration, float] | None:
        self.frames += 1
        if self.frames % self.every:
            return None
        found = find_markers(frame)
        shift = marker_shift(self.calibration, found)
        was_moved, self.moved = self.moved, shift is not None and shift > self.moved_px
        if not (self.moved and was_moved) or shift is None:
            return None
        self.moved = False
        self.calibration = TableCalibration.from_markers(
            found, mat_size=self.calibration.mat_size, n_seats=self.n_seats
        )
        return self.calibration, shift


def marker_image(marker_id: int, side: int) -> np.ndarray:
    """The printable marker ``marker_id`` (grey, ``side`` pixels) with a one-cell white margin."""
    inner = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(ARUCO_DICT),
                                          marker_id, side)  # fmt: skip
    margin = side // 6
    return cv2.copyMakeBorder(inner, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=255)
