"""Where a card read by its corner index alone lies, drawn as a whole card.

The corner-index path (``vision.corner_finder``) reads a card fanned under another in a hand, or
lying under the next card of a trick, by the one index that shows. That index's box is about a
tenth of the card. A club's screen outlines the card, and an evaluation pairs a reading with its
label by the box of the part of the card that shows: both want the card, not its index.

A card of a fan or a trick lies under a card found whole beside it, and is of that card's size
and nearly of its turn. So the card is placed as that card moved: its index where that card's
index lies at one of its four corners (``INDEX_AT``), of the neighbour's corners the one that
moves it least, and only where the moved card still overlaps the neighbour (it lies under it).
A card read by an index with no such neighbour keeps the index's box.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.index_reader import REGION_H, REGION_W
from vision.visibility import Box, visible_boxes

# The middle of a card's top-left corner index, as shares of the card's short and long side from
# its corner: the medians on card-crops' training faces of the box the shipped corner finder
# finds there (``training.face_tables.indexed_faces("train")``: 2,236 faces; the middle at 0.091
# of the width and 0.135 of the height, the quartiles 0.075-0.114 and 0.117-0.155).
INDEX_AT = (0.091, 0.135)


def corner_sides(quad: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each of the four corners of the card ``quad`` (4 x 2, clockwise) with its two sides as
    vectors from it: (corner, short side, long side)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    out = []
    for k in range(4):
        a, b = q[(k + 1) % 4] - q[k], q[(k - 1) % 4] - q[k]
        out.append((q[k], a, b) if np.hypot(*a) <= np.hypot(*b) else (q[k], b, a))
    return out


def index_places(quad: np.ndarray) -> list[np.ndarray]:
    """Where the middle of an index lies at each of the four corners of the card ``quad`` (4 x 2,
    clockwise): ``INDEX_AT`` inward from the corner along its short and its long side."""
    return [c + INDEX_AT[0] * short + INDEX_AT[1] * long_ for c, short, long_ in corner_sides(quad)]


def at_a_corner(quad: np.ndarray, point: tuple[float, float]) -> bool:
    """Whether ``point`` lies in one of the index corners of the card ``quad`` (4 x 2,
    clockwise): within ``REGION_W`` of its short side and ``REGION_H`` of its long side from a
    corner, as the index reader cuts them (``vision.index_reader``): where the card's own
    indices lie (though in a pile the index of a card under it may show there too)."""
    p = np.asarray(point, np.float64)
    for corner, short, long_ in corner_sides(quad):
        across = float(np.dot(p - corner, short)) / max(float(np.dot(short, short)), 1e-9)
        along = float(np.dot(p - corner, long_)) / max(float(np.dot(long_, long_)), 1e-9)
        if 0 <= across <= REGION_W and 0 <= along <= REGION_H:
            return True
    return False


def overlaps(quad: np.ndarray, shift: np.ndarray) -> bool:
    """Whether the card ``quad`` moved by ``shift`` still overlaps where it was (a rectangle
    moved less than its width across and its height along)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    across, along = q[1] - q[0], q[3] - q[0]
    return bool(
        abs(float(np.dot(shift, across))) < float(np.dot(across, across))
        and abs(float(np.dot(shift, along))) < float(np.dot(along, along))
    )


def placed(index_box: Box, neighbours: Sequence[np.ndarray]) -> np.ndarray | None:
    """The quad (4 x 2 float32) of the card whose index has the box ``index_box`` (x0, y0, x1,
    y1), lying under one of the cards ``neighbours`` (quads found whole): a neighbour moved so
    that one of its index places lies on the index's middle, the least move of all those that
    leave it overlapping where it was. None where no neighbour would overlap it, or where the
    index lies on a neighbour (a card under it shows no index there)."""
    x0, y0, x1, y1 = index_box
    middle = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    best: tuple[float, np.ndarray] | None = None
    for quad in neighbours:
        q = np.asarray(quad, np.float32).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(q, (float(middle[0]), float(middle[1])), False) >= 0:
            return None
        for place in index_places(quad):
            shift = middle - place
            distance = float(np.hypot(*shift))
            if overlaps(quad, shift) and (best is None or distance < best[0]):
                moved = np.asarray(quad, np.float64).reshape(4, 2) + shift
                best = (distance, moved.astype(np.float32))
    return None if best is None else best[1]


def shown_box(shape: tuple[int, ...], quad: np.ndarray,
              above: Sequence[np.ndarray]) -> Box | None:  # fmt: skip
    """The box of the part of the card ``quad`` in a photo of ``shape`` that the cards
    ``above`` (quads) leave showing (``vision.visibility.visible_boxes``)."""
    quads = [np.asarray(quad, np.float32), *(np.asarray(q, np.float32) for q in above)]
    on_it = [set(range(1, len(quads)))] + [set() for _ in above]
    return visible_boxes(shape, quads, on_it)[0]
