"""Card finding: bright low-saturation quadrilaterals, ordered and warped upright.

A card is found as a connected bright region (the minimum of the three colour channels above an
Otsu threshold), simplified to four corners, and warped to a portrait crop for the recogniser.
Corners are returned clockwise from the top-left of the upright card (the short side first), in
frame pixel coordinates.

For still photos (``STILL_IMAGE``) more cues are tried: levels above Otsu's, closed Canny
outlines, regions that differ from the colour along the image border (cards on a light table),
and cards completed from a visible right-angled corner (cards partly covered in a fan or a
pile), sized like the whole cards found in the same photo.
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
    background: bool = False  # also try regions that differ from the colour along the border
    complete: bool = False  # complete partly covered cards (fans, piles) from a visible corner
    card_aspect: float = 1.4  # long / short side of the printed cards, for ``complete``
    corner_fill: float = 0.85  # share of a completed card that must lie on foreground


STILL_IMAGE = FinderConfig(extra_thresholds=(25, 50), edges=True, background=True, complete=True)


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


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads (4 x 2 float32)."""
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def box_iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Intersection over union of two axis-aligned boxes (x0, y0, x1, y1)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


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


def _duplicate(quad: np.ndarray, kept: np.ndarray, limit: float = 0.5) -> bool:
    """The same card: IoU over ``limit``."""
    inter, _ = cv2.intersectConvexConvex(quad, kept)
    union = cv2.contourArea(quad) + cv2.contourArea(kept) - inter
    return union > 0 and inter / union > limit


def inside(inner: np.ndarray, outer: np.ndarray) -> bool:
    """Whether ``inner`` lies nine tenths inside ``outer`` and is smaller (a printed frame
    on a card, or a card within a region of several merged cards)."""
    inter, _ = cv2.intersectConvexConvex(inner.astype(np.float32), outer.astype(np.float32))
    a, b = cv2.contourArea(inner.astype(np.float32)), cv2.contourArea(outer.astype(np.float32))
    return a > 0 and inter / a > 0.9 and a < 0.8 * b


