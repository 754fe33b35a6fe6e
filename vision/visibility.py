"""Which part of each found card shows in a photo: the card inside the frame, less the cards
known to lie on it.

Finders give whole cards, also where a card is partly out of the photo or partly covered (a
fan, an overlapping row). A labelled photo (Pascal VOC) boxes only the *visible* part of each
object, so to compare with it, and to say how much of a card the camera really sees, each card
is cut by the photo's frame, and by the cards lying on it where the caller knows them (the
table tracker knows the order in which cards landed on a pile).

A still photo alone does not prove which of two overlapping cards is on top. Reading it from
the edges (the upper card's outline shows where it crosses the lower card, the lower card's
is hidden) was tried in experiment 5 and judged the order of overlapping pairs right only 85 % of
the time with the true outlines and 71 % with the detector's (development scenes of held-out
decks), so no order is guessed here; tried again in experiment 6 with the detector's cards (cut
the lower card by the upper one), it found 1 more visible box of 394 on those scenes. The
learned detector (``vision.detector``, experiment 5) predicts the visible part of each card
itself; ``vision.pipeline.read_cards`` cuts the frame box to it.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

Box = tuple[float, float, float, float]

MASK_SIDE = 480  # px: the long side of the masks a covered card's visible part is measured on


def clip_box(quad: np.ndarray, width: int, height: int) -> Box | None:
    """The box of ``quad`` (photo px) cut to the photo, or None when it lies wholly outside."""
    x0, y0 = np.maximum(quad.min(axis=0), 0.0)
    x1 = min(float(quad[:, 0].max()), float(width))
    y1 = min(float(quad[:, 1].max()), float(height))
    if x1 <= x0 or y1 <= y0:
        return None
    return float(x0), float(y0), x1, y1


def visible_boxes(shape: tuple[int, ...], quads: Sequence[np.ndarray],
                  above: Sequence[set[int]] | None = None) -> list[Box | None]:  # fmt: skip
    """The box (photo px) of the visible part of each card in a photo of ``shape`` (height,
    width, ...): inside the photo and, where ``above`` names the cards lying on a card
    (indices into ``quads``), not under them. None for a card nothing of which shows."""
    h, w = int(shape[0]), int(shape[1])
    if above is not None and len(above) != len(quads):
        raise ValueError(f"{len(above)} sets of cards above for {len(quads)} cards")
    boxes = [clip_box(np.asarray(q, np.float32), w, h) for q in quads]
    if above is None or not any(above):
        return boxes
    scale = min(1.0, MASK_SIDE / max(h, w))
    mh, mw = max(1, round(h * scale)), max(1, round(w * scale))

    def mask(q: np.ndarray) -> np.ndarray:
        m = np.zeros((mh, mw), np.uint8)
        pts = np.round(np.asarray(q, np.float64) * scale * 16).astype(np.int32)
        cv2.fillConvexPoly(m, pts, 1, cv2.LINE_8, 4)
        return m

    for i, on_it in enumerate(above):
        if not on_it or boxes[i] is None:
            continue
        seen = mask(quads[i])
        for j in on_it:
            seen[mask(quads[j]) > 0] = 0
        ys, xs = np.nonzero(seen)
        if len(xs) == 0:
            boxes[i] = None
            continue
        boxes[i] = (float(xs.min() / scale), float(ys.min() / scale),
                    float(min((xs.max() + 1) / scale, w)), float(min((ys.max() + 1) / scale, h)))  # fmt: skip
    return boxes
