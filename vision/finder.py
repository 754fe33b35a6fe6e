"""Card finding: bright low-saturation quadrilaterals, ordered and warped upright.

A card is found as a connected bright region (the minimum of the three colour channels above an
Otsu threshold), simplified to four corners, and warped to a portrait crop for the recogniser.
Corners are returned clockwise from the top-left of the upright card (the short side first), in
frame pixel coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognizer import INPUT_H, INPUT_W


@dataclass(frozen=True)
class FinderConfig:
    """Tuning of the finder; fractions are of the (working) image area."""

    work_width: int = 640  # frames are searched at this width, corners scaled back
    min_area: float = 0.002
    max_area: float = 0.5
    min_aspect: float = 1.15  # long side / short side of a card seen roughly from above
    max_aspect: float = 2.1
    min_fill: float = 0.8  # region area / quadrilateral area
    threshold: int | None = None  # None: Otsu on the whiteness image
    min_threshold: int = 90
    extra_thresholds: tuple[int, ...] = ()  # further levels above Otsu's, e.g. (25, 50)
    edges: bool = False  # also try closed Canny outlines (still photos on busy backgrounds)


STILL_IMAGE = FinderConfig(extra_thresholds=(25, 50), edges=True)


@dataclass(frozen=True)
class FoundCard:
    """A card-shaped quadrilateral: corners (4x2 float32, clockwise from the upright top-left)."""

    corners: np.ndarray

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def area(self) -> float:
        return float(cv2.contourArea(self.corners.astype(np.float32)))

    def bbox(self) -> tuple[int, int, int, int]:
        x0, y0 = self.corners.min(axis=0)
        x1, y1 = self.corners.max(axis=0)
        return int(x0), int(y0), int(np.ceil(x1)), int(np.ceil(y1))


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise (in image coordinates) starting so the first side is short."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    c = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(angles)]  # increasing angle = clockwise on screen (y down)
    start = int(np.argmin(pts.sum(axis=1)))  # nearest the top-left
    pts = np.roll(pts, -start, axis=0)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)  # a landscape card: start at the next corner
    return pts


def whiteness(frame: np.ndarray) -> np.ndarray:
    """Per-pixel min over B, G, R: high only where all channels are high (white card stock)."""
    if frame.ndim != 3:
        return frame
    b, g, r = cv2.split(frame)
    cv2.min(b, g, dst=b)
    cv2.min(b, r, dst=b)
    return b


def _quad(contour: np.ndarray, cfg: FinderConfig) -> np.ndarray | None:
    area = cv2.contourArea(contour)
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    approx = cv2.approxPolyDP(hull, 0.04 * peri, True)
    if len(approx) == 4:
        quad = approx.reshape(4, 2).astype(np.float32)
    else:
        quad = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
    qarea = cv2.contourArea(quad)
    if qarea <= 0 or area / qarea < cfg.min_fill:
        return None
    sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
    aspect = (sides[0] + sides[2]) / max(sides[1] + sides[3], 1e-6)
    aspect = max(aspect, 1 / max(aspect, 1e-6))
    if not cfg.min_aspect <= aspect <= cfg.max_aspect:
        return None
    return quad


def _candidates(mask: np.ndarray, cfg: FinderConfig, scale: float, mode: int) -> list[np.ndarray]:
    contours, _ = cv2.findContours(mask, mode, cv2.CHAIN_APPROX_SIMPLE)
    total = mask.shape[0] * mask.shape[1]
    quads = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if not cfg.min_area * total <= area <= cfg.max_area * total:
            continue
        quad = _quad(contour, cfg)
        if quad is not None:
            quads.append(order_corners(quad / scale))
    return quads


def _duplicate(quad: np.ndarray, kept: np.ndarray) -> bool:
    """The same card: IoU over 0.5."""
    inter, _ = cv2.intersectConvexConvex(quad, kept)
    union = cv2.contourArea(quad) + cv2.contourArea(kept) - inter
    return union > 0 and inter / union > 0.5


def inside(inner: np.ndarray, outer: np.ndarray) -> bool:
    """Whether ``inner`` lies nine tenths inside ``outer`` and is smaller (a printed frame
    on a card, or a card within a region of several merged cards)."""
    inter, _ = cv2.intersectConvexConvex(inner.astype(np.float32), outer.astype(np.float32))
    a, b = cv2.contourArea(inner.astype(np.float32)), cv2.contourArea(outer.astype(np.float32))
    return a > 0 and inter / a > 0.9 and a < 0.8 * b


def find_cards(frame: np.ndarray, config: FinderConfig | None = None) -> list[FoundCard]:
    """Every card-shaped bright quadrilateral in a BGR frame, largest first.

    The whiteness image is thresholded at Otsu's level (and, with ``extra_thresholds``, at
    levels above it, which separates cards from a light background); with ``edges`` the
    closed outlines of a Canny edge map are tried too. Candidates that mostly overlap an
    earlier (or larger) one are dropped; nested candidates are kept for the reader to judge.
    """
    cfg = config or FinderConfig()
    h, w = frame.shape[:2]
    scale = min(1.0, cfg.work_width / w)
    small = frame if scale == 1.0 else cv2.resize(frame, (int(w * scale), int(h * scale)),
                                                  interpolation=cv2.INTER_AREA)  # fmt: skip
    white = whiteness(small)
    if cfg.threshold is None:
        t, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        base = max(int(t), cfg.min_threshold)
    else:
        base = cfg.threshold
    kernel = np.ones((5, 5), np.uint8)
    quads: list[np.ndarray] = []
    for offset in (0, *cfg.extra_thresholds):
        level = base + offset
        if level >= 250:
            break
        binary = (white > level).astype(np.uint8)
        mask = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, kernel)
        quads += _candidates(mask, cfg, scale, cv2.RETR_EXTERNAL)
    if cfg.edges:
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        edges = cv2.Canny(cv2.GaussianBlur(gray, (5, 5), 0), 40, 120)
        edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
        quads += _candidates(edges, cfg, scale, cv2.RETR_LIST)
    kept: list[np.ndarray] = []
    for quad in sorted(quads, key=lambda q: -cv2.contourArea(q)) if cfg.edges else quads:
        if not any(_duplicate(quad, other) for other in kept):
            kept.append(quad)
    found = [FoundCard(q) for q in kept]
    found.sort(key=lambda f: -f.area)
    return found


def warp_card(
    frame: np.ndarray, corners: np.ndarray, size: tuple[int, int] = (INPUT_H, INPUT_W)
) -> np.ndarray:
    """The upright card inside ``corners`` as a ``size`` (height, width) BGR crop."""
    h, w = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    return cv2.warpPerspective(frame, matrix, (w, h), flags=cv2.INTER_AREA)