def background_mask(small: np.ndarray) -> np.ndarray:
    """Pixels whose colour (Lab) is far from the median colour of the image border: on a
    plain light table the cards stand out from it even where they are not much whiter."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.concatenate([lab[:4].reshape(-1, 3), lab[-4:].reshape(-1, 3),
                             lab[:, :4].reshape(-1, 3), lab[:, -4:].reshape(-1, 3)])  # fmt: skip
    dist = np.linalg.norm(lab - np.median(border, axis=0), axis=2)
    dist = cv2.GaussianBlur(np.clip(dist * 3, 0, 255).astype(np.uint8), (5, 5), 0)
    t, binary = cv2.threshold(dist, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if t < 20:  # no clear difference: a busy background, leave it to the other cues
        return np.zeros_like(binary)
    return cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _card_size(quads: list[np.ndarray]) -> tuple[float, float] | None:
    """Median long and short side of the larger whole cards found (working-image pixels)."""
    if not quads:
        return None
    areas = [cv2.contourArea(q.astype(np.float32)) for q in quads]
    quads = [q for q, a in zip(quads, areas, strict=True) if a >= 0.5 * max(areas)]
    sides = [np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1) for q in quads]
    longs = [max(s[0] + s[2], s[1] + s[3]) / 2 for s in sides]
    shorts = [min(s[0] + s[2], s[1] + s[3]) / 2 for s in sides]
    return float(np.median(longs)), float(np.median(shorts))


def _corner_candidates(regions: np.ndarray, mask: np.ndarray, size: tuple[float, float] | None,
                       cfg: FinderConfig) -> list[np.ndarray]:  # fmt: skip
    """Cards completed from a visible right-angled corner of a foreground region.

    A card under others in a fan or a pile shows one corner (with its index) and parts of two
    sides. From each convex right-angled corner of a region's outline a card of the expected
    size (the whole cards found, else the region's longest straight side) is laid along both
    sides, both ways round; it is kept when ``corner_fill`` of it lies on the foreground
    ``mask``. ``regions`` is the foreground cut along edges, so that the visible part of each
    card in a row of overlapping cards is a region of its own.
    """
    h, w = mask.shape
    total = h * w
    contours, _ = cv2.findContours(regions, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out: list[np.ndarray] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < cfg.min_area * total / 4:
            continue
        peri = cv2.arcLength(contour, True)
        poly = cv2.approxPolyDP(contour, 0.012 * peri, True).reshape(-1, 2).astype(np.float32)
        n = len(poly)
        if n < 4 or n > 40:
            continue
        segs = np.linalg.norm(poly - np.roll(poly, 1, axis=0), axis=1)
        hints = [(float(segs.max()), float(segs.max()) / cfg.card_aspect)]
        if size is not None:
            hints.append(size)
        for hint in hints:
            out += _corners_of(poly, hint, regions, mask, cfg.corner_fill, cfg.max_area)
    return out


def _corners_of(poly: np.ndarray, dims: tuple[float, float], regions: np.ndarray,
                mask: np.ndarray, fill: float, max_area: float) -> list[np.ndarray]:  # fmt: skip
    h, w = mask.shape
    n = len(poly)
    out: list[np.ndarray] = []
    big, small_side = dims
    if small_side < 8:
        return out
    for i in range(n):
        p, a, b = poly[i], poly[i - 1], poly[(i + 1) % n]
        u, v = a - p, b - p
        lu, lv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
        if min(lu, lv) < 0.2 * small_side:
            continue
        u, v = u / lu, v / lv
        if abs(float(u @ v)) > 0.2:  # not a right angle (78..102 degrees)
            continue
        probe = (p + (u + v) * 3).round().astype(int)
        if not (0 <= probe[0] < w and 0 <= probe[1] < h) or not regions[probe[1], probe[0]]:
            continue  # a reflex corner: the region lies outside it
        for (d1, l1), (d2, l2) in (((u, lu), (v, lv)), ((v, lv), (u, lu))):
            if l1 > big * 1.15 or l2 > small_side * 1.15:
                continue  # the visible sides do not fit this way round
            quad = np.array([p, p + d1 * big, p + d1 * big + d2 * small_side,
                             p + d2 * small_side], np.float32)  # fmt: skip
            inside_img = (quad[:, 0] >= -0.05 * w).all() and (quad[:, 0] <= 1.05 * w).all()
            inside_img &= (quad[:, 1] >= -0.05 * h).all() and (quad[:, 1] <= 1.05 * h).all()
            if not inside_img:
                continue
            poly_mask = np.zeros_like(mask)
            cv2.fillConvexPoly(poly_mask, quad.round().astype(np.int32), 1)
            n_in = int(poly_mask.sum())
            if n_in > max_area * h * w:
                continue
            if n_in and int((poly_mask & mask).sum()) >= fill * n_in:
                out.append(quad)
    return out


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
    masks: list[np.ndarray] = []
    for offset in (0, *cfg.extra_thresholds):
        level = base + offset
        if level >= 250:
            break
        binary = (white > level).astype(np.uint8)
        mask = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, kernel)
        masks.append(mask)
        quads += _candidates(mask, cfg, scale, cv2.RETR_EXTERNAL)
    if cfg.background and small.ndim == 3:
        mask = background_mask(small)
        if mask.any():
            masks.append(mask)
            quads += _candidates(mask, cfg, scale, cv2.RETR_EXTERNAL)
    edges = None
    if cfg.edges or cfg.complete:
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        edges = cv2.Canny(cv2.GaussianBlur(gray, (5, 5), 0), 40, 120)
        edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    if cfg.edges and edges is not None:
        quads += _candidates(edges, cfg, scale, cv2.RETR_LIST)
    kept: list[np.ndarray] = []
    for quad in sorted(quads, key=lambda q: -cv2.contourArea(q)) if cfg.edges else quads:
        if not any(_duplicate(quad, other) for other in kept):
            kept.append(quad)
    if cfg.complete:
        size = _card_size([q * scale for q in kept])
        for mask in masks:
            cut = mask if edges is None else mask & (edges == 0).astype(np.uint8)
            corners = _corner_candidates(mask, mask, size, cfg)
            if edges is not None:
                corners += _corner_candidates(cut, mask, size, cfg)
            for quad in corners:
                quad = order_corners(quad / scale)
                # cards of a tight fan overlap more than half: a stricter test of sameness
                if not any(_duplicate(quad, other, 0.75) for other in kept):
                    kept.append(quad)
    limit = cfg.max_area * h * w
    found = [FoundCard(q) for q in kept if cv2.contourArea(q) <= limit]
    found.sort(key=lambda f: -f.area)
    return found


def warp_card(
    frame: np.ndarray,
    corners: np.ndarray,
    size: tuple[int, int] = (INPUT_H, INPUT_W),
    *,
    repeat_edge: bool = False,
) -> np.ndarray:
    """The upright card inside ``corners`` as a ``size`` (height, width) BGR crop.

    Where the quad reaches outside ``frame`` (a card partly out of a photo), the crop is black
    there, or with ``repeat_edge`` the frame's nearest edge pixels repeated: the classifier
    never saw a black fill in training, and on still photos that read it less well (experiment 9,
    models/MODEL_HISTORY.md)."""
    h, w = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    border = cv2.BORDER_REPLICATE if repeat_edge else cv2.BORDER_CONSTANT
    return cv2.warpPerspective(frame, matrix, (w, h), flags=cv2.INTER_AREA, borderMode=border)
